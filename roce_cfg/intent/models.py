"""What an operator writes: the intent. Frozen, strict, and the only home of raw YAML shapes."""

from __future__ import annotations

import difflib
import re
from ipaddress import IPv4Network
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, WithJsonSchema

from roce_cfg.vendor import Vendor

_SPEED_RE = re.compile(r"^\s*(\d+)\s*(g|gb|gbe|gbps)?\s*$", re.IGNORECASE)
SPEEDS_GBPS = (10, 25, 40, 50, 100, 200, 400, 800)


def _parse_speed(value: Any) -> Any:
    """Accept ``400G``, ``400g``, ``400`` and 400; leave anything else for pydantic to reject."""
    if isinstance(value, str):
        m = _SPEED_RE.match(value)
        if not m:
            raise ValueError(f"'{value}' is not a link speed such as 100G or 400G")
        value = int(m.group(1))
    if isinstance(value, int) and not isinstance(value, bool) and value not in SPEEDS_GBPS:
        known = ", ".join(f"{s}G" for s in SPEEDS_GBPS)
        raise ValueError(f"{value}G is not an Ethernet speed roce-cfg knows ({known})")
    return value


def speed_number(text: str) -> int:
    """The Gb/s of a speed as the intent writes it (``400G``, ``400g``, ``400Gb``, ``400``):
    the command line takes the same forms (``plan --nic-speed 400G``)."""
    m = _SPEED_RE.match(text)
    if not m or len(m.group(1)) > 6:
        raise ValueError(f"'{text}' is not a link speed such as 100G or 400G")
    return int(m.group(1))


Speed = Annotated[
    int,
    BeforeValidator(_parse_speed),
    WithJsonSchema({"type": "string", "pattern": r"^\d+[Gg]?$", "examples": ["200G", "400G"]}),
]


# Headroom per port and priority: an 800G port on a 10 km cable needs about 10 MB; 1 GiB is
# more than the packet buffer of any switch ASIC, so past it a figure is a typo (10^12 was
# rendered into every config, and past 2^40 it was a traceback).
MAX_HEADROOM_BYTES = 2**30


def _headroom(value: Any) -> Any:
    """One message for a figure out of range (the union would give one per member)."""
    number = isinstance(value, int) and not isinstance(value, bool)
    if number and not 1 <= value <= MAX_HEADROOM_BYTES:
        raise ValueError(
            f"'auto', or 1 to {MAX_HEADROOM_BYTES:,} bytes per port and priority (1 GiB: "
            "more than any switch's packet buffer)"
        )
    return value


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Servers(_Model):
    count: int = Field(ge=1, le=65536, description="GPU servers in the fabric")
    nics: int = Field(ge=1, le=16, description="RoCE NICs per server; NIC i sits in rail i")
    nic_speed: Speed
    pcie_gen: int = Field(default=5, ge=3, le=6, description="PCIe generation of the NIC slot")
    pcie_lanes: int = Field(default=16, ge=1, le=16)


def _vendor(value: Any) -> Any:
    """Vendor names in any case (``H3C``, ``Huawei``); a near miss gets a did-you-mean."""
    if not isinstance(value, str):
        return value
    name = value.strip().lower()
    known = [v.value for v in Vendor]
    if name in known:
        return name
    close = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
    hint = f"; did you mean '{close[0]}'?" if close else ""
    raise ValueError(f"unknown vendor '{value}' (one of {', '.join(known)}){hint}")


class SwitchRole(_Model):
    vendor: Annotated[Vendor, BeforeValidator(_vendor)]
    model: str | None = Field(default=None, description="omit for the vendor's default profile")


class LinkSpec(_Model):
    speed: Speed
    cable_m: float = Field(gt=0, le=10000, description="longest cable of this kind, metres")


class Links(_Model):
    server_leaf: LinkSpec
    leaf_spine: LinkSpec | None = None
    spine_superspine: LinkSpec | None = Field(default=None, description="three-tier plans")


class FabricSpec(_Model):
    topology: Literal["leaf-spine", "single-switch"]
    rails: int = Field(ge=1, le=16)
    leaves_per_rail: int = Field(default=1, ge=1, le=64)
    spines: int = Field(default=0, ge=0, le=256, description="spines (per pod when pods > 1)")
    uplinks_per_spine: int = Field(default=1, ge=1, le=16)
    pods: int = Field(
        default=1, ge=1, le=64, description="leaf-spine blocks joined by super-spines (3 tiers)"
    )
    super_spines: int = Field(default=0, ge=0, le=1024)
    super_spine_planes: bool = Field(
        default=False,
        description="spine j of every pod joins only plane j's super-spines (super_spines / spines "
        "per plane), so super-spine ports scale with pods, not with all pod spines",
    )
    uplinks_per_super_spine: int = Field(default=1, ge=1, le=16)
    leaf: SwitchRole | None = None
    spine: SwitchRole | None = None
    super_spine: SwitchRole | None = None
    switch: SwitchRole | None = Field(default=None, description="the one box of a single-switch")
    links: Links
    mtu: int = Field(default=9216, ge=1500, le=9600, description="interface MTU, bytes")


class Addressing(_Model):
    loopbacks: IPv4Network
    fabric_p2p: IPv4Network | None = None
    rail_subnets: IPv4Network
    rail_vlan_base: int = Field(ge=2, le=4094)


class Routing(_Model):
    protocol: Literal["ebgp"] = "ebgp"
    spine_asn: int | None = Field(default=None, ge=1, le=4294967295)
    spine_asn_base: int | None = Field(
        default=None, ge=1, le=4294967295, description="spine i gets spine_asn_base + i"
    )
    leaf_asn_base: int = Field(ge=1, le=4294967295)
    super_spine_asn: int | None = Field(
        default=None, ge=1, le=4294967295, description="shared by all super-spines (3 tiers)"
    )
    max_paths: int = Field(default=64, ge=1, le=512)


class TrafficClass(_Model):
    dscp: int = Field(ge=0, le=63)
    priority: int = Field(ge=0, le=7)


class Watchdog(_Model):
    detect_ms: int = Field(default=200, ge=10, le=15000)
    restore_ms: int = Field(
        default=2000,
        ge=0,
        le=31000,
        description="left out: 2000, or the nearest the switch model takes (1500 on Huawei "
        "CE8851-32CQ8DQ-P); a value the model cannot take is refused here",
    )
    action: Literal["drop", "forward"] = "drop"


class Pfc(_Model):
    no_drop: tuple[int, ...] = Field(default=(3,), min_length=1, max_length=8)
    watchdog: Watchdog | None = Field(
        default_factory=Watchdog, description="null turns the PFC watchdog off"
    )


class Ecn(_Model):
    min_kb: int = Field(ge=1, le=100000)
    max_kb: int = Field(ge=1, le=100000)
    probability: int = Field(default=100, ge=1, le=100)


class Lossless(_Model):
    roce: TrafficClass = TrafficClass(dscp=26, priority=3)
    cnp: TrafficClass = TrafficClass(dscp=48, priority=6)
    pfc: Pfc = Pfc()
    ecn: Ecn | None = Field(default=None, description="omitted: defaults by link speed")
    headroom: Annotated[Literal["auto"] | int, BeforeValidator(_headroom)] = Field(
        default="auto", description="'auto' computes per port; a number fixes bytes per priority"
    )


class Intent(_Model):
    name: str = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$")
    servers: Servers
    fabric: FabricSpec
    addressing: Addressing
    routing: Routing | None = None
    lossless: Lossless = Lossless()
