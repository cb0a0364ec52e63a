"""Fabric rules: both ends of a link agree, RoCE is lossless on every hop, rails, ratios, BGP."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterator
from typing import Any

from roce_cfg.analysis.context import DeviceView, FabricLink, FabricView
from roce_cfg.analysis.registry import Hit, rule
from roce_cfg.model import numbers
from roce_cfg.model.device import Interface
from roce_cfg.policy import lossless_dscps

Pair = tuple[DeviceView, Interface, DeviceView, Interface, FabricLink]


def _pairs(f: FabricView) -> list[Pair]:
    """Both ends of every link in service; computed once, read by every link rule."""
    pairs: list[Pair] | None = f.memo.get("pairs")
    if pairs is None:
        pairs = f.memo["pairs"] = []
        for link in f.links:
            a, b = f.devices.get(link.a.device), f.devices.get(link.b.device)
            pa, pb = f.port(link.a), f.port(link.b)
            if a and b and pa and pb and not (pa.shutdown or pb.shutdown):
                pairs.append((a, pa, b, pb, link))
    return pairs


def _mismatch(
    f: FabricView,
    what: str,
    value: Callable[[DeviceView, Interface], Any],
    anchor: str | None = None,
) -> Iterator[Hit]:
    for a, pa, b, pb, _ in _pairs(f):
        va, vb = value(a, pa), value(b, pb)
        if va != vb:
            yield Hit(
                f"{what} {va} here, {vb} on {b.name} {pb.name}",
                device=a.name,
                port=pa.name,
                related_device=b.name,
                related_port=pb.name,
                anchor=anchor,
            )


@rule(
    "RC301",
    "link-no-drop-mismatch",
    "error",
    "fabric",
    summary="The two ends of a link disagree on the no-drop priorities.",
    rationale="PAUSE for a priority only helps if the sender honours it: an end that does not "
    "treat the priority as no-drop neither pauses nor reserves headroom, so the link drops it.",
    fix="Use the same no-drop priorities on both ends of every fabric link.",
)
def link_no_drop(f: FabricView) -> Iterator[Hit]:
    yield from _mismatch(
        f, "no-drop priorities", lambda v, p: list(p.qos.no_drop) if p.qos.pfc else []
    )


@rule(
    "RC302",
    "link-trust-mismatch",
    "error",
    "fabric",
    summary="One end of a link trusts DSCP and the other does not.",
    rationale="Traffic crossing from a trusting to a non-trusting port loses its class and lands "
    "in the default, lossy queue on the next hop.",
    fix="Trust DSCP on both ends of every fabric link.",
)
def link_trust(f: FabricView) -> Iterator[Hit]:
    yield from _mismatch(f, "DSCP trust", lambda v, p: p.qos.trust_dscp, "port.trust")


@rule(
    "RC303",
    "link-dscp-map-mismatch",
    "error",
    "fabric",
    summary="The two ends of a link map the RoCE or CNP DSCP to different priorities.",
    rationale="PFC pauses a priority, not a DSCP. If neighbours map RoCE to different priorities, "
    "one pauses a class the other does not send in, and the lossless class breaks at the link.",
    fix="Use one DSCP -> priority map fabric-wide.",
    limits="Compares the RoCE and CNP DSCPs (the intent's, --roce-dscp / --cnp-dscp, else the "
    "DSCP most configs map to a no-drop priority) and the set of DSCPs each end maps to a "
    "no-drop priority: a switch whose lossless policy differs from its neighbour's is reported.",
)
def link_dscp_map(f: FabricView) -> Iterator[Hit]:
    def classes(v: DeviceView, p: Interface) -> str:
        own = ",".join(map(str, lossless_dscps(v.device))) or "none"
        return (
            f"RoCE->{v.priority_of(v.roce_dscp)} CNP->{v.priority_of(v.cnp_dscp)} "
            f"lossless DSCPs {own}"
        )

    yield from _mismatch(f, "DSCP map", classes)


@rule(
    "RC304",
    "link-mtu-mismatch",
    "error",
    "fabric",
    summary="The two ends of a link have different MTUs.",
    rationale="The smaller MTU drops the larger frames of the other side, and headroom computed "
    "from one MTU is wrong for the other.",
    fix="Use the same MTU on both ends.",
)
def link_mtu(f: FabricView) -> Iterator[Hit]:
    yield from _mismatch(f, "MTU", lambda v, p: p.mtu, "port.mtu")


@rule(
    "RC305",
    "link-speed-mismatch",
    "error",
    "fabric",
    summary="The two ends of a link run at different speeds.",
    rationale="A link comes up at one speed or not at all; a mismatch means a wrong port, optic "
    "or breakout, and headroom sized for the wrong speed.",
    fix="Cable matching ports or set the same speed on both ends.",
    limits="Speeds come from fabric.json when given, else from the interface names.",
)
def link_speed(f: FabricView) -> Iterator[Hit]:
    yield from _mismatch(f, "speed (Gb/s)", lambda v, p: p.speed_gbps)


@rule(
    "RC306",
    "roce-lossy-hop",
    "error",
    "fabric",
    summary="RoCE is not lossless at one end of a fabric link.",
    rationale="Every server-to-server path in a Clos crosses leaf-spine links; one hop where the "
    "RoCE priority has no PFC makes the whole path lossy.",
    fix="Enable PFC with the RoCE priority as no-drop on both ends of every fabric link.",
)
def roce_lossy_hop(f: FabricView) -> Iterator[Hit]:
    for a, pa, b, pb, _ in _pairs(f):
        prio = a.priority_of(a.roce_dscp)
        if not (pa.qos.pfc and prio in pa.qos.no_drop):
            yield Hit(
                f"RoCE priority {prio} is lossy on this end of the link to {b.name}",
                device=a.name,
                port=pa.name,
                related_device=b.name,
                related_port=pb.name,
            )


@rule(
    "RC307",
    "rail-vlan-spread",
    "warning",
    "fabric",
    summary="A server VLAN is on switches the plan does not put it on, or one subnet on several.",
    rationale="In a rail-optimised fabric each rail VLAN and subnet is local to its leaf and "
    "routed beyond it. A VLAN on an unplanned leaf, or one gateway subnet on several leaves, "
    "means a stretched layer 2 domain (lossless traffic flooded across uplinks) or a mistake.",
    fix="Give each rail leaf its own VLAN and subnet, as the plan has it.",
    limits="Without fabric.json or an intent, VLAN IDs may repeat on leaves (they are local); "
    "only a gateway subnet repeated on several switches is reported. A trunk counts with the "
    "VLANs it permits ('all': every VLAN the switch has).",
)
def rail_vlan_spread(f: FabricView) -> Iterator[Hit]:
    where: dict[int, list[str]] = defaultdict(list)
    for name, v in sorted(f.devices.items()):
        for vlan in sorted({vlan for p in v.in_use() for vlan in _carried(p)}):
            where[vlan].append(name)
    planned = f.options.vlan_switches
    for vlan, switches in sorted(where.items()):
        if planned:
            allowed = planned.get(vlan, frozenset())
            stray = [s for s in switches if s not in allowed]
            why = f"planned on {', '.join(sorted(allowed)) or 'no switch'}"
        else:
            subnets: dict[str, list[str]] = defaultdict(list)
            for s in switches:
                for svi in f.devices[s].device.vlan_interfaces:
                    if svi.vlan == vlan:
                        subnets[str(svi.ipv4.network)].append(s)
            stray = sorted({s for group in subnets.values() if len(group) > 1 for s in group})
            why = "the same gateway subnet on " + ", ".join(stray)
        for name in stray:
            # the first such port by name, not in file order (block order changes no finding)
            port = min(
                (p for p in f.devices[name].in_use() if vlan in _carried(p)), key=lambda p: p.name
            )
            how = "carried on a trunk" if port.trunk_vlans else "has server ports"
            yield Hit(f"VLAN {vlan} {how} here; {why}", device=name, port=port.name)


def _carried(port: Interface) -> tuple[int, ...]:
    """The VLANs a switched port carries: a trunk's permitted list (a VLAN stretched over a
    trunk is as stray as one on a server port), else its access VLAN."""
    if port.mode != "access":
        return ()
    if port.trunk_vlans:
        return numbers.expand(port.trunk_vlans)
    return (port.access_vlan,) if port.access_vlan else ()


@rule(
    "RC308",
    "leaf-oversubscribed",
    "warning",
    "fabric",
    summary="A leaf has more server bandwidth than uplink bandwidth.",
    rationale="Collective operations in training run all NICs at line rate at once; above 1:1 "
    "the uplinks congest on every step and PFC pauses spread into the servers.",
    fix="Add uplinks (or faster ones) until uplink bandwidth matches server bandwidth.",
    limits="Counts ports in use: access ports down, routed point-to-point ports up; speeds "
    "are the plan's (fabric.json) or the descriptions' ('speed=<n>G'). A leaf whose server "
    "port speeds only the port names give is not checked (a 400G port may run a 200G NIC); "
    "RC206 says so.",
)
def oversubscribed(f: FabricView) -> Iterator[Hit]:
    for name, v in sorted(f.devices.items()):
        ports = v.in_use()
        if any(p.mode == "access" and not v.speed_known(p) for p in ports):
            continue
        down = sum(p.speed_gbps for p in ports if p.mode == "access")
        up = sum(
            p.speed_gbps
            for p in ports
            if p.mode == "routed" and p.ipv4 is not None and p.ipv4.network.prefixlen >= 30
        )
        if down and up and down > up:
            yield Hit(
                f"{down} Gb/s to servers over {up} Gb/s of uplinks ({down / up:.2f}:1)",
                device=name,
                anchor="bgp",
            )


def _neighbors(v: DeviceView) -> dict[str, int]:
    if "neighbors" not in v.memo:
        bgp = v.device.bgp
        v.memo["neighbors"] = {str(n.address): n.remote_as for n in bgp.neighbors} if bgp else {}
    result: dict[str, int] = v.memo["neighbors"]
    return result


@rule(
    "RC309",
    "bgp-remote-as-mismatch",
    "error",
    "fabric",
    summary="A BGP session over a link names the wrong remote AS.",
    rationale="The session never comes up, so the link carries no routes and ECMP loses a path; "
    "the deadlock analysis also reads the fabric's routing from these sessions.",
    fix="Set the neighbour's remote-as to the ASN configured on the peer.",
)
def bgp_remote_as(f: FabricView) -> Iterator[Hit]:
    for a, pa, b, pb, _ in _pairs(f):
        peer_ip = str(pb.ipv4.ip) if pb.ipv4 else None
        remote = _neighbors(a).get(peer_ip) if peer_ip else None
        if remote is not None and b.device.bgp is not None and remote != b.device.bgp.asn:
            yield Hit(
                f"neighbor {peer_ip} remote-as {remote}, but {b.name} is AS {b.device.bgp.asn}",
                device=a.name,
                port=pa.name,
                related_device=b.name,
                related_port=pb.name,
                line=a.source.line_of(a.profile.parse.anchors.get("bgp", "bgp "), None),
            )


@rule(
    "RC310",
    "link-without-bgp",
    "warning",
    "fabric",
    summary="A fabric link has no BGP session while both switches run BGP.",
    rationale="A link without a session carries no traffic: ECMP has one path fewer than cabled.",
    fix="Add the neighbour for the peer's link address.",
)
def link_without_bgp(f: FabricView) -> Iterator[Hit]:
    for a, pa, b, pb, _ in _pairs(f):
        if a.device.bgp is None or b.device.bgp is None or pb.ipv4 is None:
            continue
        if str(pb.ipv4.ip) not in _neighbors(a):
            yield Hit(
                f"no BGP neighbor {pb.ipv4.ip} for the link to {b.name}",
                device=a.name,
                port=pa.name,
                related_device=b.name,
                related_port=pb.name,
            )
