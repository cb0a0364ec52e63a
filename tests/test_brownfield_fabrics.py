"""The issue-26 corpus (tests/brownfield/fabrics/*): every planted fault found, nothing it names as
a false error reported, evidence gaps keep the exit code non-zero, and no secret in any output.

Data-driven from each folder's ``expected.yaml`` (read tests/brownfield/fabrics/README.md): a fault
is found when lint (or deadlock, for faults with ``deadlock_after``) reports a finding of one of
the rules its ``rule_hint`` names ('new: ...' hints: the rules in ``NEW_RULES``), on the device
and port it names, at its severity, and on one of its lines (a finding elsewhere in the same block
- the interface or the 'bgp' block the line is in - counts: which line of a block a rule points at
is its own choice; a finding that names no line, such as a switch-wide one, is not held to one).
``must_not_report`` and ``cannot_verify`` entries are prose; ``ABSENT`` and ``GAPS`` below say,
per entry, what that prose means as findings.

Cases today's code cannot satisfy are in ``XFAIL``, one table, strict: when a fix lands the case
passes, the run fails, and the entry comes out of the table.

``python -m tests.test_brownfield_fabrics`` prints the table of expected vs found per fabric.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.helpers import ROOT
from tests.helpers import run as cli

FABRICS = ROOT / "tests/brownfield/fabrics"
NAMES = ("hw-v300-mlag", "hw-v200", "h3c-lag")
_RULE = re.compile(r"RC\d{3}")


# --- what the prose entries mean as findings ---
@dataclass(frozen=True)
class Absent:
    """No finding of ``rules`` whose device, port and message match (None: any)."""

    rules: frozenset[str]
    device: str | None = None  # regex, full match
    port: str | None = None  # regex, full match
    message: str | None = None  # regex, searched
    allow: tuple[tuple[str, str], ...] = ()  # (device, port) pairs a planted fault accounts for

    def hits(self, findings: list[dict[str, Any]]) -> list[str]:
        return [_show(f) for f in findings if self._hit(f)]

    def _hit(self, f: dict[str, Any]) -> bool:
        if f["rule"] not in self.rules or (f["device"], f.get("port")) in self.allow:
            return False
        if self.device and not re.fullmatch(self.device, f["device"]):
            return False
        if self.port and not re.fullmatch(self.port, f.get("port") or ""):
            return False
        return not (self.message and not re.search(self.message, f["message"]))


def _r(*rules: str) -> frozenset[str]:
    return frozenset(rules)


_AGG = r"(Eth-Trunk|Route-Aggregation|Bridge-Aggregation)\d+"
# Per fabric, per must_not_report entry (in order): (the entry's first words, what it means).
# 'roles', 'analysed' and 'readable' are checked by their own tests (named in the entry).
ABSENT: dict[str, list[tuple[str, Absent | str]]] = {
    "hw-v300-mlag": [
        ("trust / MTU missing on Eth-Trunk members", Absent(_r("RC108", "RC113", "RC116"))),
        ("PFC, scheduling or ECN missing on an Eth-Trunk",
         Absent(_r("RC101", "RC102", "RC103", "RC107", "RC110"), port=_AGG)),
        ("M-LAG dual-active gateway", Absent(_r("RC307"))),
        ("'no headroom configured'", Absent(_r("RC201"), allow=(("leaf-2", "100GE1/0/4"),))),
        # (F2's peer-link: leaf-2's members have no PFC, so its ends disagree on no-drop)
        ("no-drop priority missing", Absent(_r("RC101", "RC109", "RC301"),
                                            allow=(("leaf-1", "Eth-Trunk0"),
                                                   ("leaf-2", "Eth-Trunk0")))),
        ("watchdog action missing on the spines", Absent(_r("RC110"), device="spine-.*")),
        ("spines classed as leaves", "roles"),
        ("an MTU mismatch on any l3-lag", Absent(_r("RC304"))),
        ("the whole folder refused", "analysed"),
    ],
    "hw-v200": [
        ("the GBK file, the pager residue", "readable"),
        ("cable length 1 m assumed", Absent(_r("RC206"), message="cable length unknown")),
        ("ECN missing on leaf queues", Absent(_r("RC103"), device="leaf-.*")),
        ("an unreadable leaf-5 stopping", "analysed"),
        ("spines classed as leaves", "roles"),
        ("trust DSCP missing on routed ports", Absent(_r("RC108", "RC302"))),
    ],
    "h3c-lag": [
        ("qos trust / WRR / WRED / MTU / jumbo missing",
         Absent(_r("RC103", "RC107", "RC108", "RC113", "RC116"))),
        ("PFC missing on an aggregate interface", Absent(_r("RC101", "RC102", "RC110"), port=_AGG)),
        ("the dual-active gateway", Absent(_r("RC307"))),
        ("watchdog action missing", Absent(_r("RC110"), device="spine-.*|leaf-[12]")),
        ("the CRLF file or the binary file", "analysed"),
        ("headroom not read", Absent(_r("RC115"))),
        ("spines classed as leaves", "roles"),
    ],
}  # fmt: skip
# Per fabric, per cannot_verify entry: the devices that must carry an error finding whose message
# matches (an error: at --fail-on error only an error keeps the exit code non-zero).
_V200_MODELS = r"(CE8850-64CQ-EI|CE6865-48S8CQ-EI).*unknown|unknown.*(CE8850-64CQ|CE6865-48S8CQ)"
GAPS: dict[str, list[tuple[str, tuple[str, ...], str]]] = {
    "hw-v300-mlag": [
        ("spine-1/spine-2 headroom", ("spine-1", "spine-2"), r"(?i)cannot verify.*headroom|hdrm"),
        ("leaf-3/leaf-4 buffer", ("leaf-3", "leaf-4"), r"CE6863E-48S8CQ.*unknown|unknown.*CE6863E"),
        ("spine-2 BGP peer 10.1.2.9", ("spine-2",), r"10\.1\.2\.9"),
    ],
    "hw-v200": [
        ("CE8850-64CQ-EI and CE6865-48S8CQ-EI", ("spine-1", "spine-2", "leaf-1", "leaf-2",
         "leaf-3", "leaf-4"), _V200_MODELS),
        ("leaf-1 PFC watchdog", ("leaf-1",), r"(?i)watchdog|deadlock"),
        ("links and BGP sessions toward leaf-5", ("spine-1", "spine-2"), r"10\.11\.[12]\.9|leaf-5"),
    ],
    "h3c-lag": [
        # Comware prints no model line: 'unknown' is the right answer (expected.yaml, switches)
        ("S9855-48CD8D (leaf-3)", ("leaf-3",), r"(?i)model.*unknown"),
        ("headroom pool and per-port headroom values are in cells", ("spine-1", "spine-2",
         "leaf-1", "leaf-2", "leaf-3"), r"(?i)cell"),
        ("H5: the link and BGP session toward leaf-4", ("spine-1",), r"10\.2\.1\.7|leaf-4"),
    ],
}  # fmt: skip


# --- the one table of what today's code cannot do (lead: remove an entry when its fix lands) ---
_DEGRADE = (
    "a cut-short or binary file stops the folder or is only a note: per-file degrade (i32-ux)"
)
_LAG = "LAG/M-LAG links, member inheritance and roles from the topology (i26-lag)"
_LAG_FAIL = "--fail-links names no LAG or LAG member; a LAG failure opening a cycle (i26-lag)"
_GAP = "an evidence gap reported as an error finding (i26-lag: RC311-RC316)"
XFAIL: dict[str, str] = {
    # hw-v200: leaf-5.cfg is cut short and the whole folder exits 2
    **{f"hw-v200:{c}": _DEGRADE for c in ("G1", "G2", "G3", "G4", "exit-code", "roles",
       "must_not:1", "must_not:2", "must_not:3", "must_not:5", "cannot_verify:0",
       "cannot_verify:1", "cannot_verify:2", "unreadable:leaf-5.cfg")},
    "h3c-lag:unreadable:leaf-4.cfg": _DEGRADE,
    "degrade-per-file": _DEGRADE,
    # docs and report refuse the folder on its SOURCES.md (lint and parse skip it with a note)
    **{f"{fab}:{cmd}": "docs/report refuse a non-config file in the folder: folder discovery "
       "(i32-ux)" for fab in NAMES for cmd in ("docs", "report")},
    # LAG members, the M-LAG peer-link, spines told by topology
    "hw-v300-mlag:F1": f"RC102 on a LAG member: {_LAG}",
    "h3c-lag:H1": f"RC304 on the M-LAG peer-link: {_LAG}",
    "hw-v300-mlag:must_not:0": f"RC108/RC113/RC116 on Eth-Trunk members: {_LAG}",
    "h3c-lag:must_not:0": f"RC107/RC108/RC113 on aggregate members: {_LAG}",
    "h3c-lag:must_not:2": f"RC307 on the dual-active gateway: {_LAG}",
    "hw-v300-mlag:roles": f"spines read as leaves: {_LAG}",
    **{f"{fab}:{f}:{w}": _LAG_FAIL for fab, f, ws in (
        ("hw-v300-mlag", "F4", ("after-0", "after-1", "not-after-0", "not-after-1")),
        ("h3c-lag", "H3", ("after-0", "after-1", "not-after-0"))) for w in ws},
    # evidence gaps
    "hw-v300-mlag:F5": _GAP,
    "hw-v300-mlag:cannot_verify:2": _GAP,
    "h3c-lag:H5": _GAP,
    "h3c-lag:cannot_verify:2": _GAP,
    "hw-v300-mlag:cannot_verify:0": f"spine headroom default unpublished: {_GAP}",
    "h3c-lag:cannot_verify:1": f"headroom in cells of unconfirmed size: {_GAP}",
}  # fmt: skip
# Landed with i26-lag (aggregates are links, member and LAG failures, RC311-RC314 gaps, the
# dual-active gateway, roles from the topology): strict xfail made each fail until taken out.
for _case in (
    "hw-v300-mlag:F1",
    "hw-v300-mlag:F5",
    "h3c-lag:H5",
    "hw-v300-mlag:F4:after-0",
    "hw-v300-mlag:F4:after-1",
    "hw-v300-mlag:F4:not-after-0",
    "hw-v300-mlag:F4:not-after-1",
    "h3c-lag:H3:after-0",
    "h3c-lag:H3:after-1",
    "h3c-lag:H3:not-after-0",
    "h3c-lag:must_not:2",
    "hw-v300-mlag:roles",
    "hw-v300-mlag:cannot_verify:2",
    "h3c-lag:cannot_verify:2",
):
    del XFAIL[_case]
