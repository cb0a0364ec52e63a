"""A port's addresses of either family, read alike: IPv4 on the port (``Interface.ipv4``), IPv6
beside the ports (``DeviceConfig.ipv6_ports``), both on VLAN interfaces and loopbacks.

Links, BGP sessions, the RoCE-port rule and the deadlock analysis ask these questions of an
address whatever its family (docs/lint.md, 'IPv6'): which subnet is point-to-point, which
address a neighbour names, which number stands for an address in a table of both families.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from ipaddress import IPv4Address, IPv4Interface, IPv6Address, IPv6Interface, IPv6Network
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from roce_cfg.model.device import DeviceConfig, Interface, PortIpv6, VlanInterface

Address = IPv4Address | IPv6Address
Assigned = IPv4Interface | IPv6Interface

# The shortest point-to-point prefix per family: /30-/31 (RFC 3021) and /126-/127 (RFC 6164,
# and /126 as operators mirror the IPv4 /30). A /64 with two addresses is a link only where
# both ends are the only two addresses read in it (evidence.py, docs/lint.md).
P2P_V4 = 30
P2P_V6 = 126
# A /64 shared by exactly two routed ports of two switches, and by nothing else read: the
# inter-switch /64 many operators use (RFC 6164 section 5.1).
PAIRED_V6 = 64

# IPv6 numbers in tables that hold both families: above every IPv4 number and apart from it
# (an IPv4-compatible '::a.b.c.d' would otherwise be a.b.c.d).
V6_TAG = 1 << 128


def key(address: Address | Assigned) -> int:
    """A number for ``address`` unique across both families (IPv4: the address's own)."""
    # isinstance, not the version property: 262,144 calls at xl (an interface is its address)
    return int(address) if isinstance(address, IPv4Address) else int(address) | V6_TAG


def point_to_point(address: Assigned | None) -> bool:
    """A /30-/31 or /126-/127 subnet: a link's two ends and nothing else."""
    if address is None:
        return False
    plen = address.network.prefixlen
    return plen >= (P2P_V4 if address.version == 4 else P2P_V6)


_INDEX: dict[int, tuple[DeviceConfig, dict[str, IPv6Interface]]] = {}
_INDEX_MAX = 4096  # switches whose table is kept (a fabric's; dropped whole past it)


def ipv6_of(device: DeviceConfig, port: str) -> IPv6Interface | None:
    """The IPv6 address of ``device``'s port (or aggregate, or sub-interface) ``port``."""
    if not device.ipv6_ports:
        return None  # most switches: no table built, no look-up
    hit = _INDEX.get(id(device))
    if hit is None or hit[0] is not device:
        if len(_INDEX) >= _INDEX_MAX:
            _INDEX.clear()
        table = {p.port: p.address for p in device.ipv6_ports if p.address is not None}
        hit = _INDEX[id(device)] = (device, table)
    return hit[1].get(port)


def ipv6_entry(device: DeviceConfig, port: str) -> PortIpv6 | None:
    """The IPv6 record (address, printed IPv6 MTU) of ``device``'s port ``port``."""
    return next((p for p in device.ipv6_ports if p.port == port), None)


def of_port(device: DeviceConfig, port: Interface) -> tuple[Assigned, ...]:
    """The port's addresses, IPv4 first."""
    v6 = ipv6_of(device, port.name)
    if v6 is None:
        return () if port.ipv4 is None else (port.ipv4,)
    return (v6,) if port.ipv4 is None else (port.ipv4, v6)


def of_vlan(svi: VlanInterface) -> tuple[Assigned, ...]:
    """A VLAN interface's addresses, IPv4 first."""
    return tuple(a for a in (svi.ipv4, svi.ipv6) if a is not None)


def link_address(device: DeviceConfig, port: Interface) -> Assigned | None:
    """The address a link is found on: the port's point-to-point one, IPv4 first."""
    v4 = port.ipv4
    if v4 is not None and v4.network.prefixlen >= P2P_V4:
        return v4
    if not device.ipv6_ports:
        return None  # most switches: no IPv6 to look up
    v6 = ipv6_of(device, port.name)
    return v6 if v6 is not None and v6.network.prefixlen >= P2P_V6 else None


def links_of(device: DeviceConfig, port: Interface) -> tuple[Assigned, ...]:
    """The port's point-to-point addresses, IPv4 first (a dual-stack link has both)."""
    return tuple(a for a in of_port(device, port) if point_to_point(a))


def paired_v6(
    devices: Sequence[DeviceConfig], down: Callable[[DeviceConfig, str], bool]
) -> dict[IPv6Network, list[tuple[DeviceConfig, str]]]:
    """IPv6 subnets of /64 to /125 whose only two addresses read are on two switches' routed
    ports in use: a link, as a /127 would be. A third address anywhere in it (a VLAN interface,
    a loopback, a port shut or not) makes it a shared segment, no link."""
    ends: dict[IPv6Network, list[tuple[DeviceConfig, str]]] = {}
    count: dict[IPv6Network, int] = {}
    for d in devices:
        for e in d.ipv6_ports:
            a = e.address
            if a is None or not PAIRED_V6 <= a.network.prefixlen < P2P_V6:
                continue
            count[a.network] = count.get(a.network, 0) + 1
            if not down(d, e.port):
                ends.setdefault(a.network, []).append((d, e.port))
    if not ends:
        return {}
    lengths = {net.prefixlen for net in count}
    for d in devices:
        held = [s.ipv6 for s in d.vlan_interfaces]
        held.append(d.loopback.ipv6 if d.loopback else None)
        for a in (x for x in held if x is not None):
            for plen in lengths:
                net = IPv6Interface((a.ip, plen)).network
                if net in count:
                    count[net] += 1
    return {
        net: pair
        for net, pair in ends.items()
        if count[net] == 2 and len(pair) == 2 and pair[0][0].hostname != pair[1][0].hostname
    }
