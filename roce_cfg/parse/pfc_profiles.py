"""PFC profiles: the no-drop priorities a config states once, by name, and its ports apply.

A vendor may state PFC's priorities in profiles instead of per port: Huawei CloudEngine's
'dcb pfc' (the profile 'default') and 'dcb pfc <name>' with ' priority <p>' lines, applied per
port by 'dcb pfc enable [ <name> ] [ mode ... ]', and its antilocking PFC profiles ('abs-pfc
profile <name>', applied by 'abs-pfc enable <name>'), a PFC that paces the upstream sender with
timed pauses. The templates give each profile as an entry of ``pfc_profiles`` (``profile`` or
``antilocking``: its name; ``priorities``: its lines); a port names what it applies in
``pfc_profile`` / ``antilocking_pfc`` (docs/parse.md).

A port's no-drop priorities are those of the profiles it applies. A profile without priority
lines has the vendor's documented default (``parse.defaults.pfc_no_drop``; an antilocking
profile has none: "By default, antilocking PFC is not enabled for any priority queue" [HW-CR
priority(Antilocking PFC profile view)]). A port that names a profile the config does not define
cannot mean what it says (the switch refuses it: "The PFC profile must already exist" [HW-CR dcb
pfc enable]): its line is unread, as if absent, and the evidence gate keeps rules from concluding
there.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from roce_cfg.model import numbers
from roce_cfg.parse.reader import LineReader

# the name of the profile a bare 'dcb pfc' / 'dcb pfc enable' means
DEFAULT = "default"


@dataclass(frozen=True)
class Profiles:
    # the default profile's printed priorities (none printed: ())
    default: tuple[int, ...] = ()
    # named profiles -> their printed priorities; None: the profile prints none
    named: dict[str, tuple[int, ...] | None] = field(default_factory=dict)
    antilocking: dict[str, tuple[int, ...]] = field(default_factory=dict)
    printed: bool = False  # a profile block is in the config


def _as_list(value: Any) -> list[dict[str, Any]]:
    if isinstance(value, dict):
        return [value]
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


def read(ctx: LineReader, raw: dict[str, Any]) -> Profiles:
    """The config's PFC profiles; the ``pfc`` entries with ``no_drop`` (templates of the older
    shape, an overlay's) are the default profile's."""
    # switch-wide no-drop priorities in the older shape: of one line that lists them, or of one
    # line each (ZXROS 'dcb' / '  pfc priority 3 no-drop')
    legacy = _as_list(raw.get("pfc"))
    found: set[int] = set()
    for entry in legacy:
        found.update(ctx.values(entry.get("no_drop", ""), numbers.PRIORITY, "@pfc"))
    default = tuple(sorted(found))
    named: dict[str, tuple[int, ...] | None] = {}
    antilocking: dict[str, tuple[int, ...]] = {}
    entries = _as_list(raw.get("pfc_profiles"))
    for entry in entries:
        printed = _priorities(ctx, entry)
        if "antilocking" in entry:
            name = str(entry["antilocking"])
            antilocking[name] = _merged(antilocking.get(name), printed) or ()
        elif str(entry.get("profile", DEFAULT)) == DEFAULT:
            default = _merged(default, printed) or ()
        else:
            name = str(entry["profile"])
            named[name] = _merged(named.get(name), printed)
    return Profiles(default, named, antilocking, bool(legacy or entries))


def _merged(
    first: tuple[int, ...] | None, second: tuple[int, ...] | None
) -> tuple[int, ...] | None:
    """The priorities of a profile printed twice (None: neither prints a priority line)."""
    if first is None and second is None:
        return None
    return tuple(sorted({*(first or ()), *(second or ())}))


def _priorities(ctx: LineReader, entry: dict[str, Any]) -> tuple[int, ...] | None:
    """The priorities a profile's lines name, every line's (None: no priority line)."""
    lines = _as_list(entry.get("priorities"))
    if not lines:
        return None
    found: set[int] = set()
    for line in lines:
        found.update(ctx.values(line.get("values", ""), numbers.PRIORITY, "@pfc"))
    return tuple(sorted(found))


def applied(
    ctx: LineReader, profiles: Profiles, item: dict[str, Any], scope: str
) -> tuple[bool, tuple[int, ...]]:
    """(whether the port applies a PFC profile by name, the no-drop priorities it gives)."""
    on, found = False, set()
    default = tuple(ctx.profile.parse.defaults.pfc_no_drop)
    name = item.get("pfc_profile")
    if name is not None:
        name = str(name)
        if name == DEFAULT:
            on, found = True, {*(profiles.default or default)}
        elif name in profiles.named:
            on, found = True, {*(profiles.named[name] or default)}
        else:
            ctx.unreadable(f"PFC profile '{name}' is applied but not defined", name, scope)
    anti = item.get("antilocking_pfc")
    if anti is not None:
        anti = str(anti)
        if anti in profiles.antilocking:
            on = True
            found.update(profiles.antilocking[anti])
        else:
            reason = f"antilocking PFC profile '{anti}' is applied but not defined"
            ctx.unreadable(reason, anti, scope)
    return on, tuple(sorted(found))
