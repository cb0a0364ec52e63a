"""DeviceConfig: one switch, fully resolved and vendor-neutral.

Sizes are bytes, times are milliseconds, speeds Gb/s. Collections are tuples sorted in a canonical
order so that two equal configurations compare equal and serialise byte for byte the same.
"""

from __future__ import annotations

from ipaddress import (
    IPv4Address,
    IPv4Interface,
    IPv4Network,
    IPv6Address,
    IPv6Interface,
    IPv6Network,
)
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainSerializer,
    SerializationInfo,
    SerializerFunctionWrapHandler,
    ValidatorFunctionWrapHandler,
    WrapValidator,
    model_serializer,
)

from roce_cfg.model import numbers
from roce_cfg.model.fast import assembled as assembled
from roce_cfg.model.fast import lean as lean
from roce_cfg.model.fast import updated as updated
from roce_cfg.vendor import Vendor


def _in(domain: numbers.Domain) -> Any:
    return Field(ge=domain.low, le=domain.high)


# Every number has its field's domain (model/numbers.py): parse refuses a value outside it on
# its line, so these bounds are the last check, not the one users meet.
VlanId = Annotated[int, _in(numbers.VLAN)]
Dscp = Annotated[int, _in(numbers.DSCP)]
Priority = Annotated[int, _in(numbers.PRIORITY)]
QueueId = Annotated[int, _in(numbers.QUEUE)]
Mtu = Annotated[int, _in(numbers.MTU)]
ByteCount = Annotated[int, _in(numbers.BYTES)]
Milliseconds = Annotated[int, _in(numbers.MILLISECONDS)]
Asn = Annotated[int, _in(numbers.ASN)]
Percent = Annotated[int, _in(numbers.PERCENT)]


# A port's, VLAN interface's or loopback's address: its text read and written fast
# (numbers.interface_text, interface_json: fabric.json writes 25,000 of them on large).
_IFACE_JSON = PlainSerializer(numbers.interface_json, when_used="json")
PortAddress = Annotated[IPv4Interface, BeforeValidator(numbers.interface_text), _IFACE_JSON]


def _peer_address(value: object, validate: ValidatorFunctionWrapHandler) -> object:
    """A dotted quad built from its number (numbers.quad_address); anything else validated as
    the union validates it. The union tried both families' parses of every IPv4 peer's text
    (IPv6's twice): 12-15% of validating a parse cache entry of the xl fabric."""
    quad = numbers.quad_address(value)
    return quad if quad is not None else validate(value)


# A BGP peer's address: a dotted quad read fast.
PeerAddress = Annotated[IPv4Address | IPv6Address, WrapValidator(_peer_address)]

# An IPv4 address read from text (a fabric.json's gateways): a dotted quad read and written fast.
_QUAD_JSON = PlainSerializer(numbers.address_json, when_used="json")
QuadAddress = Annotated[IPv4Address, BeforeValidator(numbers.address_text), _QUAD_JSON]


# A switch's place in the fabric: one name everywhere a role is held (the design, the parse,
# the evidence step, fabric.json).
Role = Literal["leaf", "spine", "superspine", "switch"]


# A VLAN set as ranges: a trunk permitting 2-4094 is one pair, not 4,093 numbers per port.
# Sorted and disjoint as model/numbers.py builds them (parse is the only writer).
VlanRanges = tuple[tuple[VlanId, VlanId], ...]


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


def packet_for(frame: int) -> int:
    """The IP packet a frame limit of ``frame`` bytes carries in a tagged frame.

    >>> packet_for(9416)
    9394
    """
    return frame - FRAME_OVERHEAD - TAG_BYTES


class PriorityBytes(_M):
    priority: Priority
    bytes: ByteCount


class PortQos(_M):
    trust_dscp: bool = False
    pfc: bool = False
    no_drop: tuple[Priority, ...] = ()
    headroom: tuple[PriorityBytes, ...] = ()
    xoff: tuple[PriorityBytes, ...] = ()  # static PFC trigger per priority, where configured
    watchdog: bool = False
    ecn_queues: tuple[QueueId, ...] = ()
    strict_queues: tuple[QueueId, ...] = ()
    # PFC left to DCBX negotiation (Huawei 'dcb pfc enable mode auto') on a port that sends no
    # DCBX TLV: the switch never agrees PFC with its peer, so the priority is not paused
    pfc_waits_for_dcbx: bool = False


