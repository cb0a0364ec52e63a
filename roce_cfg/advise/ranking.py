"""Every candidate plan for a demand, ranked (the order and its reasons: order.py); the plan
``--write`` takes; a plan as a table row."""

from __future__ import annotations

import difflib
from typing import TYPE_CHECKING

from roce_cfg.advise.demand import Demand
from roce_cfg.advise.layouts import Choice, Plan, single_switch, three_tier, two_tier
from roce_cfg.advise.order import LOSSLESS_SECTIONS, explain, rank
from roce_cfg.errors import InputError
from roce_cfg.platforms.profile import VendorProfile
from roce_cfg.vendor import Vendor

if TYPE_CHECKING:
    pass


def candidates(profiles: dict[Vendor, VendorProfile], allowed: list[str] | None) -> list[Choice]:
    """Models matching ``vendor`` or ``vendor:model`` entries (all models when none given), in
    any case; an entry that names no vendor or model is refused with a did-you-mean."""
    every = {
        f"{v.value}:{name}": (v, p, name, m)
        for v, p in profiles.items()
        for name, m in sorted(p.models.items())
    }
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
    """Every candidate plan, best first (order.py), each feasible one saying why it ranks there."""
    plans: list[Plan] = []
    leaves = candidates(profiles, leaf)
    spines = candidates(profiles, spine)

    def judged(p: Plan) -> Plan:
        _price(p, prices)
        p.unsourced, p.also_unsourced = _unsourced(p, profiles)
        return p

    for v, p, n, m in leaves:
        plans.append(judged(single_switch(d, v, p, n, m)))
    for lc in leaves:
        # unrestricted: pair a leaf with spines of its own vendor
        own = [sc for sc in spines if spine is not None or sc[0] == lc[0]]
        best: Plan | None = None
        for sc in own:
            cand = judged(two_tier(d, lc, sc))
            if best is None or rank(cand) < rank(best):
                best = cand
        if best is not None and not best.feasible:
            # Two tiers cannot hold the demand on this leaf: pods joined by super-spines.
            for sc in own:
                cand = judged(three_tier(d, lc, sc))
                if cand.feasible and (not best.feasible or rank(cand) < rank(best)):
                    best = cand
        if best is not None:
            plans.append(best)
    for p_ in plans:
        p_.notes += _ecmp_notes(p_, profiles)
    plans.sort(key=rank)
    explain(plans)
    return plans


def _unsourced(p: Plan, profiles: dict[Vendor, VendorProfile]) -> tuple[list[str], list[str]]:
    """Per vendor, the lossless sections with no source, and the other sections the plan uses
    that generate will warn about (breakout, where a switch splits a cage): the same test as
    generate's (a section's status ``unverified``, or no provenance entry at all)."""

    def unverified(v: str, section: str) -> bool:
        prov = profiles[Vendor(v)].sections.get(section)
        return prov is None or prov.status == "unverified"

    by_tier = {t: {key.split(" ", 1)[0] for key in ms} for t, ms in p.switches.items()}
    lossless, other = [], []
    for v in sorted(set().union(*by_tier.values())) if p.feasible else []:
        missing = [s for s in LOSSLESS_SECTIONS if unverified(v, s)]
        if missing:
            lossless.append(f"{v}: {', '.join(missing)}")
        if any(v in by_tier[t] for t in p.breakout) and unverified(v, "breakout"):
            other.append(f"{v}: breakout")
    return lossless, other


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


def best(plans: list[Plan], pick: int | None = None) -> Plan | None:
    """The plan ``--write`` writes: plan ``pick`` of the ranking when asked (refused when it
    does not exist or is infeasible), else the first sourced feasible plan; None when there is
    none (the caller says so and writes nothing)."""
    if pick is not None:
        if not 1 <= pick <= len(plans):
            raise InputError(f"there are {len(plans)} plans (1-{len(plans)})", path="--pick")
        chosen = plans[pick - 1]
        if not chosen.feasible:
            raise InputError(f"plan {pick} is infeasible: {chosen.reason}", path="--pick")
        return chosen
    return next((p for p in plans if p.feasible and not p.unsourced), None)


PLAN_COLUMNS = (
    "#",
    "plan",
    "switches",
    "uplinks/leaf",
    "oversub",
    "GPUs/leaf",
    "spine loss",
    "cables",
    "optics",
    "cost / why not",
    "syntax",
    "why this rank",
)


def plan_row(p: Plan, number: int) -> tuple[str, ...]:
    """One plan as the cells of PLAN_COLUMNS (``number``: its place in the ranking)."""
    trust = "UNSOURCED " + "; ".join(p.unsourced) if p.unsourced else "sourced"
    if p.also_unsourced:
        trust += (" and " if p.unsourced else " except ") + "; ".join(p.also_unsourced)
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
        p.why,
    )


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
