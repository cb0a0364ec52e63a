"""Guarded reading of every YAML and JSON file roce-cfg takes in.

Intents, overlays, inventories and suppressions are copied, templated and merged by people, and
sometimes arrive from someone who means harm. Each kind of file has limits (``Limits``) sized
to what its model can mean: bytes, nesting depth, alias count, nodes after alias expansion,
entries of one list or mapping, digits of one integer. Every breach is a one-line InputError
naming ``file:line`` and the limit, raised before the data reaches pydantic or the design.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from yaml.composer import Composer

from roce_cfg.errors import InputError
from roce_cfg.safepath import read_bytes

Loc = tuple[str | int, ...]


@dataclass(frozen=True)
class Limits:
    what: str
    max_bytes: int
    # Nesting: the deepest real intent is 5 levels (lossless.pfc.watchdog.detect_ms).
    max_depth: int = 24
    # Anchors/aliases are legitimate (copying one block into another) but each one multiplies
    # work; a billion-laughs file uses a handful of aliases to ask for 10^9 nodes.
    max_aliases: int = 256
    # Nodes after alias expansion: the same figure bounds work done on a legitimate file.
    max_nodes: int = 50_000
    # Entries of one list or mapping.
    max_items: int = 1_024
    # 64-bit ASNs and byte counts fit in 20 digits; Python refuses to convert past 4,300.
    max_int_digits: int = 20


# An intent is a few KB; the largest field lists (no_drop) hold 8 entries.
INTENT = Limits("intent file", max_bytes=256 * 1024, max_items=256, max_nodes=20_000)
# Bundled vendor profiles are under 10 KB; overlays add a few sections.
PROFILE = Limits("vendor profile", max_bytes=256 * 1024, max_items=4_096, max_nodes=50_000)
# Hosts: twice the plan ceiling of switches (roce_cfg.model.ceilings), ~10 values each.
INVENTORY = Limits("inventory", max_bytes=4 << 20, max_items=16_384, max_nodes=200_000)
# Suppressions are exceptions someone reviewed: hundreds at most, not one per finding.
SUPPRESSIONS = Limits("lint config", max_bytes=1 << 20, max_items=4_096, max_nodes=40_000)
# A unit-price table for `roce-cfg plan`: one price per switch model, optic and cable class.
PRICES = Limits("price table", max_bytes=256 * 1024, max_items=4_096, max_nodes=20_000)
# fabric.json of thousands of switches is tens of MB (headroom terms per port).
FABRIC_JSON = Limits(
    "fabric.json", max_bytes=1 << 30, max_items=1 << 22, max_nodes=1 << 62, max_depth=32
)

# A saved 'verify --format json' result (report --verify): findings of every switch, a few KB
# each; tens of MB for the largest fabric, never the GiB a fabric.json may be.
VERIFY_RESULT = Limits(
    "verify result", max_bytes=64 << 20, max_items=1 << 20, max_nodes=1 << 62, max_depth=16
)

_NON_PRINTABLE = re.compile(
    "[^\x09\x0a\x0d\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]"
)
_INT_BODY = re.compile(r"[-+]?(?:0b|0o|0x|0)?")


def _a(what: str) -> str:
    return f"{'an' if what[:1] in 'aeiou' else 'a'} {what}"


def _line_at(text: str | bytes, index: int) -> int:
    return (
        text.count("\n", 0, index) if isinstance(text, str) else text.count(b"\n", 0, index)
    ) + 1


def read_text(
    path: Path,
    what: str = "file",
    max_bytes: int = INTENT.max_bytes,
    root: Path | None = None,
    fallback: str | None = None,
) -> str:
    """Read a UTF-8 text file, turning every way it can fail into a one-line InputError; with
    ``root``, a file that, links followed, lies outside that folder is refused too;
    ``fallback``: the encoding a file that is not UTF-8 is read in (a spreadsheet saved on a
    Chinese-locale desktop is GB18030)."""
    return decoded(read_bytes(path, what=what, max_bytes=max_bytes, root=root), str(path), fallback)


def decoded(raw: bytes, name: str, fallback: str | None = None) -> str:
    """``raw``, the bytes of the file ``name``, as ``read_text`` reads them."""
    nul = raw.find(b"\x00")
    if nul >= 0:
        raise InputError(
            "binary data (NUL byte), expected text", file=name, line=_line_at(raw, nul)
        )
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        if fallback is not None:
            try:
                return raw.decode(fallback)
            except UnicodeDecodeError:
                pass
        raise InputError(
            f"not UTF-8 text (byte {exc.start}: {raw[exc.start : exc.start + 1]!r})",
            file=name,
            line=_line_at(raw, exc.start),
        ) from None


def load_file(path: Path, limits: Limits, root: Path | None = None) -> tuple[Any, dict[Loc, int]]:
    """``read_text`` and ``load_yaml`` under one kind of file's limits (inside ``root``)."""
    return load_yaml(read_text(path, limits.what, limits.max_bytes, root), str(path), limits)


