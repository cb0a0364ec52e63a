"""The deadlock analysis's fabric (deadlock/network.py) built from vendor-neutral DeviceConfigs
and the links between them: link ends and their lossless priority, BGP sessions, the static
routes each switch forwards by; deadlock/dests.py adds the traffic classes."""

from __future__ import annotations

from ipaddress import IPv4Address, IPv4Network, IPv6Address, IPv6Network

from roce_cfg.deadlock import dests
from roce_cfg.deadlock.network import AddressKey, Cand, Flow, Link, Network, Static, address_key
from roce_cfg.links import ends
from roce_cfg.model import addresses, numbers
from roce_cfg.model.device import DeviceConfig, Interface
from roce_cfg.platforms.profile import load_profile
from roce_cfg.policy import priority_of

# Route preference where a vendor profile states none (the profiles of all four do).
STATIC_PREFERENCE, EBGP_PREFERENCE = 60, 255

# The fabric's names, as the engines and tests have long imported them from here.
__all__ = ["Cand", "Flow", "Link", "Network", "Static", "build", "lossless_priority"]


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
    _preferences(net)
    owner = _owners(devices)
    for i in range(len(devices)):
        net.statics.append(_statics(net, i, ports, owner))
    dests.gather(net, ports, owner)
    return net


def _preferences(net: Network) -> None:
    for d in net.devices:
        pref = load_profile(d.vendor).route_preference
        net.ebgp_pref.append(pref.ebgp if pref else EBGP_PREFERENCE)
        net.tie.append(pref.tie if pref else "unknown")


Address = IPv4Address | IPv6Address


def _owners(devices: list[DeviceConfig]) -> dict[AddressKey, int]:
    """Which switch holds each interface address of either family (ports, aggregates, VLAN
    interfaces), by address_key."""
    owner: dict[AddressKey, int] = {}
    for i, d in enumerate(devices):
        for p in d.interfaces:
            if p.ipv4 is not None:
                owner[int(p.ipv4)] = i  # address_key of an IPv4 one, without the call
        for e in d.ipv6_ports:
            if e.address is not None:
                owner[address_key(e.address)] = i
        for svi in d.vlan_interfaces:
            for held in addresses.of_vlan(svi):
                owner.setdefault(address_key(held), i)
    return owner


def _links(
    net: Network,
    links: list[tuple[str, str, str, str]],
    ports: list[dict[str, Interface]],
    dscp: int,
) -> None:
    """The links whose both ends are up, with their lossless priority, VLANs and BGP session."""
    devices = net.devices
    idx = {n: i for i, n in enumerate(net.names)}
    # Per switch, not per link end: its neighbours' AS by address_key and the priority its map
    # puts ``dscp`` in.
    peers: list[dict[AddressKey, int]] = [
        {address_key(n.address): n.remote_as for n in d.bgp.neighbors} if d.bgp else {}
        for d in devices
    ]
    prio_of = [priority_of(d, dscp) for d in devices]
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
            net.prio[(s, link.id)] = _lossless(prio_of[s], port)
            if port.mode == "access":
                # A trunk carries the VLANs it permits (its PVID only if permitted); an
                # access port its one VLAN.
                for vlan in numbers.expand(port.trunk_vlans) or (port.access_vlan,):
                    if vlan is not None:
                        net.vlan_links[s].setdefault(vlan, []).append(link.id)
        _session(net, peers, link, pa, pb)


def lossless_priority(device: DeviceConfig, port: Interface, dscp: int) -> int | None:
    """The priority the switch puts ``dscp`` in when that priority is no-drop with PFC on the
    port, else None (the packet can be dropped there, not paused)."""
    return _lossless(priority_of(device, dscp), port)


def _lossless(prio: int, port: Interface) -> int | None:
    """``prio`` when it is no-drop with PFC on ``port``, else None."""
    return prio if port.qos.pfc and prio in port.qos.no_drop else None


def _end(d: DeviceConfig, ports: dict[str, Interface], name: str) -> Interface | None:
    """A link end as the buffer graph sees it (ends.end_port: an aggregate lossless where
    its members are, down below its minimum of members; a VLAN interface on the link it rides),
    kept in ``ports`` for the static routes' next hops."""
    port = ports.get(name)
    if port is not None and (not d.aggregates or d.aggregate(name) is None):  # most switches
        return port
    seen = ends.end_port(d, name)
    if seen is not None:
        ports[name] = seen
    return seen


