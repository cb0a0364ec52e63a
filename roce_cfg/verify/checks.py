"""The checks: what the switches report (neutral records, verify/data.py) against the plan.

Each fault is reported once, where it is: a down link is one finding, not also a missing LLDP
neighbour and a BGP session down on both ends; a swap of two cables is one finding, not four
wrong neighbours. Checks run in order (links, cabling, underlay, lossless state, counters) and
later ones skip what an earlier one explained."""

from __future__ import annotations

from roce_cfg.analysis.findings import Finding
from roce_cfg.verify.observed import Observed, Options
from roce_cfg.verify.state import check_counters, check_lossless, check_underlay
from roce_cfg.verify.wiring import check_cabling, check_links

CHECKS = (check_links, check_cabling, check_underlay, check_lossless, check_counters)


def run_checks(obs: Observed) -> list[Finding]:
    for check in CHECKS:
        check(obs)
    return obs.findings


__all__ = [
    "CHECKS",
    "Observed",
    "Options",
    "check_cabling",
    "check_counters",
    "check_links",
    "check_lossless",
    "check_underlay",
    "run_checks",
]
