"""Checks across fields that pydantic cannot express field by field. Each names its field.

What each topology needs is checked here; the ASN plan (ranges, collisions between tiers) and
the fabric's size are the shape's (roce_cfg.design.shape.FabricShape), which runs these first.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from roce_cfg.intent.models import Intent

Problem = tuple[tuple[str | int, ...], str]


def check(intent: Intent) -> list[Problem]:
    return [*_rails(intent), *_lossless(intent), *_addressing(intent), *_routing(intent)]


def _rails(intent: Intent) -> Iterator[Problem]:
    fab = intent.fabric
    if fab.rails != intent.servers.nics:
        yield (
            ("fabric", "rails"),
            f"must equal servers.nics ({intent.servers.nics}): NIC i of every server is in rail i",
        )
    if fab.links.server_leaf.speed != intent.servers.nic_speed:
        yield (
            ("fabric", "links", "server_leaf", "speed"),
            f"must equal servers.nic_speed ({intent.servers.nic_speed}G)",
        )
    last_vlan = intent.addressing.rail_vlan_base + fab.rails - 1
    if last_vlan > 4094:
        yield (("addressing", "rail_vlan_base"), f"rail VLANs run to {last_vlan}, past 4094")
    if fab.topology == "single-switch":
        for key in ("leaf", "spine"):
            if getattr(fab, key) is not None:
                yield (("fabric", key), "not used by a single-switch plan; give fabric.switch")
        if fab.switch is None:
            yield (("fabric", "topology"), "single-switch needs fabric.switch (vendor, model)")
    else:
        if fab.switch is not None:
            yield (("fabric", "switch"), "only for single-switch; leaf-spine uses leaf and spine")
        for key in ("leaf", "spine"):
            if getattr(fab, key) is None:
                yield (("fabric", "topology"), f"leaf-spine needs fabric.{key} (vendor, model)")
        if fab.links.leaf_spine is None:
            yield (("fabric", "links"), "leaf-spine needs links.leaf_spine (speed, cable_m)")
        if fab.spines < 1:
            yield (("fabric", "spines"), "leaf-spine needs at least one spine")
        if intent.routing is None:
            yield (("routing",), "leaf-spine needs routing (eBGP ASN plan)")
        if intent.addressing.fabric_p2p is None:
            yield (("addressing",), "leaf-spine needs addressing.fabric_p2p for the /31 links")
        yield from _tiers(intent)


def _tiers(intent: Intent) -> Iterator[Problem]:
    """Three tiers (pods > 1) need super-spines, their links and a per-tier ASN plan."""
    fab, routing = intent.fabric, intent.routing
    if fab.pods == 1:
        for key in ("super_spine", "super_spines"):
            if getattr(fab, key):
                yield (("fabric", key), "only for three tiers (fabric.pods > 1)")
        return
    if fab.super_spine is None:
        yield (("fabric", "super_spine"), "three tiers (pods > 1) need fabric.super_spine")
    if fab.super_spines < 1:
        yield (("fabric", "super_spines"), "three tiers need at least one super-spine")
    if fab.links.spine_superspine is None:
        yield (("fabric", "links"), "three tiers need links.spine_superspine (speed, cable_m)")
    if intent.servers.count % fab.pods:
        yield (("servers", "count"), f"must split evenly over {fab.pods} pods")
    if fab.super_spine_planes and fab.spines and fab.super_spines % fab.spines:
        yield (
            ("fabric", "super_spines"),
            f"with planes, a multiple of the {fab.spines} spines per pod (one plane per spine)",
        )
    # Which ASNs the tiers take, and that they do not collide: design/shape.py (FabricShape).
    if routing is not None:
        if routing.spine_asn is None:
            yield (("routing", "spine_asn"), "three tiers: pod p's spines share spine_asn + p")
        if routing.super_spine_asn is None:
            yield (("routing", "super_spine_asn"), "three tiers need super_spine_asn")


def _lossless(intent: Intent) -> Iterator[Problem]:
    ll = intent.lossless
    no_drop = ll.pfc.no_drop
    if len(set(no_drop)) != len(no_drop):
        yield (("lossless", "pfc", "no_drop"), "lists a priority twice")
    if any(not 0 <= p <= 7 for p in no_drop):
        yield (("lossless", "pfc", "no_drop"), "priorities are 0-7")
    if ll.roce.priority == ll.cnp.priority:
        yield (
            ("lossless", "cnp", "priority"),
            f"must differ from roce.priority ({ll.roce.priority})",
        )
    if ll.roce.dscp == ll.cnp.dscp:
        yield (("lossless", "cnp", "dscp"), f"must differ from roce.dscp ({ll.roce.dscp})")
    if ll.roce.priority not in no_drop:
        yield (
            ("lossless", "roce", "priority"),
            f"must be a no-drop priority (pfc.no_drop is {list(no_drop)})",
        )
    if ll.cnp.priority <= max(no_drop):
        yield (
            ("lossless", "cnp", "priority"),
            f"must be above every no-drop priority ({max(no_drop)}): queues from the CNP queue up "
            "run strict priority",
        )
    elif ll.cnp.priority in no_drop:
        yield (
            ("lossless", "cnp", "priority"),
            "must not be no-drop: CNPs ride a strict-priority queue so they are never paused",
        )
    if ll.ecn is not None and ll.ecn.min_kb >= ll.ecn.max_kb:
        yield (("lossless", "ecn", "min_kb"), f"must be below max_kb ({ll.ecn.max_kb})")
    if isinstance(ll.headroom, int) and ll.headroom < 2 * intent.fabric.mtu:
        yield (
            ("lossless", "headroom"),
            f"{ll.headroom} bytes cannot hold two MTU frames ({2 * intent.fabric.mtu} bytes)",
        )


def _addressing(intent: Intent) -> Iterator[Problem]:
    pools = [
        ("loopbacks", intent.addressing.loopbacks),
        ("rail_subnets", intent.addressing.rail_subnets),
    ]
    if intent.addressing.fabric_p2p is not None:
        pools.append(("fabric_p2p", intent.addressing.fabric_p2p))
    for (a_name, a), (b_name, b) in combinations(pools, 2):
        if a.overlaps(b):
            yield (("addressing", b_name), f"{b} overlaps addressing.{a_name} ({a})")


def _routing(intent: Intent) -> Iterator[Problem]:
    routing = intent.routing
    if routing is None:
        return
    if routing.spine_asn is not None and routing.spine_asn_base is not None:
        yield (("routing", "spine_asn_base"), "give spine_asn or spine_asn_base, not both")
    if routing.spine_asn is None and routing.spine_asn_base is None:
        yield (("routing",), "needs spine_asn (shared) or spine_asn_base (one ASN per spine)")
