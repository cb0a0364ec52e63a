"""Fabric-wide facts, computed once: switches, ports, links, addresses, rails, ASNs, laid out
tier by tier from the fabric's shape (design/shape.py) in the order it allocates."""

from __future__ import annotations

from dataclasses import dataclass, field
from ipaddress import IPv4Address, IPv4Interface, IPv4Network
from typing import Any

from roce_cfg.design.ports import PortSlot, allocate
from roce_cfg.design.shape import FabricShape, Tier, Uplinks
from roce_cfg.errors import PlanError
from roce_cfg.intent.models import Intent
from roce_cfg.model import numbers
from roce_cfg.model.fabric import Link, NicAttachment, Rail, SwitchPlan
from roce_cfg.model.fast import maker
from roce_cfg.platforms.profile import ModelSpec, VendorProfile
from roce_cfg.vendor import Vendor


@dataclass
class Switch:
    plan: SwitchPlan
    profile: VendorProfile
    model: ModelSpec
    server_ports: list[tuple[PortSlot, NicAttachment]] = field(default_factory=list)
    fabric_ports: list[tuple[PortSlot, Link]] = field(default_factory=list)
    rails: list[Rail] = field(default_factory=list)


@dataclass
class Topology:
    switches: list[Switch]
    links: list[Link]
    rails: list[Rail]
    nics: list[NicAttachment]


class Trusted:
    """Links and NIC attachments built from values already of their fields' types and domains
    (the intent's validated speeds, cables and VLAN range, addresses ipaddress built), so not
    validated again: 16,400 of them on the large fabric, a twentieth of its generate.
    ``validate_all`` validates each (what tests/test_generate_shapes.py compares with)."""

    validate_all = False
    link = staticmethod(maker(Link))
    nic = staticmethod(maker(NicAttachment))


def _iface(address: IPv4Address | int, prefix: int) -> IPv4Interface:
    # Built from numbers already in their pools' range by the model's shortcut
    # (numbers.interface), a third of ipaddress's constructor: a 32,768-GPU plan makes 200,000.
    return numbers.interface(int(address), prefix)


def _nth(net: IPv4Network, index: int, what: tuple[str | int, ...], need: int) -> IPv4Address:
    if need > net.num_addresses:
        raise PlanError(what, f"{net} holds {net.num_addresses} addresses, the plan needs {need}")
    return net.network_address + index


def _resolve(
    tier: Tier, profiles: dict[Vendor, VendorProfile]
) -> tuple[VendorProfile, str, ModelSpec]:
    profile = profiles[tier.switch.vendor]
    try:
        name, spec = profile.model_spec(tier.switch.model)
    except KeyError as exc:
        raise PlanError((*tier.where, "model"), str(exc.args[0])) from None
    return profile, name, spec


def build(
    intent: Intent, profiles: dict[Vendor, VendorProfile], shape: FabricShape | None = None
) -> Topology:
    """Every switch, port, link, rail subnet and NIC of the intent's shape: one loop over the
    tiers, in the order the shape allocates (``FabricShape.blocks``)."""
    layout = _Layout(intent, shape or FabricShape.of(intent), profiles)
    for tier, pod in layout.shape.blocks():
        for j in range(layout.shape.tiers[tier].count):
            layout.place(tier, pod, j)
    return layout.topology()


def _rail_subnet(intent: Intent, shape: FabricShape, index: int) -> IPv4Network:
    pool, pools = intent.addressing.rail_subnets, shape.pools
    if pools.rail_prefix < pool.prefixlen:
        raise PlanError(
            ("addressing", "rail_subnets"), f"{pool} is smaller than one /{pools.rail_prefix}"
        )
    per = 2 ** (32 - pools.rail_prefix)
    _nth(pool, 0, ("addressing", "rail_subnets"), per * pools.rail_subnets)
    return IPv4Network((int(pool.network_address) + index * per, pools.rail_prefix))


def _attach_servers(
    intent: Intent,
    sw: Switch,
    rail: int,
    servers: range,
    subnet: IPv4Network,
    ports: list[PortSlot],
) -> Rail:
    vlan = intent.addressing.rail_vlan_base + rail
    gateway = subnet.network_address + 1
    # the NICs' addresses counted as numbers: an IPv4Address sum builds an object per '+'
    first = int(gateway) + 1
    link = intent.fabric.links.server_leaf
    for local, (server, port) in enumerate(zip(servers, ports, strict=True)):
        fields: dict[str, Any] = {  # every field, in order (Trusted)
            "server": f"server-{server + 1}",
            "nic": rail,
            "rail": rail,
            "vlan": vlan,
            "switch": sw.plan.hostname,
            "port": port.name,
            "ip": _iface(first + local, subnet.prefixlen),
            "gateway": gateway,
            "speed_gbps": link.speed,
            "cable_m": link.cable_m,
        }
        nic = NicAttachment(**fields) if Trusted.validate_all else Trusted.nic(fields)
        sw.server_ports.append((port, nic))
    rail_plan = Rail(rail=rail, vlan=vlan, switch=sw.plan.hostname, subnet=subnet, gateway=gateway)
    sw.rails.append(rail_plan)
    return rail_plan


