"""Sizing advisor: the switch models roce-cfg knows, and fabric plans for a GPU demand.

Port fitting is the designer's own (``roce_cfg.design.ports.allocate``): a plan the advisor calls
feasible is one whose every switch role the designer can lay out, and an infeasible plan carries
the designer's own refusal.
"""

from __future__ import annotations

import difflib
import math
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from roce_cfg.design.ports import allocate
from roce_cfg.design.shape import FabricShape
from roce_cfg.errors import InputError, PlanError
from roce_cfg.intent.models import Intent
from roce_cfg.pcie import pcie_fits, pcie_payload_gbps
from roce_cfg.platforms.profile import ModelSpec, VendorProfile
from roce_cfg.vendor import Vendor
from roce_cfg.yamlsrc import PRICES, load_file

if TYPE_CHECKING:
    from roce_cfg.model.fabric import Fabric


def models_table(profiles: dict[Vendor, VendorProfile]) -> list[dict[str, Any]]:
    """One row per switch model of every loaded profile (bundled plus overlay)."""
    rows: list[dict[str, Any]] = []
    for vendor, p in profiles.items():
        for name, m in sorted(p.models.items()):
            rows.append(
                {
                    "vendor": vendor.value,
                    "model": name,
                    "default": name == p.default_model,
                    "ports": [
                        {
                            "count": g.count,
                            "speed": g.speed,
                            "runs_at": list(g.runs_at),
                            "breakout": list(g.breakout),
                        }
                        for g in m.ports
                    ],
                    "capacity_gbps": sum(g.count * g.speed for g in m.ports),
                    "buffer_bytes": m.buffer_bytes,
                    "max_no_drop": m.max_no_drop,
                    "source": m.source,
                }
            )
    return rows


def port_map(row: dict[str, Any]) -> str:
    """``32 x 400G (runs 200/100G, breaks out 2x200G/4x100G)`` for one models_table row."""
    parts = []
    for g in row["ports"]:
        s = f"{g['count']} x {g['speed']}G"
        extra = []
        if g["runs_at"]:
            extra.append("runs " + "/".join(str(x) for x in g["runs_at"]) + "G")
        if g["breakout"]:
            extra.append("breaks out " + "/".join(f"{g['speed'] // b}x{b}G" for b in g["breakout"]))
        parts.append(s + (f" ({', '.join(extra)})" if extra else ""))
    return " + ".join(parts)


# The demand's figures bounded as the intent bounds them (servers.nics, nic_speed, cable_m), so
# that a plan's intent is one generate accepts: (low, high), low 0 meaning more than 0.
BOUNDS = {
    "nics": (1, 16),
    "nic_speed": (1, 1600),
    "in_rack_m": (0, 10000),
    "in_row_m": (0, 10000),
    "between_rows_m": (0, 10000),
    "oversubscription": (1, 64),
}


@dataclass(frozen=True)
class Demand:
    servers: int
    nics: int
    nic_speed: int
    pcie_gen: int = 5
    pcie_lanes: int = 16
    oversubscription: float = 1.0
    in_rack_m: float = 3.0
    in_row_m: float = 30.0
    between_rows_m: float = 100.0

    @classmethod
    def of(cls, gpus: int | None, servers: int | None, **figures: Any) -> Demand:
        """The demand ``roce-cfg plan`` was given: exactly one of a GPU count (one NIC each)
        and a server count, and the other figures within BOUNDS (NaN and infinity are no
        lengths); else an InputError naming the option."""
        if (gpus is None) == (servers is None):
            raise InputError("give exactly one of --gpus and --servers", path="--gpus")
        for name, (low, high) in BOUNDS.items():
            value: float = figures[name]
            if not (math.isfinite(value) and low <= value <= high) or (low == 0 and value == 0):
                bound = f"more than 0 and at most {high:,}" if low == 0 else f"{low}-{high:,}"
                raise InputError(
                    f"must be {bound} (got {value})", path="--" + name.replace("_", "-")
                )
        count = servers if servers is not None else -(-int(gpus or 0) // figures["nics"])
        if count < 1:
            raise InputError("must be at least 1", path="--gpus")
        return cls(servers=count, **figures)


def load_prices(path: Path) -> dict[str, float]:
    """A unit-price table: item name (switch model, cable 'speed x length', 'optic-<speed>')
    to a price from 0 to 1e12."""
    raw, _ = load_file(path, PRICES)
    if not isinstance(raw, dict) or not all(
        isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)
        and 0 <= v <= 1e12
        for v in raw.values()
    ):  # fmt: skip
        raise InputError("must map item names to prices (numbers from 0 to 1e12)", file=str(path))
    return {str(k): float(v) for k, v in raw.items()}


