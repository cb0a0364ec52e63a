"""PFC deadlock cycles as findings: RC501 and RC502 over the deadlock engine
(roce_cfg.deadlock), with the linter's registry, formats and exit codes.

RC501 is an ordinary rule: ``lint --deadlock`` runs its check on the healthy fabric. RC502 is
declared without a check: its findings need failure scenarios, which only ``roce-cfg deadlock``
analyses; the lint engine skips it and ``deadlock_findings`` reports it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING

from roce_cfg.analysis.context import FabricView, some
from roce_cfg.analysis.findings import Finding, LintResult
from roce_cfg.analysis.registry import RULES, Hit, declare, rule
from roce_cfg.analysis.rules_gaps import GAP_RULES, gap_hits
from roce_cfg.analysis.rules_input import unread_finding
from roce_cfg.gate import DEADLOCK_SECTIONS, SECTION_NAMES, Gate
from roce_cfg.model.order import natural
from roce_cfg.parse import Parsed
from roce_cfg.policy import fabric_roce_dscp

if TYPE_CHECKING:  # the engine is imported when RC501 runs (lint --deadlock), not by every lint
    from roce_cfg.deadlock import Source
    from roce_cfg.deadlock.analyse import Cycle, Report

RATIONALE = (
    "PFC pauses an upstream buffer when a downstream one fills. If lossless buffers wait on "
    "each other in a cycle, every one of them can be paused at once and none drains: the "
    "lossless class stops on every switch of the cycle until the watchdog drops traffic. "
    "Up-down routing in a Clos cannot form such a cycle; valley routes after failures, "
    "routing loops and flooding in a stretched VLAN can."
)


def hits(report: Report, cycles: list[Cycle], scenario: str | None) -> Iterator[Hit]:
    net = report.net
    for c in cycles:
        s, lid = c.nodes[0]
        far = net.links[lid].far(s)
        nxt = c.nodes[1 % len(c.nodes)]
        head = f"after {scenario}: " if scenario else ""
        yield Hit(
            f"{head}PFC deadlock cycle {report.chain(c)}",
            device=net.names[s],
            port=net.links[lid].port_at(s),
            related_device=net.names[nxt[0]],
            related_port=net.links[nxt[1]].port_at(nxt[0]),
            detail=tuple(
                f"{report.node_name(n)} (port {net.links[n[1]].port_at(n[0])}, from "
                f"{net.names[far if i == 0 else net.links[n[1]].far(n[0])]}): {cause}"
                for i, (n, cause) in enumerate(zip(c.nodes, c.causes, strict=True))
            ),
        )


@rule(
    "RC501",
    "pfc-deadlock-cycle",
    "error",
    "fabric",
    summary="The lossless buffer dependency graph of the healthy fabric has a cycle.",
    rationale=RATIONALE,
    fix="Remove the route, static route or stretched VLAN that makes traffic turn back (see "
    "the cause of each hop), or make that hop lossy for the class.",
    limits="Run by 'roce-cfg deadlock' and by 'roce-cfg lint --deadlock'. Routing is "
    "simulated: eBGP shortest AS path with loop prevention and ECMP, static routes (to linked "
    "switches, out of the fabric, NULL0) and BGP default routes, chosen by longest prefix then "
    "the vendor's route preference; flooding within VLANs on switch-to-switch ports; a pause "
    "holds back only its own priority; traffic all-to-all between the destinations that carry "
    "RoCE. Route maps, local preference, allowas-in, PBR and IGPs are not modelled (the "
    "deadlock verdict lists what it leaves out).",
)
def deadlock_now(f: FabricView) -> Iterator[Hit]:
    if not f.options.deadlock:
        return  # opt-in for lint (--deadlock); 'roce-cfg deadlock' always runs it
    from roce_cfg.deadlock.analyse import analyse
    from roce_cfg.deadlock.net import build

    devices = [v.device for v in f.devices.values()]
    links = [(k.a.device, k.a.port, k.b.device, k.b.port) for k in f.links]
    report = analyse(build(devices, links, fabric_roce_dscp(devices, f.options.roce_dscp)[0]), [()])
    yield from hits(report, report.baseline, None)


declare(
    "RC502",
    "failure-opens-deadlock",
    "error",
    "fabric",
    summary="A link or switch failure makes routing form a PFC deadlock cycle.",
    rationale=RATIONALE + " Failures are when deadlocks happen: the fabric is fine until "
    "links go down and BGP reroutes through valleys.",
    fix="Use one ASN for all spines of a tier (AS-path loop prevention then rejects valley "
    "routes), or filter routes so a leaf never re-advertises spine-learned routes upwards.",
    limits="Reported by 'roce-cfg deadlock --fail-links/--fail-devices'; same routing model as "
    "RC501.",
)


@rule(
    "RC503",
    "deadlock-unverified",
    "error",
    "fabric",
    summary="cannot verify: the deadlock verdict rests on a switch whose lossless policy (PFC, "
    "no-drop priorities, the DSCP map) or routing (ports, aggregates, BGP, static routes) was "
    "partly not read.",
    rationale="A deadlock verdict is the one users act on blindly. A switch whose PFC profile "
    "or routes were not read has no buffer dependencies in the graph, or the wrong ones: 'no "
    "cycle' over it would be an all-clear the analysis cannot give.",
    fix="Check the lines listed (RC405 of 'roce-cfg lint' lists them per section) or teach "
    "roce-cfg the command (vendors/<vendor>.grammar.yaml and its parse template); then run "
    "the analysis again.",
    limits="Every scenario is unverified while one switch is: which traffic crosses it depends "
    "on the routing that may not have been read.",
    verifies=False,
)
def deadlock_unverified(f: FabricView) -> Iterator[Hit]:
    if not f.options.deadlock:
        return
    yield from unverified_hits({name: v.gate for name, v in f.devices.items()})


def unverified_hits(gates: Mapping[str, Gate]) -> Iterator[Hit]:
    """One 'cannot verify' hit per switch whose lossless policy or routing was partly unread."""
    for device, gate in sorted(gates.items(), key=lambda kv: natural(kv[0])):
        lines = gate.unread(DEADLOCK_SECTIONS)
        if lines is None:
            continue
        sections = [SECTION_NAMES.get(s, s) for s in gate.sections() if s in DEADLOCK_SECTIONS]
        shown = [n for n in lines if n]
        at = f" (lines {', '.join(map(str, shown[:8]))}{' ...' if len(shown) > 8 else ''})"
        yield Hit(
            f"cannot verify: {', '.join(sections)} not read{at if shown else ''}; no "
            "scenario whose traffic crosses this switch is verified",
            device=device,
            line=shown[0] if shown else None,
        )


# What the deadlock analysis finds that plain lint does not: RC501 and RC503 (lint runs them
# with --deadlock) and RC502 (failure scenarios: never lint). The rest of deadlock_findings
# (RC001, RC311-RC314) lint's own rules report on every run: a report that shows lint's findings
# with the analysis's adds only these, or it shows those twice (as info from lint, as errors here).
BEYOND_LINT = frozenset({"RC501", "RC502", "RC503"})


def deadlock_findings(src: Source, report: Report) -> LintResult:
    """The deadlock command's findings: RC501 for the healthy fabric's cycles, RC502 for each
    cycle a failure scenario opens."""
    found = [_finding(src, "RC501", h) for h in hits(report, report.baseline, None)]
    for scenario, cycles in report.opened.items():
        name = report.scenario_name(scenario)
        found += [_finding(src, "RC502", h) for h in hits(report, cycles, name)]
    found += [unread_finding(u) for u in src.unread]  # RC001: files the analysis never saw
    gates = {name: _gate(p) for name, p in src.parsed.items()}
    found += [_finding(src, "RC503", h) for h in unverified_hits(gates)]
    # What the configs point at that no link explains: the analysis did not see the fabric
    # whole, so 'no cycle' is not an all-clear: each gap is said.
    gaps = list(src.facts.gaps) if src.facts is not None else []
    for kind, rule_id in GAP_RULES.items():
        found += [_finding(src, rule_id, h) for h in gap_hits(gaps, kind, _text_of(src))]
    coverage = src.facts.coverage.line() if src.facts is not None else ""
    files = sorted(set(src.files.values())) or [src.origin]
    return LintResult(found, files, report.net.names, coverage=coverage)


def _gate(parsed: Parsed) -> Gate:
    return Gate.of(parsed.config.accounting.unread_facts, parsed.config.device)


def _text_of(src: Source) -> Callable[[str], str | None]:
    return lambda device: src.parsed[device].text if device in src.parsed else None


# A deadlock verdict is the one users act on blindly: what lint reports as 'cannot verify'
# (a neighbour not given, a link not found, a switch partly read) keeps deadlock's exit code 1.
_NEVER_ALL_CLEAR = frozenset({*GAP_RULES.values(), "RC503"})


def _finding(src: Source, rule_id: str, h: Hit) -> Finding:
    assert h.device is not None
    parsed = src.parsed.get(h.device)
    line = h.line or (parsed.source.interface_line(h.port) if parsed and h.port else None)
    return Finding(
        rule=rule_id,
        severity="error" if rule_id in _NEVER_ALL_CLEAR else RULES[rule_id].severity,
        device=h.device,
        file=src.files.get(h.device, src.origin),
        line=line,
        port=h.port,
        message=h.message,
        related_device=h.related_device,
        related_port=h.related_port,
        detail=h.detail,
    )


def not_covered(result: LintResult) -> list[str]:
    """What the deadlock verdict does not cover: configs not read (RC001), switches whose
    lossless policy or routing was partly not read (RC503), gaps in the fabric (RC311-RC314)."""
    counts = Counter(f.rule for f in result.findings)
    partly = sorted({f.device for f in result.findings if f.rule == "RC503"})
    gaps = sum(n for rule, n in counts.items() if rule not in _VERDICT_RULES)
    parts = []
    if counts["RC001"]:
        parts.append(f"{counts['RC001']} config{'s' * (counts['RC001'] != 1)} not read (RC001)")
    if partly:
        parts.append(f"the lossless policy or routing of {some(partly, 5)} partly not read (RC503)")
    if gaps:
        parts.append(f"{gaps} gap{'s' * (gaps != 1)} in the fabric seen (RC311-RC314)")
    return parts


# The verdict's own findings and the configs it never saw: every other rule is a gap.
_VERDICT_RULES = BEYOND_LINT | {"RC001"}
