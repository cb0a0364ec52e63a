"""From the parse templates' common schema to a vendor-neutral DeviceConfig.

Every vendor's ``templates/<vendor>/parse/*.ttp`` emits the same keys (documented in
``docs/parse.md``); the differences that remain — size units, timer granularities, which
settings a vendor implies rather than prints — are read from the vendor profile, so this module
has no per-vendor branches.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from ipaddress import IPv4Address, IPv4Interface, IPv4Network
from typing import Any, Literal

from roce_cfg.model import describe
from roce_cfg.model.device import (
    FRAME_OVERHEAD,
    TAG_BYTES,
    Bgp,
    BgpNeighbor,
    DeviceConfig,
    DscpMap,
    EcnQueue,
    Interface,
    Loopback,
    PortQos,
    PriorityBytes,
    Qos,
    QueueMap,
    StaticRoute,
    Vlan,
    VlanInterface,
    WatchdogCfg,
)
from roce_cfg.parse.names import Name, Namer
from roce_cfg.platforms.profile import ModelSpec, VendorProfile

Raw = dict[str, Any]
Role = Literal["leaf", "spine", "superspine", "switch"]


class Unreadable(ValueError):
    """A value in the config that cannot mean what the model needs (bad address, bad range)."""


@dataclass
class Context:
    profile: VendorProfile
    model_name: str
    model: ModelSpec
    namer: Namer
    notes: list[str] = field(default_factory=list)


def as_list(value: Any) -> list[Raw]:
    if value is None:
        return []
    if isinstance(value, list):
        return [v for v in value if isinstance(v, dict) and v]
    return [value] if isinstance(value, dict) and value else []


def _ints(text: Any) -> list[int]:
    """'3', '3 4', '2 5 to 6', '10-12' -> the integers they name.

    >>> _ints("2 5 to 7 10-11")
    [2, 5, 6, 7, 10, 11]
    """
    out: list[int] = []
    tokens = str(text).replace(",", " ").split()
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if i + 2 < len(tokens) and tokens[i + 1] == "to":
            a, b = int(tokens[i]), int(tokens[i + 2])
            out.extend(range(a, b + 1))
            i += 3
            continue
        if re.fullmatch(r"\d+-\d+", tok):
            a, b = (int(x) for x in tok.split("-"))
            out.extend(range(a, b + 1))
        elif tok.isdigit():
            out.append(int(tok))
        else:
            raise Unreadable(f"'{text}' is not a list of numbers")
        i += 1
    return out


@cache
def _prefixlen(mask: str) -> int:
    return IPv4Network(f"0.0.0.0/{mask}").prefixlen


def _iface_addr(ip: str, mask: str) -> IPv4Interface:
    try:
        return IPv4Interface((ip, _prefixlen(mask)))
    except ValueError:
        raise Unreadable(f"'{ip} {mask}' is not an IPv4 address and mask") from None


def _size(ctx: Context, value: int, unit_word: str | None, default: int | Literal["cell"]) -> int:
    unit: int | Literal["cell"] = default
    if unit_word:
        if unit_word not in ctx.profile.parse.sizes:
            raise Unreadable(f"unknown size unit '{unit_word}'")
        unit = ctx.profile.parse.sizes[unit_word]
    return value * ctx.profile.unit_bytes(unit, ctx.model)


def merge_interfaces(raw: list[Raw], namer: Namer) -> dict[str, tuple[Name, Raw]]:
    """One entry per interface; ZXROS prints an interface twice (if-intf and switchvlan)."""
    merged: dict[str, tuple[Name, Raw]] = {}
    for item in raw:
        if "name" not in item:
            continue
        name = namer.name(str(item["name"]))
        if name.canonical in merged:
            merged[name.canonical][1].update({k: v for k, v in item.items() if k != "name"})
        else:
            merged[name.canonical] = (name, dict(item))
    return merged


def _strict(ctx: Context, item: Raw) -> tuple[int, ...]:
    queues: set[int] = set()
    names = ctx.profile.queue_names
    for entry in as_list(item.get("strict")):
        if "name" in entry:
            word = str(entry["name"])
            if word not in names:
                raise Unreadable(f"unknown queue name '{word}' (known: {', '.join(names)})")
            queues.add(names.index(word))
        elif "queue" in entry:
            queues.add(int(entry["queue"]))
    if "drr_last" in item:
        # Queues outside the DRR range are strict priority [HW-CR qos_pq_drr.json].
        queues.update(range(int(item["drr_last"]) + 1, len(names)))
    return tuple(sorted(queues))


def _listed(item: Raw, key: str) -> list[int]:
    """Numbers from repeated lines ('pfc priority 3 no-drop' twice, or '... dot1p 3 4')."""
    out: list[int] = []
    for entry in as_list(item.get(key)):
        out.extend(_ints(entry.get("values", entry.get("queue", ""))))
    return out


@dataclass
class Wred:
    min_bytes: int
    max_bytes: int
    probability: int


def _wred_tables(ctx: Context, raw: Raw) -> tuple[dict[str, dict[int, Wred]], dict[str, Wred]]:
    """Per-queue tables (queue -> thresholds, ECN queues only) and ECN profiles by name."""
    tables: dict[str, dict[int, Wred]] = {}
    profiles: dict[str, Wred] = {}
    unit = ctx.profile.ecn_unit_bytes
    for item in as_list(raw.get("wred")):
        name = str(item.get("name", ""))
        entries = as_list(item.get("entries"))
        if entries:
            ecn = {int(f["queue"]) for f in as_list(item.get("ecn_flags"))}
            tables[name] = {
                int(e["queue"]): Wred(
                    _size(ctx, int(e["min"]), None, unit),
                    _size(ctx, int(e["max"]), None, unit),
                    int(e["probability"]),
                )
                for e in entries
                if int(e["queue"]) in ecn
            }
        elif item.get("ecn") and "min" in item:
            profiles[name] = Wred(
                _size(ctx, int(item["min"]), None, unit),
                _size(ctx, int(item["max"]), None, unit),
                int(item["probability"]),
            )
    return tables, profiles


def _ecn_queues(
    ctx: Context, item: Raw, tables: dict[str, dict[int, Wred]], profiles: dict[str, Wred]
) -> dict[int, Wred]:
    out: dict[int, Wred] = {}
    table = item.get("wred_table")
    if table:
        out.update(tables.get(str(table), {}))
    flagged = set(_listed(item, "ecn_flags"))
    for bind in as_list(item.get("queue_profiles")):
        queue, prof = int(bind["queue"]), str(bind["profile"])
        if prof not in profiles:
            continue
        if ctx.profile.parse.port_ecn_needs_queue_flag and queue not in flagged:
            continue
        out[queue] = profiles[prof]
    return out


def _breakout_parent(ctx: Context, name: Name) -> str | None:
    if ":" not in name.number:
        return None
    base = name.number.split(":")[0]
    for group in ctx.model.ports:
        pattern = re.escape(group.label).replace(re.escape("{n}"), r"(\d+)")
        m = re.fullmatch(pattern, base)
        if m and group.first <= int(m[1]) < group.first + group.count:
            return ctx.profile.interface_prefix[group.speed] + base
    return None


def _watchdog(ctx: Context, raw: Raw) -> WatchdogCfg | None:
    actions = ctx.profile.parse.watchdog_actions
    entries = as_list(raw.get("watchdog_entries"))
    if entries:
        first = entries[0]
        action = str(first.get("action", ""))
        if action not in actions:
            raise Unreadable(f"unknown watchdog action '{action}'")
        return WatchdogCfg(
            detect_ms=int(first["detect_ms"]),
            restore_ms=int(first["restore_ms"]),
            action=actions[action],
        )
    timer = as_list(raw.get("watchdog_timer"))
    if timer:  # milliseconds given directly (Huawei 'dcb pfc deadlock-detect timer')
        action_raw = as_list(raw.get("watchdog_action"))
        word = str(action_raw[0].get("action", "")) if action_raw else ""
        if word not in actions:
            raise Unreadable(f"unknown or missing watchdog action '{word}'")
        recovery = as_list(raw.get("watchdog_recovery_timer"))
        return WatchdogCfg(
            detect_ms=int(timer[0]["detect_ms"]),
            restore_ms=int(recovery[0]["restore_ms"]) if recovery else 0,
            action=actions[word],
        )
    detect = as_list(raw.get("watchdog_detect"))
    restore = as_list(raw.get("watchdog_restore"))
    gran = as_list(raw.get("watchdog"))
    if not (detect or gran):
        return None
    granularities = ctx.profile.watchdog_timer.granularities_ms
    word = str(gran[0].get("granularity", "")) if gran else ""
    if word in granularities:
        unit = granularities[word]
    elif word.isdigit() and int(word) in granularities.values():
        unit = int(word)
    else:
        raise Unreadable(f"unknown watchdog granularity '{word}'")
    action_raw = as_list(raw.get("watchdog_action"))
    action = str(action_raw[0].get("action", "")) if action_raw else ""
    if action not in actions:
        raise Unreadable(f"unknown or missing watchdog action '{action}'")
    if not detect:
        raise Unreadable("watchdog granularity set but no detection time")
    return WatchdogCfg(
        detect_ms=int(detect[0]["steps"]) * unit,
        restore_ms=int(restore[0]["steps"]) * unit if restore else 0,
        action=actions[action],
    )


def _maps(ctx: Context, raw: Raw) -> tuple[tuple[DscpMap, ...], tuple[QueueMap, ...]]:
    dscp: dict[int, int] = {}
    queue: dict[int, int] = {}
    names = ctx.profile.queue_names
    for group in as_list(raw.get("maps")):
        table = str(group.get("table", ""))
        for entry in as_list(group.get("entries")) or [group]:
            if "from" not in entry:
                continue
            sources = _ints(entry["from"])
            to_raw = str(entry["to"])
            if table == "dscp_phb":
                if to_raw not in names:
                    raise Unreadable(f"unknown PHB '{to_raw}' (known: {', '.join(names)})")
                q = names.index(to_raw)
                for d in sources:
                    dscp[d] = q
                queue[q] = q
                continue
            targets = _ints(to_raw)
            if len(targets) == 1:
                targets = targets * len(sources)
            if len(targets) != len(sources):
                raise Unreadable(f"map '{entry['from']} to {to_raw}' pairs unequal lists")
            target = dscp if table == "dscp_priority" else queue
            target.update(zip(sources, targets, strict=True))
    return (
        tuple(DscpMap(dscp=d, priority=p) for d, p in sorted(dscp.items())),
        tuple(QueueMap(priority=p, queue=q) for p, q in sorted(queue.items())),
    )


def _vlans(raw: Raw) -> tuple[Vlan, ...]:
    names: dict[int, str] = {}
    for batch in as_list(raw.get("vlan_batch")):
        for vid in _ints(batch.get("spec", "")):
            names.setdefault(vid, "")
    for item in as_list(raw.get("vlans")):
        if "range" in item:
            for vid in _ints(item["range"]):
                names.setdefault(vid, "")
        elif "id" in item:
            names[int(item["id"])] = str(item.get("name", ""))
    return tuple(Vlan(id=v, name=n) for v, n in sorted(names.items()))


def _bgp(raw: Raw, loopback: Loopback | None, notes: list[str]) -> Bgp | None:
    items = as_list(raw.get("bgp"))
    if not items:
        return None
    b = items[0]
    descr = {str(d["address"]): str(d["description"]) for d in as_list(b.get("descriptions"))}
    neighbors = tuple(
        BgpNeighbor(
            address=IPv4Address(str(p["address"])),
            remote_as=int(p["remote_as"]),
            description=descr.get(str(p["address"]), ""),
        )
        for p in as_list(b.get("peers"))
    )
    if "router_id" in b:
        router_id = IPv4Address(str(b["router_id"]))
    elif loopback is not None:
        router_id = loopback.ipv4.ip
        notes.append("bgp router-id not set; the switch picks one (loopback assumed)")
    else:
        raise Unreadable("bgp has no router-id and there is no loopback to take it from")
    networks = tuple(
        IPv4Network(f"{n['ip']}/{n['mask']}", strict=False) for n in as_list(b.get("networks"))
    )
    return Bgp(
        asn=int(b["asn"]),
        router_id=router_id,
        neighbors=neighbors,
        networks=networks,
        max_paths=int(b.get("max_paths", 1)),
    )


def _first_int(item: Raw, keys: tuple[str, ...], default: int) -> int:
    for key in keys:
        if key in item:
            return int(item[key])
    return default


def _union(values: Iterable[tuple[int, ...]]) -> tuple[int, ...]:
    out: set[int] = set()
    for v in values:
        out.update(v)
    return tuple(sorted(out))


def vlan_list(text: str, every: tuple[int, ...] = ()) -> tuple[int, ...]:
    """A trunk's VLAN list as printed: '101 200', '2 5 to 6' (H3C [H3C-TPL-B] port trunk permit
    vlan, Huawei [HW-CG] port trunk allow-pass vlan) or '101-104,200' (ZTE [ZTE-GUIDE]
    switchport trunk vlan). 'all' ([HW-CR] "port trunk allow-pass vlan" takes it; H3C prints
    it) is ``every`` VLAN the switch has: a trunk forwards only VLANs that exist. Anything
    unreadable gives nothing (not modelled).

    >>> vlan_list("2 5 to 7 101-102,200")
    (2, 5, 6, 7, 101, 102, 200)
    >>> vlan_list("all", (1, 101, 200))
    (1, 101, 200)
    """
    if text.split() == ["all"]:
        return every
    words = text.replace(",", " ").replace("-", " to ").split()
    vlans: set[int] = set()
    i = 0
    while i < len(words):
        if not words[i].isdigit():
            return ()
        low = high = int(words[i])
        if i + 2 < len(words) and words[i + 1] == "to" and words[i + 2].isdigit():
            high = int(words[i + 2])
            i += 2
        vlans.update(v for v in range(low, high + 1) if 1 <= v <= 4094)
        i += 1
    return tuple(sorted(vlans))


@dataclass(frozen=True)
class _Globals:
    """What the config states once and its ports refer to."""

    tables: dict[str, dict[int, Wred]]
    profiles: dict[str, Wred]
    no_drop: tuple[int, ...]
    watchdog: WatchdogCfg | None
    every_vlan: tuple[int, ...]
    speeds: dict[str, int]


@dataclass
class _Ports:
    loopback: Loopback | None = None
    ports: list[Interface] = field(default_factory=list)
    svis: list[VlanInterface] = field(default_factory=list)
    ecn: dict[int, Wred] = field(default_factory=dict)


def build(
    raw: Raw, ctx: Context, hostname: str, role: Role | None, speeds: dict[str, int]
) -> DeviceConfig:
    """One device from its sections: system, interfaces, QoS, VLANs, BGP, static routes."""
    systems = as_list(raw.get("system"))
    if systems and systems[0].get("hostname"):
        hostname = str(systems[0]["hostname"])
    else:
        ctx.notes.append(f"no hostname in the config; '{hostname}' taken from the file name")
    tables, profiles = _wred_tables(ctx, raw)
    pfc_global = as_list(raw.get("pfc"))
    global_no_drop = tuple(sorted(_ints(pfc_global[0].get("no_drop", "")))) if pfc_global else ()
    declared = _vlans(raw)
    g = _Globals(tables, profiles, global_no_drop, _watchdog(ctx, raw),
                 tuple(v.id for v in declared), speeds)  # fmt: skip
    found = _interfaces(raw, ctx, g)
    qos = _qos(ctx, raw, g, found)
    bgp = _bgp(raw, found.loopback, ctx.notes)
    if role is None:
        has_access = any(p.mode == "access" for p in found.ports)
        role = ("leaf" if bgp else "switch") if has_access else "spine"
    static = tuple(
        StaticRoute(
            prefix=IPv4Network(f"{r['prefix']}/{r['mask']}", strict=False),
            next_hop=IPv4Address(str(r["next_hop"])),
        )
        for r in as_list(raw.get("static_routes"))
    )
    return DeviceConfig(
        hostname=hostname,
        vendor=ctx.profile.vendor,
        model=ctx.model_name,
        role=role,
        lldp=bool(as_list(raw.get("lldp"))),
        loopback=found.loopback,
        interfaces=tuple(found.ports),
        vlans=declared,
        vlan_interfaces=tuple(sorted(found.svis, key=lambda s: s.vlan)),
        qos=qos,
        bgp=bgp,
        static_routes=static,
    )


def _interfaces(raw: Raw, ctx: Context, g: _Globals) -> _Ports:
    """Loopback, VLAN interfaces and ports, in the config's order."""
    found = _Ports()
    loop_name = ctx.namer.name(ctx.profile.loopback_interface).canonical
    for name, item in merge_interfaces(as_list(raw.get("interfaces")), ctx.namer).values():
        addr = _iface_addr(item["ip"], item["mask"]) if "ip" in item and "mask" in item else None
        if name.kind == "loopback":
            if addr is None:
                ctx.notes.append(f"{name.canonical}: loopback without an address, ignored")
            elif found.loopback is None or name.canonical == loop_name:
                if found.loopback is not None:
                    ctx.notes.append(f"{found.loopback.name}: second loopback, not modelled")
                found.loopback = Loopback(name=name.canonical, ipv4=addr)
            else:
                ctx.notes.append(f"{name.canonical}: second loopback, not modelled")
        elif name.kind == "vlan":
            if addr is None:
                ctx.notes.append(f"{name.canonical}: VLAN interface without an address, ignored")
                continue
            mtu = _first_int(item, ("mtu",), ctx.profile.parse.default_mtu)
            found.svis.append(
                VlanInterface(
                    vlan=int(name.number),
                    ipv4=addr,
                    mtu=mtu,
                    description=str(item.get("description", "")),
                )
            )
        else:
            found.ports.append(_port(ctx, g, name, item, addr, found.ecn))
    return found


