"""The evidence step: from parsed switch configs (and a plan, when one is given) to frozen facts
that lint, deadlock, docs and report all stand on — the links between switches (routed ports,
link aggregations with their members, M-LAG peer-links and the routed VLANs that ride them),
the BGP sessions matched to those links, and what the configs point at that no link explains.

One home for link inference (issue 26): lint and deadlock each inferred links their own way and
both missed aggregates, so a fabric of Eth-Trunk uplinks was "6 switches, 0 links ... no
deadlock cycle".
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from ipaddress import IPv4Address, IPv4Network, IPv6Address, IPv6Network
from typing import Literal

from roce_cfg.model import addresses, describe, numbers
from roce_cfg.model.device import DeviceConfig, Interface, PortQos
from roce_cfg.model.fabric import Link
from roce_cfg.parse import ParsedConfig
from roce_cfg.parse.hints import PlanLink
from roce_cfg.platforms.profile import load_profile

LinkKind = Literal[
    "l3-port", "l3-lag", "mlag-peer-link", "l3-vlan", "l3-sub", "described", "planned"
]
GapKind = Literal["bgp-peer", "description", "lossless-port", "peer-link"]


@dataclass(frozen=True, order=True, slots=True)
class End:
    device: str
    port: str


@dataclass(frozen=True, slots=True)
class LinkFact:
    a: End
    b: End
    kind: LinkKind
    # (a member, b member) pairs of an aggregate link; one-sided when the far members are not
    # known (then paired in order)
    members: tuple[tuple[str, str], ...] = ()
    # members that must stay up for the link to stay up (the larger of both ends' minimum)
    min_active: int = 1
    # the layer 2 link a routed VLAN interface rides (an M-LAG peer-link), or the ports two
    # sub-interfaces ride ('l3-sub'), one end per side
    rides: tuple[End, End] | None = None
    vrf: str = ""  # the VRF both ends are bound to ('' = the public table)

    def spec(self) -> tuple[str, str, str, str]:
        return (self.a.device, self.a.port, self.b.device, self.b.port)


@dataclass(frozen=True)
class Gap:
    """Something a config points at that no link explains: lint and deadlock report it as
    'cannot verify' (never an all-clear)."""

    kind: GapKind
    device: str
    port: str | None
    what: str


@dataclass(frozen=True)
class Session:
    device: str
    peer: IPv4Address | IPv6Address
    remote_as: int
    link: LinkFact | None  # the link whose far end holds the peer address


@dataclass(frozen=True)
class Coverage:
    switches: int
    links: int
    lags: int
    peer_links: int
    sessions: int
    sessions_matched: int
    routes: int

    def line(self) -> str:
        return (
            f"coverage: {_n(self.switches, 'switch')} read, {_n(self.links, 'link')} found "
            f"({self.lags} aggregated, {_n(self.peer_links, 'M-LAG peer-link')}), "
            f"{self.sessions_matched} of {_n(self.sessions, 'BGP session')} matched to links, "
            f"{_n(self.routes, 'static route')} read"
        )


def _n(count: int, word: str) -> str:
    return (
        f"{count} {word}" if count == 1 else f"{count} {word}{'es' if word.endswith('h') else 's'}"
    )


Role = Literal["leaf", "spine", "superspine", "switch"]


@dataclass(frozen=True)
class Evidence:
    devices: tuple[DeviceConfig, ...]
    links: tuple[LinkFact, ...]
    sessions: tuple[Session, ...] = ()
    gaps: tuple[Gap, ...] = ()
    planned: bool = False
    coverage: Coverage = field(default_factory=lambda: Coverage(0, 0, 0, 0, 0, 0, 0))
    # each switch's role from the topology: hosts attached (leaf), links to leaves only
    # (spine), to spines only (superspine)
    roles: dict[str, Role] = field(default_factory=dict)

    def mlag_pairs(self) -> set[frozenset[str]]:
        return {frozenset((k.a.device, k.b.device)) for k in self.links
                if k.kind == "mlag-peer-link"}  # fmt: skip


def gather(
    devices: Sequence[DeviceConfig], planned: Sequence[Link] | Sequence[PlanLink] | None = None
) -> Evidence:
    """The facts about ``devices``; ``planned`` links (fabric.json, an intent) replace the
    inferred ones, and their addresses stand for the far ends whose configs were not read."""
    return Topology.of(devices, planned).gathered()


@dataclass(frozen=True)
class Topology:
    """The evidence step's first half: the links and the roles they give, all that the
    per-device rules need; ``gathered`` adds the BGP sessions, gaps and coverage. Lint starts
    the device rules on its other core between the two (issue 30)."""

    devices: tuple[DeviceConfig, ...]
    links: tuple[LinkFact, ...]
    roles: dict[str, Role]
    # the planned far ends' addresses, as numbers (those of configs not read stand in)
    known: dict[tuple[str, str], int]
    inferred: bool  # no plan: the links are the configs' own, and their loose ends are gaps
    planned: bool  # links from a plan that has some

    @classmethod
    def of(
        cls,
        devices: Sequence[DeviceConfig],
        planned: Sequence[Link] | Sequence[PlanLink] | None = None,
    ) -> Topology:
        _INDEX.clear()
        known: dict[tuple[str, str], int] = {}
        if planned is not None:
            links = [LinkFact(End(k.a_device, k.a_port), End(k.b_device, k.b_port), "planned")
                     for k in planned]  # fmt: skip
            for k in planned:
                known[(k.a_device, k.a_port)] = int(k.a_ip.ip)
                known[(k.b_device, k.b_port)] = int(k.b_ip.ip)
        else:
            links = infer_links(devices)
        found = roles(devices, links)
        return cls(tuple(devices), tuple(links), found, known, planned is None, bool(planned))

    def gathered(self) -> Evidence:
        devices, links = self.devices, self.links
        sessions = _sessions(devices, links, self.known)
        gaps = _session_gaps(sessions) + _peer_link_gaps(devices, links)
        if self.inferred:
            gaps += _described_gaps(devices, links) + _lossless_gaps(devices, links)
        coverage = Coverage(
            switches=len(devices),
            links=len(links),
            lags=sum(1 for k in links if k.kind == "l3-lag"),
            peer_links=sum(1 for k in links if k.kind == "mlag-peer-link"),
            sessions=len(sessions),
            sessions_matched=sum(1 for s in sessions if s.link is not None),
            routes=sum(len(d.static_routes) for d in devices),
        )
        return Evidence(devices, links, tuple(sessions), tuple(gaps), self.planned, coverage,
                        self.roles)  # fmt: skip


def with_roles(device: DeviceConfig, inferred: bool, facts: Evidence | Topology) -> DeviceConfig:
    """``device`` with its role from the topology, where parse only guessed it from port modes
    (``inferred``) and the topology says more than 'switch'."""
    role = facts.roles.get(device.hostname)
    if not inferred or role in (None, "switch", device.role):
        return device
    return device.model_copy(update={"role": role})


def topology_roles(configs: Sequence[ParsedConfig]) -> list[ParsedConfig]:
    """Parsed configs read together, each with its role from the topology where parse only
    guessed it (what 'parse' prints for a folder)."""
    facts = gather([c.device for c in configs])
    out = []
    for c in configs:
        device = with_roles(c.device, c.role_from == "inferred", facts)
        out.append(c if device is c.device else c.model_copy(update={"device": device}))
    return out


_NO_QOS: PortQos | None = None


def factory_default(port: Interface) -> bool:
    """A switched port left as it came (VLAN 1, no description, no QoS): Comware prints every
    unused port as ' port link-mode bridge' alone, so such a port is not a server port."""
    return (
        port.mode == "access"
        and port.access_vlan in (None, 1)
        and not port.trunk_vlans
        and not port.description
        and _no_qos(port.qos)
    )


def _no_qos(qos: PortQos) -> bool:
    """``qos == PortQos()`` without building and comparing a model a call (lint asks it of
    every port, several times: a third of linting 50,000 ports)."""
    global _NO_QOS
    if _NO_QOS is None:
        _NO_QOS = PortQos()
    if type(qos) is PortQos:  # what pydantic's == compares of a frozen model without extras
        return qos is _NO_QOS or qos.__dict__ == _NO_QOS.__dict__
    return qos == _NO_QOS


def roles(devices: Sequence[DeviceConfig], links: Sequence[LinkFact]) -> dict[str, Role]:
    """Roles from the topology, not from port modes (issue 26: spines whose unused ports are
    shut Layer 2 ports were classed as leaves): a switch with a host port in use is a leaf; one
    without, linked to a leaf, a spine; linked to spines only, a superspine."""
    linked = _linked_ports(links)
    far: dict[str, set[str]] = {d.hostname: set() for d in devices}
    for k in links:
        if k.kind != "mlag-peer-link" and k.a.device in far and k.b.device in far:
            far[k.a.device].add(k.b.device)
            far[k.b.device].add(k.a.device)
    out: dict[str, Role] = {}
    for d in devices:
        members = {m for a in d.aggregates for m in a.members}
        # any(): the first host port decides (a leaf has a hundred, each an End to hash)
        hosts = any(p.mode == "access" and not p.shutdown and not factory_default(p)
                    and p.name not in members and End(d.hostname, p.name) not in linked
                    for p in d.interfaces)  # fmt: skip
        out[d.hostname] = "leaf" if hosts else "switch"
    for d in devices:
        if out[d.hostname] == "switch" and any(out[n] == "leaf" for n in far[d.hostname]):
            out[d.hostname] = "spine"
    for d in devices:
        if (
            out[d.hostname] == "switch"
            and far[d.hostname]
            and all(out[n] == "spine" for n in far[d.hostname])
        ):
            out[d.hostname] = "superspine"
    return out


def infer_links(devices: Sequence[DeviceConfig]) -> list[LinkFact]:
    """Links from shared point-to-point subnets (/30-/31, /126-/127: ports, aggregates, VLAN
    interfaces; an IPv6 /64 only two routed ports share), M-LAG peer-links, and descriptions
    naming the far end."""
    found: dict[tuple[End, End], LinkFact] = {}
    # a subnet is one link within a VRF: two VRFs may reuse the same addresses
    by_net: dict[tuple[str, IPv4Network | IPv6Network], list[tuple[DeviceConfig, str]]] = {}
    for d in devices:
        for p in d.interfaces:
            if p.ipv4 is not None and p.ipv4.network.prefixlen >= 30 and not p.shutdown:
                by_net.setdefault((d.vrf_of(p.name), p.ipv4.network), []).append((d, p.name))
        for entry in d.ipv6_ports:  # most switches: none
            a = entry.address
            if a is not None and addresses.point_to_point(a) and not _down(d, entry.port):
                key = (d.vrf_of(entry.port), a.network)
                by_net.setdefault(key, []).append((d, entry.port))
    by_name = {d.hostname: d for d in devices}
    for link in _peer_links(devices):
        found[(link.a, link.b)] = link
    for d in devices:
        for svi in d.vlan_interfaces:
            name = _svi_name(d, svi.vlan)
            for held in addresses.of_vlan(svi):
                if addresses.point_to_point(held):
                    by_net.setdefault((d.vrf_of(name), held.network), []).append((d, name))
    for net, ends in addresses.paired_v6(devices, _down).items():
        by_net.setdefault((ends[0][0].vrf_of(ends[0][1]), net), ends)
    for ends in by_net.values():
        if len(ends) == 2 and ends[0][0].hostname != ends[1][0].hostname:
            (da, pa), (db, pb) = sorted(ends, key=lambda e: (e[0].hostname, e[1]))
            link = _addressed(da, pa, db, pb, found)
            found.setdefault((link.a, link.b), link)
    for link in _described(devices, by_name, found):
        found.setdefault((link.a, link.b), link)
    return [found[k] for k in sorted(found)]


def _down(d: DeviceConfig, name: str) -> bool:
    """The port ``name`` is shut (or not one of ``d``'s ports)."""
    port = _port(d, name)
    return port is None or port.shutdown


def _svi_name(d: DeviceConfig, vlan: int) -> str:
    """A VLAN interface's name as the vendor prints it ('Vlanif4000')."""
    return f"{load_profile(d.vendor).vlan_interface}{vlan}"


def vlan_of(d: DeviceConfig, port: str) -> int | None:
    """The VLAN of a link end that is one of ``d``'s VLAN interfaces, else None."""
    if not port.startswith(load_profile(d.vendor).vlan_interface):
        return None  # most link ends: a port (checked once per link end of a large fabric)
    return next((s.vlan for s in d.vlan_interfaces if _svi_name(d, s.vlan) == port), None)


def _addressed(
    da: DeviceConfig, pa: str, db: DeviceConfig, pb: str, found: dict[tuple[End, End], LinkFact]
) -> LinkFact:
    a, b = End(da.hostname, pa), End(db.hostname, pb)
    if vlan_of(da, pa) is not None:
        rides = next(
            (k for k in found.values() if k.kind == "mlag-peer-link" and {k.a.device, k.b.device}
             == {a.device, b.device}),
            None,
        )  # fmt: skip
        return LinkFact(a, b, "l3-vlan", rides=(rides.a, rides.b) if rides else None)
    parent_a, parent_b = da.parent_of(pa), db.parent_of(pb)
    if parent_a or parent_b:
        # a sub-interface: a routed link of its own over the link of the port it rides
        ports = (End(da.hostname, parent_a or pa), End(db.hostname, parent_b or pb))
        return LinkFact(a, b, "l3-sub", rides=ports, vrf=da.vrf_of(pa))
    ga, gb = da.aggregate(pa), db.aggregate(pb)
    if ga is not None and gb is not None:
        pairs = _pair_members(da, ga.members, db, gb.members)
        return LinkFact(a, b, "l3-lag", pairs, max(ga.min_active, gb.min_active))
    return LinkFact(a, b, "l3-port", vrf=da.vrf_of(pa))


def _peer_links(devices: Sequence[DeviceConfig]) -> list[LinkFact]:
    """M-LAG peer-links: a peer-link aggregate on each of two switches that share a dual-active
    gateway (the same VLAN interface address) or name each other in the peer-link's
    description."""
    ends = [(d, a) for d in devices for a in d.aggregates if a.peer_link and a.members]
    out: list[LinkFact] = []
    used: set[str] = set()
    for i, (da, ga) in enumerate(ends):
        for db, gb in ends[i + 1 :]:
            if da.hostname in used or db.hostname in used or da.hostname == db.hostname:
                continue
            if not _paired(da, ga.name, db, gb.name):
                continue
            used |= {da.hostname, db.hostname}
            pairs = _pair_members(da, ga.members, db, gb.members)
            out.append(
                LinkFact(End(da.hostname, ga.name), End(db.hostname, gb.name), "mlag-peer-link",
                         pairs, max(ga.min_active, gb.min_active))
            )  # fmt: skip
    return out


def _paired(da: DeviceConfig, pa: str, db: DeviceConfig, pb: str) -> bool:
    gateways = {a for s in da.vlan_interfaces for a in addresses.of_vlan(s)}
    gateways &= {a for s in db.vlan_interfaces for a in addresses.of_vlan(s)}
    if gateways:
        return True
    desc_a, desc_b = _description(da, pa), _description(db, pb)
    return _names(desc_a, db.hostname) or _names(desc_b, da.hostname)


# the words of a description, as _names separates them ('to_leaf-2_100GE1/0/1' -> 'leaf-2', ...)
_WORDS = re.compile(r"[^A-Za-z0-9-]+")


def _names(description: str, device: str) -> bool:
    """The description names ``device`` as a whole word ('to_spine-1_...', 'spine-1:...')."""
    # '_' separates words in operators' descriptions ('peer-link_to_leaf-2_Eth-Trunk0')
    return bool(re.search(rf"(?<![A-Za-z0-9-]){re.escape(device)}(?![A-Za-z0-9-])", description))


def _description(d: DeviceConfig, name: str) -> str:
    port = _port(d, name)
    return port.description if port is not None else ""


# id(device) -> (device, its ports by name): link ends are looked up per link and per session,
# and a scan of 128 ports for each of 160,000 link ends made a large fabric quadratic. The
# device is held so that its id is not reused while cached; gather() empties the cache.
_INDEX: dict[int, tuple[DeviceConfig, dict[str, Interface]]] = {}


def _port(d: DeviceConfig, name: str) -> Interface | None:
    hit = _INDEX.get(id(d))
    if hit is None or hit[0] is not d:
        hit = _INDEX[id(d)] = (d, {p.name: p for p in d.interfaces})
    return hit[1].get(name)


def _pair_members(
    da: DeviceConfig, ma: Sequence[str], db: DeviceConfig, mb: Sequence[str]
) -> tuple[tuple[str, str], ...]:
    """Members of two aggregates cabled to each other: by the far port a member's description
    names, the rest in order."""
    left = list(mb)
    pairs: list[tuple[str, str]] = []
    rest: list[str] = []
    for m in ma:
        port = _port(da, m)
        desc = port.description if port else ""
        hit = next((x for x in left if _names(desc, db.hostname) and _mentions(desc, x)), None)
        if hit is None:
            rest.append(m)
            continue
        left.remove(hit)
        pairs.append((m, hit))
    pairs += list(zip(rest, left, strict=False))
    return tuple(sorted(pairs))


def _mentions(description: str, port: str) -> bool:
    # '_' separates words ('to_spine-1_100GE1/0/1_5m_AOC'); '1/0/1' is not in '1/0/10' or '1/0/1:1'
    return bool(re.search(rf"(?<![A-Za-z0-9/:.]){re.escape(port)}(?![A-Za-z0-9/:.])", description))


def _described(
    devices: Sequence[DeviceConfig],
    by_name: dict[str, DeviceConfig],
    found: dict[tuple[End, End], LinkFact],
) -> list[LinkFact]:
    """Layer 2 links from descriptions naming the far end (model/describe.py forms)."""
    taken = _linked_ports(list(found.values()))
    out = []
    for d in devices:
        for p in d.interfaces:
            far = describe.far_end(p.description)
            if p.shutdown or far is None or far[0] == d.hostname or far[0] not in by_name:
                continue
            fp = _port(by_name[far[0]], far[1])
            if fp is None or fp.shutdown:
                continue
            a, b = sorted([End(d.hostname, p.name), End(*far)])
            if a not in taken and b not in taken:
                out.append(LinkFact(a, b, "described"))
    return out


def _sessions(
    devices: Sequence[DeviceConfig], links: Sequence[LinkFact], known: dict[tuple[str, str], int]
) -> list[Session]:
    """Each BGP neighbour, with the link whose far end holds its address."""
    # addresses as numbers: hashing IPv4Address objects was a fifth of this at xl (issue 30);
    # each read switch's link-end addresses in one table, not two look-ups per link end
    owner: dict[tuple[str, int], LinkFact] = {}
    tables = {d.hostname: _addresses(d) for d in devices}
    # IPv6 link ends (as addresses.key numbers), of the switches that have any
    tables6 = {d.hostname: _addresses6(d) for d in devices if d.ipv6_ports or _svi6(d)}
    none: dict[str, int | None] = {}
    for k in links:
        for near, far in ((k.a, k.b), (k.b, k.a)):
            ip = tables.get(far.device, none).get(far.port)
            if ip is None:
                ip = known.get((far.device, far.port))
            if ip is not None:
                owner[(near.device, ip)] = k
            ip6 = tables6.get(far.device, none).get(far.port) if tables6 else None
            if ip6 is not None:
                owner[(near.device, ip6)] = k
    out = []
    for d in devices:
        for n in d.bgp.neighbors if d.bgp else ():
            link = owner.get((d.hostname, addresses.key(n.address)))
            out.append(Session(d.hostname, n.address, n.remote_as, link))
    return out


def _addresses(d: DeviceConfig) -> dict[str, int | None]:
    """The address of each of ``d``'s link ends (ports, aggregates, VLAN interfaces), as a
    number: a VLAN interface's name wins over a port of that name, as ``vlan_of`` finds it."""
    # int() of an interface is its address's (no address object made per port)
    table = {p.name: int(p.ipv4) if p.ipv4 is not None else None for p in d.interfaces}
    svis: dict[str, int | None] = {}
    for s in d.vlan_interfaces:  # the first of a VLAN's interfaces, as vlan_of finds it
        svis.setdefault(_svi_name(d, s.vlan), int(s.ipv4) if s.ipv4 is not None else None)
    table.update(svis)
    return table


def _svi6(d: DeviceConfig) -> bool:
    return any(s.ipv6 is not None for s in d.vlan_interfaces)


def _addresses6(d: DeviceConfig) -> dict[str, int | None]:
    """``_addresses`` of the IPv6 link ends (numbers of ``addresses.key``)."""
    table: dict[str, int | None] = {
        e.port: addresses.key(e.address) for e in d.ipv6_ports if e.address is not None
    }
    svis: dict[str, int | None] = {}
    for s in d.vlan_interfaces:
        svis.setdefault(_svi_name(d, s.vlan), addresses.key(s.ipv6) if s.ipv6 else None)
    table.update({k: v for k, v in svis.items() if v is not None})
    return table


def _session_gaps(sessions: Sequence[Session]) -> list[Gap]:
    return [
        Gap("bgp-peer", s.device, None,
            f"BGP peer {s.peer} (AS {s.remote_as}) is on no link found in the configs read")
        for s in sessions
        if s.link is None
    ]  # fmt: skip


def _peer_link_gaps(devices: Sequence[DeviceConfig], links: Sequence[LinkFact]) -> list[Gap]:
    paired = {k.a for k in links if k.kind == "mlag-peer-link"}
    paired |= {k.b for k in links if k.kind == "mlag-peer-link"}
    return [
        Gap("peer-link", d.hostname, a.name, "M-LAG peer-link whose other switch was not found")
        for d in devices
        for a in d.aggregates
        if a.peer_link and a.members and End(d.hostname, a.name) not in paired
    ]


def _linked_ports(links: Sequence[LinkFact]) -> set[End]:
    ends = {e for k in links for e in (k.a, k.b)}
    ends |= {End(k.a.device, m) for k in links for m, _ in k.members}
    ends |= {End(k.b.device, m) for k in links for _, m in k.members}
    # the ports sub-interfaces ride carry their links: they are on a link too
    ends |= {e for k in links if k.kind == "l3-sub" and k.rides for e in k.rides}
    return ends


def _described_gaps(devices: Sequence[DeviceConfig], links: Sequence[LinkFact]) -> list[Gap]:
    """Ports in use, on no link, whose description names another switch that was read."""
    names = {d.hostname for d in devices}
    odd = [n for n in names if _WORDS.search(n)]  # hostnames a word split cannot find
    linked = _linked_ports(links)
    out = []
    for d in devices:
        for p in d.interfaces:
            if p.shutdown or End(d.hostname, p.name) in linked or not p.description:
                continue
            parent = d.parent_of(p.name)
            if parent and End(d.hostname, parent) not in linked:
                continue  # its port has no link either: that gap is the port's
            words = set(_WORDS.split(p.description)) | {n for n in odd if _names(p.description, n)}
            named = sorted(n for n in words & names if n != d.hostname)
            if named:
                out.append(
                    Gap(
                        "description",
                        d.hostname,
                        p.name,
                        f"the description names {named[0]}, but no link to it was found",
                    )
                )
    return out  # fmt: skip


def _lossless_gaps(devices: Sequence[DeviceConfig], links: Sequence[LinkFact]) -> list[Gap]:
    """Routed lossless ports (point-to-point address, PFC on it or its members) toward a
    neighbour that is not among the configs read."""
    linked = _linked_ports(links)
    out = []
    for d in devices:
        for p in d.interfaces:
            end = End(d.hostname, p.name)
            if p.shutdown or end in linked:
                continue
            address = addresses.link_address(d, p)
            if address is None:
                continue
            parent = d.parent_of(p.name)
            if parent and _point_to_point(d, _port(d, parent)):
                continue  # the port it rides faces the same neighbour: the gap is the port's
            if lossless(d, p):
                out.append(Gap("lossless-port", d.hostname, p.name,
                               f"lossless routed port ({address}) toward a neighbour whose "
                               "config was not read"))  # fmt: skip
    return out


def _point_to_point(d: DeviceConfig, port: Interface | None) -> bool:
    return port is not None and addresses.link_address(d, port) is not None


def _carrier(d: DeviceConfig, vlan: int) -> str | None:
    """The port a VLAN interface's traffic leaves by toward the other switch of an M-LAG pair:
    the peer-link, else the first switched port in use that carries the VLAN."""
    peer = next((a.name for a in d.aggregates if a.peer_link and a.members), None)
    if peer is not None:
        return peer
    members = {m for a in d.aggregates for m in a.members}
    for p in d.interfaces:
        if p.mode == "access" and not p.shutdown and p.name not in members:
            carried = numbers.expand(p.trunk_vlans) or (p.access_vlan,)
            if vlan in carried and p.trunk_vlans:
                return p.name
    return None


def lossless(d: DeviceConfig, port: Interface) -> bool:
    """PFC on the port, or on any member of the aggregate it is."""
    return any(m.qos.pfc for m in members(d, port))


def members(d: DeviceConfig, port: Interface) -> list[Interface]:
    """The physical ports that carry ``port``'s frames, in use."""
    agg = d.aggregate(port.name)
    if agg is None or not agg.members:
        return [port]
    return [p for p in (_port(d, m) for m in agg.members) if p is not None and not p.shutdown]


def end_addresses(d: DeviceConfig, port: str) -> tuple[addresses.Assigned, ...]:
    """The addresses of a link end of either family, IPv4 first: a port's or aggregate's, or
    a VLAN interface's (as ``vlan_of`` finds it)."""
    vlan = vlan_of(d, port)
    if vlan is not None:
        svi = next((s for s in d.vlan_interfaces if s.vlan == vlan), None)
        return addresses.of_vlan(svi) if svi is not None else ()
    p = _port(d, port)
    return addresses.of_port(d, p) if p is not None else ()


def end_port(d: DeviceConfig, port: str, rides: str | None = None) -> Interface | None:
    """A link end as the buffer graph sees it: a port as it is; an aggregate with the PFC of
    its lossless members (a pause on one member stops the frames hashed to it); a VLAN
    interface as a routed port on the link it rides."""
    vlan = vlan_of(d, port)
    if vlan is not None:
        svi = next((s for s in d.vlan_interfaces if s.vlan == vlan), None)
        under = end_port(d, rides or _carrier(d, vlan) or "")
        if svi is None:
            return None
        qos = under.qos if under is not None else PortQos()
        return Interface(name=port, mode="routed", ipv4=svi.ipv4, mtu=svi.mtu, speed_gbps=0,
                         shutdown=under is None or under.shutdown, qos=qos)  # fmt: skip
    p = _port(d, port)
    agg = d.aggregate(port)
    if p is None or agg is None or not agg.members:
        return p
    up = members(d, p)
    on = [m for m in up if m.qos.pfc]
    no_drop = tuple(sorted({x for m in on for x in m.qos.no_drop}))
    qos = p.qos.model_copy(update={"pfc": bool(on), "no_drop": no_drop})
    return p.model_copy(update={"qos": qos, "shutdown": p.shutdown or len(up) < agg.min_active})