def cable_key(speed_gbps: int, cable_m: float) -> str:
    """``400G x 30m``: how cables are counted, in plans and in a built fabric's bill."""
    return f"{speed_gbps}G x {cable_m:g}m"


def count_cables(runs: Iterable[tuple[int, float, int]]) -> dict[str, int]:
    """Cables by speed x length from (speed, metres, count) runs."""
    out: dict[str, int] = {}
    for speed, metres, n in runs:
        if n:
            out[cable_key(speed, metres)] = out.get(cable_key(speed, metres), 0) + n
    return out


def count_transceivers(runs: Iterable[tuple[int, float, int]]) -> dict[str, int]:
    """Transceivers by speed: one at each end of every cable."""
    out: dict[str, int] = {}
    for speed, _, n in runs:
        if n:
            out[f"{speed}G"] = out.get(f"{speed}G", 0) + 2 * n
    return out


@dataclass
class BillOfMaterials:
    switches: dict[str, dict[str, int]]  # tier -> "vendor model" -> count
    nic_cables: dict[str, int]  # server to switch, by speed x length
    link_cables: dict[str, int]  # switch to switch, by speed x length
    transceivers: dict[str, int]

    @property
    def cables(self) -> dict[str, int]:
        out = dict(self.nic_cables)
        for k, n in self.link_cables.items():
            out[k] = out.get(k, 0) + n
        return out


def bill_of_materials(fabric: Fabric) -> BillOfMaterials:
    """What a designed fabric takes to build, counted the way ``plan`` counts a candidate."""
    switches: dict[str, dict[str, int]] = {}
    for s in fabric.switches:
        tier = switches.setdefault(s.role, {})
        key = f"{s.vendor.value} {s.model}"
        tier[key] = tier.get(key, 0) + 1
    nics = [(n.speed_gbps, n.cable_m, 1) for n in fabric.nics]
    links = [(k.speed_gbps, k.cable_m, 1) for k in fabric.links]
    return BillOfMaterials(
        switches=switches,
        nic_cables=count_cables(nics),
        link_cables=count_cables(links),
        transceivers=count_transceivers([*nics, *links]),
    )


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

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def _cages(m: ModelSpec) -> int:
    return sum(g.count for g in m.ports)


def _up_speed(m: ModelSpec) -> int:
    return max(g.speed for g in m.ports)


# (model, down, up) -> (model, verdict): plan() asks the same layout many times (every pod
# count, every spine model beside a leaf). The model is kept in the value so its id stays its own.
_FITS: dict[tuple[int, str, tuple[int, int], tuple[int, int]], tuple[ModelSpec, str | None]] = {}


def _fits(
    profile: VendorProfile, name: str, m: ModelSpec, down: tuple[int, int], up: tuple[int, int]
) -> str | None:
    """None when the designer can lay these ports out on the model, else its reason."""
    key = (id(m), name, down, up)
    hit = _FITS.get(key)
    if hit is not None and hit[0] is m:
        return hit[1]
    try:
        allocate(profile, name, m, down=down, up=up, blame=(), hint=False)
        why = None
    except PlanError as exc:
        why = exc.reason
    if len(_FITS) > 50_000:
        _FITS.clear()
    _FITS[key] = (m, why)
    return why


def _pcie(d: Demand) -> str:
    usable = pcie_payload_gbps(d.pcie_gen, d.pcie_lanes)
    verdict = "fits" if pcie_fits(d.pcie_gen, d.pcie_lanes, d.nic_speed) else "TOO SLOW"
    return f"Gen{d.pcie_gen} x{d.pcie_lanes} ~{usable:.0f} Gb/s for {d.nic_speed}G: {verdict}"


