"""A link end as the rules and the buffer graph see it: a switch's port by name, the VLAN a
VLAN interface end carries, the physical ports that carry an aggregate's frames, an end's
addresses, and the port an aggregate or a VLAN interface end stands for."""

from __future__ import annotations

from roce_cfg.model import addresses, numbers
from roce_cfg.model.device import DeviceConfig, Interface, PortQos
from roce_cfg.platforms.profile import load_profile

# id(device) -> (device, its ports by name): link ends are looked up per link and per session,
# and a scan of 128 ports for each of 160,000 link ends made a large fabric quadratic. The
# device is held so that its id is not reused while cached; clear_index() empties the cache.
_INDEX: dict[int, tuple[DeviceConfig, dict[str, Interface]]] = {}


def clear_index() -> None:
    """Forget the port tables: a new set of configs is read (evidence.Topology.of)."""
    _INDEX.clear()


def port_of(d: DeviceConfig, name: str) -> Interface | None:
    hit = _INDEX.get(id(d))
    if hit is None or hit[0] is not d:
        hit = _INDEX[id(d)] = (d, {p.name: p for p in d.interfaces})
    return hit[1].get(name)


def down(d: DeviceConfig, name: str) -> bool:
    """The port ``name`` is shut (or not one of ``d``'s ports)."""
    port = port_of(d, name)
    return port is None or port.shutdown


def svi_name(d: DeviceConfig, vlan: int) -> str:
    """A VLAN interface's name as the vendor prints it ('Vlanif4000')."""
    return f"{load_profile(d.vendor).vlan_interface}{vlan}"


def vlan_of(d: DeviceConfig, port: str) -> int | None:
    """The VLAN of a link end that is one of ``d``'s VLAN interfaces, else None."""
    if not port.startswith(load_profile(d.vendor).vlan_interface):
        return None  # most link ends: a port (checked once per link end of a large fabric)
    return next((s.vlan for s in d.vlan_interfaces if svi_name(d, s.vlan) == port), None)


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
    return [p for p in (port_of(d, m) for m in agg.members) if p is not None and not p.shutdown]


def end_addresses(d: DeviceConfig, port: str) -> tuple[addresses.Assigned, ...]:
    """The addresses of a link end of either family, IPv4 first: a port's or aggregate's, or
    a VLAN interface's (as ``vlan_of`` finds it)."""
    vlan = vlan_of(d, port)
    if vlan is not None:
        svi = next((s for s in d.vlan_interfaces if s.vlan == vlan), None)
        return addresses.of_vlan(svi) if svi is not None else ()
    p = port_of(d, port)
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
        return Interface(
            name=port,
            mode="routed",
            ipv4=svi.ipv4,
            mtu=svi.mtu,
            speed_gbps=0,
            shutdown=under is None or under.shutdown,
            qos=qos,
        )
    p = port_of(d, port)
    agg = d.aggregate(port)
    if p is None or agg is None or not agg.members:
        return p
    up = members(d, p)
    on = [m for m in up if m.qos.pfc]
    no_drop = tuple(sorted({x for m in on for x in m.qos.no_drop}))
    qos = p.qos.model_copy(update={"pfc": bool(on), "no_drop": no_drop})
    return p.model_copy(update={"qos": qos, "shutdown": p.shutdown or len(up) < agg.min_active})
