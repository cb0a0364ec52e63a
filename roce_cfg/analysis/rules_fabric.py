"""Fabric rules: both ends of a link agree, RoCE is lossless on every hop, rails, ratios, BGP."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterator
from itertools import chain
from typing import Any

from roce_cfg.analysis.context import DeviceView, FabricView, carried
from roce_cfg.analysis.link_scan import (
    Settings,
    differing,
    dscp_classes,
    ends_of,
    neighbors_of,
    no_drop_of,
    physical_only,
    scan_of,
)
from roce_cfg.analysis.registry import Hit, rule
from roce_cfg.model import addresses, numbers
from roce_cfg.model.device import Interface


def _mismatch(
    f: FabricView,
    what: str,
    setting: Callable[[Settings], Any],
    anchor: str | None = None,
    physical: bool = False,
) -> Iterator[Hit]:
    settings = ends_of(f).settings
    for a, pa, b, pb, _ in differing(f, physical):
        va, vb = setting(settings(a, pa)), setting(settings(b, pb))
        if va != vb and va is not None and vb is not None:
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
    reads=("pfc", "interfaces", "aggregates"),
)
def link_no_drop(f: FabricView) -> Iterator[Hit]:
    # printed as a list: '[3]'
    yield from _mismatch(f, "no-drop priorities", lambda s: list(s.no_drop), physical=True)


@rule(
    "RC302",
    "link-trust-mismatch",
    "error",
    "fabric",
    summary="One end of a link trusts DSCP and the other does not.",
    rationale="Traffic crossing from a trusting to a non-trusting port loses its class and lands "
    "in the default, lossy queue on the next hop.",
    fix="Trust DSCP on both ends of every fabric link.",
    reads=("qos_maps", "interfaces", "aggregates"),
)
def link_trust(f: FabricView) -> Iterator[Hit]:
    yield from _mismatch(f, "DSCP trust", lambda s: s.trust, "port.trust")


@rule(
    "RC303",
    "link-dscp-map-mismatch",
    "error",
    "fabric",
    summary="The two ends of a link map the RoCE or CNP DSCP to different priorities.",
    rationale="PFC pauses a priority, not a DSCP. If neighbours map RoCE to different priorities, "
    "one pauses a class the other does not send in, and the lossless class breaks at the link.",
    fix="Use one DSCP -> priority map fabric-wide.",
    limits="Compares the priorities the RoCE and CNP DSCPs land in (the intent's, --roce-dscp / "
    "--cnp-dscp, else the DSCP most configs map to a no-drop priority), and each DSCP that lands "
    "in a no-drop priority at either end: by the switch's map, else by the class selector "
    "(DSCP >> 3, as RC109 reads an unmapped DSCP), so a DSCP mapped on one side and left to the "
    "default on the other is one class. Ends that disagree on the no-drop priorities themselves "
    "are RC301's.",
    reads=("qos_maps", "pfc"),
)
def link_dscp_map(f: FabricView) -> Iterator[Hit]:
    for a, pa, b, pb, _ in differing(f, physical=True):
        ca, cb = dscp_classes(a), dscp_classes(b)
        # the DSCPs that matter: RoCE's, CNP's and those that land in a no-drop priority at
        # either end (ends that disagree on the priorities themselves are RC301's)
        no_drop = {*no_drop_of(a, pa), *no_drop_of(b, pb)} or {*a.device.qos.no_drop}
        if ca[:2] == cb[:2] and all(
            ca[2 + d] == cb[2 + d] for d in range(64) if {ca[2 + d], cb[2 + d]} & no_drop
        ):
            continue
        yield Hit(
            f"DSCP map {_shown(ca, no_drop)} here, {_shown(cb, no_drop)} on {b.name} {pb.name}",
            device=a.name,
            port=pa.name,
            related_device=b.name,
            related_port=pb.name,
        )


def _shown(classes: tuple[int, ...], no_drop: set[int]) -> str:
    lossless = numbers.of(d for d in range(64) if classes[2 + d] in no_drop)
    own = ",".join(numbers.render(lossless, "-")) or "none"
    return f"RoCE->{classes[0]} CNP->{classes[1]} lossless DSCPs {own}"


@rule(
    "RC304",
    "link-mtu-mismatch",
    "error",
    "fabric",
    summary="The two ends of a link have different MTUs.",
    rationale="The smaller MTU drops the larger frames of the other side, and headroom computed "
    "from one MTU is wrong for the other.",
    fix="Use the same MTU on both ends.",
    limits="An end whose IPv4 'mtu' the forwarding chip does not check (RC113's limits), or "
    "whose MTU is an unsourced default (RC127), is not compared.",
    reads=("mtu", "interfaces", "aggregates"),
)
def link_mtu(f: FabricView) -> Iterator[Hit]:
    yield from _mismatch(f, "MTU", lambda s: s.mtu, "port.mtu")


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
    reads=("interfaces", "aggregates"),
)
def link_speed(f: FabricView) -> Iterator[Hit]:
    yield from _mismatch(f, "speed (Gb/s)", lambda s: s.speed, physical=True)


@rule(
    "RC306",
    "roce-lossy-hop",
    "error",
    "fabric",
    summary="RoCE is not lossless at one end of a fabric link.",
    rationale="Every server-to-server path in a Clos crosses leaf-spine links; one hop where the "
    "RoCE priority has no PFC makes the whole path lossy.",
    fix="Enable PFC with the RoCE priority as no-drop on both ends of every fabric link.",
    reads=("pfc", "qos_maps", "interfaces", "aggregates"),
)
def roce_lossy_hop(f: FabricView) -> Iterator[Hit]:
    scan, switch = scan_of(f), ends_of(f).switch
    # the ends the scan could not clear (a plain end whose settings hold the RoCE priority
    # no-drop is not lossy), in the order of the pairs, then of their far ends
    near, far = physical_only(f, scan.near_lossy), physical_only(f, scan.far_lossy)
    swapped = ((b, pb, a, pa, k) for a, pa, b, pb, k in far)
    for a, pa, b, pb, _ in chain(near, swapped):
        prio = switch(a).prio
        # a LAG is lossy where any member is: the hash puts some flows on that member
        lossy = [m for m in a.physical(pa) if not (m.qos.pfc and prio in m.qos.no_drop)]
        # lossy first: whether RoCE crosses the link costs more to judge, and is asked of the
        # lossy ends alone (none on a healthy fabric; 131,072 questions at xl otherwise)
        if not lossy or not (a.carries_roce(pa) or b.carries_roce(pb)):
            continue  # or a link neither end carries RoCE over (a keepalive in its own VRF)
        for m in lossy:
            member = f" (member {m.name} of {pa.name})" if m is not pa else ""
            yield Hit(
                f"RoCE priority {prio} is lossy on this end{member} of the link to {b.name}",
                device=a.name,
                port=m.name,
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
    reads=("interfaces", "vlan_interfaces"),
)
def rail_vlan_spread(f: FabricView) -> Iterator[Hit]:
    where: dict[int, list[str]] = defaultdict(list)
    for name, v in sorted(f.devices.items()):
        ports = v.config_ports()
        # a switched port's alone (_carried: none of a routed one's, most of a spine's)
        for vlan in sorted({x for p in ports if p.mode == "access" for x in _carried(p)}):
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
                    for held in addresses.of_vlan(svi) if svi.vlan == vlan else ():
                        subnets[str(held.network)].append(s)
            # an M-LAG pair's dual-active gateway is one gateway on two switches, not a spread
            pairs = f.facts.mlag_pairs() if f.facts is not None else set()
            shared = [g for g in subnets.values() if len(g) > 1 and frozenset(g) not in pairs]
            stray = sorted({s for group in shared for s in group})
            why = "the same gateway subnet on " + ", ".join(stray)
        for name in stray:
            # the first such port by name, not in file order (block order changes no finding)
            port = min(
                (p for p in f.devices[name].config_ports() if vlan in _carried(p)),
                key=lambda p: p.name,
            )
            how = "carried on a trunk" if port.trunk_vlans else "has server ports"
            yield Hit(f"VLAN {vlan} {how} here; {why}", device=name, port=port.name)


# the VLANs a switched port carries: a VLAN stretched over a trunk is as stray as one on a
# server port
_carried = carried


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
    reads=("interfaces", "aggregates"),
)
def oversubscribed(f: FabricView) -> Iterator[Hit]:
    for name, v in sorted(f.devices.items()):
        ports = v.config_ports()
        access = [p for p in ports if p.mode == "access"]  # found once for both questions
        if any(not v.speed_known(p) for p in access):
            continue
        down = sum(p.speed_gbps for p in access)
        if not down:
            continue  # no server bandwidth to oversubscribe (a spine: its uplinks not summed)
        # each physical uplink once: a sub-interface rides its port's bandwidth
        device = v.device
        uplinks = {
            v.parent_of(p) or p.name: p.speed_gbps
            for p in ports
            if p.mode == "routed" and addresses.link_address(device, p) is not None
        }
        up = sum(uplinks.values())
        if up and down > up:
            yield Hit(
                f"{down} Gb/s to servers over {up} Gb/s of uplinks ({down / up:.2f}:1)",
                device=name,
                anchor="bgp",
            )


@rule(
    "RC309",
    "bgp-remote-as-mismatch",
    "error",
    "fabric",
    summary="A BGP session over a link names the wrong remote AS.",
    rationale="The session never comes up, so the link carries no routes and ECMP loses a path; "
    "the deadlock analysis also reads the fabric's routing from these sessions.",
    fix="Set the neighbour's remote-as to the ASN configured on the peer.",
    reads=("bgp",),
)
def bgp_remote_as(f: FabricView) -> Iterator[Hit]:
    # each end names the other: a spine's wrong remote-as for a leaf is as wrong as the leaf's
    # (the ends the scan could not clear, in its order: both ends of each pair in turn)
    for a, pa, b, pb in scan_of(f).remote_as:
        yield from _remote_as(a, pa, b, pb)


def _remote_as(a: DeviceView, pa: Interface, b: DeviceView, pb: Interface) -> Iterator[Hit]:
    bgp = b.device.bgp
    if bgp is None:
        return
    neighbors = neighbors_of(a)
    for held in addresses.of_port(b.device, pb):
        remote = neighbors.get(addresses.key(held))  # the address, as a number
        if remote is not None and remote != bgp.asn:
            yield Hit(
                f"neighbor {held.ip} remote-as {remote}, but {b.name} is AS {bgp.asn}",
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
    reads=("bgp", "interfaces"),
)
def link_without_bgp(f: FabricView) -> Iterator[Hit]:
    # the pairs the scan could not clear: both switches run BGP, and the near one has no
    # neighbour for the far end's addresses
    for a, pa, b, pb, _ in scan_of(f).without_bgp:
        yield from _without_bgp(a, pa, b, pb)


def _without_bgp(a: DeviceView, pa: Interface, b: DeviceView, pb: Interface) -> Iterator[Hit]:
    if a.device.bgp is None or b.device.bgp is None:
        return
    far = addresses.of_port(b.device, pb)
    if not far:
        return
    if a.vrf(pa.name) or b.vrf(pb.name):
        return  # the sessions read are the public table's; a VRF link is not a fabric one
    neighbors = neighbors_of(a)
    if not any(addresses.key(held) in neighbors for held in far):
        yield Hit(
            f"no BGP neighbor {far[0].ip} for the link to {b.name}",
            device=a.name,
            port=pa.name,
            related_device=b.name,
            related_port=pb.name,
        )