class Interface(_M):
    name: str
    description: str = ""
    mode: Literal["routed", "access"]
    access_vlan: VlanId | None = None
    # VLANs a trunk port carries tagged (besides access_vlan, its untagged/PVID VLAN), as
    # inclusive ranges (model/numbers.py)
    trunk_vlans: VlanRanges = ()
    ipv4: PortAddress | None = None
    # The IP MTU: of a routed port its 'mtu' (packet) setting; of a Layer-2 port the largest IP
    # packet its frame limit carries in a tagged frame; of a port with IPv6 only its IPv6 MTU,
    # of one with both the smaller (DeviceConfig.ipv6_ports; parse/ipv6.py).
    mtu: Mtu
    # The Ethernet frame limit set on the port ('jumboframe enable'), FCS included; None: not
    # set (the switch's default applies) or the vendor has no frame-limit command.
    frame_bytes: Annotated[int, Field(ge=64, le=65535)] | None = None
    speed_gbps: Annotated[int, Field(ge=0, le=numbers.SPEED.high)]  # 0: not known
    breakout_of: str | None = None
    shutdown: bool = False
    qos: PortQos = PortQos()


class Vlan(_M):
    id: VlanId
    name: str = ""


def _omit_none(out: Any, model: BaseModel, *keys: str) -> Any:
    """``out`` (a model's serialised dict) without the ``keys`` the model holds as None: a
    field added later leaves what was written before it byte for byte the same."""
    if isinstance(out, dict):
        for key in keys:
            if getattr(model, key) is None:
                out.pop(key, None)
    return out


class VlanInterface(_M):
    vlan: VlanId
    # one of the two at least (parse keeps no VLAN interface without an address)
    ipv4: PortAddress | None = None
    # of a VLAN interface with IPv6 only, its IPv6 MTU (model/addresses.py)
    mtu: Mtu
    description: str = ""
    ipv6: IPv6Interface | None = None

    @model_serializer(mode="wrap")
    def _omit_no_ipv6(self, handler: SerializerFunctionWrapHandler, info: SerializationInfo) -> Any:
        return _omit_none(handler(self), self, "ipv6")


class Loopback(_M):
    name: str
    ipv4: PortAddress | None = None
    ipv6: IPv6Interface | None = None

    @model_serializer(mode="wrap")
    def _omit_no_ipv6(self, handler: SerializerFunctionWrapHandler, info: SerializationInfo) -> Any:
        return _omit_none(handler(self), self, "ipv6")


class PortIpv6(_M):
    """A port's IPv6 address and the IPv6 MTU it prints. Kept beside the ports, not in them:
    a field of every port would be serialised for every port of every switch (twice the time
    of a port's dump, measured), where most switches route IPv4 only."""

    port: str
    address: IPv6Interface | None = None  # None: IPv6 MTU printed, no global address
    mtu: Mtu | None = None  # 'ipv6 mtu' as printed; None: the vendor's default


class DscpMap(_M):
    dscp: Dscp
    priority: Priority


class QueueMap(_M):
    priority: Priority
    queue: QueueId


class EcnQueue(_M):
    queue: QueueId
    min_bytes: ByteCount
    max_bytes: ByteCount
    probability: Percent
    # 'percent': min_bytes/max_bytes are percentages of the queue's buffer limit (VRP's
    # 'color green low-limit 20 high-limit 60'), not bytes; rules comparing them with byte
    # figures cannot judge them. 'device': the switch sets the thresholds itself (Huawei AI
    # ECN): the queue marks, at values no config states (the three figures are 0)
    unit: Literal["bytes", "percent", "device"] = "bytes"


class WatchdogCfg(_M):
    detect_ms: Milliseconds
    restore_ms: Milliseconds
    action: Literal["drop", "forward"]
    # False: no action line is printed and ``action`` is the model's documented default
    action_printed: bool = True


class PolicyClass(_M):
    """What one class of a QoS policy (a classifier bound to a behavior) does to the traffic
    it matches. A class matches the DSCPs and 802.1p priorities listed, all traffic
    (``any_traffic``), or what criteria roce-cfg does not evaluate say (``other``, as printed:
    an ACL); with ``operator`` 'and' a packet must meet every criterion, with 'or' any one
    (None: not printed and no source gives the vendor's default)."""

    policy: str
    classifier: str
    behavior: str
    dscps: tuple[Dscp, ...] = ()
    priorities: tuple[Priority, ...] = ()
    any_traffic: bool = False
    other: tuple[str, ...] = ()
    operator: Literal["and", "or"] | None = None
    # a rate limit: policed at ``cir_kbps`` (the excess dropped where ``drops_excess``) or
    # shaped to it (``shaped``: the excess queued, delayed)
    cir_kbps: Annotated[int, Field(ge=0)] | None = None
    drops_excess: bool = False
    shaped: bool = False
    remark_dscp: Dscp | None = None
    remark_priority: Priority | None = None  # 802.1p, or the internal priority it sets
    deny: bool = False  # every matched packet dropped
    line: int | None = None  # the behavior's action line (else the binding's), in its file


