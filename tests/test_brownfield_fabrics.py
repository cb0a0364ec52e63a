"""The issue-26 corpus (tests/brownfield/fabrics/*): every planted fault found, nothing it names as
a false error reported, evidence gaps keep the exit code non-zero, and no secret in any output.

Data-driven from each folder's ``expected.yaml`` (read tests/brownfield/fabrics/README.md): a fault
is found when lint (or deadlock, for faults with ``deadlock_after`` or ``healthy: cycle``) reports
a finding of one of the rules its ``rule_hint`` names ('new: ...' hints: the rules in
``NEW_RULES``), on the device and port it names, at its severity, and on one of its lines (a
finding elsewhere in the same block
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

from roce_cfg.analysis.findings import UNVERIFIED_RULES
from tests.helpers import ROOT
from tests.helpers import run as cli

FABRICS = ROOT / "tests/brownfield/fabrics"
NAMES = (
    "hw-v300-mlag",
    "hw-v200",
    "h3c-lag",
    "h3c-drni",
    "hw-v300-ipv6",
    "mix-3tier",
    "rj-zte-lag",
)
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


# every rule but the line-accounting ones (RC404, RC405): "no finding at all that says ..."
_ANY = frozenset(f"RC{n:03d}" for n in range(1000)) - {"RC404", "RC405"}
_LOSSLESS = _r("RC101", "RC102", "RC103", "RC107", "RC108", "RC110", "RC113", "RC116")


@dataclass(frozen=True)
class NoCycle:
    """The healthy fabric has no deadlock cycle through all of ``switches`` (deadlock, not lint)."""

    switches: tuple[str, ...]


_AGG = r"(Eth-Trunk|Route-Aggregation|Bridge-Aggregation)\d+"
# Per fabric, per must_not_report entry (in order): (the entry's first words, what it means).
# 'roles', 'analysed' and 'readable' are checked by their own tests (named in the entry).
ABSENT: dict[str, list[tuple[str, Absent | NoCycle | str]]] = {
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
        # (on the aggregates and their members; the VLAN interfaces print no 'mtu' and keep
        # Comware's 1,500 [H3C-S6850-CG]: RC113 on those gateways is no member's setting)
        ("qos trust / WRR / WRED / MTU / jumbo missing",
         Absent(_r("RC103", "RC107", "RC108", "RC113", "RC116"), port=r"(?!Vlan-interface).*")),
        ("PFC missing on an aggregate interface", Absent(_r("RC101", "RC102", "RC110"), port=_AGG)),
        ("the dual-active gateway", Absent(_r("RC307"))),
        ("watchdog action missing", Absent(_r("RC110"), device="spine-.*|leaf-[12]")),
        ("the CRLF file or the binary file", "analysed"),
        ("headroom not read", Absent(_r("RC115"))),
        ("spines classed as leaves", "roles"),
    ],
    "h3c-drni": [
        ("trust / WFQ / WRED / jumbo frame / PFC missing on Bridge-Aggregation",
         Absent(_r("RC101", "RC102", "RC103", "RC107", "RC108", "RC110", "RC116"), port=_AGG)),
        ("a frame limit of 1,500 bytes on server bonds",
         Absent(_r("RC113", "RC116"), port=r"Bridge-Aggregation\d+|HundredGigE1/0/\d+|Twenty-.*")),
        ("Route-Aggregation1024 (DRNI keepalive",
         Absent(_LOSSLESS | _r("RC301", "RC306", "RC310"),
                port=r"Route-Aggregation1024|HundredGigE1/0/2[78]")),
        ("the 'interface range name GPU-HOSTS", Absent(_ANY | _r("RC405"), message="GPU-HOSTS")),
        ("speed mismatch between spine legs", Absent(_r("RC305"))),
        ("Twenty-FiveGigE1/0/20:M legs as 100G", Absent(_r("RC305"), port=r"Twenty-FiveGigE.*")),
        ("the same IP/MAC on Vlan-interface101", Absent(_r("RC307"))),
        ("Bridge-Aggregation100 (IPP)",
         Absent(_r("RC107", "RC108", "RC312", "RC314"), port=r"Bridge-Aggregation100")),
        ("watchdog action missing", Absent(_r("RC110", "RC121"))),
    ],
    "hw-v300-ipv6": [
        ("PFC, trust or queueing missing on the .100 sub-interfaces",
         Absent(_r("RC101", "RC102", "RC103", "RC107", "RC108", "RC110"), port=r".*\.100")),
        # (V1: leaf-3 400GE1/0/2 has no PFC, so its link to spine-2 400GE1/0/3 is lossy)
        ("PFC off on any port that has 'dcb pfc enable roce mode manual'",
         Absent(_r("RC102", "RC109", "RC301", "RC306"), device=r"spine-[12]|leaf-[1-4]",
                allow=(("leaf-3", "400GE1/0/2"), ("spine-2", "400GE1/0/3")))),
        # (V5: leaf-6 classifies RoCE into priority 4, lossy on its two uplinks)
        ("PFC off or no-drop missing on leaf-5/leaf-6",
         Absent(_r("RC101", "RC102", "RC301", "RC306"), device=r"leaf-[56]",
                allow=(("leaf-6", "100GE1/0/1"), ("leaf-6", "100GE1/0/2")))),
        ("'trust dscp' missing on routed",
         Absent(_r("RC108", "RC302"), port=r"400GE1/0/\d(:\d)?|100GE1/0/[12]")),
        ("speed mismatch between spine 400GE1/0/7:1/:2", Absent(_r("RC305"))),
        ("the sub-interface pairs as extra fabric links",
         Absent(_r("RC310", "RC312", "RC313"), message=r"\.100")),
        ("BGP peers 2001:DB8:0:<s><l>", Absent(_r("RC311"))),
        ("any IPv4 finding", Absent(_ANY, message=r"\b10\.\d+\.\d+\.\d+\b")),
        ("the mgmt default route", Absent(_ANY, message=r"FFF0")),
    ],
    "mix-3tier": [
        ("a deadlock cycle through leaf-p2-1's backup static",
         NoCycle(("leaf-p2-1", "spine-p2-2"))),
        ("the Huawei global traffic-policy on ss-2",
         Absent(_ANY, device="ss-2", message=r"(?i)SCAVENGER|GLOBAL-IN|rate.limit|polic")),
        ("PFC, trust, ECN missing on ss-1/ss-2 400GE1/0/4",
         Absent(_LOSSLESS | _r("RC301", "RC306", "RC313"), device=r"ss-[12]", port="400GE1/0/4")),
        ("no route for external destinations", Absent(_r("RC311"), message=r"0\.0\.0\.0")),
        ("speed mismatch on Huawei 400GE", Absent(_r("RC305"))),
        ("H3C statics without a 'preference' keyword", "T5"),  # T5 finds the cycle they make
        ("watchdog action 'forwarding' on the H3C switches", Absent(_r("RC110", "RC121"))),
    ],
    "rj-zte-lag": [
        ("AggregatePort / smartgroup interfaces as shut or without members",
         Absent(_r("RC310", "RC311", "RC312", "RC313", "RC314"))),
        # PFC and trust, as the entry says: no line of the fabric sets ECN or queue scheduling,
        # so RC103 and RC107 fall on every RoCE port alike, servers and members included
        # (fabric_wide: "right unless it knows the default")
        ("PFC or trust missing on AggregatePort or smartgroup",
         Absent(_r("RC101", "RC102", "RC108", "RC110"), port=r"AggregatePort \d+|smartgroup\d+")),
        ("spine-1's file as cut short", Absent(_r("RC001"))),
        ("the ZTE '$' lines", Absent(_ANY | _r("RC405"), device="spine-[12]",
                                      message=r"'\$'|!<mim>|configuration saved")),
        ("'TFGigabitEthernet 0/1' (with a space)", Absent(_r("RC305", "RC308"), message="TF")),
        ("the Ruijie 'Building configuration...'",
         Absent(_ANY | _r("RC405"), message="Building config|Current config")),
    ],
}  # fmt: skip
# Per fabric, per cannot_verify entry: the devices that must carry a 'cannot verify' finding (or
# an error) whose message matches; lint --require-verified fails on them.
_V200_HEADROOM = r"(?i)cannot verify.*headroom.*(CE8850-64CQ-EI|CE6865-48S8CQ-EI)"
GAPS: dict[str, list[tuple[str, tuple[str, ...], str]]] = {
    "hw-v300-mlag": [
        ("spine-1/spine-2 headroom", ("spine-1", "spine-2"), r"(?i)cannot verify.*headroom|hdrm"),
        ("leaf-3/leaf-4 buffer", ("leaf-3", "leaf-4"), r"CE6863E-48S8CQ.*unknown|unknown.*CE6863E"),
        ("spine-2 BGP peer 10.1.2.9", ("spine-2",), r"10\.1\.2\.9"),
    ],
    "hw-v200": [
        # where the PFC section is read whole; elsewhere RC405 says RC201 was not judged
        ("CE8850-64CQ-EI and CE6865-48S8CQ-EI", ("leaf-1",), _V200_HEADROOM),
        ("leaf-1 PFC watchdog", ("leaf-1",), r"(?i)watchdog|deadlock"),
        ("links and BGP sessions toward leaf-5", ("spine-1", "spine-2"), r"10\.11\.[12]\.9|leaf-5"),
    ],
    "h3c-lag": [
        ("headroom pool and per-port headroom values are in cells", ("spine-1", "spine-2",
         "leaf-1", "leaf-2", "leaf-3"), r"(?i)cell"),
        ("H5: the link and BGP session toward leaf-4", ("spine-1",), r"10\.2\.1\.7|leaf-4"),
    ],
    "h3c-drni": [
        ("S9850-32H (leaves)", ("leaf-1", "leaf-2", "leaf-3", "leaf-4"),
         r"(?i)model.*unknown|cell"),
    ],
    "hw-v300-ipv6": [
        ("CE6863E-48S8CQ (leaf-5, leaf-6)", ("leaf-5", "leaf-6"),
         r"CE6863E-48S8CQ.*unknown|unknown.*CE6863E"),
    ],
    "mix-3tier": [
        ("H3C headroom", ("leaf-p1-1", "leaf-p1-2"), r"(?i)cannot verify|cell"),
        ("CE8851-32CQ4BQ port layout", ("ss-1", "ss-2"), r"CE8851-32CQ4BQ.*unknown"),
    ],
    "rj-zte-lag": [
        ("Ruijie and ZTE lossless syntax", ("spine-1", "spine-2", "leaf-1", "leaf-2", "leaf-3",
         "leaf-4"), r"(?i)cannot verify.*(pfc|priority-flow-control|no-drop|trust|dcb)"),
        ("buffer and headroom of RG-S6510-48VS8CQ", ("spine-1", "spine-2", "leaf-1", "leaf-2",
         "leaf-3", "leaf-4"), r"(?i)model.*unknown|cannot verify.*(headroom|buffer)"),
    ],
}  # fmt: skip


# Per fabric: every error lint reports that is not itself a planted fault's finding, and why it
# is true. (rules, device, port: regexes, full match; None port: a switch-wide finding), then a
# fault id (the finding follows from it) or the reason it is a true finding no fault planted.
_GATEWAY = (
    "true, not planted: a Comware VLAN interface that prints no 'mtu' keeps the 1,500-byte "
    "default (vendors/h3c.yaml default_mtu, sourced there); a 4,200-byte RoCE packet routed out "
    "of the gateway toward a server, or over the peer-link's VLAN, does not fit. (A "
    "CloudEngine Vlanif's IPv4 'mtu' does not bound chip-forwarded packets: no RC113 there, "
    "vendors/huawei.yaml ip_mtu_bounds_forwarding)"
)
_VLANIF = r"Vlanif\d+|Vlan-interface\d+"
_ECN_NOWHERE = (
    "true, not planted: no line of the fabric sets ECN; expected.yaml fabric_wide: 'a reader "
    "that reports missing ECN on every lossless port (RC103) is right unless it knows the "
    "default'"
)
ACCOUNTED: dict[str, list[tuple[frozenset[str], str, str | None, str]]] = {
    "hw-v300-mlag": [
        (_r("RC301"), "leaf-1", "Eth-Trunk0", "F2"),  # the peer-link's other end
    ],
    "hw-v200": [
        (_r("RC303"), "leaf-4", r"Eth-Trunk[12]", "G1"),  # leaf-4's two uplink aggregates
        (_r("RC306"), "leaf-4", r"100GE1/0/[1-4]", "G1"),  # their members: RoCE in queue 2
        (_r("RC001"), r"leaf-5\.cfg", None, "G3"),  # the cut-short file itself
    ],
    "h3c-lag": [
        (_r("RC113"), "leaf-[1-3]", _VLANIF, _GATEWAY),
        (_r("RC001"), r"leaf-4\.cfg", None, "H5"),  # the binary file itself
    ],
    "h3c-drni": [
        (_r("RC301"), "leaf-3", "Route-Aggregation1", "D2"),  # the far end of D2's aggregate
        (_r("RC103"), "spine-1", None, "D2"),  # D2's priority 4 is no-drop with no ECN queue
    ],
    "hw-v300-ipv6": [
        (_r("RC303", "RC306"), "leaf-6", r"100GE1/0/[12]", "V5"),  # leaf-6's two uplinks
    ],
    "mix-3tier": [],
    "rj-zte-lag": [
        (_r("RC103"), r"leaf-[1-4]|spine-1", None, _ECN_NOWHERE),
        (_r("RC306"), "leaf-2", "HundredGigabitEthernet 0/50", "R2"),  # R2's member, lossy
    ],
}


def _planted(fabric: str, f: dict[str, Any]) -> str | None:
    """The planted fault a finding is, if any."""
    for fault in expected(fabric)["faults"]:
        for device in _as_list(fault["where"]["device"]):
            for port in _as_list(fault["where"].get("port")) or [None]:
                if _matches(f, fabric, device, port, fault):
                    return str(fault["id"])
    return None


def _entry(fabric: str, f: dict[str, Any]) -> int | None:
    """The ACCOUNTED entry (its index) that says why a finding is right, if any."""
    here = f.get("port")
    for n, (rules, device, port, _) in enumerate(ACCOUNTED[fabric]):
        if (
            f["rule"] in rules
            and re.fullmatch(device, f["device"])
            and (here is None if port is None else here is not None and re.fullmatch(port, here))
        ):
            return n
    return None


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
       "cannot_verify:2")},
    "degrade-per-file": _DEGRADE,
    # docs and report refuse the folder on its SOURCES.md (lint and parse skip it with a note)
    **{f"{fab}:{cmd}": "docs/report refuse a non-config file in the folder: folder discovery "
       "(i32-ux)" for fab in NAMES[:3] for cmd in ("docs", "report")},
    # LAG members, the M-LAG peer-link, spines told by topology
    "hw-v300-mlag:F1": f"RC102 on a LAG member: {_LAG}",
    "h3c-lag:H1": f"RC304 on the M-LAG peer-link: {_LAG}",
    "h3c-lag:must_not:2": f"RC307 on the dual-active gateway: {_LAG}",
    "hw-v300-mlag:roles": f"spines read as leaves: {_LAG}",
    **{f"{fab}:{f}:{w}": _LAG_FAIL for fab, f, ws in (
        ("hw-v300-mlag", "F4", ("after-0", "after-1", "not-after-0", "not-after-1")),
        ("h3c-lag", "H3", ("after-0", "after-1", "not-after-0"))) for w in ws},
    # evidence gaps
    "hw-v300-mlag:F5": _GAP,
    "hw-v300-mlag:cannot_verify:2": _GAP,
    "h3c-lag:H5": _GAP,
    "h3c-lag:cannot_verify:1": _GAP,
    # --- the issue-42 corpus (h3c-drni, hw-v300-ipv6, mix-3tier, rj-zte-lag) ---
}  # fmt: skip
# Landed with i26-lag (aggregates are links, member and LAG failures, RC311-RC314 gaps, the
# dual-active gateway, roles from the topology): strict xfail made each fail until taken out.
for _case in (
    "hw-v300-mlag:F1",
    "h3c-lag:H1",  # RC304 names both ends of the peer-link (related_device)
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
    "h3c-lag:cannot_verify:1",
    # with i32-ux's per-file degrade and folder discovery merged as well
    "hw-v200:G1",
    "hw-v200:G2",
    "hw-v200:G3",
    "hw-v200:G4",  # RC122: PFC left to DCBX negotiation on a port without the DCBX TLV
    "hw-v200:must_not:1",
    "hw-v200:must_not:2",
    "hw-v200:must_not:5",
    "hw-v200:must_not:3",
    "hw-v200:roles",
    "hw-v200:exit-code",
    "hw-v200:cannot_verify:0",
    "hw-v200:cannot_verify:2",
    "hw-v300-mlag:docs",
    "hw-v300-mlag:report",
    "hw-v200:docs",
    "hw-v200:report",
    "h3c-lag:docs",
    "h3c-lag:report",
    "degrade-per-file",
):
    del XFAIL[_case]


# --- running the tool (once per fabric and command) ---
@cache
def expected(fabric: str) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((FABRICS / fabric / "expected.yaml").read_text("utf-8"))
    return data


@dataclass(frozen=True)
class Run:
    exit_code: int
    findings: list[dict[str, Any]]
    output: str  # stdout and stderr


def _run(*args: str) -> Run:
    res = cli(*args)
    out = res.stdout
    try:
        findings = json.loads(out)["findings"]
    except (ValueError, KeyError, TypeError):
        findings = []
    return Run(res.exit_code, findings, out + res.stderr)


@cache
def linted(fabric: str) -> Run:
    return _run("lint", str(FABRICS / fabric), "--format", "json")


@cache
def deadlocked(fabric: str, fail: str | None) -> Run:
    extra = ("--fail-links", fail) if fail else ()
    return _run("deadlock", str(FABRICS / fabric), *extra, "--format", "json")


@cache
def parsed(fabric: str) -> tuple[int, str, str]:
    """Exit code, stdout (the JSON) and stderr of 'parse' on the fabric's folder."""
    res = cli("parse", str(FABRICS / fabric), "--format", "json")
    return res.exit_code, res.stdout, res.stderr


