"""Lines whose values are outside the range the vendor grammar gives them, found before the
templates read anything.

``vendors/<vendor>.grammar.yaml`` states the range of most parameters roce-cfg reads (VLAN
1-4094 in ``vlan batch``, priority 0-7 in ``priority-flow-control dot1p``, ASN 1-4294967295 in
``bgp``). A running-config line whose value is outside that range is not one a switch printed:
it is not read (as if absent), and it is reported on its line (``unread`` in the parse output,
RC119 in lint). A refused line takes the lines under it along (``vlan 4095`` and its ``name``),
so nothing of it is attributed to the block before. What the grammar does not bound is bounded
by the field's domain in the normaliser (model/numbers.py).
"""

from __future__ import annotations

from roce_cfg.grammar import Grammar, rule_kind
from roce_cfg.parse.blocks import Block
from roce_cfg.parse.context import Unread

_PREFIX = "out of range: "


def refused(grammar: Grammar, blocks: list[Block]) -> dict[int, str]:
    """Line number -> why, for every line of ``blocks`` a command of its view matches with a
    value outside the range the grammar gives (for any model: the tightest per-model ranges
    are lint's to apply once the model is known)."""
    # Only blocks holding a command with a ranged parameter need the walk (a port block of
    # nothing but its header does not): blocks are top level, so each is walked on its own.
    ranged = grammar.ranged_words()
    checked_blocks = [
        block
        for block in blocks
        # the header first: most blocks are ports, opened by a ranged word
        if _first(block.header.text) in ranged
        or any(_first(ln.text) in ranged for ln in block.body)
    ]
    checked = grammar.check_blocks(
        ("\n".join([line.text for line in block.lines]) for block in checked_blocks), ""
    )
    if not checked.violations:
        return {}
    lines = [line for block in checked_blocks for line in block.lines]
    out: dict[int, str] = {}
    for v in checked.violations:
        if rule_kind(v.rule) == "range":
            # 'out of range: <why> (<command>)'; a command's name may hold parentheses
            why, _, command = v.rule.removeprefix(_PREFIX).partition(" (")
            out[lines[v.line_no - 1].no] = f"{command[:-1]}: {why}" if command else v.rule
    return out


def _first(text: str) -> str:
    words = text.split(maxsplit=1)
    return words[0] if words else ""


def without(blocks: list[Block], bad: dict[int, str]) -> tuple[list[Block], list[Unread]]:
    """``blocks`` less every refused line and the lines under it, and the refused lines."""
    if not bad:
        return blocks, []
    kept: list[Block] = []
    unread: list[Unread] = []
    for block in blocks:
        if block.header.no in bad:
            unread.append(Unread(block.header.no, block.header.text, bad[block.header.no]))
            continue
        if not any(line.no in bad for line in block.body):
            kept.append(block)
            continue
        body, cut = [], -1  # cut: indent of the refused line whose children are being dropped
        for line in block.body:
            if cut >= 0 and line.indent > cut:
                continue
            cut = -1
            if line.no in bad:
                unread.append(Unread(line.no, line.text.strip(), bad[line.no]))
                cut = line.indent
                continue
            body.append(line)
        kept.append(Block(block.header, body, block.indent))
    return kept, unread
