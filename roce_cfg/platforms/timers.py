"""Watchdog timers as vendors express them: a granularity times a small number of steps."""

from __future__ import annotations

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
