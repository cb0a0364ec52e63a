"""Per-device rules: PFC, ECN, trust and maps, scheduling, watchdog, MTU, vendor apply steps."""

from __future__ import annotations

import re
from collections.abc import Iterator

from roce_cfg.analysis.context import DeviceView, some
from roce_cfg.analysis.registry import Hit, rule
from roce_cfg.model.device import Interface

RESERVED_PRIORITIES = (0, 6, 7)


@rule(
    "RC101",
    "pfc-without-no-drop",
    "error",
    "device",
    summary="PFC is enabled on a port but no priority on it is no-drop.",
    rationale="PFC pauses only no-drop priorities. A port with PFC on and an empty no-drop list "
    "pauses nothing: RoCE on it is dropped under congestion while the config looks lossless.",
    fix="Add the RoCE priority to the port's no-drop list, or turn PFC off on the port.",
    reads=("pfc",),
)
def pfc_without_no_drop(v: DeviceView) -> Iterator[Hit]:
    for port in v.lossless_ports():
        if port.qos.pfc and not port.qos.no_drop:
            yield Hit("PFC enabled but no no-drop priority", port=port.name, anchor="port.pfc")


@rule(
    "RC102",
    "lossless-port-without-pfc",
    "error",
    "device",
    summary="A port that carries RoCE, or lists no-drop priorities, has PFC off.",
    rationale="A lossless priority is only lossless if every port it crosses sends PAUSE. One "
    "port without PFC drops RoCE there, and RoCE's go-back-N retransmission collapses throughput.",
    fix="Enable PFC on the port with the fabric's no-drop priorities.",
    limits="Which ports carry RoCE is inferred (docs/lint.md, 'Which ports carry RoCE'): ports "
    "with PFC or DSCP trust, access ports, and routed /30-/31 links facing a BGP neighbour, not "
    "ports in a VRF no lossless port is in. Another routed port that carries no RoCE can be "
    "suppressed.",
    reads=("pfc", "interfaces", "aggregates"),
)
def lossless_port_without_pfc(v: DeviceView) -> Iterator[Hit]:
    if not v.device.qos.no_drop:
        return
    for port in v.lossless_ports():
        if not port.qos.pfc and (port.qos.no_drop or v.carries_roce(port)):
            yield Hit(
                f"no-drop priorities {list(v.device.qos.no_drop)} in use but PFC is off",
                port=port.name,
            )


@rule(
    "RC103",
    "no-drop-queue-without-ecn",
    "error",
    "device",
    summary="A no-drop priority's queue has no ECN marking.",
    rationale="DCQCN needs ECN marks to slow senders down before buffers fill. Without ECN on a "
    "lossless queue congestion is only relieved by PFC pauses, which spread head-of-line blocking "
    "and can deadlock the fabric.",
    fix="Configure ECN (WRED with ECN) on the queue of every no-drop priority and apply it to the "
    "lossless ports.",
    reads=("ecn", "pfc", "qos_maps"),
)
def no_drop_queue_without_ecn(v: DeviceView) -> Iterator[Hit]:
    ecn_queues = {e.queue for e in v.device.qos.ecn}
    for prio in v.device.qos.no_drop:
        queue = v.queue_of(prio)
        if queue not in ecn_queues:
            yield Hit(f"no-drop priority {prio} (queue {queue}) has no ECN profile", anchor="ecn")
            continue
        for port in v.lossless_ports():
            if port.qos.pfc and prio in port.qos.no_drop and queue not in port.qos.ecn_queues:
                yield Hit(
                    f"ECN not applied to queue {queue} of no-drop priority {prio}", port=port.name
                )


@rule(
    "RC104",
    "ecn-threshold-order",
    "error",
    "device",
    summary="ECN Kmin is not below Kmax.",
    rationale="Marking probability ramps from Kmin to Kmax; Kmin >= Kmax leaves no ramp, so the "
    "queue either never marks or marks everything at once, and DCQCN oscillates.",
    fix="Set Kmin below Kmax (NVIDIA's lossless profile uses 150 KB / 1500 KB).",
    reads=("ecn",),
)
def ecn_threshold_order(v: DeviceView) -> Iterator[Hit]:
    for e in v.device.qos.ecn:
        if e.unit != "device" and e.min_bytes >= e.max_bytes:
            unit = " %" if e.unit == "percent" else " B"
            yield Hit(
                f"queue {e.queue}: ECN Kmin {e.min_bytes}{unit} >= Kmax {e.max_bytes}{unit}",
                anchor="ecn",
            )


