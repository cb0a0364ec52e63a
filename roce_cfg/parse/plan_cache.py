"""lint's plan kept in the parse cache's folder: what lint reads of fabric.json (``LintPlan``,
parse/hints.py) validated once and kept in columns under a hash of fabric.json's bytes and the
parse cache's stamp, so that a folder linted again with fabric.json unchanged does not decode
its JSON and validate every row (40 MB and 100,000 rows at 1,280 switches: a second of one
core, against a tenth for the entry).

An entry (``plan-<hash>.json.z`` beside the parse cache's entries, counted in its bound) holds a
table of strings and, per kind of row, one column per field: a string by its index in the table, an
address by its number, a figure as itself. It is written through roce_cfg/output.py once
fabric.json has validated, and read through roce_cfg/safepath.py, sealed (roce_cfg/seal.py, under a
key for these entries alone: one edited or copied from another name is refused before it is
inflated). On load every column is validated as fabric.json's field is (strictly: the types
written, the same bounds), the roles and vendors too, and each kind's rows are held to the plan's
ceilings; any doubt (an entry that cannot be read, authenticated, decompressed or validated, or
says it was written for other bytes or under another stamp) means fabric.json is read and
validated, and its errors are reported as ever. ``--no-cache`` (no ``ParseCache``) reads
fabric.json.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict

from roce_cfg.model.fabric import Gbps, Metres, VlanId
from roce_cfg.parse.cache import SUFFIX, ParseCache
from roce_cfg.parse.columns import Addresses, Index, columns_of, keep_entry, kept_entry, read_rows
from roce_cfg.parse.context import Role
from roce_cfg.parse.hints import (
    EarlyPlan,
    LintPlan,
    PlanLink,
    PlanNic,
    PlanRail,
    PlanSwitch,
    validated_plan,
)
from roce_cfg.safepath import read_bytes
from roce_cfg.seal import Seal
from roce_cfg.vendor import Vendor
from roce_cfg.yamlsrc import FABRIC_JSON

FORMAT = "roce-cfg/lint-plan/v2"
# What the MAC key of these entries is derived for (cache_key.subkey): these entries alone.
_USE = "lint plan entries"
PREFIX = "plan-"
# The xl plan's entry is 1.5 MB compressed, 6 MB as JSON; a plan at the ceilings a few times it.
MAX_ENTRY_BYTES = 64 * 2**20
MAX_JSON_BYTES = 256 * 2**20


class _Entry(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    format: Literal["roce-cfg/lint-plan/v2"]
    stamp: str
    key: str  # the hash of fabric.json's bytes and the stamp the entry is named by
    name: str
    strings: list[str]
    switches: tuple[Index, Index, Index, Index]
    links: tuple[Index, Index, Addresses, Index, Index, Addresses, list[Gbps], list[Metres]]
    nics: tuple[Index, Index, list[VlanId], list[Gbps], list[Metres]]
    rails: tuple[list[int], list[VlanId], Index]


# How each field of a kind of row is kept: 's' a string (by its index), 'a' an address (by its
# number), 'n' a figure (as itself); the order of the row's fields, and of _Entry's columns.
_ROWS: dict[str, tuple[Callable[..., Any], str]] = {
    "switches": (PlanSwitch, "ssss"),
    "links": (PlanLink, "ssassann"),
    "nics": (PlanNic, "ssnnn"),
    "rails": (PlanRail, "nns"),
}
_ROLES = frozenset(get_args(Role))


def lint_plan(path: Path, cache: ParseCache | None) -> EarlyPlan[LintPlan]:
    """fabric.json as lint reads it: from ``cache``'s folder when an entry is kept there for
    its bytes, else read and validated, and kept there once it has validated."""
    seal = Seal.of(_USE) if cache is not None else None
    if cache is None or seal is None:
        return EarlyPlan(path, validated_plan)
    raw = read_bytes(path, what=FABRIC_JSON.what, max_bytes=FABRIC_JSON.max_bytes)
    h = hashlib.blake2b(f"{FORMAT}\0{cache.stamp}\0".encode(), digest_size=20)
    h.update(raw)
    key = h.hexdigest()
    kept = _load(seal, cache, key)
    if kept is not None:
        return EarlyPlan(path, validated_plan, kept=kept)
    return EarlyPlan(path, validated_plan, raw=raw, then=partial(_store, seal, cache, key))


def _entry(seal: Seal, cache: ParseCache, key: str) -> tuple[Seal, Path]:
    return seal, cache.folder / f"{PREFIX}{key}{SUFFIX}"


def _load(seal: Seal, cache: ParseCache, key: str) -> LintPlan | None:
    bounds = (MAX_ENTRY_BYTES, MAX_JSON_BYTES)
    return kept_entry(_entry(seal, cache, key), bounds, _Entry, (cache.stamp, key), _plan)


def _plan(entry: _Entry) -> LintPlan:
    """The plan ``entry`` holds; a ValueError or IndexError when its columns do not make one."""
    table = entry.strings
    switches = _rows(table, "switches", entry.switches)
    if not {s.role for s in switches} <= _ROLES:
        raise ValueError("not a role")
    switches = [s._replace(vendor=Vendor(s.vendor)) for s in switches]
    return LintPlan(
        entry.name,
        tuple(switches),
        tuple(_rows(table, "links", entry.links)),
        tuple(_rows(table, "nics", entry.nics)),
        tuple(_rows(table, "rails", entry.rails)),
    )


def _rows(table: list[str], kind: str, columns: Sequence[list[Any]]) -> list[Any]:
    return read_rows(table, kind, columns, *_ROWS[kind])


def _store(seal: Seal, cache: ParseCache, key: str, plan: LintPlan) -> None:
    """``plan`` kept under ``key`` (nothing kept when it cannot be written)."""
    table: dict[str, int] = {}
    doc: dict[str, Any] = {"format": FORMAT, "stamp": cache.stamp, "key": key, "name": plan.name}
    for kind, (_, how) in _ROWS.items():
        rows: tuple[tuple[Any, ...], ...] = getattr(plan, kind)
        doc[kind] = columns_of(table, rows, how)
    doc["strings"] = list(table)
    keep_entry(_entry(seal, cache, key), doc)
