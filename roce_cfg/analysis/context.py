"""What rules look at: each device with its profile and source lines, and the fabric around it."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple, TypeVar

from roce_cfg import evidence
from roce_cfg.analysis.registry import Hit, Rule
from roce_cfg.gate import Gate, ReadWhere, origins
from roce_cfg.links import infer
from roce_cfg.model import addresses, describe, numbers
from roce_cfg.model.device import DeviceConfig, Interface, VlanInterface
from roce_cfg.parse import Parsed, SourceMap, read_where
from roce_cfg.platforms.profile import ModelSpec, VendorProfile
from roce_cfg.policy import DEFAULT_ROCE_DSCP, priority_of

ROCE_MIN_MTU = 4200
# Where nothing says how long a cable is: headroom must cover at least the shortest plausible
# cable (a 1 m DAC) or the port is short whatever the cable; a 100 m fibre is what is assumed for
# the 'cannot verify' figure (RC206).
SHORTEST_CABLE_M = 1.0
ASSUMED_CABLE_M = 100.0
DEFAULT_CNP_DSCP = 48

T = TypeVar("T")


def some(names: list[str], at_most: int = 4) -> str:
    """The first ``at_most`` names, and how many more: a finding that names the ports it covers.

    >>> some(["a", "b", "c"], 2)
    'a, b and 1 more'
    """
    more = len(names) - at_most
    return ", ".join(names[:at_most]) + (f" and {more} more" if more > 0 else "")


def port_role(port: Interface) -> str:
    """'server' for access ports, 'fabric' for the rest (the keys of --cable-length)."""
    return "server" if port.mode == "access" else "fabric"


def parse_cable_lengths(text: str) -> dict[str, float]:
    """'30' (every port) or 'server=3,fabric=30' -> {role: metres}; '*' is every role."""
    out: dict[str, float] = {}
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        role, sep, value = part.rpartition("=")
        role = role.strip() if sep else "*"
        if role not in ("*", "server", "fabric"):
            raise ValueError(f"unknown port role {role!r} (server, fabric)")
        shown = value if len(value) <= 24 else f"{value[:12]}...({len(value):,} characters)"
        try:
            metres = float(value)
        except ValueError:
            raise ValueError(f"not a length in metres: {shown!r}") from None
        if not 0 <= metres <= 100_000:
            raise ValueError(f"cable length out of range 0-100,000 m: {shown}")
        out[role] = metres
    if not out:
        raise ValueError("no cable length given")
    return out


@dataclass(frozen=True)
class Options:
    # metres per port role ('server', 'fabric', '*' = any) where no plan or description says
    cable_m: dict[str, float] = field(default_factory=dict)
    # None: each config's own policy (the DSCPs it maps to a no-drop priority), the fabric's
    # majority when configs differ, and only then the default 26 / 48.
    roce_dscp: int | None = None
    cnp_dscp: int | None = None
    deadlock: bool = False  # also run the deadlock analysis of the healthy fabric (RC501)
    # rail VLAN -> the switches the plan puts it on (fabric.json / intent)
    vlan_switches: dict[int, frozenset[str]] = field(default_factory=dict)
    # (device, port) -> cable length in metres, from fabric.json, the intent or --cabling
    cables: dict[tuple[str, str], float] = field(default_factory=dict)
    # (device, port) -> Gb/s --cabling states (the parse runs each port at it, as at
    # fabric.json's speeds)
    speeds: dict[tuple[str, str], int] = field(default_factory=dict)


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

    def origins(self, sections: tuple[str, ...], port: str) -> list[str]:
        """Where the policy sections a finding at ``port`` stands on came from (gate.origins):
        the config's lines read per section and port, found once per switch with a finding."""
        read: ReadWhere | None = self.memo.get("read_where")
        if read is None:
            overlay = self.parsed.overlay
            read = self.memo["read_where"] = read_where(self.text, self.device.vendor, overlay)
        return origins(read, self.gate, self.device, sections, port)

    @property
    def gate(self) -> Gate:
        """What of this switch was not read, where (roce_cfg/gate.py)."""
        found: Gate | None = self.memo.get("gate")
        if found is None:
            config = self.parsed.config
            assumed = config.model_from == "default" and self.model.known
            found = self.memo["gate"] = Gate.of(
                config.accounting.unread_facts, config.device, assumed
            )
        return found

    def watchdog_default_unknown(self) -> str | None:
        """Why the watchdog in force where none is printed cannot be known, or None: the
        vendor's default is per release, and the config prints no release or one whose
        default no source gives (a release with a sourced default gave the parse a watchdog)."""
        spec = self.profile.parse
        if not any(form.watchdog_ms for form in spec.versions):
            return None
        found = re.search(spec.version_line, self.text, re.M) if spec.version_line else None
        if found is None:
            return "the config prints no release (the default is per release)"
        form = spec.version(found.group(1))
        if form is None or form.watchdog_ms is None:
            return f"the default of {found.group(1)} is in no source"
        return None

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
        """The 802.1p priority a DSCP lands in on this device (roce_cfg.policy.priority_of)."""
        return priority_of(self.device, dscp)

    def queue_of(self, priority: int) -> int:
        for m in self.device.qos.queue_map:
            if m.priority == priority:
                return m.queue
        return priority

    def interfaces_by_name(self) -> Mapping[str, Interface]:
        """Every port by name (``interface``'s table), for a caller with many to look up."""
        index: dict[str, Interface] | None = self.memo.get("interfaces")
        if index is None:
            index = self.memo["interfaces"] = {i.name: i for i in self.device.interfaces}
        return index

    def interface(self, name: str) -> Interface | None:
        index: dict[str, Interface] | None = self.memo.get("interfaces")
        if index is None:
            index = self.memo["interfaces"] = {i.name: i for i in self.device.interfaces}
        return index.get(name)

    def in_use(self) -> list[Interface]:
        return self._ports("in_use", lambda i: not i.shutdown)

    def _ports(self, key: str, keep: Callable[[Interface], bool]) -> list[Interface]:
        """The ports ``keep`` keeps, in config order: filtered once per switch (a dozen
        rules ask for these lists: 0.9 s of an xl lint when each filtered them), a new list
        each call (a caller may change it)."""
        ports: tuple[Interface, ...] | None = self.memo.get(key)
        if ports is None:
            ports = self.memo[key] = tuple(filter(keep, self.device.interfaces))
        return list(ports)

    def _lag_names(self) -> tuple[frozenset[str], frozenset[str]]:
        """(aggregates that have members, ports that are members)."""
        if "lag_names" not in self.memo:
            aggs = self.device.aggregates
            self.memo["lag_names"] = (
                frozenset(a.name for a in aggs if a.members),
                frozenset(m for a in aggs for m in a.members),
            )
        names: tuple[frozenset[str], frozenset[str]] = self.memo["lag_names"]
        return names

    def physical(self, port: Interface) -> list[Interface]:
        """The ports that carry ``port``'s frames: an aggregate's members in use, a
        sub-interface's parent's, else itself. Found once per port (RC301 and RC306 ask for
        both ends of every link); a port that is no aggregate with members, most link ends,
        is itself without a look-up (the xl lint asks for 131,072 link ends)."""
        parent_name = self.parent_of(port)
        if parent_name is not None:
            parent = self.interface(parent_name)
            return self.physical(parent) if parent is not None and not parent.shutdown else []
        if port.name not in self._lag_names()[0]:
            return [port]
        known: dict[str, tuple[Interface, ...]] | None = self.memo.get("physical")
        if known is None:
            known = self.memo["physical"] = {}
        ports = known.get(port.name)
        if ports is None:
            ports = known[port.name] = tuple(self._physical(port))
        return list(ports)

    def _physical(self, port: Interface) -> list[Interface]:
        agg = self.device.aggregate(port.name)
        if agg is None or not agg.members:
            return [port]
        found = (self.interface(m) for m in agg.members)
        return [m for m in found if m is not None and not m.shutdown]

    def _subs(self) -> dict[str, str]:
        """Each sub-interface's parent port, by the sub-interface's name."""
        subs: dict[str, str] | None = self.memo.get("subs")
        if subs is None:
            subs = self.memo["subs"] = {s.port: s.parent for s in self.device.sub_interfaces}
        return subs

    def parent_of(self, port: Interface) -> str | None:
        """The port a sub-interface rides; None for a port that is no sub-interface."""
        return self._subs().get(port.name) if self.device.sub_interfaces else None

    def carries_sub_interfaces(self, port: Interface) -> bool:
        """Whether sub-interfaces ride ``port``."""
        return bool(self.device.sub_interfaces) and port.name in self._subs().values()

    def sub_interfaces_of(self, port: Interface) -> list[Interface]:
        found = (self.interface(s) for s, p in self._subs().items() if p == port.name)
        return [i for i in found if i is not None]

    def lossless_ports(self) -> list[Interface]:
        """Ports in use where PFC, headroom and ECN act: plain ports and aggregate members
        (the switch pauses and buffers per physical port), not the aggregates nor the
        sub-interfaces (their frames use their parent's queues)."""
        aggs, _ = self._lag_names()
        subs = self._subs()
        return self._ports(
            "lossless_ports",
            lambda i: not i.shutdown and i.name not in aggs and i.name not in subs,
        )

    def config_ports(self, setting: str | None = None) -> list[Interface]:
        """Ports in use as the network sees them, where MTU, trust and scheduling are judged:
        plain ports and aggregates (members carry their aggregate's settings, parse/aggregates);
        an aggregate whose members carry ``setting`` themselves (``member_settings``) is judged
        through those members, where the setting is configured."""
        judged = self._judged(setting)
        return self._ports(f"config_ports:{setting}", lambda i: i.name in judged)

    def roce_config_ports(self, setting: str | None = None) -> list[Interface]:
        """The config ports (``config_ports``) that carry RoCE, in config order: three rules
        judge these alone (at xl: 164,000 carries_roce calls instead of 490,000)."""
        judged = self._judged(setting)
        return self._ports(
            f"roce_config_ports:{setting}",
            lambda i: i.name in judged and self.carries_roce(i),
        )

    def _judged(self, setting: str | None) -> frozenset[str]:
        """The names of the ports in use where ``setting`` is judged (``config_ports``)."""
        key = f"judged:{setting}"
        if key not in self.memo:
            aggs = self.device.aggregates
            through = {a.name: a.members for a in aggs if setting in a.member_settings}
            _, members = self._lag_names()
            members = members - {m for ms in through.values() for m in ms}
            self.memo[key] = frozenset(
                i.name
                for i in self.device.interfaces
                if not i.shutdown and i.name not in members and i.name not in through
            )
        judged: frozenset[str] = self.memo[key]
        return judged

    def per_port(self, key: str, port: Interface, compute: Callable[[Interface], T]) -> T:
        """``compute(port)``, once per port and ``key`` for the run (a port's settings do not
        change once parsed): rules that ask of both ends of 65,536 links, each several
        times, pay for each end once."""
        known: dict[str, T] | None = self.memo.get(key)
        if known is None:
            known = self.memo[key] = {}
        found = known.get(port.name)
        if found is None:
            found = known[port.name] = compute(port)
        return found

    def carries_roce(self, port: Interface) -> bool:
        """Server-facing access ports and routed point-to-point fabric links carry RoCE.
        Judged once per port: five rules ask of every port (490,000 calls at xl)."""
        return self.per_port("carries_roce", port, self._carries_roce)

    def _carries_roce(self, port: Interface) -> bool:
        """Vendor-neutral, from what the config says of the port (docs/lint.md, 'Which ports
        carry RoCE'): not a port bound to a VRF that no lossless port of the switch is in; a
        port with PFC or DSCP trust (on it, its aggregate or a member) or an access port does;
        a routed point-to-point port (IPv4 /30-/31, IPv6 /126-/127) without either does only
        where it faces a fabric switch (a BGP neighbour on its subnet, or a switch that states
        no BGP at all)."""
        if port.shutdown or evidence.factory_default(port, self.device.vendor):
            return False
        # most ports are no aggregate's member: no scan of the aggregates for them
        agg = self.device.aggregate_of(port.name) if port.name in self._lag_names()[1] else None
        parent = self.interface(agg.name) if agg else None
        if parent is not None:
            port = parent  # a member carries what its aggregate carries
        if self.vrf(port.name) not in self._lossless_vrfs():
            return False
        implied = self.profile.parse.routed_trusts_dscp
        if _lossless(port, implied) or any(_lossless(m, implied) for m in self.physical(port)):
            return True
        if port.mode == "access":
            return True
        if addresses.link_address(self.device, port) is None:
            # a port carries what the sub-interfaces riding it carry
            return self.carries_sub_interfaces(port) and any(
                self.carries_roce(i) for i in self.sub_interfaces_of(port)
            )
        bgp = self.device.bgp
        nets = [a.network for a in addresses.links_of(self.device, port)]
        return bgp is None or any(n.address in net for net in nets for n in bgp.neighbors)

    def vrf(self, name: str) -> str:
        """The VRF a port's addresses are in: a member's is its aggregate's."""
        if not self.device.port_vrfs:
            return ""  # most switches bind no port: no aggregate looked up (426,000 calls at xl)
        agg = self.device.aggregate_of(name) if name in self._lag_names()[1] else None
        return self.device.vrf_of(agg.name if agg else name)

    def _lossless_vrfs(self) -> frozenset[str]:
        """The VRFs of the switch's ports with PFC or DSCP trust; every VRF when none has."""
        if "lossless_vrfs" not in self.memo:
            implied = self.profile.parse.routed_trusts_dscp
            vrfs = frozenset(
                self.vrf(p.name)
                for p in self.device.interfaces
                if not p.shutdown and _lossless(p, implied)
            )
            every = {"", *(b.vrf for b in self.device.port_vrfs)}
            self.memo["lossless_vrfs"] = vrfs or frozenset(every)
        found: frozenset[str] = self.memo["lossless_vrfs"]
        return found

    def forwarding_mtu(self, port: Interface) -> int | None:
        """The MTU that bounds the packets the switch forwards out of ``port``; None where it
        is not known (no line, and no source gives the default: RC127) or nothing printed or
        defaulted bounds them: a routed port's IPv4 'mtu' on a vendor whose chip does not check
        it (vendors/<vendor>.yaml ip_mtu_bounds_forwarding), where the frame limit alone does
        (RC116's)."""
        if port.name in self.device.mtu_unknown:
            return None  # no line, and no source gives the default: RC127
        if self.profile.parse.ip_mtu_bounds_forwarding or port.mode != "routed":
            return port.mtu
        v6 = addresses.ipv6_entry(self.device, port.name)
        if v6 is None or v6.address is None:
            return None
        default = self.profile.parse.ipv6_mtu_default
        return v6.mtu if v6.mtu is not None else (port.mtu if default == "mtu" else default)

    def gateway_mtu(self, svi: VlanInterface) -> int | None:
        """As ``forwarding_mtu``, of a VLAN interface (an IPv6 one's MTU is its IPv6 MTU)."""
        name = self.profile.vlan_interface + str(svi.vlan)
        if name in self.device.mtu_unknown:
            return None
        if self.profile.parse.ip_mtu_bounds_forwarding or svi.ipv4 is None:
            return svi.mtu
        return None

    def gateway_carries_roce(self, vlan: int) -> bool:
        """A VLAN interface carries RoCE unless it is bound to a VRF that no lossless port of
        the switch is in (which VLANs a port carries is not always printed: a peer-link
        carries every VLAN it does not exclude)."""
        name = self.profile.vlan_interface + str(vlan)
        return self.device.vrf_of(name) in self._lossless_vrfs()

    @property
    def roce_dscp(self) -> int:
        return DEFAULT_ROCE_DSCP if self.options.roce_dscp is None else self.options.roce_dscp

    @property
    def cnp_dscp(self) -> int:
        """The given CNP DSCP, else the config's: a lossy DSCP whose queue is strict priority
        on the RoCE ports (the lowest such), else 48."""
        if self.options.cnp_dscp is not None:
            return self.options.cnp_dscp
        if "cnp_dscp" not in self.memo:
            strict = set(self.device.qos.strict_queues)
            no_drop = set(self.device.qos.no_drop)
            own = sorted(
                m.dscp
                for m in self.device.qos.dscp_map
                if m.priority not in no_drop and self.queue_of(m.priority) in strict
            )
            self.memo["cnp_dscp"] = own[0] if own else DEFAULT_CNP_DSCP
        dscp: int = self.memo["cnp_dscp"]
        return dscp

    def cable(self, port: Interface) -> tuple[float | None, str]:
        """The port's cable length and where it came from; None when nothing says."""
        known = self.options.cables.get((self.name, port.name))
        if known is not None:
            return known, "from the plan"
        stated = describe.cable_stated(port.description)
        if stated is not None:
            return stated[0], f"from the description '{stated[1].strip(' _-/')}'"
        bound = self.device.distance_of(port.name) if self.device.port_distances else None
        if bound is not None:
            # the longest link the port's length class allows: headroom judged for the worst
            return float(bound), f"the port's long-distance mode (up to {bound:,} m)"
        given = self.options.cable_m
        role = port_role(port)
        if role in given or "*" in given:
            return given.get(role, given.get("*", 0.0)), f"--cable-length {role}"
        return None, "unknown"

    def speed_known(self, port: Interface) -> bool:
        """The plan or the description states the port's speed (else it is the name's)."""
        key = (self.name, port.name)
        return (
            key in self.options.cables
            or key in self.options.speeds
            or bool(describe.speed(port.description))
        )


