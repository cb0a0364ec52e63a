"""The traffic classes that are not plain eBGP (deadlock/forward.py) against the brute-force
checker: random Clos fabrics, cables missing, with random static routes (to a neighbour, to
NULL0, defaults, backups, inter-protocol ECMP), BGP defaults advertised to chosen peers and a
leaf that puts RoCE in another lossless priority. The incremental engine's edges after any
failure (and after rolling it back) are the brute force's, and the cycles agree."""

from __future__ import annotations

from ipaddress import IPv4Address, IPv4Network
from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from roce_cfg.deadlock.analyse import analyse
from roce_cfg.deadlock.net import Network, build
from roce_cfg.deadlock.quick import acyclic
from roce_cfg.deadlock.routing import Node, State, baseline, fail, restore
from roce_cfg.design.designer import design
from roce_cfg.intent.models import Intent
from roce_cfg.model.device import DeviceConfig, DscpMap, StaticRoute
from roce_cfg.platforms.profile import load_profile
from tests import deadlock_brute as brute
from tests.helpers import examples
from tests.test_deadlock import _clos

Spec = tuple[str, str, str, str]

clos = st.builds(
    _clos,
    st.integers(1, 3),
    st.integers(2, 4),
    st.integers(1, 2),
    st.booleans(),
    st.sampled_from([1, 2, 64]),
)


def _designed(spec: dict[str, Any]) -> tuple[list[DeviceConfig], list[Spec]]:
    intent = Intent.model_validate(spec)
    fabric = design(intent, {v: load_profile(v) for v in {intent.fabric.leaf.vendor}})
    return list(fabric.devices), [
        (k.a_device, k.a_port, k.b_device, k.b_port) for k in fabric.links
    ]


def _address(devices: list[DeviceConfig], host: str, port: str) -> IPv4Address:
    d = next(d for d in devices if d.hostname == host)
    p = next(p for p in d.interfaces if p.name == port)
    assert p.ipv4 is not None
    return p.ipv4.ip


@st.composite
def fabrics(draw: st.DrawFn) -> Network:
    devices, links = _designed(draw(clos))
    gone = draw(st.sets(st.sampled_from(range(len(links))), max_size=2))
    kept = [k for i, k in enumerate(links) if i not in gone]
    names = [d.hostname for d in devices]
    subnets = [svi.ipv4.network for d in devices for svi in d.vlan_interfaces]
    routes: dict[str, list[StaticRoute]] = {}
    for _ in range(draw(st.integers(0, 6))):
        a, pa, b, pb = draw(st.sampled_from(kept or links))
        here, there = draw(st.sampled_from([(a, (b, pb)), (b, (a, pa))]))
        base = draw(st.sampled_from([*subnets, IPv4Network("0.0.0.0/0")]))
        prefix = (
            draw(st.sampled_from([base, *list(base.subnets())[:1]])) if base.prefixlen else base
        )
        hop = None if draw(st.integers(0, 4)) == 0 else _address(devices, *there)
        routes.setdefault(here, []).append(
            StaticRoute(
                prefix=prefix,
                next_hop=hop,
                interface="" if hop else "NULL0",
                preference=draw(st.sampled_from([None, 10, 250, 255])),
                inter_protocol_ecmp=draw(st.booleans()),
            )
        )
    adverts: dict[str, list[IPv4Address]] = {}
    for d in devices:
        if d.role == "spine" and d.bgp and draw(st.integers(0, 3)) == 0:
            adverts[d.hostname] = draw(
                st.lists(
                    st.sampled_from([n.address for n in d.bgp.neighbors]), min_size=1, unique=True
                )
            )
    other = draw(st.sampled_from([None, *names]))
    out = [_changed(d, routes, adverts, d.hostname == other) for d in devices]
    return build(out, kept, 26)


def _changed(
    d: DeviceConfig,
    routes: dict[str, list[StaticRoute]],
    adverts: dict[str, list[IPv4Address]],
    other: bool,
) -> DeviceConfig:
    update: dict[str, Any] = {"static_routes": tuple(routes.get(d.hostname, ()))}
    if d.bgp is not None and d.hostname in adverts:
        update["bgp"] = d.bgp.model_copy(update={"default_to": tuple(adverts[d.hostname])})
    if other:  # RoCE (DSCP 26) in priority 4 here, lossless like 3
        maps = tuple(
            DscpMap(dscp=m.dscp, priority=4 if m.dscp == 26 else m.priority) for m in d.qos.dscp_map
        )
        update["qos"] = d.qos.model_copy(update={"dscp_map": maps, "no_drop": (3, 4)})
        update["interfaces"] = tuple(
            p.model_copy(update={"qos": p.qos.model_copy(update={"no_drop": (3, 4)})})
            for p in d.interfaces
        )
    return d.model_copy(update=update)


def _edges(st_: State) -> dict[Node, set[Node]]:
    out: dict[Node, set[Node]] = {}
    for u, vs in st_.edges.items():
        for v, n in vs.items():
            assert n >= 0, (u, v, n)  # a count below zero: an edge taken away it never had
            if n and st_.alive(u) and st_.alive(v):
                out.setdefault(u, set()).add(v)
    return out


