"""The deadlock command's work: scenarios from options, the analysis, findings for reports."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from roce_cfg.analysis.findings import Finding, LintResult
from roce_cfg.analysis.registry import RULES, Hit, rules
from roce_cfg.deadlock import Source
from roce_cfg.deadlock.analyse import (
    MAX_SAMPLES,
    Report,
    analyse,
    device_failures,
    pair_failures,
    single_failures,
)
from roce_cfg.deadlock.findings import hits
from roce_cfg.deadlock.net import Network, build
from roce_cfg.errors import InputError


@dataclass(frozen=True)
class Plan:
    fail_links: str | None = None  # "all-single" or "a:port,b:dev,..."
    fail_devices: tuple[str, ...] = ()
    max_failures: int = 1
    samples: int = 2000


def links_named(net: Network, spec: str) -> tuple[int, ...]:
    """'leaf-1:HundredGigE1/0/25' (a port) or 'leaf-1:spine-1' (every link between two
    switches), comma-separated; all of them fail together."""
    ids: list[int] = []
    for token in (t.strip() for t in spec.split(",") if t.strip()):
        host, _, rest = token.partition(":")
        if host not in net.names or not rest:
            raise InputError(f"--fail-links: '{token}' is not <switch>:<port> or <switch>:<switch>")
        s = net.index(host)
        if rest in net.names:
            found = net.adj[s].get(net.index(rest), [])
        else:
            found = [ln.id for ln in net.links if s in (ln.a, ln.b) and ln.port_at(s) == rest]
        if not found:
            raise InputError(f"--fail-links: no fabric link at '{token}'")
        ids.extend(found)
    return tuple(sorted(set(ids)))


def scenarios(net: Network, plan: Plan) -> list[tuple[int, ...]]:
    out: list[tuple[int, ...]] = [()]
    if plan.fail_links == "all-single":
        out += single_failures(net)
    elif plan.fail_links:
        out.append(links_named(net, plan.fail_links))
    if plan.fail_devices:
        unknown = [d for d in plan.fail_devices if d not in net.names]
        if unknown:
            raise InputError(f"--fail-devices: no switch named {', '.join(unknown)}")
        out.append(device_failures(net, list(plan.fail_devices)))
    if plan.max_failures > 2:
        raise InputError("--max-failures: 1 or 2 (larger sets: name them with --fail-links)")
    if not 1 <= plan.samples <= MAX_SAMPLES:
        raise InputError(f"--samples: 1 to {MAX_SAMPLES:,} pairs (got {plan.samples:,})")
    if plan.max_failures >= 2:
        out += pair_failures(net, plan.samples)
    return list(dict.fromkeys(out))


def run(
    src: Source, plan: Plan, progress: Callable[[int, int], None] | None = None
) -> tuple[Report, LintResult]:
    net = build(src.devices, src.links, src.dscp)
    report = analyse(net, scenarios(net, plan), progress)
    found: list[Finding] = []
    for h in hits(report, report.baseline, None):
        found.append(_finding(src, "RC501", h))
    for scenario, cycles in report.opened.items():
        for h in hits(report, cycles, report.scenario_name(scenario)):
            found.append(_finding(src, "RC502", h))
    rules()  # the registry holds RC501/RC502
    result = LintResult(found, sorted(set(src.files.values())) or [src.origin], net.names)
    return report, result


def _finding(src: Source, rule_id: str, h: Hit) -> Finding:
    assert h.device is not None
    parsed = src.parsed.get(h.device)
    line = parsed.source.interface_line(h.port) if parsed and h.port else None
    return Finding(
        rule=rule_id,
        severity=RULES[rule_id].severity,
        device=h.device,
        file=src.files.get(h.device, src.origin),
        line=line,
        port=h.port,
        message=h.message,
        related_device=h.related_device,
        related_port=h.related_port,
        detail=h.detail,
    )
