"""Interfaces: the loopback, VLAN interfaces and ports in the config's order, an interface printed
twice merged into one, each port's mode, VLANs, MTU, speed and breakout parent. Ports repeat
the same lines but for their own (name, description, address): those are read once per config
and the ports after the first are assembled from the first (model/fast.py).
"""

from __future__ import annotations

import pickle
import re
from ipaddress import IPv4Interface, IPv6Interface
from typing import Any, Literal

from roce_cfg.model import describe, numbers
from roce_cfg.model.device import (
    Interface,
    Loopback,
    PortDistance,
    PortVrf,
    VlanInterface,
    lean,
    packet_for,
    updated,
)
from roce_cfg.parse import aggregates, ipv6, peer_links, scheduling, splits
from roce_cfg.parse.context import Context, Raw, as_list
from roce_cfg.parse.names import Name, Namer
from roce_cfg.parse.qos import read_port_qos
from roce_cfg.parse.readings import Globals, PortLines, PortsFound, Wred
from roce_cfg.parse.values import first_int, port_address, port_number


def merge_interfaces(raw: list[Raw], namer: Namer) -> dict[str, tuple[Name, Raw]]:
    """One entry per interface; ZXROS prints an interface twice (if-intf and switchvlan), and
    an interface range's lines come as a block of each of its ports (parse/ranges.py). Lines
    read into a list (a block's 'qos wfq <q> group sp' lines) join the other block's list."""
    merged: dict[str, tuple[Name, Raw]] = {}
    for item in raw:
        if "name" not in item:
            continue
        name = namer.name(str(item["name"]))
        if name.canonical in merged:
            into = merged[name.canonical][1]
            for key, value in item.items():
                before = into.get(key)
                if isinstance(before, list) and isinstance(value, list):
                    into[key] = [*before, *value]
                elif key != "name":
                    into[key] = value
        else:
            merged[name.canonical] = (name, dict(item))
    return merged


def _breakout_parent(ctx: Context, name: Name) -> str | None:
    if ":" not in name.number:
        return None
    base = name.number.split(":")[0]
    for group in ctx.model.ports:
        if not group.has_legs_named(name.speed):
            continue
        pattern = re.escape(group.label).replace(re.escape("{n}"), r"(\d+)")
        m = re.fullmatch(pattern, base)
        if m and group.first <= port_number(m[1]) < group.first + group.count:
            return ctx.profile.interface_prefix[group.speed] + base
    return None


def _trunk(ctx: Context, item: Raw, every: numbers.Ranges, scope: str) -> numbers.Ranges:
    """A trunk's VLANs as printed: '101 200', '2 5 to 6' (H3C [H3C-TPL-B] port trunk permit
    vlan, Huawei [HW-CG] port trunk allow-pass vlan) or '101-104,200' (ZTE [ZTE-GUIDE]
    switchport trunk vlan). 'all' ([HW-CR] "port trunk allow-pass vlan" takes it; H3C prints
    it) is ``every`` VLAN the switch has: a trunk forwards only VLANs that exist. One entry
    per line (``trunk_lists``; an overlay template may still join them into ``trunk_vlans``):
    the lines' ranges are merged, never a string of all of them built."""
    lists = [e.get("vlans", "") for e in as_list(item.get("trunk_lists"))]
    if "trunk_vlans" in item:
        lists.append(item["trunk_vlans"])
    permitted = numbers.merge(
        r for text in lists for r in ctx.ranges(text, numbers.VLAN, scope, every)
    )
    # 'undo port trunk permit vlan 1' [H3C-TPL-B]: the VLANs named leave the permitted set
    removed = [e.get("vlans", "") for e in as_list(item.get("trunk_removed"))]
    if not removed:
        return permitted
    gone = numbers.merge(
        r for text in removed for r in ctx.ranges(text, numbers.VLAN, scope, every)
    )
    return numbers.without(permitted, gone)