class AppliedPolicy(_M):
    """A QoS policy where it acts: on every port (global), on ports, on VLANs, or between the
    ports of an uplink group (traffic that comes in on one and goes out on another:
    'transit')."""

    name: str
    scope: Literal["global", "port", "vlan", "uplink"]
    direction: Literal["inbound", "outbound", "transit"]
    ports: tuple[str, ...] = ()
    vlans: VlanRanges = ()
    classes: tuple[PolicyClass, ...] = ()
    line: int | None = None  # the line applying it


class BufferCap(_M):
    """The most a queue may hold: on one port, or on every port (``port`` None)."""

    queue: QueueId
    port: str | None = None
    # 'bytes': a static cap; 'percent': a share of the shared buffer; 'dynamic': a step of the
    # vendor's dynamic threshold, whose size depends on the free buffer at run time
    value: Annotated[int, Field(ge=0)]
    unit: Literal["bytes", "percent", "dynamic"] = "bytes"
    line: int | None = None


class Qos(_M):
    dscp_map: tuple[DscpMap, ...] = ()
    queue_map: tuple[QueueMap, ...] = ()
    no_drop: tuple[Priority, ...] = ()
    watchdog: WatchdogCfg | None = None
    ecn: tuple[EcnQueue, ...] = ()
    strict_queues: tuple[QueueId, ...] = ()
    headroom_pool_bytes: ByteCount | None = None
    policies: tuple[AppliedPolicy, ...] = ()
    buffer_caps: tuple[BufferCap, ...] = ()

    @model_serializer(mode="wrap")
    def _omit_unset_policies(
        self, handler: SerializerFunctionWrapHandler, info: SerializationInfo
    ) -> Any:
        # A switch without QoS policies or buffer caps serialises as before (goldens).
        out = handler(self)
        if isinstance(out, dict):
            for key in ("policies", "buffer_caps"):
                if not getattr(self, key):
                    out.pop(key, None)
        return out


class BgpNeighbor(_M):
    address: PeerAddress
    remote_as: Asn
    description: str = ""


class Bgp(_M):
    asn: Asn
    router_id: IPv4Address
    neighbors: tuple[BgpNeighbor, ...] = ()
    networks: tuple[IPv4Network | IPv6Network, ...] = ()
    # peers this switch sends a default route to whatever its own table holds ('peer X
    # default-route-advertise', 'neighbor X default-originate'): deadlock routes by it (the
    # default of the peer's address family)
    default_to: tuple[IPv4Address | IPv6Address, ...] = ()
    # Every vendor's maximum-paths/balance starts at 1 (grammar files); 0 would leave the
    # deadlock analyser's routes without a next hop.
    max_paths: int = Field(default=1, ge=numbers.PATHS.low, le=numbers.PATHS.high)

    @model_serializer(mode="wrap")
    def _omit_no_default(
        self, handler: SerializerFunctionWrapHandler, info: SerializationInfo
    ) -> Any:
        # A switch that advertises no default serialises as before (goldens, parse output).
        out = handler(self)
        if isinstance(out, dict) and not self.default_to:
            out.pop("default_to", None)
        return out


class StaticRoute(_M):
    prefix: IPv4Network | IPv6Network
    # None: the line names no next-hop address (a discard route to NULL0, or an interface only)
    next_hop: IPv4Address | IPv6Address | None
    interface: str = ""  # the outgoing interface the line names ('NULL0')
    vrf: str = ""  # the VPN instance / VRF whose table holds it; '' = the public table
    preference: int | None = None  # as printed; None = the vendor's default
    tag: int | None = None
    description: str = ""
    bfd: bool = False
    track: str = ""
    permanent: bool = False
    # load-balances with a dynamic route of the same preference (VRP 'inter-protocol-ecmp')
    inter_protocol_ecmp: bool = False
    line: int | None = None  # where the route is in its file

    @model_serializer(mode="wrap")
    def _omit_no_ecmp(self, handler: SerializerFunctionWrapHandler, info: SerializationInfo) -> Any:
        out = handler(self)
        if isinstance(out, dict) and not self.inter_protocol_ecmp:
            out.pop("inter_protocol_ecmp", None)
        return out


class Aggregate(_M):
    """A link aggregation (Eth-Trunk, Route-/Bridge-Aggregation, AggregatePort, smartgroup):
    itself an Interface of the device (its addresses, MTU, trust), with the member ports that
    carry its frames. Lint judges PFC and headroom on the members, MTU, trust and scheduling
    on the aggregate; deadlock routes over it as one link."""

    name: str
    members: tuple[str, ...] = ()
    # members that must be up for the aggregate to stay up ('least active-linknumber',
    # 'link-aggregation selected-port minimum'); 1 when not configured
    min_active: int = Field(default=1, ge=1, le=numbers.PATHS.high)
    peer_link: bool = False  # the M-LAG / DFS peer-link between the two switches of a pair
    mlag_group: int | None = None  # the M-LAG id pairing it with the other switch's aggregate
    # settings the aggregate does not print and takes from what its members print (the vendor's
    # 'parse.aggregate.gather'): rules judge those on the members, where they are configured
    member_settings: tuple[str, ...] = ()

    @model_serializer(mode="wrap")
    def _omit_no_member_settings(
        self, handler: SerializerFunctionWrapHandler, info: SerializationInfo
    ) -> Any:
        # aggregates whose members carry nothing for them serialise as before (parse fixtures)
        out = handler(self)
        if isinstance(out, dict) and not self.member_settings:
            out.pop("member_settings", None)
        return out


