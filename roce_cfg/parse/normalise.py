"""From the parse templates' common schema to a vendor-neutral DeviceConfig.

Every vendor's ``templates/<vendor>/parse/*.ttp`` emits the same keys (documented in
``docs/parse.md``); the differences that remain — size units, timer granularities, which
settings a vendor implies rather than prints — are read from the vendor profile, so this module
has no per-vendor branches.

``build`` reads the config's sections in order, each with its reader: the WRED tables and PFC
profiles, the watchdog (watchdog.py), splits and AI ECN, the ports (ports.py) with their
breakouts, aggregates and sub-interfaces, the device's QoS (qos.py), BGP (bgp.py), static
routes and M-LAG; all of them over one ``Context`` (context.py).
"""

from __future__ import annotations

from roce_cfg.model import numbers
from roce_cfg.model.device import DeviceConfig, Vlan
from roce_cfg.parse import (
    aggregates,
    ai_ecn,
    breakouts,
    mlag,
    pfc_profiles,
    scheduling,
    splits,
    statics,
    subinterfaces,
)
from roce_cfg.parse.bgp import read_bgp
from roce_cfg.parse.context import Context, Raw, Role, as_list
from roce_cfg.parse.ports import read_interfaces
from roce_cfg.parse.qos import read_qos, read_wred_tables
from roce_cfg.parse.readings import Globals
from roce_cfg.parse.watchdog import read_watchdog


def _vlans(ctx: Context, raw: Raw) -> tuple[Vlan, ...]:
    """Declared VLANs. Ranges from every 'vlan batch' / 'vlan A to B' line are merged before
    they are expanded: 99,000 lines of '2 to 4094' cost 99,000 pairs, not 405 million ids."""
    spans: list[tuple[int, int]] = []
    for batch in as_list(raw.get("vlan_batch")):
        spans.extend(ctx.ranges(batch.get("spec", ""), numbers.VLAN))
    names: dict[int, str] = {}
    for item in as_list(raw.get("vlans")):
        if "range" in item:
            spans.extend(ctx.ranges(item["range"], numbers.VLAN))
        elif "id" in item:
            vid = ctx.number(item["id"], numbers.VLAN, None)
            if vid is not None:
                names[vid] = str(item.get("name", ""))
    for vid in numbers.expand(numbers.merge(spans)):
        names.setdefault(vid, "")
    return tuple(Vlan(id=v, name=n) for v, n in sorted(names.items()))


def build(
    raw: Raw, ctx: Context, hostname: str, role: Role | None, speeds: dict[str, int]
) -> DeviceConfig:
    """One device from its sections: system, interfaces, QoS, VLANs, BGP, static routes.
    ``raw``'s interfaces are consumed."""
    systems = as_list(raw.get("system"))
    if systems and systems[0].get("hostname"):
        hostname = str(systems[0]["hostname"])
    else:
        ctx.notes.append(f"no hostname in the config; '{hostname}' taken from the file name")
    tables, profiles = read_wred_tables(ctx, raw)
    pfc = pfc_profiles.read(ctx, raw)
    _switch_frame(raw)
    declared = _vlans(ctx, raw)
    watchdog, every = read_watchdog(ctx, raw), numbers.of(v.id for v in declared)
    legs, marked = splits.read(ctx, raw), ai_ecn.queues(ctx, raw)
    g = Globals(tables, profiles, pfc.default, watchdog, every, speeds, pfc, legs, marked)
    found = read_interfaces(raw, ctx, g)
    found.ports = breakouts.split(ctx, found.ports, found.split)
    found.ports, lags = aggregates.resolve(ctx, found.ports, found.lag_lines)
    members = {a.name: a.members for a in lags}
    found.ports, subs = subinterfaces.resolve(ctx, found.ports, members)
    qos = read_qos(ctx, raw, g, found)
    bgp = read_bgp(ctx, raw, found.loopback)
    if role is None:
        has_access = any(p.mode == "access" for p in found.ports)
        role = ("leaf" if bgp else "switch") if has_access else "spine"
    static = statics.read(
        ctx, as_list(raw.get("static_routes")), as_list(raw.get("static_routes6"))
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
        aggregates=lags,
        mlag=mlag.read(ctx, raw),
        port_vrfs=tuple(found.vrfs),
        ipv6_ports=tuple(found.ipv6),
        sub_interfaces=subs,
        port_distances=tuple(found.distances),
        scheduling_unknown=scheduling.unknown_ports(found.unscheduled, found.ports),
        mtu_unknown=tuple(found.mtu_unknown),
    )


def _switch_frame(raw: Raw) -> None:
    """A switch-wide frame limit (ZXAN 'eth-switch max-frame-length') is the frame limit of
    every interface that states none of its own."""
    frames = as_list(raw.pop("frame", None))
    if not frames or "bytes" not in frames[-1]:
        return
    for item in as_list(raw.get("interfaces")):
        item.setdefault("frame", frames[-1]["bytes"])
