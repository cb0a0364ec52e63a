"""Links between switches from their configs alone: shared point-to-point subnets (ports,
aggregates with their members, VLAN interfaces, sub-interfaces), M-LAG peer-links, and
descriptions naming the far end. One home for link inference: lint and deadlock once inferred
links each their own way and both missed aggregates, so a fabric of Eth-Trunk uplinks read as
switches with no links and no deadlock cycle."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from ipaddress import IPv4Network, IPv6Network
from typing import Literal

from roce_cfg.links.ends import down, port_of, svi_name, vlan_of
from roce_cfg.model import addresses, describe
from roce_cfg.model.device import DeviceConfig

LinkKind = Literal[
    "l3-port", "l3-lag", "mlag-peer-link", "l3-vlan", "l3-sub", "described", "planned"
]


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
            if a is not None and addresses.point_to_point(a) and not down(d, entry.port):
                key = (d.vrf_of(entry.port), a.network)
                by_net.setdefault(key, []).append((d, entry.port))
    by_name = {d.hostname: d for d in devices}
    for link in _peer_links(devices):
        found[(link.a, link.b)] = link
    for d in devices:
        for svi in d.vlan_interfaces:
            name = svi_name(d, svi.vlan)
            for held in addresses.of_vlan(svi):
                if addresses.point_to_point(held):
                    by_net.setdefault((d.vrf_of(name), held.network), []).append((d, name))
    for net, ends in addresses.paired_v6(devices, down).items():
        by_net.setdefault((ends[0][0].vrf_of(ends[0][1]), net), ends)
    for ends in by_net.values():
        if len(ends) == 2 and ends[0][0].hostname != ends[1][0].hostname:
            (da, pa), (db, pb) = sorted(ends, key=lambda e: (e[0].hostname, e[1]))
            link = _addressed(da, pa, db, pb, found)
            found.setdefault((link.a, link.b), link)
    for link in _described(devices, by_name, found):
        found.setdefault((link.a, link.b), link)
    return [found[k] for k in sorted(found)]


def _addressed(
    da: DeviceConfig, pa: str, db: DeviceConfig, pb: str, found: dict[tuple[End, End], LinkFact]
) -> LinkFact:
    a, b = End(da.hostname, pa), End(db.hostname, pb)
    if vlan_of(da, pa) is not None:
        rides = next(
            (
                k
                for k in found.values()
                if k.kind == "mlag-peer-link" and {k.a.device, k.b.device} == {a.device, b.device}
            ),
            None,
        )
        return LinkFact(a, b, "l3-vlan", rides=(rides.a, rides.b) if rides else None)
    parent_a, parent_b = da.parent_of(pa), db.parent_of(pb)
    if parent_a or parent_b:
        # a sub-interface: a routed link of its own over the link of the port it rides
        ports = (End(da.hostname, parent_a or pa), End(db.hostname, parent_b or pb))
        return LinkFact(a, b, "l3-sub", rides=ports, vrf=da.vrf_of(pa))
    ga, gb = da.aggregate(pa), db.aggregate(pb)
    if ga is not None and gb is not None:
        pairs = pair_members(da, ga.members, db, gb.members)
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
            pairs = pair_members(da, ga.members, db, gb.members)
            out.append(
                LinkFact(
                    End(da.hostname, ga.name),
                    End(db.hostname, gb.name),
                    "mlag-peer-link",
                    pairs,
                    max(ga.min_active, gb.min_active),
                )
            )
    return out


def _paired(da: DeviceConfig, pa: str, db: DeviceConfig, pb: str) -> bool:
    gateways = {a for s in da.vlan_interfaces for a in addresses.of_vlan(s)}
    gateways &= {a for s in db.vlan_interfaces for a in addresses.of_vlan(s)}
    if gateways:
        return True
    desc_a, desc_b = _description(da, pa), _description(db, pb)
    return names_switch(desc_a, db.hostname) or names_switch(desc_b, da.hostname)


# a description's words, as names_switch separates them ('to_leaf-2_100GE1/0/1' -> 'leaf-2', ...)
WORDS = re.compile(r"[^A-Za-z0-9-]+")


def names_switch(description: str, device: str) -> bool:
    """The description names ``device`` as a whole word ('to_spine-1_...', 'spine-1:...')."""
    # '_' separates words in operators' descriptions ('peer-link_to_leaf-2_Eth-Trunk0')
    return bool(re.search(rf"(?<![A-Za-z0-9-]){re.escape(device)}(?![A-Za-z0-9-])", description))


def _description(d: DeviceConfig, name: str) -> str:
    port = port_of(d, name)
    return port.description if port is not None else ""


def pair_members(
    da: DeviceConfig, ma: Sequence[str], db: DeviceConfig, mb: Sequence[str]
) -> tuple[tuple[str, str], ...]:
    """Members of two aggregates cabled to each other: by the far port a member's description
    names, the rest in order."""
    left = list(mb)
    pairs: list[tuple[str, str]] = []
    rest: list[str] = []
    for m in ma:
        port = port_of(da, m)
        desc = port.description if port else ""
        hit = next(
            (x for x in left if names_switch(desc, db.hostname) and _mentions(desc, x)), None
        )
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
    taken = linked_ports(list(found.values()))
    out = []
    for d in devices:
        for p in d.interfaces:
            far = describe.far_end(p.description)
            if p.shutdown or far is None or far[0] == d.hostname or far[0] not in by_name:
                continue
            fp = port_of(by_name[far[0]], far[1])
            if fp is None or fp.shutdown:
                continue
            a, b = sorted([End(d.hostname, p.name), End(*far)])
            if a not in taken and b not in taken:
                out.append(LinkFact(a, b, "described"))
    return out


def linked_ports(links: Sequence[LinkFact]) -> set[End]:
    ends = {e for k in links for e in (k.a, k.b)}
    ends |= {End(k.a.device, m) for k in links for m, _ in k.members}
    ends |= {End(k.b.device, m) for k in links for _, m in k.members}
    # the ports sub-interfaces ride carry their links: they are on a link too
    ends |= {e for k in links if k.kind == "l3-sub" and k.rides for e in k.rides}
    return ends
