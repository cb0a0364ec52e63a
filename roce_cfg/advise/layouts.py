"""The fabric shapes fitted to a demand: one switch, two tiers, three tiers; each a Plan,
feasible or with the designer's refusal."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from roce_cfg.advise.costs import count_cables, count_transceivers
from roce_cfg.advise.demand import Demand
from roce_cfg.design.ports import allocate
from roce_cfg.errors import PlanError
from roce_cfg.pcie import pcie_fits, pcie_payload_gbps
from roce_cfg.platforms.profile import ModelSpec, VendorProfile
from roce_cfg.vendor import Vendor

if TYPE_CHECKING:
    pass


@dataclass
class Plan:
    kind: str  # single-switch | two-tier | three-tier
    feasible: bool
    reason: str = ""
    switches: dict[str, dict[str, int]] = field(default_factory=dict)  # tier -> model -> count
    ports_used: dict[str, int] = field(default_factory=dict)  # tier -> ports used per switch
    ports_free: dict[str, int] = field(default_factory=dict)
    uplinks_per_leaf: int = 0
    oversubscription: dict[str, float] = field(default_factory=dict)
    gpus_per_leaf: int = 0
    spine_loss_percent: float = 0.0
    links: int = 0
    cables: dict[str, int] = field(default_factory=dict)  # "400G x 30m" -> count
    transceivers: dict[str, int] = field(default_factory=dict)  # "400G" -> count
    pcie_fit: str = ""
    cost: float | None = None
    fabric: dict[str, Any] = field(default_factory=dict)  # the intent's fabric section
    notes: list[str] = field(default_factory=list)
    # lossless sections whose syntax no source backs, per vendor ("ruijie: pfc, ecn")
    unsourced: list[str] = field(default_factory=list)
    why: str = ""  # why a feasible plan ranks where it does (advise/order.py)
    breakout: list[str] = field(default_factory=list)  # tiers whose switches split a cage
    # other sections its configs use whose syntax no source backs ("h3c: breakout")
    also_unsourced: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def _cages(m: ModelSpec) -> int:
    return sum(g.count for g in m.ports)


def _up_speed(m: ModelSpec) -> int:
    return max(g.speed for g in m.ports)


# (model, down, up) -> (model, verdict, splits): plan() asks the same layout many times (every
# pod count, every spine model beside a leaf). The model is kept in the value so its id stays
# its own.
_FITS: dict[
    tuple[int, str, tuple[int, int], tuple[int, int]], tuple[ModelSpec, str | None, bool]
] = {}


def _layout(
    profile: VendorProfile, name: str, m: ModelSpec, down: tuple[int, int], up: tuple[int, int]
) -> tuple[str | None, bool]:
    """(None, whether a cage is broken out) when the designer can lay these ports out on the
    model, else (its reason, False)."""
    key = (id(m), name, down, up)
    hit = _FITS.get(key)
    if hit is not None and hit[0] is m:
        return hit[1], hit[2]
    try:
        downs, _ = allocate(profile, name, m, down=down, up=up, blame=(), hint=False)
        why, splits = None, any(s.breakout_of for s in downs)
    except PlanError as exc:
        why, splits = exc.reason, False
    if len(_FITS) > 50_000:
        _FITS.clear()
    _FITS[key] = (m, why, splits)
    return why, splits


def _fits(
    profile: VendorProfile, name: str, m: ModelSpec, down: tuple[int, int], up: tuple[int, int]
) -> str | None:
    """None when the designer can lay these ports out on the model, else its reason."""
    return _layout(profile, name, m, down, up)[0]


def _splits(
    profile: VendorProfile, name: str, m: ModelSpec, down: tuple[int, int], up: tuple[int, int]
) -> bool:
    """Whether the designer breaks out a cage to lay these ports out (generate then uses the
    vendor's breakout syntax)."""
    return _layout(profile, name, m, down, up)[1]


def _pcie(d: Demand) -> str:
    usable = pcie_payload_gbps(d.pcie_gen, d.pcie_lanes)
    verdict = "fits" if pcie_fits(d.pcie_gen, d.pcie_lanes, d.nic_speed) else "TOO SLOW"
    return f"Gen{d.pcie_gen} x{d.pcie_lanes} ~{usable:.0f} Gb/s for {d.nic_speed}G: {verdict}"


def single_switch(
    d: Demand, vendor: Vendor, profile: VendorProfile, name: str, m: ModelSpec
) -> Plan:
    plan = Plan(kind="single-switch", feasible=False, pcie_fit=_pcie(d))
    need = d.servers * d.nics
    why = _fits(profile, name, m, (need, d.nic_speed), (0, d.nic_speed))
    plan.switches = {"switch": {f"{vendor.value} {name}": 1}}
    if why is not None:
        plan.reason = f"switch ports run out: {why}"
        return plan
    plan.feasible = True
    split = _splits(profile, name, m, (need, d.nic_speed), (0, d.nic_speed))
    plan.breakout = ["switch"] if split else []
    plan.ports_used = {"switch": need}
    plan.ports_free = {"switch": _cages(m) - math.ceil(need / _lanes(m, d.nic_speed, need))}
    plan.gpus_per_leaf = need
    runs = [(d.nic_speed, d.in_rack_m, need)]
    plan.cables = count_cables(runs)
    plan.transceivers = count_transceivers(runs)
    plan.fabric = {
        "topology": "single-switch",
        "rails": d.nics,
        "switch": {"vendor": vendor.value, "model": name},
        "links": {"server_leaf": {"speed": f"{d.nic_speed}G", "cable_m": d.in_rack_m}},
    }
    return plan


def _sub_ports(m: ModelSpec, speed: int) -> int:
    """Most server ports of ``speed`` the model can carry, every cage broken out."""
    return sum(
        g.count * (g.speed // speed if speed in g.breakout else 1)
        for g in m.ports
        if g.speed == speed or speed in g.runs_at or speed in g.breakout
    )


def _lanes(m: ModelSpec, speed: int, need: int) -> int:
    """Sub-ports per cage the designer will use when a count exceeds the cages (estimate)."""
    if need <= _cages(m):
        return 1
    return max((g.speed // speed for g in m.ports if speed in g.breakout), default=1)


def two_tier(
    d: Demand,
    leaf: tuple[Vendor, VendorProfile, str, ModelSpec],
    spine: tuple[Vendor, VendorProfile, str, ModelSpec],
) -> Plan:
    lv, lp, ln, lm = leaf
    sv, sp, sn, sm = spine
    plan = Plan(kind="two-tier", feasible=False, pcie_fit=_pcie(d))
    plan.switches = {"leaf": {f"{lv.value} {ln}": 0}, "spine": {f"{sv.value} {sn}": 0}}
    up_speed = min(_up_speed(lm), _up_speed(sm))
    why = "no leaves-per-rail up to 64 fits"
    # Fewer leaves per rail than this cannot hold the servers even with every cage broken out:
    # skip them rather than ask the allocator 64 times (keeps 32,768 GPUs well under a second).
    first = max(1, math.ceil(d.servers / max(_sub_ports(lm, d.nic_speed), 1)))
    if first > 1:
        per_leaf = math.ceil(d.servers / (first - 1))
        why = "leaf ports run out: " + (
            _fits(lp, ln, lm, (per_leaf, d.nic_speed), (0, up_speed)) or "no room for uplinks"
        )
    for lpr in range(first, 65):
        per_leaf = math.ceil(d.servers / lpr)
        ups = math.ceil(per_leaf * d.nic_speed / (d.oversubscription * up_speed))
        leaf_why = _fits(lp, ln, lm, (per_leaf, d.nic_speed), (ups, up_speed))
        if leaf_why is not None:
            why = f"leaf ports run out: {leaf_why}"
            continue
        n_leaves = d.nics * lpr
        # Spines: the fewest that can each take the leaves' uplinks evenly.
        spine_why = None
        for spines in range(1, ups + 1):
            if ups % spines or ups // spines > 16 or spines > 256:
                continue
            k = ups // spines
            spine_why = _fits(sp, sn, sm, (n_leaves * k, up_speed), (0, up_speed))
            if spine_why is None:
                return _two_tier_plan(d, plan, leaf, spine, lpr, spines, k, up_speed)
        why = f"spine ports run out: {spine_why or 'no spine count divides the uplinks'}"
        break
    plan.reason = why
    return plan


def _two_tier_plan(
    d: Demand,
    plan: Plan,
    leaf: tuple[Vendor, VendorProfile, str, ModelSpec],
    spine: tuple[Vendor, VendorProfile, str, ModelSpec],
    lpr: int,
    spines: int,
    k: int,
    up_speed: int,
) -> Plan:
    lv, lp, ln, lm = leaf
    sv, sp, sn, sm = spine
    per_leaf = math.ceil(d.servers / lpr)
    n_leaves = d.nics * lpr
    ups = spines * k
    links = n_leaves * ups
    plan.feasible = True
    splits = {
        "leaf": _splits(lp, ln, lm, (per_leaf, d.nic_speed), (ups, up_speed)),
        "spine": _splits(sp, sn, sm, (n_leaves * k, up_speed), (0, up_speed)),
    }
    plan.breakout = [tier for tier, split in splits.items() if split]
    plan.switches = {"leaf": {f"{lv.value} {ln}": n_leaves}, "spine": {f"{sv.value} {sn}": spines}}
    used_leaf = math.ceil(per_leaf / _lanes(lm, d.nic_speed, per_leaf + ups)) + ups
    plan.ports_used = {"leaf": used_leaf, "spine": n_leaves * k}
    plan.ports_free = {"leaf": _cages(lm) - used_leaf, "spine": _cages(sm) - n_leaves * k}
    plan.uplinks_per_leaf = ups
    plan.oversubscription = {"leaf": round(per_leaf * d.nic_speed / (ups * up_speed), 2)}
    plan.gpus_per_leaf = per_leaf
    plan.spine_loss_percent = round(100 / spines, 1)
    plan.links = links
    nic_links = d.servers * d.nics
    runs = [(d.nic_speed, d.in_row_m, nic_links), (up_speed, d.between_rows_m, links)]
    plan.cables = count_cables(runs)
    plan.transceivers = count_transceivers(runs)
    plan.fabric = {
        "topology": "leaf-spine",
        "rails": d.nics,
        "leaves_per_rail": lpr,
        "spines": spines,
        "uplinks_per_spine": k,
        "leaf": {"vendor": lv.value, "model": ln},
        "spine": {"vendor": sv.value, "model": sn},
        "links": {
            "server_leaf": {"speed": f"{d.nic_speed}G", "cable_m": d.in_row_m},
            "leaf_spine": {"speed": f"{up_speed}G", "cable_m": d.between_rows_m},
        },
    }
    return plan


Choice = tuple[Vendor, VendorProfile, str, ModelSpec]


def three_tier(d: Demand, leaf: Choice, spine: Choice) -> Plan:
    """Pods that split the servers evenly, each two tiers with its spines at 1:1 (as many ports
    up as down), joined by super-spine planes (spine j of every pod to plane j only); the
    super-spines are the spine model. Fewest pods first: the first pod count that fits wins."""
    lv, lp, ln, lm = leaf
    sv, _, sn, sm = spine
    plan = Plan(kind="three-tier", feasible=False, pcie_fit=_pcie(d))
    plan.switches = {
        "leaf": {f"{lv.value} {ln}": 0},
        "spine": {f"{sv.value} {sn}": 0},
        "superspine": {f"{sv.value} {sn}": 0},
    }
    up_speed = min(_up_speed(lm), _up_speed(sm))
    why = "the servers do not split evenly over 2 to 64 pods"
    for pods in range(2, 65):
        if d.servers % pods:
            continue
        pod_servers = d.servers // pods
        first = max(1, math.ceil(pod_servers / max(_sub_ports(lm, d.nic_speed), 1)))
        for lpr in range(first, 65):
            per_leaf = math.ceil(pod_servers / lpr)
            ups = math.ceil(per_leaf * d.nic_speed / (d.oversubscription * up_speed))
            leaf_why = _fits(lp, ln, lm, (per_leaf, d.nic_speed), (ups, up_speed))
            if leaf_why is not None:
                why = f"leaf ports run out: {leaf_why}"
                continue
            why = _pod_spines(d, plan, leaf, spine, pods, lpr, ups, up_speed)
            break
        if plan.feasible:
            return plan
    plan.reason = why
    return plan


def _pod_spines(
    d: Demand, plan: Plan, leaf: Choice, spine: Choice, pods: int, lpr: int, ups: int, speed: int
) -> str:
    """Fill ``plan`` with the fewest spines per pod and super-spines that fit, else say why."""
    _, sp, sn, sm = spine
    pod_leaves = d.nics * lpr
    why = "spine ports run out: no spine count divides the uplinks"
    for spines in range(1, ups + 1):
        if ups % spines or ups // spines > 16 or spines > 256:
            continue
        k = ups // spines
        down = pod_leaves * k  # 1:1: as many ports up to the super-spines
        spine_why = _fits(sp, sn, sm, (down, speed), (down, speed))
        if spine_why is not None:
            why = f"spine ports run out: {spine_why}"
            continue
        # Most ports from one spine to each super-spine of its plane: fewest super-spines.
        for u in range(min(16, down), 0, -1):
            per_plane = down // u
            if down % u or per_plane * spines > 1024:
                continue
            sup_why = _fits(sp, sn, sm, (pods * u, speed), (0, speed))
            if sup_why is None:
                _three_tier_plan(d, plan, leaf, spine, (pods, lpr, spines, k, per_plane, u), speed)
                return ""
            why = f"super-spine ports run out: {sup_why}"
    return why


def _three_tier_plan(
    d: Demand, plan: Plan, leaf: Choice, spine: Choice, shape: tuple[int, ...], speed: int
) -> None:
    lv, lp, ln, lm = leaf
    sv, sp, sn, sm = spine
    pods, lpr, spines, k, per_plane, u = shape
    per_leaf = math.ceil(d.servers // pods / lpr)
    n_leaves, n_spines, n_supers = pods * d.nics * lpr, pods * spines, per_plane * spines
    ups = spines * k
    spine_down = d.nics * lpr * k
    leaf_links, up_links = n_leaves * ups, n_spines * spine_down
    plan.feasible = True
    splits = {
        "leaf": _splits(lp, ln, lm, (per_leaf, d.nic_speed), (ups, speed)),
        "spine": _splits(sp, sn, sm, (spine_down, speed), (spine_down, speed)),
        "superspine": _splits(sp, sn, sm, (pods * u, speed), (0, speed)),
    }
    plan.breakout = [tier for tier, split in splits.items() if split]
    plan.switches = {
        "leaf": {f"{lv.value} {ln}": n_leaves},
        "spine": {f"{sv.value} {sn}": n_spines},
        "superspine": {f"{sv.value} {sn}": n_supers},
    }
    used_leaf = math.ceil(per_leaf / _lanes(lm, d.nic_speed, per_leaf + ups)) + ups
    plan.ports_used = {"leaf": used_leaf, "spine": 2 * spine_down, "superspine": pods * u}
    plan.ports_free = {
        "leaf": _cages(lm) - used_leaf,
        "spine": _cages(sm) - 2 * spine_down,
        "superspine": _cages(sm) - pods * u,
    }
    plan.uplinks_per_leaf = ups
    plan.oversubscription = {
        "leaf": round(per_leaf * d.nic_speed / (ups * speed), 2),
        "spine": 1.0,
    }
    plan.gpus_per_leaf = per_leaf
    plan.spine_loss_percent = round(100 / spines, 1)  # of one pod's bandwidth
    plan.links = leaf_links + up_links
    runs = [
        (d.nic_speed, d.in_row_m, d.servers * d.nics),
        (speed, d.between_rows_m, leaf_links),
        (speed, d.between_rows_m, up_links),
    ]
    plan.cables = count_cables(runs)
    plan.transceivers = count_transceivers(runs)
    plan.fabric = _three_tier_fabric(d, leaf, spine, shape, speed)


def _three_tier_fabric(
    d: Demand, leaf: Choice, spine: Choice, shape: tuple[int, ...], speed: int
) -> dict[str, Any]:
    """The intent's fabric section for a three-tier plan of ``shape``."""
    pods, lpr, spines, k, per_plane, u = shape
    return {
        "topology": "leaf-spine",
        "rails": d.nics,
        "leaves_per_rail": lpr,
        "spines": spines,
        "uplinks_per_spine": k,
        "pods": pods,
        "super_spines": per_plane * spines,
        "super_spine_planes": True,
        "uplinks_per_super_spine": u,
        "leaf": {"vendor": leaf[0].value, "model": leaf[2]},
        "spine": {"vendor": spine[0].value, "model": spine[2]},
        "super_spine": {"vendor": spine[0].value, "model": spine[2]},
        "links": {
            "server_leaf": {"speed": f"{d.nic_speed}G", "cable_m": d.in_row_m},
            "leaf_spine": {"speed": f"{speed}G", "cable_m": d.between_rows_m},
            "spine_superspine": {"speed": f"{speed}G", "cable_m": d.between_rows_m},
        },
    }
