"""Fabric: the plan that joins the devices: who is cabled to whom, rails, addressing, headroom."""

from __future__ import annotations

from ipaddress import IPv4Interface, IPv4Network
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from roce_cfg.model.device import DeviceConfig, PortAddress, QuadAddress, Role
from roce_cfg.vendor import Vendor


class _M(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


# A fabric.json is read back from disk (lint, deadlock, docs, report): its addresses are read
# by the fast readers of a config's (an xl fabric.json holds 300,000), and its figures get the
# intent's bounds, so a hand-edited NaN cable or a 0G link is refused where it is read, not
# turned into a traceback or a negative headroom later.
Gbps = Annotated[int, Field(gt=0, le=1600)]
Metres = Annotated[float, Field(gt=0, le=10000, allow_inf_nan=False)]
VlanId = Annotated[int, Field(ge=1, le=4094)]
Bytes = Annotated[int, Field(ge=0, le=1 << 40)]


class SwitchPlan(_M):
    hostname: str
    role: Role
    vendor: Vendor
    model: str
    asn: Annotated[int, Field(ge=1, le=4294967295)] | None = None
    loopback: PortAddress | None = None
    rail: int | None = None
    pod: int | None = None


class Link(_M):
    kind: Literal["leaf-spine", "spine-superspine"]
    a_device: str
    a_port: str
    a_ip: PortAddress
    b_device: str
    b_port: str
    b_ip: PortAddress
    speed_gbps: Gbps
    cable_m: Metres

    def seen_from(self, device: str) -> tuple[IPv4Interface, str, str, IPv4Interface]:
        """``(local ip, far device, far port, far ip)`` for the end on ``device``."""
        if device == self.a_device:
            return self.a_ip, self.b_device, self.b_port, self.b_ip
        return self.b_ip, self.a_device, self.a_port, self.a_ip


class NicAttachment(_M):
    server: str
    nic: int
    rail: int
    vlan: VlanId
    switch: str
    port: str
    ip: PortAddress
    gateway: QuadAddress
    speed_gbps: Gbps
    cable_m: Metres


class Rail(_M):
    rail: int
    vlan: VlanId
    switch: str
    subnet: IPv4Network
    gateway: QuadAddress


class HeadroomTerm(_M):
    name: str
    bytes: Bytes


class PortHeadroom(_M):
    """One switch's ports that share a speed and a cable length, hence one headroom need.

    Grouped rather than one entry per port: a 1,280-switch fabric has 160,000 lossless ports but
    only a few speed x cable kinds per switch, and fabric.json carries every term of the formula.
    """

    switch: str
    ports: tuple[str, ...]
    speed_gbps: Gbps
    cable_m: Metres
    priority: int
    required_bytes: Bytes
    configured_bytes: Bytes | None
    terms: tuple[HeadroomTerm, ...]


class SectionUse(_M):
    vendor: Vendor
    section: str
    status: str
    source: str = ""
    note: str = ""
    switches: int = 0


class Fabric(_M):
    name: str
    topology: Literal["leaf-spine", "single-switch"]
    switches: tuple[SwitchPlan, ...]
    links: tuple[Link, ...]
    rails: tuple[Rail, ...]
    nics: tuple[NicAttachment, ...]
    headroom: tuple[PortHeadroom, ...]
    devices: tuple[DeviceConfig, ...]
    syntax: tuple[SectionUse, ...] = ()
