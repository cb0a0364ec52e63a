"""A config's text made ready for the templates: cleaned (pager residue, CRLF, wrapped lines, a
capture's prompts and what follows the config's closing line), attributed to a vendor, split into
blocks, the blocks roce-cfg does not model kept as text, the values outside the grammar's range
taken out as unread, interface ranges expanded, and the lines the templates read joined.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from roce_cfg.errors import InputError
from roce_cfg.grammar import load_grammar
from roce_cfg.parse import ranges
from roce_cfg.parse.blocks import Block, classify, split
from roce_cfg.parse.context import Unread
from roce_cfg.parse.detection import detect, patterns, without_prompts
from roce_cfg.parse.domains import refused, without
from roce_cfg.parse.names import Name, Namer
from roce_cfg.parse.source import SourceMap, interface_of
from roce_cfg.parse.text import Line, clean, fold_tails_redacted, unwrap_redacted
from roce_cfg.platforms.parse_spec import ParseSpec, RangeSpec
from roce_cfg.platforms.profile import (
    VendorProfile,
    load_profile,
    load_profiles,
)
from roce_cfg.vendor import Vendor


@dataclass
class Prepared:
    """A config cleaned, attributed to a vendor and split into blocks, ready for the templates."""

    text: str
    file: str
    vendor: Vendor
    vendor_from: Literal["detected", "given"]
    profile: VendorProfile
    namer: Namer
    source: SourceMap
    opaque: list[Block]
    ports: list[Name]
    feed: str
    unread: list[Unread] = field(default_factory=list)
    fed: list[Block] = field(default_factory=list)  # the blocks the templates read, for accounting
    layout: int = 0  # layout lines ('return'): read as the end of the config
    residue: int = 0  # lines after the closing line: a capture's output, not configuration


def prepare(
    text: str, *, file: str = "<text>", vendor: Vendor | None = None, overlay: Path | None = None
) -> Prepared:
    cleaned = clean(text)
    lines = without_prompts(cleaned, text)
    if not lines:
        raise InputError("no configuration lines in the file", file=file)
    vendor_from: Literal["detected", "given"] = "given"
    if vendor is None:
        vendor = detect(lines, load_profiles(overlay), file)
        vendor_from = "detected"
    profile = load_profile(vendor, overlay)
    session = _config_part(cleaned, lines, profile.parse)
    cut, lines = len(lines) - len(session), session
    _, known, layout = patterns(profile)
    lines = unwrap_redacted(lines, vendor.value, profile.parse.wrap_width, known + layout)
    whole = _complete(lines, profile, known, file)
    residue, lines = cut + len(lines) - len(whole), whole
    lines = fold_tails_redacted(lines, vendor.value, profile.parse.wrap_width, known + layout)
    sorted_blocks = classify(split(lines), known, layout)
    namer = Namer(profile)

    source = SourceMap(sorted_blocks.known, namer)
    opaque = list(sorted_blocks.opaque)
    ranged = profile.parse.interface_range
    feed, ports = _fed_blocks(sorted_blocks.known, ranged, namer, opaque)
    # Lines with a value outside the grammar's range are not read (reported as unread).
    fed = feed
    feed, unread = without(feed, refused(load_grammar(vendor.value, overlay), feed))
    feed, unnamed = ranges.expand(feed, ranged, namer)
    unread += unnamed
    text_feed = _feed_text(_templates_read(feed, profile), _port_views(profile))
    return Prepared(
        text=text,
        file=file,
        vendor=vendor,
        vendor_from=vendor_from,
        profile=profile,
        namer=namer,
        source=source,
        opaque=opaque,
        ports=ports,
        feed=text_feed,
        unread=unread,
        fed=fed,
        layout=len(sorted_blocks.layout),
        residue=residue,
    )


def _fed_blocks(
    known: list[Block], ranged: RangeSpec | None, namer: Namer, opaque: list[Block]
) -> tuple[list[Block], list[Name]]:
    """The known blocks the templates are fed, and the ports they name; an interface roce-cfg
    does not model joins ``opaque``."""
    feed: list[Block] = []
    ports: list[Name] = []
    for block in known:
        if ranges.is_range(ranged, block.header.text):
            feed.append(block)  # read as one block per port of the range (``ranges.expand``)
            continue
        name = interface_of(block, namer)
        if name is not None and name.kind == "other":
            opaque.append(block)  # management ports, tunnels: not modelled
            continue
        if name is not None and name.kind == "port":
            ports.append(name)
        feed.append(block)
    return feed, ports


def _config_part(cleaned: list[Line], lines: list[Line], spec: ParseSpec) -> list[Line]:
    """``lines`` up to the config's closing line where the vendor's prompt follows it in the
    file (``parse.capture_prompt``): a capture of 'show running-config' that goes on with other
    commands holds the whole config first, and what follows is their output, however long.
    Looked for only where the file does not end with the closing line: a saved file never pays
    for it."""
    closing = spec.last_line
    if not spec.capture_prompt or not closing or re.match(closing, lines[-1].text):
        return lines
    prompt = re.compile(spec.capture_prompt)
    for line, after in itertools.pairwise(cleaned):
        if prompt.match(after.text) and re.match(closing, line.text):
            return [ln for ln in lines if ln.no <= line.no]
    return lines


def _port_views(profile: VendorProfile) -> re.Pattern[str] | None:
    views = profile.parse.port_views
    return re.compile("|".join(f"(?:{v})" for v in views)) if views else None


def _feed_text(blocks: list[Block], views: re.Pattern[str] | None) -> str:
    """The lines the templates read, unindented. In a view that lists ports inside it (ZXROS
    'dcb': 'interface X' sub-views beside the view's own lines) the view's own lines read as
    '<view> | <line>': unindented, they would join the port listed above them."""
    own: dict[int, list[str]] = {}
    if views is not None:
        own = {
            id(b): _view_lines(b)
            for b in blocks
            # a port's block is no such view: 100,000 of them are not matched one by one
            if b.body
            and not b.header.text.startswith("interface ")
            and views.fullmatch(b.header.text)
        }
    if not own:
        return "\n".join([ln.text.lstrip() for b in blocks for ln in b.lines])
    lines = (own.get(id(b)) or [ln.text.lstrip() for ln in b.lines] for b in blocks)
    return "\n".join([text for block in lines for text in block])


def _view_lines(block: Block) -> list[str]:
    head = block.header.text
    out = [head]
    port = -1  # the indent of the open 'interface X' sub-view (-1: none)
    for line in block.body:
        text = line.text.lstrip()
        if port >= 0 and line.indent > port:
            out.append(text)
        elif text.startswith("interface "):
            port = line.indent
            out.append(text)
        else:
            port = -1
            out.append(f"{head} | {text}")
    return out


def _templates_read(feed: list[Block], profile: VendorProfile) -> list[Block]:
    """The fed blocks the templates read: not those only the grammar reads
    (``parse.grammar_blocks``), whose lines, unindented, could be taken for another block's."""
    spec = profile.parse.grammar_blocks
    if not spec:
        return feed
    only = re.compile("|".join(f"(?:{p})" for p in spec))
    return [b for b in feed if not only.match(b.header.text)]


# Lines a capture may print after the config's closing line (a tool's status, a timing)
MAX_RESIDUE = 5


def _complete(
    lines: list[Line], profile: VendorProfile, known: list[re.Pattern[str]], file: str
) -> list[Line]:
    """The config's lines up to its closing line ('return'), and no more: a capture may end
    with a tool's status line after it (the prompt after it is dropped already). More than a
    few lines after it, or one that is indented or opens a block of the config, is
    configuration or another command's output: the file is refused as not whole, as one
    without the closing line is."""
    last = profile.parse.last_line
    if not last or re.match(last, lines[-1].text):
        return lines
    closing = re.compile(last)
    tail = range(len(lines) - 1, max(len(lines) - 2 - MAX_RESIDUE, -1), -1)
    end = next((n for n in tail if closing.match(lines[n].text)), None)
    after = lines[end + 1 :] if end is not None else []
    odd = any(ln.text[:1].isspace() or any(p.match(ln.text) for p in known) for ln in after)
    if end is None or odd:
        raise InputError(
            f"truncated: a saved {profile.vendor.value} config ends with a line matching "
            f"'{last}', this one ends at line {lines[-1].no} with '{lines[-1].text.strip()[:40]}'",
            file=file,
            line=lines[-1].no,
        )
    return lines[: end + 1]