def read_interfaces(raw: Raw, ctx: Context, g: Globals) -> PortsFound:
    """Loopback, VLAN interfaces and ports, in the config's order."""
    found = PortsFound()
    loop_name = ctx.namer.name(ctx.profile.loopback_interface).canonical
    # Taken out of ``raw`` and dropped as their ports are built: the templates' items and the
    # models of 100,000 ports are not all held at once (the parse's memory peak).
    merged = merge_interfaces(as_list(raw.pop("interfaces", None)), ctx.namer)
    for key in list(merged):
        name, item = merged.pop(key)
        if "vrf" in item:
            found.vrfs.append(PortVrf(port=name.canonical, vrf=str(item["vrf"])))
        metres = _distance(ctx, item, name.canonical)
        if metres is not None:
            found.distances.append(PortDistance(port=name.canonical, metres=metres))
        addr = (
            port_address(ctx, item["ip"], item["mask"], name.canonical)
            if "ip" in item and "mask" in item
            else None
        )
        addr6 = ipv6.of_item(ctx, item, name.canonical) if "ip6s" in item else None
        if name.kind == "loopback":
            if addr is None and addr6 is None:
                ctx.notes.append(f"{name.canonical}: loopback without an address, ignored")
            elif found.loopback is None or name.canonical == loop_name:
                if found.loopback is not None:
                    ctx.notes.append(f"{found.loopback.name}: second loopback, not modelled")
                found.loopback = Loopback(name=name.canonical, ipv4=addr, ipv6=addr6)
            else:
                ctx.notes.append(f"{name.canonical}: second loopback, not modelled")
        elif name.kind == "vlan":
            _svi(ctx, name, item, (addr, addr6), found)
        else:
            port = _port(ctx, g, name, item, addr, found.ecn)
            if scheduling.unknown(ctx.profile, item):
                found.unscheduled.append(port.name)
            if port.mode == "routed" and _mtu_defaulted(ctx, item):
                found.mtu_unknown.append(port.name)
            if addr6 is not None or "mtu6" in item:
                found.ipv6.append(ipv6.entry(ctx, item, port.name, addr6))
            found.ports.append(ipv6.port(ctx, port, item, addr6) if addr6 else port)
            lag = {k: item[k] for k in aggregates.KEYS if k in item}
            if lag or name.kind == "aggregate":
                # what the port prints: which settings it and its aggregate give each other
                found.lag_lines[name.canonical] = {**lag, aggregates.PRINTED: frozenset(item)}
            if "split" in item:
                found.split[name.canonical] = str(item["split"])
    return found


def _svi(
    ctx: Context,
    name: Name,
    item: Raw,
    addrs: tuple[IPv4Interface | None, IPv6Interface | None],
    found: PortsFound,
) -> None:
    """A VLAN interface, when it has an address and its number is a VLAN."""
    scope = name.canonical
    vid = ctx.number(name.number, numbers.VLAN, None, scope)
    mtu = first_int(ctx, item, ("mtu",), ctx.profile.parse.default_mtu, scope)
    addr, addr6 = addrs
    if addr6 is not None:
        mtu = ipv6.mtu(ctx, item, scope, mtu, both=addr is not None)
    if vid is None:
        return  # its line is unread
    if addr is None and addr6 is None:
        ctx.notes.append(f"{scope}: VLAN interface without an address, ignored")
        return
    description = str(item.get("description", ""))
    found.svis.append(
        VlanInterface(vlan=vid, ipv4=addr, mtu=mtu, description=description, ipv6=addr6)
    )
    if _mtu_defaulted(ctx, item):
        found.mtu_unknown.append(ctx.profile.vlan_interface + str(vid))


def _mtu_defaulted(ctx: Context, item: Raw) -> bool:
    """An interface that prints no MTU, on a vendor whose default MTU no source gives."""
    unsourced = ctx.profile.parse.default_mtu_source is None
    return unsourced and "mtu" not in item and "mtu6" not in item


def _port(
    ctx: Context,
    g: Globals,
    name: Name,
    item: dict[str, Any],
    addr: IPv4Interface | None,
    ecn: dict[int, Wred],
) -> Interface:
    """One switch port; the WRED profiles its queues apply join ``ecn``."""
    description = str(item.get("description", ""))
    hinted = g.speeds.get(name.canonical)
    read = _port_lines(ctx, g, item, name.canonical, bool(hinted))
    ecn.update(read.ecn)
    parent = splits.parent_of(name.canonical, g.splits) or _breakout_parent(ctx, name)
    # a leg's speed is its split line's: its name may be its parent's type ('400GE1/0/7:1')
    split = g.splits.get(parent) if parent else None
    speed = hinted or read.speed or split or describe.speed(description) or name.speed or 0
    own = {
        "name": name.canonical,
        "description": description,
        "ipv4": addr,
        "speed_gbps": speed,
        "breakout_of": parent,
    }
    first = read.port
    if first is not None and type(speed) is int and 0 <= speed <= numbers.SPEED.high:
        # the port's own values are of their fields' types (a name, words, an address), its
        # speed checked above; the rest is the first port's, validated once
        return updated(first, own)
    port = lean(
        Interface(
            mode=read.mode,
            access_vlan=read.access_vlan,
            trunk_vlans=read.trunk_vlans,
            mtu=read.mtu,
            frame_bytes=read.frame,
            shutdown=read.shutdown,
            qos=read.qos,
            **own,
        )
    )
    if first is None:
        read.port = port
    return port


