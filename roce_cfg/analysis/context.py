"""What rules look at: each device with its profile and source lines, and the fabric around it."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from ipaddress import IPv4Network
from typing import Any

from roce_cfg.model.device import DeviceConfig, Interface
from roce_cfg.parse import Parsed, SourceMap
from roce_cfg.platforms.profile import ModelSpec, VendorProfile

# 'cable=30m', 'cable 2.5 m', 'cable:100m' in an interface description gives the cable length.
CABLE_IN_DESCRIPTION = re.compile(r"\bcable\s*[=:]?\s*(\d+(?:\.\d+)?)\s*m\b", re.IGNORECASE)
ROCE_MIN_MTU = 4200


@dataclass(frozen=True)
class Options:
    cable_default_m: float = 100.0
    roce_dscp: int = 26
    cnp_dscp: int = 48
    deadlock: bool = False  # also run the deadlock analysis of the healthy fabric (RC501)
    # rail VLAN -> the switches the plan puts it on (fabric.json / intent)
    vlan_switches: dict[int, frozenset[str]] = field(default_factory=dict)
    # (device, port) -> cable length in metres, from fabric.json or the intent
    cables: dict[tuple[str, str], float] = field(default_factory=dict)


@dataclass
class DeviceView:
    parsed: Parsed
    profile: VendorProfile
    model: ModelSpec
    text: str
    options: Options
    # Computed once per device for the rules that share them (headroom needs, BGP neighbours).
    memo: dict[str, Any] = field(default_factory=dict)

    @property
    def device(self) -> DeviceConfig:
        return self.parsed.config.device

    @property
    def name(self) -> str:
        return self.device.hostname

    @property
    def file(self) -> str:
        return self.parsed.config.source

    @property
    def source(self) -> SourceMap:
        return self.parsed.source

    def priority_of(self, dscp: int) -> int:
        """The 802.1p priority a DSCP lands in: the device's map, else the class selector
        (DSCP >> 3) that every vendor here uses as the default map."""
        for m in self.device.qos.dscp_map:
            if m.dscp == dscp:
                return m.priority
        return dscp >> 3

    def queue_of(self, priority: int) -> int:
        for m in self.device.qos.queue_map:
            if m.priority == priority:
                return m.queue
        return priority

    def interface(self, name: str) -> Interface | None:
        index: dict[str, Interface] | None = self.memo.get("interfaces")
        if index is None:
            index = self.memo["interfaces"] = {i.name: i for i in self.device.interfaces}
        return index.get(name)

    def in_use(self) -> list[Interface]:
        return [i for i in self.device.interfaces if not i.shutdown]

    def carries_roce(self, port: Interface) -> bool:
        """Server-facing access ports and routed point-to-point fabric links carry RoCE."""
        if port.shutdown:
            return False
        if port.qos.pfc or port.mode == "access":
            return True
        return port.ipv4 is not None and port.ipv4.network.prefixlen >= 30

    def cable(self, port: Interface) -> tuple[float, str]:
        known = self.options.cables.get((self.name, port.name))
        if known is not None:
            return known, "from the plan"
        m = CABLE_IN_DESCRIPTION.search(port.description)
        if m:
            return float(m[1]), "from the description"
        return self.options.cable_default_m, "unknown, default assumed (--cable-length)"


@dataclass(frozen=True)
class LinkEnd:
    device: str
    port: str


@dataclass(frozen=True)
class FabricLink:
    a: LinkEnd
    b: LinkEnd
    cable_m: float | None = None


@dataclass
class FabricView:
    devices: dict[str, DeviceView]
    links: list[FabricLink]
    options: Options
    planned: bool = False  # links came from fabric.json / the intent rather than addresses
    memo: dict[str, Any] = field(default_factory=dict)

    def port(self, end: LinkEnd) -> Interface | None:
        view = self.devices.get(end.device)
        if view is None:
            return None
        return view.interface(end.port)


def infer_links(devices: dict[str, DeviceView]) -> list[FabricLink]:
    """Point-to-point links from the addresses: both ends of a /31 (or /30) subnet."""
    ends: dict[IPv4Network, list[LinkEnd]] = {}
    for name, view in sorted(devices.items()):
        for port in view.device.interfaces:
            if port.ipv4 is not None and port.ipv4.network.prefixlen >= 30 and not port.shutdown:
                ends.setdefault(port.ipv4.network, []).append(LinkEnd(name, port.name))
    return [FabricLink(e[0], e[1]) for _, e in sorted(ends.items()) if len(e) == 2]
