"""Account for every line of a running-config: understood, known-unmanaged or unread.

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
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from roce_cfg.grammar import Grammar, load_grammar, pattern_blind, shape
from roce_cfg.parse.blocks import Block
from roce_cfg.parse.templates import template_files, template_text
from roce_cfg.redact import redact
from roce_cfg.vendor import Vendor

# A line that bears on losslessness by its words though no grammar entry places it (below)
LOSSLESS = "lossless"
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
        "loopback",
        LOSSLESS,
    }
)
MAX_LISTED = 1_000  # unread lines listed per file (all are counted)

# Words that mark a line as bearing on losslessness where neither a command nor an area of the
# vendor's grammar places it (a command no grammar knows, a misspelt one, another release's
# form): in 'other' such a line would leave the gate blind to a setting that may change what is
# lossless. None of these words says for sure what the line sets, so such a line is unread in
# the section LOSSLESS, which leaves every section unread where it is (roce_cfg/gate.py). Short
# words must stand alone; long ones are found inside a word too (a typo glued to a keyword).
_LONG_WORDS = (
    "deadlock", "watchdog", "priority-flow-control", "no-drop", "nodrop", "lossless", "wred",
    "drop-profile", "buffer", "headroom", "strict-priority", "priority-queue", "scheduler",
    "dscp", "dot1p", "diffserv", "map-table", "classifier", "behavior", "traffic-policy",
    "service-policy", "policy-map", "class-map", "remark", "jumboframe", "link-aggregation",
    "eth-trunk", "smartgroup", "aggregateport", "lacp", "m-lag", "drni", "dfs-group",
    "peer-link", "route-static",
)  # fmt: skip
_SHORT_WORDS = (
    "pfc", "dcb", "ecn", "red", "xoff", "xon", "wrr", "wfq", "drr", "dwrr", "pq", "ets",
    "queue", "cos", "trust", "phb", "qos", "car", "mtu", "jumbo", "port-group", "mlag", "bgp",
)  # fmt: skip
_KEYWORD = re.compile(
    "|".join([*map(re.escape, _LONG_WORDS), *(rf"\b{re.escape(w)}\b" for w in _SHORT_WORDS)]),
    re.IGNORECASE,
)


def keyword_section(flat: str) -> str | None:
    """LOSSLESS for a line whose words name a lossless setting, for a line no grammar entry
    places; None for any other.

    >>> keyword_section("zqxqos map-table dscp-dot1p")
    'lossless'
    >>> keyword_section("snmp-agent sys-info version v3") is None
    True
    """
    return LOSSLESS if _KEYWORD.search(flat) else None


OTHER = "other"


class _M(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class AccountedLine(_M):
    """A line roce-cfg did not read, with the section it belongs to."""

    line: int
    section: str
    text: str


class UnreadFact(_M):
    """Lines not read in one section that bears on losslessness, at one scope: a port (the lines
    of its block) or the whole switch (``port`` None: a global line, a profile, a range). The
    evidence gate (roce_cfg/gate.py) makes every rule that reads this section there say 'cannot
    verify' instead of concluding from the value the line would have set."""

    section: str
    port: str | None = None
    lines: tuple[int, ...] = ()  # the first MAX_FACT_LINES, in file order
    count: int = 0