def _statics(
    net: Network, i: int, ports: list[dict[str, Interface]], owner: dict[AddressKey, int]
) -> list[Static]:
    """Switch ``i``'s static routes in its public table, as forwarding uses them; what cannot
    be resolved is said in ``net.unmodelled``."""
    d = net.devices[i]
    stated = load_profile(d.vendor).route_preference
    default = stated.static if stated else STATIC_PREFERENCE
    local: list[tuple[IPv4Network | IPv6Network, str]] = [
        (p.ipv4.network, p.name) for p in d.interfaces if p.ipv4 and not p.shutdown
    ]
    local += [
        (e.address.network, e.port)
        for e in d.ipv6_ports
        if e.address is not None and not getattr(ports[i].get(e.port), "shutdown", True)
    ]
    local += [
        (held.network, _svi(d, svi.vlan))
        for svi in d.vlan_interfaces
        for held in addresses.of_vlan(svi)
    ]
    out: list[Static] = []
    for r in d.static_routes:
        if r.vrf:
            continue  # another VRF's table (management, tenants) is not the fabric's
        pref, ecmp = r.preference or default, r.inter_protocol_ecmp
        if r.next_hop is None:
            if r.interface.upper().startswith("NULL"):
                out.append(Static(r.prefix, -1, -1, pref, ecmp, line=r.line))
            else:
                net.unmodelled.append(_unresolved(d, r.prefix, r.line, "an interface only"))
            continue
        far = owner.get(address_key(r.next_hop))
        hop = _hop(net, i, far, r.next_hop, ports) if far is not None else None
        port = next((name for n, name in local if r.next_hop in n), None) if far is None else None
        if hop is not None:
            out.append(Static(r.prefix, hop[0], hop[1], pref, ecmp, line=r.line))
        elif port is not None:
            out.append(Static(r.prefix, -1, -1, pref, ecmp, True, port, r.line))
        else:
            # A next hop on no up link or subnet read (a management port, which roce-cfg does not
            # read; a recursive lookup, not modelled): the route is left out, and said so.
            net.unmodelled.append(_unresolved(d, r.prefix, r.line, f"next hop {r.next_hop}"))
    return out


def _svi(d: DeviceConfig, vlan: int) -> str:
    return f"{load_profile(d.vendor).vlan_interface}{vlan}"


def _hop(
    net: Network, i: int, far: int, address: Address, ports: list[dict[str, Interface]]
) -> tuple[int, int] | None:
    """(neighbour, link) when ``address`` is the far end of one of switch ``i``'s links."""
    for lid in net.adj[i].get(far, ()):
        name = net.links[lid].port_at(far)
        end = ports[far].get(name)
        if end is None:
            continue
        if end.ipv4 is not None and end.ipv4.ip == address:
            return far, lid
        if address.version == 6 and address in _held(net.devices[far], name):
            return far, lid
    return None


def _held(d: DeviceConfig, name: str) -> set[Address]:
    """The addresses of ``d``'s link end ``name`` (a port, an aggregate, a VLAN interface)."""
    return {a.ip for a in ends.end_addresses(d, name)}


def _unresolved(
    d: DeviceConfig, prefix: IPv4Network | IPv6Network, line: int | None, why: str
) -> str:
    where = f"{d.hostname}:{line}" if line is not None else d.hostname
    return (
        f"{where} static route {prefix} via {why}: on no up link or subnet of the switch read "
        "(a management port, or a recursive next hop)"
    )


def _session(
    net: Network, peers: list[dict[AddressKey, int]], link: Link, pa: Interface, pb: Interface
) -> None:
    """eBGP over the link when each side names the other's address (of one family) with the
    right remote-as."""
    asn_a, asn_b = net.asn[link.a], net.asn[link.b]
    if asn_a is None or asn_b is None:
        return
    v4 = (int(pa.ipv4), int(pb.ipv4)) if pa.ipv4 is not None and pb.ipv4 is not None else None
    if _named(peers, link, v4, (asn_a, asn_b)) or _named6(net, peers, link):
        net.sessions[link.a].add(link.b)
        net.sessions[link.b].add(link.a)


def _named(
    peers: list[dict[AddressKey, int]],
    link: Link,
    ends: tuple[AddressKey, AddressKey] | None,
    asns: tuple[int, int],
) -> bool:
    """Each end names the other's address (``ends``, by address_key) with the other's AS."""
    if ends is None:
        return False
    xa, xb = ends
    return peers[link.a].get(xb) == asns[1] and peers[link.b].get(xa) == asns[0]


def _named6(net: Network, peers: list[dict[AddressKey, int]], link: Link) -> bool:
    """``_named`` for the IPv6 addresses of the link's ends (a VLAN interface's too)."""
    da, db = net.devices[link.a], net.devices[link.b]
    if not (da.ipv6_ports or da.vlan_interfaces) or not (db.ipv6_ports or db.vlan_interfaces):
        return False  # no IPv6 end: most links of most fabrics
    asns = (net.asn[link.a] or 0, net.asn[link.b] or 0)
    ends_a = [a for a in ends.end_addresses(da, link.a_port) if a.version == 6]
    ends_b = [b for b in ends.end_addresses(db, link.b_port) if b.version == 6]
    keys = ((address_key(a), address_key(b)) for a in ends_a for b in ends_b)
    return any(_named(peers, link, pair, asns) for pair in keys)