def _show(f: dict[str, Any]) -> str:
    where = ":".join(str(x) for x in (f["device"], f.get("port"), f.get("line")) if x)
    return f"{f['rule']} {f['severity']} {where}"


# --- where a line is: the top-level block holding it ---
@cache
def _blocks(path: Path) -> tuple[tuple[int, int], ...]:
    """(first, last) line of each top-level block: a line at column 0 starts one."""
    lines = path.read_bytes().splitlines()
    starts = [n for n, ln in enumerate(lines, 1) if ln[:1] not in (b" ", b"\t", b"")]
    ends = [*(s - 1 for s in starts[1:]), len(lines)]
    return tuple(zip(starts, ends, strict=True))


def _block_of(path: Path, line: int) -> tuple[int, int]:
    return next(((a, b) for a, b in _blocks(path) if a <= line <= b), (line, line))


def _as_list(x: Any) -> list[Any]:
    return [] if x is None else list(x) if isinstance(x, list) else [x]


def _lines_for(where: dict[str, Any], device: str) -> list[int]:
    lines = where.get("lines", where.get("line"))
    if isinstance(lines, dict):
        lines = lines.get(device)
    return [int(n) for n in _as_list(lines)]


# Faults whose rule_hint names no rule of today ('new: ...', or prose): the rules that report
# them, as the helpers who own them numbered them (RC121 i26-parse; RC311-RC316 i26-lag's
# evidence gaps; RC122-RC129 a new device rule). Any other hint names its rules itself. RC404
# and RC405 count and flag lines; they never stand for a planted fault.
_GAP_RULES = frozenset(f"RC31{n}" for n in range(1, 7))
# No rule reports it yet: a placeholder no finding carries, so nothing found by chance at the
# same place (a link finding naming the far end) counts; give the rule here when one lands.
_UNNUMBERED = frozenset({"RC-none-yet"})
NEW_RULES: dict[str, frozenset[str]] = {
    "F3": frozenset({"RC121"}),
    "F5": _GAP_RULES,
    "G3": _GAP_RULES,
    "G4": frozenset({"RC102", *(f"RC12{n}" for n in range(2, 10))}),
    "H5": _GAP_RULES,
    "D5": frozenset({"RC320"}),  # DRNI system numbers equal on both members
    "T1": frozenset({"RC130"}),  # a global QoS policy rate-limits the CNP class
    "T2": frozenset({"RC131", "RC306"}),  # an outbound re-mark of RoCE to a lossy DSCP
    "T3": frozenset({"RC132"}),  # a queue's buffer cap below its ECN threshold
}
_META = frozenset({"RC404", "RC405"})


