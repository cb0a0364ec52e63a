"""Per-vendor CLI grammar (``vendors/<vendor>.grammar.yaml``) and the checker of rendered lines.

A grammar lists every command roce-cfg emits, reads or negates: the view it is typed in, its
syntax with typed parameters and ranges, the models that support it, the view it opens, its undo
form, its default and its source (or ``unsourced``). The checker walks a rendered config the way
the switch's CLI would — a block opener enters a view, a separator or a shallower line leaves it —
and refuses a line no command of its view accepts, a value out of range, or a command the model
is documented not to support.

Syntax notation (a subset of the vendors' own): literal words; ``<name:type>`` parameters with
``type`` one of ``int`` (``int 0-7``, ``int 10|100``), ``word``, ``text`` (rest of the line),
``ipv4``, ``mask``, ``vlans`` (a VLAN list such as ``101 to 104 200``); ``<name:type>+`` for one
or more; ``{ a | b }`` alternatives; ``[ ... ]`` optional parts.

Undo forms are written in the same notation, per command, from the source that documents them
(``undo``, ``undo_source``, ``undo_status``). The first form is the one remediation types; all of
them are what an emulator accepts. An undo form removes the command's lines whose values agree
with it (``undo queue 3`` every ``queue 3 ...`` threshold line, not ``queue 3 ecn``), and the
lines of the commands it names in ``undo_takes`` (Huawei's ``undo peer <ip>`` takes the peer's
description and its ``peer <ip> enable`` in the address family).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from functools import cache
from operator import itemgetter
from pathlib import Path
from typing import Any

from roce_cfg.errors import InputError
from roce_cfg.model import numbers
from roce_cfg.resources import vendors_dir
from roce_cfg.yamlsrc import load_yaml, read_text

STATUSES = ("sourced", "partial", "unsourced")

_TYPES = {
    "int": r"\d+",
    "word": r"\S+",
    "text": r".+",
    "ipv4": r"\d{1,3}(?:\.\d{1,3}){3}",
    "mask": r"\d{1,3}(?:\.\d{1,3}){3}",
    "vlans": r"\d+(?: to \d+)?(?: \d+(?: to \d+)?)*",
}
_TOKEN = re.compile(r"<[^>]+>\+?|[{}\[\]|]|[^\s{}\[\]|<]+")


class GrammarError(InputError):
    """A grammar file that cannot be read as one."""


@dataclass(frozen=True)
class Param:
    name: str
    kind: str
    allowed: tuple[tuple[int, int], ...] = ()  # inclusive ranges; empty = any
    many: bool = False
    by_model: tuple[tuple[tuple[str, ...], tuple[tuple[int, int], ...]], ...] = ()

    def bad(self, raw: str, model: str | None = None) -> str | None:
        """Why ``raw`` is not a value of this parameter (None when it is)."""
        allowed = self.allowed
        for models, rng in self.by_model:
            if model in models:
                allowed = rng
        if not allowed or self.kind not in ("int", "vlans"):
            return None
        envelope = _envelope(self.name, allowed)
        for token in raw.split():
            if token == "to":
                continue
            try:  # bounded by length first: a 4,301-digit token is out of range, not a crash
                n = numbers.number(token, envelope)
            except numbers.OutOfDomain as exc:
                return f"{self.name} {exc.shown} out of range {_show(allowed)}"
            if not any(lo <= n <= hi for lo, hi in allowed):
                return f"{self.name} {n} out of range {_show(allowed)}"
        return None


@cache
def _envelope(name: str, allowed: tuple[tuple[int, int], ...]) -> numbers.Domain:
    """The domain spanning ``allowed``: one per parameter and range, not one per value checked."""
    return numbers.Domain(name, min(lo for lo, _ in allowed), max(hi for _, hi in allowed))


def _show(allowed: tuple[tuple[int, int], ...]) -> str:
    return "|".join(str(lo) if lo == hi else f"{lo}-{hi}" for lo, hi in allowed)


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


@dataclass
class Grammar:
    vendor: str
    root: str
    separators: tuple[str, ...]
    ignore: tuple[re.Pattern[str], ...]
    models: dict[str, str | None]  # our model name -> the source's name (None: not covered)
    commands: list[Command]
    sources: dict[str, str]
    errors: dict[str, str] = field(default_factory=dict)  # rule kind -> the switch's error text
    unmanaged: tuple[Unmanaged, ...] = ()  # the known-unmanaged catalogue (parse/accounting.py)
    areas: tuple[Area, ...] = ()
    _index: dict[tuple[str, str], list[Command]] = field(default_factory=dict)
    _undo_index: dict[tuple[str, str], list[Command]] = field(default_factory=dict)
    _undone: dict[int, Command] = field(default_factory=dict)  # id(undo command) -> command
    _memo: dict[str, dict[tuple[str, str], tuple[Command | None, str | None]]] = field(
        default_factory=dict
    )
    # model -> (view, line shape) -> what every line of that shape is (see ``_Shape``)
    _shapes: dict[str, dict[tuple[str, bytes], _Shape]] = field(default_factory=dict)
    _blind: frozenset[Command] = frozenset()
    # model -> block shape -> an accepted block of that shape (see ``_Block``)
    _blocks: dict[str, dict[bytes, _Block | None]] = field(default_factory=dict)
    _block_chars: dict[str, int] = field(default_factory=dict)  # model -> of _blocks' shapes
    _blocks_blind: bool = False
    _ignore: re.Pattern[str] | None = None
    _by_view: dict[str, list[Command]] = field(default_factory=dict)
    _ranged: frozenset[str] | None = None
    # first word -> a digit-blind superset of each command or undo form starting with it that
    # tells one digit from another (``shape_safe``)
    _general: dict[str, list[re.Pattern[str]]] | None = None

    def __post_init__(self) -> None:
        if self.ignore:
            self._ignore = re.compile("|".join(f"(?:{p.pattern})" for p in self.ignore))
        self._blind = frozenset(c for c in self.commands if _digit_blind(c))
        # Blocks are answered by shape only if skipping a line (ignored, a separator) cannot
        # depend on its digits either.
        self._blocks_blind = not any(
            ch in _ASCII_DIGITS for text in self.separators for ch in text
        ) and all(pattern_blind(p.pattern) for p in self.ignore)
        for c in self.commands:
            for v in c.views:
                self._by_view.setdefault(v, []).append(c)
                for first in c.first:
                    self._index.setdefault((v, first), []).append(c)
            for u in c.undo.commands if c.undo is not None else ():
                self._undone[id(u)] = c
                for v in u.views:
                    for first in u.first:
                        self._undo_index.setdefault((v, first), []).append(u)

    def ranged_words(self) -> frozenset[str]:
        """The first words of commands with a parameter the grammar gives a range."""
        if self._ranged is None:
            self._ranged = frozenset(
                word
                for c in self.commands
                if any(p.allowed or p.by_model for p in c.params.values())
                for word in c.first
            )
        return self._ranged

    def shape_safe(self, flat: str) -> bool:
        """Whether every line of ``flat``'s shape (its digits changed) is the same command as
        ``flat`` in every view, undo forms included: its first word has no digit, and no command
        that tells one digit from another matches a line of that shape (its digit-blind superset
        does not match ``flat``)."""
        words = flat.split()
        if not words or any(ch in _ASCII_DIGITS for ch in words[0]):
            return False
        if self._general is None:
            self._general = {}
            undos = [u for c in self.commands if c.undo is not None for u in c.undo.commands]
            for c in [*self.commands, *undos]:
                if not _digit_blind(c):
                    for first in c.first:
                        self._general.setdefault(first, []).append(_digit_general(c))
        line = " " + " ".join(words)
        return not any(g.match(line) for g in self._general.get(words[0], ()))

    def source_model(self, model: str) -> str | None:
        return self.models.get(model)

    def candidates(self, view: str, line: str, undo: bool = False) -> list[Command]:
        first = line.split(maxsplit=1)[0] if line.strip() else ""
        return (self._undo_index if undo else self._index).get((view, first), [])

    def match(
        self, view: str, line: str, undo: bool = False
    ) -> tuple[Command | None, dict[str, str]]:
        """The command (or, with ``undo``, the undo form) a line of ``view`` is, and its values."""
        text = " " + " ".join(line.split())
        for c in self.candidates(view, line, undo):
            m = c.regex.match(text)
            if m:
                return c, {k: v.strip() for k, v in m.groupdict().items() if v is not None}
        return None, {}

    def supports(self, name: str, model: str, named: bool = False) -> bool:
        """Whether command ``name`` exists and its source does not rule ``model`` out (a model
        the source does not name is not ruled out, unless ``named``: then the source must name
        the model as supporting it)."""
        src_model = self.models.get(model)
        for c in self.commands:
            if c.name == name:
                if src_model is None:
                    return not named
                return c.models is None or src_model in c.models
        return False

    def coverage(self) -> dict[str, int]:
        counts = dict.fromkeys(STATUSES, 0)
        for c in self.commands:
            counts[c.status] += 1
        return counts

    def undo_coverage(self) -> dict[str, int]:
        """How many commands have a sourced, partial or unsourced undo form, and how many
        none ('none': the command's own syntax takes the negation word, or it is never
        negated)."""
        counts = dict.fromkeys((*STATUSES, "none"), 0)
        for c in self.commands:
            counts[c.undo.status if c.undo is not None else "none"] += 1
        return counts

    def bounding(self, kind: str) -> list[Command]:
        """The commands whose value bounds ``kind``: 'frame' (the Ethernet frame, such as
        'jumboframe enable') or 'packet' (the IP packet, 'mtu')."""
        return [c for c in self.commands if c.bounds == kind]

    def defaults(self) -> dict[str, str]:
        """Command name -> the value a running-config omits (what the switch does unconfigured)."""
        return {c.name: c.default for c in self.commands if c.default is not None}

    def check(self, text: str, model: str) -> Checked:
        """Every line of ``text`` against this grammar, for ``model`` (our model name).

        The text is checked block by block (a line at the left margin and the lines under it):
        a block shaped like one already accepted (the same text but for its digits) with the
        same values in its ranged parameters is accepted without a second pass (``_Block``).
        """
        walk = _Walk(self, model)
        if not self._blocks_blind or _ODD_BREAKS.search(text):
            walk.lines(text.splitlines())  # '\r' and such end lines too: no block split
        else:
            for block in _BLOCK_START.split(text):
                walk.block(block)
        return walk.done()

    def check_lines(self, lines: Iterable[str], model: str) -> Checked:
        """``check`` over lines already split (a violation's ``line_no`` counts them from 1)."""
        walk = _Walk(self, model)
        walk.lines(lines)
        return walk.done()

    def check_blocks(self, blocks: Iterable[str], model: str) -> Checked:
        """``check_lines`` over the lines of ``blocks`` (each a top-level block's lines joined
        by '\\n', its first line at the left margin), with ``check``'s replay of blocks shaped
        like one already accepted: the parse checks every config it reads, a thousand
        near-identical port blocks each."""
        walk = _Walk(self, model)
        for text in blocks:
            if self._blocks_blind and len(text) <= REPLAY_CHARS:
                if len(walk.blocks) > REPLAY_BLOCKS:
                    walk.forget_blocks()
                walk.block(text)
            else:
                walk.lines(text.split("\n"))
        return walk.done()

    def _lookup(
        self,
        view: str,
        raw: str,
        popped: str | None,
        model: str,
        cache: dict[tuple[str, str], tuple[Command | None, str | None]],
        shapes: dict[tuple[str, bytes], _Shape],
    ) -> tuple[Command | None, str | None]:
        """A line the per-line cache has not seen: answered from its shape when a line of the
        same shape was accepted (only its ranged values are checked), else in full."""
        src_model = self.models.get(model)
        shape = (view, raw.encode().translate(_ZEROS))
        known = shapes.get(shape)
        if known is not None:
            return known.answer(raw, src_model)
        hit = self._one(view, raw, src_model, model in self.models)
        if hit[0] is None and popped is not None:
            # an exit command ('exit-address-family') sits at its view's own indent
            again = self._one(popped, raw, src_model, model in self.models)
            if again[0] is not None and again[0].exits:
                hit = again
        elif hit[0] is not None and self._same_for_shape(view, raw, hit[0]):
            learnt = _Shape.of(hit[0], raw)
            if learnt is not None:
                shapes[shape] = learnt
        cache[(view, raw)] = hit
        return hit

    def _same_for_shape(self, view: str, raw: str, cmd: Command) -> bool:
        """Whether every line of ``raw``'s shape (its digits changed) in ``view`` is ``cmd``
        too: its first word has no digit (so the candidates are the same) and neither ``cmd``
        nor any candidate tried before it tells one digit from another."""
        first = raw.split(maxsplit=1)[0]
        if any(ch in _ASCII_DIGITS for ch in first):
            return False
        for c in self.candidates(view, raw):
            if c not in self._blind:
                return False
            if c is cmd:
                return True
        return False

    def judge(
        self, view: str, line: str, model: str, negation: str
    ) -> tuple[Command | None, str | None]:
        """One typed line in ``view``: the command it is, or why the switch refuses it. A
        negated line is the command's undo form when its positive form is accepted there."""
        src_model = self.models.get(model)
        known = model in self.models
        cmd, rule = self._one(view, line, src_model, known)
        if cmd is None and line.startswith(negation):
            return self._negated(view, line, negation, src_model, known)
        return cmd, rule

    def _negated(
        self, view: str, line: str, negation: str, src_model: str | None, known: bool
    ) -> tuple[Command | None, str | None]:
        """A negated line that no command's own syntax takes: one of the view's undo forms
        (returned as the undo form's command), or why not."""
        undo, rule = self._one(view, line, src_model, known, undo=True)
        if undo is not None or (rule or "").startswith("out of range"):
            return undo, rule
        positive, _ = self.match(view, line[len(negation) :])
        if positive is None:
            return self._one(view, line[len(negation) :], src_model, known)
        forms = " | ".join(positive.undo.forms) if positive.undo else "none"
        return None, f"wrong parameter: not an undo form of '{positive.name}' (undo: {forms})"

    def undone(self, undo: Command) -> Command | None:
        """The command an undo form (as returned by ``judge``) belongs to."""
        return self._undone.get(id(undo))

    def removes(
        self, view: str, line: str, negation: str
    ) -> list[tuple[Command, dict[str, str]]] | None:
        """What an undo line typed in ``view`` removes: (command, values) pairs whose agreeing
        lines go, in this view and the views below it. None when the line is no undo form
        (or is a command in its own right, such as Huawei's 'undo portswitch')."""
        if self.match(view, line)[0] is not None or not line.startswith(negation):
            return None
        undo, values = self.match(view, line, undo=True)
        cmd = self.undone(undo) if undo is not None else None
        if cmd is None or cmd.undo is None:
            return None
        by_name = {c.name: c for c in self.commands}
        taken = [by_name[n] for n in cmd.undo.takes]
        # Two printed forms of one setting share an undo (Huawei 'color green' in percent or
        # bytes): the undo removes the setting whichever form the switch holds.
        twins = [
            c
            for c in self.commands
            if c is not cmd and c.undo is not None and c.undo.forms == cmd.undo.forms
            if c.lives_in(view)
        ]
        return [(c, values) for c in (cmd, *taken, *twins)]

    def view_of(self, path: tuple[str, ...], lines: list[str]) -> str:
        """The view reached by typing the openers of ``path`` from the root, switched by any of
        ``lines`` (the view's own lines) that switch it."""
        view = self.root
        for opener in path:
            cmd, _ = self.match(view, opener)
            if cmd is None or not cmd.opens:
                return view
            view = cmd.opens
        for line in lines:
            cmd, _ = self.match(view, line)
            if cmd is not None and cmd.sets:
                view = cmd.sets
        return view

    def undo_for(self, view: str, line: str, negation: str) -> str | None:
        """The line that undoes ``line`` of ``view``, from the grammar's undo form (None: the
        grammar knows no undo form for it)."""
        cmd, values = self.match(view, line)
        if cmd is None:  # a line that made this view ('port link-mode route', Layer 3)
            cmd, values = self._setter(view, line)
        return cmd.negate(values, line, negation) if cmd is not None else None

    def _setter(self, view: str, line: str) -> tuple[Command | None, dict[str, str]]:
        """The command that switched the current view to ``view``, if ``line`` is one."""
        for c in self.commands:
            for typed_in in c.views if c.sets == view else ():
                cmd, values = self.match(typed_in, line)
                if cmd is c:
                    return cmd, values
        return None, {}

    def check_session(
        self, commands: list[str], model: str, exit_word: str, negation: str
    ) -> list[Violation]:
        """Commands typed one by one (a push): views change only by a command that opens one
        and by ``exit_word``, never by indentation; a negated line must be one of the undo
        forms of its view (or a command whose own syntax takes the negation word)."""
        return [v for v, _ in self._session(commands, model, exit_word, negation) if v]

    def unsourced_undos(
        self, commands: list[str], model: str, exit_word: str, negation: str
    ) -> list[str]:
        """The negations among ``commands`` no source documents: an undo form graded unsourced
        ('<command>: <line>'), or the negation word before a line whose command has no undo
        form at all, remediation's last resort ('<command> (no undo form): <line>')."""
        out = []
        for line, (why, c) in zip(
            commands, self._session(commands, model, exit_word, negation), strict=True
        ):
            body = line.strip()
            if c is not None and id(c) in self._undone and c.status == "unsourced":
                out.append(c.name.removesuffix(" (undo)") + ": " + body)
            elif why is not None and body.startswith(negation):
                # the session may not know the view the switch is in (a port made Layer 3
                # before the push): judge the line by the command it negates, in any view
                positive = self._anywhere(why.view, body[len(negation) :])
                undo = positive.undo if positive is not None else None
                if positive is not None and (undo is None or undo.status == "unsourced"):
                    gap = " (no undo form)" if undo is None else ""
                    out.append(f"{positive.name}{gap}: {body}")
        return out

    def _anywhere(self, view: str, line: str) -> Command | None:
        """The command ``line`` is in ``view``, else in the first other view that takes it."""
        views = [view, *sorted({v for c in self.commands for v in c.views} - {view})]
        return next((c for v in views if (c := self.match(v, line)[0]) is not None), None)

    def _session(
        self, commands: list[str], model: str, exit_word: str, negation: str
    ) -> list[tuple[Violation | None, Command | None]]:
        """Per command: why it is refused, or the command (or undo form) it is."""
        src_model = self.models.get(model)
        known = model in self.models
        stack: list[str] = []
        out: list[tuple[Violation | None, Command | None]] = []
        for no, line in enumerate(commands, 1):
            body = line.strip()
            if body == exit_word:
                if stack:
                    stack.pop()
                out.append((None, None))
                continue
            view = stack[-1] if stack else self.root
            cmd, rule = self._one(view, body, src_model, known)
            if cmd is None and body.startswith(negation):
                cmd, rule = self._negated(view, body, negation, src_model, known)
            if rule is not None or cmd is None:
                out.append((Violation(no, line, view, rule or "unknown command"), None))
                continue
            out.append((None, cmd))
            if cmd.opens:
                stack.append(cmd.opens)
            elif cmd.sets and stack:
                stack[-1] = cmd.sets
        return out

    def _one(
        self, view: str, raw: str, src_model: str | None, known_model: bool, undo: bool = False
    ) -> tuple[Command | None, str | None]:
        cmd, values = self.match(view, raw, undo)
        if cmd is None and undo:
            return None, "unknown command: no undo form accepts it"
        if cmd is None:
            views = {v for c in self.commands for v in c.views}
            elsewhere = sorted(v for v in views if self.match(v, raw)[0])
            if elsewhere:
                return None, f"wrong view: accepted only in {', '.join(elsewhere)}"
            near = self.candidates(view, raw)
            if near:
                return None, f"wrong parameter: no syntax of '{near[0].name}' accepts it"
            return None, "unknown command: no grammar entry accepts it"
        for name, value in values.items():
            param = cmd.params.get(name)
            why = param.bad(value, src_model) if param else None
            if why:
                return None, f"out of range: {why} ({cmd.name})"
        limited = cmd.models is not None and known_model and src_model is not None
        if limited and src_model not in (cmd.models or ()):
            return None, f"unsupported on model {src_model}: {cmd.name} ({cmd.source})"
        return cmd, None


# What the parse keeps of the blocks it replays (``check_blocks``): a fabric's port block is a
# few hundred characters, its BGP block of hundreds of peers tens of thousands, and its configs
# repeat a few dozen shapes; a hostile file's unique or huge blocks (up to 16 MiB) are walked
# line by line instead of held for the process's life. REPLAY_BUDGET: the characters of all
# the block shapes kept per model, at most.
REPLAY_CHARS = 65_536
REPLAY_BLOCKS = 2_000
REPLAY_BUDGET = 8 << 20
_ASCII_DIGITS = "0123456789"
# A line's shape: its UTF-8 bytes with every ASCII digit made '0' (bytes.translate: a tenth of
# the cost of str.translate). Two lines share a shape when they differ only in which digits
# stand where digits stand, so a regex that treats all digits alike (``_digit_blind``) matches
# both or neither, with the same groups; only values compared against ranges can differ.
_ZEROS = bytes.maketrans(_ASCII_DIGITS.encode(), b"0" * 10)


def _digit_blind(cmd: Command) -> bool:
    """Whether ``cmd``'s regex treats every digit alike: no digit in a literal word (``speed
    40000``) nor in a parameter's own regex (the built-in types use ``\\d``, ``\\S`` and
    ``.``, and ``{1,3}`` counts characters; an own regex with no digit at all cannot tell one
    digit from another either)."""
    for tok in _TOKEN.findall(cmd.syntax):
        param = tok.startswith("<")
        text = _param(tok).kind if param else tok  # a literal 'ipv4' is a word, not the type
        if not (param and text in _TYPES) and any(ch in _ASCII_DIGITS for ch in text):
            return False
    return True


_CLASS = re.compile(r"\[(?:\\.|[^\]\\])*\]")


# a literal digit of a syntax while it is made a pattern that takes any digit there
_ANY_DIGIT = "\ue000"
_EVERYTHING = re.compile("")


def _digit_general(cmd: Command) -> re.Pattern[str]:
    """A digit-blind pattern matching every line ``cmd`` matches (each literal digit of its
    syntax taken as any digit; a parameter of its own regex with a digit, as anything)."""
    tokens = _TOKEN.findall(cmd.syntax)
    if any(
        t.startswith("<") and _param(t).kind not in _TYPES and any(d in t for d in _ASCII_DIGITS)
        for t in tokens
    ):
        return _EVERYTHING
    general = " ".join(t if t.startswith("<") else t.translate(_TO_ANY_DIGIT) for t in tokens)
    return re.compile(compile_syntax(general)[0].pattern.replace(_ANY_DIGIT, r"\d"))


_TO_ANY_DIGIT = str.maketrans(dict.fromkeys(_ASCII_DIGITS, _ANY_DIGIT))


def shape(text: str) -> bytes:
    """``text`` with every ASCII digit made '0' (see ``_ZEROS``): texts of one shape are told
    apart only by a pattern that tells one digit from another (``pattern_blind``)."""
    return text.encode().translate(_ZEROS)


def pattern_blind(pattern: str) -> bool:
    """Whether a regex treats every digit alike: no digit in it but in a character class that
    holds the whole range ``0-9`` and no other digit (ZTE's ``[a-z0-9-]``), nor a character
    named (``\\N{DIGIT FIVE}``)."""
    if "\\N{" in pattern:
        return False

    def without(m: re.Match[str]) -> str:
        return "" if not any(ch in _ASCII_DIGITS for ch in m[0].replace("0-9", "")) else "0"

    return not any(ch in _ASCII_DIGITS for ch in _CLASS.sub(without, pattern))


@dataclass
class _Shape:
    """What every line of one shape is: ``cmd``, with the ranged parameters' values at
    ``spans`` of the normalised line (name, start, end: the same for every line of the shape),
    and the answer per tuple of those values seen so far."""

    cmd: Command
    spans: tuple[tuple[str, int, int], ...]
    answers: dict[tuple[str, ...], tuple[Command | None, str | None]] = field(default_factory=dict)

    @classmethod
    def of(cls, cmd: Command, raw: str) -> _Shape | None:
        m = cmd.regex.match(" " + " ".join(raw.split()))
        if m is None:
            return None
        ranged = [
            (name, *m.span(name))
            for name in cmd.regex.groupindex
            if m.group(name) is not None and name in cmd.params
            if cmd.params[name].kind in ("int", "vlans")
            if cmd.params[name].allowed or cmd.params[name].by_model
        ]
        return cls(cmd, tuple(ranged))

    def answer(self, raw: str, src_model: str | None) -> tuple[Command | None, str | None]:
        """``raw``'s answer: its ranged values checked as ``Grammar._one`` checks them."""
        if not self.spans:
            return self.cmd, None
        line = " " + " ".join(raw.split())
        values = tuple(line[a:b].strip() for _, a, b in self.spans)
        found = self.answers.get(values)
        if found is None:
            found = (self.cmd, None)
            for (name, _, _), value in zip(self.spans, values, strict=True):
                why = self.cmd.params[name].bad(value, src_model)
                if why:
                    found = (None, f"out of range: {why} ({self.cmd.name})")
                    break
            if len(self.answers) > 10_000:
                self.answers.clear()
            self.answers[values] = found
        return found


# A block starts at every line that begins at the left margin (see ``Grammar.check``); other
# line ends than '\n' would number lines differently from ``str.splitlines``.
_BLOCK_START = re.compile(r"\n(?=\S)")
_ODD_BREAKS = re.compile("[\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")
_WORD = re.compile(r"\S+")


class _Walk:
    """The checker's walk through one config: the CLI's view stack and what it found."""

    def __init__(self, grammar: Grammar, model: str) -> None:
        self.grammar = grammar
        self.model = model
        self.out = Checked()
        # (indent of the opener, view it opened, the once-per-view commands seen in it)
        self.stack: list[tuple[int, str, set[str]]] = []
        self.top: set[str] = set()
        self.used: set[Command] = set()
        self.no = 0  # lines walked so far
        # Lines repeat across ports and switches: one answer per (model, view, line), kept
        # between calls (generate checks every switch of a fabric with one grammar).
        self.cache = grammar._memo.setdefault(model, {})
        if len(self.cache) > 500_000:  # parse checks every line of every config it reads
            self.cache.clear()
        # Lines that differ only in their numbers (addresses, port names, ASNs) are answered by
        # their shape: one full check per shape, then only the ranged values (``_lookup``).
        self.shapes = grammar._shapes.setdefault(model, {})
        self.blocks = grammar._blocks.setdefault(model, {})
        if len(self.shapes) > 100_000:
            self.shapes.clear()
        if len(self.blocks) > 100_000:
            self.forget_blocks()

    def forget_blocks(self) -> None:
        self.blocks.clear()
        self.grammar._block_chars[self.model] = 0

    def lines(self, lines: Iterable[str]) -> list[tuple[int, str, str, Command]]:
        """Walk ``lines``; the accepted ones as (index in ``lines``, view, line, command)."""
        g, stack, top, used, cache = self.grammar, self.stack, self.top, self.used, self.cache
        ignore, separators, root = g._ignore, g.separators, g.root
        violations = self.out.violations
        seen: list[tuple[int, str, str, Command]] = []
        first = self.no + 1
        for no, raw in enumerate(lines, first):
            self.no = no
            left = raw.lstrip(" ")
            if not left or left.isspace() or (ignore is not None and ignore.match(raw)):
                continue
            indent = len(raw) - len(left)
            popped: str | None = None
            while stack and stack[-1][0] >= indent:
                popped = stack.pop()[1]
            if left.rstrip() in separators:
                continue
            view, once = (stack[-1][1], stack[-1][2]) if stack else (root, top)
            hit = cache.get((view, raw))
            if hit is None:
                hit = g._lookup(view, raw, popped, self.model, cache, self.shapes)
            cmd, rule = hit
            if rule is not None:
                violations.append(Violation(no, raw, view, rule))
                continue
            assert cmd is not None
            if cmd.once and cmd.name in once:
                why = f"repeated: a view holds one '{cmd.name}' (a second replaces the first)"
                violations.append(Violation(no, raw, view, why))
                continue
            if cmd.once:
                once.add(cmd.name)
            used.add(cmd)
            seen.append((no - first, view, raw, cmd))
            if cmd.opens:
                stack.append((indent, cmd.opens, set()))
            elif cmd.sets and stack:
                stack[-1] = (stack[-1][0], cmd.sets, stack[-1][2])
        return seen

    def block(self, text: str) -> None:
        """One block: replayed when a block of its shape and values was accepted, else walked
        line by line (and learnt when every line of it can be answered by shape)."""
        shape = text.encode().translate(_ZEROS)
        met = shape in self.blocks  # with None: a shape known not to replay
        learnt = self.blocks.get(shape)
        if learnt is not None and learnt.replay(self, text):
            return
        before = len(self.out.violations)
        lines = text.split("\n")
        seen = self.lines(lines)
        if len(self.out.violations) > before:
            return
        if not met:
            held = self.grammar._block_chars.get(self.model, 0) + len(shape)
            if held > REPLAY_BUDGET:
                self.forget_blocks()
                held = len(shape)
            self.grammar._block_chars[self.model] = held
            self.blocks[shape] = _Block.learn(self, text, lines, seen)
        elif learnt is not None:
            learnt.accept(text)

    def done(self) -> Checked:
        for cmd in self.used:
            self.out.used.setdefault(cmd.section, set()).add(cmd.name)
        return self.out


@dataclass
class _Block:
    """An accepted block, as the walk left it: what it used, the once-per-view commands it
    typed at the root, the view stack after it, the spans of its ranged values in the block's
    text, and the value tuples accepted with this shape. A block of the same shape (the same
    text but for its digits) starts from the same state, since its first line at the left
    margin closes every open view, and every line of it is a command answered by shape: each
    line is the same command in the same view, so only the ranged values can change the
    answer."""

    used: frozenset[Command]
    root_once: frozenset[str]
    stack: tuple[tuple[int, str, frozenset[str]], ...]
    lines: int
    spans: tuple[tuple[int, int], ...]
    # per span: the parameter its value is checked by (a value answered by shape), or None (a
    # line answered by its own text: replayed only where a block of this shape had that text)
    params: tuple[Param | None, ...] = ()
    # per span: the values accepted there (each line's answer is its own values' alone)
    accepted: tuple[set[str], ...] = ()

    def __post_init__(self) -> None:
        # the ranged values of a text of this shape, by one C call
        slices = [slice(a, b) for a, b in self.spans] + [slice(0, 0)] * (2 - len(self.spans))
        self.values = itemgetter(*slices)

    @classmethod
    def learn(
        cls, walk: _Walk, text: str, lines: list[str], seen: list[tuple[int, str, str, Command]]
    ) -> _Block | None:
        """The block just walked without a violation, or None when it cannot be replayed: its
        first line is neither a command at the root nor a separator (either closes every open
        view), or a line is neither answered by its shape nor by its own text in its view.
        A line answered by its text (a command with a digit in a word, 'address-family ipv4')
        is replayed only where a block of this shape has that very text: its whole line is
        one of the block's values."""
        g = walk.grammar
        opened = bool(seen) and seen[0][0] == 0 and seen[0][1] == g.root
        if not text or text[0].isspace() or not (opened or lines[0].rstrip() in g.separators):
            return None
        offsets = [0]
        for line in lines:
            offsets.append(offsets[-1] + len(line) + 1)
        spans: list[tuple[int, int]] = []
        params: list[Param | None] = []
        for n, (index, view, raw, cmd) in enumerate(seen):
            known = walk.shapes.get((view, raw.encode().translate(_ZEROS)))
            if known is not None and known.cmd is cmd:
                line = " " + " ".join(raw.split())
                for name, a, b in known.spans:
                    for ra, rb in _raw_spans(raw, ((name, a, b),)):
                        spans.append((offsets[index] + ra, offsets[index] + rb))
                        # checked as _Shape.answer checks it: the same words
                        same = raw[ra:rb].split() == line[a:b].split()
                        params.append(cmd.params[name] if same else None)
            elif n > 0 and (cmd.exits or g.match(view, raw)[0] is cmd):
                # its own answer, whatever came before (an exit command: in the view the line
                # closed, the same one where the block has the same shape)
                spans.append((offsets[index], offsets[index] + len(raw)))
                params.append(None)
            else:
                return None
        root = walk.grammar.root
        learnt = cls(
            used=frozenset(cmd for _, _, _, cmd in seen),
            root_once=frozenset(c.name for _, v, _, c in seen if c.once and v == root),
            stack=tuple((i, v, frozenset(o)) for i, v, o in walk.stack),
            lines=len(lines),
            spans=tuple(spans),
            params=tuple(params),
            accepted=tuple(set() for _ in spans),
        )
        learnt.accept(text)
        return learnt

    def accept(self, text: str) -> None:
        for seen, value in zip(self.accepted, self.values(text), strict=False):
            _keep(seen, value)

    def replay(self, walk: _Walk, text: str) -> bool:
        """Apply this block to ``walk`` for ``text`` (of this shape); False: walk it instead.
        A value not accepted at its span before is checked as its line's shape checks it (a
        BGP block's own ASN: the block of the next switch of a tier has its shape)."""
        src_model = walk.grammar.models.get(walk.model)
        for seen, param, value in zip(self.accepted, self.params, self.values(text), strict=False):
            if value not in seen:
                if param is None or param.bad(value, src_model):
                    return False
                _keep(seen, value)
        if not self.root_once.isdisjoint(walk.top):
            return False  # a second 'once' line at the root: the walk names it
        walk.top |= self.root_once
        walk.used |= self.used
        walk.stack[:] = [(i, v, set(o)) for i, v, o in self.stack]
        walk.no += self.lines
        return True


def _keep(seen: set[str], value: str) -> None:
    if len(seen) > 10_000:  # values accepted at one span (a hostile file's are all unique)
        seen.clear()
    seen.add(value)


def _raw_spans(raw: str, spans: tuple[tuple[str, int, int], ...]) -> list[tuple[int, int]]:
    """``spans`` of the normalised line (``' ' + ' '.join(raw.split())``) as spans of ``raw``:
    a value is whole words, so it runs from its first word's start to its last word's end."""
    words = [(m.start(), m.end()) for m in _WORD.finditer(raw)]
    starts, at = [], 1
    for a, b in words:
        starts.append(at)
        at += b - a + 1
    out = []
    for _, a, b in spans:
        inside = [k for k, s in enumerate(starts) if a <= s and s + words[k][1] - words[k][0] <= b]
        if not inside:
            continue
        out.append((words[inside[0]][0], words[inside[-1]][1]))
    return out


def _param(spec: str) -> Param:
    many = spec.endswith("+")
    name, _, kind = spec.strip("<>+").partition(":")
    kind = kind.strip() or "word"
    if kind.startswith("/") and kind.endswith("/"):
        return Param(name.replace("-", "_"), kind, (), many)
    base, _, rng = kind.partition(" ")
    if base not in _TYPES:
        raise ValueError(f"unknown parameter type '{base}' in <{spec}>")
    return Param(name.replace("-", "_"), base, _ranges(rng), many)


def _ranges(text: str) -> tuple[tuple[int, int], ...]:
    """``'0-7'`` / ``'10|100|500'`` / ``'1-8|16'`` -> inclusive ranges."""
    allowed: list[tuple[int, int]] = []
    for part in filter(None, text.strip().split("|")):
        lo, _, hi = part.partition("-")
        allowed.append((int(lo), int(hi or lo)))
    return tuple(allowed)


def compile_syntax(syntax: str) -> tuple[re.Pattern[str], dict[str, Param]]:
    """The regex matching ``' ' + normalised line`` for ``syntax``, and its parameters."""
    tokens = _TOKEN.findall(syntax)
    params: dict[str, Param] = {}
    pos = 0

    def seq(stop: tuple[str, ...]) -> str:
        nonlocal pos
        parts: list[str] = []
        while pos < len(tokens) and tokens[pos] not in stop:
            tok = tokens[pos]
            pos += 1
            if tok == "{":
                alts = [seq(("|", "}"))]
                while tokens[pos] == "|":
                    pos += 1
                    alts.append(seq(("|", "}")))
                pos += 1
                parts.append("(?:" + "|".join(alts) + ")")
            elif tok == "[":
                inner = seq(("]",))
                pos += 1
                parts.append(f"(?:{inner})?")
            elif tok.startswith("<"):
                p = _param(tok)
                params[p.name] = p
                one = p.kind[1:-1] if p.kind.startswith("/") else _TYPES[p.kind]
                body = f"(?: (?:{one}))+" if p.many else f" (?:{one})"
                parts.append(f"(?P<{p.name}>{body})")
            else:
                parts.append(" " + re.escape(tok))
        return "".join(parts)

    pattern = seq(())
    return re.compile(pattern + "$"), params


def render_syntax(syntax: str, values: dict[str, str]) -> str | None:
    """A line of ``syntax`` filled with ``values`` (None: a required parameter has none).

    An alternative ``{ a | b }`` is the first that can be filled; an optional part is kept
    only when it names a parameter that has a value (literal-only options are left out).

    >>> render_syntax("undo queue { <q:int 0-7> | all }", {"q": "3"})
    'undo queue 3'
    >>> render_syntax("undo jumboframe enable [ <bytes:int> ]", {"bytes": "9238"})
    'undo jumboframe enable 9238'
    >>> render_syntax("undo peer <peer:ipv4> password", {}) is None
    True
    """
    tokens = _TOKEN.findall(syntax)
    pos = 0

    def seq(stop: tuple[str, ...]) -> tuple[list[str] | None, bool]:
        """(words or None when unfillable, whether a parameter was filled)."""
        nonlocal pos
        words: list[str] | None = []
        used = False
        while pos < len(tokens) and tokens[pos] not in stop:
            tok = tokens[pos]
            pos += 1
            part: list[str] | None
            if tok in ("{", "["):
                close = "}" if tok == "{" else "]"
                alts = [seq(("|", close))]
                while tokens[pos] == "|":
                    pos += 1
                    alts.append(seq(("|", close)))
                pos += 1
                ok = [(a, u) for a, u in alts if a is not None and (u or tok == "{")]
                part, filled = ok[0] if ok else (None if tok == "{" else [], False)
                used = used or filled
            elif tok.startswith("<"):
                key = _param(tok).name
                part = [values[key]] if key in values else None
                used = True
            else:
                part = [tok]
            if part is None or words is None:
                words = None
            else:
                words += part
        return words, used

    words, _ = seq(())
    return " ".join(words) if words is not None else None


def rule_kind(rule: str) -> str:
    """'unknown', 'view', 'parameter', 'range' or 'model': which error text a switch answers."""
    for prefix, kind in (
        ("wrong view", "view"),
        ("wrong parameter", "parameter"),
        ("out of range", "range"),
        ("unsupported on model", "model"),
    ):
        if rule.startswith(prefix):
            return kind
    return "unknown"


def _firsts(tokens: list[str]) -> set[str]:
    """Literal words a syntax can begin with (through a leading ``[ ... ]`` or ``{ a | b }``)."""
    if not tokens:
        return set()
    tok = tokens[0]
    if tok in ("[", "{"):
        close = "]" if tok == "[" else "}"
        depth, i, alts, start = 0, 0, [], 1
        for i, t in enumerate(tokens):
            if t in ("[", "{"):
                depth += 1
            elif t in ("]", "}"):
                depth -= 1
                if depth == 0:
                    break
            elif t == "|" and depth == 1:
                alts.append(tokens[start:i])
                start = i + 1
        alts.append(tokens[start:i])
        out = set().union(*(_firsts(a) for a in alts))
        if close == "]":
            out |= _firsts(tokens[i + 1 :])
        return out
    return {tok}


def _command(vendor: str, raw: dict[str, Any], path: str, policy: dict[str, Any]) -> Command:
    try:
        syntax = str(raw["syntax"])
        views = raw["view"]
        regex, params = compile_syntax(syntax)
    except (KeyError, ValueError, re.error, IndexError) as exc:
        raise GrammarError(f"command {raw.get('name', raw)!r}: {exc}", file=path) from None
    name = str(raw.get("name", syntax))
    source = str(raw.get("source", ""))
    status = raw.get("status") or ("sourced" if source else "unsourced")
    if status not in STATUSES:
        raise GrammarError(f"command {name!r}: status {status!r}", file=path)
    if raw.get("bounds") not in (None, "frame", "packet"):
        raise GrammarError(f"command {name!r}: bounds {raw.get('bounds')!r}", file=path)
    models = raw.get("models")
    for pname, per_model in (raw.get("ranges") or {}).items():
        key = pname.replace("-", "_")
        if key not in params:
            raise GrammarError(f"command {name!r}: ranges of unknown <{pname}>", file=path)
        rows = tuple((tuple(str(m) for m in ms), _ranges(str(r))) for r, ms in per_model.items())
        params[key] = replace(params[key], by_model=rows)
    cmd = Command(
        name=name,
        views=tuple(views if isinstance(views, list) else [views]),
        syntax=syntax,
        regex=regex,
        params=params,
        first=tuple(sorted(_firsts(_TOKEN.findall(syntax)))),
        status=status,
        source=source,
        note=str(raw.get("note", "")),
        models=tuple(models) if models is not None else None,
        opens=raw.get("opens"),
        sets=raw.get("sets"),
        exits=bool(raw.get("exits", False)),
        default=None if raw.get("default") is None else str(raw.get("default")),
        section=str(raw.get("section", "")),
        bounds=raw.get("bounds"),
        once=bool(raw.get("once", False)),
    )
    return replace(cmd, undo=_undo(cmd, raw, path, policy))


def _undo(cmd: Command, raw: dict[str, Any], path: str, policy: dict[str, Any]) -> Undo | None:
    """The command's undo forms: its own ``undo`` entry, else the grammar's ``undo_default``
    (a negation word before the whole line) for commands that do not begin with it."""
    given = raw.get("undo")
    prefix = None
    if given == []:  # documented as never negated ('return')
        return None
    if given is None:
        default = policy.get("undo_default")
        first = _TOKEN.findall(cmd.syntax)[0]
        if not default or first in ("[", default["prefix"].strip()):
            return None
        prefix = str(default["prefix"])
        forms: tuple[str, ...] = (prefix + cmd.syntax,)
        status, source = str(default.get("status", "unsourced")), ""
        note = str(default.get("note", ""))
    else:
        forms = tuple(str(f) for f in (given if isinstance(given, list) else [given]))
        source = str(raw.get("undo_source", ""))
        in_source = policy.get("undo_in_source") and cmd.status != "unsourced"
        status = raw.get("undo_status") or (
            "sourced" if source else cmd.status if in_source else "unsourced"
        )
        note = str(raw.get("undo_note", ""))
    if status not in STATUSES:
        raise GrammarError(f"command {cmd.name!r}: undo_status {status!r}", file=path)
    typed = {_param(t).name: t for t in _TOKEN.findall(cmd.syntax) if t.startswith("<")}
    commands = []
    for form in forms:
        text = re.sub(r"<([^>:+]+)>", lambda m: typed.get(m.group(1).replace("-", "_"), m[0]), form)
        try:
            regex, params = compile_syntax(text)
        except (ValueError, re.error, IndexError) as exc:
            raise GrammarError(f"command {cmd.name!r} undo {form!r}: {exc}", file=path) from None
        if not params.keys() <= cmd.params.keys():
            unknown = sorted(params.keys() - cmd.params.keys())
            raise GrammarError(f"command {cmd.name!r} undo names unknown {unknown}", file=path)
        commands.append(
            replace(
                cmd,
                name=f"{cmd.name} (undo)",
                views=cmd.views + ((cmd.sets,) if cmd.sets else ()),
                syntax=text,
                regex=regex,
                params={k: cmd.params[k] for k in params},
                first=tuple(sorted(_firsts(_TOKEN.findall(text)))),
                status=status,
                source=source or cmd.source,
                note=note,
                opens=None,
                sets=None,
                exits=False,
                bounds=None,
            )
        )
    takes = tuple(str(t) for t in raw.get("undo_takes", []))
    return Undo(forms, tuple(commands), status, source, note, takes, prefix)


def grammar_path(vendor: str, overlay: Path | None = None) -> Path:
    if overlay is not None:
        user = overlay / "vendors" / f"{vendor}.grammar.yaml"
        if os.path.lexists(user):  # a FIFO or a link out of the overlay: refused, not skipped
            return user
    return vendors_dir() / f"{vendor}.grammar.yaml"


def _read(path: Path, root: Path | None = None) -> dict[str, Any]:
    data, _ = load_yaml(read_text(path, "vendor grammar", root=root), str(path))
    if not isinstance(data, dict):
        raise GrammarError("must be a YAML mapping", file=str(path))
    return data


def _overlaid(base: dict[str, Any], user: dict[str, Any], path: Path) -> dict[str, Any]:
    """An overlay's grammar over ours: its commands replace ours of the same name and add new
    ones, 'remove' drops ours by name, its sources and models add to ours, any other key it
    gives replaces ours."""
    names = {str(c.get("name", c.get("syntax"))) for c in base.get("commands", [])}
    gone = {str(n) for n in user.get("remove", [])}
    unknown = sorted(gone - names)
    if unknown:
        raise GrammarError(f"remove: no such command {unknown}", file=str(path))
    mine = {str(c.get("name", c.get("syntax"))): c for c in user.get("commands", [])}
    kept = [c for c in base.get("commands", []) if c.get("name") not in gone | mine.keys()]
    out = {**base, **{k: v for k, v in user.items() if k not in ("commands", "remove")}}
    for key in ("sources", "models"):
        out[key] = {**(base.get(key) or {}), **(user.get(key) or {})}
    out["commands"] = kept + list(mine.values())
    return out


@cache
def _load(path: Path, overlay: Path | None = None) -> Grammar:
    data = _read(path)
    if overlay is not None:
        # the overlay's file stays inside its folder (overlay/vendors/<vendor>.grammar.yaml)
        data = _overlaid(data, _read(overlay, root=overlay.parent.parent), overlay)
    where = str(overlay or path)
    vendor = str(data.get("vendor", path.name.split(".")[0]))
    policy = {k: data.get(k) for k in ("undo_default", "undo_in_source")}
    commands = [_command(vendor, c, where, policy) for c in data.get("commands", [])]
    names = {c.name for c in commands}
    for c in commands:
        lost = [t for t in (c.undo.takes if c.undo else ()) if t not in names]
        if lost:
            raise GrammarError(f"command {c.name!r}: undo_takes unknown {lost}", file=where)
    return Grammar(
        vendor=vendor,
        root=str(data.get("root", "system")),
        separators=tuple(data.get("separators", [])),
        ignore=tuple(re.compile(p) for p in data.get("ignore", [])),
        models=dict(data.get("models", {})),
        commands=commands,
        sources=dict(data.get("sources", {})),
        errors={str(k): str(v) for k, v in (data.get("errors") or {}).items()},
        unmanaged=tuple(_unmanaged(data.get("unmanaged") or [], where)),
        areas=tuple(
            Area(_regex(a, "match", where), str(a.get("section", "")))
            for a in data.get("areas") or []
        ),
    )


def _regex(entry: object, key: str, where: str) -> str:
    value = entry.get(key) if isinstance(entry, dict) else None
    try:
        re.compile(str(value))
    except re.error as exc:
        raise GrammarError(f"{key} {value!r} is no regex: {exc}", file=where) from None
    if not isinstance(value, str) or not value:
        raise GrammarError(f"an entry needs '{key}': {entry!r}", file=where)
    return value


def _unmanaged(entries: list[Any], where: str) -> Iterable[Unmanaged]:
    for e in entries:
        pattern = _regex(e, "match", where)
        if not e.get("what") or not e.get("source"):
            raise GrammarError(f"unmanaged {pattern!r}: needs 'what' and 'source'", file=where)
        yield Unmanaged(pattern, str(e["what"]), str(e["source"]))


def load_grammar(vendor: str, overlay: Path | None = None) -> Grammar:
    """The grammar of ``vendor``, with an overlay's own grammar file merged over it (see
    ``_overlaid``) when the overlay has one."""
    bundled = _bundled(vendor)
    if overlay is None:
        return _load(bundled, None)
    user = grammar_path(vendor, overlay).resolve()
    return _load(bundled, user if user != bundled else None)


@cache
def _bundled(vendor: str) -> Path:
    """The package's own grammar file of ``vendor``, resolved once: the parse asks for the
    grammar once per config, and resolving the path (a stat per directory) cost a tenth of
    preparing an xl config."""
    return (vendors_dir() / f"{vendor}.grammar.yaml").resolve()


def defaults(vendor: str) -> dict[str, str]:
    """Command name -> the default a running-config leaves out, per the vendor's grammar."""
    return load_grammar(vendor).defaults()


def grade(grammar: Grammar, model: str, used: dict[str, set[str]]) -> dict[str, str]:
    """Section -> ``verified`` when every command it used is sourced for ``model``,
    ``unverified`` when none has a source at all, ``partial`` otherwise (a source that does not
    name the model, a range or unit unconfirmed, or a mix)."""
    by_name = {c.name: c for c in grammar.commands}
    src_model = grammar.source_model(model)
    out: dict[str, str] = {}
    for section, names in used.items():
        cmds = [by_name[n] for n in names]
        if all(c.sourced_for(src_model) for c in cmds):
            out[section] = "verified"
        elif all(c.status == "unsourced" for c in cmds):
            out[section] = "unverified"
        else:
            out[section] = "partial"
    return out


@dataclass(frozen=True)
class SectionGrade:
    """A template section as the grammar grades it: overall, per model, and its commands."""

    status: str  # worst over the models
    by_model: dict[str, str]
    commands: dict[str, int]  # sourced / partial / unsourced


def section_grades(grammar: Grammar, models: list[str]) -> dict[str, SectionGrade]:
    """Every section's grade from the commands it can emit on each of ``models`` (a command a
    model's source rules out is not one that section emits there)."""
    sections = sorted({c.section for c in grammar.commands})
    out: dict[str, SectionGrade] = {}
    rank = {"verified": 0, "partial": 1, "unverified": 2}
    for section in sections:
        cmds = [c for c in grammar.commands if c.section == section]
        counts = dict.fromkeys(STATUSES, 0)
        for c in cmds:
            counts[c.status] += 1
        by_model: dict[str, str] = {}
        for model in models:
            src = grammar.source_model(model)
            names = {c.name for c in cmds if c.models is None or src is None or src in c.models}
            by_model[model] = grade(grammar, model, {section: names})[section] if names else ""
        graded = [g for g in by_model.values() if g]
        worst = max(graded, key=lambda g: rank[g]) if graded else "unverified"
        out[section] = SectionGrade(worst, by_model, counts)
    return out
