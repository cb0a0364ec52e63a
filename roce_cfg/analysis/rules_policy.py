"""Per-device rules on QoS policies and queue buffer caps: a rate limit on the CNP class, a
re-mark that moves RoCE to a lossy priority, an ECN threshold a queue can never reach."""

from __future__ import annotations

from collections.abc import Iterator

from roce_cfg.analysis.context import DeviceView
from roce_cfg.analysis.registry import Hit, rule
from roce_cfg.model.device import AppliedPolicy, PolicyClass


def _matches(v: DeviceView, cls: PolicyClass, dscp: int) -> bool:
    """Whether the class takes packets of ``dscp``: by that DSCP, by the 802.1p priority it
    lands in here, or all traffic. A class matched only by criteria roce-cfg does not
    evaluate (an ACL) is not taken to match."""
    return dscp in cls.dscps or cls.any_traffic or v.priority_of(dscp) in cls.priorities


def _where(policy: AppliedPolicy) -> str:
    """Where a policy acts, for a message: 'global inbound', 'outbound on 100GE1/0/2'."""
    if policy.scope == "global":
        return f"global {policy.direction}"
    if policy.scope == "vlan":
        vlans = ", ".join(f"{a}" if a == b else f"{a}-{b}" for a, b in policy.vlans)
        return f"{policy.direction} on VLAN {vlans}"
    if policy.scope == "uplink":
        return f"between the ports of uplink group {policy.name}"
    return f"{policy.direction} on {', '.join(policy.ports)}"


def _hits(v: DeviceView, policy: AppliedPolicy, cls: PolicyClass, message: str) -> Iterator[Hit]:
    """The finding on each RoCE port a port policy acts on; once for the switch where it acts
    on every port, on VLANs or on an uplink group."""
    if policy.scope != "port":
        yield Hit(message, line=cls.line or policy.line, of_switch=True)
        return
    for name in policy.ports:
        port = v.interface(name)
        if port is not None and v.carries_roce(port):
            yield Hit(message, port=name, line=cls.line or policy.line)


def _limit(cls: PolicyClass) -> str | None:
    """What the class's behavior does to a rate, or None where it lets all through."""
    if cls.deny:
        return "drops every packet of it"
    if cls.cir_kbps is None:
        return None
    if cls.shaped:
        return f"shapes it to {cls.cir_kbps:,} kb/s (the excess waits in a queue)"
    if cls.drops_excess:
        return f"polices it to {cls.cir_kbps:,} kb/s and drops the excess"
    return None


@rule(
    "RC130",
    "cnp-rate-limited",
    "error",
    "device",
    summary="A QoS policy rate-limits, shapes or drops the CNP class.",
    rationale="Congestion notification packets tell DCQCN senders to slow down. A policer that "
    "drops them beyond a rate, a shaper that delays them, or a filter that drops them makes "
    "senders miss or learn late of congestion: queues fill, PFC pauses spread and RoCE "
    "throughput collapses, while every lossless setting looks right.",
    fix="Remove the rate limit from the class that matches the CNP DSCP (or exclude the CNP "
    "DSCP from it); police other traffic classes only.",
    limits="The CNP DSCP is the intent's, else --cnp-dscp, else the config's lossy DSCP on a "
    "strict queue, else 48. Classes are matched by their DSCP and 802.1p criteria and "
    "'if-match any'; a class matched only by an ACL is not judged (its rules are not read). A "
    "'car' line that prints no red action drops the excess (the documented default on Comware; "
    "on VRP no source gives it and the parse says so).",
    reads=("qos_maps",),
)
def cnp_rate_limited(v: DeviceView) -> Iterator[Hit]:
    dscp = v.cnp_dscp
    for policy in v.device.qos.policies:
        for cls in policy.classes:
            what = _limit(cls)
            if what is None or not _matches(v, cls, dscp):
                continue
            message = (
                f"QoS policy {policy.name} ({_where(policy)}): class {cls.classifier} matches "
                f"the CNP DSCP {dscp} and behavior {cls.behavior} {what}"
            )
            yield from _hits(v, policy, cls, message)


def _new_priority(v: DeviceView, cls: PolicyClass, dscp: int) -> tuple[int, int]:
    """The DSCP a re-marked packet leaves with and the priority it lands in."""
    new_dscp = dscp if cls.remark_dscp is None else cls.remark_dscp
    if cls.remark_priority is not None:
        return new_dscp, cls.remark_priority
    return new_dscp, v.priority_of(new_dscp)


