"""The MTU rules: what bounds a RoCE packet on a port or gateway (its IP MTU where that bounds
forwarded packets, its Ethernet frame limit) against the RoCE frame.
"""

from __future__ import annotations

from collections.abc import Iterator

from roce_cfg.analysis.context import ROCE_MIN_MTU, DeviceView, some
from roce_cfg.analysis.registry import Hit, rule
from roce_cfg.model import addresses, numbers
from roce_cfg.model.device import FRAME_OVERHEAD, TAG_BYTES, Interface


@rule(
    "RC113",
    "mtu-too-small-for-roce",
    "error",
    "device",
    summary=f"A RoCE port or gateway has an MTU below {ROCE_MIN_MTU}.",
    rationale="RoCE uses a 4096-byte path MTU on GPU fabrics; with Ethernet, IP, UDP, BTH and "
    "ICRC headers the frames need an MTU of about 4200. Smaller MTUs drop or fragment RoCE.",
    fix="Set jumbo frames (9216 is usual) on every RoCE port and gateway interface.",
    limits="Where a source says the forwarding chip does not check an interface's IPv4 'mtu' "
    "(CloudEngine V300: vendors/huawei.yaml ip_mtu_bounds_forwarding), that MTU is not judged: "
    "the frame limit bounds forwarded RoCE there (RC116); the IPv6 MTU still is. A routed port "
    "or gateway printing no MTU on a vendor whose default no source gives is RC127's.",
    reads=("mtu", "interfaces", "vlan_interfaces", "aggregates"),
)
def mtu_too_small(v: DeviceView) -> Iterator[Hit]:
    for port in v.roce_config_ports("frame_bytes"):
        if _frame_unpublished(v, port):
            continue  # its MTU would be a guess: the model's default is unpublished
        own = addresses.of_port(v.device, port)  # of either family
        if v.carries_sub_interfaces(port) and port.mode == "routed" and not own:
            continue  # it sends no IP packet its MTU bounds: its sub-interfaces do, by theirs
        mtu = v.forwarding_mtu(port)
        if mtu is not None and mtu < ROCE_MIN_MTU:
            yield Hit(f"MTU {mtu} < {ROCE_MIN_MTU}", port=port.name, anchor="port.mtu")
    for svi in v.device.vlan_interfaces:
        mtu = v.gateway_mtu(svi)
        if mtu is not None and mtu < ROCE_MIN_MTU and v.gateway_carries_roce(svi.vlan):
            name = v.profile.vlan_interface + str(svi.vlan)
            yield Hit(f"gateway MTU {mtu} < {ROCE_MIN_MTU}", port=name)


def _frame_unpublished(v: DeviceView, port: Interface) -> bool:
    """A Layer-2 port with no frame-limit or MTU line on a model whose default frame limit no
    source gives (a model the profiles do not list, or a listed one whose default is not
    published): its MTU is that default, not a value read."""
    return (
        port.mode == "access" and port.frame_bytes is None and v.model.frame_default_bytes is None
    )


@rule(
    "RC116",
    "frame-limit-below-packet",
    "error",
    "device",
    summary="A port's Ethernet frame limit is below the IP MTU it must carry plus the framing.",
    rationale="Two settings bound the same traffic: the frame limit ('jumboframe enable' on "
    "H3C and Huawei, header and FCS included) and the IP MTU ('mtu' of a routed port or of the "
    "VLAN's gateway). A full-size IP packet needs a frame 18 bytes longer (22 with an 802.1Q "
    "tag): 'mtu 9216' with 'jumboframe enable 9216' drops every 9216-byte packet while both "
    "numbers look right.",
    fix="Set the frame limit to at least the IP MTU + 18 (+ 22 on a port that carries the VLAN "
    "tagged), or lower the MTU.",
    limits="A port without a frame-limit line is judged by the model's default frame limit "
    "where a source gives one (Huawei 9216, H3C S6850 9416); where none does, it is not judged.",
    reads=("mtu", "interfaces"),
)
def frame_below_packet(v: DeviceView) -> Iterator[Hit]:
    for port in v.config_ports("frame_bytes"):
        frame = port.frame_bytes or v.model.frame_default_bytes
        if frame is None:
            continue
        needs = [("its IP MTU", port.mtu, FRAME_OVERHEAD)] if port.mode == "routed" else []
        needs += _gateway_packets(v, port)
        for what, mtu, overhead in needs:
            if frame < mtu + overhead:
                yield Hit(
                    f"frame limit {frame} < {what} {mtu} + {overhead} bytes of framing",
                    port=port.name,
                    anchor="port.mtu",
                )


def _gateway_packets(v: DeviceView, port: Interface) -> list[tuple[str, int, int]]:
    """The IP MTU of each VLAN gateway whose packets leave through the Layer-2 ``port``: its
    access VLAN untagged, its trunk VLANs tagged."""
    out = []
    for svi in v.device.vlan_interfaces:
        name = f"gateway {v.profile.vlan_interface}{svi.vlan} MTU"
        if port.access_vlan == svi.vlan:
            out.append((name, svi.mtu, FRAME_OVERHEAD))
        elif numbers.contains(port.trunk_vlans, svi.vlan):
            out.append((name, svi.mtu, FRAME_OVERHEAD + TAG_BYTES))
    return out


@rule(
    "RC127",
    "mtu-default-unknown",
    "warning",
    "device",
    summary="Cannot verify the MTU of a RoCE routed port or gateway that prints none: the "
    "vendor's default MTU is in no source.",
    rationale="An interface that prints no MTU runs the vendor's default. Where no source gives "
    "it (ZXROS), 'too small' (RC113) or 'different from the far end' (RC304) would be a guess: "
    "both stay silent there and this names the interfaces.",
    fix="Set the MTU explicitly on every routed RoCE port and gateway (roce-cfg's generated "
    "configs do).",
    reads=("mtu", "interfaces", "vlan_interfaces", "aggregates"),
    verifies=False,
)
def mtu_default_unknown(v: DeviceView) -> Iterator[Hit]:
    unknown = set(v.device.mtu_unknown)
    if not unknown:
        return
    names = [p.name for p in v.roce_config_ports("frame_bytes") if p.name in unknown]
    for svi in v.device.vlan_interfaces:
        name = v.profile.vlan_interface + str(svi.vlan)
        if name in unknown and v.gateway_carries_roce(svi.vlan):
            names.append(name)
    if names:  # one finding per switch, naming the interfaces
        yield Hit(
            f"cannot verify: the MTU of {len(names)} RoCE interface(s) printing none "
            f"({some(names)}): "
            f"no source gives {v.device.vendor.value}'s default",
            port=names[0],
            detail=tuple(names),
        )