try:
    # libyaml's event parser (C, 5x faster) under PyYAML's own composer, which can be counted:
    # the composer comes first in the order methods are looked up, before CSafeLoader's parser
    # (which would compose in C, uncounted), its constructor and resolver.
    from yaml import CSafeLoader

    class _Base(Composer, CSafeLoader):
        def __init__(self, text: str) -> None:
            CSafeLoader.__init__(self, text)
            Composer.__init__(self)

except ImportError:  # pragma: no cover - PyYAML built without libyaml

    class _Base(yaml.SafeLoader):  # type: ignore[no-redef]
        pass


class _Loader(_Base):
    """A safe loader that counts depth, nodes and aliases while composing, so a hostile file
    is stopped before its graph exists (the composer recurses once per nesting level)."""

    def __init__(self, text: str, limits: Limits, file: str) -> None:
        self.limits = limits
        self.file = file
        self._depth = 0
        self._nodes = 0
        self._aliases = 0
        super().__init__(text)

    def _refuse(self, reason: str) -> InputError:
        event = self.peek_event()
        mark = event.start_mark if event is not None else None
        return InputError(reason, file=self.file, line=mark.line + 1 if mark else None)

    def compose_node(self, parent: yaml.Node | None, index: int) -> yaml.Node | None:
        lim = self.limits
        if self.check_event(yaml.AliasEvent):
            self._aliases += 1
            if self._aliases > lim.max_aliases:
                raise self._refuse(f"more than {lim.max_aliases} YAML aliases (*name)")
        self._nodes += 1
        if self._nodes > lim.max_nodes:
            raise self._refuse(f"more than {lim.max_nodes:,} YAML values in {_a(lim.what)}")
        self._depth += 1
        try:
            if self._depth > lim.max_depth:
                raise self._refuse(f"nested deeper than {lim.max_depth} levels")
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


def _bounded_int(loader: _Loader, node: yaml.ScalarNode) -> int:
    body = _INT_BODY.sub("", str(node.value).replace("_", ""), count=1)
    digits = len(body.replace(":", ""))
    if digits > loader.limits.max_int_digits:
        raise InputError(
            f"integer of {digits:,} digits (limit {loader.limits.max_int_digits})",
            file=loader.file,
            line=node.start_mark.line + 1,
        )
    return loader.construct_yaml_int(node)


_Loader.add_constructor("tag:yaml.org,2002:int", _bounded_int)


def load_yaml(text: str, file: str, limits: Limits = INTENT) -> tuple[Any, dict[Loc, int]]:
    """Parse one YAML document; return the data and a map from key path to 1-based line."""
    bad = _NON_PRINTABLE.search(text)
    if bad:
        raise InputError(
            f"control character U+{ord(bad.group()):04X} is not allowed in YAML",
            file=file,
            line=_line_at(text, bad.start()),
        )
    loader = None
    lines: dict[Loc, int] = {}
    try:
        loader = _Loader(text, limits, file)
        node = loader.get_single_node()
        if node is None:
            raise InputError("is empty, expected a YAML mapping", file=file)
        data = _Walk(loader, lines).walk(node, (), 0)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        problem = exc.problem or exc.context or "unreadable"
        if "nesting depth" in problem:  # libyaml's own limit, met before ours on some shapes
            problem = f"nested deeper than {limits.max_depth} levels"
            raise InputError(problem, file=file, line=line) from None
        raise InputError(f"malformed YAML: {problem}", file=file, line=line) from None
    except yaml.reader.ReaderError as exc:
        line = _line_at(text, exc.position) if isinstance(exc.position, int) else None
        raise InputError(f"unreadable YAML: {exc.reason}", file=file, line=line) from None
    except yaml.YAMLError as exc:
        raise InputError(f"malformed YAML: {exc}", file=file) from None
    finally:
        if loader is not None:
            loader.dispose()
    return data, lines


