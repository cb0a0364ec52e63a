"""Which reader accepts a line (a parse template's line, a grammar command, the grammar's
unmanaged catalogue), per vendor and overlay, and what becomes of a block's lines: the lines
under a line not understood take its verdict. Answers are remembered per line and per block
shape, within bounds: a fabric's configs repeat their lines, a hostile file does not.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from roce_cfg.grammar import Grammar, load_grammar, pattern_blind, shape
from roce_cfg.grammar.commands import Command
from roce_cfg.parse.blocks import Block
from roce_cfg.parse.lossless import LOSSLESS_SECTIONS, OTHER, keyword_section
from roce_cfg.parse.template_lines import template_lines
from roce_cfg.parse.templates import template_files, template_text
from roce_cfg.vendor import Vendor


@dataclass(frozen=True)
class Verdict:
    status: str  # 'understood' | 'unmanaged' | 'unread' | 'refused' (a value out of its domain)
    label: str  # section (understood, unread) or kind (unmanaged)


# Distinct lines judged and remembered (per vendor, for the process): repeated lines are the
# hits; unique ones (100,000 interface headers) would otherwise stay 27 MB after the parse.
MEMO_LINES = 20_000
# Distinct block shapes remembered (per vendor, for the process): a fabric's configs repeat a
# few dozen; a hostile file of unique blocks is walked line by line, as without the memo.
MEMO_BLOCKS = 2_000
# A block judged by its shape has at most this many characters (a BGP block of a thousand peers:
# its shape recurs from switch to switch of a tier), and all the remembered shapes and texts
# hold at most MEMO_CHARS; a hostile file's megabyte block is walked line by line.
MEMO_BLOCK_CHARS = 65_536
MEMO_CHARS = 8 << 20
_TALLY_CHARS = 256  # what a remembered tally is counted as besides its texts (its objects)
MEMO_SHAPE_CHARS = 256  # lines remembered by shape: config lines are short, a hostile one not


@dataclass(frozen=True, slots=True)
class Tally:
    """What became of a block's lines: counts, and its unread lines (index in the block,
    section) in order."""

    understood: int
    refused: int
    unmanaged: tuple[tuple[str, int], ...]
    unread: tuple[tuple[int, str], ...]


@dataclass(slots=True)
class _OfShape:
    """The tallies of the blocks of one shape, by the texts of the lines at ``unsafe``: lines
    whose shape does not say what they are ('address-family ipv4' is read, 'ipv6' is not)."""

    unsafe: tuple[int, ...]
    tallies: dict[tuple[str, ...], Tally] = field(default_factory=dict)


@dataclass
class Judge:
    """Per vendor (and overlay): which reader accepts a line, with the answers memoised."""

    grammar: Grammar
    templates: re.Pattern[str]
    unmanaged: list[tuple[re.Pattern[str], str]]
    areas: list[tuple[re.Pattern[str], str]]
    template_lines: tuple[str, ...] = ()  # the templates' line regexes, one by one

    def __post_init__(self) -> None:
        # the root view first: a top-level 'interface X' is a port, though a view under it
        # (ZXROS switchvlan) has a command of the same words
        views = {v for c in self.grammar.commands for v in c.views}
        self._views = sorted(views, key=lambda v: (v != self.grammar.root, v))
        self._memo: dict[tuple[str, str], Verdict] = {}
        # (view, undo) pairs, in the order _command_section tries them, that have a command
        # starting with a given word: a line is matched only where it can match (100,000
        # unique interface lines tried 13 views twice each: 8 s of a 10 s parse).
        firsts = {w for c in self.grammar.commands for w in c.first} | {
            w for c in self.grammar.commands if c.undo for u in c.undo.commands for w in u.first
        }
        self._tries: dict[str, list[tuple[str, bool]]] = {
            w: [
                (v, undo)
                for v in self._views
                for undo in (False, True)
                if self.grammar.candidates(v, w, undo)
            ]
            for w in firsts
        }
        # Blocks that differ only in their digits (a fabric's ports, addresses, peers) are
        # judged once per shape when no reader tells one digit from another (``tally``).
        # ('ipv6 address ...' tells digits apart in its first word only: see pattern_blind)
        patterns = self.template_lines or (self.templates.pattern,)
        self._by_shape = all(
            pattern_blind(p, past_first_word=True)
            for p in [*patterns, *(p.pattern for p, _ in (*self.unmanaged, *self.areas))]
        )
        self._blocks: dict[tuple[bool, bool, int, bytes], _OfShape] = {}
        self._chars = 0  # of the shapes and texts in _blocks
        self._line_shapes: dict[tuple[bytes, str], Verdict | None] = {}

    def tally(self, block: Block, fed: bool, refused: set[int]) -> Tally | None:
        """A block's tally, from the block of its shape judged before when its lines whose
        shape does not say what they are have the same text too; None: walk it line by line (a
        vendor whose readers tell digits apart, a refused line in it, a huge block)."""
        if not self._by_shape:
            return None
        lines = block.lines
        if refused and any(line.no in refused for line in lines):
            return None  # the shape does not say which line is refused
        text = "\n".join([ln.text for ln in lines])
        if len(text) > MEMO_BLOCK_CHARS:
            return None  # a huge block is not held for the process's life
        key = (fed, not block.body, block.indent, shape(text))
        of_shape = self._blocks.get(key)
        if of_shape is None:
            unsafe = (n for n, line in enumerate(lines) if not self.grammar.shape_safe(line.text))
            of_shape = self._remember(key, _OfShape(tuple(unsafe)), len(key[3]))
        texts = tuple([lines[n].text for n in of_shape.unsafe])
        hit = of_shape.tallies.get(texts)
        if hit is None:
            hit = tally_of(walk_block(block, fed, refused, self))
            if self._remember(key, of_shape, _TALLY_CHARS + sum(map(len, texts))) is of_shape:
                of_shape.tallies[texts] = hit
        return hit

    def _remember(
        self, key: tuple[bool, bool, int, bytes], of_shape: _OfShape, chars: int
    ) -> _OfShape:
        """``of_shape`` kept under ``key``, counting ``chars`` more; every shape is forgotten
        first when that would pass MEMO_BLOCKS or MEMO_CHARS (then a new one is kept alone)."""
        full = key not in self._blocks and len(self._blocks) >= MEMO_BLOCKS
        if full or self._chars + chars > MEMO_CHARS:
            self._blocks.clear()
            self._chars = 0
            of_shape = _OfShape(of_shape.unsafe)
        self._chars += chars
        self._blocks[key] = of_shape
        return of_shape

    def line(self, flat: str, readers: str) -> Verdict:
        """``readers``: 'all' in a block the templates read, 'grammar' for a one-line block they
        do not (a lint rule reads it from the text: H3C 'max-ecmp-num'), 'none' otherwise."""
        key = (flat, readers)
        hit = self._memo.get(key)
        if hit is None:
            if self._by_shape and len(flat) <= MEMO_SHAPE_CHARS:
                # a line of a shape judged before (None: one whose lines are not judged alike)
                # is not remembered by its text too: a BGP block's peers are unique
                hit = self._line_shapes.get((shape(flat), readers))
                if hit is not None:
                    return hit
            hit = self._memo[key] = self._by_line_shape(flat, readers)
            if len(self._memo) > MEMO_LINES:
                self._memo.clear()
        return hit

    def _by_line_shape(self, flat: str, readers: str) -> Verdict:
        """A line not seen before, judged as the line of its shape before it when lines of that
        shape are judged alike (a BGP block's peers: the block's shape is the config's own)."""
        if not self._by_shape or len(flat) > MEMO_SHAPE_CHARS:
            return self._judge(flat, readers)
        key = (shape(flat), readers)
        hit = self._line_shapes.get(key)
        if hit is None:
            hit = self._judge(flat, readers)
            if key not in self._line_shapes:  # None: a shape whose lines are not judged alike
                if len(self._line_shapes) > MEMO_LINES:
                    self._line_shapes.clear()
                self._line_shapes[key] = hit if self.grammar.shape_safe(flat) else None
        return hit

    def _judge(self, flat: str, readers: str) -> Verdict:
        cmd = self._command(flat, one_line=readers == "grammar")
        section = None if cmd is None else cmd.section
        if readers == "none" or (readers == "grammar" and section is None):
            section = None
        elif section is None and self.templates.fullmatch(flat):
            section = self.area(flat) or OTHER
        elif cmd is not None and readers == "all" and self._values_unread(cmd, flat):
            return Verdict("unread", cmd.section)
        if section is not None:
            return Verdict("understood", section)
        for pattern, kind in self.unmanaged:
            if pattern.match(flat):
                return Verdict("unmanaged", kind)
        return Verdict("unread", self.area(flat) or OTHER)

    def _values_unread(self, cmd: Command, flat: str) -> bool:
        """A lossless command's line that no template reads and whose grammar entry does not
        say why its values change no judgement: known, but not read. (A view's opener is the
        lines under it; its closer holds nothing.)"""
        if cmd.section not in LOSSLESS_SECTIONS or cmd.opens or cmd.exits or cmd.unmodelled:
            return False
        return self.templates.fullmatch(flat) is None

    def _command(self, flat: str, one_line: bool = False) -> Command | None:
        first = flat.split(maxsplit=1)[0] if flat.strip() else ""
        for view, undo in self._tries.get(first, ()):
            cmd, _ = self.grammar.match(view, flat, undo)
            if cmd is not None and not (one_line and cmd.opens):
                return cmd
        return None

    def _command_section(self, flat: str, one_line: bool = False) -> str | None:
        cmd = self._command(flat, one_line)
        return None if cmd is None else cmd.section

    def area(self, flat: str) -> str | None:
        """The section of a line: the grammar's ``areas`` first, else its command's section,
        else the section its words name (``keyword_section``)."""
        return self.named_area(flat) or self._command_section(flat) or keyword_section(flat)

    def named_area(self, flat: str) -> str | None:
        return next((s for p, s in self.areas if p.match(flat)), None)


@cache
def judge(vendor: Vendor, overlay: Path | None = None) -> Judge:
    grammar = load_grammar(vendor.value, overlay)
    texts = [template_text(p, overlay) for p in template_files(vendor, overlay).values()]
    lines = template_lines(texts)
    return Judge(
        grammar,
        re.compile("|".join(f"(?:{r})" for r in lines) or r"(?!)"),
        [(re.compile(u.match), u.what) for u in grammar.unmanaged],
        [(re.compile(a.match), a.section) for a in grammar.areas],
        tuple(lines),
    )


def walk_block(
    block: Block, fed: bool, refused: set[int], j: Judge
) -> Iterator[tuple[int, str, Verdict]]:
    """(line, text, verdict) for each line of a block; the lines under a line that is not
    understood take its verdict."""
    readers = "all" if fed else "grammar" if not block.body else "none"
    stack: list[tuple[int, Verdict]] = []
    for line in block.lines:  # locals only: a BGP block of a thousand peers is walked here
        text = line.text
        if stack:  # a body line (the header's text is stripped: its indent is the block's)
            indent = len(text) - len(text.lstrip(" "))
            while stack and stack[-1][0] >= indent:
                stack.pop()
        else:
            indent = block.indent
        parent = stack[-1][1] if stack else None
        flat = " ".join(text.split())
        if parent is not None and parent.label == OTHER and parent.status == "unread":
            # under a block nothing places, a line's own command or words may: an unknown
            # header must not hide the PFC or DSCP lines under it from the gate
            verdict = Verdict("unread", j.area(flat) or OTHER)
        elif parent is not None and parent.status != "understood":
            verdict = parent  # the lines under a refused line go with it (parse/domains.py)
        elif line.no in refused:
            verdict = Verdict("refused", "")
        else:
            verdict = j.line(flat, readers)
            if verdict.status == "unread" and parent is not None:
                # a line under a block that is read: its own area or words, else the block's
                section = j.named_area(flat) or keyword_section(flat) or parent.label
                verdict = Verdict("unread", section)
        stack.append((indent, verdict))
        yield line.no, flat, verdict


def tally_of(walked: Iterable[tuple[int, str, Verdict]]) -> Tally:
    understood = refused = 0
    kinds: dict[str, int] = {}
    unread: list[tuple[int, str]] = []
    for n, (_, _, verdict) in enumerate(walked):
        if verdict.status == "understood":
            understood += 1
        elif verdict.status == "unmanaged":
            kinds[verdict.label] = kinds.get(verdict.label, 0) + 1
        elif verdict.status == "refused":
            refused += 1
        else:
            unread.append((n, verdict.label))
    return Tally(understood, refused, tuple(kinds.items()), tuple(_lifted(unread)))


def _lifted(unread: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """An unread header nothing places takes the first lossless section of the lines under it
    (a misspelt 'interface' or 'dcb pfc' header is as unread as the PFC lines it opens)."""
    if not unread or unread[0] != (0, OTHER):
        return unread
    below = next((label for _, label in unread[1:] if label in LOSSLESS_SECTIONS), None)
    return unread if below is None else [(0, below), *unread[1:]]
