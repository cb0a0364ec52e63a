"""The records of a template of the plain shape (parse/plain.py): its groups, each template line's
compiled regex with how its variables become values, and what a line is to a group.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

Result = dict[str, Any]
# What a line is to a group: a start, value or child line, or ttp must read the template: at
# once (a start line ttp reads otherwise), or if the group has started by then
START, LINE, CHILD, ASK, ASK_LATE = range(5)
NAME = re.compile(r"[A-Za-z_][\w-]*")
# How one variable's matched text becomes its value: (result key, to_int, set's value and
# the exact line it needs, or None, replaceall's (old, new) texts in order)
Value = tuple[str, bool, tuple[Any, str] | None, tuple[tuple[str, str], ...]]
Scalar = str | int | float | bool | None


@dataclass(frozen=True, eq=False)  # one per template line: known by identity
class Regex:
    regex: re.Pattern[str]
    start: bool
    values: dict[str, Value]  # per regex group name (ttp's variable name), in ttp's order
    owner: int  # 0: the top group; n: its n-th child
    kind: int  # START, LINE or CHILD
    name: str  # a child's list name
    prefix: str | None  # the text a match has after its newline; None: may read other lines
    need: str  # other text every match has (its longest), or ""
    # (index in match.groups(), value) per regex group, in ttp's order; None: no such groups,
    # or one that is no variable (an overlay's own named group)
    fields: tuple[tuple[int, Value], ...] | None


@dataclass(frozen=True)
class Group:
    key: str  # the top group's name (its path without the list mark)
    listed: bool
    starts: tuple[Regex, ...]
    lines: tuple[Regex, ...]
    children: tuple[str, ...]  # the list name of each child group (owner index - 1)
    child_regexes: tuple[Regex, ...]
    # values each result has unless a line gives them ('{{ table | set("x") }}' on its own)
    defaults: tuple[tuple[str, Scalar], ...]


# What one line is to one group: (kind, a child's list name, the match's result)
Outcome = tuple[int, str, Result]
# ttp must read the template: at once (on a start line), or once the group has started
ASKED: Outcome = (ASK, "", {})
ASKED_LATE: Outcome = (ASK_LATE, "", {})