class _Walk:
    """Build plain data from the node graph, counting nodes again after alias expansion and
    refusing an alias that contains itself (``a: &x [*x]``)."""

    def __init__(self, loader: _Loader, lines: dict[Loc, int]) -> None:
        self.loader = loader
        self.lines = lines
        self.limits = loader.limits
        self.file = loader.file
        self.nodes = 0
        self.open: set[int] = set()

    def _err(self, node: yaml.Node, reason: str) -> InputError:
        return InputError(reason, file=self.file, line=node.start_mark.line + 1)

    def walk(self, node: yaml.Node, loc: Loc, depth: int) -> Any:
        lim = self.limits
        self.nodes += 1
        if self.nodes > lim.max_nodes:
            raise self._err(
                node, f"aliases expand to more than {lim.max_nodes:,} values in {_a(lim.what)}"
            )
        if depth > lim.max_depth:
            raise self._err(node, f"nested deeper than {lim.max_depth} levels (through aliases)")
        if isinstance(node, yaml.ScalarNode):
            return self._scalar(node)
        if id(node) in self.open:
            raise self._err(node, "recursive alias: a value contains itself")
        if len(node.value) > lim.max_items:
            kind = "mapping" if isinstance(node, yaml.MappingNode) else "list"
            raise self._err(
                node,
                f"{kind} of {len(node.value):,} entries; {_a(lim.what)} means at most "
                f"{lim.max_items:,}",
            )
        self.open.add(id(node))
        try:
            if isinstance(node, yaml.MappingNode):
                return self._mapping(node, loc, depth)
            items = []
            for i, item in enumerate(node.value):
                self.lines[(*loc, i)] = item.start_mark.line + 1
                items.append(self.walk(item, (*loc, i), depth + 1))
            return items
        finally:
            self.open.discard(id(node))

    def _mapping(self, node: yaml.MappingNode, loc: Loc, depth: int) -> dict[Any, Any]:
        out: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            line = key_node.start_mark.line + 1
            key = self._scalar(key_node) if isinstance(key_node, yaml.ScalarNode) else None
            if not isinstance(key, str | int) or isinstance(key, bool):
                raise InputError("mapping keys must be plain names", file=self.file, line=line)
            if key in out:
                where = ".".join(str(p) for p in (*loc, key))
                raise InputError(f"duplicate key '{where}'", file=self.file, line=line)
            self.lines[(*loc, key)] = line
            out[key] = self.walk(value_node, (*loc, key), depth + 1)
        return out

    def _scalar(self, node: yaml.ScalarNode) -> Any:
        try:
            return self.loader.construct_object(node, deep=True)
        except (ValueError, OverflowError, TypeError, IndexError, KeyError) as exc:
            # e.g. a date-shaped value that is no date ('2024-13-45'), '!!int abc', '!!float'
            # with no value (PyYAML indexes the empty string).
            raise self._err(node, f"unreadable value {str(node.value)[:40]!r}: {exc}") from None


def load_json(path: Path, limits: Limits = FABRIC_JSON, raw: bytes | None = None) -> Any:
    """A JSON file under ``limits``: size, nesting depth, integer digits, entries per list;
    ``raw``: its bytes when the caller has read them (``read_bytes`` under ``limits``)."""
    file = str(path)
    text = read_text(path, limits.what, limits.max_bytes) if raw is None else decoded(raw, file)

    # Both hooks run for every integer and object of the file (hundreds of thousands in an xl
    # fabric.json): the common case takes one test.
    def bounded_int(s: str) -> int:
        if len(s) > limits.max_int_digits:
            digits = len(s) - s.startswith("-")
            if digits > limits.max_int_digits:
                raise InputError(
                    f"integer of {digits:,} digits (limit {limits.max_int_digits})", file=file
                )
        return int(s)

    def unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        # As for YAML: a key given twice is a mistake whichever copy would win.
        out = dict(pairs)
        if len(out) < len(pairs):
            seen: set[str] = set()
            for key, _ in pairs:
                if key in seen:
                    raise InputError(f"duplicate key '{key[:40]}'", file=file)
                seen.add(key)
        return out

    try:
        data = json.loads(text, parse_int=bounded_int, object_pairs_hook=unique)
    except json.JSONDecodeError as exc:
        raise InputError(f"not JSON: {exc.msg}", file=file, line=exc.lineno) from None
    except RecursionError:
        # The C decoder counts its own recursion and stops cleanly at the interpreter's limit.
        raise InputError(f"nested deeper than {limits.max_depth} levels", file=file) from None
    _check_shape(data, limits, file)
    return data


def _check_shape(data: Any, limits: Limits, file: str) -> None:
    # Level by level, and by exact type (json.loads makes plain dicts and lists): this walks
    # every value of the file, 0.3 s of one core for an xl fabric.json the other way.
    level = [data] if type(data) is list or type(data) is dict else []
    depth = 1
    while level:
        if depth > limits.max_depth:
            raise InputError(f"nested deeper than {limits.max_depth} levels", file=file)
        inner: list[Any] = []
        for item in level:
            values = item.values() if type(item) is dict else item
            if len(values) > limits.max_items:
                raise InputError(
                    f"{'object' if type(item) is dict else 'list'} of {len(values):,} entries "
                    f"(limit {limits.max_items:,})",
                    file=file,
                )
            inner += [x for x in values if type(x) is list or type(x) is dict]
        level = inner
        depth += 1


def line_of(lines: dict[Loc, int], loc: Loc) -> int | None:
    """Line of the deepest known prefix of ``loc`` (a missing key points at its parent)."""
    for n in range(len(loc), 0, -1):
        if loc[:n] in lines:
            return lines[loc[:n]]
    return None
