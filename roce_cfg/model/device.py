"""DeviceConfig: one switch, fully resolved and vendor-neutral.

Sizes are bytes, times are milliseconds, speeds Gb/s. Collections are tuples sorted in a canonical
order so that two equal configurations compare equal and serialise byte for byte the same.
"""

from __future__ import annotations

from ipaddress import IPv4Address, IPv4Interface, IPv4Network
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from roce_cfg.vendor import Vendor


class _M(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


# Ethernet framing around an IP packet: a 14-byte header and a 4-byte FCS; an 802.1Q tag (a
# VLAN, or the priority tag a NIC adds to mark PFC priority) adds 4 more. A frame limit below
# IP MTU + overhead drops full-size packets.
FRAME_OVERHEAD = 18
TAG_BYTES = 4


def frame_for(mtu: int) -> int:
    """The frame limit that carries an IP packet of ``mtu`` bytes in a tagged frame.

    >>> frame_for(9216)
    9238
    """
    return mtu + FRAME_OVERHEAD + TAG_BYTES


class PriorityBytes(_M):
    priority: int
    bytes: int


class PortQos(_M):
    trust_dscp: bool = False
    pfc: bool = False
    no_drop: tuple[int, ...] = ()
    headroom: tuple[PriorityBytes, ...] = ()
    xoff: tuple[PriorityBytes, ...] = ()  # static PFC trigger per priority, where configured
    watchdog: bool = False
    ecn_queues: tuple[int, ...] = ()
    strict_queues: tuple[int, ...] = ()


class Interface(_M):
    name: str
    description: str = ""
    mode: Literal["routed", "access"]
    access_vlan: int | None = None
    # VLANs a trunk port carries tagged (besides access_vlan, its untagged/PVID VLAN)
    trunk_vlans: tuple[int, ...] = ()
    ipv4: IPv4Interface | None = None
    # The IP MTU: of a routed port its 'mtu' (packet) setting; of a Layer-2 port the largest IP
    # packet its frame limit carries in a tagged frame.
    mtu: int
    # The Ethernet frame limit set on the port ('jumboframe enable'), FCS included; None: not
    # set (the switch's default applies) or the vendor has no frame-limit command.
    frame_bytes: int | None = None
    speed_gbps: int
    breakout_of: str | None = None
    shutdown: bool = False
    qos: PortQos = PortQos()


class Vlan(_M):
    id: int
    name: str = ""


class VlanInterface(_M):
    vlan: int
    ipv4: IPv4Interface
    mtu: int
    description: str = ""


class Loopback(_M):
    name: str
    ipv4: IPv4Interface


class DscpMap(_M):
    dscp: int
    priority: int


class QueueMap(_M):
    priority: int
    queue: int


class EcnQueue(_M):
    queue: int
    min_bytes: int
    max_bytes: int
    probability: int


class WatchdogCfg(_M):
    detect_ms: int
    restore_ms: int
    action: Literal["drop", "forward"]


class Qos(_M):
    dscp_map: tuple[DscpMap, ...] = ()
    queue_map: tuple[QueueMap, ...] = ()
    no_drop: tuple[int, ...] = ()
    watchdog: WatchdogCfg | None = None
    ecn: tuple[EcnQueue, ...] = ()
    strict_queues: tuple[int, ...] = ()
    headroom_pool_bytes: int | None = None


class BgpNeighbor(_M):
    address: IPv4Address
    remote_as: int
    description: str = ""


class Bgp(_M):
    asn: int
    router_id: IPv4Address
    neighbors: tuple[BgpNeighbor, ...] = ()
    networks: tuple[IPv4Network, ...] = ()
    # Every vendor's maximum-paths/balance starts at 1 (grammar files); 0 would leave the
    # deadlock analyser's routes without a next hop.
    max_paths: int = Field(default=1, ge=1)


class StaticRoute(_M):
    prefix: IPv4Network
    next_hop: IPv4Address


class DeviceConfig(_M):
    hostname: str
    vendor: Vendor
    model: str
    role: Literal["leaf", "spine", "superspine", "switch"]
    lldp: bool = True
    loopback: Loopback | None = None
    interfaces: tuple[Interface, ...] = ()
    vlans: tuple[Vlan, ...] = ()
    vlan_interfaces: tuple[VlanInterface, ...] = ()
    qos: Qos = Qos()
    bgp: Bgp | None = None
    static_routes: tuple[StaticRoute, ...] = ()