class _Layout:
    """The switches placed so far, tier by tier, and the links and addresses they took."""

    def __init__(
        self, intent: Intent, shape: FabricShape, profiles: dict[Vendor, VendorProfile]
    ) -> None:
        self.intent, self.shape = intent, shape
        self.models = [_resolve(t, profiles) for t in shape.tiers]
        self.placed: list[list[tuple[Switch, list[PortSlot]]]] = [[] for _ in shape.tiers]
        self.links: list[Link] = []
        self.rails: list[Rail] = []
        self.nics: list[NicAttachment] = []
        self.p2p: int | None = None  # the fabric p2p pool's first address, once checked
        # (tier, down, up) -> the ports ``allocate`` picks: the same for every switch of a tier
        # that serves as many servers (the slots are frozen, shared by those switches)
        self.slots: dict[
            tuple[int, tuple[int, int], tuple[int, int]], tuple[list[PortSlot], list[PortSlot]]
        ] = {}

    def topology(self) -> Topology:
        switches = [sw for tier in self.placed for sw, _ in tier]
        return Topology(switches, self.links, self.rails, self.nics)

    def place(self, tier: int, pod: int, j: int) -> None:
        """Switch ``j`` of ``pod`` in ``tier``: its ports, its servers, its uplinks."""
        t, shape = self.shape.tiers[tier], self.shape
        index = pod * t.count + j if t.per_pod else j
        rails, servers = shape.served(j, pod) if t.serves else (range(0), range(0))
        sw = self._switch(tier, pod, index, rails)
        down = (len(servers) * len(rails), t.down[1]) if t.serves else t.down
        up = (t.up.count, t.up.link.speed) if t.up else (0, t.down[1])
        slots = self.slots.get((tier, down, up))
        if slots is None:
            profile, name, spec = self.models[tier]
            slots = allocate(profile, name, spec, down=down, up=up, blame=t.blame)
            self.slots[(tier, down, up)] = slots
        downs, ups = slots
        for local, rail in enumerate(rails):
            subnet = _rail_subnet(self.intent, shape, index * len(rails) + local)
            ports = downs[local * len(servers) : (local + 1) * len(servers)]
            self.rails.append(_attach_servers(self.intent, sw, rail, servers, subnet, ports))
        self.nics.extend(nic for _, nic in sw.server_ports)
        if t.up is not None:
            first, seat = shape.parents(tier, pod, j)
            for m, port in enumerate(ups):
                k, u = divmod(m, t.up.per_parent)
                parent, parent_ports = self.placed[tier - 1][first + k]
                self._link(t.up, (sw, port), (parent, parent_ports[seat * t.up.per_parent + u]))
        self.placed[tier].append((sw, downs))

    def _switch(self, tier: int, pod: int, index: int, rails: range) -> Switch:
        t, shape = self.shape.tiers[tier], self.shape
        profile, name, spec = self.models[tier]
        lo = _nth(
            self.intent.addressing.loopbacks,
            1 + shape.above(tier) + index,
            ("addressing", "loopbacks"),
            shape.pools.loopbacks,
        )
        plan = SwitchPlan(
            hostname=f"{t.role}-{index + 1}",
            role=t.role,
            vendor=t.switch.vendor,
            model=name,
            asn=t.asn.of(index, pod) if t.asn is not None else None,
            loopback=_iface(lo, 32),
            rail=rails[0] if t.per_rail else None,
            pod=pod if shape.pods > 1 and t.per_pod else None,
        )
        return Switch(plan, profile, spec)

    def _link(
        self, up: Uplinks, low: tuple[Switch, PortSlot], high: tuple[Switch, PortSlot]
    ) -> None:
        pool = self.intent.addressing.fabric_p2p
        assert pool is not None  # intent.checks: a fabric with links has a p2p pool
        if self.p2p is None:  # the pool's size checked once: every link's check is the same
            self.p2p = int(_nth(pool, 0, ("addressing", "fabric_p2p"), self.shape.pools.p2p))
        base = self.p2p + 2 * len(self.links)
        fields: dict[str, Any] = {  # every field, in order (Trusted)
            "kind": up.kind,
            "a_device": low[0].plan.hostname,
            "a_port": low[1].name,
            "a_ip": _iface(base + 1, 31),
            "b_device": high[0].plan.hostname,
            "b_port": high[1].name,
            "b_ip": _iface(base, 31),
            "speed_gbps": up.link.speed,
            "cable_m": up.link.cable_m,
        }
        link = Link(**fields) if Trusted.validate_all else Trusted.link(fields)
        self.links.append(link)
        low[0].fabric_ports.append((low[1], link))
        high[0].fabric_ports.append((high[1], link))
