"""Models as JSON text, written a piece at a time: a tuple of thousands of ports is
serialised in batches into the JSON of its model with the tuple emptied, so the text never has
to be held whole (roce_cfg/output.py redacts and writes the pieces). JSON text as ``json.dumps``
writes it, at the speed of pydantic's serializer (``sorted_json``)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from functools import cache
from sys import float_info
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pydantic import BaseModel

_NOT_ASCII = re.compile(r"[\x7f-\U0010ffff]")  # what json.dumps escapes past pydantic


def ascii_json(text: str) -> str:
    """JSON text with DEL and every non-ASCII character as ``\\uXXXX`` (a surrogate pair past
    the BMP), as ``json.dumps`` writes them by default."""

    def esc(m: re.Match[str]) -> str:
        n = ord(m[0])
        if n < 0x10000:
            return f"\\u{n:04x}"
        n -= 0x10000
        return f"\\u{0xD800 | (n >> 10):04x}\\u{0xDC00 | (n & 0x3FF):04x}"

    if text.isascii() and "\x7f" not in text:
        return text  # the common case, at C speed: the regex scanned a 66 MB parse in 0.2 s
    return _NOT_ASCII.sub(esc, text)


# A surrogate's escape: a lone one decodes (json.loads) to a string that cannot be encoded.
_SURROGATE = re.compile(rb"\\u[dD][89a-fA-F]")


def encodable(text: bytes, value: Any) -> bool:
    """Whether the strings of ``value``, decoded from the JSON ``text``, encode as UTF-8:
    json reads a lone surrogate's escape ("\\ud800") into a string that no parse makes (a
    config's bytes are decoded strictly) and that an output refuses (UnicodeEncodeError)."""
    if _SURROGATE.search(text) is None:  # no surrogate escaped: every string encodes
        return True
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


class _Unlike(Exception):
    """A value pydantic's serializer writes otherwise than ``json.dumps``."""


# Leaves both write alike (a float only within ``_SAME_FLOATS``; str past ASCII: ascii_json).
_PLAIN = frozenset((str, int, bool, type(None)))
# json.dumps writes floats below 1e-4 with an exponent ('1e-05'), pydantic without ('0.00001');
# from 1e-4 up both write Python's repr, and neither writes NaN or infinity alike
_SAME_FLOATS = (1e-4, float_info.max)


def sorted_json(value: Any) -> str:
    """``json.dumps(value, indent=2, sort_keys=True)`` of a tree of dicts, lists and plain
    values (a ``model_dump(mode="json")``), written by pydantic's serializer from a copy of the
    tree with its keys sorted: json.dumps indents in Python, not in C (the plan of a 192-switch
    fabric, 6 MB: 0.19 s against 0.09). A tree holding a value the two write otherwise (a key
    that is not a string, a tiny or infinite float, anything but a plain value) is written by
    json.dumps."""
    from pydantic_core import to_json  # imported here: not at every command's start-up

    try:
        tree = _sorted(value)
    except _Unlike:
        return json.dumps(value, indent=2, sort_keys=True)
    return ascii_json(to_json(tree, indent=2).decode())


# a dict's keys in the order it was built -> sorted (bounded: a dict of free keys is sorted
# each time once the table is full)
_ORDERS: dict[tuple[str, ...], tuple[str, ...]] = {}
_ORDERS_MAX = 4096


def _sorted(value: Any) -> Any:
    # a plain leaf is taken as it is without a call: a plan's 200,000 values, most of them
    # strings and numbers, cost a call each
    kind = type(value)
    if kind is dict:
        # a dump's dicts repeat a few key sequences (one per model): each sorted once
        keys = tuple(value)
        order = _ORDERS.get(keys)
        if order is None:
            if not all(type(k) is str for k in keys):
                raise _Unlike
            order = tuple(sorted(keys))
            if len(_ORDERS) < _ORDERS_MAX:
                _ORDERS[keys] = order
        return {k: v if type(v := value[k]) in _PLAIN else _sorted(v) for k in order}
    if kind is list or kind is tuple:
        return [v if type(v) in _PLAIN else _sorted(v) for v in value]
    if kind in _PLAIN:
        return value
    low, high = _SAME_FLOATS
    if kind is float and (value == 0 or low <= abs(value) <= high):
        return value
    raise _Unlike


