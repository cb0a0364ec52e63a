"""The fabric as the deadlock analysis sees it: switches, directed link ends, BGP, lossless ports.

Built from vendor-neutral DeviceConfigs and the links between them; integer ids throughout
because the analysis touches every (switch, destination) pair for every failure scenario.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from ipaddress import IPv4Address, IPv4Network

from roce_cfg import evidence
from roce_cfg.model import numbers
from roce_cfg.model.device import DeviceConfig, Interface
from roce_cfg.policy import priority_of


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
    prefix: IPv4Network
    via: int  # neighbour switch id
    link: int


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
    # prefixes each switch originates into BGP, and where hosts sit (delivered locally)
    # host subnets (where RoCE traffic starts and ends) each switch originates into BGP
    originated: list[list[IPv4Network]] = field(default_factory=list)
    hosts: list[bool] = field(default_factory=list)  # servers attached: RoCE traffic starts here
    statics: list[list[Static]] = field(default_factory=list)
    # (switch, link) -> the lossless priority a packet of the analysed DSCP has on that ingress
    # port, or None when that hop is lossy (the dependency ends there)
    prio: dict[tuple[int, int], int | None] = field(default_factory=dict)
    lossless: frozenset[tuple[int, int]] = frozenset()  # the nodes of the dependency graph
    one_priority: bool = True  # every lossless buffer holds RoCE in one priority
    # switch -> vlan -> links whose port on this switch is an access port in that VLAN
    vlan_links: list[dict[int, list[int]]] = field(default_factory=list)
    # per switch: every usable static route's prefix and the fabric link it leaves by (None: a
    # next hop outside the fabric, on one of the switch's own subnets). A static beats BGP for
    # the prefixes it covers, so BGP forwarding there is replaced (routing._overridden).
    covers: list[list[tuple[IPv4Network, int | None]]] = field(default_factory=list)

    def index(self, name: str) -> int:
        return self.names.index(name)


def build(
    devices: list[DeviceConfig], links: list[tuple[str, str, str, str]], dscp: int
) -> Network:
    """``links`` are (device, port, device, port); ``dscp`` is the lossless class analysed."""
    names = [d.hostname for d in devices]
    net = Network(
        names=names,
        devices=devices,
        links=[],
        asn=[d.bgp.asn if d.bgp else None for d in devices],
        router_id=[int(d.bgp.router_id) if d.bgp else i for i, d in enumerate(devices)],
        max_paths=[d.bgp.max_paths if d.bgp else 1 for d in devices],
    )
    net.adj = [{} for _ in devices]
    net.sessions = [set() for _ in devices]
    net.vlan_links = [{} for _ in devices]
    # Looked up once per link end: indexes instead of scans (a 1,280-switch fabric has 131,072
    # link ends on switches with 128 ports and 128 BGP neighbours each).
    ports = [{p.name: p for p in d.interfaces} for d in devices]
    _links(net, links, ports, dscp)
    net.lossless = frozenset(node for node, p in net.prio.items() if p is not None)
    net.one_priority = len({p for p in net.prio.values() if p is not None}) <= 1
    net.pairs = [
        {n: frozenset((n, lid) for lid in lids) for n, lids in nbrs.items()} for nbrs in net.adj
    ]
    net.all_outs = [frozenset().union(*p.values()) for p in net.pairs]
    addr_owner: dict[IPv4Address, int] = {}
    for i, d in enumerate(devices):
        for p in d.interfaces:
            if p.ipv4 is not None:
                addr_owner[p.ipv4.ip] = i
    for i, d in enumerate(devices):
        # Only subnets with servers behind them carry RoCE; loopbacks carry control traffic.
        hosts = [svi.ipv4.network for svi in d.vlan_interfaces]
        networks = list(d.bgp.networks) if d.bgp else []
        net.originated.append([n for n in networks if any(n.overlaps(h) for h in hosts)])
        net.hosts.append(any(i.mode == "access" and not i.shutdown for i in d.interfaces))
        _statics(net, i, ports, addr_owner)
    return net


def _links(
    net: Network,
    links: list[tuple[str, str, str, str]],
    ports: list[dict[str, Interface]],
    dscp: int,
) -> None:
    """The links whose both ends are up, with their lossless priority, VLANs and BGP session."""
    devices = net.devices
    idx = {n: i for i, n in enumerate(net.names)}
    peers = [{n.address: n.remote_as for n in d.bgp.neighbors} if d.bgp else {} for d in devices]
    for a_name, a_port, b_name, b_port in links:
        if a_name not in idx or b_name not in idx:
            continue
        a, b = idx[a_name], idx[b_name]
        pa, pb = _end(devices[a], ports[a], a_port), _end(devices[b], ports[b], b_port)
        if pa is None or pb is None or pa.shutdown or pb.shutdown:
            continue
        link = Link(len(net.links), a, a_port, b, b_port)
        net.links.append(link)
        net.adj[a].setdefault(b, []).append(link.id)
        net.adj[b].setdefault(a, []).append(link.id)
        for s, port in ((a, pa), (b, pb)):
            prio = priority_of(devices[s], dscp)
            lossless = port.qos.pfc and prio in port.qos.no_drop
            net.prio[(s, link.id)] = prio if lossless else None
            # A trunk carries the VLANs it permits (its PVID only if permitted); an access
            # port its one VLAN.
            carried = numbers.expand(port.trunk_vlans) or (port.access_vlan,)
            if port.mode == "access":
                for vlan in carried:
                    if vlan is not None:
                        net.vlan_links[s].setdefault(vlan, []).append(link.id)
        _session(net, peers, link, pa, pb)


def _end(d: DeviceConfig, ports: dict[str, Interface], name: str) -> Interface | None:
    """A link end as the buffer graph sees it (evidence.end_port: an aggregate lossless where
    its members are, down below its minimum of members; a VLAN interface on the link it rides),
    kept in ``ports`` for the static routes' next hops."""
    port = ports.get(name)
    if port is not None and d.aggregate(name) is None:
        return port
    seen = evidence.end_port(d, name)
    if seen is not None:
        ports[name] = seen
    return seen


