"""The pairs of link ends the link rules judge (RC301-RC310), the settings they compare at each
end, and the one scan that lists what each rule must judge: rules_fabric.py's, apart so that
each module stays short."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import NamedTuple

from roce_cfg.analysis.context import DeviceView, FabricLink, FabricView
from roce_cfg.links import infer
from roce_cfg.model import addresses
from roce_cfg.model.device import DeviceConfig, Interface

Pair = tuple[DeviceView, Interface, DeviceView, Interface, FabricLink]


def link_pairs(f: FabricView) -> list[Pair]:
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


def physical_pairs(f: FabricView) -> list[Pair]:
    """The pairs judged for what lives on the physical link (PFC, no-drop priorities, the DSCP
    map, speed): each link once. A sub-interface link whose ports are linked to each other
    themselves is that link again (one cable, one set of queues); one whose ports are not is
    the only view of it, and its ends' physical ports are its parents' (DeviceView.physical)."""
    pairs: list[Pair] | None = f.memo.get("physical_pairs")
    if pairs is None:
        pairs = link_pairs(f)
        # most fabrics have no sub-interface link: no table of 131,072 ends hashed for them,
        # and the pairs themselves (one list: differing filters it once for both)
        if any(_rides(k) for k in f.links):
            joined = {(k.a, k.b) for k in f.links} | {(k.b, k.a) for k in f.links}
            pairs = [p for p in pairs if not (_rides(p[4]) and _rides(p[4]) in joined)]
        f.memo["physical_pairs"] = pairs
    return pairs


def _rides(link: FabricLink) -> tuple[infer.End, infer.End] | None:
    fact = link.fact
    return fact.rides if fact is not None and fact.kind == "l3-sub" else None


class Settings(NamedTuple):
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


class Ends:
    """The settings of a fabric's link ends (``Settings``), one object per distinct value: a
    link's ends agree when their settings are one object. A plain end (no aggregate with
    members, no sub-interface, an MTU of its own) has the settings of its switch's ends of the
    same QoS, MTU and speed, so they are computed once per such shape and switch (the parse
    shares one QoS value among a switch's alike ports), not once per end: 131,072 ends at xl
    were 0.5 s of the lint's serial tail."""

    def __init__(self) -> None:
        self.shared: dict[Settings, Settings] = {}
        self.switches: dict[int, Switch] = {}  # by the view's id: a view is no dict key

    def switch(self, v: DeviceView) -> Switch:
        found = self.switches.get(id(v))
        if found is None:
            found = self.switches[id(v)] = Switch.of(v)
        return found

    def settings(self, v: DeviceView, port: Interface) -> Settings:
        return self.settings_at(self.switch(v), v, port)

    def settings_at(self, at: Switch, v: DeviceView, port: Interface) -> Settings:
        """``port``'s settings; ``at`` is ``v``'s record."""
        if port.name in at.odd or not (at.any_mode or port.mode != "routed"):
            found = at.odd_ends.get(port.name)
            if found is None:
                found = at.odd_ends[port.name] = self._shared(settings_of(v, port))
            return found
        key = (id(port.qos), port.mtu, port.speed_gbps)
        found = at.by_shape.get(key)
        if found is None:
            found = at.by_shape[key] = self._shared(settings_of(v, port))
        return found

    def _shared(self, settings: Settings) -> Settings:
        return self.shared.setdefault(settings, settings)


@dataclass
class Switch:
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
    neighbors: dict[int, int]  # neighbors_of
    keys: dict[str, tuple[int, ...]]  # each port's addresses as numbers (addresses.key)
    by_shape: dict[tuple[int, int | None, int], Settings] = field(default_factory=dict)
    odd_ends: dict[str, Settings] = field(default_factory=dict)

    @classmethod
    def of(cls, v: DeviceView) -> Switch:
        device = v.device
        aggs = (a.name for a in device.aggregates if a.members)
        subs = (s.port for s in device.sub_interfaces)
        odd = frozenset((*aggs, *subs, *device.mtu_unknown))
        any_mode = v.profile.parse.ip_mtu_bounds_forwarding
        asn = device.bgp.asn if device.bgp else None
        prio = v.priority_of(v.roce_dscp)
        return cls(odd, any_mode, prio, asn, neighbors_of(v), _port_keys(device))


def _port_keys(device: DeviceConfig) -> dict[str, tuple[int, ...]]:
    """Each port's addresses as numbers (addresses.key of addresses.of_port), by name."""
    if device.ipv6_ports:
        of_port, key = addresses.of_port, addresses.key
        return {p.name: tuple(key(a) for a in of_port(device, p)) for p in device.interfaces}
    # IPv4 alone, most switches: a port's number is its address's (int() of the interface)
    return {p.name: (int(p.ipv4),) for p in device.interfaces if p.ipv4 is not None}


def ends_of(f: FabricView) -> Ends:
    ends: Ends | None = f.memo.get("ends")
    if ends is None:
        ends = f.memo["ends"] = Ends()
    return ends


class Scan(NamedTuple):
    """One pass over the pairs (``link_pairs``) for the link rules, which then judge only what it
    lists, each by its own test: on a fabric whose links agree, nothing (a pass per rule over
    131,072 link ends was most of the fabric side of an xl lint)."""

    differing: list[Pair]  # the ends' settings differ (RC301-RC305)
    near_lossy: list[Pair]  # the near end may be lossy: odd, or RoCE not no-drop (RC306)
    far_lossy: list[Pair]  # the far end may be
    # the ends whose neighbour for the far address may name another AS (RC309), directed,
    # both ends of each pair in turn
    remote_as: list[tuple[DeviceView, Interface, DeviceView, Interface]]
    without_bgp: list[Pair]  # both switches run BGP, no neighbour for the far address (RC310)


def scan_of(f: FabricView) -> Scan:
    found: Scan | None = f.memo.get("scan")
    if found is not None:
        return found
    ends = ends_of(f)
    switch, settings = ends.switch, ends.settings_at
    scan = f.memo["scan"] = Scan([], [], [], [], [])
    switches = ends.switches
    for p in link_pairs(f):
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


def _names_other(near: Switch, far: tuple[int, ...], asn: int | None) -> bool:
    """Whether a neighbour of ``near`` for one of the addresses ``far`` names an AS other than
    ``asn`` (the far switch's; None: it runs no BGP, so no neighbour names it wrong)."""
    if asn is None:
        return False
    for k in far:
        remote = near.neighbors.get(k)
        if remote is not None and remote != asn:
            return True
    return False


def _unmatched(near: Switch, far: tuple[int, ...], asn: int | None) -> bool:
    """Whether both switches run BGP (``asn``: the far one's), the far end has addresses and
    ``near`` has a neighbour for none of them."""
    if near.asn is None or asn is None or not far:
        return False
    return not any(k in near.neighbors for k in far)


def physical_only(f: FabricView, pairs: list[Pair]) -> list[Pair]:
    """``pairs`` that are physical pairs (``physical_pairs``), in their order."""
    every = link_pairs(f)
    physical = physical_pairs(f)
    if physical is every:
        return pairs
    kept = {id(p) for p in physical}
    return [p for p in pairs if id(p) in kept]


def settings_of(v: DeviceView, port: Interface) -> Settings:
    qos = port.qos
    mtu = v.forwarding_mtu(port)
    return Settings(no_drop_of(v, port), qos.trust_dscp, dscp_classes(v), mtu, port.speed_gbps)


def differing(f: FabricView, physical: bool = False) -> list[Pair]:
    """The pairs whose ends differ in some setting (equal settings: one object, ``Ends``); of
    ``physical_pairs`` with ``physical``."""
    differing = scan_of(f).differing
    if not physical:
        return differing
    known: list[Pair] | None = f.memo.get("physical_differing")
    if known is None:
        known = f.memo["physical_differing"] = physical_only(f, differing)
    return known


def no_drop_of(v: DeviceView, port: Interface) -> tuple[int, ...]:
    """The no-drop priorities of a link end: of an aggregate, those its PFC members pause (a
    member without PFC is RC102's and RC306's finding, not a disagreement on priorities)."""
    return tuple(sorted({x for m in v.physical(port) if m.qos.pfc for x in m.qos.no_drop}))


def dscp_classes(v: DeviceView) -> tuple[int, ...]:
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


def neighbors_of(v: DeviceView) -> dict[int, int]:
    """Neighbour address (as a number of either family, addresses.key: hashing and printing
    IPv4Address objects was a fifth of RC309 and RC310 at xl) -> remote AS."""
    if "neighbors" not in v.memo:
        bgp = v.device.bgp
        key = addresses.key
        v.memo["neighbors"] = {key(n.address): n.remote_as for n in bgp.neighbors} if bgp else {}
    result: dict[int, int] = v.memo["neighbors"]
    return result
