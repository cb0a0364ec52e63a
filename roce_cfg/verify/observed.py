"""What verify read from the switches, against which plan, and the findings so far: the
state every check reads and adds to."""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field

from roce_cfg.analysis.findings import Finding
from roce_cfg.errors import InputError
from roce_cfg.model.fabric import Fabric, Link
from roce_cfg.verify.data import Display, port_key
from roce_cfg.verify.rules import RULES

Records = list[dict[str, str]]


# A 1.6 Tb/s port receives at most about 2.4 billion minimum-size frames a second: a storm
# threshold past this can never be met (and 'inf' would silence the check).
MAX_STORM_PPS = 1e10


@dataclass
class Options:
    storm_pps: float = 1000.0  # pauses received per second that count as a storm

    def __post_init__(self) -> None:
        if not (math.isfinite(self.storm_pps) and 1 <= self.storm_pps <= MAX_STORM_PPS):
            raise InputError(
                f"--storm-pps: {self.storm_pps!r} is not a rate of 1 to "
                f"{MAX_STORM_PPS:,.0f} pauses a second"
            )


@dataclass
class Observed:
    """Per host and check: the records read (first read), the second read of a window."""

    plan: Fabric
    first: dict[str, dict[str, Records]]
    entries: dict[str, dict[str, Display]]  # host -> check -> its display data
    second: dict[str, dict[str, Records]] = field(default_factory=dict)
    window_s: float = 0.0  # the window asked for; each switch's own span is in ``spans``
    spans: dict[str, float] = field(default_factory=dict)
    options: Options = field(default_factory=Options)
    findings: list[Finding] = field(default_factory=list)
    down: set[int] = field(default_factory=set)  # indexes of links found down
    sessions_down: set[int] = field(default_factory=set)
    down_ports: set[tuple[str, str]] = field(default_factory=set)

    def has(self, host: str, check: str) -> bool:
        return check in self.first.get(host, {})

    def records(self, host: str, check: str) -> Records:
        return self.first.get(host, {}).get(check, [])

    def add(self, rule: str, device: str, message: str, **kw: object) -> None:
        self.findings.append(
            Finding(rule=rule, severity=RULES[rule].severity, device=device, message=message, **kw)
        )


def ends_of(k: Link) -> tuple[tuple[str, str], tuple[str, str]]:
    return (k.a_device, k.a_port), (k.b_device, k.b_port)


def by_port(records: Records) -> dict[str, dict[str, str]]:
    return {port_key(r["port"]): r for r in records if r.get("port")}


@functools.cache
def _far_ends(plan: Fabric) -> dict[tuple[str, str], tuple[str, str]]:
    ends = {(k.a_device, k.a_port): (k.b_device, k.b_port) for k in plan.links}
    return ends | {far: near for near, far in ends.items()}


def far_end(plan: Fabric, host: str, port: str) -> tuple[str, str] | None:
    return _far_ends(plan).get((host, port))