def _rules_for(fault: dict[str, Any]) -> frozenset[str]:
    hint = str(fault["expect"].get("rule_hint", ""))
    named = frozenset() if hint.startswith("new:") else frozenset(_RULE.findall(hint))
    return NEW_RULES.get(fault["id"], named)


def _matches(
    f: dict[str, Any], fabric: str, device: str, port: str | None, fault: dict[str, Any]
) -> bool:
    expect, where = fault["expect"], fault["where"]
    rules = _rules_for(fault)
    if (rules and f["rule"] not in rules) or f["rule"] in _META:
        return False
    # a 'cannot verify' finding's severity is the one policy's (docs/lint.md), not the fault's
    if f["severity"] != expect["severity"] and f["rule"] not in UNVERIFIED_RULES:
        return False
    if f["device"] != device:
        # a link finding names both ends: it covers the far end (its line is the near end's)
        return f.get("related_device") == device and port in (None, f.get("related_port"))
    if port is not None and port not in (f.get("port"), f.get("related_port"), where.get("lag")):
        return False
    lines = _lines_for(where, device)
    if not lines or f.get("line") is None:
        return True  # a line is checked where both the fault and the finding name one
    cfg = FABRICS / fabric / f"{device}.cfg"
    return any(_block_of(cfg, n)[0] <= f["line"] <= _block_of(cfg, n)[1] for n in lines)


