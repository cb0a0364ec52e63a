"""What the normaliser's readers hand each other: WRED thresholds, what a port's lines say (one
reading shared by the ports that repeat them), what the config states once for its ports, and
the ports found. Plain records, below the readers and the context that keeps them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from roce_cfg.model import numbers
from roce_cfg.model.device import (
    Interface,
    Loopback,
    PortDistance,
    PortIpv6,
    PortQos,
    PortVrf,
    VlanInterface,
    WatchdogCfg,
)
from roce_cfg.parse import pfc_profiles


@dataclass
class Wred:
    min_bytes: int
    max_bytes: int
    probability: int
    unit: Literal["bytes", "percent", "device"] = "bytes"


@dataclass(frozen=True)
class Globals:
    """What the config states once and its ports refer to."""

    tables: dict[str, dict[int, Wred]]
    profiles: dict[str, Wred]
    no_drop: tuple[int, ...]
    watchdog: WatchdogCfg | None
    every_vlan: numbers.Ranges
    speeds: dict[str, int]
    pfc: pfc_profiles.Profiles = field(default_factory=pfc_profiles.Profiles)
    splits: dict[str, int] = field(default_factory=dict)  # split parent -> its legs' Gb/s
    ai_ecn: tuple[int, ...] = ()  # queues that mark ECN at thresholds the switch sets


@dataclass
class PortsFound:
    loopback: Loopback | None = None
    ports: list[Interface] = field(default_factory=list)
    svis: list[VlanInterface] = field(default_factory=list)
    ecn: dict[int, Wred] = field(default_factory=dict)
    # port -> its aggregation lines (group, minimum members, peer-link, M-LAG id)
    lag_lines: dict[str, dict[str, Any]] = field(default_factory=dict)
    vrfs: list[PortVrf] = field(default_factory=list)
    distances: list[PortDistance] = field(default_factory=list)
    # a port split into breakout legs -> the leg type its 'using' line names
    split: dict[str, str] = field(default_factory=dict)
    ipv6: list[PortIpv6] = field(default_factory=list)
    unscheduled: list[str] = field(default_factory=list)  # ports with no scheduling line
    mtu_unknown: list[str] = field(default_factory=list)  # DeviceConfig.mtu_unknown


@dataclass
class PortLines:
    """What a port's lines other than its own say (``_OWN_KEYS``), and the first port read
    with them."""

    mode: Literal["routed", "access"]
    access_vlan: int | None
    trunk_vlans: numbers.Ranges
    mtu: int
    frame: int | None
    speed: int | None  # what its own lines set; None as well when a hint gives its speed
    shutdown: bool
    qos: PortQos
    ecn: dict[int, Wred]
    port: Interface | None = None
