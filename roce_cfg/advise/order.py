"""How plans are ordered, and the reason each one gives for its place.

The order is one list of measures, compared in turn (the first that differs decides):

1. trust: a plan whose lossless commands (LOSSLESS_SECTIONS) all have a public source ranks
   above every plan with an unsourced one, whatever either costs. Trust is a tier, not a weight:
   an unsourced PFC, ECN or scheduling line is a guess at the one thing a RoCE fabric needs
   right, and a wrong one shows as drops under the first incast, not at paste time. A margin
   (an unsourced plan first when it needs half the switches) still put one guessed 128-port
   box above ten sourced ones; any margin a tenfold saving does not clear is a tier in
   practice, and a tier is easier to predict. The unsourced plan stays listed, saying what it
   would save, and ``plan --write --pick N`` writes it when asked.
2. cost, when ``--prices`` prices the plan (an unpriced plan after every priced one);
3. fewest switches;
4. no unsourced breakout (``also_unsourced``: a cage broken out where the vendor's breakout
   command has no source, which generate warns about);
5. lowest spine loss (bandwidth one spine failure costs; a single switch has none);
6. fewest idle switch ports: the same fabric on less hardware (growth room is chosen with
   ``--leaf/--spine``, not guessed here).

Plans equal on all of these keep the catalogue's order (vendor, then model).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from roce_cfg.advise.layouts import Plan

#: The sections that make a fabric lossless: a plan whose vendor has any of them without a
#: source (vendors/*.yaml sections: unverified) is unsourced, and ranks after sourced plans.
LOSSLESS_SECTIONS = ("qos_maps", "scheduling", "pfc", "watchdog", "ecn")


def switch_count(p: Plan) -> int:
    return sum(n for tier in p.switches.values() for n in tier.values())


def idle_ports(p: Plan) -> int:
    """Ports (cages) no server or link uses, over every switch of the plan."""
    return sum(p.ports_free.get(t, 0) * sum(ms.values()) for t, ms in p.switches.items())


@dataclass(frozen=True)
class _Measure:
    value: Callable[[Plan], float | None]  # lower is better; None: does not apply
    first: Callable[[Plan], str]  # plan 1's phrase
    behind: Callable[[Plan, Plan], str]  # another plan's, against plan 1
    missing: float = 0.0  # sorts as this when it does not apply
    quiet: bool = False  # plan 1 leaves it unsaid when 0 and not what beat plan 2


def _spine_loss(p: Plan) -> float | None:
    return p.spine_loss_percent if p.uplinks_per_leaf else None


def _vendors(unsourced: list[str]) -> str:
    """``ruijie, zte`` from ``["ruijie: pfc, ecn", "zte: pfc"]``."""
    return ", ".join(u.split(":")[0] for u in unsourced)


_MEASURES = (
    _Measure(
        lambda p: float(bool(p.unsourced)),
        lambda p: "unsourced syntax, no sourced plan fits" if p.unsourced else "sourced syntax",
        lambda p, top: f"unsourced syntax ({_vendors(p.unsourced)}){_saves(p, top)}",
    ),
    _Measure(
        lambda p: p.cost,
        lambda p: f"cheapest ({p.cost:,.0f})",
        lambda p, top: (
            f"costs {(p.cost or 0) - (top.cost or 0):,.0f} more than plan 1"
            if p.cost is not None
            else "--prices does not price all of it"
        ),
        missing=math.inf,  # not priced: after every priced plan
    ),
    _Measure(
        lambda p: float(switch_count(p)),
        lambda p: f"fewest switches ({switch_count(p)})",
        lambda p, top: f"{_switches(switch_count(p) - switch_count(top), 'more')} than plan 1",
    ),
    # Breakout is not in the trust tier: one unsourced port-split command per cage shows at
    # paste time, and ranking it with PFC would buy switches to avoid it. Among plans of one
    # size it decides; the syntax column shows it on every plan (generate will warn).
    _Measure(
        lambda p: float(bool(p.also_unsourced)),
        lambda p: (
            f"unsourced {'; '.join(p.also_unsourced)}"
            if p.also_unsourced
            else "no unsourced breakout"
        ),
        lambda p, top: f"unsourced {'; '.join(p.also_unsourced)} (plan 1 has none)",
        quiet=True,
    ),
    _Measure(
        _spine_loss,
        lambda p: f"lowest spine loss ({p.spine_loss_percent:g}%)",
        lambda p, top: (
            f"spine loss {p.spine_loss_percent:g}% (plan 1: {top.spine_loss_percent:g}%)"
        ),
    ),
    _Measure(
        lambda p: float(idle_ports(p)),
        lambda p: f"fewest idle ports ({idle_ports(p)})",
        lambda p, top: (
            f"{idle_ports(p) - idle_ports(top)} more idle port"
            + "s" * (idle_ports(p) - idle_ports(top) != 1)
            + " than plan 1"
        ),
    ),
)


def _values(p: Plan) -> tuple[float, ...]:
    """The measures as sort keys."""
    return tuple(m.missing if (v := m.value(p)) is None else v for m in _MEASURES)


def rank(p: Plan) -> tuple[int, tuple[float, ...], str]:
    """Sort key: feasible first; then the measures in turn; then the kind."""
    if not p.feasible:
        return (1, (), p.kind)
    return (0, _values(p), p.kind)


def explain(plans: list[Plan]) -> None:
    """Set each feasible plan's ``why``: plan 1's measures up to the one that puts it above
    plan 2; every other plan's first measure that puts it below plan 1 (an unsourced plan also
    says what it would save)."""
    feasible = [p for p in plans if p.feasible]
    if not feasible:
        return
    top = feasible[0]
    top.why = _why_first(top, feasible[1] if len(feasible) > 1 else None)
    for p in feasible[1:]:
        p.why = _why_behind(p, top)


def _why_first(top: Plan, runner_up: Plan | None) -> str:
    said: list[str] = [] if runner_up is not None else ["the only feasible plan"]
    mine = _values(top)
    theirs = _values(runner_up) if runner_up is not None else mine
    for m, v, w in zip(_MEASURES, mine, theirs, strict=True):
        decides = v != w
        if m.value(top) is not None and not (m.quiet and v == 0 and not decides):
            said.append(m.first(top))
        if decides:
            return "; ".join(said)
    if runner_up is not None:
        said.append("ties plan 2 on all of these")
    return "; ".join(said)


def _why_behind(p: Plan, top: Plan) -> str:
    for m, v, w in zip(_MEASURES, _values(p), _values(top), strict=True):
        if v != w:
            return m.behind(p, top)
    return "ties plan 1 on every measure"


def _saves(p: Plan, top: Plan) -> str:
    """What an unsourced plan would save against plan 1, if anything."""
    out = ""
    if p.cost is not None and top.cost is not None and p.cost < top.cost:
        out += f"; {top.cost - p.cost:,.0f} cheaper than plan 1"
    fewer = switch_count(top) - switch_count(p)
    if fewer > 0:
        out += f"; {_switches(fewer, 'fewer')} than plan 1"
    return out


def _switches(n: float, than: str) -> str:
    """``1 fewer switch``, ``9 fewer switches``."""
    return f"{n:.0f} {than} switch" + ("es" if n != 1 else "")