def fault_misses(fabric: str, fault: dict[str, Any]) -> list[str]:
    """What of a lint fault is not found: one entry per (device, port) it names."""
    findings = linted(fabric).findings
    where = fault["where"]
    missing = []
    for device in _as_list(where["device"]):
        for port in _as_list(where.get("port")) or [None]:
            if not any(_matches(f, fabric, device, port, fault) for f in findings):
                missing.append(f"{device}:{port or '-'}")
    return missing


# --- cases ---
def _healthy_cycle(expect: dict[str, Any]) -> bool:
    return expect.get("healthy") == "cycle"


def _faults(deadlock: bool) -> Iterator[tuple[str, dict[str, Any]]]:
    for fabric in NAMES:
        for fault in expected(fabric)["faults"]:
            exp = fault["expect"]
            if ("deadlock_after" in exp or _healthy_cycle(exp)) == deadlock:
                yield fabric, fault


def _param(case: str, *values: Any) -> Any:
    marks = [pytest.mark.xfail(strict=True, reason=XFAIL[case])] if case in XFAIL else []
    return pytest.param(*values, id=case, marks=marks)


LINT_FAULTS = [_param(f"{fab}:{f['id']}", fab, f) for fab, f in _faults(False)]


@pytest.mark.parametrize(("fabric", "fault"), LINT_FAULTS)
def test_planted_fault_is_found(fabric: str, fault: dict[str, Any]) -> None:
    assert fault_misses(fabric, fault) == [], (
        f"{fault['id']} ({fault['what'][:80]}...) not found; lint said: "
        f"{[_show(f) for f in linted(fabric).findings][:20]} {linted(fabric).output[-300:]}"
    )


