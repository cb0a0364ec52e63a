"""Sub-interfaces: each names the port it rides and takes from it what lives on the port.

A dot1q sub-interface ('400GE1/0/1.100' with 'dot1q termination vid 100') is a routed interface
of its own — address, VRF, MTU, trust — over its parent's link: its frames queue, pause and are
marked in the parent's queues. Huawei's sub-interface views take 'mtu', 'ip binding
vpn-instance', 'trust' and 'trust upstream', never 'dcb pfc enable', 'qos drr', 'qos queue ...'
or 'jumboframe enable' (the physical-port views' commands) [HW-CR]; which settings a
sub-interface takes from its parent is the profile's (``parse.sub_interface.inherit``).
"""

from __future__ import annotations

from typing import Any

from roce_cfg.model.device import Interface, PortQos, SubInterface
from roce_cfg.parse.reader import LineReader

_PORT_FIELDS = frozenset(Interface.model_fields) - {"qos", "name"}
_QOS_FIELDS = frozenset(PortQos.model_fields)


def parent_name(ctx: LineReader, name: str) -> str | None:
    """The port a sub-interface of this name rides ('400GE1/0/1' of '400GE1/0/1.100')."""
    spec = ctx.profile.parse.sub_interface
    if spec is None:
        return None
    base, sep, number = name.rpartition(spec.separator)
    if not sep or not number.isdigit() or ctx.namer.name(base).kind not in ("port", "aggregate"):
        return None
    return base


def resolve(
    ctx: LineReader, ports: list[Interface], members: dict[str, tuple[str, ...]]
) -> tuple[list[Interface], tuple[SubInterface, ...]]:
    """The ports, each sub-interface with what it takes from its parent, and the switch's
    sub-interfaces. ``members``: each aggregate's member ports (an aggregate pauses where its
    members do)."""
    spec = ctx.profile.parse.sub_interface
    if spec is None:
        return ports, ()
    by_name = {p.name: p for p in ports}
    out, subs = [], []
    for port in ports:
        parent = parent_name(ctx, port.name)
        carrier = by_name.get(parent) if parent is not None else None
        if parent is not None:
            subs.append(SubInterface(port=port.name, parent=parent))
        if carrier is None:
            out.append(port)
            continue
        qos = _paused(carrier, [by_name[m] for m in members.get(carrier.name, ()) if m in by_name])
        own: dict[str, Any] = {f: getattr(carrier, f) for f in spec.inherit if f in _PORT_FIELDS}
        own["shutdown"] = port.shutdown or carrier.shutdown
        taken = {f: getattr(qos, f) for f in spec.inherit if f in _QOS_FIELDS}
        own["qos"] = port.qos.model_copy(update=taken)
        out.append(port.model_copy(update=own))
    return out, tuple(subs)


def _paused(carrier: Interface, members: list[Interface]) -> PortQos:
    """The QoS a sub-interface's frames meet on its parent: an aggregate's PFC is its
    members' (a pause on one member stops the frames hashed to it)."""
    if not members:
        return carrier.qos
    on = [m for m in members if m.qos.pfc and not m.shutdown]
    no_drop = tuple(sorted({x for m in on for x in m.qos.no_drop}))
    return carrier.qos.model_copy(update={"pfc": bool(on), "no_drop": no_drop})
