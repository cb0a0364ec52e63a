"""Differential property tests for link aggregation and M-LAG (issue 26): a Clos whose parallel
uplinks are bundled into LAGs routes and deadlocks exactly as the same Clos with the parallel
links; failing a LAG equals failing all its links; a member failure changes nothing until the
minimum of active members is reached; a routed VLAN over an M-LAG peer-link routes as a routed
port between the pair would."""

from __future__ import annotations

from ipaddress import IPv4Address, IPv4Interface
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from roce_cfg.deadlock.analyse import analyse
from roce_cfg.deadlock.net import Network, build
from roce_cfg.deadlock.routing import baseline, fail
from roce_cfg.deadlock.run import links_named
from roce_cfg.design.designer import design
from roce_cfg.intent.models import Intent
from roce_cfg.model.device import Aggregate, DeviceConfig, Interface, VlanInterface
from roce_cfg.platforms.profile import load_profile
from tests.helpers import examples
from tests.test_deadlock import _clos

Spec = tuple[str, str, str, str]


def _fabric(spec: dict[str, Any]) -> tuple[list[DeviceConfig], list[Spec]]:
    intent = Intent.model_validate(spec)
    fabric = design(intent, {v: load_profile(v) for v in {intent.fabric.leaf.vendor}})
    links = [(k.a_device, k.a_port, k.b_device, k.b_port) for k in fabric.links]
    return list(fabric.devices), links


def _bundled(
    devices: list[DeviceConfig], links: list[Spec], min_active: int
) -> tuple[list[DeviceConfig], list[Spec]]:
    """The same fabric with the parallel links of each switch pair bundled into one aggregate
    at each end: the first member's address moves to the aggregate, members keep PFC."""
    groups: dict[tuple[str, str], list[Spec]] = {}
    for k in links:
        groups.setdefault((k[0], k[2]), []).append(k)
    by_name = {d.hostname: d for d in devices}
    ports: dict[str, dict[str, Interface]] = {
        d.hostname: {p.name: p for p in d.interfaces} for d in devices
    }
    aggs: dict[str, list[Aggregate]] = {d.hostname: [] for d in devices}
    out: list[Spec] = []
    for n, ((a, b), group) in enumerate(sorted(groups.items())):
        ends = []
        for side, port_at in ((a, 1), (b, 3)):
            name = f"Agg{n}"
            members = [k[port_at] for k in group]
            first = ports[side][members[0]]
            ports[side][name] = first.model_copy(update={"name": name})
            for m in members:
                ports[side][m] = ports[side][m].model_copy(update={"ipv4": None})
            aggs[side].append(Aggregate(name=name, members=tuple(members), min_active=min_active))
            ends.append(name)
        out.append((a, ends[0], b, ends[1]))
    bundled = [
        by_name[h].model_copy(
            update={"interfaces": tuple(ports[h].values()), "aggregates": tuple(aggs[h])}
        )
        for h in by_name
    ]
    return bundled, out


def _routes(net: Network, failed: list[int]) -> dict[str, dict[str, list[str]]]:
    state = baseline(net)
    fail(state, failed)
    names = net.names
    return {
        names[d]: {names[s]: sorted(names[x] for x in r.nh) for s, r in table.items()}
        for d, table in state.routes.items()
    }


def _cycles(net: Network, failed: tuple[int, ...]) -> set[frozenset[tuple[str, str]]]:
    report = analyse(net, [failed])
    found = report.baseline + [c for cs in report.opened.values() for c in cs]
    return {frozenset(report.node_name(n).partition("[")[::2]) for c in found for n in c.nodes}


# parallel uplinks (2 per spine) so that there is something to bundle
clos = st.builds(
    _clos,
    st.integers(1, 3),
    st.integers(2, 4),
    st.just(2),
    st.booleans(),
    st.sampled_from([1, 2, 64]),
)


@settings(max_examples=examples(25), deadline=None)
@given(clos, st.data())
def test_a_lag_routes_and_fails_as_its_parallel_links(
    spec: dict[str, Any], data: st.DataObject
) -> None:
    devices, links = _fabric(spec)
    lag_devices, lag_links = _bundled(devices, links, 1)
    plain, lag = build(devices, links, 26), build(lag_devices, lag_links, 26)
    assert len(lag.links) * 2 == len(plain.links)
    assert _routes(lag, []) == _routes(plain, [])
    # fail some LAGs, and on the plain fabric every link of those switch pairs
    chosen = data.draw(st.sets(st.sampled_from(range(len(lag.links))), min_size=1, max_size=2))
    pairs = {(lag.links[i].a, lag.links[i].b) for i in chosen}
    parallel = sorted(k.id for k in plain.links if (k.a, k.b) in pairs)
    assert _routes(lag, sorted(chosen)) == _routes(plain, parallel)
    assert _cycles(lag, tuple(sorted(chosen))) == _cycles(plain, tuple(parallel))


