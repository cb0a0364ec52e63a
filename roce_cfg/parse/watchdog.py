"""The PFC watchdog: its timers as printed (in milliseconds, or in steps of a granularity), its
recovery action, and where a release prints none, that release's documented default (the vendor
profile's ``parse.watchdog_defaults`` and version forms, each with its source). An unsourced
default is said in a note, never assumed silently.
"""

from __future__ import annotations

from typing import Literal

from roce_cfg.model import numbers
from roce_cfg.model.device import WatchdogCfg
from roce_cfg.parse.context import Context, Raw, as_list
from roce_cfg.parse.qos import PFC_KEYS


def read_watchdog(ctx: Context, raw: Raw) -> WatchdogCfg | None:
    entries = as_list(raw.get("watchdog_entries"))
    if entries:
        first = entries[0]
        return _timed(
            ctx,
            ctx.number(first["detect_ms"], numbers.MILLISECONDS, None, "@watchdog"),
            ctx.number(first["restore_ms"], numbers.MILLISECONDS, None, "@watchdog"),
            _action(ctx, [first]),
        )
    timer = as_list(raw.get("watchdog_timer"))
    if timer:  # milliseconds given directly (Huawei 'dcb pfc deadlock-detect timer')
        recovery = as_list(raw.get("watchdog_recovery_timer"))
        return _timed(
            ctx,
            ctx.number(timer[0]["detect_ms"], numbers.MILLISECONDS, None, "@watchdog"),
            ctx.number(recovery[0]["restore_ms"], numbers.MILLISECONDS, None, "@watchdog")
            if recovery
            else _version_ms(ctx, 1),
            _action(ctx, as_list(raw.get("watchdog_action"))),
        )
    return _stepped(ctx, raw)


def _stepped(ctx: Context, raw: Raw) -> WatchdogCfg | None:
    """A watchdog counted in steps of a granularity: separate detect/restore lines, or both on
    one line (VRP V200); with no timer line at all, the release's unprinted default."""
    both = as_list(raw.get("watchdog_both"))
    detect = as_list(raw.get("watchdog_detect")) or both
    restore = as_list(raw.get("watchdog_restore")) or [
        {"steps": b["back"]} for b in both if "back" in b
    ]
    gran = as_list(raw.get("watchdog"))
    if not detect:
        # a granularity alone times no detection: the watchdog watches no priority
        return None if gran else _unprinted(ctx, raw)
    unit = _granularity(ctx, str(gran[0].get("granularity", "")) if gran else "")
    action = _action(ctx, as_list(raw.get("watchdog_action")))
    if unit is None or action is None:
        return None
    steps = ctx.number(detect[0]["steps"], numbers.MILLISECONDS, None, "@watchdog")
    back = (
        ctx.number(restore[0]["steps"], numbers.MILLISECONDS, None, "@watchdog") if restore else 0
    )
    return _timed(
        ctx, None if steps is None else steps * unit, None if back is None else back * unit, action
    )


def _granularity(ctx: Context, word: str) -> int | None:
    """Milliseconds of a granularity word; none printed is the vendor's documented default;
    None (its line unread) for a word that is no granularity."""
    granularities = ctx.profile.watchdog_timer.granularities_ms
    if not word:
        word = ctx.profile.parse.watchdog_defaults.granularity or ""
        if word and ctx.version is not None and not ctx.version.granularity_sourced:
            ctx.notes.append(ctx.version.note or f"watchdog unit assumed {word} ms (unsourced)")
    if word in granularities:
        return granularities[word]
    if word.isascii() and word.isdigit() and len(word) < 7 and int(word) in granularities.values():
        return int(word)
    ctx.unreadable(f"unknown watchdog granularity '{word}'", word, "@watchdog")
    return None


def _action(ctx: Context, printed: list[Raw]) -> Literal["drop", "forward"] | None:
    """The printed recovery action, or the model's documented default when none is printed
    (VRP V300 and Comware leave the default out); unsourced defaults are said, never guessed
    silently. None (its line unread) for a word that is no action."""
    actions = ctx.profile.parse.watchdog_actions
    word = str(printed[0].get("action", "")) if printed else ""
    if word:
        if word not in actions:
            ctx.unreadable(f"unknown watchdog action '{word}'", word, "@watchdog")
            return None
        return actions[word]
    defaults = ctx.profile.parse.watchdog_defaults
    model = ctx.board or ctx.model_name
    action = defaults.default_action(model)
    ctx.action_printed = False
    if action is None:
        ctx.notes.append(
            f"cannot verify: the PFC watchdog's recovery action is not printed and no source "
            f"gives the default on {model}; 'forward' (the unsafe one) assumed"
        )
        return "forward"
    ctx.notes.append(
        f"watchdog recovery action not printed: {model} defaults to {action} ({defaults.source})"
    )
    return action


def _version_ms(ctx: Context, which: int) -> int:
    """The release's unprinted default detect (0) or restore (1) time; 0 when unsourced."""
    timers = ctx.version.watchdog_ms if ctx.version is not None else None
    return timers[which] if timers is not None else 0


def _unprinted(ctx: Context, raw: Raw) -> WatchdogCfg | None:
    """A PFC switch that prints no watchdog timer runs its release's default (VRP V300: 100 ms
    detect and restore), when a source gives one; otherwise there is no watchdog to read."""
    ports = as_list(raw.get("interfaces"))
    if (
        raw.get("pfc") is None
        and raw.get("pfc_profiles") is None
        and not any(p.get(k) for p in ports for k in PFC_KEYS)
    ):
        return None  # no PFC, no watchdog to speak of
    if ctx.version is None or ctx.version.watchdog_ms is None:
        if ctx.version is not None:
            ctx.notes.append(
                f"cannot verify: no PFC watchdog line, and the default of {ctx.version_text} "
                "(on or off, its timers) is not in a source"
            )
        return None
    detect, restore = ctx.version.watchdog_ms
    action = _action(ctx, as_list(raw.get("watchdog_action")))
    ctx.notes.append(
        f"no PFC watchdog timer printed: {ctx.version_text} defaults to {detect} ms detect, "
        f"{restore} ms restore ({ctx.version.source})"
    )
    return _timed(ctx, detect, restore, action)


def _timed(
    ctx: Context,
    detect: int | None,
    restore: int | None,
    action: Literal["drop", "forward"] | None,
) -> WatchdogCfg | None:
    """The watchdog, or None when a time or the action on its lines is unread (or a time past
    an hour in steps)."""
    for ms in (detect, restore):
        if ms is not None and ms not in numbers.MILLISECONDS:
            ctx.skip(numbers.OutOfDomain(str(ms), numbers.MILLISECONDS), "@watchdog")
            return None
    if detect is None or restore is None or action is None:
        return None
    return WatchdogCfg(
        detect_ms=detect, restore_ms=restore, action=action, action_printed=ctx.action_printed
    )