@rule(
    "RC105",
    "ecn-probability-range",
    "error",
    "device",
    summary="ECN marking probability outside (0, 100] percent.",
    rationale="A 0 % maximum probability never marks; above 100 % is not a probability.",
    fix="Use a maximum marking probability between 1 and 100 percent.",
    reads=("ecn",),
)
def ecn_probability(v: DeviceView) -> Iterator[Hit]:
    for e in v.device.qos.ecn:
        if e.unit != "device" and not 0 < e.probability <= 100:
            yield Hit(f"queue {e.queue}: ECN probability {e.probability} %", anchor="ecn")


@rule(
    "RC106",
    "ecn-after-pfc",
    "error",
    "device",
    summary="ECN marking starts at or above the port's static PFC XOFF trigger.",
    rationale="ECN must mark before PFC pauses: if the ingress XOFF threshold is reached first, "
    "the fabric pauses instead of slowing senders, spreading congestion upstream (H3C RDMA "
    "guide: the XOFF threshold must exceed the ECN limit).",
    fix="Raise the static XOFF threshold above ECN Kmin, or lower Kmin.",
    limits="Checked only where a static XOFF is configured; dynamic (alpha) thresholds depend on "
    "free buffer at run time and default thresholds are not published.",
    reads=("ecn", "pfc", "buffers"),
)
def ecn_after_pfc(v: DeviceView) -> Iterator[Hit]:
    # thresholds in percent of a queue's buffer cannot be set against a byte count
    kmin = {e.queue: e.min_bytes for e in v.device.qos.ecn if e.unit == "bytes"}
    for port in v.lossless_ports():
        for x in port.qos.xoff:
            queue = v.queue_of(x.priority)
            if queue in kmin and kmin[queue] >= x.bytes:
                yield Hit(
                    f"priority {x.priority}: ECN Kmin {kmin[queue]} B >= static XOFF {x.bytes} B",
                    port=port.name,
                    anchor="port.xoff",
                )


@rule(
    "RC107",
    "cnp-not-strict",
    "error",
    "device",
    summary="The CNP priority's queue is not strict priority on a RoCE port.",
    rationale="Congestion notification packets tell senders to slow down; queued behind data "
    "they arrive late and DCQCN reacts to congestion that has already turned into PAUSE storms.",
    fix="Schedule the CNP queue (and those above it) in strict priority on every RoCE port.",
    limits="The CNP DSCP is the intent's, else --cnp-dscp, else the config's lossy DSCP on a "
    "strict queue, else 48. A port that prints no scheduling line runs the vendor's default "
    "(vendors/<vendor>.yaml scheduling_default: CloudEngine's queues are PQ); where no source "
    "gives it, RC125 says so instead.",
    reads=("scheduling", "qos_maps", "interfaces", "aggregates"),
)
def cnp_not_strict(v: DeviceView) -> Iterator[Hit]:
    queue = v.queue_of(v.priority_of(v.cnp_dscp))
    for port in _cnp_not_strict_ports(v, queue):
        if port.name not in v.device.scheduling_unknown:  # else RC125: the default may be
            yield Hit(
                f"CNP (DSCP {v.cnp_dscp}) queue {queue} is not strict priority",
                port=port.name,
            )


def _cnp_not_strict_ports(v: DeviceView, queue: int) -> Iterator[Interface]:
    for port in v.roce_config_ports("strict_queues"):
        # a sub-interface's frames are scheduled by its parent's queues: judged there
        if v.parent_of(port) is None and queue not in port.qos.strict_queues:
            yield port


@rule(
    "RC125",
    "cnp-scheduling-unknown",
    "warning",
    "device",
    summary="Cannot verify that the CNP queue is strict priority on a RoCE port that prints no "
    "queue scheduling: the vendor's default is in no source.",
    rationale="What a port's queues run with no scheduling line is the vendor's default "
    "(CloudEngine: every queue PQ). Where no source gives it, 'not strict' would be a guess: "
    "RC107 stays silent on those ports and this names them.",
    fix="Configure the CNP queue's scheduling explicitly on every RoCE port (the intent's "
    "lossless.cnp renders it).",
    reads=("scheduling", "qos_maps", "interfaces", "aggregates"),
    verifies=False,
)
def cnp_scheduling_unknown(v: DeviceView) -> Iterator[Hit]:
    unknown = set(v.device.scheduling_unknown)
    if not unknown:
        return
    queue = v.queue_of(v.priority_of(v.cnp_dscp))
    ports = [p.name for p in _cnp_not_strict_ports(v, queue) if p.name in unknown]
    if ports:  # one finding per switch, naming the ports
        yield Hit(
            f"cannot verify: CNP (DSCP {v.cnp_dscp}) queue {queue} strict priority on "
            f"{len(ports)} RoCE port(s) printing no queue scheduling ({some(ports)}): no source "
            f"gives {v.device.vendor.value}'s default",
            port=ports[0],
            detail=tuple(ports),
            of_switch=True,
        )


