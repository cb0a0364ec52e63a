"""The intent that builds a plan, for `roce-cfg plan --write`."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from roce_cfg.advise.demand import Demand
from roce_cfg.advise.layouts import Plan
from roce_cfg.design.shape import FabricShape
from roce_cfg.errors import PlanError
from roce_cfg.intent.models import Intent

if TYPE_CHECKING:
    pass


def intent_for(d: Demand, p: Plan, name: str = "planned") -> dict[str, Any]:
    """An intent ``generate`` accepts unchanged, for a feasible plan: its pools sized from the
    plan's shape (the same ``FabricShape`` the designer lays out)."""
    if not p.feasible:
        raise PlanError(("plan",), f"plan is infeasible: {p.reason}")
    intent = _draft(d, p, name)
    shape = FabricShape.of(Intent.model_validate(intent))
    pools, size = shape.pools, shape.size
    rails = pools.rail_subnets * 2 ** (32 - pools.rail_prefix)
    intent["addressing"] = {
        "loopbacks": f"10.0.0.0/{_prefix(size.switches + 2, 16)}",
        "rail_subnets": f"10.128.0.0/{_prefix(rails, 9)}",
        "rail_vlan_base": 101,
    }
    if size.links:
        intent["addressing"]["fabric_p2p"] = f"10.64.0.0/{_prefix(pools.p2p, 10)}"
    if shape.pods == 1 and size.links and 65001 + shape.tiers[-1].count <= 65534:
        intent["routing"] = {"protocol": "ebgp", "spine_asn": 65000, "leaf_asn_base": 65001}
    return intent


def _draft(d: Demand, p: Plan, name: str) -> dict[str, Any]:
    """The intent with the widest pools and a 4-byte private ASN plan: enough for its shape.
    4-byte ASNs: pods (<= 64) and leaves never collide with the super-spines'."""
    fabric = dict(p.fabric)
    intent: dict[str, Any] = {
        "name": name,
        "servers": {
            "count": d.servers,
            "nics": d.nics,
            "nic_speed": f"{d.nic_speed}G",
            "pcie_gen": d.pcie_gen,
            "pcie_lanes": d.pcie_lanes,
        },
        "fabric": fabric,
        "addressing": {
            "loopbacks": "10.0.0.0/16",
            "rail_subnets": "10.128.0.0/9",
            "rail_vlan_base": 101,
        },
    }
    if fabric["topology"] == "leaf-spine":
        intent["addressing"]["fabric_p2p"] = "10.64.0.0/10"
        if int(fabric.get("pods", 1)) > 1:
            asns = {
                "super_spine_asn": 4200000000,
                "spine_asn": 4200000001,
                "leaf_asn_base": 4200000100,
            }
        else:
            asns = {"spine_asn": 4200000000, "leaf_asn_base": 4200000001}
        intent["routing"] = {"protocol": "ebgp", **asns}
    return intent


def _prefix(addresses: int, widest: int) -> int:
    """The longest prefix holding ``addresses`` (at least a /24), no wider than /``widest``."""
    return max(widest, min(24, 32 - math.ceil(math.log2(max(addresses, 2)))))