_FAIL = re.compile(r"fail (?:LAG|member) (\S+:\S+)")


def _deadlock_cases() -> Iterator[Any]:
    for fabric, fault in _faults(True):
        exp = fault["expect"]
        healthy = _healthy_cycle(exp)
        yield _param(f"{fabric}:{fault['id']}:healthy", fabric, fault, None, healthy)
        for key, opens in (("deadlock_after", True), ("no_deadlock_after", False)):
            for n, text in enumerate(exp.get(key, [])):
                m = _FAIL.search(text)
                assert m, f"{fabric} {fault['id']}: cannot read the failure '{text}'"
                when = "after" if opens else "not-after"
                yield _param(f"{fabric}:{fault['id']}:{when}-{n}", fabric, fault, m[1], opens)


def _cycles(run: Run, switches: list[str]) -> list[str]:
    return [
        f["message"]
        for f in run.findings
        if f["rule"] in ("RC501", "RC502") and all(s in f["message"] for s in switches)
    ]


@pytest.mark.parametrize(("fabric", "fault", "fail", "opens"), list(_deadlock_cases()))
def test_planted_deadlock(
    fabric: str, fault: dict[str, Any], fail: str | None, opens: bool
) -> None:
    exp = fault["expect"]
    run = deadlocked(fabric, fail)
    assert run.exit_code != 2, run.output[-400:]
    cycles = _cycles(run, exp["cycle_switches"])
    if opens:
        # a cycle in the healthy fabric is RC501, one a failure opens is RC502
        rule = "RC501" if fail is None else "RC502"
        assert run.exit_code == 1
        assert [f for f in run.findings if f["rule"] == rule and f["severity"] == exp["severity"]]
        assert cycles, f"no cycle through {exp['cycle_switches']} after failing {fail}"
    else:
        assert cycles == [], f"{'healthy' if fail is None else fail}: {cycles}"