MAX_FACT_LINES = 20


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
    # every unread line of a lossless section, by section and port (none left out: the gate
    # must know each scope that was not read, however many lines the file has)
    unread_facts: tuple[UnreadFact, ...] = ()

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
    template_lines: tuple[str, ...] = ()  # the templates' line regexes, one by one

    def __post_init__(self) -> None:
        # the root view first: a top-level 'interface X' is a port, though a view under it
        # (ZXROS switchvlan) has a command of the same words
        views = {v for c in self.grammar.commands for v in c.views}
        self._views = sorted(views, key=lambda v: (v != self.grammar.root, v))
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
        # ('ipv6 address ...' tells digits apart in its first word only: see pattern_blind)
        patterns = self.template_lines or (self.templates.pattern,)
        self._by_shape = all(
            pattern_blind(p, past_first_word=True)
            for p in [*patterns, *(p.pattern for p, _ in (*self.unmanaged, *self.areas))]
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
        if parent is not None and parent.label == OTHER and parent.status == "unread":
            # under a block nothing places, a line's own command or words may: an unknown
            # header must not hide the PFC or DSCP lines under it from the gate
            verdict = _Verdict("unread", j.area(flat) or OTHER)
        elif parent is not None and parent.status != "understood":
            verdict = parent  # the lines under a refused line go with it (parse/domains.py)
        elif line.no in refused:
            verdict = _Verdict("refused", "")
        else:
            verdict = j.line(flat, readers)
            if verdict.status == "unread" and parent is not None:
                # a line under a block that is read: its own area or words, else the block's
                section = j.named_area(flat) or keyword_section(flat) or parent.label
                verdict = _Verdict("unread", section)
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
    return _Tally(understood, refused, tuple(kinds.items()), tuple(_lifted(unread)))


def _lifted(unread: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """An unread header nothing places takes the first lossless section of the lines under it
    (a misspelt 'interface' or 'dcb pfc' header is as unread as the PFC lines it opens)."""
    if not unread or unread[0] != (0, OTHER):
        return unread
    below = next((label for _, label in unread[1:] if label in LOSSLESS_SECTIONS), None)
    return unread if below is None else [(0, below), *unread[1:]]


# The port a block's lines belong to, from its header's text ('interface X' -> X's canonical
# name); None for a block that is no port's (a global command, a profile, a range).
PortOf = Callable[[str], str | None]


def _scopes(block: Block, port_of: PortOf) -> dict[int, str | None]:
    """The port each line of ``block`` belongs to: the block's own, or that of an 'interface'
    line nested in it (ZXROS lists its ports again under 'switchvlan-configuration')."""
    out: dict[int, str | None] = {}
    own = port_of(block.header.text.lstrip())
    nested: tuple[int, str | None] | None = None  # (indent, port) of an open nested interface
    for line in block.lines:
        head = line.text.lstrip(" ")
        indent = len(line.text) - len(head)
        if nested is not None and indent <= nested[0]:
            nested = None
        if line is not block.header and head.startswith("interface "):
            nested = (indent, port_of(head))
        out[line.no] = nested[1] if nested is not None else own
    return out


@dataclass
class _Sum:
    """``account``'s counts, as its blocks are walked or tallied."""

    vendor: str
    understood: int
    port_of: PortOf
    refused: int = 0
    kinds: Counter[str] = field(default_factory=Counter)
    sections: Counter[str] = field(default_factory=Counter)
    listed: list[AccountedLine] = field(default_factory=list)
    facts: dict[tuple[str, str | None], list[int]] = field(default_factory=dict)
    fact_counts: Counter[tuple[str, str | None]] = field(default_factory=Counter)

    def walked(self, walk: Iterable[tuple[int, str, _Verdict]], block: Block) -> None:
        self.tallied(_tally(walk), block)

    def tallied(self, tally: _Tally, block: Block) -> None:
        self.understood += tally.understood
        self.refused += tally.refused
        for kind, n in tally.unmanaged:
            self.kinds[kind] += n
        if not tally.unread:
            return
        lines, scopes = block.lines, _scopes(block, self.port_of)
        for index, section in tally.unread:
            line = lines[index]
            self.unread(line.no, " ".join(line.text.split()), section, scopes.get(line.no))

    def unread(self, no: int, text: str, section: str, port: str | None) -> None:
        self.sections[section] += 1
        if len(self.listed) < MAX_LISTED:
            shown = redact(text, self.vendor)
            self.listed.append(AccountedLine(line=no, section=section, text=shown))
        if section in LOSSLESS_SECTIONS:
            key = (section, port)
            self.fact_counts[key] += 1
            kept = self.facts.setdefault(key, [])
            if len(kept) < MAX_FACT_LINES:
                kept.append(no)

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
            unread_facts=tuple(
                UnreadFact(section=s, port=p, lines=tuple(n), count=self.fact_counts[(s, p)])
                for (s, p), n in self.facts.items()
            ),
        )


def _no_port(header: str) -> str | None:
    return None


def account(
    vendor: Vendor,
    fed: list[Block],
    opaque: list[Block],
    layout: int,
    refused: Iterable[int],
    overlay: Path | None = None,
    port_of: PortOf = _no_port,
) -> Accounting:
    """Count every line of the config's blocks; ``layout`` lines (a closing 'return') are read.
    ``port_of`` names the port of a block's header, for the unread facts' scopes."""
    j = judge(vendor, overlay)
    bad = set(refused)
    total = _Sum(vendor.value, understood=layout, port_of=port_of)
    walks = [(b, True) for b in fed] + [(b, False) for b in opaque]
    for block, is_fed in sorted(walks, key=lambda bf: bf[0].header.no):
        tally = j.tally(block, is_fed, bad)
        if tally is None:
            total.walked(_walk(block, is_fed, bad, j), block)
        else:
            total.tallied(tally, block)
    return total.accounting()


def verdicts(
    vendor: Vendor, blocks: Iterable[tuple[Block, bool]], overlay: Path | None = None
) -> dict[int, tuple[str, str]]:
    """Each line's status and section (``account`` line by line, for tests and tools):
    ``blocks`` are (block, whether the templates read it)."""
    j = judge(vendor, overlay)
    return {
        no: (verdict.status, verdict.label)
        for block, fed in blocks
        for no, _, verdict in _walk(block, fed, set(), j)
    }


def read_lines(
    vendor: Vendor,
    blocks: Iterable[tuple[Block, bool]],
    port_of: PortOf,
    overlay: Path | None = None,
) -> dict[tuple[str, str | None], tuple[int, ...]]:
    """The lines read in each section at each scope (a port, or None: switch-wide), for where a
    fact a finding stands on came from; ``blocks`` are (block, whether the templates read it)."""
    j = judge(vendor, overlay)
    out: dict[tuple[str, str | None], list[int]] = {}
    for block, fed in blocks:
        scopes: dict[int, str | None] | None = None
        for no, _, verdict in _walk(block, fed, set(), j):
            if verdict.status == "understood":
                scopes = scopes if scopes is not None else _scopes(block, port_of)
                out.setdefault((verdict.label, scopes.get(no)), []).append(no)
    return {key: tuple(lines) for key, lines in out.items()}


UNKNOWN_SECTION = "unknown"  # a refused line whose place is not known: every section there


def refused_facts(
    refused: Iterable[tuple[int | None, str]],
    blocks: list[Block],
    j: Judge,
    port_of: PortOf,
    more: int = 0,
) -> list[UnreadFact]:
    """The unread facts of lines a reader refused after the accounting took them (a value out of
    its domain, a word where a number belongs), each at its block's port and its own section
    (else its block's). A refused line whose place is not known, or ``more`` lines past the
    listed ones, leave every section of the switch unread."""
    starts = [b.header.no for b in blocks]
    facts: dict[tuple[str, str | None], list[int]] = {}
    for no, text in refused:
        block = _block_at(blocks, starts, no) if no else None
        if block is None:
            facts.setdefault((UNKNOWN_SECTION, None), [])
            continue
        flat = " ".join(text.split())
        section = j.area(flat) or j.area(" ".join(block.header.text.split())) or UNKNOWN_SECTION
        if section in LOSSLESS_SECTIONS or section == UNKNOWN_SECTION:
            assert no is not None
            facts.setdefault((section, _scopes(block, port_of).get(no)), []).append(no)
    if more:
        facts.setdefault((UNKNOWN_SECTION, None), [])
    return [
        UnreadFact(section=s, port=p, lines=tuple(n[:MAX_FACT_LINES]), count=max(len(n), 1))
        for (s, p), n in facts.items()
    ]


def _block_at(blocks: list[Block], starts: list[int], no: int) -> Block | None:
    at = bisect_right(starts, no) - 1
    return blocks[at] if at >= 0 and blocks[at].end >= no else None


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