@rule(
    "RC108",
    "dscp-not-trusted",
    "error",
    "device",
    summary="A RoCE port does not trust DSCP.",
    rationale="RoCEv2 marks its class in DSCP. A port that does not trust it classifies RoCE by "
    "the port default (priority 0, lossy), so PFC and ECN never apply to it.",
    fix="Trust DSCP on server-facing and fabric ports.",
    limits="RoCE ports are inferred as for RC102 (docs/lint.md, 'Which ports carry RoCE'). "
    "Where an aggregate's members carry the trust setting themselves, each member is judged.",
    reads=("qos_maps", "interfaces", "aggregates"),
)
def dscp_not_trusted(v: DeviceView) -> Iterator[Hit]:
    for port in v.roce_config_ports("trust_dscp"):
        if not port.qos.trust_dscp:
            yield Hit("DSCP not trusted on a RoCE port", port=port.name)


@rule(
    "RC109",
    "roce-dscp-lossy",
    "error",
    "device",
    summary="The RoCE DSCP does not map to a no-drop priority.",
    rationale="Servers mark RoCE with one DSCP; if this switch maps it to a priority that is not "
    "no-drop, RoCE is lossy here whatever the rest of the config says.",
    fix="Map the RoCE DSCP to the no-drop priority (e.g. DSCP 26 -> priority 3).",
    limits="The RoCE DSCP is the intent's, else --roce-dscp, else the DSCP most configs map to "
    "a no-drop priority, else 26. An unmapped DSCP is taken to land in its class-selector "
    "priority (DSCP >> 3).",
    reads=("qos_maps", "pfc"),
)
def roce_dscp_lossy(v: DeviceView) -> Iterator[Hit]:
    if not any(v.carries_roce(p) for p in v.device.interfaces):
        return
    prio = v.priority_of(v.roce_dscp)
    if prio not in v.device.qos.no_drop:
        yield Hit(
            f"RoCE DSCP {v.roce_dscp} maps to priority {prio}, "
            f"not a no-drop priority {list(v.device.qos.no_drop)}",
            anchor="dscp_map",
            anchor_key=str(v.roce_dscp),
        )


@rule(
    "RC110",
    "watchdog-missing",
    "warning",
    "device",
    summary="A PFC port has no PFC watchdog (deadlock detection).",
    rationale="The watchdog breaks a PFC storm or deadlock by dropping or forwarding the stuck "
    "priority after a detection time; without it one bad NIC or a deadlock halts the fabric.",
    fix="Enable PFC deadlock detection globally (detection and recovery times) and on PFC ports.",
    reads=("watchdog", "pfc"),
)
def watchdog_missing(v: DeviceView) -> Iterator[Hit]:
    pfc_ports = [p for p in v.lossless_ports() if p.qos.pfc]
    if pfc_ports and v.device.qos.watchdog is None:
        if v.watchdog_default_unknown() is None:  # else RC124: the default may be on
            yield Hit("PFC in use but no watchdog timers configured", anchor="watchdog")
        return
    for port in pfc_ports:
        if not port.qos.watchdog:
            yield Hit("PFC port without the watchdog enabled", port=port.name)


@rule(
    "RC111",
    "too-many-no-drop",
    "error",
    "device",
    summary="More no-drop priorities than the switch model supports.",
    rationale="Each no-drop priority needs its own headroom per port; ASICs reserve a fixed "
    "number of lossless priority groups and refuse or silently ignore the rest.",
    fix="Use no more no-drop priorities than the model supports (see vendors/*.yaml max_no_drop).",
    reads=("pfc", "model"),
)
def too_many_no_drop(v: DeviceView) -> Iterator[Hit]:
    if len(v.device.qos.no_drop) > v.model.max_no_drop:
        yield Hit(
            f"{len(v.device.qos.no_drop)} no-drop priorities; {v.device.model} supports "
            f"{v.model.max_no_drop}",
            anchor="pfc",
        )


