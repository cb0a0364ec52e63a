"""QoS as the templates read it: the DSCP and priority maps, strict and weighted queues, WRED and
ECN thresholds (per queue or by profile), each port's QoS (read once for the ports that repeat
the same lines) and the device-wide QoS gathered from its ports.
"""

from __future__ import annotations

from typing import Any

from roce_cfg.model import numbers
from roce_cfg.model.device import DscpMap, EcnQueue, PortQos, Qos, QueueMap
from roce_cfg.parse import pfc_profiles, policies, scheduling
from roce_cfg.parse.context import Context, Raw, as_list
from roce_cfg.parse.readings import Globals, PortsFound, Wred
from roce_cfg.parse.values import listed_numbers, per_priority, size_bytes, union


def _strict(ctx: Context, item: Raw, scope: str) -> tuple[int, ...]:
    queues: set[int] = set()
    names = ctx.profile.queue_names
    for entry in as_list(item.get("strict")):
        if "name" in entry:
            word = str(entry["name"])
            if word not in names:
                ctx.unreadable(
                    f"unknown queue name '{word}' (known: {', '.join(names)})", word, scope
                )
                continue
            queues.add(names.index(word))
        elif "queue" in entry:
            queues.update(ctx.values(entry["queue"], numbers.QUEUE, scope))
    weighted = _weighted(ctx, item, scope)
    if "drr_last" in item:
        last = ctx.number(item["drr_last"], numbers.QUEUE, len(names) - 1, scope)
        weighted.update(range(last + 1))
    return scheduling.strict(ctx.profile, queues, weighted)


def _weighted(ctx: Context, item: Raw, scope: str) -> set[int]:
    """Queues a line puts in a weighted group ('qos wrr be group 1 byte-count 10'): scheduled
    by weight, so not strict whatever else is printed."""
    names = ctx.profile.queue_names
    out: set[int] = set()
    for entry in as_list(item.get("weighted")):
        word = str(entry.get("name", ""))
        if word in names:
            out.add(names.index(word))
        else:
            ctx.unreadable(f"unknown queue name '{word}' (known: {', '.join(names)})", word, scope)
    return out


def read_wred_tables(ctx: Context, raw: Raw) -> tuple[dict[str, dict[int, Wred]], dict[str, Wred]]:
    """Per-queue tables (queue -> thresholds, ECN queues only) and ECN profiles by name."""
    tables: dict[str, dict[int, Wred]] = {}
    profiles: dict[str, Wred] = {}
    for item in as_list(raw.get("wred")):
        name = str(item.get("name", ""))
        entries = as_list(item.get("entries"))
        if entries:
            flags = as_list(item.get("ecn_flags"))
            ecn = {ctx.number(f["queue"], numbers.QUEUE, -1, "@ecn") for f in flags}
            table: dict[int, Wred] = {}
            for e in entries:
                queue = ctx.number(e["queue"], numbers.QUEUE, -1, "@ecn")
                wred = _wred(ctx, e)
                if queue in ecn and wred is not None:
                    table[queue] = wred
            tables[name] = table
        else:
            wred = _profile(ctx, item)
            if wred is not None:
                profiles[name] = wred
    return tables, profiles


def _profile(ctx: Context, item: Raw) -> Wred | None:
    """An ECN profile's thresholds: its ECN line, else its green WRED thresholds (a queue
    flagged for ECN marks at them), in bytes or in percent of the queue's buffer."""
    if item.get("ecn") and "min" in item:
        return _wred(ctx, item)
    if "green_min" in item:
        return _wred(ctx, {**item, "min": item["green_min"], "max": item["green_max"]})
    if "min_pct" in item:
        low = ctx.number(item["min_pct"], numbers.PERCENT, None, "@ecn")
        high = ctx.number(item["max_pct"], numbers.PERCENT, None, "@ecn")
        probability = ctx.number(item["probability"], numbers.PERCENT, None, "@ecn")
        if low is None or high is None or probability is None:
            return None
        return Wred(low, high, probability, "percent")
    return None


def _wred(ctx: Context, item: Raw) -> Wred | None:
    """One queue's or profile's thresholds; None when a value on its line is unreadable."""
    unit = ctx.profile.ecn_unit_bytes
    low = size_bytes(ctx, item["min"], None, unit, "@ecn")
    high = size_bytes(ctx, item["max"], None, unit, "@ecn")
    probability = ctx.number(item["probability"], numbers.PERCENT, None, "@ecn")
    if low is None or high is None or probability is None:
        return None
    return Wred(low, high, probability)


def _ecn_queues(
    ctx: Context,
    item: Raw,
    tables: dict[str, dict[int, Wred]],
    profiles: dict[str, Wred],
    scope: str,
) -> dict[int, Wred]:
    out: dict[int, Wred] = {}
    table = item.get("wred_table")
    if table:
        out.update(tables.get(str(table), {}))
    if not item.get("queue_profiles"):
        return out
    flagged = set(listed_numbers(ctx, item, "ecn_flags", numbers.QUEUE, scope))
    for bind in as_list(item.get("queue_profiles")):
        queue, prof = ctx.number(bind["queue"], numbers.QUEUE, -1, scope), str(bind["profile"])
        if queue < 0 or prof not in profiles:
            continue
        if ctx.profile.parse.port_ecn_needs_queue_flag and queue not in flagged:
            continue
        out[queue] = profiles[prof]
    return out


