"""Lossless settings read in a syntax no source confirms: the reading may be right, but it rests
on the vendor grammar's guess (status 'unsourced'), so one finding per switch says which lines
(the one policy for what roce-cfg has no sourced command for: a warning, listed once)."""

from __future__ import annotations

from collections.abc import Iterator

from roce_cfg.analysis.context import DeviceView
from roce_cfg.analysis.registry import Hit, rule
from roce_cfg.grammar import Grammar
from roce_cfg.grammar.commands import Command
from roce_cfg.model import numbers

# the sections of the lossless policy: PFC and its priorities, trust and maps, ECN, scheduling
POLICY = frozenset({"pfc", "qos_maps", "ecn", "scheduling", "buffers", "watchdog"})
SHOWN = 8  # line numbers named in the message (all in the detail)


@rule(
    "RC126",
    "lossless-syntax-unconfirmed",
    "warning",
    "device",
    summary="Cannot verify the lossless policy as read: its lines are in a syntax no public "
    "source confirms for this vendor.",
    rationale="roce-cfg reads these lines in the forms its grammar guesses (status 'unsourced' in "
    "vendors/<vendor>.grammar.yaml: no vendor document was found). The switch may mean "
    "something else by them, or print its settings otherwise: every conclusion drawn from them "
    "rests on that guess.",
    fix="Check the lines against the switch's own command reference; where it confirms them, "
    "record the source in an overlay grammar (docs/overlay.md).",
    reads=("pfc", "qos_maps"),
    verifies=False,
)
def lossless_syntax_unconfirmed(v: DeviceView) -> Iterator[Hit]:
    found = list(_unconfirmed(v.profile.grammar(), v.text))
    if not found:
        return
    lines = [n for n, _ in found]
    by_name: dict[str, list[int]] = {}
    for n, c in found:
        by_name.setdefault(c.name, []).append(n)
    shown = ", ".join(map(str, lines[:SHOWN])) + (
        f" and {len(lines) - SHOWN} more" if len(lines) > SHOWN else ""
    )
    yield Hit(
        f"cannot verify: {len(lines)} lossless line(s) read in a syntax no source confirms for "
        f"{v.device.vendor.value} ({', '.join(sorted(by_name))}; lines {shown})",
        line=lines[0],
        # one entry per command (confirming a command confirms every line of it): a big switch
        # repeats the same few commands on every port
        detail=tuple(_lines(name, at) for name, at in sorted(by_name.items())),
    )


def _lines(name: str, at: list[int]) -> str:
    spans = numbers.render(numbers.of(at), "-")
    more = f" and {len(spans) - SHOWN} more" if len(spans) > SHOWN else ""
    return f"{name}: {len(at)} line(s): {', '.join(spans[:SHOWN])}{more}"


# Per grammar (kept alive beside its answers, so its id is never reused): the command of each
# line text, the same few texts recurring on every port of every switch of a fabric.
_KNOWN: dict[int, tuple[Grammar, dict[str, Command | None]]] = {}


def _unconfirmed(grammar: Grammar, text: str) -> Iterator[tuple[int, Command]]:
    """(line, command) of each line a lossless-policy command of status 'unsourced' reads."""
    guessed = [c for c in grammar.commands if c.status == "unsourced" and c.section in POLICY]
    firsts = {w for c in guessed for w in c.first}
    if not firsts:
        return
    known = _KNOWN.setdefault(id(grammar), (grammar, {}))[1]
    for no, raw in enumerate(text.splitlines(), 1):
        words = raw.split()
        if not words or words[0] not in firsts:
            continue
        flat = " ".join(words)
        if flat not in known:
            known[flat] = _guessed(grammar, guessed, words[0], flat)
        command = known[flat]
        if command is not None:
            yield no, command


def _guessed(grammar: Grammar, guessed: list[Command], first: str, flat: str) -> Command | None:
    for c in guessed:
        if first in c.first and any(grammar.match(w, flat)[0] is c for w in c.views):
            return c
    return None