def _port(
    ctx: Context,
    g: _Globals,
    name: Name,
    item: dict[str, Any],
    addr: IPv4Interface | None,
    ecn: dict[int, Wred],
) -> Interface:
    """One switch port; the WRED profiles its queues apply join ``ecn``."""
    spec = ctx.profile.parse
    if item.get("routed"):
        mode: Literal["routed", "access"] = "routed"
    elif item.get("switched") or "access_vlan" in item:
        mode = "access"
    else:
        mode = spec.default_port_mode
    frame = int(item["frame"]) if "frame" in item else None
    description = str(item.get("description", ""))
    return Interface(
        name=name.canonical,
        description=description,
        mode=mode,
        access_vlan=int(item.get("access_vlan", 1)) if mode == "access" else None,
        trunk_vlans=vlan_list(str(item.get("trunk_vlans", "")), g.every_vlan)
        if mode == "access"
        else (),
        ipv4=addr,
        mtu=_ip_mtu(ctx, item, mode, frame),
        frame_bytes=frame,
        speed_gbps=g.speeds.get(name.canonical) or describe.speed(description) or name.speed or 0,
        breakout_of=_breakout_parent(ctx, name),
        shutdown=bool(item.get("shutdown")),
        qos=_port_qos(ctx, g, item, mode, ecn),
    )


