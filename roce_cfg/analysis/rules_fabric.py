"""Fabric rules: both ends of a link agree, RoCE is lossless on every hop, rails, ratios, BGP."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from itertools import chain
from typing import Any, NamedTuple

from roce_cfg.analysis.context import DeviceView, FabricLink, FabricView, carried
from roce_cfg.analysis.registry import Hit, rule
from roce_cfg.links import infer
from roce_cfg.model import addresses, numbers
from roce_cfg.model.device import DeviceConfig, Interface

Pair = tuple[DeviceView, Interface, DeviceView, Interface, FabricLink]


def _pairs(f: FabricView) -> list[Pair]:
    """Both ends of every link in service; computed once, read by every link rule."""
    pairs: list[Pair] | None = f.memo.get("pairs")
    if pairs is None:
        pairs = f.memo["pairs"] = []
        # each switch's view and port table found once, not per link end (131,072 at xl)
        ports = {name: (v, v.interfaces_by_name()) for name, v in f.devices.items()}
        none: tuple[DeviceView | None, Mapping[str, Interface]] = (None, {})
        for link in f.links:
            a, at = ports.get(link.a.device, none)
            b, bt = ports.get(link.b.device, none)
            pa, pb = at.get(link.a.port), bt.get(link.b.port)
            if pa is None or pb is None or pa.shutdown or pb.shutdown:
                continue
            if a is not None and b is not None:
                pairs.append((a, pa, b, pb, link))
    return pairs


def _physical_pairs(f: FabricView) -> list[Pair]:
    """The pairs judged for what lives on the physical link (PFC, no-drop priorities, the DSCP
    map, speed): each link once. A sub-interface link whose ports are linked to each other
    themselves is that link again (one cable, one set of queues); one whose ports are not is
    the only view of it, and its ends' physical ports are its parents' (DeviceView.physical)."""
    pairs: list[Pair] | None = f.memo.get("physical_pairs")
    if pairs is None:
        pairs = _pairs(f)
        # most fabrics have no sub-interface link: no table of 131,072 ends hashed for them,
        # and the pairs themselves (one list: _differing filters it once for both)
        if any(_rides(k) for k in f.links):
            joined = {(k.a, k.b) for k in f.links} | {(k.b, k.a) for k in f.links}
            pairs = [p for p in pairs if not (_rides(p[4]) and _rides(p[4]) in joined)]
        f.memo["physical_pairs"] = pairs
    return pairs


def _rides(link: FabricLink) -> tuple[infer.End, infer.End] | None:
    fact = link.fact
    return fact.rides if fact is not None and fact.kind == "l3-sub" else None


class _Settings(NamedTuple):
    """What the link rules compare at a link end (RC301-RC305), one home for all five: a link
    whose ends have equal settings is skipped by each (five passes over 65,536 links were
    0.8 s of the xl lint's serial tail, for a fabric whose links nearly all agree)."""

    # a tuple, as every field: a tuple of numbers alone leaves the garbage collector's sight
    # (131,072 of them are kept for the run at xl, rescanned by each collection otherwise)
    no_drop: tuple[int, ...]
    trust: bool
    classes: tuple[int, ...]
    mtu: int | None  # None: no MTU bounds what the end forwards (DeviceView.forwarding_mtu)
    speed: int


class _Ends:
    """The settings of a fabric's link ends (``_Settings``), one object per distinct value: a
    link's ends agree when their settings are one object. A plain end (no aggregate with
    members, no sub-interface, an MTU of its own) has the settings of its switch's ends of the
    same QoS, MTU and speed, so they are computed once per such shape and switch (the parse
    shares one QoS value among a switch's alike ports), not once per end: 131,072 ends at xl
    were 0.5 s of the lint's serial tail."""

    def __init__(self) -> None:
        self.shared: dict[_Settings, _Settings] = {}
        self.switches: dict[int, _Switch] = {}  # by the view's id: a view is no dict key

    def switch(self, v: DeviceView) -> _Switch:
        found = self.switches.get(id(v))
        if found is None:
            found = self.switches[id(v)] = _Switch.of(v)
        return found

    def settings(self, v: DeviceView, port: Interface) -> _Settings:
        return self.settings_at(self.switch(v), v, port)

    def settings_at(self, at: _Switch, v: DeviceView, port: Interface) -> _Settings:
        """``port``'s settings; ``at`` is ``v``'s record."""
        if port.name in at.odd or not (at.any_mode or port.mode != "routed"):
            found = at.odd_ends.get(port.name)
            if found is None:
                found = at.odd_ends[port.name] = self._shared(_settings_of(v, port))
            return found
        key = (id(port.qos), port.mtu, port.speed_gbps)
        found = at.by_shape.get(key)
        if found is None:
            found = at.by_shape[key] = self._shared(_settings_of(v, port))
        return found

    def _shared(self, settings: _Settings) -> _Settings:
        return self.shared.setdefault(settings, settings)


@dataclass
class _Switch:
    """What the link rules read of one switch, found once for the run: its link-end settings
    (by shape for plain ends, by name for the rest), RoCE priority, AS, BGP neighbours and the
    numbers of its ports' addresses."""

    # the ports whose settings their QoS, MTU and speed alone do not give, and whose frames
    # other ports carry (DeviceView.physical): aggregates with members, sub-interfaces; and
    # ports whose MTU is unknown (RC127)
    odd: frozenset[str]
    any_mode: bool  # the forwarding MTU is the port's whatever its mode (forwarding_mtu)
    prio: int  # the priority RoCE lands in (RC306)
    asn: int | None  # None: no BGP
    neighbors: dict[int, int]  # _neighbors
    keys: dict[str, tuple[int, ...]]  # each port's addresses as numbers (addresses.key)
    by_shape: dict[tuple[int, int | None, int], _Settings] = field(default_factory=dict)
    odd_ends: dict[str, _Settings] = field(default_factory=dict)

    @classmethod
    def of(cls, v: DeviceView) -> _Switch:
        device = v.device
        aggs = (a.name for a in device.aggregates if a.members)
        subs = (s.port for s in device.sub_interfaces)
        odd = frozenset((*aggs, *subs, *device.mtu_unknown))
        any_mode = v.profile.parse.ip_mtu_bounds_forwarding
        asn = device.bgp.asn if device.bgp else None
        prio = v.priority_of(v.roce_dscp)
        return cls(odd, any_mode, prio, asn, _neighbors(v), _port_keys(device))


def _port_keys(device: DeviceConfig) -> dict[str, tuple[int, ...]]:
    """Each port's addresses as numbers (addresses.key of addresses.of_port), by name."""
    if device.ipv6_ports:
        of_port, key = addresses.of_port, addresses.key
        return {p.name: tuple(key(a) for a in of_port(device, p)) for p in device.interfaces}
    # IPv4 alone, most switches: a port's number is its address's (int() of the interface)
    return {p.name: (int(p.ipv4),) for p in device.interfaces if p.ipv4 is not None}


def _ends(f: FabricView) -> _Ends:
    ends: _Ends | None = f.memo.get("ends")
    if ends is None:
        ends = f.memo["ends"] = _Ends()
    return ends


class _Scan(NamedTuple):
    """One pass over the pairs (``_pairs``) for the link rules, which then judge only what it
    lists, each by its own test: on a fabric whose links agree, nothing (a pass per rule over
    131,072 link ends was most of the fabric side of an xl lint)."""

    differing: list[Pair]  # the ends' settings differ (RC301-RC305)
    near_lossy: list[Pair]  # the near end may be lossy: odd, or RoCE not no-drop (RC306)
    far_lossy: list[Pair]  # the far end may be
    # the ends whose neighbour for the far address may name another AS (RC309), directed,
    # both ends of each pair in turn
    remote_as: list[tuple[DeviceView, Interface, DeviceView, Interface]]
    without_bgp: list[Pair]  # both switches run BGP, no neighbour for the far address (RC310)


def _scan(f: FabricView) -> _Scan:
    found: _Scan | None = f.memo.get("scan")
    if found is not None:
        return found
    ends = _ends(f)
    switch, settings = ends.switch, ends.settings_at
    scan = f.memo["scan"] = _Scan([], [], [], [], [])
    switches = ends.switches
    for p in _pairs(f):
        a, pa, b, pb, _ = p
        at = switches.get(id(a)) or switch(a)
        bt = switches.get(id(b)) or switch(b)
        sa, sb = settings(at, a, pa), settings(bt, b, pb)
        if sa is not sb:
            scan.differing.append(p)
        if pa.name in at.odd or at.prio not in sa.no_drop:
            scan.near_lossy.append(p)
        if pb.name in bt.odd or bt.prio not in sb.no_drop:
            scan.far_lossy.append(p)
        far, near = bt.keys.get(pb.name, ()), at.keys.get(pa.name, ())
        # most links: one address an end, each end's neighbour for it naming the other's AS
        # (so neither RC309 nor RC310 has anything to judge)
        if (
            len(far) == 1
            and len(near) == 1
            and bt.asn is not None
            and at.asn is not None
            and at.neighbors.get(far[0]) == bt.asn
            and bt.neighbors.get(near[0]) == at.asn
        ):
            continue
        if _names_other(at, far, bt.asn):
            scan.remote_as.append((a, pa, b, pb))
        if _names_other(bt, near, at.asn):
            scan.remote_as.append((b, pb, a, pa))
        if _unmatched(at, far, bt.asn):
            scan.without_bgp.append(p)
    return scan


def _names_other(near: _Switch, far: tuple[int, ...], asn: int | None) -> bool:
    """Whether a neighbour of ``near`` for one of the addresses ``far`` names an AS other than
    ``asn`` (the far switch's; None: it runs no BGP, so no neighbour names it wrong)."""
    if asn is None:
        return False
    for k in far:
        remote = near.neighbors.get(k)
        if remote is not None and remote != asn:
            return True
    return False


def _unmatched(near: _Switch, far: tuple[int, ...], asn: int | None) -> bool:
    """Whether both switches run BGP (``asn``: the far one's), the far end has addresses and
    ``near`` has a neighbour for none of them."""
    if near.asn is None or asn is None or not far:
        return False
    return not any(k in near.neighbors for k in far)


def _physical(f: FabricView, pairs: list[Pair]) -> list[Pair]:
    """``pairs`` that are physical pairs (``_physical_pairs``), in their order."""
    every = _pairs(f)
    physical = _physical_pairs(f)
    if physical is every:
        return pairs
    kept = {id(p) for p in physical}
    return [p for p in pairs if id(p) in kept]


def _settings_of(v: DeviceView, port: Interface) -> _Settings:
    qos = port.qos
    mtu = v.forwarding_mtu(port)
    return _Settings(_no_drop(v, port), qos.trust_dscp, _classes(v), mtu, port.speed_gbps)


def _differing(f: FabricView, physical: bool = False) -> list[Pair]:
    """The pairs whose ends differ in some setting (equal settings: one object, ``_Ends``); of
    ``_physical_pairs`` with ``physical``."""
    differing = _scan(f).differing
    if not physical:
        return differing
    known: list[Pair] | None = f.memo.get("physical_differing")
    if known is None:
        known = f.memo["physical_differing"] = _physical(f, differing)
    return known


def _mismatch(
    f: FabricView,
    what: str,
    setting: Callable[[_Settings], Any],
    anchor: str | None = None,
    physical: bool = False,
) -> Iterator[Hit]:
    settings = _ends(f).settings
    for a, pa, b, pb, _ in _differing(f, physical):
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


def _no_drop(v: DeviceView, port: Interface) -> tuple[int, ...]:
    """The no-drop priorities of a link end: of an aggregate, those its PFC members pause (a
    member without PFC is RC102's and RC306's finding, not a disagreement on priorities)."""
    return tuple(sorted({x for m in v.physical(port) if m.qos.pfc for x in m.qos.no_drop}))


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
    for a, pa, b, pb, _ in _differing(f, physical=True):
        ca, cb = _classes(a), _classes(b)
        # the DSCPs that matter: RoCE's, CNP's and those that land in a no-drop priority at
        # either end (ends that disagree on the priorities themselves are RC301's)
        no_drop = {*_no_drop(a, pa), *_no_drop(b, pb)} or {*a.device.qos.no_drop}
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


def _classes(v: DeviceView) -> tuple[int, ...]:
    """A switch's classes as RC303 compares them: the priorities RoCE and CNP land in, then
    the priority of each DSCP 0-63 by the switch's map, else by the class selector
    (``priority_of``: a DSCP one switch maps and the other leaves to the default map is the
    same class on both). A switch's, not a port's, so once per switch, not once per link."""
    known: tuple[int, ...] | None = v.memo.get("dscp_classes")
    if known is None:
        # the map read once, not once per DSCP (priority_of: its first entry for a DSCP wins)
        mapped: dict[int, int] = {}
        for m in v.device.qos.dscp_map:
            mapped.setdefault(m.dscp, m.priority)
        roce, cnp = v.roce_dscp, v.cnp_dscp
        known = v.memo["dscp_classes"] = (
            mapped.get(roce, roce >> 3),
            mapped.get(cnp, cnp >> 3),
            *(mapped.get(d, d >> 3) for d in range(64)),
        )
    return known


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
    scan, switch = _scan(f), _ends(f).switch
    # the ends the scan could not clear (a plain end whose settings hold the RoCE priority
    # no-drop is not lossy), in the order of the pairs, then of their far ends
    near, far = _physical(f, scan.near_lossy), _physical(f, scan.far_lossy)
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


def _neighbors(v: DeviceView) -> dict[int, int]:
    """Neighbour address (as a number of either family, addresses.key: hashing and printing
    IPv4Address objects was a fifth of RC309 and RC310 at xl) -> remote AS."""
    if "neighbors" not in v.memo:
        bgp = v.device.bgp
        key = addresses.key
        v.memo["neighbors"] = {key(n.address): n.remote_as for n in bgp.neighbors} if bgp else {}
    result: dict[int, int] = v.memo["neighbors"]
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
    reads=("bgp",),
)
def bgp_remote_as(f: FabricView) -> Iterator[Hit]:
    # each end names the other: a spine's wrong remote-as for a leaf is as wrong as the leaf's
    # (the ends the scan could not clear, in its order: both ends of each pair in turn)
    for a, pa, b, pb in _scan(f).remote_as:
        yield from _remote_as(a, pa, b, pb)


def _remote_as(a: DeviceView, pa: Interface, b: DeviceView, pb: Interface) -> Iterator[Hit]:
    bgp = b.device.bgp
    if bgp is None:
        return
    neighbors = _neighbors(a)
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
    for a, pa, b, pb, _ in _scan(f).without_bgp:
        yield from _without_bgp(a, pa, b, pb)


def _without_bgp(a: DeviceView, pa: Interface, b: DeviceView, pb: Interface) -> Iterator[Hit]:
    if a.device.bgp is None or b.device.bgp is None:
        return
    far = addresses.of_port(b.device, pb)
    if not far:
        return
    if a.vrf(pa.name) or b.vrf(pb.name):
        return  # the sessions read are the public table's; a VRF link is not a fabric one
    neighbors = _neighbors(a)
    if not any(addresses.key(held) in neighbors for held in far):
        yield Hit(
            f"no BGP neighbor {far[0].ip} for the link to {b.name}",
            device=a.name,
            port=pa.name,
            related_device=b.name,
            related_port=pb.name,
        )
