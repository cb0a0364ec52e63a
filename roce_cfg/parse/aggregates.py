"""Link aggregation: the members of each aggregate interface, and the settings the switch
applies from the aggregate to its members (vendors/<vendor>.yaml ``parse.aggregate``).

Huawei and H3C print MTU, trust and (H3C) scheduling on the aggregate and PFC on the members;
a reader that judged members alone saw MTU 1500 and untrusted DSCP on every member of a
correctly configured Eth-Trunk (issue 26: 132 false errors on three fabrics).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from roce_cfg.model import numbers
from roce_cfg.model.device import Aggregate, Interface, PortQos
from roce_cfg.platforms.profile import AggregateSpec

if TYPE_CHECKING:
    from roce_cfg.parse.normalise import Context

# the template keys of aggregation lines (templates/<vendor>/parse/interfaces.ttp)
KEYS = ("lag_group", "lag_min", "peer_link", "mlag_group")
_PORT_FIELDS = frozenset(Interface.model_fields) - {"qos", "name", "description", "shutdown"}
_QOS_FIELDS = frozenset(PortQos.model_fields)


def resolve(
    ctx: Context, ports: list[Interface], lines: dict[str, dict[str, Any]]
) -> tuple[list[Interface], tuple[Aggregate, ...]]:
    """The ports with members' inherited settings, and the device's aggregates."""
    spec = ctx.profile.parse.aggregate
    if spec is None or not lines:
        return ports, ()
    by_name = {p.name: p for p in ports}
    for name in lines:
        fixed = next((m for t, m in spec.modes.items() if name.startswith(t)), None)
        if fixed is not None and by_name[name].mode != fixed:
            by_name[name] = by_name[name].model_copy(
                update={"mode": fixed, "access_vlan": None, "trunk_vlans": ()}
            )
    members = _members(ctx, spec, by_name, lines)
    aggs: list[Aggregate] = []
    for name, raw in lines.items():
        if ctx.namer.name(name).kind != "aggregate":
            continue
        scope = name
        aggs.append(
            Aggregate(
                name=name,
                members=tuple(members.get(name, ())),
                min_active=max(1, ctx.number(raw.get("lag_min", 1), numbers.PATHS, 1, scope)),
                peer_link="peer_link" in raw,
                mlag_group=ctx.number(raw["mlag_group"], numbers.GROUP, None, scope)
                if "mlag_group" in raw
                else None,
            )
        )
    for agg in aggs:
        _apply(spec, by_name, agg)
    return [by_name[p.name] for p in ports], tuple(aggs)


def _members(
    ctx: Context,
    spec: AggregateSpec,
    by_name: dict[str, Interface],
    lines: dict[str, dict[str, Any]],
) -> dict[str, list[str]]:
    """aggregate -> its member ports, in the config's order."""
    out: dict[str, list[str]] = {}
    for name, raw in lines.items():
        if "lag_group" not in raw:
            continue
        group = str(raw["lag_group"]).strip()
        mode = by_name[name].mode
        # the member's own mode names its aggregate first (H3C: a Layer 3 member joins a
        # Route-Aggregation); the other form when only that one exists
        choices = [spec.names[mode], *(v for k, v in spec.names.items() if k != mode)]
        agg = next((c.format(n=group) for c in choices if c.format(n=group) in by_name), None)
        if agg is None:
            ctx.notes.append(f"{name}: member of aggregate group {group}, which the config lacks")
            continue
        out.setdefault(agg, []).append(name)
    return out


def _apply(spec: AggregateSpec, by_name: dict[str, Interface], agg: Aggregate) -> None:
    """Members take the aggregate's settings (``inherit``); the aggregate has what all of its
    members share of the settings that live on members only (``gather``) and their speed."""
    parent = by_name[agg.name]
    own = [f for f in spec.inherit if f in _PORT_FIELDS]
    own_qos = [f for f in spec.inherit if f in _QOS_FIELDS]
    for m in agg.members:
        port = by_name[m]
        qos = {f: getattr(parent.qos, f) or getattr(port.qos, f) for f in own_qos}
        by_name[m] = port.model_copy(
            update={**{f: getattr(parent, f) for f in own}, "qos": port.qos.model_copy(update=qos)}
        )
    members = [by_name[m] for m in agg.members]
    if not members:
        # no member carries its frames: the aggregate is down, whatever it is configured as
        by_name[agg.name] = parent.model_copy(update={"shutdown": True})
        return
    gathered: dict[str, Any] = {}
    for f in spec.gather:
        if f in _QOS_FIELDS and not getattr(parent.qos, f):
            shared = set.intersection(*(set(getattr(p.qos, f)) for p in members))
            gathered[f] = tuple(sorted(shared))
    speed = sum(p.speed_gbps for p in members if not p.shutdown)
    by_name[agg.name] = parent.model_copy(
        update={
            "qos": parent.qos.model_copy(update=gathered),
            "speed_gbps": min(speed, numbers.SPEED.high) or parent.speed_gbps,
        }
    )
