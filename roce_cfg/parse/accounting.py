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

from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from roce_cfg.parse.blocks import Block
from roce_cfg.parse.judge import Judge, Tally, Verdict, judge, tally_of, walk_block
from roce_cfg.parse.lossless import LOSSLESS_SECTIONS
from roce_cfg.redact import redact
from roce_cfg.vendor import Vendor

MAX_LISTED = 1_000  # unread lines listed per file (all are counted)


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

    def walked(self, walk: Iterable[tuple[int, str, Verdict]], block: Block) -> None:
        self.tallied(tally_of(walk), block)

    def tallied(self, tally: Tally, block: Block) -> None:
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
            total.walked(walk_block(block, is_fed, bad, j), block)
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
        for no, _, verdict in walk_block(block, fed, set(), j)
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
        for no, _, verdict in walk_block(block, fed, set(), j):
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
