"""What a grammar is made of: commands, their undo forms, the lines left alone on
purpose, and what checking a config found."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from roce_cfg.grammar.syntax import Param, render_syntax

STATUSES = ("sourced", "partial", "unsourced")


@dataclass(frozen=True, eq=False)
class Undo:
    """A command's undo forms: the first is typed by remediation, all are accepted."""

    forms: tuple[str, ...]
    commands: tuple[Command, ...]  # each form as a command of its own ('<name> (undo)')
    status: str
    source: str = ""
    note: str = ""
    takes: tuple[str, ...] = ()  # other commands whose agreeing lines the undo removes too
    prefix: str | None = None  # a derived form: this negation word before the whole line

    def render(self, values: dict[str, str], line: str) -> str | None:
        if self.prefix is not None:
            return self.prefix + line
        return render_syntax(self.forms[0], values)


@dataclass(frozen=True, eq=False)
class Command:
    name: str
    views: tuple[str, ...]
    syntax: str
    regex: re.Pattern[str]
    params: dict[str, Param]
    first: tuple[str, ...]  # the words a line of this command can start with
    status: str
    source: str = ""
    note: str = ""
    models: tuple[str, ...] | None = None  # source's model names; None = every model it covers
    opens: str | None = None
    sets: str | None = None  # the current view becomes this (Huawei 'undo portswitch')
    exits: bool = False
    default: str | None = None
    section: str = ""
    bounds: str | None = None  # 'frame' (Ethernet frame length) or 'packet' (IP MTU)
    once: bool = False  # a view holds one such line: a second replaces the first
    # the line states what the switch does unconfigured (LLDP on): a restore types nothing for
    # it, and a switch that printed it is the same as one that did not
    restates_default: bool = False
    # the view opener (by name) whose settings this command returns to the defaults, the view
    # staying (RGOS 'default interface <port>')
    resets: str | None = None
    # why a line of a lossless section that no parse template reads changes nothing roce-cfg
    # judges ('peer X enable': the session is the 'peer X as-number' line's); without it such a
    # line is unread (parse/judge.py): the grammar knowing a command is not reading its values
    unmodelled: str = ""
    undo: Undo | None = None

    def negate(self, values: dict[str, str], line: str, negation: str) -> str | None:
        """The line that undoes ``line`` (this command with ``values``): the grammar's first
        undo form filled with the line's values; for a command whose own syntax takes the
        negation word ('[ undo ] shutdown'), the negated line. None: no undo form known."""
        if self.undo is not None:
            return self.undo.render(values, line)
        if self.regex.match(" " + " ".join((negation + line).split())):
            return negation + line
        return None

    def lives_in(self, view: str) -> bool:
        """Whether this command's lines are found in ``view``: typed there, or switched to it
        ('port link-mode route' sits in the Layer-3 view it makes)."""
        return view in self.views or view == self.sets

    def agrees(self, values: dict[str, str], line: str) -> bool:
        """Whether ``line`` is one of this command's lines with ``values`` for the parameters
        both name (an undo line's values pick the lines it removes)."""
        m = self.regex.match(" " + " ".join(line.split()))
        if m is None:
            return False
        have = {k: v.strip() for k, v in m.groupdict().items() if v is not None}
        return all(have.get(k) == v for k, v in values.items() if k in self.params)

    def sourced_for(self, model: str | None) -> bool:
        """Sourced, and the source covers ``model`` (its name in the source)."""
        if self.status != "sourced" or model is None:
            return False
        return self.models is None or model in self.models


@dataclass(frozen=True)
class Violation:
    line_no: int
    line: str
    view: str
    rule: str

    def __str__(self) -> str:
        return f"line {self.line_no} '{self.line.strip()}' (view {self.view}): {self.rule}"


@dataclass
class Checked:
    """What the checker found in one config: violations and the commands each section used."""

    violations: list[Violation] = field(default_factory=list)
    used: dict[str, set[str]] = field(default_factory=dict)  # section -> command names


@dataclass(frozen=True)
class Unmanaged:
    """A line roce-cfg leaves alone on purpose (AAA, SNMP, NTP ...): ``match`` is a regex from
    the start of the line (spaces collapsed); the lines under a match are unmanaged too."""

    match: str
    what: str
    source: str


@dataclass(frozen=True)
class Area:
    """The section a line no command reads belongs to (``match`` as in Unmanaged)."""

    match: str
    section: str
