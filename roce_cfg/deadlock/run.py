"""The deadlock command's work: scenarios from options and the analysis over them (the findings
they make are roce_cfg.analysis.rules_deadlock's)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from roce_cfg.deadlock import Source, orbits
from roce_cfg.deadlock.analyse import (
    MAX_SAMPLES,
    Report,
    analyse,
    device_failures,
    pair_failures,
    single_failures,
)
from roce_cfg.deadlock.net import Network, build
from roce_cfg.deadlock.quick import TRUNCATED, acyclic
from roce_cfg.deadlock.scheduler import parse as parse_scheduler
from roce_cfg.deadlock.sweep import Unsymmetric
from roce_cfg.errors import InputError
from roce_cfg.heap import bulk_objects
from roce_cfg.model.device import DeviceConfig


@dataclass(frozen=True)
class Failures:
    """Which failures a deadlock run checks, and how (the plan of a sweep)."""

    fail_links: str | None = None  # "all-single" or "a:port,b:dev,..."
    fail_devices: tuple[str, ...] = ()
    max_failures: int = 1
    samples: int = 2000
    scheduler: str | None = None  # a Dask scheduler's address; None: a local cluster
    state: str | None = None  # a file the sweep by symmetry keeps its answers in, to resume


def links_named(net: Network, spec: str) -> tuple[int, ...]:
    """'leaf-1:HundredGigE1/0/25' (a port or an aggregate), 'leaf-1:spine-1' (every link
    between two switches) or an aggregate's member port, comma-separated; all of them fail
    together. A member's failure takes its aggregate down when fewer members than its minimum
    ('least active-linknumber', 'selected-port minimum') stay up; otherwise it only takes
    capacity and no route changes."""
    ids: list[int] = []
    lost: dict[int, int] = {}  # aggregate link -> members failed
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
            lag = _lag_of_member(net, s, rest)
            if lag is None:
                raise InputError(f"--fail-links: no fabric link at '{token}'")
            lost[lag] = lost.get(lag, 0) + 1
        ids.extend(found)
    ids += [lid for lid, k in lost.items() if _below_minimum(net, lid, k)]
    return tuple(sorted(set(ids)))


def _lag_of_member(net: Network, s: int, port: str) -> int | None:
    """The fabric link of the aggregate ``port`` is a member of on switch ``s``."""
    agg = net.devices[s].aggregate_of(port)
    if agg is None:
        return None
    return next(
        (ln.id for ln in net.links if s in (ln.a, ln.b) and ln.port_at(s) == agg.name), None
    )


def _below_minimum(net: Network, lid: int, lost: int) -> bool:
    """Whether losing ``lost`` members leaves either end of aggregate link ``lid`` below the
    members it needs to stay up."""
    link = net.links[lid]
    for s in (link.a, link.b):
        d = net.devices[s]
        agg = d.aggregate(link.port_at(s))
        if agg is not None and sum(_up(d, m) for m in agg.members) - lost < agg.min_active:
            return True
    return False


def _up(d: DeviceConfig, port: str) -> bool:
    return any(p.name == port and not p.shutdown for p in d.interfaces)


def named(net: Network, failures: Failures) -> list[tuple[int, ...]]:
    """The scenarios named outright (--fail-links with links, --fail-devices)."""
    out: list[tuple[int, ...]] = []
    if failures.fail_links and failures.fail_links != "all-single":
        out.append(links_named(net, failures.fail_links))
    if failures.fail_devices:
        unknown = [d for d in failures.fail_devices if d not in net.names]
        if unknown:
            raise InputError(f"--fail-devices: no switch named {', '.join(unknown)}")
        out.append(device_failures(net, list(failures.fail_devices)))
    if failures.max_failures > 2:
        raise InputError("--max-failures: 1 or 2 (larger sets: name them with --fail-links)")
    if not 1 <= failures.samples <= MAX_SAMPLES:
        raise InputError(f"--samples: 1 to {MAX_SAMPLES:,} pairs (got {failures.samples:,})")
    return out


def scenarios(net: Network, failures: Failures) -> list[tuple[int, ...]]:
    out: list[tuple[int, ...]] = [()]
    if failures.fail_links == "all-single":
        out += single_failures(net)
    out += named(net, failures)
    if failures.max_failures >= 2:
        out += pair_failures(net, failures.samples)
    return list(dict.fromkeys(out))


@bulk_objects()  # the fabric, its symmetry and the healthy routes stay alive throughout
def run(
    src: Source, failures: Failures, progress: Callable[[int, int], None] | None = None
) -> Report:
    if failures.scheduler:
        # a malformed address is an error whether used or not
        parse_scheduler(failures.scheduler)
    net = build(src.devices, src.links, src.dscp)
    why = _no_sweep(net, failures)
    if why is None:
        # Every single and pair exactly, by symmetry (needs a healthy fabric without cycles:
        # the sweep reports what failures open, and there is nothing to survive).
        try:
            return by_symmetry(net, failures, progress)
        except Unsymmetric:
            # router ids decide somewhere: scenario by scenario (pairs sampled) below
            why = "router ids break the fabric's symmetry, so its scenarios run one by one"
    report = analyse(net, scenarios(net, failures), progress)
    report.notes = unused(failures, why)
    return report


def _no_sweep(net: Network, failures: Failures) -> str | None:
    """Why the sweep by symmetry (the only user of --scheduler and --state) does not run."""
    if failures.fail_links != "all-single" and failures.max_failures < 2:
        return "no failure sweep was asked for (--fail-links all-single or --max-failures 2)"
    if not orbits.applies(net):
        return "the fabric has no symmetry to sweep by"
    TRUNCATED.clear()
    if not acyclic(net, {}) or TRUNCATED:
        return (
            "the healthy fabric already has a deadlock cycle (the sweep reports what failures open)"
        )
    return None


def unused(failures: Failures, why: str | None) -> list[str]:
    """One note naming the options this run could not use, and why."""
    given = [o for o, v in (("--scheduler", failures.scheduler), ("--state", failures.state)) if v]
    if not given or why is None:
        return []
    return [f"{' and '.join(given)} not used: {why}"]


def by_symmetry(
    net: Network, failures: Failures, progress: Callable[[int, int], None] | None = None
) -> Report:
    from roce_cfg.deadlock import cluster, sweep

    extra = named(net, failures)
    planned = sweep.representatives(
        net, failures.fail_links == "all-single", failures.max_failures >= 2, extra
    )
    tick = progress or (lambda i, n: None)
    answers = cluster.answers(net, planned.todo(), tick, failures.scheduler, failures.state)
    done = sweep.assemble(net, planned, answers)
    report = Report(net, classes=done.classes)
    report.opened = {**done.singles, **done.pairs}
    for scenario in extra:
        if answers[scenario]:
            report.opened[scenario] = answers[scenario]
    for c in done.classes:
        if c.cycles and c.scenario not in report.opened:
            report.opened[c.scenario] = c.cycles  # a class too large to list: its representative
    report.opened = dict(sorted(report.opened.items()))
    report.scenarios = 1 + len(planned.sym.net.links) * bool(planned.orbits) + done.pair_total
    # A named scenario that is a single or a pair the sweep covers is not counted twice.
    swept = {1} if planned.orbits else set()
    swept |= {2} if planned.classes or failures.max_failures >= 2 else set()
    report.scenarios += len({sc for sc in extra if len(sc) not in swept})
    parts = [f"{done.single_orbits:,} single-failure orbits"] if planned.orbits else []
    if planned.classes:
        parts.append(f"{len(done.classes):,} pair classes ({done.pair_total:,} pairs)")
    report.symmetry = f"by symmetry: {', '.join(parts)}; {len(answers):,} scenarios analysed"
    return report
