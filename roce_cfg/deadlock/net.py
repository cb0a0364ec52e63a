"""The deadlock analysis's fabric (deadlock/network.py) built from vendor-neutral DeviceConfigs
and the links between them: link ends and their lossless priority, BGP sessions, the static
routes each switch forwards by; deadlock/dests.py adds the traffic classes."""

from __future__ import annotations

from ipaddress import IPv4Address, IPv4Network

from roce_cfg import evidence
from roce_cfg.deadlock import dests
from roce_cfg.deadlock.network import Cand, Flow, Link, Network, Static
from roce_cfg.model import numbers
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


def _owners(devices: list[DeviceConfig]) -> dict[IPv4Address, int]:
    """Which switch holds each interface address (ports, aggregates, VLAN interfaces)."""
    owner: dict[IPv4Address, int] = {}
    for i, d in enumerate(devices):
        for p in d.interfaces:
            if p.ipv4 is not None:
                owner[p.ipv4.ip] = i
        for svi in d.vlan_interfaces:
            owner.setdefault(svi.ipv4.ip, i)
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
            net.prio[(s, link.id)] = lossless_priority(devices[s], port, dscp)
            # A trunk carries the VLANs it permits (its PVID only if permitted); an access
            # port its one VLAN.
            carried = numbers.expand(port.trunk_vlans) or (port.access_vlan,)
            if port.mode == "access":
                for vlan in carried:
                    if vlan is not None:
                        net.vlan_links[s].setdefault(vlan, []).append(link.id)
        _session(net, peers, link, pa, pb)


def lossless_priority(device: DeviceConfig, port: Interface, dscp: int) -> int | None:
    """The priority the switch puts ``dscp`` in when that priority is no-drop with PFC on the
    port, else None (the packet can be dropped there, not paused)."""
    prio = priority_of(device, dscp)
    return prio if port.qos.pfc and prio in port.qos.no_drop else None


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
    net: Network, i: int, ports: list[dict[str, Interface]], owner: dict[IPv4Address, int]
) -> list[Static]:
    """Switch ``i``'s static routes in its public table, as forwarding uses them; what cannot
    be resolved is said in ``net.unmodelled``."""
    d = net.devices[i]
    stated = load_profile(d.vendor).route_preference
    default = stated.static if stated else STATIC_PREFERENCE
    local = [(p.ipv4.network, p.name) for p in d.interfaces if p.ipv4 and not p.shutdown]
    local += [(svi.ipv4.network, _svi(d, svi.vlan)) for svi in d.vlan_interfaces]
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
        far = owner.get(r.next_hop)
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
    net: Network, i: int, far: int, address: IPv4Address, ports: list[dict[str, Interface]]
) -> tuple[int, int] | None:
    """(neighbour, link) when ``address`` is the far end of one of switch ``i``'s links."""
    for lid in net.adj[i].get(far, ()):
        end = ports[far].get(net.links[lid].port_at(far))
        if end is not None and end.ipv4 is not None and end.ipv4.ip == address:
            return far, lid
    return None


def _unresolved(d: DeviceConfig, prefix: IPv4Network, line: int | None, why: str) -> str:
    where = f"{d.hostname}:{line}" if line is not None else d.hostname
    return (
        f"{where} static route {prefix} via {why}: on no up link or subnet of the switch read "
        "(a management port, or a recursive next hop)"
    )


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
