"""Staged settings in a remediation: a change to settings the switch locks once applied
(``apply_steps`` with ``locked``; Comware's data buffer) lifts the apply before the first edit
and types it again after the last, the one order the switch takes."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from roce_cfg.platforms.dialect import Dialect
from roce_cfg.platforms.steps import ApplyStep


@dataclass(frozen=True)
class Sides:
    """What the order depends on: the root lines of the running and the intended config, which
    lines open a view, how the CLI leaves one, the negation word."""

    running: list[str]
    intended: list[str]
    is_view: Callable[[str], bool]
    dialect: Dialect
    negation: str


def _top_level(commands: list[str], sides: Sides) -> list[int]:
    """Indexes of the commands typed at the root view (not inside a view they open)."""
    dialect, depth, out = sides.dialect, 0, []
    for i, raw in enumerate(commands):
        line = raw.strip()
        if line == dialect.view_exit:
            depth = max(depth - 1, 0)
        elif line in dialect.leave:
            depth = 0
        elif depth == 0 and sides.is_view(line):
            depth = 1
        elif depth > 0 and sides.is_view(line):
            depth += 1
        elif depth == 0:
            out.append(i)
    return out


def around_edits(commands: list[str], step: ApplyStep, sides: Sides) -> list[str]:
    """``commands`` with the staged edits of ``step`` between its lift (when the running
    config is applied) and its apply (when the intended one is); the apply and lift lines
    remediation typed on its own are dropped, these take their place."""
    assert step.command is not None and step.lift is not None  # a locked step has both
    neg = sides.negation
    edit, apply = re.compile(step.edits), re.compile(step.apply)

    def bare(line: str) -> str:
        line = line.strip()
        return line[len(neg) :] if line.startswith(neg) else line

    top = _top_level(commands, sides)
    own = {i for i in top if apply.match(bare(commands[i]))}
    kept = [c for i, c in enumerate(commands) if i not in own]
    edits = [i for i in _top_level(kept, sides) if edit.match(bare(kept[i]))]
    if not edits:
        return commands
    applied = any(apply.match(line) for line in sides.running)
    wanted = any(apply.match(line) for line in sides.intended)
    after = kept[edits[-1] + 1 :]
    return [
        *kept[: edits[0]],
        *([step.lift] if applied else []),
        *kept[edits[0] : edits[-1] + 1],
        *([step.command] if wanted else []),
        *after,
    ]
