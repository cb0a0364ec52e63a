"""M-LAG (DRNI) pair rules: the two switches of a pair form one system only with consistent
system settings (vendors/<vendor>.grammar.yaml cites where each requirement is stated)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from roce_cfg.analysis.context import DeviceView, FabricView
from roce_cfg.analysis.registry import Hit, rule
from roce_cfg.model.device import MlagSystem


@rule(
    "RC320",
    "mlag-system-mismatch",
    "error",
    "fabric",
    summary="The two switches of an M-LAG (DRNI) pair share a system number, differ in system "
    "MAC or priority, or their keepalives do not name each other.",
    rationale="An M-LAG pair forms one system only when both members use the same system MAC "
    "and priority and each its own system number, and each accepts keepalives only from the "
    "address it names (H3C 'Configuring M-LAG'). Otherwise the system does not form: the "
    "dual-homed servers' bonds run on one switch or split, and the flows they hash onto the "
    "other are lost.",
    fix="Give the two switches different system numbers, the same system MAC and priority, "
    "and keepalives whose destination is the other's source.",
    limits="Compared on the pairs a peer-link joins; a setting one of the two does not print "
    "is not compared.",
    reads=("mlag",),
)
def mlag_system_mismatch(f: FabricView) -> Iterator[Hit]:
    pairs = f.facts.mlag_pairs() if f.facts is not None else set()
    for pair in sorted(pairs, key=sorted):
        a_name, b_name = sorted(pair)
        a, b = f.devices.get(a_name), f.devices.get(b_name)
        if a is None or b is None or a.device.mlag is None or b.device.mlag is None:
            continue
        for problem in _disagreements(a.device.mlag, b.device.mlag):
            yield Hit(
                f"M-LAG pair with {b.name}: {problem}",
                device=a.name,
                related_device=b.name,
                line=_system_line(a),
            )


def _disagreements(a: MlagSystem, b: MlagSystem) -> Iterator[str]:
    if a.system_number is not None and a.system_number == b.system_number:
        yield f"both switches use system number {a.system_number} (each needs its own)"
    if a.system_mac and b.system_mac and _mac(a.system_mac) != _mac(b.system_mac):
        yield f"system MAC {a.system_mac} here, {b.system_mac} there (one system, one MAC)"
    pa, pb = a.system_priority, b.system_priority
    if pa is not None and pb is not None and pa != pb:
        yield f"system priority {pa} here, {pb} there"
    for x, y, where in ((a, b, "here"), (b, a, "there")):
        sent, source = x.keepalive_destination, y.keepalive_source
        if sent and source and sent != source:
            yield f"the keepalive {where} goes to {sent}, the other switch sends from {source}"


def _mac(text: str) -> tuple[int, ...]:
    """A MAC as its groups' values ('1-1-1' and '0001-0001-0001' are one MAC)."""
    return tuple(int(g, 16) for g in re.split(r"[-.:]", text) if g)


def _system_line(v: DeviceView) -> int | None:
    """The line of the switch's system number (the vendor's 'mlag' anchor, a regex)."""
    anchor = v.profile.parse.anchors.get("mlag")
    if not anchor:
        return None
    pattern = re.compile(anchor)
    return next((b.header.no for b in v.source.blocks if pattern.match(b.header.text)), None)