def _statics(
    net: Network, i: int, ports: list[dict[str, Interface]], addr_owner: dict[IPv4Address, int]
) -> None:
    """Switch ``i``'s usable static routes, and the prefixes each covers by which link."""
    d = net.devices[i]
    statics = []
    covers: list[tuple[IPv4Network, int | None]] = []
    local = [p.ipv4.network for p in d.interfaces if p.ipv4 is not None and not p.shutdown]
    local += [svi.ipv4.network for svi in d.vlan_interfaces]
    for r in d.static_routes:
        if r.next_hop is None or r.vrf:
            continue  # a discard route forwards nothing; another VRF's table is not the fabric's
        owner = addr_owner.get(r.next_hop)
        if owner is None or owner not in net.adj[i]:
            # Not a fabric switch: traffic leaves the fabric there (a firewall, a service
            # network), as long as the next hop is on one of this switch's own subnets;
            # otherwise, or when it is a switch whose link is gone, the route is inactive.
            if owner is None and any(r.next_hop in n for n in local):
                covers.append((r.prefix, None))
            continue
        for lid in net.adj[i][owner]:
            far = ports[owner].get(net.links[lid].port_at(owner))
            if far is not None and far.ipv4 is not None and far.ipv4.ip == r.next_hop:
                statics.append(Static(r.prefix, owner, lid))
                covers.append((r.prefix, lid))
    net.statics.append(statics)
    net.covers.append(covers)


def _session(
    net: Network, peers: list[dict[IPv4Address, int]], link: Link, pa: Interface, pb: Interface
) -> None:
    """eBGP over the link when each side names the other's address with the right remote-as."""
    asn_a, asn_b = net.asn[link.a], net.asn[link.b]
    if asn_a is None or asn_b is None or pa.ipv4 is None or pb.ipv4 is None:
        return
    if peers[link.a].get(pb.ipv4.ip) == asn_b and peers[link.b].get(pa.ipv4.ip) == asn_a:
        net.sessions[link.a].add(link.b)
        net.sessions[link.b].add(link.a)