def _price(plan: Plan, prices: dict[str, float] | None) -> None:
    if not prices or not plan.feasible:
        return
    total = 0.0
    for tier in plan.switches.values():
        for model, n in tier.items():
            if model not in prices:
                return
            total += prices[model] * n
    for key, n in [*plan.cables.items(), *plan.transceivers.items()]:
        name = key if key in prices else f"optic-{key}" if f"optic-{key}" in prices else None
        if name is None:
            return
        total += prices[name] * n
    plan.cost = total


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
    lv, _, ln, lm = leaf
    sv, _, sn, sm = spine
    per_leaf = math.ceil(d.servers / lpr)
    n_leaves = d.nics * lpr
    ups = spines * k
    links = n_leaves * ups
    plan.feasible = True
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
    lv, _, ln, lm = leaf
    sv, _, sn, sm = spine
    pods, lpr, spines, k, per_plane, u = shape
    per_leaf = math.ceil(d.servers // pods / lpr)
    n_leaves, n_spines, n_supers = pods * d.nics * lpr, pods * spines, per_plane * spines
    ups = spines * k
    spine_down = d.nics * lpr * k
    leaf_links, up_links = n_leaves * ups, n_spines * spine_down
    plan.feasible = True
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
    plan.fabric = {
        "topology": "leaf-spine",
        "rails": d.nics,
        "leaves_per_rail": lpr,
        "spines": spines,
        "uplinks_per_spine": k,
        "pods": pods,
        "super_spines": n_supers,
        "super_spine_planes": True,
        "uplinks_per_super_spine": u,
        "leaf": {"vendor": lv.value, "model": ln},
        "spine": {"vendor": sv.value, "model": sn},
        "super_spine": {"vendor": sv.value, "model": sn},
        "links": {
            "server_leaf": {"speed": f"{d.nic_speed}G", "cable_m": d.in_row_m},
            "leaf_spine": {"speed": f"{speed}G", "cable_m": d.between_rows_m},
            "spine_superspine": {"speed": f"{speed}G", "cable_m": d.between_rows_m},
        },
    }


def candidates(profiles: dict[Vendor, VendorProfile], allowed: list[str] | None) -> list[Choice]:
    """Models matching ``vendor`` or ``vendor:model`` entries (all models when none given), in
    any case; an entry that names no vendor or model is refused with a did-you-mean."""
    every = {f"{v.value}:{name}": (v, p, name, m)
             for v, p in profiles.items() for name, m in sorted(p.models.items())}  # fmt: skip
    if not allowed:
        return list(every.values())
    by_lower = {k.lower(): k for k in every} | {v.value: v.value for v in profiles}
    wanted = set()
    for entry in allowed:
        key = by_lower.get(entry.strip().lower())
        if key is None:
            close = difflib.get_close_matches(entry.strip().lower(), list(by_lower), n=1)
            hint = f"; did you mean '{by_lower[close[0]]}'?" if close else ""
            raise InputError(f"no vendor or vendor:model '{entry}'{hint}", path="--leaf/--spine")
        wanted.add(key)
    return [c for k, c in every.items() if k in wanted or k.split(":")[0] in wanted]


def plan(
    d: Demand,
    profiles: dict[Vendor, VendorProfile],
    *,
    leaf: list[str] | None = None,
    spine: list[str] | None = None,
    prices: dict[str, float] | None = None,
) -> list[Plan]:
    """Candidate plans, feasible first, fewest switches first."""
    plans: list[Plan] = []
    leaves = candidates(profiles, leaf)
    spines = candidates(profiles, spine)
    for v, p, n, m in leaves:
        plans.append(single_switch(d, v, p, n, m))
    for lc in leaves:
        best: Plan | None = None
        for sc in spines:
            if spine is None and sc[0] != lc[0]:
                continue  # unrestricted: pair a leaf with spines of its own vendor
            cand = two_tier(d, lc, sc)
            if best is None or _rank(cand) < _rank(best):
                best = cand
        if best is not None and not best.feasible:
            # Two tiers cannot hold the demand on this leaf: pods joined by super-spines.
            for sc in spines:
                if spine is None and sc[0] != lc[0]:
                    continue
                cand = three_tier(d, lc, sc)
                if cand.feasible and (not best.feasible or _rank(cand) < _rank(best)):
                    best = cand
        if best is not None:
            plans.append(best)
    for p_ in plans:
        _price(p_, prices)
        p_.notes += _ecmp_notes(p_, profiles)
        p_.unsourced = _unsourced(p_, profiles)
    plans.sort(key=_rank)
    return plans


#: The sections that make a fabric lossless: a plan whose vendor has any of them without a
#: source (vendors/*.yaml sections: unverified) is marked, and ranked after sourced plans of
#: similar size (TRUST_PENALTY).
LOSSLESS_SECTIONS = ("qos_maps", "scheduling", "pfc", "watchdog", "ecn")
#: An unsourced plan must need this many times fewer switches to rank before a sourced one
#: (at 2, Ruijie's 12 x 128-port boxes tie H3C's 24 x 64-port ones, and the tie goes to H3C).
TRUST_PENALTY = 2.0


def _unsourced(p: Plan, profiles: dict[Vendor, VendorProfile]) -> list[str]:
    vendors = sorted(
        {t["vendor"] for t in p.fabric.values() if isinstance(t, dict) and "vendor" in t}
    )
    out = []
    for v in vendors:
        sections = profiles[Vendor(v)].sections
        missing = [
            s for s in LOSSLESS_SECTIONS if s in sections and sections[s].status == "unverified"
        ]
        if missing:
            out.append(f"{v}: {', '.join(missing)}")
    return out


def _ecmp_notes(p: Plan, profiles: dict[Vendor, VendorProfile]) -> list[str]:
    """What a device-wide ECMP cap (H3C max-ecmp-num, set apart from BGP and effective after a
    reboot) means for the plan's equal-cost paths: a leaf spreads over its uplinks, a spine
    over its links to one leaf."""
    if not p.feasible or "leaf" not in p.fabric:
        return []
    paths = {"leaf": p.uplinks_per_leaf, "spine": int(p.fabric.get("uplinks_per_spine", 1))}
    out = []
    for tier, n in paths.items():
        vendor, model = Vendor(p.fabric[tier]["vendor"]), p.fabric[tier]["model"]
        cap, spec = profiles[vendor].models[model].ecmp_default, profiles[vendor].ecmp_limit
        if spec is None or n <= 1 or (cap is not None and cap >= n):
            continue
        known = f"its default is {cap}" if cap is not None else "its default is in no source read"
        out.append(
            f"{tier} {vendor.value} {model}: {n} equal-cost paths need '{spec.setting} {n}' or "
            f"more{' (effective after a reboot)' if spec.reboot else ''}; {known}"
        )
    return out


def best(plans: list[Plan]) -> Plan:
    """The first feasible plan (``plan`` sorts the best first)."""
    found = next((p for p in plans if p.feasible), None)
    if found is None:
        raise InputError("no feasible plan to write", path="--write")
    return found


PLAN_COLUMNS = ("#", "plan", "switches", "uplinks/leaf", "oversub", "GPUs/leaf", "spine loss",
                "cables", "optics", "cost / why not", "syntax")  # fmt: skip


def plan_row(p: Plan, number: int) -> tuple[str, ...]:
    """One plan as the cells of PLAN_COLUMNS (``number``: its place in the ranking)."""
    trust = "UNSOURCED " + "; ".join(p.unsourced) if p.unsourced else "sourced"
    return (
        str(number),
        p.kind + ("" if p.feasible else " (infeasible)"),
        "; ".join(f"{t}: {n} x {m}" for t, ms in p.switches.items() for m, n in ms.items()),
        str(p.uplinks_per_leaf or ""),
        ", ".join(f"{t} {v}:1" for t, v in p.oversubscription.items()),
        str(p.gpus_per_leaf or ""),
        f"{p.spine_loss_percent}%" if p.spine_loss_percent else "",
        ", ".join(f"{n} x {k}" for k, n in p.cables.items()),
        ", ".join(f"{n} x {k}" for k, n in p.transceivers.items()),
        p.reason or (f"{p.cost:,.0f}" if p.cost is not None else ""),
        trust,
    )


def _rank(p: Plan) -> tuple[int, float, bool, str]:
    """Feasible first; then fewest switches, an unsourced plan's count weighted by
    TRUST_PENALTY (a sourced plan of similar size ranks first); then the kind."""
    n = sum(c for t in p.switches.values() for c in t.values())
    weight = TRUST_PENALTY if p.unsourced else 1.0
    return (0 if p.feasible else 1, n * weight if p.feasible else 0, bool(p.unsourced), p.kind)


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
