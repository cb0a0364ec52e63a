"""The deadlock command's work: scenarios from options and the analysis over them (the findings
they make are roce_cfg.analysis.rules_deadlock's)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from roce_cfg.deadlock import Source
from roce_cfg.deadlock.analyse import (
    MAX_SAMPLES,
    Report,
    analyse,
    device_failures,
    pair_failures,
    single_failures,
)
from roce_cfg.deadlock.net import Network, build
from roce_cfg.errors import InputError
from roce_cfg.model.device import DeviceConfig


@dataclass(frozen=True)
class Plan:
    fail_links: str | None = None  # "all-single" or "a:port,b:dev,..."
    fail_devices: tuple[str, ...] = ()
    max_failures: int = 1
    samples: int = 2000


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


def run(src: Source, plan: Plan, progress: Callable[[int, int], None] | None = None) -> Report:
    net = build(src.devices, src.links, src.dscp)
    return analyse(net, scenarios(net, plan), progress)
