"""One DeviceConfig per switch, from the topology and the lossless policy."""

from __future__ import annotations

from collections.abc import Callable
from ipaddress import IPv4Address, IPv4Interface
from typing import Any

from roce_cfg.design.qos import device_qos, port_headroom, port_qos
from roce_cfg.design.topology import Switch
from roce_cfg.grammar import load_grammar
from roce_cfg.intent.models import Intent
from roce_cfg.model import describe
from roce_cfg.model.device import (
    Bgp,
    BgpNeighbor,
    DeviceConfig,
    Interface,
    Loopback,
    PortQos,
    Vlan,
    VlanInterface,
    frame_for,
)
from roce_cfg.model.fabric import PortHeadroom
from roce_cfg.model.fast import maker, state


def frame_limit(sw: Switch, mtu: int) -> int | None:
    """The frame limit a port is given: room for an IP packet of ``mtu`` bytes in a tagged
    frame where the vendor's grammar has a command that bounds the frame ('jumboframe enable'),
    none where its MTU command is the only setting (Ruijie, ZTE)."""
    return frame_for(mtu) if load_grammar(sw.plan.vendor.value).bounding("frame") else None


class _Ports:
    """A switch's ports, each shape validated once: ports alike but for their own name,
    description, address and breakout parent (strings and an address ipaddress built, of their
    fields' types) are assembled from the first port of their shape, as the parse builds a
    config's ports. Validating each again was an eighth of building a switch's model.
    ``validate_all`` validates every port (what a test compares the shortcut with)."""

    validate_all = False

    def __init__(self) -> None:
        # shape -> the fields of its first port and a maker of ports given the same fields
        # (model/fast.py)
        self.first: dict[
            tuple[object, ...], tuple[dict[str, Any], Callable[[dict[str, Any]], Interface]]
        ] = {}

    def __call__(
        self,
        own: dict[str, Any],
        qos: PortQos,
        mode: str,
        access_vlan: int | None,
        mtu: int,
        frame_bytes: int | None,
        speed_gbps: int,
    ) -> Interface:
        # ports of one kind share one frozen PortQos: told by its identity, not by its hash
        shape = (id(qos), mode, access_vlan, mtu, frame_bytes, speed_gbps)
        first = self.first.get(shape)
        if first is None or self.validate_all:
            # a routed port is not given a VLAN (its set of given fields stays as it was)
            vlan = {} if access_vlan is None else {"access_vlan": access_vlan}
            port = Interface(
                **own,
                qos=qos,
                mode=mode,
                **vlan,
                mtu=mtu,
                frame_bytes=frame_bytes,
                speed_gbps=speed_gbps,
            )
            held = state(port)
            if held is not None:
                self.first.setdefault(shape, (held[1], maker(Interface, held[2])))
            return port
        fields, make = first
        return make({**fields, **own})


def _interfaces(intent: Intent, sw: Switch) -> tuple[list[Interface], list[PortHeadroom]]:
    mtu = intent.fabric.mtu
    frame = frame_limit(sw, mtu)
    out: list[Interface] = []
    # Ports of one speed and cable length need the same headroom and share one (frozen) PortQos:
    # a 128-port switch has two or three such kinds, not 128.
    kinds: dict[tuple[int, float], tuple[list[PortHeadroom], PortQos, list[str]]] = {}

    def qos(port: str, speed: int, cable_m: float) -> PortQos:
        kind = kinds.get((speed, cable_m))
        if kind is None:
            hr = port_headroom(intent, sw, (), speed, cable_m)
            kind = kinds[(speed, cable_m)] = (hr, port_qos(intent, hr), [])
        kind[2].append(port)
        return kind[1]

    port = _Ports()
    for slot, nic in sw.server_ports:
        q = qos(slot.name, nic.speed_gbps, nic.cable_m)
        own: dict[str, Any] = {
            "name": slot.name,
            "description": describe.encode(
                f"{nic.server}:nic{nic.nic}", nic.speed_gbps, nic.cable_m
            ),
            "breakout_of": slot.breakout_of,
        }
        out.append(port(own, q, "access", nic.vlan, mtu, frame, slot.speed))
    for slot, link in sw.fabric_ports:
        local_ip, far_dev, far_port, _ = link.seen_from(sw.plan.hostname)
        q = qos(slot.name, link.speed_gbps, link.cable_m)
        own = {
            "name": slot.name,
            "description": describe.encode(f"{far_dev}:{far_port}", link.speed_gbps, link.cable_m),
            "ipv4": local_ip,
            "breakout_of": slot.breakout_of,
        }
        out.append(port(own, q, "routed", None, mtu, frame, slot.speed))
    headroom = [
        h.model_copy(update={"ports": tuple(ports)}) for hr, _, ports in kinds.values() for h in hr
    ]
    return out, headroom


# every field given, one set shared by every peer (as ``model.fast.lean`` keeps them)
_MAKE_PEER = maker(BgpNeighbor)


def _peer(address: IPv4Address, asn: int, far: str) -> BgpNeighbor:
    """``BgpNeighbor(address=address, remote_as=asn, description=far)`` without validating
    again what is already of its fields' types and domains: a link end's address, a planned
    switch's ASN and hostname (``test_generate_shapes`` compares with the validated peer)."""
    if _Ports.validate_all:
        return BgpNeighbor(address=address, remote_as=asn, description=far)
    return _MAKE_PEER({"address": address, "remote_as": asn, "description": far})


def _bgp(intent: Intent, sw: Switch, asn_of: dict[str, int]) -> Bgp | None:
    if intent.routing is None or sw.plan.asn is None or sw.plan.loopback is None:
        return None
    neighbors = []
    for _, link in sw.fabric_ports:
        _, far, _, far_ip = link.seen_from(sw.plan.hostname)
        neighbors.append((far_ip.ip, far))
    return Bgp(
        asn=sw.plan.asn,
        router_id=sw.plan.loopback.ip,
        neighbors=tuple(_peer(ip, asn_of[far], far) for ip, far in sorted(neighbors)),
        networks=tuple(sorted([sw.plan.loopback.network, *(r.subnet for r in sw.rails)])),
        max_paths=intent.routing.max_paths,
    )


def build_device(
    intent: Intent, sw: Switch, asns: dict[str, int]
) -> tuple[DeviceConfig, list[PortHeadroom]]:
    interfaces, headroom = _interfaces(intent, sw)
    loopback = None
    if sw.plan.loopback is not None:
        loopback = Loopback(name=sw.profile.loopback_interface, ipv4=sw.plan.loopback)
    rails = sorted(sw.rails, key=lambda r: r.vlan)
    vlans = tuple(Vlan(id=r.vlan, name=f"rail{r.rail}") for r in rails)
    svis = tuple(
        VlanInterface(
            vlan=r.vlan,
            ipv4=IPv4Interface((int(r.gateway), r.subnet.prefixlen)),
            mtu=intent.fabric.mtu,
            description=f"rail{r.rail} gateway",
        )
        for r in rails
    )
    device = DeviceConfig(
        hostname=sw.plan.hostname,
        vendor=sw.plan.vendor,
        model=sw.plan.model,
        role=sw.plan.role,
        loopback=loopback,
        interfaces=tuple(interfaces),
        vlans=vlans,
        vlan_interfaces=svis,
        qos=device_qos(intent, sw, headroom),
        bgp=_bgp(intent, sw, asns),
    )
    return device, headroom