# A tuple of at least this many models is written ``BATCH`` elements at a time.
STREAM_MIN = 256
BATCH = 1000


def json_chunks(model: BaseModel) -> Iterator[str]:
    """``model.model_dump_json(indent=2)`` in pieces whose concatenation is that text: each
    tuple of at least ``STREAM_MIN`` models of its declared type (a device's ports) is
    written ``BATCH`` elements at a time into the JSON of the model with those tuples emptied.
    Pieces split only between JSON values, never inside a string, so redacting them line by
    line is redacting the whole."""
    spots = list(_long_tuples(model, ()))
    if not spots:
        yield model.model_dump_json(indent=2)
        return
    text = _emptied(model, [path for path, _, _ in spots]).model_dump_json(indent=2)
    marks = []
    for path, kind, items in spots:
        # an emptied tuple is '"key": []' at its depth; anything else (a serializer that
        # drops an empty field, the same key emptied twice at one depth) is written whole
        mark = "\n" + "  " * len(path) + json.dumps(path[-1]) + ": []"
        if text.count(mark) != 1:
            yield model.model_dump_json(indent=2)
            return
        marks.append((text.index(mark), mark, len(path), kind, items))
    at = 0
    for pos, mark, depth, kind, items in sorted(marks, key=lambda m: m[0]):
        yield text[at : pos + len(mark) - 1]  # up to and including '['
        pad = "\n" + "  " * depth
        for start in range(0, len(items), BATCH):
            # '[\n  {...},\n  {...}\n]': the items at indent 2, as in the whole list
            batch = _list_of(kind).dump_json(items[start : start + BATCH], indent=2).decode()
            yield ("," if start else "") + batch[1:-2].replace("\n", pad)
        yield pad + "]"
        at = pos + len(mark)
    yield text[at:]


@cache
def _list_of(kind: type[BaseModel]) -> Any:
    from pydantic import TypeAdapter  # imported here: not at every command's start-up

    return TypeAdapter(tuple[kind, ...])  # type: ignore[valid-type]


def _long_tuples(
    model: BaseModel, path: tuple[str, ...]
) -> Iterator[tuple[tuple[str, ...], type[BaseModel], tuple[BaseModel, ...]]]:
    """(path, element type, elements) of each long tuple whose elements are all of the type
    the field declares (a subclass would serialise as the declared type: written whole)."""
    from typing import get_args

    from pydantic import BaseModel as Model  # imported here: not at every command's start-up

    for name, info in type(model).model_fields.items():
        value = getattr(model, name)
        if isinstance(value, Model):
            yield from _long_tuples(value, (*path, name))
            continue
        kind = get_args(info.annotation)
        if (
            isinstance(value, tuple)
            and len(value) >= STREAM_MIN
            and len(kind) == 2
            and kind[1] is Ellipsis
            and isinstance(kind[0], type)
            and issubclass(kind[0], Model)
            and all(type(v) is kind[0] for v in value)
        ):
            yield (*path, name), kind[0], value


def _emptied(model: BaseModel, paths: list[tuple[str, ...]]) -> BaseModel:
    """``model`` with the tuples at ``paths`` empty (not validated again: the rest is as read)."""
    update: dict[str, Any] = {}
    for name in dict.fromkeys(p[0] for p in paths):
        inner = [p[1:] for p in paths if p[0] == name and len(p) > 1]
        update[name] = _emptied(getattr(model, name), inner) if inner else ()
    return model.model_copy(update=update)
