"""The evidence step: from parsed switch configs (and a plan, when one is given) to frozen facts
that lint, deadlock, docs and report all stand on: the links between switches (roce_cfg.links:
routed ports, link aggregations with their members, M-LAG peer-links and the routed VLANs that
ride them), each switch's role from them, the BGP sessions matched to those links, and what the
configs point at that no link explains (gaps: 'cannot verify', never an all-clear).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from ipaddress import IPv4Address, IPv6Address
from typing import Literal, NamedTuple

from roce_cfg.links.ends import clear_index, lossless, port_of, svi_name
from roce_cfg.links.infer import WORDS, End, LinkFact, infer_links, linked_ports, names_switch
from roce_cfg.model import addresses
from roce_cfg.model.device import DeviceConfig, Interface, PortQos
from roce_cfg.model.fabric import Link
from roce_cfg.parse import ParsedConfig
from roce_cfg.parse.hints import PlanLink
from roce_cfg.platforms.profile import load_profile
from roce_cfg.vendor import Vendor

GapKind = Literal["bgp-peer", "description", "lossless-port", "peer-link"]


@dataclass(frozen=True)
class Gap:
    """Something a config points at that no link explains: lint and deadlock report it as
    'cannot verify' (never an all-clear)."""

    kind: GapKind
    device: str
    port: str | None
    what: str


class Session(NamedTuple):
    """A BGP neighbour of a switch read (a tuple: 131,072 at xl, built in a third of the time
    of a frozen dataclass)."""

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
        return {
            frozenset((k.a.device, k.b.device)) for k in self.links if k.kind == "mlag-peer-link"
        }


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
    the device rules on its other core between the two, so they need not wait for sessions."""

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
        clear_index()
        known: dict[tuple[str, str], int] = {}
        if planned is not None:
            links = [
                LinkFact(End(k.a_device, k.a_port), End(k.b_device, k.b_port), "planned")
                for k in planned
            ]
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
        return Evidence(
            devices, links, tuple(sessions), tuple(gaps), self.planned, coverage, self.roles
        )


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


_NO_QOS: dict[Vendor, PortQos] = {}


def factory_default(port: Interface, vendor: Vendor) -> bool:
    """A switched port left as it came (VLAN 1, no description, no QoS but the vendor's
    default scheduling): Comware prints every unused port as ' port link-mode bridge' alone,
    so such a port is not a server port."""
    return (
        port.mode == "access"
        and port.access_vlan in (None, 1)
        and not port.trunk_vlans
        and not port.description
        and _no_qos(port.qos, vendor)
    )


def _no_qos(qos: PortQos, vendor: Vendor) -> bool:
    """``qos`` is what a port that prints no QoS line has, without building and comparing a
    model a call (lint asks it of every port, several times: a third of linting 50,000 ports)."""
    unset = _NO_QOS.get(vendor)
    if unset is None:
        default = load_profile(vendor).scheduling_default
        unset = _NO_QOS[vendor] = PortQos(strict_queues=default.strict_queues if default else ())
    if type(qos) is PortQos:  # what pydantic's == compares of a frozen model without extras
        return qos is unset or qos.__dict__ == unset.__dict__
    return qos == unset


def roles(devices: Sequence[DeviceConfig], links: Sequence[LinkFact]) -> dict[str, Role]:
    """Roles from the topology, not from port modes (spines whose unused ports are
    shut Layer 2 ports were classed as leaves): a switch with a host port in use is a leaf; one
    without, linked to a leaf, a spine; linked to spines only, a superspine."""
    linked = linked_ports(links)
    far: dict[str, set[str]] = {d.hostname: set() for d in devices}
    for k in links:
        if k.kind != "mlag-peer-link" and k.a.device in far and k.b.device in far:
            far[k.a.device].add(k.b.device)
            far[k.b.device].add(k.a.device)
    out: dict[str, Role] = {}
    for d in devices:
        members = {m for a in d.aggregates for m in a.members}
        # any(): the first host port decides (a leaf has a hundred, each an End to hash)
        hosts = any(
            p.mode == "access"
            and not p.shutdown
            and not factory_default(p, d.vendor)
            and p.name not in members
            and End(d.hostname, p.name) not in linked
            for p in d.interfaces
        )
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


