"""Interface ranges: a block whose lines apply to every port of the range its header names
(vendors/<vendor>.yaml ``parse.interface_range``; Comware 'interface range' [CMW-RANGE]).

The accounting and the grammar's range checks see the range block as printed (its lines are
read once, where they are); the templates read it as one block per port of the range, with the
range's lines under each port's name, so that a port configured through a range has the settings
the switch gives it. A port's own block and the range's blocks for it merge as any two blocks of
one interface do (ports.merge_interfaces).
"""

from __future__ import annotations

import re
from functools import cache

from roce_cfg.parse.blocks import Block
from roce_cfg.parse.context import Unread
from roce_cfg.parse.names import Name, Namer
from roce_cfg.parse.text import Line
from roce_cfg.parse.values import port_number
from roce_cfg.platforms.parse_spec import RangeSpec

# ports one range may name: a switch has at most a few hundred; a hostile span is refused
MAX_PORTS = 4096
_LAST = re.compile(r"^(?P<head>.*?)(?P<n>\d+)$")


@cache
def _header(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


def is_range(spec: RangeSpec | None, header: str) -> bool:
    """Whether a block's first line opens an interface range."""
    return spec is not None and _header(spec.header).match(header) is not None


def expand(
    blocks: list[Block], spec: RangeSpec | None, namer: Namer
) -> tuple[list[Block], list[Unread]]:
    """``blocks`` with each range block replaced by one block per port it names (none for a
    range line with no lines under it), and the range lines that name no port range."""
    if spec is None:
        return blocks, []
    out: list[Block] = []
    unread: list[Unread] = []
    for block in blocks:
        m = _header(spec.header).match(block.header.text)
        if m is None:
            out.append(block)
            continue
        if not block.body:
            continue  # a saved range's name and members: it sets nothing itself
        ports, why = _ports(m["ports"] or "", spec.to, namer)
        if why:
            unread.append(Unread(block.header.no, block.header.text, why))
            continue
        head = block.header.no
        out.extend(Block(Line(head, f"interface {p}"), block.body, block.indent) for p in ports)
    return out, unread


def _ports(text: str, to: str, namer: Namer) -> tuple[list[str], str]:
    """The ports a range names ('HundredGigE1/0/1 to HundredGigE1/0/8 FortyGigE1/0/53'), or
    why it names none that can be read."""
    words = _names(text.split())
    if not words:
        return [], "an interface range naming no interface (a range saved before: not read)"
    out: list[str] = []
    i = 0
    while i < len(words):
        first = namer.name(words[i])
        if i + 2 < len(words) and words[i + 1] == to:
            span, why = _span(first, namer.name(words[i + 2]))
            if why:
                return [], why
            out.extend(span)
            i += 3
        else:
            if first.kind in ("other", "vlan", "loopback"):
                return [], f"'{words[i]}' is no port of a range"
            out.append(first.canonical)
            i += 1
        if len(out) > MAX_PORTS:
            return [], f"an interface range of more than {MAX_PORTS:,} ports"
    return out, ""


def _names(words: list[str]) -> list[str]:
    """Words with a type and its number printed apart ('HundredGigE 1/0/1') joined."""
    out: list[str] = []
    for word in words:
        if out and word[:1].isdigit() and out[-1].isalpha():
            out[-1] += word
        else:
            out.append(word)
    return out


def _span(first: Name, last: Name) -> tuple[list[str], str]:
    """The ports from ``first`` to ``last``: one type, numbers that differ in their last part."""
    a, b = _LAST.match(first.number), _LAST.match(last.number)
    prefix = first.canonical[: len(first.canonical) - len(first.number)]
    same_type = prefix == last.canonical[: len(last.canonical) - len(last.number)]
    if first.kind != "port" or a is None or b is None or not same_type or a["head"] != b["head"]:
        return [], f"'{first.canonical} to {last.canonical}' is no span of one port type"
    low, high = port_number(a["n"]), port_number(b["n"])
    if low < 0 or high < low or high - low >= MAX_PORTS:
        return [], f"'{first.canonical} to {last.canonical}' runs backwards or past {MAX_PORTS:,}"
    return [f"{prefix}{a['head']}{n}" for n in range(low, high + 1)], ""
