"""A vendor's grammar, and its checker of rendered lines, typed sessions and undo forms."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from roce_cfg.grammar.commands import STATUSES, Area, Checked, Command, Unmanaged, Violation
from roce_cfg.grammar.replay import (
    ASCII_DIGITS,
    BLOCK_START,
    REPLAY_BLOCKS,
    REPLAY_CHARS,
    ZEROS,
    LineShape,
    Replays,
    Walk,
    block_start,
    digit_blind,
    digit_general,
    odd_breaks,
    pattern_blind,
)
from roce_cfg.grammar.syntax import render_syntax

# (view, line) answers kept per model and negation word for the process (``_session``)
JUDGED_MAX = 65_536


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
    # False: every line answered on its own, none by its shape (the reference for the shapes)
    by_shape: bool = True
    _index: dict[tuple[str, str], list[Command]] = field(default_factory=dict)
    _undo_index: dict[tuple[str, str], list[Command]] = field(default_factory=dict)
    _undone: dict[int, Command] = field(default_factory=dict)  # id(undo command) -> command
    # what the checker's walks learnt, per model, kept between configs
    replay: Replays = field(default_factory=Replays)
    _blind: frozenset[Command] = frozenset()
    _blocks_blind: bool = False
    ignored: re.Pattern[str] | None = None
    _by_view: dict[str, list[Command]] = field(default_factory=dict)
    _ranged: frozenset[str] | None = None
    # first word -> a digit-blind superset of each command or undo form starting with it that
    # tells one digit from another (``shape_safe``)
    _general: dict[str, list[re.Pattern[str]]] | None = None
    has_resets: bool = False
    _block_start: re.Pattern[str] = BLOCK_START
    # ``_session``'s answer per (model, negation) and (view, line): a push's lines repeat on
    # every port and every switch of a vendor
    _judged: dict[tuple[str, str], dict[tuple[str, str], tuple[Command | None, str | None]]] = (
        field(default_factory=dict, compare=False, repr=False)
    )

    def __post_init__(self) -> None:
        # whether any command returns a view to its defaults (``resets``), asked per line typed
        self.has_resets = any(c.resets is not None for c in self.commands)
        if self.ignore:
            self.ignored = re.compile("|".join(f"(?:{p.pattern})" for p in self.ignore))
        if self.separators:
            self._block_start = block_start(self.separators)
        if self.by_shape:
            self._blind = frozenset(c for c in self.commands if digit_blind(c))
            # Blocks are answered by shape only if skipping a line (ignored, a separator)
            # cannot depend on its digits either.
            self._blocks_blind = not any(
                ch in ASCII_DIGITS for text in self.separators for ch in text
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
        if not words or any(ch in ASCII_DIGITS for ch in words[0]):
            return False
        if self._general is None:
            self._general = {}
            undos = [u for c in self.commands if c.undo is not None for u in c.undo.commands]
            for c in [*self.commands, *undos]:
                if not digit_blind(c):
                    for first in c.first:
                        self._general.setdefault(first, []).append(digit_general(c))
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
        same values in its ranged parameters is accepted without a second pass (``Block``).
        """
        walk = Walk(self, model)
        if not self._blocks_blind or odd_breaks(text):
            walk.lines(text.splitlines())  # '\r' and such end lines too: no block split
        else:
            for block in self._block_start.split(text):
                walk.block(block)
        return walk.done()

    def check_lines(self, lines: Iterable[str], model: str) -> Checked:
        """``check`` over lines already split (a violation's ``line_no`` counts them from 1)."""
        walk = Walk(self, model)
        walk.lines(lines)
        return walk.done()

    def check_blocks(self, blocks: Iterable[str], model: str) -> Checked:
        """``check_lines`` over the lines of ``blocks`` (each a top-level block's lines joined
        by '\\n', its first line at the left margin), with ``check``'s replay of blocks shaped
        like one already accepted: the parse checks every config it reads, a thousand
        near-identical port blocks each."""
        walk = Walk(self, model)
        for text in blocks:
            if self._blocks_blind and len(text) <= REPLAY_CHARS:
                if len(walk.blocks) > REPLAY_BLOCKS:
                    walk.forget_blocks()
                walk.block(text)
            else:
                walk.lines(text.split("\n"))
        return walk.done()

    def lookup(
        self,
        view: str,
        raw: str,
        popped: str | None,
        model: str,
        cache: dict[tuple[str, str], tuple[Command | None, str | None]],
        shapes: dict[tuple[str, bytes], LineShape],
    ) -> tuple[Command | None, str | None]:
        """A line the per-line cache has not seen: answered from its shape when a line of the
        same shape was accepted (only its ranged values are checked), else in full."""
        src_model = self.models.get(model)
        shape = (view, raw.encode().translate(ZEROS))
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
            learnt = LineShape.of(hit[0], raw)
            if learnt is not None:
                shapes[shape] = learnt
        cache[(view, raw)] = hit
        return hit

    def _same_for_shape(self, view: str, raw: str, cmd: Command) -> bool:
        """Whether every line of ``raw``'s shape (its digits changed) in ``view`` is ``cmd``
        too: its first word has no digit (so the candidates are the same) and neither ``cmd``
        nor any candidate tried before it tells one digit from another."""
        first = raw.split(maxsplit=1)[0]
        if any(ch in ASCII_DIGITS for ch in first):
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

    def restates_default(self, view: str, line: str) -> bool:
        """Whether ``line`` of ``view`` only states the switch's default (LLDP on): no removal
        is typed for it, and a config with it is the same as one without."""
        cmd, _ = self.match(view, line)
        return cmd is not None and cmd.restates_default

    def reset_for(self, view: str, opener: str) -> str | None:
        """The line that returns the view ``opener`` opens (in ``view``) to its defaults, the
        view staying (RGOS 'default interface <port>'); None when the grammar has none."""
        cmd, values = self.match(view, opener)
        if cmd is None:
            return None
        reset = next((c for c in self.commands if c.resets == cmd.name and view in c.views), None)
        return render_syntax(reset.syntax, values) if reset is not None else None

    def reset_target(self, view: str, line: str) -> str | None:
        """The opener of the view ``line`` (typed in ``view``) returns to its defaults; None
        when ``line`` resets nothing."""
        cmd, values = self.match(view, line)
        opener = next((c for c in self.commands if cmd and c.name == cmd.resets), None)
        return render_syntax(opener.syntax, values) if opener is not None else None

    def undo_for(self, view: str, line: str, negation: str) -> str | None:
        """The line that undoes ``line`` of ``view``, from the grammar's undo form (None: the
        grammar knows no undo form for it)."""
        cmd, values = self.match(view, line)
        if cmd is None:  # a line that made this view ('port link-mode route', Layer 3)
            cmd, values = self._setter(view, line)
        return cmd.negate(values, line, negation) if cmd is not None else None

    def resting(self, view: str, line: str, negation: str) -> tuple[bool, str | None]:
        """Whether ``line`` of ``view`` is one form of a two-state setting (a command whose own
        syntax takes the negation word, '[ no ] shutdown', or one that switches the view,
        'no switchport' / 'switchport'), and the form a port is in when its running config
        prints neither: the command's ``default`` where that is a line of the same setting;
        None when no source gives it (then nobody can say what an unset port was)."""
        cmd, _ = self.match(view, line)
        if cmd is None:
            cmd, _ = self._setter(view, line)
        if cmd is None:
            return False, None
        positive = line[len(negation) :] if line.startswith(negation) else line
        both = all(
            cmd.regex.match(" " + " ".join(f.split())) for f in (positive, negation + positive)
        )
        if cmd.sets is None and not both:
            return False, None
        rest = cmd.default
        views = (*cmd.views, *((cmd.sets,) if cmd.sets else ()))
        if rest is None or not (
            cmd.regex.match(" " + rest)
            or any(self.match(v, rest)[0] or self.match(v, rest, undo=True)[0] for v in views)
        ):
            return True, None  # a value ('bridge'), or no default: not a line to type
        return True, rest

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
        judged = self._judged.setdefault((model, negation), {})
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
            found = judged.get((view, body))
            if found is None:
                if len(judged) >= JUDGED_MAX:
                    judged.clear()  # a fabric's lines repeat; a hostile push's do not
                found = judged[view, body] = self.judge(view, body, model, negation)
            cmd, rule = found
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