def _ip_mtu(ctx: Context, item: dict[str, Any], mode: str, frame: int | None) -> int:
    """The IP MTU of a port: its 'mtu' (packet) line; of a Layer-2 port without one, the packet
    its frame limit (or the model's default frame limit) carries in a tagged frame."""
    carried = frame or ctx.model.frame_default_bytes
    if mode == "access" and "mtu" not in item and carried is not None:
        return carried - FRAME_OVERHEAD - TAG_BYTES
    return _first_int(item, ("mtu",), ctx.profile.parse.default_mtu)


def _port_qos(
    ctx: Context, g: _Globals, item: dict[str, Any], mode: str, ecn: dict[int, Wred]
) -> PortQos:
    spec = ctx.profile.parse
    pfc = bool(item.get("pfc") or item.get("pfc_mode"))
    port_ecn = _ecn_queues(ctx, item, g.tables, g.profiles)
    ecn.update(port_ecn)
    no_drop = tuple(sorted(set(_listed(item, "no_drop"))))
    if pfc and not no_drop:
        # the default PFC profile's priorities are not printed (Huawei 'dcb pfc': 3)
        no_drop = g.no_drop or spec.defaults.pfc_no_drop
    implied_wd = spec.port_watchdog_implied and pfc and g.watchdog is not None
    return PortQos(
        # a routed port may trust DSCP without saying so (Huawei Layer-3 ports)
        trust_dscp=bool(item.get("trust_dscp")) or (mode == "routed" and spec.routed_trusts_dscp),
        pfc=pfc,
        no_drop=no_drop,
        headroom=_per_priority(ctx, item.get("headroom")),
        xoff=_per_priority(ctx, item.get("xoff")),
        watchdog=bool(item.get("watchdog")) or implied_wd,
        ecn_queues=tuple(sorted(port_ecn)),
        strict_queues=_strict(ctx, item),
    )