class MlagSystem(_M):
    """An M-LAG (DRNI) member switch's system settings: the two switches of a pair share the
    system MAC and priority and differ in system number (vendors/<vendor>.yaml sources)."""

    system_mac: str | None = None
    system_number: int | None = None
    system_priority: int | None = None
    keepalive_destination: IPv4Address | None = None
    keepalive_source: IPv4Address | None = None
    keepalive_vrf: str = ""


class PortVrf(_M):
    """An interface bound to a VRF (VPN instance): its addresses and routes are that VRF's."""

    port: str
    vrf: str


class SubInterface(_M):
    """A sub-interface ('400GE1/0/1.100', dot1q) and the port it rides. Its frames use the
    port's queues: its PFC, headroom, ECN, scheduling, speed and frame limit are the port's
    (parse/subinterfaces.py); its address, VRF, MTU and trust are its own."""

    port: str
    parent: str


class PortDistance(_M):
    """The longest link a port's own config says it runs over (Huawei 'long-distance mode
    level-100': up to 100 km), for headroom where nothing states the cable's length."""

    port: str
    metres: Annotated[int, Field(ge=0, le=10_000_000)]


class DeviceConfig(_M):
    hostname: str
    vendor: Vendor
    model: str
    role: Role
    lldp: bool = True
    loopback: Loopback | None = None
    interfaces: tuple[Interface, ...] = ()
    vlans: tuple[Vlan, ...] = ()
    vlan_interfaces: tuple[VlanInterface, ...] = ()
    qos: Qos = Qos()
    bgp: Bgp | None = None
    static_routes: tuple[StaticRoute, ...] = ()
    aggregates: tuple[Aggregate, ...] = ()
    mlag: MlagSystem | None = None
    port_vrfs: tuple[PortVrf, ...] = ()
    # ports with IPv6 (model/addresses.py reads a port's addresses of both families)
    ipv6_ports: tuple[PortIpv6, ...] = ()
    sub_interfaces: tuple[SubInterface, ...] = ()
    port_distances: tuple[PortDistance, ...] = ()
    # ports that print no queue scheduling on a vendor whose default no source gives
    # (vendors/<vendor>.yaml scheduling_default): what their queues run is not known
    scheduling_unknown: tuple[str, ...] = ()
    # routed ports and VLAN interfaces that print no MTU on a vendor whose default MTU no source
    # gives (vendors/<vendor>.yaml default_mtu_source): their MTU is not known
    mtu_unknown: tuple[str, ...] = ()

    @model_serializer(mode="wrap")
    def _omit_no_aggregates(
        self, handler: SerializerFunctionWrapHandler, info: SerializationInfo
    ) -> Any:
        # Switches without aggregates, M-LAG, VRF ports, sub-interfaces or port distances
        # serialise as before (generated configs, goldens).
        out = handler(self)
        if isinstance(out, dict):
            for key in (
                "aggregates",
                "port_vrfs",
                "sub_interfaces",
                "port_distances",
                "ipv6_ports",
                "scheduling_unknown",
                "mtu_unknown",
            ):
                if not getattr(self, key):
                    out.pop(key, None)
            if self.mlag is None:
                out.pop("mlag", None)
        return out

    def vrf_of(self, port: str) -> str:
        """The VRF ``port`` is bound to ('' for the public table)."""
        return next((b.vrf for b in self.port_vrfs if b.port == port), "")

    def parent_of(self, port: str) -> str | None:
        """The port a sub-interface rides (None: ``port`` is no sub-interface)."""
        if not self.sub_interfaces:
            return None  # most switches: no scan per port asked about
        return next((s.parent for s in self.sub_interfaces if s.port == port), None)

    def distance_of(self, port: str) -> int | None:
        """The longest link ``port``'s config bounds it to, in metres (None: it does not say)."""
        return next((d.metres for d in self.port_distances if d.port == port), None)

    def aggregate_of(self, port: str) -> Aggregate | None:
        """The aggregate ``port`` is a member of."""
        return next((a for a in self.aggregates if port in a.members), None)

    def aggregate(self, name: str) -> Aggregate | None:
        return next((a for a in self.aggregates if a.name == name), None)
