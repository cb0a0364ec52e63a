"""Fabric-wide facts, computed once: switches, ports, links, addresses, rails, ASNs."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from ipaddress import IPv4Address, IPv4Interface, IPv4Network
from typing import Literal

from roce_cfg.design.ports import PortSlot, allocate
from roce_cfg.errors import PlanError
from roce_cfg.intent.models import Intent, LinkSpec, SwitchRole
from roce_cfg.model.fabric import Link, NicAttachment, Rail, SwitchPlan
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


def _iface(address: IPv4Address | int, prefix: int) -> IPv4Interface:
    # From an int, ipaddress skips re-validating an address object: 2 us instead of 7 per
    # interface, and a 32,768-GPU plan makes 200,000 of them.
    return IPv4Interface((int(address), prefix))


def _nth(net: IPv4Network, index: int, what: tuple[str | int, ...], need: int) -> IPv4Address:
    if need > net.num_addresses:
        raise PlanError(what, f"{net} holds {net.num_addresses} addresses, the plan needs {need}")
    return net.network_address + index


def _resolve(
    role: SwitchRole, profiles: dict[Vendor, VendorProfile], loc: tuple[str | int, ...]
) -> tuple[VendorProfile, str, ModelSpec]:
    profile = profiles[role.vendor]
    try:
        name, spec = profile.model_spec(role.model)
    except KeyError as exc:
        raise PlanError((*loc, "model"), str(exc.args[0])) from None
    return profile, name, spec


def rail_prefix(servers_per_switch: int) -> int:
    """Prefix length of one rail subnet: a /24 unless more hosts (plus gateway) need a larger one.

    >>> rail_prefix(16), rail_prefix(253), rail_prefix(254)
    (24, 24, 23)
    """
    return min(24, 32 - math.ceil(math.log2(servers_per_switch + 3)))


def build(intent: Intent, profiles: dict[Vendor, VendorProfile]) -> Topology:
    if intent.fabric.topology == "single-switch":
        return _single_switch(intent, profiles)
    if intent.fabric.pods > 1:
        return _three_tier(intent, profiles)
    return _leaf_spine(intent, profiles)


def _rail_subnet(intent: Intent, index: int, hosts: int, count: int) -> IPv4Network:
    pool = intent.addressing.rail_subnets
    prefix = rail_prefix(hosts)
    if prefix < pool.prefixlen:
        raise PlanError(("addressing", "rail_subnets"), f"{pool} is smaller than one /{prefix}")
    per = 2 ** (32 - prefix)
    _nth(pool, 0, ("addressing", "rail_subnets"), per * count)
    return IPv4Network((int(pool.network_address) + index * per, prefix))


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
    link = intent.fabric.links.server_leaf
    for local, (server, port) in enumerate(zip(servers, ports, strict=True)):
        nic = NicAttachment(
            server=f"server-{server + 1}",
            nic=rail,
            rail=rail,
            vlan=vlan,
            switch=sw.plan.hostname,
            port=port.name,
            ip=_iface(gateway + 1 + local, subnet.prefixlen),
            gateway=gateway,
            speed_gbps=link.speed,
            cable_m=link.cable_m,
        )
        sw.server_ports.append((port, nic))
    rail_plan = Rail(rail=rail, vlan=vlan, switch=sw.plan.hostname, subnet=subnet, gateway=gateway)
    sw.rails.append(rail_plan)
    return rail_plan


def _leaf_ports(
    intent: Intent,
    sw: Switch,
    rail: int,
    servers: range,
    place: tuple[int, int, int],
    up: tuple[int, int],
    rails: list[Rail],
    nics: list[NicAttachment],
) -> list[PortSlot]:
    """A rail leaf's server ports, its rail subnet and NICs; returns its uplink ports.
    ``place`` is (leaf index, servers per leaf, leaves), ``up`` is (uplinks, their speed)."""
    index, per_leaf, n_leaves = place
    downs, ups = allocate(
        sw.profile,
        sw.plan.model,
        sw.model,
        down=(len(servers), intent.fabric.links.server_leaf.speed),
        up=up,
        blame=("fabric", "leaf", "model"),
    )
    subnet = _rail_subnet(intent, index, per_leaf, n_leaves)
    rails.append(_attach_servers(intent, sw, rail, servers, subnet, downs[: len(servers)]))
    nics.extend(nic for _, nic in sw.server_ports)
    return ups


def _single_switch(intent: Intent, profiles: dict[Vendor, VendorProfile]) -> Topology:
    role = intent.fabric.switch
    if role is None:
        raise PlanError(("fabric", "switch"), "single-switch needs fabric.switch (vendor, model)")
    profile, model_name, spec = _resolve(role, profiles, ("fabric", "switch"))
    count, rails = intent.servers.count, intent.fabric.rails
    speed = intent.fabric.links.server_leaf.speed
    downs, _ = allocate(
        profile,
        model_name,
        spec,
        down=(count * rails, speed),
        up=(0, speed),
        blame=("servers", "count"),
    )
    loopback = _nth(intent.addressing.loopbacks, 1, ("addressing", "loopbacks"), 2)
    plan = SwitchPlan(
        hostname="switch-1",
        role="switch",
        vendor=role.vendor,
        model=model_name,
        loopback=_iface(loopback, 32),
    )
    sw = Switch(plan, profile, spec)
    rail_plans = []
    for rail in range(rails):
        subnet = _rail_subnet(intent, rail, count, rails)
        ports = downs[rail * count : (rail + 1) * count]
        rail_plans.append(_attach_servers(intent, sw, rail, range(count), subnet, ports))
    nics = [nic for _, nic in sw.server_ports]
    return Topology([sw], [], rail_plans, nics)


def _asns(intent: Intent, spines: int, leaves: int) -> tuple[list[int], list[int]]:
    routing = intent.routing
    if routing is None:
        raise PlanError(("routing",), "leaf-spine needs routing (eBGP ASN plan)")
    if routing.spine_asn is not None:
        spine_asns = [routing.spine_asn] * spines
    elif routing.spine_asn_base is not None:
        spine_asns = [routing.spine_asn_base + i for i in range(spines)]
    else:
        raise PlanError(("routing", "spine_asn"), "give spine_asn or spine_asn_base")
    leaf_asns = [routing.leaf_asn_base + i for i in range(leaves)]
    if max(leaf_asns + spine_asns) > 4294967295:
        raise PlanError(("routing", "leaf_asn_base"), "ASN plan runs past 4294967295")
    clash = sorted(set(spine_asns) & set(leaf_asns))
    if clash:
        raise PlanError(
            ("routing", "leaf_asn_base"),
            f"leaf ASNs {leaf_asns[0]}-{leaf_asns[-1]} collide with spine ASN {clash[0]}",
        )
    return spine_asns, leaf_asns


def _leaf_spine(intent: Intent, profiles: dict[Vendor, VendorProfile]) -> Topology:
    fab = intent.fabric
    if fab.leaf is None or fab.spine is None:
        missing = "leaf" if fab.leaf is None else "spine"
        raise PlanError(("fabric", missing), f"leaf-spine needs fabric.{missing} (vendor, model)")
    if fab.spines < 1:
        raise PlanError(("fabric", "spines"), "leaf-spine needs at least one spine")
    fabric_link = fab.links.leaf_spine
    if fabric_link is None:
        raise PlanError(("fabric", "links"), "leaf-spine needs links.leaf_spine")
    p2p = intent.addressing.fabric_p2p
    if p2p is None:
        raise PlanError(("addressing",), "leaf-spine needs addressing.fabric_p2p")
    n_leaves = fab.rails * fab.leaves_per_rail
    per_leaf = math.ceil(intent.servers.count / fab.leaves_per_rail)
    uplinks = fab.spines * fab.uplinks_per_spine
    spine_asns, leaf_asns = _asns(intent, fab.spines, n_leaves)
    lo_pool = intent.addressing.loopbacks
    need_lo = fab.spines + n_leaves + 1

    leaf_profile, leaf_model, leaf_spec = _resolve(fab.leaf, profiles, ("fabric", "leaf"))
    spine_profile, spine_model, spine_spec = _resolve(fab.spine, profiles, ("fabric", "spine"))
    spines: list[Switch] = []
    spine_ports: list[list[PortSlot]] = []
    for i in range(fab.spines):
        lo = _nth(lo_pool, 1 + i, ("addressing", "loopbacks"), need_lo)
        plan = SwitchPlan(
            hostname=f"spine-{i + 1}",
            role="spine",
            vendor=fab.spine.vendor,
            model=spine_model,
            asn=spine_asns[i],
            loopback=_iface(lo, 32),
        )
        spines.append(Switch(plan, spine_profile, spine_spec))
        downs, _ = allocate(
            spine_profile,
            spine_model,
            spine_spec,
            down=(n_leaves * fab.uplinks_per_spine, fabric_link.speed),
            up=(0, fabric_link.speed),
            blame=("fabric", "spine", "model"),
        )
        spine_ports.append(downs)

    leaves: list[Switch] = []
    links: list[Link] = []
    rails: list[Rail] = []
    nics: list[NicAttachment] = []
    need_p2p = 2 * n_leaves * uplinks
    for rail in range(fab.rails):
        for group in range(fab.leaves_per_rail):
            index = rail * fab.leaves_per_rail + group
            lo = _nth(lo_pool, 1 + fab.spines + index, ("addressing", "loopbacks"), need_lo)
            plan = SwitchPlan(
                hostname=f"leaf-{index + 1}",
                role="leaf",
                vendor=fab.leaf.vendor,
                model=leaf_model,
                asn=leaf_asns[index],
                loopback=_iface(lo, 32),
                rail=rail,
            )
            sw = Switch(plan, leaf_profile, leaf_spec)
            leaves.append(sw)
            servers = range(group * per_leaf, min((group + 1) * per_leaf, intent.servers.count))
            ups = _leaf_ports(intent, sw, rail, servers, (index, per_leaf, n_leaves),
                              (uplinks, fabric_link.speed), rails, nics)  # fmt: skip
            for k, up in enumerate(ups):
                s, u = divmod(k, fab.uplinks_per_spine)
                spine_port = spine_ports[s][index * fab.uplinks_per_spine + u]
                n = index * uplinks + k
                base = _nth(p2p, 2 * n, ("addressing", "fabric_p2p"), need_p2p)
                link = Link(
                    kind="leaf-spine",
                    a_device=plan.hostname,
                    a_port=up.name,
                    a_ip=_iface(base + 1, 31),
                    b_device=spines[s].plan.hostname,
                    b_port=spine_port.name,
                    b_ip=_iface(base, 31),
                    speed_gbps=fabric_link.speed,
                    cable_m=fabric_link.cable_m,
                )
                links.append(link)
                sw.fabric_ports.append((up, link))
                spines[s].fabric_ports.append((spine_port, link))
    return Topology(spines + leaves, links, rails, nics)


def _three_tier(intent: Intent, profiles: dict[Vendor, VendorProfile]) -> Topology:
    """Pods (rail leaves and pod spines, as in two tiers) joined by super-spines. RFC 7938
    ASN plan: a pod's spines share an ASN (spine_asn + pod), all super-spines share one, every
    leaf has its own; a valley through another pod is then rejected by AS-path loop checks."""
    fab, routing = intent.fabric, intent.routing
    if fab.leaf is None or fab.spine is None or fab.super_spine is None:
        raise PlanError(("fabric",), "three tiers need fabric.leaf, spine and super_spine")
    leaf_link, up_link = fab.links.leaf_spine, fab.links.spine_superspine
    if leaf_link is None or up_link is None:
        raise PlanError(
            ("fabric", "links"), "three tiers need links.leaf_spine and spine_superspine"
        )
    p2p = intent.addressing.fabric_p2p
    if (
        p2p is None
        or routing is None
        or routing.spine_asn is None
        or routing.super_spine_asn is None
    ):
        raise PlanError(("routing",), "three tiers need fabric_p2p, spine_asn and super_spine_asn")
    pods, per_pod_leaves = fab.pods, fab.rails * fab.leaves_per_rail
    if intent.servers.count % pods:
        # Each pod takes count // pods servers; a remainder would be left unattached, unsaid.
        # load_intent's checks refuse this too; an Intent built in code reaches here unchecked.
        raise PlanError(("servers", "count"), f"must split evenly over {pods} pods")
    n_leaves, n_spines = pods * per_pod_leaves, pods * fab.spines
    pod_servers = intent.servers.count // pods
    per_leaf = math.ceil(pod_servers / fab.leaves_per_rail)
    lo_pool = intent.addressing.loopbacks
    need_lo = fab.super_spines + n_spines + n_leaves + 1
    leaf_up = fab.spines * fab.uplinks_per_spine
    per_plane = fab.super_spines // fab.spines if fab.super_spine_planes else fab.super_spines
    spine_up = per_plane * fab.uplinks_per_super_spine
    reach = pods if fab.super_spine_planes else n_spines  # spines one super-spine faces
    need_p2p = 2 * (n_leaves * leaf_up + n_spines * spine_up)
    p2p_used = 0

    def p2p_pair() -> IPv4Address:
        nonlocal p2p_used
        base = _nth(p2p, 2 * p2p_used, ("addressing", "fabric_p2p"), need_p2p)
        p2p_used += 1
        return base

    def link(
        kind: Literal["leaf-spine", "spine-superspine"],
        low: tuple[Switch, PortSlot],
        high: tuple[Switch, PortSlot],
        spec: LinkSpec,
    ) -> None:
        base = p2p_pair()
        ln = Link(
            kind=kind,
            a_device=low[0].plan.hostname,
            a_port=low[1].name,
            a_ip=_iface(base + 1, 31),
            b_device=high[0].plan.hostname,
            b_port=high[1].name,
            b_ip=_iface(base, 31),
            speed_gbps=spec.speed,
            cable_m=spec.cable_m,
        )
        links.append(ln)
        low[0].fabric_ports.append((low[1], ln))
        high[0].fabric_ports.append((high[1], ln))

    sup_profile, sup_model, sup_spec = _resolve(
        fab.super_spine, profiles, ("fabric", "super_spine")
    )
    spine_profile, spine_model, spine_spec = _resolve(fab.spine, profiles, ("fabric", "spine"))
    leaf_profile, leaf_model, leaf_spec = _resolve(fab.leaf, profiles, ("fabric", "leaf"))
    links: list[Link] = []
    supers: list[tuple[Switch, list[PortSlot]]] = []
    for k in range(fab.super_spines):
        lo = _nth(lo_pool, 1 + k, ("addressing", "loopbacks"), need_lo)
        plan = SwitchPlan(
            hostname=f"superspine-{k + 1}",
            role="superspine",
            vendor=fab.super_spine.vendor,
            model=sup_model,
            asn=routing.super_spine_asn,
            loopback=_iface(lo, 32),
        )
        downs, _ = allocate(
            sup_profile,
            sup_model,
            sup_spec,
            down=(reach * fab.uplinks_per_super_spine, up_link.speed),
            up=(0, up_link.speed),
            blame=("fabric", "super_spine", "model"),
        )
        supers.append((Switch(plan, sup_profile, sup_spec), downs))
    spines: list[Switch] = []
    leaves: list[Switch] = []
    rails: list[Rail] = []
    nics: list[NicAttachment] = []
    for pod in range(pods):
        pod_spines: list[tuple[Switch, list[PortSlot]]] = []
        for j in range(fab.spines):
            index = pod * fab.spines + j
            lo = _nth(lo_pool, 1 + fab.super_spines + index, ("addressing", "loopbacks"), need_lo)
            plan = SwitchPlan(
                hostname=f"spine-{index + 1}",
                role="spine",
                vendor=fab.spine.vendor,
                model=spine_model,
                asn=routing.spine_asn + pod,
                loopback=_iface(lo, 32),
                pod=pod,
            )
            sw = Switch(plan, spine_profile, spine_spec)
            downs, ups = allocate(
                spine_profile,
                spine_model,
                spine_spec,
                down=(per_pod_leaves * fab.uplinks_per_spine, leaf_link.speed),
                up=(spine_up, up_link.speed),
                blame=("fabric", "spine", "model"),
            )
            plane = j * per_plane if fab.super_spine_planes else 0
            seat = pod if fab.super_spine_planes else index  # this spine's place on a super-spine
            for m, up in enumerate(ups):
                k, u = divmod(m, fab.uplinks_per_super_spine)
                sup, sup_ports = supers[plane + k]
                link(
                    "spine-superspine",
                    (sw, up),
                    (sup, sup_ports[seat * fab.uplinks_per_super_spine + u]),
                    up_link,
                )
            spines.append(sw)
            pod_spines.append((sw, downs))
        for rail in range(fab.rails):
            for group in range(fab.leaves_per_rail):
                local = rail * fab.leaves_per_rail + group
                index = pod * per_pod_leaves + local
                lo = _nth(
                    lo_pool,
                    1 + fab.super_spines + n_spines + index,
                    ("addressing", "loopbacks"),
                    need_lo,
                )
                plan = SwitchPlan(
                    hostname=f"leaf-{index + 1}",
                    role="leaf",
                    vendor=fab.leaf.vendor,
                    model=leaf_model,
                    asn=routing.leaf_asn_base + index,
                    loopback=_iface(lo, 32),
                    rail=rail,
                    pod=pod,
                )
                sw = Switch(plan, leaf_profile, leaf_spec)
                first = pod * pod_servers + group * per_leaf
                servers = range(first, min(first + per_leaf, (pod + 1) * pod_servers))
                ups = _leaf_ports(intent, sw, rail, servers, (index, per_leaf, n_leaves),
                                  (leaf_up, leaf_link.speed), rails, nics)  # fmt: skip
                for m, up in enumerate(ups):
                    s, u = divmod(m, fab.uplinks_per_spine)
                    spine, spine_ports = pod_spines[s]
                    link(
                        "leaf-spine",
                        (sw, up),
                        (spine, spine_ports[local * fab.uplinks_per_spine + u]),
                        leaf_link,
                    )
                leaves.append(sw)
    return Topology([s for s, _ in supers] + spines + leaves, links, rails, nics)
