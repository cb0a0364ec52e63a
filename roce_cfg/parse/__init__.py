"""Read saved running-configs back into the vendor-neutral DeviceConfig.

``parse_text`` cleans the text (pager residue, CRLF, wrapped lines), detects the vendor, splits
it into top-level blocks, runs the vendor's ttp templates over the blocks it knows and keeps the
rest as opaque text, then normalises units, names and ranges with the vendor profile.
"""

from __future__ import annotations

import copyreg
import gc
import io
import itertools
import pickle
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from ipaddress import IPv4Interface, IPv4Network
from pathlib import Path
from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, ValidationError

from roce_cfg.errors import InputError
from roce_cfg.grammar import load_grammar
from roce_cfg.heap import bulk_objects
from roce_cfg.model import numbers
from roce_cfg.model.device import DeviceConfig, assembled
from roce_cfg.parse import ranges
from roce_cfg.parse.accounting import (
    Accounting,
    account,
    judge,
    read_lines,
    refused_facts,
    verdicts,
)
from roce_cfg.parse.blocks import Block, classify, split
from roce_cfg.parse.context import (
    LISTED,
    MAX_UNREAD,
    Context,
    Locate,
    Role,
    Unread,
    Unreadable,
    as_list,
)
from roce_cfg.parse.domains import refused, without
from roce_cfg.parse.names import Name, Namer
from roce_cfg.parse.normalise import build
from roce_cfg.parse.templates import runner
from roce_cfg.parse.text import (
    MAX_CONFIG_BYTES,
    Line,
    clean,
    count_lines,
    decode,
    ends,
    fold_tails_redacted,
    unwrap,
)
from roce_cfg.parse.values import port_number
from roce_cfg.platforms.profile import (
    ModelSpec,
    ParseSpec,
    RangeSpec,
    VendorProfile,
    VersionForm,
    load_profile,
    load_profiles,
)
from roce_cfg.redact import may_hold_secrets, redact
from roce_cfg.safepath import read_bytes
from roce_cfg.vendor import Vendor

FORMAT = "roce-cfg/parse/v2"
# the model of a config that names none and whose ports fit no model of the profile
UNKNOWN_MODEL = "unknown"
# A terminal capture often starts with the command that printed the config and ends with the
# next prompt: '<leaf-1>display current-configuration', 'leaf-1#show running-config', 'leaf-1#'.
_PROMPT = re.compile(r"^(?:<[^<>\s]+>|\[[^\[\]\s]+\]|[\w.-]+(?:\([\w-]+\))?[#>])(?:\s.*|\S.*)?$")


def _without_prompts(lines: list[Line], text: str) -> list[Line]:
    """``lines`` (of ``text``) less the prompt lines. A prompt holds '>', ']' or '#' (every
    alternative of ``_PROMPT`` does): the regex is tried on those lines only, a third of the
    cost, and none is when the text holds none of them (a saved file, not a capture)."""
    if "#" not in text and ">" not in text and "]" not in text:
        return lines
    return [
        ln
        for ln in lines
        if not (("#" in (t := ln.text) or ">" in t or "]" in t) and _PROMPT.match(t))
    ]


