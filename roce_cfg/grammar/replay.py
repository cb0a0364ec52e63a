"""Lines and blocks answered by their shape: a config repeats a few dozen shapes of
line and block that differ only in their digits, so one full check per shape serves them all.
The walk the checker takes through a config lives here too, with the caches it keeps per model."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Protocol

from roce_cfg.grammar.commands import Checked, Command, Violation
from roce_cfg.grammar.syntax import TOKEN, TYPES, Param, compile_syntax, param_of

# What the parse keeps of the blocks it replays (``check_blocks``): a fabric's port block is a
# few hundred characters, its BGP block of hundreds of peers tens of thousands, and its configs
# repeat a few dozen shapes; a hostile file's unique or huge blocks (up to 16 MiB) are walked
# line by line instead of held for the process's life. REPLAY_BUDGET: the characters of all
# the block shapes kept per model, at most.
REPLAY_CHARS = 65_536
REPLAY_BLOCKS = 2_000
REPLAY_BUDGET = 8 << 20
ASCII_DIGITS = "0123456789"
# A line's shape: its UTF-8 bytes with every ASCII digit made '0' (bytes.translate: a tenth of
# the cost of str.translate). Two lines share a shape when they differ only in which digits
# stand where digits stand, so a regex that treats all digits alike (``_digit_blind``) matches
# both or neither, with the same groups; only values compared against ranges can differ.
ZEROS = bytes.maketrans(ASCII_DIGITS.encode(), b"0" * 10)


def digit_blind(cmd: Command) -> bool:
    """Whether ``cmd``'s regex treats every digit alike: no digit in a literal word (``speed
    40000``) nor in a parameter's own regex (the built-in types use ``\\d``, ``\\S`` and
    ``.``, and ``{1,3}`` counts characters; an own regex with no digit at all cannot tell one
    digit from another either)."""
    for tok in TOKEN.findall(cmd.syntax):
        param = tok.startswith("<")
        text = param_of(tok).kind if param else tok  # a literal 'ipv4' is a word, not the type
        if not (param and text in TYPES) and any(ch in ASCII_DIGITS for ch in text):
            return False
    return True


_CLASS = re.compile(r"\[(?:\\.|[^\]\\])*\]")


# a literal digit of a syntax while it is made a pattern that takes any digit there
_ANY_DIGIT = "\ue000"
_EVERYTHING = re.compile("")


def digit_general(cmd: Command) -> re.Pattern[str]:
    """A digit-blind pattern matching every line ``cmd`` matches (each literal digit of its
    syntax taken as any digit; a parameter of its own regex with a digit, as anything)."""
    tokens = TOKEN.findall(cmd.syntax)
    if any(
        t.startswith("<") and param_of(t).kind not in TYPES and any(d in t for d in ASCII_DIGITS)
        for t in tokens
    ):
        return _EVERYTHING
    general = " ".join(t if t.startswith("<") else t.translate(_TO_ANY_DIGIT) for t in tokens)
    return re.compile(compile_syntax(general)[0].pattern.replace(_ANY_DIGIT, r"\d"))


_TO_ANY_DIGIT = str.maketrans(dict.fromkeys(ASCII_DIGITS, _ANY_DIGIT))


def shape(text: str) -> bytes:
    """``text`` with every ASCII digit made '0' (see ``ZEROS``): texts of one shape are told
    apart only by a pattern that tells one digit from another (``pattern_blind``)."""
    return text.encode().translate(ZEROS)


# a leading literal word, as a template's line regex or an area's pattern prints it
# ('ipv6\\ address\\ ...', '^ipv6 route ')
_FIRST_WORD = re.compile(r"\^?[A-Za-z0-9_]+(?:\\ | )")


def pattern_blind(pattern: str, past_first_word: bool = False) -> bool:
    """Whether a regex treats every digit alike: no digit in it but in a character class that
    holds the whole range ``0-9`` and no other digit (ZTE's ``[a-z0-9-]``), nor a character
    named (``\\N{DIGIT FIVE}``). With ``past_first_word`` a digit of a leading literal word
    ('ipv6') is allowed: only lines with a digit in their first word match there, and those are
    never judged by their shape (``Grammar.shape_safe``)."""
    if "\\N{" in pattern:
        return False
    if past_first_word and (word := _FIRST_WORD.match(pattern)):
        pattern = pattern[word.end() :]

    def without(m: re.Match[str]) -> str:
        return "" if not any(ch in ASCII_DIGITS for ch in m[0].replace("0-9", "")) else "0"

    return not any(ch in ASCII_DIGITS for ch in _CLASS.sub(without, pattern))


@dataclass
class LineShape:
    """What every line of one shape is: ``cmd``, with the ranged parameters' values at
    ``spans`` of the normalised line (name, start, end: the same for every line of the shape),
    and the answer per tuple of those values seen so far."""

    cmd: Command
    spans: tuple[tuple[str, int, int], ...]
    answers: dict[tuple[str, ...], tuple[Command | None, str | None]] = field(default_factory=dict)

    @classmethod
    def of(cls, cmd: Command, raw: str) -> LineShape | None:
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


Answer = tuple[Command | None, str | None]  # the command a line is, or why it is refused


@dataclass
class Replays:
    """What the walks through a grammar's configs learnt, per model: one answer per (view,
    line), one per line shape, and the accepted blocks by shape (``chars``: of their shapes)."""

    lines: dict[str, dict[tuple[str, str], Answer]] = field(default_factory=dict)
    shapes: dict[str, dict[tuple[str, bytes], LineShape]] = field(default_factory=dict)
    blocks: dict[str, dict[bytes, Block | None]] = field(default_factory=dict)
    chars: dict[str, int] = field(default_factory=dict)


class Checker(Protocol):
    """What a walk asks of the grammar it walks by (grammar/checker.py's Grammar)."""

    root: str
    separators: tuple[str, ...]
    models: dict[str, str | None]
    ignored: re.Pattern[str] | None
    replay: Replays

    def match(
        self, view: str, line: str, undo: bool = False
    ) -> tuple[Command | None, dict[str, str]]: ...

    def lookup(
        self,
        view: str,
        raw: str,
        popped: str | None,
        model: str,
        cache: dict[tuple[str, str], Answer],
        shapes: dict[tuple[str, bytes], LineShape],
    ) -> Answer: ...


# A block starts at every line that begins at the left margin (see ``Grammar.check``); other
# line ends than '\n' would number lines differently from ``str.splitlines``.
BLOCK_START = re.compile(r"\n(?=\S)")


def block_start(separators: tuple[str, ...]) -> re.Pattern[str]:
    """``BLOCK_START`` but before a line that is a separator alone ('!' closing a port): that
    line joins the block before it, whose views it closes, and is replayed with it (a block
    learnt with its separator leaves the view stack empty, as the separator's own did). Half
    of a config's blocks were separators, each looked up and replayed on its own."""
    alone = "|".join(re.escape(s) for s in sorted(separators, key=len, reverse=True))
    return re.compile(rf"\n(?=\S)(?!(?:{alone})(?:\n|$))")


ODD_BREAKS = re.compile("[\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")
_ASCII_BREAKS = "\r\x0b\x0c\x1c\x1d\x1e"


def odd_breaks(text: str) -> bool:
    """Whether ``text`` holds a line end other than '\\n' (``ODD_BREAKS``). ASCII text, what
    a rendered config is, is asked by six substring searches at C speed: the regex's class of
    non-ASCII characters scanned 0.2 ms per large config."""
    if text.isascii():
        return any(ch in text for ch in _ASCII_BREAKS)
    return ODD_BREAKS.search(text) is not None


_WORD = re.compile(r"\S+")


class Walk:
    """The checker's walk through one config: the CLI's view stack and what it found."""

    def __init__(self, grammar: Checker, model: str) -> None:
        self.grammar = grammar
        self.model = model
        self.out = Checked()
        # (indent of the opener, view it opened, the once-per-view commands seen in it)
        self.stack: list[tuple[int, str, set[str]]] = []
        self.top: set[str] = set()
        self.used: set[Command] = set()
        # the blocks whose commands are in ``used`` (kept by reference: an id is not reused)
        self.merged: dict[int, Block] = {}
        self.no = 0  # lines walked so far
        # Lines repeat across ports and switches: one answer per (model, view, line), kept
        # between calls (generate checks every switch of a fabric with one grammar).
        self.cache = grammar.replay.lines.setdefault(model, {})
        if len(self.cache) > 500_000:  # parse checks every line of every config it reads
            self.cache.clear()
        # Lines that differ only in their numbers (addresses, port names, ASNs) are answered by
        # their shape: one full check per shape, then only the ranged values (``_lookup``).
        self.shapes = grammar.replay.shapes.setdefault(model, {})
        self.blocks = grammar.replay.blocks.setdefault(model, {})
        if len(self.shapes) > 100_000:
            self.shapes.clear()
        if len(self.blocks) > 100_000:
            self.forget_blocks()

    def forget_blocks(self) -> None:
        self.blocks.clear()
        self.grammar.replay.chars[self.model] = 0

    def lines(self, lines: Iterable[str]) -> list[tuple[int, str, str, Command]]:
        """Walk ``lines``; the accepted ones as (index in ``lines``, view, line, command)."""
        g, stack, top, used, cache = self.grammar, self.stack, self.top, self.used, self.cache
        ignore, separators, root = g.ignored, g.separators, g.root
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
                hit = g.lookup(view, raw, popped, self.model, cache, self.shapes)
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
        shape = text.encode().translate(ZEROS)
        learnt = self.blocks.get(shape)
        if learnt is not None and learnt.replay(self, text):
            return
        met = learnt is not None or shape in self.blocks  # with None: known not to replay
        before = len(self.out.violations)
        lines = text.split("\n")
        seen = self.lines(lines)
        if len(self.out.violations) > before:
            return
        if not met:
            held = self.grammar.replay.chars.get(self.model, 0) + len(shape)
            if held > REPLAY_BUDGET:
                self.forget_blocks()
                held = len(shape)
            self.grammar.replay.chars[self.model] = held
            self.blocks[shape] = Block.learn(self, text, lines, seen)
        elif learnt is not None:
            learnt.accept(text)

    def done(self) -> Checked:
        for cmd in self.used:
            self.out.used.setdefault(cmd.section, set()).add(cmd.name)
        return self.out


@dataclass
class Block:
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
        cls, walk: Walk, text: str, lines: list[str], seen: list[tuple[int, str, str, Command]]
    ) -> Block | None:
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
            known = walk.shapes.get((view, raw.encode().translate(ZEROS)))
            if known is not None and known.cmd is cmd:
                line = " " + " ".join(raw.split())
                for name, a, b in known.spans:
                    for ra, rb in _raw_spans(raw, ((name, a, b),)):
                        spans.append((offsets[index] + ra, offsets[index] + rb))
                        # checked as LineShape.answer checks it: the same words
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

    def replay(self, walk: Walk, text: str) -> bool:
        """Apply this block to ``walk`` for ``text`` (of this shape); False: walk it instead.
        A value not accepted at its span before is checked as its line's shape checks it (a
        BGP block's own ASN: the block of the next switch of a tier has its shape)."""
        values = self.values(text)
        # every value met at its span before (most blocks): one C pass, no Python loop
        if not all(map(_HAS, self.accepted, values)):
            for seen, param, value in zip(self.accepted, self.params, values, strict=False):
                if value not in seen:
                    if param is None or param.bad(value, walk.grammar.models.get(walk.model)):
                        return False
                    _keep(seen, value)
        if self.root_once:
            if not self.root_once.isdisjoint(walk.top):
                return False  # a second 'once' line at the root: the walk names it
            walk.top |= self.root_once
        # a config replays one block a thousand times: its commands join ``used`` once
        if id(self) not in walk.merged:
            walk.merged[id(self)] = self
            walk.used |= self.used
        walk.stack[:] = [(i, v, set(o)) for i, v, o in self.stack]
        walk.no += self.lines
        return True


_HAS = set.__contains__


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