@rule(
    "RC131",
    "roce-remarked-lossy",
    "error",
    "device",
    summary="A QoS policy re-marks RoCE to a DSCP or priority that is not no-drop.",
    rationale="PFC and ECN protect the priority RoCE is classified into at every hop. A re-mark "
    "of the RoCE DSCP (or of its 802.1p priority) to a value that maps to a lossy priority takes "
    "RoCE out of the lossless class from that hop on: it is dropped under congestion and "
    "go-back-N retransmission collapses throughput.",
    fix="Remove the re-mark from the class that matches RoCE, or re-mark to a DSCP that maps "
    "to a no-drop priority.",
    limits="The RoCE DSCP is the intent's, else --roce-dscp, else the DSCP most configs map to a "
    "no-drop priority, else 26. The new DSCP is judged by this switch's DSCP map (an outbound "
    "re-mark is classified by the next hop, whose map RC303 compares with this one). A chain of "
    "re-marks is followed (PFC uplink groups move RoCE from queue to queue on each turn back "
    "up): the first step that lands in a lossy priority is reported. A re-mark of the 802.1p "
    "priority is judged as the priority RoCE then has (an untagged routed link carries none, "
    "and its next hop classifies by DSCP).",
    reads=("qos_maps", "pfc"),
)
def roce_remarked_lossy(v: DeviceView) -> Iterator[Hit]:
    no_drop = set(v.device.qos.no_drop)
    if v.priority_of(v.roce_dscp) not in no_drop:
        return  # RoCE is lossy here already: RC109's finding
    classes = [(p, c) for p in v.device.qos.policies for c in p.classes]
    remarks = [(p, c) for p, c in classes if (c.remark_dscp, c.remark_priority) != (None, None)]
    carried, todo, seen = {v.roce_dscp}, [v.roce_dscp], set()
    while todo:
        dscp = todo.pop()
        for policy, cls in remarks:
            if not _matches(v, cls, dscp) or (id(cls), dscp) in seen:
                continue
            seen.add((id(cls), dscp))
            new_dscp, priority = _new_priority(v, cls, dscp)
            if priority in no_drop:
                if new_dscp not in carried:
                    carried.add(new_dscp)
                    todo.append(new_dscp)
                continue
            was = "" if dscp == v.roce_dscp else f", re-marked from DSCP {v.roce_dscp}"
            message = (
                f"QoS policy {policy.name} ({_where(policy)}): class {cls.classifier} matches "
                f"RoCE (DSCP {dscp}{was}) and behavior {cls.behavior} re-marks it to DSCP "
                f"{new_dscp}, priority {priority}, not a no-drop priority {sorted(no_drop)}"
            )
            yield from _hits(v, policy, cls, message)


@rule(
    "RC132",
    "ecn-above-queue-cap",
    "error",
    "device",
    summary="An ECN threshold is at or above the buffer cap of its queue on a port.",
    rationale="A queue capped below the ECN low threshold never holds enough to be marked: it "
    "drops or pauses before ECN acts, so DCQCN gets no signal and congestion is only relieved "
    "by PFC pauses (or losses).",
    fix="Raise the queue's buffer cap above the ECN high threshold, or lower the thresholds "
    "below the cap.",
    limits="Judged where the cap and the thresholds are both in bytes (a static cap, VRP 'qos "
    "buffer queue <q> shared-threshold static'). A cap in percent of the shared buffer (Comware "
    "'buffer egress cell queue <q> shared ratio') or a dynamic one depends on the buffer's size "
    "or use, which no source gives: not judged.",
    reads=("ecn", "buffers"),
)
def ecn_above_queue_cap(v: DeviceView) -> Iterator[Hit]:
    thresholds = {e.queue: e for e in v.device.qos.ecn if e.unit == "bytes"}
    for cap in v.device.qos.buffer_caps:
        ecn = thresholds.get(cap.queue)
        if cap.unit != "bytes" or ecn is None or ecn.min_bytes < cap.value:
            continue
        ports = [v.interface(cap.port)] if cap.port else v.lossless_ports()
        for port in ports:
            if port is None or port.shutdown or cap.queue not in port.qos.ecn_queues:
                continue
            yield Hit(
                f"queue {cap.queue}: ECN marks from {ecn.min_bytes:,} B but the queue may hold "
                f"at most {cap.value:,} B: it never marks",
                port=port.name,
                line=cap.line,
            )


def _unevaluated(cls: PolicyClass) -> bool:
    """Whether the class may match packets by a criterion roce-cfg does not evaluate (an ACL):
    one of them alone, or beside others under 'or' (or no operator known)."""
    if not cls.other:
        return False
    return cls.operator != "and" or not (cls.dscps or cls.priorities or cls.any_traffic)


@rule(
    "RC133",
    "policy-class-unverified",
    "warning",
    "device",
    summary="Cannot verify whether a QoS policy's rate limit, drop or re-mark touches RoCE or CNP: "
    "its class is matched by an ACL whose rules are not read.",
    rationale="RC130 and RC131 judge a class by its DSCP and 802.1p criteria. A class matched by "
    "an ACL may take RoCE or CNP packets (an ACL permitting UDP 4791, or all IP); roce-cfg does "
    "not read ACL rules, so it cannot say the policy leaves them alone.",
    fix="Check the ACL's rules: if they match RoCE or CNP, the policy's rate limit, drop or "
    "re-mark applies to them (see RC130, RC131); suppress this finding once checked.",
    reads=("qos_maps",),
    verifies=False,
)
def policy_class_unverified(v: DeviceView) -> Iterator[Hit]:
    for policy in v.device.qos.policies:
        for cls in policy.classes:
            if not _unevaluated(cls):
                continue
            what = _limit(cls) or (
                "re-marks it" if (cls.remark_dscp, cls.remark_priority) != (None, None) else None
            )
            if what is None:
                continue
            message = (
                f"cannot verify: QoS policy {policy.name} ({_where(policy)}): class "
                f"{cls.classifier} is matched by {', '.join(cls.other)}, whose rules are not read; "
                f"behavior {cls.behavior} {what}: whether that touches RoCE or CNP is not checked"
            )
            yield from _hits(v, policy, cls, message)