def _absent_cases() -> Iterator[Any]:
    for fabric in NAMES:
        entries = expected(fabric)["must_not_report"]
        table = ABSENT[fabric]
        assert len(entries) == len(table), f"{fabric}: ABSENT is out of step with expected.yaml"
        for n, (text, (head, meaning)) in enumerate(zip(entries, table, strict=True)):
            assert head in text, f"{fabric} must_not_report[{n}] is '{text[:60]}', not '{head}'"
            if isinstance(meaning, Absent):
                yield _param(f"{fabric}:must_not:{n}", fabric, meaning)


@pytest.mark.parametrize(("fabric", "absent"), list(_absent_cases()))
def test_false_error_is_not_reported(fabric: str, absent: Absent) -> None:
    run = linted(fabric)
    # not vacuous: a folder that is refused reports nothing at all
    assert run.exit_code != 2, run.output[-400:]
    assert absent.hits(run.findings) == []


@pytest.mark.parametrize("fabric", NAMES)
def test_every_error_is_a_planted_fault_or_accounted_for(fabric: str) -> None:
    """No false error: each error is a planted fault's finding, follows from one, or is a true
    finding the table names; and each entry of the table still accounts for an error."""
    errors = [f for f in linted(fabric).findings if f["severity"] == "error"]
    assert errors, "not vacuous: every fabric has planted errors"
    rest = [f for f in errors if _planted(fabric, f) is None]
    assert [_show(f) for f in rest if _entry(fabric, f) is None] == []
    used = {_entry(fabric, f) for f in rest}
    assert [e for n, e in enumerate(ACCOUNTED[fabric]) if n not in used] == []


@pytest.mark.parametrize(
    ("fabric", "no_cycle"),
    [
        _param(f"{f}:must_not:{n}", f, m)
        for f in NAMES
        for n, (_, m) in enumerate(ABSENT[f])
        if isinstance(m, NoCycle)
    ],
)
def test_no_false_cycle(fabric: str, no_cycle: NoCycle) -> None:
    run = deadlocked(fabric, None)
    assert run.exit_code != 2, run.output[-400:]
    assert _cycles(run, list(no_cycle.switches)) == []


@pytest.mark.parametrize(
    "fabric",
    [
        _param(f"{f}:must_not:{n}", f)
        for f in NAMES
        for n, (_, m) in enumerate(ABSENT[f])
        if m == "analysed"
    ],
)
def test_every_readable_switch_is_analysed(fabric: str) -> None:
    """One unreadable or odd file never stops the folder: lint runs (not exit 2) and reports on
    every switch the corpus says is readable."""
    run = linted(fabric)
    assert run.exit_code != 2, run.output[-400:]
    readable = [s for s, v in expected(fabric)["switches"].items() if v.get("readable", True)]
    summary = json.loads(cli("lint", str(FABRICS / fabric), "--format", "json").stdout)["summary"]
    assert summary["devices"] == len(readable)


def _readable_files() -> Iterator[Any]:
    for fabric in NAMES:
        exp = expected(fabric)
        for sw, facts in exp["switches"].items():
            if facts.get("readable", True):
                yield _param(f"{fabric}:readable:{sw}.cfg", fabric, f"{sw}.cfg")


