"""Top-level blocks of a config: a command at column 0 and the indented lines under it.

The parse templates read only the blocks whose first line the vendor profile knows
(``parse.known_blocks``); every other block is kept verbatim as opaque text, so nothing in the
file is silently dropped and later diffs can leave it alone.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from roce_cfg.parse.text import SEPARATOR, Line


@dataclass(slots=True)
class Block:
    header: Line
    # most blocks of a large config are a bare 'interface X': they share the empty body
    body: Sequence[Line] = ()
    indent: int = 0

    @property
    def lines(self) -> list[Line]:
        return [self.header, *self.body]

    @property
    def end(self) -> int:
        return (self.body[-1] if self.body else self.header).no


_NO_BLOCK = 1 << 62  # deeper than any line: the next line opens a block


def split(lines: list[Line]) -> list[Block]:
    """Blocks in file order. A line belongs to the block above it when it is indented deeper
    than that block's first line. Comware indents global commands one space under a '#' line,
    so those are blocks of their own, each sibling a new block."""
    blocks: list[Block] = []
    current = Block(Line(0, ""))  # a placeholder until the first header
    opened = _NO_BLOCK  # the indent of ``current``'s first line; deeper lines are its body
    body: list[Line] | None = None  # the body of ``current``, once it has one
    for line in lines:  # locals only: this loop sees every line of the file
        text = line.text
        head = text.lstrip(" ")
        indent = len(text) - len(head)
        # only a line whose first word starts with '#', '!' or '$' (or with other blank
        # characters) can be a separator: the regex is not tried on 100,000 port headers
        first = head[:1]
        if (first in "#!$" or first.isspace()) and SEPARATOR.match(text):
            if indent == 0:
                opened = _NO_BLOCK
            continue
        if indent <= opened:
            # a line at column 0 is its own header: no second Line (a config of 100,000 ports
            # has 100,000 of them)
            current = Block(line if head is text else Line(line.no, head), indent=indent)
            blocks.append(current)
            opened, body = indent, None
        elif body is not None:
            body.append(line)
        else:
            current.body = body = [line]
    return blocks


@dataclass(frozen=True, slots=True)
class Sorted:
    known: list[Block]
    opaque: list[Block]
    layout: list[Block]


def classify(
    blocks: list[Block], known: list[re.Pattern[str]], layout: list[re.Pattern[str]]
) -> Sorted:
    out = Sorted([], [], [])
    # one alternation per kind: one regex call a block, not one per pattern
    is_layout, is_known = _any(layout), _any(known)
    for block in blocks:
        head = block.header.text
        if not block.body and is_layout(head):
            out.layout.append(block)
        elif is_known(head):
            out.known.append(block)
        else:
            out.opaque.append(block)
    return out


def _any(patterns: list[re.Pattern[str]]) -> Callable[[str], object]:
    if not patterns:
        return lambda text: None
    return re.compile("|".join(f"(?:{p.pattern})" for p in patterns)).match