@rule(
    "RC112",
    "no-drop-reserved-priority",
    "warning",
    "device",
    summary="No-drop on priority 0, 6 or 7.",
    rationale="Priority 0 carries unclassified traffic, 6 and 7 network control (and often CNP); "
    "making them lossless lets ordinary or control traffic trigger PAUSE (H3C: avoid 0, 6, 7).",
    fix="Use a priority from 1 to 5 for RoCE.",
    reads=("pfc",),
)
def no_drop_reserved(v: DeviceView) -> Iterator[Hit]:
    bad = [p for p in v.device.qos.no_drop if p in RESERVED_PRIORITIES]
    if bad:
        yield Hit(f"no-drop on reserved priority {bad}", anchor="pfc")


@rule(
    "RC114",
    "apply-step-missing",
    "error",
    "device",
    summary="Staged edits without the vendor's apply step (H3C: 'buffer apply').",
    rationale="Some settings only take effect after an explicit apply; a saved config with the "
    "edits but no apply looks right and runs with the old buffer layout.",
    fix="Add the apply command after the edits (H3C: 'buffer apply').",
)
def apply_step_missing(v: DeviceView) -> Iterator[Hit]:
    if not v.profile.lint.apply_steps:
        return
    lines = [(no, ln.strip()) for no, ln in enumerate(v.text.splitlines(), 1)]
    for step in v.profile.lint.apply_steps:
        edit_rx, apply_rx = re.compile(step.edits), re.compile(step.apply)
        edits = [no for no, ln in lines if edit_rx.match(ln)]
        applied = [no for no, ln in lines if apply_rx.match(ln)]
        if edits and not (applied and max(applied) > max(edits)):
            yield Hit(
                f"'{lines[edits[-1] - 1][1]}' is not followed by its apply step", line=edits[-1]
            )


@rule(
    "RC115",
    "headroom-pool-missing",
    "error",
    "device",
    summary="The model needs a headroom pool before PFC, and none is configured.",
    rationale="On some Huawei CloudEngine models PFC headroom comes from a pool that must be "
    "sized first; without it PFC ports have no headroom and drop in-flight packets after PAUSE.",
    fix="Configure 'qos buffer headroom-pool size <n> kbytes slot 1' to fit every PFC port.",
    reads=("buffers", "pfc", "model"),
)
def headroom_pool_missing(v: DeviceView) -> Iterator[Hit]:
    pool_missing = v.model.needs_headroom_pool and v.device.qos.headroom_pool_bytes is None
    if pool_missing and any(p.qos.pfc for p in v.lossless_ports()):
        yield Hit(f"{v.device.model} needs a headroom pool before PFC", anchor="pfc")


@rule(
    "RC119",
    "value-out-of-domain",
    "error",
    "device",
    summary="A line holds a value outside its field's range (or no number where one belongs); "
    "the line is not read.",
    rationale="A switch never prints VLAN 4095, DSCP 64, priority 9 or MTU -1: the file is not "
    "what a switch runs (a damaged backup, a template that wrote nonsense). roce-cfg does not "
    "guess what the line meant; it reads the file as if the line were absent, so every check "
    "that needs it is blind there, and says so here instead of keeping a value no switch has.",
    fix="Correct the line (the range is the vendor grammar's, vendors/<vendor>.grammar.yaml, "
    "or the field's: VLAN 1-4094, DSCP 0-63, priority and queue 0-7, ASN 1-4294967295), or "
    "take a fresh backup from the switch.",
    limits="Ranges are the vendor grammar's for the commands it lists (per model where it says "
    "so, applied for every model), else the field's domain. At most 1,000 lines are listed per "
    "file; the rest are counted in a note.",
)
def value_out_of_domain(v: DeviceView) -> Iterator[Hit]:
    for u in v.parsed.config.unread:
        yield Hit(f"not read: {u.reason}", line=u.line)


@rule(
    "RC122",
    "pfc-auto-without-dcbx",
    "error",
    "device",
    summary="A lossless port leaves PFC to DCBX negotiation but sends no DCBX TLV.",
    rationale="In negotiation mode the switch enables PFC only once DCBX agrees it with the peer; "
    "a port that does not speak DCBX never agrees, so the no-drop priority is never paused and "
    "RoCE traffic is dropped under congestion, though the config reads as PFC-enabled.",
    fix="Set PFC to manual mode on server and fabric ports, or enable the port's DCBX TLV "
    "(Huawei: 'lldp tlv-enable dcbx') and DCBX on the server NIC.",
    reads=("pfc",),
)
def pfc_auto_without_dcbx(v: DeviceView) -> Iterator[Hit]:
    for port in v.lossless_ports():
        if port.qos.pfc and port.qos.pfc_waits_for_dcbx:
            yield Hit(
                "PFC in negotiation (auto) mode, but the port sends no DCBX TLV", port=port.name
            )