# Every key of a port's template output that is the port's own (its name, its words, its
# address); what the others say is read once per config for every port that repeats them.
_OWN_KEYS = frozenset(("name", "description", "ip", "mask", *ipv6.OWN_KEYS))
# distinct port readings a config keeps: its ports mostly repeat a handful of sets of lines; a
# hostile config of 100,000 different ones is read port by port past these
MAX_PORT_READINGS = 1024


def _port_lines(ctx: Context, g: Globals, item: Raw, scope: str, hinted: bool) -> PortLines:
    """The port's reading; the 130 ports of an xl leaf repeat the same lines but for their
    names, descriptions and addresses, and reading each port's was a third of its parse (issue
    30). A reading that refused a value is not reused: that is reported per port, on its line."""
    # pickled, not repr'd (a third of the cost): equal bytes are equal values of equal types
    rest = {k: v for k, v in item.items() if k not in _OWN_KEYS}
    key = (hinted, pickle.dumps(rest, pickle.HIGHEST_PROTOCOL))
    found = ctx.port_readings.get(key)
    if found is None:
        reports = ctx.reports
        found = _read_port_lines(ctx, g, item, scope, hinted)
        if ctx.reports == reports and len(ctx.port_readings) < MAX_PORT_READINGS:
            ctx.port_readings[key] = found
    return found


def _read_port_lines(ctx: Context, g: Globals, item: Raw, scope: str, hinted: bool) -> PortLines:
    spec = ctx.profile.parse
    # a sub-interface terminating dot1q is a Layer 3 one ([HW-CR] dot1q termination vid: in
    # the sub-interface views; a Layer 2 sub-interface is another form)
    if item.get("routed") or "dot1q_vid" in item:
        mode: Literal["routed", "access"] = "routed"
    elif item.get("switched") or "access_vlan" in item:
        mode = "access"
    else:
        mode = spec.default_port_mode
    # read in the order the lines' refused values were always reported in
    frame = ctx.number(item["frame"], numbers.FRAME, None, scope) if "frame" in item else None
    access = mode == "access"
    access_vlan = ctx.number(item.get("access_vlan", 1), numbers.VLAN, 1, scope) if access else None
    trunk = _trunk(ctx, item, g.every_vlan, scope) if access else ()
    peer = peer_links.carried(ctx, item, g.every_vlan, scope) if access else None
    trunk = trunk if peer is None else peer
    mtu = _ip_mtu(ctx, item, mode, frame, scope)
    # a hinted speed wins: the port's own speed line is then not read (nor refused)
    speed = None if hinted else _configured_speed(ctx, item, scope)
    qos, ecn = read_port_qos(ctx, g, item, mode, scope)
    return PortLines(
        mode, access_vlan, trunk, mtu, frame, speed, bool(item.get("shutdown")), qos, ecn
    )


def _distance(ctx: Context, item: Raw, scope: str) -> int | None:
    """The link length the port's own config bounds ('long-distance mode level-100': 100 km,
    ``parse.distance_levels``); None when it does not say, or (its line unread) says a word
    that is no level."""
    word = item.get("distance_level")
    if word is None:
        return None
    metres = ctx.profile.parse.distance_levels.get(str(word))
    if metres is None:
        ctx.unreadable(f"unknown link distance level '{word}'", str(word), scope)
    return metres


def _configured_speed(ctx: Context, item: Raw, scope: str) -> int | None:
    """The speed the port's own lines set ('speed 40000' in Mb/s, 'port mode 10G'): what it
    runs at, whatever its cage's name says (a 400G cage may hold a 100G module)."""
    if "speed_mbps" in item:
        mbps = ctx.number(item["speed_mbps"], numbers.SPEED_MBPS, None, scope)
        return mbps // 1000 if mbps is not None and mbps >= 1000 else None
    return ctx.profile.parse.port_modes.get(str(item.get("port_mode", "")))


def _ip_mtu(ctx: Context, item: dict[str, Any], mode: str, frame: int | None, scope: str) -> int:
    """The IP MTU of a port: its 'mtu' (packet) line; of a Layer-2 port without one, the packet
    its frame limit (or the model's default frame limit) carries in a tagged frame."""
    carried = frame or ctx.model.frame_default_bytes
    if mode == "access" and "mtu" not in item and carried is not None:
        return packet_for(carried)
    return first_int(ctx, item, ("mtu",), ctx.profile.parse.default_mtu, scope)
