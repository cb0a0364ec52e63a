"""The lossless policy as one vendor-neutral Qos block, and each port's share of it."""

from __future__ import annotations

from roce_cfg.design.headroom import required_headroom, round_up
from roce_cfg.design.topology import Switch
from roce_cfg.errors import PlanError
from roce_cfg.intent.models import Ecn, Intent
from roce_cfg.model.device import (
    DscpMap,
    EcnQueue,
    PortQos,
    PriorityBytes,
    Qos,
    QueueMap,
    WatchdogCfg,
)
from roce_cfg.model.fabric import PortHeadroom
from roce_cfg.platforms.timers import default_restore, watchdog_problem

#: ECN (Kmin, Kmax) in KB when the intent gives none, by the fastest link speed (Gb/s) up to.
#: 100G and up follow NVIDIA's lossless RoCE profile (150 KB / 1500 KB, probability 100 %);
#: slower links scale down so marking starts within a few microseconds of queueing.
DEFAULT_ECN_KB: tuple[tuple[int, int, int], ...] = (
    (25, 50, 500),
    (50, 100, 1000),
    (800, 150, 1500),
)


def strict_queues(intent: Intent) -> tuple[int, ...]:
    """The CNP queue and every queue above it run strict priority (network control stays on top)."""
    return tuple(range(intent.lossless.cnp.priority, 8))


def effective_ecn(intent: Intent) -> Ecn:
    if intent.lossless.ecn is not None:
        return intent.lossless.ecn
    links = intent.fabric.links
    fastest = max(links.server_leaf.speed, links.leaf_spine.speed if links.leaf_spine else 0)
    for up_to, kmin, kmax in DEFAULT_ECN_KB:
        if fastest <= up_to:
            return Ecn(min_kb=kmin, max_kb=kmax, probability=100)
    raise AssertionError("DEFAULT_ECN_KB covers every known speed")


def device_qos(intent: Intent, sw: Switch, port_headroom: list[PortHeadroom]) -> Qos:
    policy = intent.lossless
    no_drop = tuple(sorted(policy.pfc.no_drop))
    if len(no_drop) > sw.model.max_no_drop:
        raise PlanError(
            ("lossless", "pfc", "no_drop"),
            f"{len(no_drop)} no-drop priorities; {sw.profile.vendor.value} {sw.plan.model} "
            f"supports {sw.model.max_no_drop}",
        )
    watchdog = _watchdog(intent, sw)
    ecn = effective_ecn(intent)
    unit = sw.profile.unit_bytes(sw.profile.ecn_unit_bytes, sw.model)
    classes = sorted(
        {(policy.roce.dscp, policy.roce.priority), (policy.cnp.dscp, policy.cnp.priority)}
    )
    total = sum((h.configured_bytes or 0) * len(h.ports) for h in port_headroom)
    _fits_buffer(intent, sw, total)
    pool = None
    if sw.model.needs_headroom_pool:
        pool = round_up(max(total, 16 * 1024), 1024)
    return Qos(
        dscp_map=tuple(DscpMap(dscp=d, priority=p) for d, p in classes),
        queue_map=tuple(QueueMap(priority=p, queue=p) for p in sorted({p for _, p in classes})),
        no_drop=no_drop,
        watchdog=watchdog,
        ecn=tuple(
            EcnQueue(
                queue=q,
                min_bytes=round_up(ecn.min_kb * 1024, unit),
                max_bytes=round_up(ecn.max_kb * 1024, unit),
                probability=ecn.probability,
            )
            for q in no_drop
        ),
        strict_queues=strict_queues(intent),
        headroom_pool_bytes=pool,
    )


def _watchdog(intent: Intent, sw: Switch) -> WatchdogCfg | None:
    """The watchdog this switch's model can express: a restore time the intent leaves out is
    the nearest to roce-cfg's preference the model takes; one it gives and the model cannot
    take is refused at the intent's line, with the model's range."""
    wd = intent.lossless.pfc.watchdog
    if wd is None:
        return None
    spec, model = sw.profile.watchdog_timer, sw.plan.model
    grammar = sw.profile.grammar()
    restore = wd.restore_ms
    if "restore_ms" not in wd.model_fields_set:
        restore = default_restore(spec, grammar, model, wd.detect_ms)
    problem = watchdog_problem(spec, grammar, model, wd.detect_ms, restore)
    if problem is not None:
        field, reason = problem
        raise PlanError(
            ("lossless", "pfc", "watchdog", field), f"{sw.profile.vendor.value} {reason}"
        )
    return WatchdogCfg(detect_ms=wd.detect_ms, restore_ms=restore, action=wd.action)


def _fits_buffer(intent: Intent, sw: Switch, total: int) -> None:
    """A fixed headroom must fit the model's headroom pool or packet buffer where the profile
    knows it (RC203 checks the same on running-configs)."""
    fixed = intent.lossless.headroom
    budget = sw.model.headroom_pool_bytes or sw.model.buffer_bytes
    if fixed == "auto" or budget is None or total <= budget:
        return
    what = "headroom pool" if sw.model.headroom_pool_bytes else "packet buffer"
    raise PlanError(
        ("lossless", "headroom"),
        f"{fixed:,} bytes per port and priority is {total:,} bytes on {sw.plan.hostname}, more "
        f"than the {what} of {sw.profile.vendor.value} {sw.plan.model} ({budget:,} bytes)",
    )


def port_headroom(
    intent: Intent, sw: Switch, ports: tuple[str, ...], speed: int, cable_m: float
) -> list[PortHeadroom]:
    """Required (and, where the model lets us set it, configured) headroom per no-drop priority
    of ``ports``, which share ``speed`` and ``cable_m``."""
    consts = sw.profile.headroom
    unit = sw.profile.unit_bytes(sw.profile.headroom_unit_bytes, sw.model)
    mtu = intent.fabric.mtu
    required, terms = required_headroom(
        speed_gbps=speed,
        cable_m=cable_m,
        mtu_sender=mtu,
        mtu_receiver=mtu,
        cell_bytes=sw.model.cell_bytes,
        unit_bytes=unit,
        mac_phy_delay_bytes=consts.mac_phy_delay_bytes,
        small_packet_percent=consts.small_packet_percent,
        min_packet_bytes=consts.min_packet_bytes,
    )
    fixed = intent.lossless.headroom
    configured: int | None = required if fixed == "auto" else round_up(fixed, unit)
    if not sw.model.headroom_configurable:
        configured = None
    return [
        PortHeadroom(
            switch=sw.plan.hostname,
            ports=ports,
            speed_gbps=speed,
            cable_m=cable_m,
            priority=p,
            required_bytes=required,
            configured_bytes=configured,
            terms=terms,
        )
        for p in sorted(intent.lossless.pfc.no_drop)
    ]


def port_qos(intent: Intent, headroom: list[PortHeadroom]) -> PortQos:
    policy = intent.lossless
    no_drop = tuple(sorted(policy.pfc.no_drop))
    return PortQos(
        trust_dscp=True,
        pfc=True,
        no_drop=no_drop,
        headroom=tuple(
            PriorityBytes(priority=h.priority, bytes=h.configured_bytes)
            for h in headroom
            if h.configured_bytes is not None
        ),
        watchdog=policy.pfc.watchdog is not None,
        ecn_queues=no_drop,
        strict_queues=strict_queues(intent),
    )