def _brute(net: Network, failed: set[int]) -> dict[Node, set[Node]]:
    return {u: vs for u, vs in brute._edges(net, failed).items() if vs}


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fabrics(), st.data())
def test_the_engine_routes_as_the_brute_force_healthy_and_after_failures(
    net: Network, data: st.DataObject
) -> None:
    if not net.links:
        return
    state = baseline(net)
    healthy = _edges(state)
    assert healthy == _brute(net, set())
    failed = data.draw(st.sets(st.sampled_from(range(len(net.links))), min_size=1, max_size=2))
    fail(state, sorted(failed))
    assert _edges(state) == _brute(net, failed)
    restore(state, sorted(failed))
    assert _edges(state) == healthy
    scenario = tuple(sorted(failed))
    report = analyse(net, [scenario])
    healthy_comps = brute.components(net, set())
    assert len(report.baseline) == len(healthy_comps)
    after = brute._edges(net, failed)
    for c in report.opened.get(scenario, []):
        ring = zip(c.nodes, (*c.nodes[1:], c.nodes[0]), strict=True)
        assert all(v in after.get(u, set()) for u, v in ring), c
    # A cycle the failure closes with an edge it adds is reported (each a real cycle, above).
    before = brute._edges(net, set())
    added = {(u, v) for u, vs in after.items() for v in vs if v not in before.get(u, set())}
    closed = [c for c in brute.components(net, failed) if any({u, v} <= c for u, v in added)]
    assert bool(report.opened.get(scenario)) >= bool(closed)
    event(
        f"flows {min(len(net.flows), 3)}, cycles {min(len(healthy_comps), 2)}, new {bool(closed)}"
    )
    if acyclic(net, {}):
        assert healthy_comps == []  # the shortcut's "no cycle" holds


@st.composite
def mixed_priorities(draw: st.DrawFn) -> Network:
    """A plain Clos (cables missing) where some switches put RoCE in priority 4: the shortcuts
    and the sweep by symmetry still apply, and must keep a pause to its own priority."""
    # One ASN per spine: failures open valley routes, the cycles a priority change can break.
    spec = _clos(
        draw(st.integers(2, 3)), draw(st.integers(3, 4)), 1, False, draw(st.sampled_from([2, 64]))
    )
    devices, links = _designed(spec)
    gone = draw(st.sets(st.sampled_from(range(len(links))), max_size=1))
    kept = [k for i, k in enumerate(links) if i not in gone]
    other = draw(st.sets(st.sampled_from([d.hostname for d in devices]), min_size=1, max_size=2))
    return build([_changed(d, {}, {}, d.hostname in other) for d in devices], kept, 26)


@settings(max_examples=examples(30), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mixed_priorities())
def test_the_shortcuts_keep_a_pause_to_its_priority(net: Network) -> None:
    from itertools import combinations

    from roce_cfg.deadlock.quick import bicliques
    from roce_cfg.deadlock.sweep import Unsymmetric, sweep

    assert net.simple
    groups = bicliques(net)
    assert groups is not None
    routed = _edges(baseline(net))
    assert routed == _brute(net, set())
    assert acyclic(net, {}) == (brute.components(net, set()) == [])
    for pair in combinations(range(len(net.links)), 2):
        cycles = brute.components(net, set(pair))
        assert acyclic(net, {}, frozenset(pair)) == (cycles == []), pair
        event(f"cycles after a pair of failures: {bool(cycles)}")
    if brute.components(net, set()):
        return  # the sweep's premise: a healthy fabric without cycles
    try:
        out = sweep(net, True, True, lambda i, n: None)
    except Unsymmetric:
        return
    event(f"one priority {net.one_priority}")
    for lid in range(len(net.links)):
        assert len(out.singles.get((lid,), [])) == len(brute.components(net, {lid}))
    for pair in combinations(range(len(net.links)), 2):
        assert len(out.pairs.get(pair, [])) == len(brute.components(net, set(pair)))


def test_a_failure_that_grows_a_healthy_cycle_onto_new_buffers_is_reported() -> None:
    """Found by the property above in CI: leaf-3's default static makes a healthy cycle on
    spine-1 (port 5) and leaf-3; failing leaf-1's link routes traffic through spine-1's port 6
    as well, and the cycles through it were reported as nothing new, because the witness was
    the shortest ring through the first new edge's tail, which was the healthy one."""
    import json

    from tests.helpers import ROOT

    data = json.loads((ROOT / "tests/data/deadlock/failure-grows-a-cycle.json").read_text())
    devices = [DeviceConfig.model_validate(d) for d in data["devices"]]
    net = build(devices, [tuple(k) for k in data["links"]], 26)
    report = analyse(net, [(0,)])
    healthy = {n for c in report.baseline for n in c.nodes}
    opened = report.opened.get((0,), [])
    assert opened and all(set(c.nodes) - healthy for c in opened)
    after = brute._edges(net, {0})
    for c in opened:
        ring = zip(c.nodes, (*c.nodes[1:], c.nodes[0]), strict=True)
        assert all(v in after.get(u, set()) for u, v in ring), c
