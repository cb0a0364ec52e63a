"""The fabric as the deadlock analysis sees it: switches, directed link ends, BGP, lossless ports
and the routes each switch forwards by (built by deadlock/net.py; the traffic classes by
deadlock/dests.py). Integer ids throughout, because the analysis touches every (switch,
destination) pair for every failure scenario.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from ipaddress import (
    IPv4Address,
    IPv4Interface,
    IPv4Network,
    IPv6Address,
    IPv6Interface,
    IPv6Network,
)

from roce_cfg.model.device import DeviceConfig

AddressKey = int | IPv6Address


def address_key(address: IPv4Address | IPv6Address | IPv4Interface | IPv6Interface) -> AddressKey:
    """An address (or an interface's) as a key of the tables of every link end: IPv4 as its
    number, so that no address object is made per end of a large fabric; IPv6 as its address,
    whose zone (a link-local's scope) a number would lose."""
    if address.version == 4:
        return int(address)
    return address.ip if isinstance(address, IPv6Interface) else address


@dataclass(frozen=True)
class Link:
    id: int
    a: int
    a_port: str
    b: int
    b_port: str

    def far(self, s: int) -> int:
        return self.b if s == self.a else self.a

    def port_at(self, s: int) -> str:
        return self.a_port if s == self.a else self.b_port

    def name(self, names: list[str]) -> str:
        return f"{names[self.a]}:{self.a_port}<->{names[self.b]}:{self.b_port}"


@dataclass(frozen=True)
class Static:
    """A static route as forwarding uses it: to a linked switch over one link, out of the
    fabric (a next hop on one of the switch's own subnets: a firewall, a storage gateway), or
    discarded (NULL0)."""

    prefix: IPv4Network | IPv6Network
    via: int  # the neighbour switch; -1 when the route leaves the fabric or discards
    link: int  # the fabric link it leaves by; -1 likewise
    preference: int
    ecmp: bool = False  # load-balances with eBGP of one preference (VRP inter-protocol-ecmp)
    exits: bool = False  # leaves the fabric ...
    port: str = ""  # ... by this port, whose subnet holds the next hop
    line: int | None = None

    @property
    def discards(self) -> bool:
        return self.via < 0 and not self.exits


@dataclass(frozen=True)
class Cand:
    """One route a switch holds for a traffic class: a connected subnet (delivered here), a
    static route, or the routes of a BGP group (``group``); ``plen`` its prefix length."""

    plen: int
    pref: int  # the route's preference; a BGP group's is the switch's eBGP preference (-1 here)
    group: int = -1
    static: Static | None = None

    @property
    def local(self) -> bool:
        return self.group < 0 and self.static is None


@dataclass(frozen=True)
class Flow:
    """A traffic class that is not plain BGP to one switch: every address of it is routed alike
    by every switch (the same routes cover it), so one forwarding decision per switch serves
    it. Its traffic starts where RoCE hosts are (Network.senders)."""

    # the RoCE destinations (or their parts) it stands for
    prefixes: tuple[IPv4Network | IPv6Network, ...]
    bgp: tuple[Cand, ...]  # BGP routes covering it, longest first: a switch's routes ...
    at: dict[int, tuple[Cand, ...]]  # ... unless listed here (its subnets, statics, origins)
    deps: frozenset[int]  # the BGP groups it can follow


@dataclass
class Network:
    names: list[str]
    devices: list[DeviceConfig]
    links: list[Link]
    asn: list[int | None]
    router_id: list[int]
    max_paths: list[int]
    # per switch: neighbour -> ids of the links to it (parallel links are ECMP members)
    adj: list[dict[int, list[int]]] = field(default_factory=list)
    # per switch: neighbour -> its (neighbour, link) out-edges, prebuilt for fast unions
    pairs: list[dict[int, frozenset[tuple[int, int]]]] = field(default_factory=list)
    all_outs: list[frozenset[tuple[int, int]]] = field(default_factory=list)
    # per switch: BGP neighbours it has a session with over a link (remote-as agreeing)
    sessions: list[set[int]] = field(default_factory=list)
    # per BGP group (a switch's own prefixes: group = its id; others after the switches): the
    # RoCE destinations routed plainly by it (a plain destination), else the group's prefixes
    originated: list[list[IPv4Network | IPv6Network]] = field(default_factory=list)
    hosts: list[bool] = field(default_factory=list)  # RoCE traffic starts here (servers, storage)
    # where the traffic of a Flow starts: the hosts, or every switch where the configs show no
    # RoCE host at all (a loop between two switches is still a loop)
    senders: list[bool] = field(default_factory=list)
    statics: list[list[Static]] = field(default_factory=list)  # per switch, usable ones
    # (switch, link) -> the lossless priority a packet of the analysed DSCP has on that ingress
    # port, or None when that hop is lossy (the dependency ends there)
    prio: dict[tuple[int, int], int | None] = field(default_factory=dict)
    lossless: frozenset[tuple[int, int]] = frozenset()  # the nodes of the dependency graph
    one_priority: bool = True  # every lossless buffer holds RoCE in one priority
    # switch -> vlan -> links whose port on this switch is an access port in that VLAN
    vlan_links: list[dict[int, list[int]]] = field(default_factory=list)
    # per switch: the preference of an eBGP route, and what a tie with a static does
    ebgp_pref: list[int] = field(default_factory=list)
    tie: list[str] = field(default_factory=list)
    # per BGP group: the switches originating it to every session ('network'); groups past the
    # switches also have switches advertising it to some peers only (default-route-advertise)
    origins: list[tuple[int, ...]] = field(default_factory=list)
    adverts: dict[int, dict[int, frozenset[int]]] = field(default_factory=dict)
    flows: list[Flow] = field(default_factory=list)  # traffic classes not plain BGP
    # what the verdict says besides cycles: destinations judged to carry no RoCE, ones assumed
    # to, what the configs hold that the routing model leaves out
    not_roce: list[str] = field(default_factory=list)
    assumed: list[str] = field(default_factory=list)
    unmodelled: list[str] = field(default_factory=list)
    unsure: list[str] = field(default_factory=list)  # what it rests on that no source confirms

    def index(self, name: str) -> int:
        return self.names.index(name)

    @property
    def simple(self) -> bool:
        """Every traffic class is plain eBGP to the one switch that originates it: the shape
        the shortcuts (quick.py) and the failure sweep by symmetry (orbits.py) are proven for."""
        return not self.flows and len(self.origins) <= len(self.names)
