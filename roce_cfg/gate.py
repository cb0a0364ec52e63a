"""The evidence gate: what of a switch was not read, where, and so what no rule may conclude.

The parse accounts for every line (parse/accounting.py); a line no reader takes, or one a reader
refused for its value, leaves its section unread at its scope: one port (the lines of its
block) or the whole switch (a global line, a named profile, a range of ports). A rule that reads
such a section there must not judge it as if the setting were absent ("PFC is off" from a PFC
profile it did not read): the engine drops its conclusion there, and the gate's one warning per
switch and section (RC405) says what could not be verified, on which lines, and which rules were
not judged where. ``deadlock`` never says "no cycle" over a switch whose lossless policy or
routing the gate finds unread.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field

from roce_cfg.model.device import DeviceConfig
from roce_cfg.parse.accounting import UNKNOWN_SECTION, UnreadFact
from roce_cfg.parse.lossless import LOSSLESS

MODEL = "model"  # not a config section: the model a switch runs, where the config does not say

# What a section holds, as a finding says it.
SECTION_NAMES = {
    "pfc": "PFC and its no-drop priorities",
    "qos_maps": "QoS trust and the DSCP and queue maps",
    "ecn": "ECN marking",
    "watchdog": "the PFC watchdog",
    "buffers": "buffers and headroom",
    "scheduling": "queue scheduling",
    "mtu": "MTU and frame size",
    "interfaces": "port settings",
    "vlan_interfaces": "VLAN interfaces",
    "aggregates": "link aggregation",
    "mlag": "M-LAG",
    "bgp": "BGP",
    "static_routes": "static routes",
    "loopback": "the loopback (router ID, BGP sessions to it)",
    UNKNOWN_SECTION: "a value refused on a line not found",
    MODEL: "the switch's model (the config does not state it)",
    LOSSLESS: "settings no reader places, on lines whose words name lossless ones",
}

# The sections the deadlock analysis stands on: which priorities pause (the lossless policy)
# and where traffic goes (links and routing).
DEADLOCK_SECTIONS = frozenset(
    {
        "pfc",
        "qos_maps",
        "interfaces",
        "vlan_interfaces",
        "aggregates",
        "mlag",
        "bgp",
        "static_routes",
        "loopback",
        LOSSLESS,
        UNKNOWN_SECTION,
    }
)

Lines = tuple[int, ...]


def _merge(into: dict[str, list[int]], section: str, lines: Iterable[int]) -> None:
    into.setdefault(section, []).extend(lines)


@dataclass(frozen=True)
class Gate:
    """One switch's unread facts: switch-wide ones, per port, and the ports that share a
    port's settings (an aggregate and its members, a port and its sub-interfaces or breakout
    legs), so that a line not read on one is not read for the others."""

    wide: dict[str, Lines] = field(default_factory=dict)
    ports: dict[str, dict[str, Lines]] = field(default_factory=dict)
    shared: dict[str, tuple[str, ...]] = field(default_factory=dict)

    @classmethod
    def of(
        cls, facts: Iterable[UnreadFact], device: DeviceConfig, model_assumed: bool = False
    ) -> Gate:
        """``model_assumed``: the config states no model and none was given; the one its port
        layout suggests stands in, and what depends on the exact model is not verified."""
        wide: dict[str, list[int]] = {MODEL: []} if model_assumed else {}
        ports: dict[str, dict[str, list[int]]] = {}
        for f in facts:
            _merge(wide if f.port is None else ports.setdefault(f.port, {}), f.section, f.lines)
        if not wide and not ports:
            return NOTHING_UNREAD
        return cls(
            {s: tuple(sorted(n)) for s, n in wide.items()},
            {p: {s: tuple(sorted(n)) for s, n in by.items()} for p, by in ports.items()},
            _shared(device) if ports else {},
        )

    def __bool__(self) -> bool:
        return bool(self.wide or self.ports)

    def unread(self, sections: Collection[str], port: str | None = None) -> Lines | None:
        """The lines not read that bear on ``sections``: at ``port``, the switch-wide ones and
        those of its own block and of the ports it shares settings with; for the switch as a
        whole (``port`` None: a finding about its policy, which its ports' lines make up on
        some vendors), every one. None when all of it was read (empty: not read, on lines not
        known)."""
        if not self or not sections:
            return None
        names = self.ports if port is None else (port, *self.shared.get(port, ()))
        found = _lines_of(self.wide, sections)
        for name in names:
            more = _lines_of(self.ports.get(name, {}), sections)
            if more is not None:
                found = more if found is None else found + more
        return None if found is None else tuple(sorted(set(found)))

    def sections(self) -> list[str]:
        """Every section not read somewhere on the switch."""
        return sorted({*self.wide, *(s for by in self.ports.values() for s in by)})

    def where(self, section: str) -> tuple[Lines, list[str]]:
        """A section's switch-wide lines, and the ports where it was not read in their own
        blocks."""
        ports = [p for p, by in self.ports.items() if section in by]
        return self.wide.get(section, ()), ports

    def port_lines(self, section: str) -> Lines:
        return tuple(sorted({n for by in self.ports.values() for n in by.get(section, ())}))


NOTHING_UNREAD = Gate()

# The sections whose origin a finding names: what makes a port lossless (the others, a port's
# addresses or its aggregate, are what makes it a link)
POLICY_SECTIONS = ("pfc", "qos_maps", "scheduling", "ecn", "watchdog", "buffers", "mtu")
ReadWhere = Mapping[tuple[str, str | None], tuple[int, ...]]


def origins(
    read: ReadWhere, gate: Gate, device: DeviceConfig, sections: Iterable[str], port: str
) -> list[str]:
    """Where each policy section a finding at ``port`` stands on came from: the lines read on the
    port, on the ports it shares settings with (inherited: an aggregate, a breakout parent),
    switch-wide (a profile, a map, a global policy), or none (the default), or not read."""
    shared = gate.shared if gate.shared else _shared(device)
    out = []
    for section in (s for s in POLICY_SECTIONS if s in set(sections)):
        parts = []
        own = read.get((section, port), ())
        if own:
            parts.append(f"line {_listed(own)} (the port)")
        for other in shared.get(port, ()):
            lines = read.get((section, other), ())
            if lines:
                parts.append(f"line {_listed(lines)} (inherited from {other})")
        wide = read.get((section, None), ())
        if wide:
            parts.append(f"line {_listed(wide)} (switch-wide)")
        said = "read from " + ", ".join(parts) if parts else "no line sets it: the default"
        out.append(f"origin: {SECTION_NAMES[section]}: {said}")
    return out


def _listed(lines: tuple[int, ...]) -> str:
    shown = ", ".join(map(str, lines[:6]))
    return f"{shown} ..." if len(lines) > 6 else shown


# Sections whose unread lines leave every section unread where they are: what they set is not
# known (a value refused on a line not found; a port setting no reader knows, in a port's block
# or switch-wide like an unread 'interface range'; a line only its words mark as lossless).
EVERY_SECTION = frozenset({UNKNOWN_SECTION, "interfaces", LOSSLESS})


def _lines_of(by: dict[str, Lines], sections: Collection[str]) -> list[int] | None:
    """The lines of ``sections`` in ``by``; None when none of them is there."""
    hit = [s for s in by if s in sections or s in EVERY_SECTION]
    return [n for s in hit for n in by[s]] if hit else None


def _shared(device: DeviceConfig) -> dict[str, tuple[str, ...]]:
    """Port -> the ports whose settings it shares: aggregate <-> members, a parent port <->
    its breakout legs."""
    groups: list[set[str]] = [{a.name, *a.members} for a in device.aggregates if a.members]
    legs: dict[str, set[str]] = {}
    for port in device.interfaces:
        if port.breakout_of:
            legs.setdefault(port.breakout_of, {port.breakout_of}).add(port.name)
    groups += legs.values()
    out: dict[str, set[str]] = {}
    for group in groups:
        for name in group:
            out.setdefault(name, set()).update(group - {name})
    return {name: tuple(sorted(others)) for name, others in out.items()}