def _lossless(port: Interface, trust_implied: bool = False) -> bool:
    """A port configured for lossless RoCE: PFC or DSCP trust on it (not a trust every routed
    port of the vendor has unprinted: ``routed_trusts_dscp``)."""
    trusts = port.qos.trust_dscp and not (trust_implied and port.mode == "routed")
    return port.qos.pfc or trusts


def carried(port: Interface) -> tuple[int, ...]:
    """The VLANs a switched port carries: a trunk's permitted list, else its access VLAN."""
    if port.mode != "access":
        return ()
    if port.trunk_vlans:
        return numbers.expand(port.trunk_vlans)
    return (port.access_vlan,) if port.access_vlan else ()


def concludes(r: Rule, hit: Hit, views: dict[str, DeviceView], device: str | None = None) -> bool:
    """Whether ``hit`` stands on what was read: False where a section the rule reads was not read
    at either end the hit names (its port, or the whole switch for a hit on none), so the rule
    concludes nothing there and RC405 says what could not be verified."""
    if not r.reads:
        return True
    own = None if hit.of_switch else hit.port
    for name, port in ((hit.device or device, own), (hit.related_device, hit.related_port)):
        view = views.get(name) if name else None
        if view is not None and view.gate.unread(r.reads, port) is not None:
            return False
    return True


# A link end is the evidence step's: a fabric link reuses its ends (else 131,072 ends are
# built twice at xl).
LinkEnd = infer.End


class FabricLink(NamedTuple):
    """A link as the fabric rules see it (a tuple: 65,536 at xl, built per run in a third of
    the time of a frozen dataclass)."""

    a: LinkEnd
    b: LinkEnd
    cable_m: float | None = None
    fact: infer.LinkFact | None = None  # what the evidence step knows of it (kind, members)


@dataclass
class FabricView:
    devices: dict[str, DeviceView]
    links: list[FabricLink]
    options: Options
    planned: bool = False  # links came from fabric.json / the intent rather than addresses
    # the evidence step's facts: coverage, BGP sessions, what no link explains
    facts: evidence.Evidence | None = None
    memo: dict[str, Any] = field(default_factory=dict)

    def port(self, end: LinkEnd) -> Interface | None:
        view = self.devices.get(end.device)
        if view is None:
            return None
        return view.interface(end.port)


def links_of(facts: evidence.Evidence) -> list[FabricLink]:
    return [FabricLink(k.a, k.b, None, k) for k in facts.links]
