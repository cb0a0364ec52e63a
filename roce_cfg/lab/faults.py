"""``roce-cfg lab --fault HOST:KIND[=VALUE]``: the emulators' faults from the command line, so
an operator rehearses a failed push without Python. Each kind is a field of
``lab.cli.Faults``; values are bounded, regexes compiled, and a bad spec is a one-line error."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable

from roce_cfg.errors import InputError
from roce_cfg.lab.cli import Switch
from roce_cfg.lab.display import World
from roce_cfg.model import numbers


def _regex(value: str) -> str:
    if not value or len(value) > 512:
        raise ValueError("a regex of 1-512 characters")
    try:
        re.compile(value)
    except re.error as exc:
        raise ValueError(f"not a regex ({exc})") from None
    return value


_COUNT = numbers.Domain("count", 0, 1_000_000)


def _count(value: str) -> int:
    # the codec: a 4,301-digit count or a superscript digit is refused, never converted
    try:
        return numbers.number(value.strip(), _COUNT)
    except numbers.NumberError:
        raise ValueError("a whole number 0-1000000") from None


def _seconds(value: str) -> float:
    try:
        seconds = float(value)
    except ValueError:
        raise ValueError("seconds, 0-600") from None
    if not 0 <= seconds <= 600:
        raise ValueError("seconds, 0-600")
    return seconds


# kind -> (Faults field, how its value is read; None: a flag without value)
KINDS: dict[str, tuple[str, Callable[[str], object] | None]] = {
    "reject": ("reject", _regex),  # matching lines get the vendor's error
    "drop-after": ("drop_after", _count),  # hang up after N configuration lines
    "drop-on": ("drop_on", _regex),  # hang up at a line (commit, save, a rollback command)
    "drops": ("drops", _count),  # drop-on hangs up this many times only (a reconnect works)
    "delay": ("delay_s", _seconds),  # before every answer
    "latency": ("latency_s", _seconds),  # every answer this much later, not holding up the next
    "hang-on": ("hang_on", _regex),  # matching lines are never answered
    "refuse-login": ("refuse_login", None),
    "save-error": ("save_error", None),
    "commit-error": ("commit_error", None),
    "not-applied": ("not_applied", _regex),  # accepted but not applied
}


# 'roce-cfg lab --fault HOST:KIND=PORT': the live faults of what 'display' shows (lab/display.py's
# DisplayFaults, for verify).
# cable-swapped takes two ports 'P1,P2'; link-speed 'PORT@GBPS'; the others one port.
DISPLAY_KINDS = (
    "cable-swapped",
    "link-down",
    "link-speed",
    "bgp-down",
    "pfc-off",
    "pfc-storm",
    "ecn-off",
    "lossless-drops",
    "watchdog-off",
)
_SETS = {
    "link-down": "down",
    "bgp-down": "bgp_down",
    "pfc-off": "pfc_off",
    "pfc-storm": "storm",
    "ecn-off": "ecn_off",
    "lossless-drops": "drops",
    "watchdog-off": "unarmed",
}


def inject_fault(switches: list[Switch], host: str, kind: str, value: str) -> str:
    """Set one live fault; the note 'roce-cfg lab' prints. ValueError says what is wrong."""
    sw = next((s for s in switches if s.hostname == host), None)
    world = sw.display if sw is not None else None
    if not isinstance(world, World):
        raise ValueError(f"no switch {host!r} in the intent")
    faults = world.fault(host)
    ports = {p for h, p in world.planned_speed if h == host}
    if kind == "cable-swapped":
        pair = tuple(p.strip() for p in value.split(","))
        if len(pair) != 2 or not set(pair) <= ports:
            raise ValueError("two planned ports 'P1,P2'")
        faults.swapped = (pair[0], pair[1])
    elif kind == "link-speed":
        port, _, gbps = value.partition("@")
        try:
            speed = numbers.number(gbps, numbers.SPEED)
        except numbers.NumberError:
            speed = None
        if port not in ports or speed is None:
            raise ValueError("'PORT@GBPS' with a planned port and 1-1600")
        faults.speed[port] = speed
    else:
        if value not in ports:
            raise ValueError(f"a planned port of {host}")
        getattr(faults, _SETS[kind]).add(value)
    return f"live fault on {host}: {kind} {value}"


def parse(spec: str) -> tuple[str, str, object]:
    """'leaf-1:reject=^peer .* enable' -> ('leaf-1', 'reject', '^peer .* enable')."""
    host, sep, rest = spec.partition(":")
    kind, has_value, value = rest.partition("=")
    kind = kind.strip().replace("_", "-")
    if not sep or not host or kind not in KINDS:
        raise InputError(
            f"--fault {spec[:80]!r}: expected HOST:KIND[=VALUE], KIND one of "
            f"{', '.join([*KINDS, *DISPLAY_KINDS])}"
        )
    name, read = KINDS[kind]
    if read is None:
        if has_value:
            raise InputError(f"--fault {spec[:80]!r}: {kind} takes no value")
        return host, name, True
    try:
        return host, name, read(value)
    except ValueError as exc:
        raise InputError(f"--fault {spec[:80]!r}: {kind} needs {exc}") from None


def _live(switches: list[Switch], spec: str) -> str | None:
    host, _, rest = spec.partition(":")
    kind, _, value = rest.partition("=")
    if kind.strip() not in DISPLAY_KINDS:
        return None
    try:
        return inject_fault(switches, host, kind.strip(), value.strip())
    except ValueError as exc:
        raise InputError(f"--fault {spec[:80]!r}: {kind.strip()} needs {exc}") from None


def inject(switches: list[Switch], specs: list[str]) -> list[str]:
    """Set each spec's fault on its switch; the lines 'roce-cfg lab' prints about them."""
    by_name = {sw.hostname: sw for sw in switches}
    notes = []
    for spec in specs:
        live = _live(switches, spec)  # what 'display' shows (lab/display.py), for verify
        if live is not None:
            notes.append(live)
            continue
        host, name, value = parse(spec)
        if host not in by_name:
            raise InputError(f"--fault {spec[:80]!r}: no switch {host!r} in the intent")
        sw = by_name[host]
        faults = dataclasses.replace(sw.faults)
        setattr(faults, name, value)  # the field and its type come from KINDS
        sw.faults = faults
        notes.append(f"fault on {host}: {name} = {value!r}")
    return notes
