"""Where things are in the original file: each block's and interface's lines, for findings that
point at a line and for the values the normaliser refuses (a word's first line in its scope);
which port a block's lines belong to, for the accounting.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from roce_cfg.parse import ranges
from roce_cfg.parse.blocks import Block
from roce_cfg.parse.context import LISTED, Locate
from roce_cfg.parse.names import Name, Namer
from roce_cfg.parse.text import Line
from roce_cfg.platforms.parse_spec import RangeSpec


class SourceMap:
    """Where things are in the original file, for findings that point at a line.

    The per-interface index is built on its first use: a parse that no finding or refused
    value asks about (most) never holds it (100,000 ports: 12 MB at the parse's peak).
    """

    __slots__ = ("_interfaces", "_namer", "blocks")

    def __init__(self, blocks: list[Block], namer: Namer) -> None:
        self.blocks = blocks
        self._namer = namer
        self._interfaces: dict[str, list[Block]] | None = None

    @property
    def interfaces(self) -> dict[str, list[Block]]:
        """Interface name -> its blocks, and the 'interface X' lines inside other blocks."""
        if self._interfaces is None:
            self._interfaces = _interface_index(self.blocks, self._namer)
        return self._interfaces

    def line_of(self, header: str, child: str | None = None) -> int | None:
        """First line of the block whose header starts with ``header``, or of its first child
        line starting with ``child``."""
        for block in self.blocks:
            if block.header.text.startswith(header):
                hit = self._child(block, child)
                if hit is not None:
                    return hit
        return None

    def interface_line(self, name: str, child: str | None = None) -> int | None:
        for block in self.interfaces.get(name, []):
            hit = self._child(block, child)
            if hit is not None:
                return hit
        return None

    def interface_match(self, name: str, pattern: str) -> int | None:
        """First line of the interface's blocks that matches ``pattern`` (after indentation)."""
        rx = re.compile(pattern)
        for block in self.interfaces.get(name, []):
            for line in block.body:
                if rx.match(line.text.lstrip()):
                    return line.no
        return None

    @staticmethod
    def _child(block: Block, child: str | None) -> int | None:
        if child is None:
            return block.header.no
        for line in block.body:
            if line.text.lstrip().startswith(child):
                return line.no
        return None


def interface_of(block: Block, namer: Namer) -> Name | None:
    """The interface a block's header opens, if it opens one."""
    return _interface_named(block.header.text, namer)


def _interface_index(blocks: list[Block], namer: Namer) -> dict[str, list[Block]]:
    """Each modelled interface's blocks, with the 'interface X' lines nested in other blocks
    (ZXROS lists its ports again under 'switchvlan-configuration'), in file order."""
    index: dict[str, list[Block]] = {}
    for block in blocks:
        name = interface_of(block, namer)
        if name is not None:
            if name.kind == "other":
                continue  # opaque: neither it nor its lines are indexed
            index.setdefault(name.canonical, []).append(block)
        for child in block.body:
            stripped = child.text.lstrip()
            if stripped.startswith("interface "):
                name = namer.name(stripped[len("interface ") :])
                index.setdefault(name.canonical, []).append(Block(Line(child.no, stripped)))
    return index


def header_port(namer: Namer, ranged: RangeSpec | None = None) -> Callable[[str], str | None]:
    def port_of(header: str) -> str | None:
        if ranges.is_range(ranged, header):
            return None  # a range's lines are every port's of the range: switch-wide
        name = _interface_named(header, namer)
        if name is not None and name.kind == "other":
            # a word after the name ('interface cdgei-0/1/0/1 zqx'): the block is not read,
            # and its lines are the port's that the words before name (ZXROS lists that port
            # again under switchvlan-configuration: the gate must know its settings are unread)
            words = header.split()[1:]
            named = (namer.name(" ".join(words[:n])) for n in range(len(words) - 1, 0, -1))
            name = next((n for n in named if n.kind != "other"), name)
        return name.canonical if name is not None else None

    return port_of


def _interface_named(head: str, namer: Namer) -> Name | None:
    """The interface a header line opens, if it opens one."""
    return namer.name(head[len("interface ") :]) if head.startswith("interface ") else None


_LIST_PIECES = re.compile(r"[,-]")
_TRAILING = re.compile(r"[A-Za-z](\d+)$")


def locator(source: SourceMap, anchors: Mapping[str, str]) -> Locate:
    """Where a value the normaliser refuses sits: in its scope (an interface's blocks, or for
    '@area' the blocks of the vendor's anchor for that area), else the first line of the
    config holding that word (an index built on the first such question)."""
    index: dict[str, tuple[int, str]] = {}
    # per scope, each word's first line there: built on the scope's first question, so that a
    # block of thousands of refused lines is not scanned once per line
    by_scope: dict[str, dict[str, tuple[int, str]]] = {}

    def scoped(scope: str | None) -> list[Block]:
        if scope and scope.startswith("@"):
            head = anchors.get(scope[1:])
            return [b for b in source.blocks if head and b.header.text.startswith(head)]
        return source.interfaces.get(scope or "", [])

    def locate(word: str, scope: str | None) -> tuple[int, str] | None:
        if word.startswith(LISTED):  # a whole list: the line it ends
            listed = word[len(LISTED) :]
            return _phrase(listed, scoped(scope), True) or _phrase(listed, source.blocks, True)
        if " " in word:  # words of a list ('1 to 3 to 7'): the first line holding them
            return _phrase(word, scoped(scope)) or _phrase(word, source.blocks)
        words = by_scope.get(scope or "")
        if words is None:
            words = by_scope[scope or ""] = {}
            for block in scoped(scope):
                for line in block.lines:
                    for w in _words(line.text):
                        words.setdefault(w, (line.no, line.text.strip()))
        if word in words:
            return words[word]
        if not index:
            for block in source.blocks:
                for line in block.lines:
                    for w in _words(line.text):
                        index.setdefault(w, (line.no, line.text.strip()))
        return index.get(word)

    return locate


def _phrase(words: str, blocks: list[Block], ending: bool = False) -> tuple[int, str] | None:
    tail = r"\s*$" if ending else r"(?!\S)"
    found = re.compile(r"(?<!\S)" + r"\s+".join(map(re.escape, words.split())) + tail)
    for block in blocks:
        for line in block.lines:
            if found.search(line.text):
                return line.no, line.text.strip()
    return None


def _words(text: str) -> list[str]:
    """A line's words, the numbers of a list word ('101-99999,200') and the number ending a
    name ('Vlanif99'); not the numbers inside an address ('10.0.0.5' holds no '0')."""
    out: list[str] = []
    for word in text.split():
        out.append(word)
        out.extend(p for p in _LIST_PIECES.split(word) if p.isdigit())
        m = _TRAILING.search(word)
        if m:
            out.append(m[1])
    return out
