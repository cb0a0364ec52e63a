"""A plan's rows kept as columns in a cache entry (parse/plan_cache.py for lint,
parse/whole_plan.py for report and deadlock): each field of a kind of row one column, its
strings by their index in one table of the entry, its addresses by number, its figures as
themselves; read back into rows with every index, length and count checked. Both kinds of
entry are sealed (roce_cfg/seal.py), each under a key of its own."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, Any, TypeVar

from pydantic import BaseModel, Field, ValidationError

from roce_cfg.errors import InputError
from roce_cfg.memo import made, touch
from roce_cfg.model.ceilings import MAX_GPUS, MAX_LINKS, MAX_SWITCHES
from roce_cfg.model.fast import address
from roce_cfg.parse.hints import IfAddress
from roce_cfg.seal import Seal, write_cached
from roce_cfg.yamlsrc import FABRIC_JSON

E = TypeVar("E", bound=BaseModel)
T = TypeVar("T")
_row = tuple.__new__  # a named tuple of its values, without its class's Python-level __new__

Index = list[Annotated[int, Field(ge=0)]]  # strings, by their index in the entry's table
Addresses = list[Annotated[int, Field(ge=0, lt=1 << 32)]]

# The most rows of each kind a fabric.json that validates holds: the plan's ceilings
# (hints.plan_data refuses more before validating) and the items one of its lists may hold.
MOST = {
    "switches": MAX_SWITCHES,
    "links": MAX_LINKS,
    "nics": MAX_GPUS,
    "rails": FABRIC_JSON.max_items,
}


def kept_entry(
    sealed: tuple[Seal, Path],
    bounds: tuple[int, int],
    model: type[E],
    whose: tuple[str, str],
    build: Callable[[E], T],
) -> T | None:
    """What the entry in ``sealed``'s path keeps, built by ``build`` from it read as ``model``
    (at most ``bounds``: its bytes, its JSON inflated), when its seal verifies and it was
    written under ``whose`` (the stamp, the key it is named by); None for any doubt:
    fabric.json is read then."""
    seal, path = sealed
    doc = seal.opened(path, *bounds)
    try:
        if doc is None:
            return None  # missing, sealed otherwise, too large for an entry, or cut short
        entry = model.model_validate_json(doc)
        if (getattr(entry, "stamp", None), getattr(entry, "key", None)) != whose:
            return None
        built = build(entry)
    except (InputError, ValidationError, ValueError, IndexError):
        return None  # foreign or corrupt
    touch(path)
    return built


def keep_entry(sealed: tuple[Seal, Path], doc: dict[str, Any]) -> None:
    """``doc`` kept sealed in ``sealed``'s path (nothing kept when it cannot be written)."""
    seal, path = sealed
    if made(path.parent):
        write_cached(path, json.dumps(doc, separators=(",", ":")), seal)


def read_rows(
    table: list[str], kind: str, columns: Sequence[list[Any]], row: Callable[..., Any], how: str
) -> list[Any]:
    """The rows of ``kind`` its ``columns`` hold, each made by ``row``; ``how`` each column
    is kept: 's' a string (by its index), 'a' an address (by its number), 'n' as itself. A
    ValueError or IndexError when they do not make rows of a plan."""
    if len({len(c) for c in columns}) > 1:
        raise ValueError("columns of different lengths")
    if len(columns[0]) > MOST[kind]:
        raise ValueError("more rows than a fabric.json holds")
    fields: list[Sequence[Any]] = []
    for column, keep in zip(columns, how, strict=True):
        if keep == "s":
            if column and max(column) >= len(table):
                raise IndexError("no such string")
            fields.append([table[i] for i in column])
        elif keep == "a":
            fields.append(_addresses(column))
        else:
            fields.append(column)
    return list(map(row, *fields))


def _addresses(column: list[Any]) -> list[IfAddress]:
    """The addresses a column keeps by number, each built without the checks of ipaddress
    and of IfAddress's constructor (fast.address: a number in range; 131,072 link addresses
    in the plan of the xl fabric, 0.1 s of every lint of it)."""
    if not all(type(n) is int for n in column):
        raise ValueError("an address that is not a number")
    return [_row(IfAddress, (address(n),)) for n in column]


def columns_of(table: dict[str, int], rows: Sequence[Sequence[Any]], how: str) -> list[list[Any]]:
    """``rows`` as the columns ``read_rows`` reads back, their strings added to ``table``."""
    columns = list(zip(*rows, strict=True)) or [() for _ in how]
    return [_column(table, c, keep) for c, keep in zip(columns, how, strict=True)]


def _column(table: dict[str, int], values: Sequence[Any], keep: str) -> list[Any]:
    if keep == "s":
        return [table.setdefault(str(v), len(table)) for v in values]
    if keep == "a":
        return [int(v.ip) for v in values]
    return list(values)
