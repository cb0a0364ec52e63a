"""YAML reading that remembers where each key stands, so errors can name ``file:line``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from roce_cfg.errors import InputError

Loc = tuple[str | int, ...]
MAX_BYTES = 16 * 1024 * 1024


class _Loader(yaml.SafeLoader):
    pass


def read_text(path: Path, what: str = "file", max_bytes: int = MAX_BYTES) -> str:
    """Read a UTF-8 text file, turning every way it can fail into a one-line InputError."""
    name = str(path)
    if not path.exists():
        raise InputError(f"no such {what}", file=name)
    if path.is_dir():
        article = "an" if what[:1] in "aeiou" else "a"
        raise InputError(f"is a directory, expected {article} {what}", file=name)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", file=name) from None
    if len(raw) > max_bytes:
        raise InputError(f"too large ({len(raw)} bytes, limit {max_bytes})", file=name)
    if b"\x00" in raw:
        raise InputError("binary data, expected text", file=name)
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8 text (byte {exc.start})", file=name) from None


def load_yaml(text: str, file: str) -> tuple[Any, dict[Loc, int]]:
    """Parse one YAML document; return the data and a map from key path to 1-based line."""
    loader = _Loader(text)
    lines: dict[Loc, int] = {}
    try:
        node = loader.get_single_node()
        if node is None:
            raise InputError("is empty, expected a YAML mapping", file=file)
        data = _walk(loader, node, (), lines, file)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        problem = exc.problem or exc.context or "unreadable"
        raise InputError(f"malformed YAML: {problem}", file=file, line=line) from None
    except yaml.YAMLError as exc:
        raise InputError(f"malformed YAML: {exc}", file=file) from None
    finally:
        loader.dispose()
    return data, lines


def _walk(loader: _Loader, node: yaml.Node, loc: Loc, lines: dict[Loc, int], file: str) -> Any:
    if isinstance(node, yaml.MappingNode):
        out: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            key = loader.construct_object(key_node, deep=True)
            line = key_node.start_mark.line + 1
            if not isinstance(key, str | int):
                raise InputError("mapping keys must be plain names", file=file, line=line)
            if key in out:
                where = ".".join(str(p) for p in (*loc, key))
                raise InputError(f"duplicate key '{where}'", file=file, line=line)
            lines[(*loc, key)] = line
            out[key] = _walk(loader, value_node, (*loc, key), lines, file)
        return out
    if isinstance(node, yaml.SequenceNode):
        items = []
        for i, item in enumerate(node.value):
            lines[(*loc, i)] = item.start_mark.line + 1
            items.append(_walk(loader, item, (*loc, i), lines, file))
        return items
    return loader.construct_object(node, deep=True)


def line_of(lines: dict[Loc, int], loc: Loc) -> int | None:
    """Line of the deepest known prefix of ``loc`` (a missing key points at its parent)."""
    for n in range(len(loc), 0, -1):
        if loc[:n] in lines:
            return lines[loc[:n]]
    return None
