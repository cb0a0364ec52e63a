"""Link aggregation: the members of each aggregate interface, and which settings the aggregate
and its members take from each other (vendors/<vendor>.yaml ``parse.aggregate``).

A setting the aggregate prints is the members' too, where the vendor gives members its settings
(``inherit``: Huawei and H3C synchronise an aggregate's MTU, trust, mode and VLANs to its
members); a setting the aggregate does not print and its members do is the aggregate's as its
members have it (``gather``: CloudEngine schedules per physical port only; H3C fabrics print
trust, queueing and the frame limit on each member). A value the aggregate does not print never
overwrites a member's own: a member's jumbo frame stays its own when the aggregate has none
(else server-port headroom is computed for 1,500-byte frames), and rules judge a gathered
setting on the members that carry it (``Aggregate.member_settings``).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import TYPE_CHECKING, Any

from roce_cfg.model import numbers
from roce_cfg.model.device import Aggregate, Interface, PortQos, packet_for
from roce_cfg.platforms.parse_spec import AggregateSpec

if TYPE_CHECKING:
    from roce_cfg.parse.context import Context

# the template keys of aggregation lines (templates/<vendor>/parse/interfaces.ttp)
KEYS = ("lag_group", "lag_min", "peer_link", "mlag_group")
# the template keys a port prints, kept beside its aggregation lines (``printed``)
PRINTED = "printed"
_PORT_FIELDS = frozenset(Interface.model_fields) - {"qos", "name", "description", "shutdown"}
_QOS_FIELDS = frozenset(PortQos.model_fields)
# The template keys (docs/parse.md, the common schema) whose lines set each field: a field is
# printed on a port when one of them is in the port's template output.
SETS: dict[str, tuple[str, ...]] = {
    "mode": ("routed", "switched", "access_vlan"),
    "access_vlan": ("access_vlan",),
    "trunk_vlans": ("trunk_lists", "trunk_vlans", "trunk_removed"),
    "mtu": ("mtu",),
    "frame_bytes": ("frame",),
    "trust_dscp": ("trust_dscp", "trust_dot1p"),
    "strict_queues": ("strict", "drr_last", "weighted"),
    "ecn_queues": ("wred_table", "queue_profiles", "ecn_flags"),
    "pfc": ("pfc", "pfc_mode"),
    "no_drop": ("no_drop",),
    "watchdog": ("watchdog",),
}


def printed(field: str, keys: Collection[str], mode: str = "routed") -> bool:
    """Whether a port (of ``mode``) whose template output has ``keys`` prints ``field``: a
    Layer 2 port's IP MTU is what its frame limit carries (ports._ip_mtu)."""
    if field == "mtu" and mode == "access" and printed("frame_bytes", keys):
        return True
    return any(k in keys for k in SETS.get(field, (field,)))


def resolve(
    ctx: Context, ports: list[Interface], lines: dict[str, dict[str, Any]]
) -> tuple[list[Interface], tuple[Aggregate, ...]]:
    """The ports with the settings aggregates and members take from each other, and the
    device's aggregates."""
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
    keys = {name: raw.get(PRINTED, frozenset()) for name, raw in lines.items()}
    resolved = tuple(_apply(ctx, spec, by_name, agg, keys) for agg in aggs)
    return [by_name[p.name] for p in ports], resolved


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


def _apply(
    ctx: Context,
    spec: AggregateSpec,
    by_name: dict[str, Interface],
    agg: Aggregate,
    keys: dict[str, Collection[str]],
) -> Aggregate:
    """Members take what the aggregate prints of ``inherit``; the aggregate takes, of
    ``gather``, what it does not print from its members (``_gathered``), and their speed."""
    parent = by_name[agg.name]
    own = keys.get(agg.name, frozenset())
    for m in agg.members:
        # a member keeps what it prints itself where the aggregate prints nothing of it
        mine = keys.get(m, ())
        given = [
            f
            for f in spec.inherit
            if printed(f, own, parent.mode) or not printed(f, mine, by_name[m].mode)
        ]
        by_name[m] = _taking(by_name[m], parent, given)
    members = [by_name[m] for m in agg.members]
    if not members:
        # no member carries its frames: the aggregate is down, whatever it is configured as
        by_name[agg.name] = parent.model_copy(update={"shutdown": True})
        return agg
    wanted = [f for f in spec.gather if not printed(f, own, parent.mode)]
    carried = tuple(f for f in wanted if any(printed(f, keys.get(m, ())) for m in agg.members))
    update = _gathered(ctx, parent, [p for p in members if not p.shutdown] or members, wanted)
    if "frame_bytes" in update and parent.mode == "access" and "mtu" not in own:
        # a Layer 2 port's packet is what its frame limit carries (ports._ip_mtu)
        update["mtu"] = packet_for(update["frame_bytes"])
    speed = sum(p.speed_gbps for p in members if not p.shutdown)
    update["speed_gbps"] = min(speed, numbers.SPEED.high) or parent.speed_gbps
    qos = {f: update.pop(f) for f in list(update) if f in _QOS_FIELDS}
    by_name[agg.name] = parent.model_copy(
        update={**update, "qos": parent.qos.model_copy(update=qos)}
    )
    return agg.model_copy(update={"member_settings": carried}) if carried else agg


def _taking(port: Interface, parent: Interface, fields: list[str]) -> Interface:
    """``port`` with ``parent``'s values of ``fields``."""
    if not fields:
        return port
    own = {f: getattr(parent, f) for f in fields if f in _PORT_FIELDS}
    qos = {f: getattr(parent.qos, f) for f in fields if f in _QOS_FIELDS}
    return port.model_copy(update={**own, "qos": port.qos.model_copy(update=qos)})


def _gathered(
    ctx: Context, parent: Interface, members: list[Interface], fields: Iterable[str]
) -> dict[str, Any]:
    """Of ``fields``, the value the aggregate has from its members: a flag all of them set, the
    queues all of them have, the smallest frame limit any of them passes."""
    out: dict[str, Any] = {}
    for f in fields:
        if f in _QOS_FIELDS:
            values = [getattr(p.qos, f) for p in members]
            if all(isinstance(v, bool) for v in values):
                out[f] = all(values)
            else:  # not printed on the aggregate: any value it has is a default
                out[f] = tuple(sorted(set.intersection(*(set(v) for v in values))))
        elif f == "frame_bytes":
            frames = [p.frame_bytes or ctx.model.frame_default_bytes for p in members]
            known = [n for n in frames if n is not None]
            if known and len(known) == len(frames):
                out[f] = min(known)
    return out