@settings(max_examples=examples(15), deadline=None)
@given(clos, st.integers(1, 2))
def test_a_member_failure_fails_the_lag_only_below_its_minimum(
    spec: dict[str, Any], minimum: int
) -> None:
    devices, links = _fabric(spec)
    lag_devices, lag_links = _bundled(devices, links, minimum)
    net = build(lag_devices, lag_links, 26)
    link = net.links[0]
    agg = net.devices[link.a].aggregate(link.a_port)
    assert agg is not None
    member = f"{net.names[link.a]}:{agg.members[0]}"
    assert links_named(net, member) == ((link.id,) if minimum == 2 else ())
    both = ",".join(f"{net.names[link.a]}:{m}" for m in agg.members)
    assert links_named(net, both) == (link.id,)


def _peer_linked(
    devices: list[DeviceConfig], a: str, b: str, routed: bool
) -> tuple[list[DeviceConfig], Spec]:
    """Leaves ``a`` and ``b`` joined by a new lossless link: an M-LAG peer-link aggregate with a
    /31 VLAN interface riding it (``routed`` False), or a plain routed port (True); both run
    eBGP over it."""
    out, ends = [], {}
    for n, (me, other) in enumerate(((a, b), (b, a))):
        d = next(x for x in devices if x.hostname == me)
        peer = next(x for x in devices if x.hostname == other)
        template = next(p for p in d.interfaces if p.qos.pfc and p.ipv4 is not None)
        ip = IPv4Interface(f"10.254.0.{n}/31")  # model_copy does not convert
        member = template.model_copy(update={"name": "Peer1/0/1", "ipv4": None})
        update: dict[str, Any] = {}
        if routed:
            port = template.model_copy(update={"name": "Peer1/0/1", "ipv4": ip})
            update["interfaces"] = (*d.interfaces, port)
            ends[me] = "Peer1/0/1"
        else:
            lag = template.model_copy(update={"name": "PeerLink", "ipv4": None, "mode": "access"})
            agg = Aggregate(name="PeerLink", members=("Peer1/0/1",), peer_link=True)
            svi = VlanInterface(vlan=4000, ipv4=ip, mtu=template.mtu)
            update["interfaces"] = (*d.interfaces, lag, member)
            update["aggregates"] = (agg,)
            update["vlan_interfaces"] = (*d.vlan_interfaces, svi)
            ends[me] = f"{load_profile(d.vendor).vlan_interface}4000"
        assert d.bgp is not None and peer.bgp is not None
        neighbour = d.bgp.neighbors[0].model_copy(
            update={"address": IPv4Address(f"10.254.0.{1 - n}"), "remote_as": peer.bgp.asn}
        )
        update["bgp"] = d.bgp.model_copy(update={"neighbors": (*d.bgp.neighbors, neighbour)})
        out.append(d.model_copy(update=update))
    rest = [d for d in devices if d.hostname not in (a, b)]
    return out + rest, (a, ends[a], b, ends[b])


@settings(max_examples=examples(15), deadline=None)
@given(clos, st.data())
def test_a_vlan_over_a_peer_link_routes_as_a_routed_port(
    spec: dict[str, Any], data: st.DataObject
) -> None:
    devices, links = _fabric(spec)
    leaves = sorted(d.hostname for d in devices if d.role == "leaf")
    a, b = leaves[0], leaves[1]
    mlag, extra = _peer_linked(devices, a, b, routed=False)
    routed, extra_r = _peer_linked(devices, a, b, routed=True)
    order = [d.hostname for d in devices]
    mlag.sort(key=lambda d: order.index(d.hostname))
    routed.sort(key=lambda d: order.index(d.hostname))
    net_m, net_r = build(mlag, [*links, extra], 26), build(routed, [*links, extra_r], 26)
    assert len(net_m.links) == len(net_r.links) == len(links) + 1
    failed = sorted(data.draw(st.sets(st.sampled_from(range(len(links))), min_size=0, max_size=2)))
    assert _routes(net_m, failed) == _routes(net_r, failed)
    assert _cycles(net_m, tuple(failed)) == _cycles(net_r, tuple(failed))
    # the peer-link is in the buffer graph, lossless where its member is
    peer = net_m.links[-1]
    assert (peer.a, peer.id) in net_m.lossless and (peer.b, peer.id) in net_m.lossless
