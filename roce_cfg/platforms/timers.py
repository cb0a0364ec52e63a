"""Watchdog timers as vendors express them: a granularity times a small number of steps."""

from __future__ import annotations

from typing import Literal

from roce_cfg.grammar import Grammar, Param
from roce_cfg.platforms.profile import TimerSpec


def watchdog_steps(spec: TimerSpec, detect_ms: int, restore_ms: int) -> tuple[str, int, int, int]:
    """Finest granularity that expresses both times exactly within the vendor's step ranges.

    Returns ``(granularity name, granularity ms, detect steps, restore steps)``.

    >>> spec = TimerSpec(granularities_ms={"10": 10, "100": 100}, max_detect_steps=15,
    ...                  max_restore_steps=31)
    >>> watchdog_steps(spec, 200, 2000)
    ('100', 100, 2, 20)
    """
    for name, unit in sorted(spec.granularities_ms.items(), key=lambda kv: kv[1]):
        if detect_ms % unit or restore_ms % unit:
            continue
        detect, restore = detect_ms // unit, restore_ms // unit
        if 1 <= detect <= spec.max_detect_steps and restore <= spec.max_restore_steps:
            return name, unit, detect, restore
    options = ", ".join(
        f"{u} ms x 1-{spec.max_detect_steps}" for u in sorted(spec.granularities_ms.values())
    )
    raise ValueError(f"{detect_ms} ms / {restore_ms} ms cannot be expressed ({options})")


#: The restore time roce-cfg prefers where the intent gives none; each model gets the nearest
#: value it can express (Huawei CE8851-32CQ8DQ-P takes 10-1500 ms, so 1500 there).
PREFERRED_RESTORE_MS = 2000


def _ms_param(
    spec: TimerSpec, grammar: Grammar, model: str, which: Literal["detect", "restore"]
) -> Param | None:
    """The millisecond parameter of ``which`` time where ``model`` takes milliseconds."""
    name = spec.ms_commands.get(which)
    if name is None or not grammar.supports(name, model, named=True):
        return None
    for cmd in grammar.commands:
        if cmd.name == name:
            return cmd.params.get("ms")
    return None


def _shown(ranges: tuple[tuple[int, int], ...]) -> str:
    return "|".join(str(lo) if lo == hi else f"{lo}-{hi}" for lo, hi in ranges)


def _ranges(param: Param, src_model: str | None) -> tuple[tuple[int, int], ...]:
    allowed = param.allowed
    for models, rng in param.by_model:
        if src_model in models:
            allowed = rng
    return allowed


def watchdog_problem(
    spec: TimerSpec, grammar: Grammar, model: str, detect_ms: int, restore_ms: int
) -> tuple[str, str] | None:
    """``(field, reason)`` when ``model`` cannot take these times; None when it can."""
    src_model = grammar.source_model(model)
    detect = _ms_param(spec, grammar, model, "detect")
    restore = _ms_param(spec, grammar, model, "restore")
    if detect is not None and restore is not None:
        pairs = (("detect_ms", detect, detect_ms), ("restore_ms", restore, restore_ms))
        for field, param, value in pairs:
            if param.bad(str(value), src_model) is not None:
                return field, f"{value} ms: {model} takes {_shown(_ranges(param, src_model))} ms"
        return None
    try:
        watchdog_steps(spec, detect_ms, restore_ms)
    except ValueError as exc:
        alone = any(
            detect_ms % u == 0 and 1 <= detect_ms // u <= spec.max_detect_steps
            for u in spec.granularities_ms.values()
        )
        return ("restore_ms" if alone else "detect_ms"), f"{model}: {exc}"
    return None


def default_restore(spec: TimerSpec, grammar: Grammar, model: str, detect_ms: int) -> int:
    """The restore time nearest PREFERRED_RESTORE_MS that ``model`` takes with ``detect_ms``."""
    want = PREFERRED_RESTORE_MS
    restore = _ms_param(spec, grammar, model, "restore")
    if restore is not None:
        ranges = _ranges(restore, grammar.source_model(model)) or ((want, want),)
        candidates = [min(max(want, lo), hi) for lo, hi in ranges]
    else:
        candidates = [
            min(want // u, spec.max_restore_steps) * u for u in spec.granularities_ms.values()
        ]
    for value in sorted(candidates, key=lambda c: (abs(c - want), -c)):
        if watchdog_problem(spec, grammar, model, detect_ms, value) is None:
            return value
    return want