def _ecn(tables: dict[int, Wred], device_set: tuple[int, ...]) -> tuple[EcnQueue, ...]:
    """The ECN queues: their thresholds as printed, else set by the switch (AI ECN)."""
    set_by_switch = {q: Wred(0, 0, 0, "device") for q in device_set if q not in tables}
    return tuple(
        EcnQueue(
            queue=q,
            min_bytes=w.min_bytes,
            max_bytes=w.max_bytes,
            probability=w.probability,
            unit=w.unit,
        )
        for q, w in sorted({**tables, **set_by_switch}.items())
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
            domain = numbers.PRIORITY if table == "priority_queue" else numbers.DSCP
            sources = ctx.values(entry["from"], domain, "@dscp_map")
            to_raw = str(entry["to"])
            if not sources:
                continue
            if table == "dscp_phb":
                if to_raw not in names:
                    reason = f"unknown PHB '{to_raw}' (known: {', '.join(names)})"
                    ctx.unreadable(reason, to_raw, "@dscp_map")
                    continue
                q = names.index(to_raw)
                for d in sources:
                    dscp[d] = q
                queue[q] = q
                continue
            to_domain = numbers.PRIORITY if table == "dscp_priority" else numbers.QUEUE
            targets = ctx.values(to_raw, to_domain, "@dscp_map")
            if not targets:
                continue
            if len(targets) == 1:
                targets = targets * len(sources)
            if len(targets) != len(sources):
                reason = f"map '{entry['from']} to {to_raw}' pairs unequal lists"
                ctx.unreadable(reason, to_raw.split()[0], "@dscp_map")
                continue
            target = dscp if table == "dscp_priority" else queue
            target.update(zip(sources, targets, strict=True))
    return (
        tuple(DscpMap(dscp=d, priority=p) for d, p in sorted(dscp.items())),
        tuple(QueueMap(priority=p, queue=q) for p, q in sorted(queue.items())),
    )


# The keys of a port's template output that turn PFC on (one of them is enough).
PFC_KEYS = ("pfc", "pfc_mode", "pfc_profile", "antilocking_pfc")
# Every key of a port's template output that its QoS is read from (``_port_qos_read``).
_QOS_KEYS = (
    *PFC_KEYS,
    "dcbx",
    "trust_dscp",
    "watchdog",
    "wred_table",
    "queue_profiles",
    "ecn_flags",
    "no_drop",
    "headroom",
    "xoff",
    "strict",
    "drr_last",
    "weighted",
)


def read_port_qos(
    ctx: Context, g: Globals, item: dict[str, Any], mode: str, scope: str
) -> tuple[PortQos, dict[int, Wred]]:
    """The port's QoS and its ECN queues. Ports mostly repeat the same QoS lines (an xl leaf:
    128 ports, one set of lines), so a set read without a refused value is read once per
    config (a refused value is reported per port, with that port's line)."""
    key = (mode, repr([item.get(k) for k in _QOS_KEYS]))
    seen = ctx.port_qos_seen.get(key)
    if seen is None:
        reports = ctx.reports
        seen = _port_qos_read(ctx, g, item, mode, scope)
        if ctx.reports == reports:
            ctx.port_qos_seen[key] = seen
    return seen


def _port_qos_read(
    ctx: Context, g: Globals, item: dict[str, Any], mode: str, scope: str
) -> tuple[PortQos, dict[int, Wred]]:
    spec = ctx.profile.parse
    named, by_name = pfc_profiles.applied(ctx, g.pfc, item, scope)
    pfc = bool(item.get("pfc") or item.get("pfc_mode")) or named
    port_ecn = _ecn_queues(ctx, item, g.tables, g.profiles, scope)
    no_drop = listed_numbers(ctx, item, "no_drop", numbers.PRIORITY, scope) or by_name
    if pfc and not no_drop:
        # the default PFC profile's priorities are not printed (Huawei 'dcb pfc': 3)
        no_drop = g.no_drop or spec.defaults.pfc_no_drop
    implied_wd = spec.port_watchdog_implied and pfc and g.watchdog is not None
    qos = ctx.port_qos(
        # a routed port may trust DSCP without saying so (Huawei Layer-3 ports)
        bool(item.get("trust_dscp")) or (mode == "routed" and spec.routed_trusts_dscp),
        pfc,
        no_drop,
        per_priority(ctx, item, "headroom", scope),
        per_priority(ctx, item, "xoff", scope),
        bool(item.get("watchdog")) or implied_wd,
        # AI ECN marks the queue on every PFC port (ai_ecn.py)
        tuple(sorted({*port_ecn, *(g.ai_ecn if pfc else ())})),
        _strict(ctx, item, scope),
        item.get("pfc_mode") in spec.pfc_negotiated_modes and not item.get("dcbx"),
    )
    return qos, port_ecn


def read_qos(ctx: Context, raw: Raw, g: Globals, found: PortsFound) -> Qos:
    """The device-wide QoS: maps, no-drop priorities, watchdog, ECN, strict queues, pool."""
    dscp_map, queue_map = _maps(ctx, raw)
    pools = as_list(raw.get("pool"))
    unit = ctx.profile.headroom_unit_bytes  # as the per-port headroom when no unit is printed
    pool = (
        size_bytes(ctx, pools[0]["value"], pools[0].get("unit"), unit, "@pool") if pools else None
    )
    ports = found.ports
    applied, caps = policies.read(ctx, raw)
    return Qos(
        dscp_map=dscp_map,
        queue_map=queue_map,
        # the priorities the PFC ports pause (each its profile's), else the default profile's
        no_drop=union(p.qos.no_drop for p in ports if p.qos.pfc) or g.no_drop,
        watchdog=g.watchdog,
        ecn=_ecn(found.ecn, g.ai_ecn),
        # the PFC ports' (a port left at the vendor's default, all PQ on CloudEngine, would
        # make every queue strict here), else every port's
        strict_queues=union(p.qos.strict_queues for p in ports if p.qos.pfc)
        or union(p.qos.strict_queues for p in ports),
        headroom_pool_bytes=pool,
        policies=applied,
        buffer_caps=caps,
    )