class _M(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class OpaqueBlock(_M):
    """A block roce-cfg does not model, kept verbatim (secrets redacted)."""

    line: int
    end_line: int
    header: str
    text: str


class UnreadLine(_M):
    """A line not read: a value on it is outside its field's domain, so the line is taken as
    absent (lint reports it as RC119)."""

    line: int | None
    text: str
    reason: str


class ParsedConfig(_M):
    """What ``roce-cfg parse`` prints per file (``--format json``: one of these per config)."""

    source: str
    lines: int
    vendor: Vendor
    vendor_from: Literal["detected", "given"]
    model_from: Literal["given", "config", "port layout", "default"]
    role_from: Literal["given", "inferred"]
    device: DeviceConfig
    opaque: tuple[OpaqueBlock, ...] = ()
    notes: tuple[str, ...] = ()
    unread: tuple[UnreadLine, ...] = ()
    # every line understood, known-unmanaged or unread (parse/accounting.py; lint RC404, RC405)
    accounting: Accounting = Accounting()


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


class Parsed:
    """A parsed config, its text, and where things are in that text.

    The source map is rebuilt from the text on first use when the config was parsed in another
    process: sending it back costs more than the parse, and only files with findings need it.
    """

    __slots__ = ("_source", "config", "hinted", "overlay", "text")

    def __init__(
        self,
        config: ParsedConfig,
        source: SourceMap | None,
        text: str = "",
        overlay: Path | None = None,
        hinted: str = "",
    ) -> None:
        self.config = config
        self._source = source
        self.text = text
        self.overlay = overlay
        # the name its hints were looked up by (``hint_name``): what the parse cache checks a
        # stored parse's hints against (only the process that parsed it asks)
        self.hinted = hinted

    @property
    def source(self) -> SourceMap:
        if self._source is None:
            self._source = prepare(
                self.text, file=self.config.source, vendor=self.config.vendor, overlay=self.overlay
            ).source
        return self._source

    def __getstate__(self) -> tuple[bytes, str, Path | None]:
        return _dumps(self.config), self.text, self.overlay

    def __setstate__(self, state: tuple[bytes, str, Path | None]) -> None:
        config, self.text, self.overlay = state
        self.config = pickle.loads(config)  # what __getstate__ wrote, in a worker of ours
        self._source = None
        self.hinted = ""


def _dumps(config: ParsedConfig) -> bytes:
    """The model pickled with its addresses as numbers: ipaddress pickles an interface or a
    network as its text, parsed again on loading (half of what unpickling an xl leaf cost the
    lint parent, 1,280 times); and its models as their fields (``_model_state``)."""
    out = io.BytesIO()
    pickler = pickle.Pickler(out, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.dispatch_table = _AS_NUMBERS
    pickler.dump(config)
    return out.getvalue()


def _interface_numbers(value: IPv4Interface) -> tuple[Callable[..., Any], tuple[int, int]]:
    # int() of the interface is its address's number; ``.ip`` built an IPv4Address for it
    return numbers.interface, (int(value), value.network.prefixlen)


def _network_numbers(value: IPv4Network) -> tuple[type[IPv4Network], tuple[tuple[int, int]]]:
    return IPv4Network, ((int(value.network_address), value.prefixlen),)


def _model_state(model: BaseModel) -> Any:
    """A model as its class, fields and set of given fields. Pydantic's own pickling sends a
    dict of its four parts per model and reads it back in Python: a third of what pickling
    an xl config cost its worker (issue 30). A model with extra or private values (none of
    ours has) pickles pydantic's way."""
    if model.__pydantic_extra__ is not None or model.__pydantic_private__ is not None:
        return model.__reduce_ex__(pickle.HIGHEST_PROTOCOL)
    return assembled, (type(model), model.__dict__, model.__pydantic_fields_set__)


def _models_of(cls: type[BaseModel], found: set[type[BaseModel]]) -> set[type[BaseModel]]:
    """``cls`` and every model class its fields hold, at any depth."""
    found.add(cls)
    todo = [f.annotation for f in cls.model_fields.values()]
    while todo:
        hint = todo.pop()
        if isinstance(hint, type) and issubclass(hint, BaseModel):
            if hint not in found:
                _models_of(hint, found)
        else:
            todo.extend(get_args(hint))
    return found


_AS_NUMBERS: dict[type, Callable[[Any], Any]] = {
    **copyreg.dispatch_table,
    IPv4Interface: _interface_numbers,
    IPv4Network: _network_numbers,
    **dict.fromkeys(_models_of(ParsedConfig, set()), _model_state),
}


@dataclass(frozen=True)
class Hints:
    """What a config cannot say about itself, from fabric.json, the intent or the user."""

    model: str | None = None
    role: Role | None = None
    speeds: Mapping[str, int] = field(default_factory=dict)


_COMPILED: dict[int, tuple[VendorProfile, tuple[list[re.Pattern[str]], ...]]] = {}


def _patterns(profile: VendorProfile) -> tuple[list[re.Pattern[str]], ...]:
    """The profile's detect, known-block and layout patterns, compiled; a detect pattern that
    matches only at a line's start is compiled to follow a newline (``_after_newline``)."""
    # Profiles are cached per (vendor, overlay) and immutable, so identity is a safe key.
    hit = _COMPILED.get(id(profile))
    if hit is None or hit[0] is not profile:
        spec = profile.parse
        hit = _COMPILED[id(profile)] = (
            profile,
            (
                [_after_newline(p) or re.compile(p, re.MULTILINE) for p in spec.detect],
                [re.compile(p) for p in spec.known_blocks],
                [re.compile(p) for p in spec.layout_lines],
            ),
        )
    return hit[1]


_NEWLINE = "\n(?:"


def _after_newline(pattern: str) -> re.Pattern[str] | None:
    """``pattern`` (multi-line) as one that matches the same text after a newline, to search
    '\\n' + the text: a search for '^X' tries every character of the text (Python's regex
    engine does not skip to line starts), one for '\\nX' only its newlines, a tenth of the
    time of detecting the vendor. None unless every top-level alternative starts with '^'
    (nor any lookbehind or '\\A', which the added newline would change). That '^' always
    holds after the newline, so it is dropped: an alternative starting with literal text then
    gives the engine a prefix to scan for (a third less time)."""
    if "(?<" in pattern or "\\A" in pattern:
        return None
    alternatives, depth, start, i, in_class = [], 0, 0, 0, False
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\":
            i += 1
        elif in_class:
            in_class = ch != "]"
        elif ch == "[":
            in_class = True  # a ']' first in the class is one of its characters
            i += 2 if pattern.startswith("[^]", i) else 1 if pattern.startswith("[]", i) else 0
        elif ch in "()":
            depth += 1 if ch == "(" else -1
        elif ch == "|" and depth == 0:
            alternatives.append(pattern[start:i])
            start = i + 1
        i += 1
    alternatives.append(pattern[start:])
    if not all(a.startswith("^") for a in alternatives):
        return None
    return re.compile(_NEWLINE + "|".join(a[1:] for a in alternatives) + ")", re.MULTILINE)


# Raw lines of a large file ``other_vendor`` cleans: room for the blank, separator and prompt
# lines around the 400 and 100 lines ``detect`` samples.
SAMPLE_HEAD, SAMPLE_TAIL = 1_000, 300


def detect(lines: list[Line], profiles: Mapping[Vendor, VendorProfile], file: str) -> Vendor:
    """The vendor whose layout and command words the text matches best, or a clear refusal."""
    # Layout signatures sit at the top (sysname, tags) and the end (return, end): read those.
    sample = lines if len(lines) <= 500 else lines[:400] + lines[-100:]
    text = "\n".join(line.text for line in sample)
    after = "\n" + text  # what the patterns made to follow a newline search

    def found(p: re.Pattern[str]) -> bool:
        return bool(p.search(after if p.pattern.startswith(_NEWLINE) else text))

    scores = sorted(
        ((sum(found(p) for p in _patterns(prof)[0]), v) for v, prof in profiles.items()),
        key=lambda sv: (-sv[0], sv[1].value),
    )
    best, vendor = scores[0]
    runner_up = scores[1][0] if len(scores) > 1 else 0
    if best >= 2 and best > runner_up:
        return vendor
    seen = ", ".join(f"{v.value} {s}" for s, v in scores)
    raise InputError(
        f"cannot tell which vendor wrote this config (signature matches: {seen}); "
        "pass --vendor h3c|huawei|ruijie|zte",
        file=file,
    )


def other_vendor(
    text: str, given: Vendor, overlay: Path | None = None, file: str = "<text>"
) -> Vendor | None:
    """The vendor the text clearly reads as, when that is not ``given`` (a --vendor mistake).
    Only the ends of a large file are cleaned: ``detect`` reads its first 400 and last 100
    lines, and the last hold the closing line ('return', 'end') that tells most vendors apart."""
    sample = ends(text, SAMPLE_HEAD, SAMPLE_TAIL)
    lines = _without_prompts(clean(sample), sample)
    try:
        found = detect(lines, load_profiles(overlay), file)
    except InputError:
        return None  # not clearly anyone's: trust the operator
    return found if found != given else None


def _fits(model: ModelSpec, ports: list[Name]) -> bool:
    """Every port's label and speed exist on the model (breakout names at a breakout speed)."""
    layout = _layout(model)
    return all(layout.holds(port) for port in ports)


class _Layout:
    """A model's port groups as patterns, and the answer for each port asked about already:
    the same port names recur in every config of a fabric (asked twice per config)."""

    MAX_SEEN = 10_000  # ports remembered (2 MB); a fabric has far fewer names, a hostile file more

    def __init__(self, model: ModelSpec) -> None:
        self.model = model
        self.groups = [
            (re.compile(re.escape(g.label).replace(re.escape("{n}"), r"(\d+)")), g)
            for g in model.ports
        ]
        self.seen: dict[tuple[str, int | None], bool] = {}

    def holds(self, port: Name) -> bool:
        key = (port.number, port.speed)
        hit = self.seen.get(key)
        if hit is None:
            if len(self.seen) >= self.MAX_SEEN:
                self.seen.clear()
            hit = self.seen[key] = self._holds(port)
        return hit

    def _holds(self, port: Name) -> bool:
        # a sub-interface ('400GE1/0/1.100') is of its parent port's layout
        base, lane = port.number.partition(".")[0].partition(":")[::2]
        return any(
            (m := pat.fullmatch(base))
            and g.first <= port_number(m[1]) < g.first + g.count
            and (g.has_legs_named(port.speed) if lane else port.speed == g.speed)
            for pat, g in self.groups
        )


_LAYOUTS: dict[int, _Layout] = {}


def _layout(model: ModelSpec) -> _Layout:
    # Models live as long as their cached profile; identity guards against a reused id.
    hit = _LAYOUTS.get(id(model))
    if hit is None or hit.model is not model:
        hit = _LAYOUTS[id(model)] = _Layout(model)
    return hit


def _choose_model(
    profile: VendorProfile,
    ports: list[Name],
    hint: str | None,
    board: str | None,
    file: str,
    notes: list[str],
) -> tuple[str, Literal["given", "config", "port layout", "default"]]:
    if hint is not None:
        if hint not in profile.models:
            known = ", ".join(sorted(profile.models))
            raise InputError(
                f"unknown {profile.vendor.value} model '{hint}' (known: {known})", file=file
            )
        return hint, "given"
    if board is not None and board in profile.models:
        return board, "config"
    fits = [name for name, spec in sorted(profile.models.items()) if _fits(spec, ports)]
    if board is not None:
        # a model the profile does not list stays that model: its ports are read by a listed
        # layout they fit, its buffer figures are nobody's (lint: RC120 cannot verify)
        notes.append(
            f"model {board} is not in vendors/{profile.vendor.value}.yaml: its buffer figures "
            "are unknown (add it with an overlay)"
        )
        return board, "config"
    if len(fits) == 1:
        return fits[0], "port layout"
    if profile.default_model in fits:
        return profile.default_model, "default"
    if not fits:
        notes.append(
            f"no model in vendors/{profile.vendor.value}.yaml has these ports and the config "
            "names none: model unknown (pass --model, or add it with an overlay)"
        )
        return UNKNOWN_MODEL, "default"
    return fits[0], "default"


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
    lines = _without_prompts(cleaned, text)
    if not lines:
        raise InputError("no configuration lines in the file", file=file)
    vendor_from: Literal["detected", "given"] = "given"
    if vendor is None:
        vendor = detect(lines, load_profiles(overlay), file)
        vendor_from = "detected"
    profile = load_profile(vendor, overlay)
    session = _config_part(cleaned, lines, profile.parse)
    cut, lines = len(lines) - len(session), session
    lines = unwrap(lines, profile.parse.wrap_width)
    _, known, layout = _patterns(profile)
    whole = _complete(lines, profile, known, file)
    residue, lines = cut + len(lines) - len(whole), whole
    lines = fold_tails_redacted(lines, vendor.value, profile.parse.wrap_width, known + layout)
    sorted_blocks = classify(split(lines), known, layout)
    namer = Namer(profile)

    source = SourceMap(sorted_blocks.known, namer)
    feed: list[Block] = []
    opaque = list(sorted_blocks.opaque)
    ports: list[Name] = []
    ranged = profile.parse.interface_range
    for block in sorted_blocks.known:
        if ranges.is_range(ranged, block.header.text):
            feed.append(block)  # read as one block per port of the range (below)
            continue
        name = _interface(block, namer)
        if name is not None and name.kind == "other":
            opaque.append(block)  # management ports, tunnels: not modelled
            continue
        if name is not None and name.kind == "port":
            ports.append(name)
        feed.append(block)
    # Lines with a value outside the grammar's range are not read (reported as unread).
    fed = feed
    feed, unread = without(feed, refused(load_grammar(vendor.value, overlay), feed))
    feed, unnamed = ranges.expand(feed, ranged, namer)
    unread += unnamed
    text_feed = _feed_text(_templates_read(feed, profile), _port_views(profile))
    return Prepared(
        text, file, vendor, vendor_from, profile, namer, source, opaque, ports, text_feed, unread,
        fed, len(sorted_blocks.layout), residue,
    )  # fmt: skip


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


def _interface(block: Block, namer: Namer) -> Name | None:
    """The interface a block's header opens, if it opens one."""
    return _interface_named(block.header.text, namer)


def _interface_index(blocks: list[Block], namer: Namer) -> dict[str, list[Block]]:
    """Each modelled interface's blocks, with the 'interface X' lines nested in other blocks
    (ZXROS lists its ports again under 'switchvlan-configuration'), in file order."""
    index: dict[str, list[Block]] = {}
    for block in blocks:
        name = _interface(block, namer)
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


def read_templates(prep: Prepared, overlay: Path | None = None) -> dict[str, Any]:
    """The parse templates' output (plain dicts and lists: cheap to pass between processes)."""
    return runner(prep.vendor, overlay).run(prep.feed)


@bulk_objects()  # 100,000 ports: a third of the parse went to rescanning them (issue 27)
def parse_text(
    text: str,
    *,
    file: str = "<text>",
    vendor: Vendor | None = None,
    hints: Hints | Mapping[str, Hints] | None = None,
    overlay: Path | None = None,
) -> Parsed:
    """Parse one saved config. ``hints`` is one Hints, or Hints per hostname (fabric.json)."""
    prep = prepare(text, file=file, vendor=vendor, overlay=overlay)
    # The lines are accounted for before the templates run: the accounting's working set is
    # gone before ttp's results and the models are built (issue 27: the peak of 100,000 ports).
    accounting = _accounted(prep, overlay)
    raw = read_templates(prep, overlay)
    if len(text) > GC_AFTER_TEMPLATES:
        # ttp leaves cycles behind (its parsers and match results); the bulk thresholds would
        # let them ride into the models' peak, so they are freed here, once
        gc.collect()
    return finish(prep, raw, hints, accounting, overlay)


# Inputs past this many characters are collected after the templates ran (one full collection
# costs ~0.1 s there, and gives back tens of MB before the models are built).
GC_AFTER_TEMPLATES = 1 << 20


def finish(
    prep: Prepared,
    raw: dict[str, Any],
    hints: Hints | Mapping[str, Hints] | None,
    accounting: Accounting,
    overlay: Path | None = None,
) -> Parsed:
    """The templates' output (consumed) normalised into the model, notes, opaque blocks."""
    file, vendor, profile = prep.file, prep.vendor, prep.profile
    hinted = hint_name(raw, file)
    hint = applied_hint(hints, hinted)
    notes: list[str] = []
    boards, bad_slots = _boards(raw)
    board = str(boards[0]["model"]) if boards else None
    model_name, model_from = _choose_model(profile, prep.ports, hint.model, board, file, notes)
    ctx = _context(prep, model_name, board, notes)
    for exc in bad_slots:
        ctx.skip(exc)
    if model_from == "default" and model_name != UNKNOWN_MODEL:
        ctx.notes.append(
            f"model not stated in the config; assumed {model_name} (pass --model to set it)"
        )
    try:
        device = build(raw, ctx, Path(file).stem, hint.role, dict(hint.speeds))
    except (Unreadable, ValueError, KeyError, ValidationError) as exc:
        raise InputError(
            f"cannot read the {vendor.value} config: {_reason(exc, prep.text)}", file=file
        ) from None
    raw.clear()  # what the model did not take is not kept through its peak
    accounting = _with_refusals(accounting, ctx, prep, overlay)
    opaque = sorted(prep.opaque, key=lambda b: b.header.no)
    config = ParsedConfig(
        source=file,
        lines=count_lines(prep.text),
        vendor=vendor,
        vendor_from=prep.vendor_from,
        model_from=model_from,
        role_from="given" if hint.role else "inferred",
        device=redacted(device, vendor.value),
        opaque=tuple(
            OpaqueBlock(
                line=b.header.no,
                end_line=b.end,
                header=redact(b.header.text, vendor.value),
                text=redact("\n".join(ln.text for ln in b.lines), vendor.value),
            )
            for b in opaque
        ),
        notes=(*ctx.notes, *_more(ctx)),
        unread=tuple(
            UnreadLine(line=u.line, text=redact(u.text, vendor.value), reason=u.reason)
            for u in sorted(ctx.unread, key=lambda u: (u.line or 0, u.reason))
        ),
        accounting=accounting,
    )
    return Parsed(config, prep.source, prep.text, overlay, hinted)


def hint_name(raw: dict[str, Any], file: str) -> str:
    """The name a config's hints are looked up by: its hostname, else its file's stem."""
    systems = raw.get("system")
    first = systems[0] if isinstance(systems, list) and systems else systems
    host = first.get("hostname") if isinstance(first, dict) else None
    return str(host or Path(file).stem)


def applied_hint(hints: Hints | Mapping[str, Hints] | None, name: str) -> Hints:
    """The hints for the config ``name`` names: the one given, or the plan's for it."""
    if isinstance(hints, Hints) or hints is None:
        return hints or Hints()
    return hints.get(name, Hints())


def _residue(prep: Prepared) -> list[str]:
    if not prep.residue:
        return []
    return [
        f"{prep.residue} line(s) after the config's closing line not read: a capture's output, "
        "not configuration"
    ]


def _context(prep: Prepared, model_name: str, board: str | None, notes: list[str]) -> Context:
    """What the normaliser reads a config with: its profile and model, where its lines are."""
    profile = prep.profile
    fits = [spec for spec in profile.models.values() if _fits(spec, prep.ports)]
    spec = profile.spec_of(model_name, fits[0] if fits else None)
    ctx = Context(profile, model_name, spec, prep.namer, notes)
    notes.extend(_residue(prep))
    ctx.unread, ctx.locate = list(prep.unread), _locator(prep.source, profile.parse.anchors)
    ctx.board, (ctx.version_text, ctx.version) = board, _release(prep.text, profile.parse)
    ctx.blocks = prep.source.blocks
    return ctx


def _release(text: str, spec: ParseSpec) -> tuple[str, VersionForm | None]:
    """The release a saved config names in its header (its first lines), and its line."""
    found = re.search(spec.version_line, text[:4096], re.MULTILINE) if spec.version_line else None
    return (found[1], spec.version(found[1])) if found else ("", None)


def _accounted(prep: Prepared, overlay: Path | None) -> Accounting:
    refused_lines = [u.line for u in prep.unread if u.line]
    return account(
        prep.vendor, prep.fed, prep.opaque, prep.layout, refused_lines, overlay,
        _port_of(prep.namer, prep.profile.parse.interface_range),
    )  # fmt: skip


def line_sections(
    text: str, vendor: Vendor | None = None, overlay: Path | None = None
) -> dict[int, tuple[str, str]]:
    """Each line's status in the accounting ('understood', 'unmanaged', 'unread') and its
    section (or unmanaged kind), by line number."""
    prep = prepare(text, vendor=vendor, overlay=overlay)
    blocks = [(b, True) for b in prep.fed] + [(b, False) for b in prep.opaque]
    return verdicts(prep.vendor, blocks, overlay)


def read_where(
    text: str, vendor: Vendor | None = None, overlay: Path | None = None
) -> dict[tuple[str, str | None], tuple[int, ...]]:
    """The lines of the config read in each section at each port (None: switch-wide)."""
    prep = prepare(text, vendor=vendor, overlay=overlay)
    blocks = [(b, True) for b in prep.fed]
    return read_lines(
        prep.vendor, blocks, _port_of(prep.namer, prep.profile.parse.interface_range), overlay
    )


def _port_of(namer: Namer, ranged: RangeSpec | None = None) -> Callable[[str], str | None]:
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


def _with_refusals(
    accounting: Accounting, ctx: Context, prep: Prepared, overlay: Path | None
) -> Accounting:
    """``accounting`` with the lines the normaliser refused (a value out of its domain, no
    number where one belongs) among its unread facts: such a line is as unread as one no
    reader knows, and the gate must keep rules from concluding from its absence."""
    if not ctx.unread and not ctx.more_unread:
        return accounting
    refused = [(u.line, u.text) for u in ctx.unread]
    j = judge(prep.vendor, overlay)
    port_of = _port_of(prep.namer, prep.profile.parse.interface_range)
    facts = refused_facts(refused, prep.source.blocks, j, port_of, ctx.more_unread)
    return accounting.model_copy(update={"unread_facts": (*accounting.unread_facts, *facts)})


def _boards(raw: dict[str, Any]) -> tuple[list[dict[str, Any]], list[numbers.NumberError]]:
    """Boards by slot, and the slots that are no slot number (their lines are unread)."""
    boards: list[tuple[int, dict[str, Any]]] = []
    bad: list[numbers.NumberError] = []
    for b in as_list(raw.get("boards")):
        try:
            slot = numbers.number(str(b.get("slot", 0)), numbers.PORT_NUMBER)
        except numbers.NumberError as exc:
            bad.append(exc)
            continue
        if "model" in b:
            boards.append((slot, b))
    return [b for _, b in sorted(boards, key=lambda sb: sb[0])], bad


def _more(ctx: Context) -> list[str]:
    if not ctx.more_unread:
        return []
    return [f"{ctx.more_unread:,} more lines not read (values outside their domain); "
            f"the first {MAX_UNREAD:,} are listed"]  # fmt: skip


_LIST_PIECES = re.compile(r"[,-]")
_TRAILING = re.compile(r"[A-Za-z](\d+)$")


def _locator(source: SourceMap, anchors: Mapping[str, str]) -> Locate:
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


_TOO_LONG = re.compile(r"integer string conversion: value has (\d+) digits")
_NOT_INT = re.compile(r"invalid literal for int\(\) with base 10: '(.*)'$")


def _reason(exc: Exception, text: str) -> str:
    if isinstance(exc, ValidationError):
        first = exc.errors()[0]
        return f"{'.'.join(str(p) for p in first['loc'])}: {first['msg']}"
    if isinstance(exc, KeyError):
        return f"missing value {exc}"
    m = _TOO_LONG.search(str(exc))
    if m:
        # Python refuses to convert past 4,300 digits; name the line holding the number.
        long_run = re.compile(rf"\d{{{int(m[1])}}}")
        for no, line in enumerate(text.splitlines(), 1):
            if long_run.search(line):
                return f"line {no}: a number of {int(m[1]):,} digits; no setting is that long"
        return f"a number of {int(m[1]):,} digits; no setting is that long"
    m = _NOT_INT.match(str(exc))
    if m:
        # A template matched a word where a number belongs; the line it came from is what
        # the engineer needs to find it.
        word = m[1]
        for no, line in enumerate(text.splitlines(), 1):
            if word in line.split():
                return f"line {no}: '{word}' is not a number ({line.strip()[:80]})"
        return f"'{word}' is not a number"
    return str(exc)


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


def redacted(device: DeviceConfig, vendor: str) -> DeviceConfig:
    """Descriptions are free text; an operator may have pasted a key into one."""
    if not may_hold_secrets("\n".join(i.description for i in device.interfaces)):
        return device  # most configs: one test of all of them, not one per port
    changed = False
    ifaces = list(device.interfaces)
    for n, i in enumerate(ifaces):
        clean = redact(i.description, vendor) if i.description else i.description
        if clean != i.description:
            ifaces[n] = i.model_copy(update={"description": clean})
            changed = True
    return device.model_copy(update={"interfaces": tuple(ifaces)}) if changed else device


def read_config(path: Path) -> str:
    """A config file's text; every way reading it can fail is a one-line InputError."""
    return decode(read_capped(path), str(path))


def read_capped(path: Path) -> bytes:
    """A config file's bytes, at most ``MAX_CONFIG_BYTES`` of them read (roce_cfg/safepath.py:
    a regular file only, its size checked before the read)."""
    return read_bytes(path, what="config file", max_bytes=MAX_CONFIG_BYTES)


def parse_file(
    path: Path,
    *,
    vendor: Vendor | None = None,
    hints: Hints | Mapping[str, Hints] | None = None,
    overlay: Path | None = None,
) -> Parsed:
    return parse_text(
        read_config(path), file=str(path), vendor=vendor, hints=hints, overlay=overlay
    )
