"""Account for every line of a running-config: understood, known-unmanaged or unread (issue 26).

A line is **understood** when it sits in a block the parse templates are fed and a reader accepts
it: a line of one of the vendor's ttp parse templates (``templates/<vendor>/parse/*.ttp``) or a
command of its grammar (``vendors/<vendor>.grammar.yaml``, the catalogue of what roce-cfg emits
and reads). It is **known-unmanaged** when the grammar's ``unmanaged`` catalogue names it (AAA,
SNMP, NTP, logging, users, management interfaces: roce-cfg leaves these alone on purpose, and
says where each entry's command comes from). Anything else is **unread**, counted per section
(the section of the grammar command that opens its block, else the grammar's ``areas``), so
that lint can warn where an unread line may change what is lossless.

The lines under a line take its status: the body of an unmanaged ``aaa`` block is unmanaged, the
body of an unread ``interface Eth-Trunk1`` is unread (in the section 'aggregates').
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from roce_cfg.grammar import Grammar, load_grammar, pattern_blind, shape
from roce_cfg.parse.blocks import Block
from roce_cfg.parse.templates import template_files, template_text
from roce_cfg.redact import redact
from roce_cfg.vendor import Vendor

# Sections where a line roce-cfg does not read may change what is lossless: the QoS map, PFC,
# ECN, the watchdog, buffers, scheduling, MTU, interfaces and aggregates, M-LAG, BGP and statics.
LOSSLESS_SECTIONS = frozenset(
    {
        "qos_maps",
        "pfc",
        "ecn",
        "watchdog",
        "buffers",
        "scheduling",
        "mtu",
        "interfaces",
        "vlan_interfaces",
        "aggregates",
        "mlag",
        "bgp",
        "static_routes",
    }
)
MAX_LISTED = 1_000  # unread lines listed per file (all are counted)
OTHER = "other"


class _M(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class AccountedLine(_M):
    """A line roce-cfg did not read, with the section it belongs to."""

    line: int
    section: str
    text: str


class Accounting(_M):
    """What became of each line of one config (blank lines and separators are not counted)."""

    lines: int = 0
    understood: int = 0
    unmanaged: int = 0
    unread: int = 0
    out_of_domain: int = 0  # not read for a value outside its range (the parse's 'unread', RC119)
    unmanaged_by_kind: dict[str, int] = {}
    unread_by_section: dict[str, int] = {}
    unread_lines: tuple[AccountedLine, ...] = ()  # the first MAX_LISTED

    def all_read(self) -> bool:
        return self.understood == self.lines

    def lossless_unread(self) -> dict[str, int]:
        """Unread lines per section that bears on losslessness."""
        return {s: n for s, n in self.unread_by_section.items() if s in LOSSLESS_SECTIONS}


@dataclass(frozen=True)
class _Verdict:
    status: str  # 'understood' | 'unmanaged' | 'unread' | 'refused' (a value out of its domain)
    label: str  # section (understood, unread) or kind (unmanaged)


_VAR = re.compile(r"\{\{(.*?)\}\}")
_COMMENT = re.compile(r"<!--.*?-->", re.S)
_TAG = re.compile(r"^\s*</?[A-Za-z_][^>]*>\s*$")
_KINDS = {
    "ORPHRASE": r"\S+(?: \S+)*",
    "PHRASE": r"\S+(?: \S+)+",
    "ROW": r"\S+(?: \S+)+",
    "DIGIT": r"\d+",
    "_line_": r".*",
}


def _var_regex(spec: str) -> str | None:
    """The text one ``{{ var | mods }}`` matches; None when it matches no text (``set``, a bare
    ``_start_``)."""
    parts = [p.strip() for p in spec.split("|")]
    mods = parts[1:] if parts and not parts[0].startswith("_") else parts
    if any(m.startswith("set(") for m in mods) or parts == ["_start_"]:
        return None
    for m in mods:
        found = re.fullmatch(r"""re\((["'])(.*)\1\)""", m)
        if found:
            return f"(?:{found[2]})"
        if m in _KINDS:
            return _KINDS[m]
    return r"\S+"


def _line_regex(line: str) -> str:
    """One template line as a regex over the line with its spaces collapsed."""
    out, pos = "", 0
    for m in _VAR.finditer(line):
        out += re.escape(line[pos : m.start()]) + (_var_regex(m[1]) or "")
        pos = m.end()
    out += re.escape(line[pos:])
    # a variable that matches no text ('{{ x | set(True) }}') leaves its spaces behind
    return re.sub(r"(?:\\ )+", r"\\ ", out).removeprefix("\\ ").removesuffix("\\ ")


def template_lines(texts: Iterable[str]) -> list[str]:
    """The line regexes of ttp templates (each matches a whole line, spaces collapsed)."""
    out: list[str] = []
    for text in texts:
        for raw in _COMMENT.sub("", text).splitlines():
            if raw.strip() and not _TAG.match(raw):
                out.append(_line_regex(" ".join(raw.split())))
    return out


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
class _Tally:
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
    tallies: dict[tuple[str, ...], _Tally] = field(default_factory=dict)


@dataclass
class Judge:
    """Per vendor (and overlay): which reader accepts a line, with the answers memoised."""

    grammar: Grammar
    templates: re.Pattern[str]
    unmanaged: list[tuple[re.Pattern[str], str]]
    areas: list[tuple[re.Pattern[str], str]]

    def __post_init__(self) -> None:
        self._views = sorted({v for c in self.grammar.commands for v in c.views})
        self._memo: dict[tuple[str, str], _Verdict] = {}
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
        self._by_shape = all(
            pattern_blind(p.pattern)
            for p in [self.templates, *(p for p, _ in (*self.unmanaged, *self.areas))]
        )
        self._blocks: dict[tuple[bool, bool, int, bytes], _OfShape] = {}
        self._chars = 0  # of the shapes and texts in _blocks
        self._line_shapes: dict[tuple[bytes, str], _Verdict | None] = {}

    def tally(self, block: Block, fed: bool, refused: set[int]) -> _Tally | None:
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
            hit = _tally(_walk(block, fed, refused, self))
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

    def line(self, flat: str, readers: str) -> _Verdict:
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

    def _by_line_shape(self, flat: str, readers: str) -> _Verdict:
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

    def _judge(self, flat: str, readers: str) -> _Verdict:
        section = self._command_section(flat, one_line=readers == "grammar")
        if readers == "none" or (readers == "grammar" and section is None):
            section = None
        elif section is None and self.templates.fullmatch(flat):
            section = self.area(flat) or OTHER
        if section is not None:
            return _Verdict("understood", section)
        for pattern, kind in self.unmanaged:
            if pattern.match(flat):
                return _Verdict("unmanaged", kind)
        return _Verdict("unread", self.area(flat) or OTHER)

    def _command_section(self, flat: str, one_line: bool = False) -> str | None:
        first = flat.split(maxsplit=1)[0] if flat.strip() else ""
        for view, undo in self._tries.get(first, ()):
            cmd, _ = self.grammar.match(view, flat, undo)
            if cmd is not None and not (one_line and cmd.opens):
                return cmd.section
        return None

    def area(self, flat: str) -> str | None:
        """The section of a line: the grammar's ``areas`` first, else its command's section."""
        return self.named_area(flat) or self._command_section(flat)

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
    )


def _walk(
    block: Block, fed: bool, refused: set[int], j: Judge
) -> Iterator[tuple[int, str, _Verdict]]:
    """(line, text, verdict) for each line of a block; the lines under a line that is not
    understood take its verdict."""
    readers = "all" if fed else "grammar" if not block.body else "none"
    stack: list[tuple[int, _Verdict]] = []
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
        if parent is not None and parent.status != "understood":
            verdict = parent  # the lines under a refused line go with it (parse/domains.py)
        elif line.no in refused:
            verdict = _Verdict("refused", "")
        else:
            verdict = j.line(flat, readers)
            if verdict.status == "unread" and parent is not None:
                # a line under a block that is read: its own area, else the block's section
                verdict = _Verdict("unread", j.named_area(flat) or parent.label)
        stack.append((indent, verdict))
        yield line.no, flat, verdict


def _tally(walked: Iterable[tuple[int, str, _Verdict]]) -> _Tally:
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
    return _Tally(understood, refused, tuple(kinds.items()), tuple(unread))


@dataclass
class _Sum:
    """``account``'s counts, as its blocks are walked or tallied."""

    vendor: str
    understood: int
    refused: int = 0
    kinds: Counter[str] = field(default_factory=Counter)
    sections: Counter[str] = field(default_factory=Counter)
    listed: list[AccountedLine] = field(default_factory=list)

    def walked(self, walk: Iterable[tuple[int, str, _Verdict]]) -> None:
        for no, text, verdict in walk:
            if verdict.status == "understood":
                self.understood += 1
            elif verdict.status == "unmanaged":
                self.kinds[verdict.label] += 1
            elif verdict.status == "refused":
                self.refused += 1
            else:
                self.unread(no, text, verdict.label)

    def tallied(self, tally: _Tally, block: Block) -> None:
        self.understood += tally.understood
        self.refused += tally.refused
        for kind, n in tally.unmanaged:
            self.kinds[kind] += n
        lines = block.lines if tally.unread else []
        for index, section in tally.unread:
            line = lines[index]
            self.unread(line.no, " ".join(line.text.split()), section)

    def unread(self, no: int, text: str, section: str) -> None:
        self.sections[section] += 1
        if len(self.listed) < MAX_LISTED:
            shown = redact(text, self.vendor)
            self.listed.append(AccountedLine(line=no, section=section, text=shown))

    def accounting(self) -> Accounting:
        unmanaged, unread = sum(self.kinds.values()), sum(self.sections.values())
        return Accounting(
            lines=self.understood + unmanaged + unread + self.refused,
            understood=self.understood,
            unmanaged=unmanaged,
            unread=unread,
            out_of_domain=self.refused,
            unmanaged_by_kind=dict(sorted(self.kinds.items())),
            unread_by_section=dict(sorted(self.sections.items())),
            unread_lines=tuple(self.listed),
        )


def account(
    vendor: Vendor,
    fed: list[Block],
    opaque: list[Block],
    layout: int,
    refused: Iterable[int],
    overlay: Path | None = None,
) -> Accounting:
    """Count every line of the config's blocks; ``layout`` lines (a closing 'return') are read."""
    j = judge(vendor, overlay)
    bad = set(refused)
    total = _Sum(vendor.value, understood=layout)
    walks = [(b, True) for b in fed] + [(b, False) for b in opaque]
    for block, is_fed in sorted(walks, key=lambda bf: bf[0].header.no):
        tally = j.tally(block, is_fed, bad)
        if tally is None:
            total.walked(_walk(block, is_fed, bad, j))
        else:
            total.tallied(tally, block)
    return total.accounting()


def describe(a: Accounting, listed: bool) -> list[str]:
    """For 'roce-cfg parse' on stderr: the counts, and with ``listed`` the unread lines by
    section (lossless sections first)."""
    out = [
        f"{a.lines} lines: {a.understood} read, {a.unmanaged} known-unmanaged, {a.unread} not read"
        + (f", {a.out_of_domain} out of range" if a.out_of_domain else "")
    ]
    if not listed:
        return out
    order = sorted(a.unread_by_section, key=lambda s: (s not in LOSSLESS_SECTIONS, s))
    for section in order:
        mark = " (bears on losslessness)" if section in LOSSLESS_SECTIONS else ""
        out.append(f"  not read, {section}{mark}: {a.unread_by_section[section]}")
        out.extend(f"    {u.line}: {u.text}" for u in a.unread_lines if u.section == section)
    if a.unread > len(a.unread_lines):
        out.append(f"  ({a.unread - len(a.unread_lines):,} more not listed)")
    return out