@pytest.mark.parametrize(("fabric", "file"), list(_readable_files()))
def test_readable_file_parses(fabric: str, file: str) -> None:
    """GBK, CRLF, pager residue and session prompts are read, not refused."""
    from roce_cfg.parse import parse_file

    parse_file(FABRICS / fabric / file)


@pytest.mark.parametrize("fabric", [_param(f"{f}:roles", f) for f in NAMES])
def test_roles_come_from_the_topology(fabric: str) -> None:
    code, out, err = parsed(fabric)
    assert code != 2 and out, err[-400:]
    configs = json.loads(out)["configs"]
    roles = {c["device"]["hostname"]: c["device"]["role"] for c in configs}
    want = {s: v["role"] for s, v in expected(fabric)["switches"].items() if v["role"] != "unknown"}
    assert {s: roles.get(s) for s in want} == want


@pytest.mark.parametrize("fabric", [_param(f"{f}:exit-code", f) for f in NAMES])
def test_evidence_gaps_keep_the_exit_code_non_zero(fabric: str) -> None:
    """cannot_verify entries exist in every corpus fabric: lint --require-verified exits 1, not
    0 (an all-clear) and not 2 (refused input)."""
    assert expected(fabric)["cannot_verify"]
    strict = _run("lint", str(FABRICS / fabric), "--format", "json", "--require-verified")
    assert strict.exit_code == 1, strict.output[-400:]


def _gap_cases() -> Iterator[Any]:
    for fabric in NAMES:
        entries = expected(fabric)["cannot_verify"]
        assert len(entries) == len(GAPS[fabric]), f"{fabric}: GAPS is out of step"
        for n, (text, (head, devices, pattern)) in enumerate(
            zip(entries, GAPS[fabric], strict=True)
        ):
            assert head in text, f"{fabric} cannot_verify[{n}] is '{text[:60]}', not '{head}'"
            yield _param(f"{fabric}:cannot_verify:{n}", fabric, devices, pattern)


@pytest.mark.parametrize(("fabric", "devices", "pattern"), list(_gap_cases()))
def test_evidence_gap_is_reported(fabric: str, devices: tuple[str, ...], pattern: str) -> None:
    """Each gap is a 'cannot verify' finding (docs/lint.md: what could not be verified) or an
    error, on every device it concerns."""
    findings = [
        f
        for f in linted(fabric).findings
        if f["severity"] == "error" or f["rule"] in UNVERIFIED_RULES
    ]
    missing = [
        d
        for d in devices
        if not any(f["device"] == d and re.search(pattern, f["message"]) for f in findings)
    ]
    assert missing == []


def _unreadable_cases() -> Iterator[Any]:
    for fabric in NAMES:
        for entry in expected(fabric)["unreadable"]:
            yield _param(f"{fabric}:unreadable:{entry['file']}", fabric, entry)


@pytest.mark.parametrize(("fabric", "entry"), list(_unreadable_cases()))
def test_unreadable_file_is_a_finding_on_that_file(fabric: str, entry: dict[str, Any]) -> None:
    run = linted(fabric)
    on_file = [
        f
        for f in run.findings
        if (f.get("file") or "").endswith(entry["file"]) and f["severity"] == "error"
    ]
    assert on_file, run.output[-400:]
    if "line" in entry:
        assert any(f.get("line") == entry["line"] for f in on_file)


@pytest.mark.parametrize(
    ("fabric", "command"),
    [_param(f"{f}:{c}", f, c) for f in NAMES for c in ("docs", "report")],
)
def test_docs_and_report_read_the_folder(fabric: str, command: str, tmp_path: Path) -> None:
    """The secrets check below reads what docs and report write: it needs them to write it."""
    out = tmp_path / ("docs" if command == "docs" else "report.html")
    res = cli(command, str(FABRICS / fabric), "-o", str(out))
    assert res.exit_code != 2, res.output[-300:]
    assert out.exists()


# --- secrets: never in any output ---
def _outputs(fabric: str, tmp: Path) -> Iterator[tuple[str, str]]:
    folder = FABRICS / fabric
    yield "parse", "".join(parsed(fabric)[1:])
    yield "lint", linted(fabric).output
    yield "deadlock", deadlocked(fabric, None).output
    docs = tmp / "docs"
    yield "docs", cli("docs", str(folder), "-o", str(docs)).output
    for path in sorted(docs.rglob("*")) if docs.is_dir() else []:
        if path.is_file():
            yield f"docs/{path.name}", path.read_text("utf-8", errors="replace")
    html = tmp / "report.html"
    yield "report", cli("report", str(folder), "-o", str(html)).output
    if html.is_file():
        yield "report.html", html.read_text("utf-8", errors="replace")


def _with_secrets(fabric: str) -> Iterator[tuple[str, str]]:
    """(file, pattern) for each secret pattern and each config file holding it."""
    for secret in expected(fabric)["secrets"]:
        for cfg in sorted((FABRICS / fabric).glob("*.cfg")):
            if secret["pattern"].encode() in cfg.read_bytes():
                yield cfg.name, secret["pattern"]