def _sessions(
    devices: Sequence[DeviceConfig], links: Sequence[LinkFact], known: dict[tuple[str, str], int]
) -> list[Session]:
    """Each BGP neighbour, with the link whose far end holds its address."""
    # addresses as numbers: hashing IPv4Address objects was a fifth of this on the xl fabric;
    # each read switch's link-end addresses in one table, not two look-ups per link end
    # near switch -> far address -> link: one table per switch, not a (switch, address) key
    # made and hashed per link end (131,072 at xl)
    owner: defaultdict[str, dict[int, LinkFact]] = defaultdict(dict)
    tables = {d.hostname: _addresses(d) for d in devices}
    # IPv6 link ends (as addresses.key numbers), of the switches that have any
    tables6 = {d.hostname: _addresses6(d) for d in devices if d.ipv6_ports or _svi6(d)}
    none: dict[str, int | None] = {}
    # each family in a pass of its own (a table's entries are by number, the families' numbers
    # apart: the last link to hold an address still wins); the near end's table is found
    # once per link end, the far end's address once
    for k in links:
        a, b = k.a, k.b
        ip = tables.get(b.device, none).get(b.port)
        if ip is None:
            ip = known.get((b.device, b.port))
        if ip is not None:
            owner[a.device][ip] = k
        ip = tables.get(a.device, none).get(a.port)
        if ip is None:
            ip = known.get((a.device, a.port))
        if ip is not None:
            owner[b.device][ip] = k
    for k in links if tables6 else ():
        for near, far in ((k.a, k.b), (k.b, k.a)):
            ip6 = tables6.get(far.device, none).get(far.port)
            if ip6 is not None:
                owner[near.device][ip6] = k
    return [
        Session(d.hostname, n.address, n.remote_as, mine.get(addresses.key(n.address)))
        for d in devices
        for mine in (owner.get(d.hostname, {}),)
        for n in (d.bgp.neighbors if d.bgp else ())
    ]


def _addresses(d: DeviceConfig) -> dict[str, int | None]:
    """The address of each of ``d``'s link ends (ports, aggregates, VLAN interfaces), as a
    number: a VLAN interface's name wins over a port of that name, as ``vlan_of`` finds it."""
    # int() of an interface is its address's (no address object made per port); a port
    # without one, most of a leaf's, is left out: a look-up finds None either way (parse
    # keeps one entry per port, so none hides another of its name)
    table: dict[str, int | None] = {p.name: int(p.ipv4) for p in d.interfaces if p.ipv4 is not None}
    svis: dict[str, int | None] = {}
    for s in d.vlan_interfaces:  # the first of a VLAN's interfaces, as vlan_of finds it
        svis.setdefault(svi_name(d, s.vlan), int(s.ipv4) if s.ipv4 is not None else None)
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
        svis.setdefault(svi_name(d, s.vlan), addresses.key(s.ipv6) if s.ipv6 else None)
    table.update({k: v for k, v in svis.items() if v is not None})
    return table


def _session_gaps(sessions: Sequence[Session]) -> list[Gap]:
    return [
        Gap(
            "bgp-peer",
            s.device,
            None,
            f"BGP peer {s.peer} (AS {s.remote_as}) is on no link found in the configs read",
        )
        for s in sessions
        if s.link is None
    ]


def _peer_link_gaps(devices: Sequence[DeviceConfig], links: Sequence[LinkFact]) -> list[Gap]:
    paired = {k.a for k in links if k.kind == "mlag-peer-link"}
    paired |= {k.b for k in links if k.kind == "mlag-peer-link"}
    return [
        Gap("peer-link", d.hostname, a.name, "M-LAG peer-link whose other switch was not found")
        for d in devices
        for a in d.aggregates
        if a.peer_link and a.members and End(d.hostname, a.name) not in paired
    ]


def _described_gaps(devices: Sequence[DeviceConfig], links: Sequence[LinkFact]) -> list[Gap]:
    """Ports in use, on no link, whose description names another switch that was read."""
    names = {d.hostname for d in devices}
    odd = [n for n in names if WORDS.search(n)]  # hostnames a word split cannot find
    linked = linked_ports(links)
    out = []
    for d in devices:
        for p in d.interfaces:
            if p.shutdown or End(d.hostname, p.name) in linked or not p.description:
                continue
            parent = d.parent_of(p.name)
            if parent and End(d.hostname, parent) not in linked:
                continue  # its port has no link either: that gap is the port's
            words = set(WORDS.split(p.description)) | {
                n for n in odd if names_switch(p.description, n)
            }
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
    return out


def _lossless_gaps(devices: Sequence[DeviceConfig], links: Sequence[LinkFact]) -> list[Gap]:
    """Routed lossless ports (point-to-point address, PFC on it or its members) toward a
    neighbour that is not among the configs read."""
    linked = linked_ports(links)
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
            if parent and _point_to_point(d, port_of(d, parent)):
                continue  # the port it rides faces the same neighbour: the gap is the port's
            if lossless(d, p):
                out.append(
                    Gap(
                        "lossless-port",
                        d.hostname,
                        p.name,
                        f"lossless routed port ({address}) toward a neighbour whose "
                        "config was not read",
                    )
                )
    return out


def _point_to_point(d: DeviceConfig, port: Interface | None) -> bool:
    return port is not None and addresses.link_address(d, port) is not None