def _per_priority(ctx: Context, items: Any) -> tuple[PriorityBytes, ...]:
    """Per-priority sizes (headroom, XOFF) in the vendor's unit, as bytes."""
    unit = ctx.profile.headroom_unit_bytes
    return tuple(
        PriorityBytes(
            priority=int(h["priority"]), bytes=_size(ctx, int(h["value"]), h.get("unit"), unit)
        )
        for h in as_list(items)
    )


def _qos(ctx: Context, raw: Raw, g: _Globals, found: _Ports) -> Qos:
    """The device-wide QoS: maps, no-drop priorities, watchdog, ECN, strict queues, pool."""
    dscp_map, queue_map = _maps(ctx, raw)
    pools = as_list(raw.get("pool"))
    pool = _size(ctx, int(pools[0]["value"]), pools[0].get("unit"), 1) if pools else None
    ports = found.ports
    return Qos(
        dscp_map=dscp_map,
        queue_map=queue_map,
        no_drop=g.no_drop or _union(p.qos.no_drop for p in ports if p.qos.pfc),
        watchdog=g.watchdog,
        ecn=tuple(
            EcnQueue(
                queue=q, min_bytes=w.min_bytes, max_bytes=w.max_bytes, probability=w.probability
            )
            for q, w in sorted(found.ecn.items())
        ),
        strict_queues=_union(p.qos.strict_queues for p in ports),
        headroom_pool_bytes=pool,
    )