@pytest.mark.parametrize("fabric", NAMES)
def test_no_secret_in_any_output(fabric: str, tmp_path: Path) -> None:
    held = list(_with_secrets(fabric))
    patterns = {p for _, p in held}
    # every pattern expected.yaml names is in the backups: the check below can fail
    assert patterns == {s["pattern"] for s in expected(fabric)["secrets"]}
    leaks = [
        f"{name}: {p}" for name, text in _outputs(fabric, tmp_path) for p in patterns if p in text
    ]
    assert leaks == []


@pytest.mark.parametrize("fabric", [_param(f"{f}:secrets-per-file", f) for f in NAMES])
def test_no_secret_in_what_parse_reads_of_each_file(fabric: str) -> None:
    """File by file (what parses today), so the redaction check does not rest on a folder that
    is refused as a whole."""
    from roce_cfg.errors import InputError
    from roce_cfg.parse import parse_file

    read = 0
    for name, pattern in _with_secrets(fabric):
        try:
            cfg = parse_file(FABRICS / fabric / name).config
        except InputError:
            continue
        read += 1
        assert pattern not in cfg.model_dump_json(), f"{name}: {pattern}"
    assert read, "no file of this fabric parses: nothing was checked"


# --- one unreadable config among readable ones ---
@pytest.mark.parametrize("case", [_param("degrade-per-file", "degrade-per-file")])
def test_one_unreadable_config_leaves_the_others_findings(case: str, tmp_path: Path) -> None:
    """tests/brownfield/huawei reads today; a cut-short copy of one of its files beside it must
    become an error finding on that file, not a refusal of the folder."""
    src = ROOT / "tests/brownfield/huawei"
    shutil.copytree(src, tmp_path / "f")
    alone = linted_path(src)
    assert alone.exit_code != 2 and alone.findings, alone.output[-300:]
    first = sorted((tmp_path / "f").glob("*.cfg"))[0]
    text = first.read_text("utf-8")
    (tmp_path / "f" / "cut-short.cfg").write_text(text[: len(text) // 2], "utf-8")
    both = linted_path(tmp_path / "f")
    assert both.exit_code == 1, both.output[-300:]

    def key(f: dict[str, Any]) -> tuple[str, str, str]:
        return f["rule"], f["device"], f.get("port") or ""

    assert {key(f) for f in alone.findings} <= {key(f) for f in both.findings}
    assert any((f.get("file") or "").endswith("cut-short.cfg") for f in both.findings)


def linted_path(path: Path) -> Run:
    return _run("lint", str(path), "--format", "json")


# --- the report table ---
def _outcome(fabric: str, fail: str | None, exp: dict[str, Any]) -> str:
    run = deadlocked(fabric, fail)
    if run.exit_code == 2:
        return "refused (exit 2): " + run.output.strip().splitlines()[-1][-70:]
    return "cycle" if _cycles(run, exp["cycle_switches"]) else "no cycle"


def table() -> str:
    """Per fabric: each planted fault and gap, expected vs found."""
    rows = []
    for fabric in NAMES:
        run = linted(fabric)
        rows.append(f"== {fabric}: lint exit {run.exit_code}, {len(run.findings)} findings")
        for fault in expected(fabric)["faults"]:
            exp = fault["expect"]
            want = f"{str(exp.get('rule_hint') or '')[:50]} {exp['severity']}"
            if _healthy_cycle(exp):
                got = f"healthy: {_outcome(fabric, None, exp)}"
            elif "deadlock_after" in exp:
                fails = [m[1] for t in exp["deadlock_after"] if (m := _FAIL.search(t))]
                got = ", ".join(f"{f}: {_outcome(fabric, f, exp)}" for f in fails)
            else:
                miss = fault_misses(fabric, fault)
                got = "found" if not miss else f"missing {', '.join(miss)}"
            rows.append(f"  {fault['id']:<4} expected {want:<64} | {got}")
        rows.append(f"  errors: {_error_accounts(fabric, run.findings)}")
    return "\n".join(rows)


def _error_accounts(fabric: str, findings: list[dict[str, Any]]) -> str:
    """How the errors of a fabric are accounted for (test_every_error_is_...)."""
    errors = [f for f in findings if f["severity"] == "error"]
    planted = [f for f in errors if _planted(fabric, f) is not None]
    rest = [_entry(fabric, f) for f in errors if _planted(fabric, f) is None]
    follow = sum(1 for n in rest if n is not None and ACCOUNTED[fabric][n][3][:4] != "true")
    true = sum(1 for n in rest if n is not None and ACCOUNTED[fabric][n][3][:4] == "true")
    lost = sum(1 for n in rest if n is None)
    return (
        f"{len(errors)}: {len(planted)} a planted fault's, {follow} following from one, "
        f"{true} true and not planted, {lost} unaccounted"
    )


if __name__ == "__main__":
    print(table())
