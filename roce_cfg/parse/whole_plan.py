"""fabric.json as report and deadlock read it, kept in the parse cache's folder: they validate
the whole plan (``load_fabric``: a fabric.json lint would take, e.g. with a NIC's bad gateway,
stops them), but read of it only the rows lint reads and each switch's rail and pod. Once the
whole plan has validated, those are kept (``plan_cache``'s way: a table of strings and one
column per field) under a hash of fabric.json's bytes and the parse cache's stamp, so that a
folder read again with fabric.json unchanged neither decodes its 40 MB of JSON nor validates
its 100,000 rows (1.2 s of one core at xl, against a tenth for the entry).

An entry (``whole-<hash>.json.z`` beside the parse cache's entries, counted in its bound) is
written through roce_cfg/output.py and read through roce_cfg/safepath.py, sealed (roce_cfg/seal.py,
under a key for these entries alone: one edited or copied from another name is refused before it is
inflated). On load every column is validated as fabric.json's field is (strictly: the types
written, the same bounds), the roles and vendors too, and each kind's rows are held to the plan's
ceilings; any doubt (an entry that cannot be read, authenticated, decompressed or validated, or
says it was written for other bytes or under another stamp) means fabric.json is read and validated
as a whole, and its errors are reported as ever. ``--no-cache`` (no ``ParseCache``) reads
fabric.json.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any, Literal, NamedTuple, get_args

from pydantic import BaseModel, ConfigDict

from roce_cfg.model.fabric import Fabric, Gbps, Metres, VlanId
from roce_cfg.parse import Hints
from roce_cfg.parse.cache import SUFFIX, ParseCache
from roce_cfg.parse.columns import Addresses, Index, columns_of, keep_entry, kept_entry, read_rows
from roce_cfg.parse.context import Role
from roce_cfg.parse.hints import (
    EarlyPlan,
    IfAddress,
    LintPlan,
    PlanLink,
    PlanNic,
    PlanRail,
    PlanSwitch,
    hints_from_plan,
    plan_data,
    validated_fabric,
)
from roce_cfg.safepath import read_bytes
from roce_cfg.seal import Seal
from roce_cfg.vendor import Vendor
from roce_cfg.yamlsrc import FABRIC_JSON

FORMAT = "roce-cfg/whole-plan/v2"
# What the MAC key of these entries is derived for (cache_key.subkey): these entries alone.
_USE = "whole plan entries"
PREFIX = "whole-"
# The xl entry is about 1.5 MB compressed, 6 MB as JSON; a plan at the ceilings a few times it.
MAX_ENTRY_BYTES = 64 * 2**20
MAX_JSON_BYTES = 256 * 2**20


class KeptPlan(NamedTuple):
    """What report and deadlock read of a fabric.json that validated as a whole: lint's rows,
    and each switch's rail and pod (``plan.switches``' order)."""

    plan: LintPlan
    rails: tuple[int | None, ...]
    pods: tuple[int | None, ...]

    def by_switch(self, column: tuple[int | None, ...]) -> dict[str, int | None]:
        """hostname -> its value in ``column`` (``rails`` or ``pods``)."""
        return dict(zip((s.hostname for s in self.plan.switches), column, strict=True))


def kept_of(fabric: Fabric) -> KeptPlan:
    """The rows of the validated ``fabric`` that an entry keeps."""
    switches = tuple(PlanSwitch(s.hostname, s.role, s.vendor, s.model) for s in fabric.switches)
    links = tuple(
        PlanLink(
            k.a_device,
            k.a_port,
            IfAddress(k.a_ip.ip),
            k.b_device,
            k.b_port,
            IfAddress(k.b_ip.ip),
            k.speed_gbps,
            k.cable_m,
        )
        for k in fabric.links
    )
    nics = tuple(PlanNic(n.switch, n.port, n.vlan, n.speed_gbps, n.cable_m) for n in fabric.nics)
    rails = tuple(PlanRail(r.rail, r.vlan, r.switch) for r in fabric.rails)
    return KeptPlan(
        LintPlan(fabric.name, switches, links, nics, rails),
        tuple(s.rail for s in fabric.switches),
        tuple(s.pod for s in fabric.switches),
    )


def whole_plan(path: Path, cache: ParseCache | None) -> Fabric | KeptPlan:
    """fabric.json validated as a whole; from ``cache``'s folder when an entry is kept there
    for its bytes (an InputError naming the first bad field when it is not a plan)."""
    seal = Seal.of(_USE) if cache is not None else None
    if cache is None or seal is None:
        return validated_fabric(plan_data(path), path)
    raw, key = _keyed(path, cache)
    kept = _load(seal, cache, key)
    if kept is not None:
        return kept
    fabric = validated_fabric(plan_data(path, raw), path)
    _store(seal, cache, key, fabric)
    return fabric


class EarlyWhole:
    """``whole_plan`` for a command that parses configs against fabric.json (deadlock): its
    hints at once (``EarlyPlan``'s, or the kept plan's), the plan when asked (``validated``)."""

    def __init__(self, path: Path, cache: ParseCache | None) -> None:
        self._kept: KeptPlan | None = None
        self._early: EarlyPlan[Fabric] | None = None
        seal = Seal.of(_USE) if cache is not None else None
        if cache is None or seal is None:
            self._early = EarlyPlan(path, validated_fabric)
        else:
            raw, key = _keyed(path, cache)
            self._kept = _load(seal, cache, key)
            if self._kept is None:
                then = partial(_store, seal, cache, key)
                self._early = EarlyPlan(path, validated_fabric, raw=raw, then=then)
        self.hints: dict[str, Hints] = (
            self._early.hints if self._early is not None else hints_from_plan(self.validated())
        )

    def validated(self) -> LintPlan:
        """The plan's rows; an InputError naming the first bad field when it is not a plan."""
        if self._kept is None:
            assert self._early is not None  # one of the two is set
            self._kept = kept_of(self._early.validated())
        return self._kept.plan


def _keyed(path: Path, cache: ParseCache) -> tuple[bytes, str]:
    raw = read_bytes(path, what=FABRIC_JSON.what, max_bytes=FABRIC_JSON.max_bytes)
    h = hashlib.blake2b(f"{FORMAT}\0{cache.stamp}\0".encode(), digest_size=20)
    h.update(raw)
    return raw, h.hexdigest()


_Maybe = list[int | None]


class _Entry(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    format: Literal["roce-cfg/whole-plan/v2"]
    stamp: str
    key: str  # the hash of fabric.json's bytes and the stamp the entry is named by
    name: str
    strings: list[str]
    switches: tuple[Index, Index, Index, Index, _Maybe, _Maybe]
    links: tuple[Index, Index, Addresses, Index, Index, Addresses, list[Gbps], list[Metres]]
    nics: tuple[Index, Index, list[VlanId], list[Gbps], list[Metres]]
    rails: tuple[list[int], list[VlanId], Index]


# How each field of a kind of row is kept: 's' a string (by its index), 'a' an address (by its
# number), 'n' a figure or None (as itself); the order of the row's fields, and of _Entry's
# columns. A switch's row is PlanSwitch's fields, then its rail and pod.
_ROWS: dict[str, tuple[Callable[..., Any], str]] = {
    "switches": (lambda *fields: fields, "ssssnn"),
    "links": (PlanLink, "ssassann"),
    "nics": (PlanNic, "ssnnn"),
    "rails": (PlanRail, "nns"),
}
_ROLES = frozenset(get_args(Role))


def _entry(seal: Seal, cache: ParseCache, key: str) -> tuple[Seal, Path]:
    return seal, cache.folder / f"{PREFIX}{key}{SUFFIX}"


def _load(seal: Seal, cache: ParseCache, key: str) -> KeptPlan | None:
    bounds = (MAX_ENTRY_BYTES, MAX_JSON_BYTES)
    return kept_entry(_entry(seal, cache, key), bounds, _Entry, (cache.stamp, key), _kept)


def _kept(entry: _Entry) -> KeptPlan:
    """The plan ``entry`` holds; a ValueError or IndexError when its columns do not make one."""
    table = entry.strings
    rows = _rows(table, "switches", entry.switches)
    if not {r[1] for r in rows} <= _ROLES:
        raise ValueError("not a role")
    switches = tuple(PlanSwitch(h, role, Vendor(v), m) for h, role, v, m, _, _ in rows)
    plan = LintPlan(
        entry.name,
        switches,
        tuple(_rows(table, "links", entry.links)),
        tuple(_rows(table, "nics", entry.nics)),
        tuple(_rows(table, "rails", entry.rails)),
    )
    return KeptPlan(plan, tuple(r[4] for r in rows), tuple(r[5] for r in rows))


def _rows(table: list[str], kind: str, columns: Sequence[list[Any]]) -> list[Any]:
    return read_rows(table, kind, columns, *_ROWS[kind])


def _store(seal: Seal, cache: ParseCache, key: str, fabric: Fabric) -> None:
    """The validated ``fabric``'s rows kept under ``key`` (nothing kept when they cannot be
    written)."""
    kept = kept_of(fabric)
    plan = kept.plan
    table: dict[str, int] = {}
    doc: dict[str, Any] = {"format": FORMAT, "stamp": cache.stamp, "key": key, "name": plan.name}
    switches = [(*s, r, p) for s, r, p in zip(plan.switches, kept.rails, kept.pods, strict=True)]
    for kind, rows in (
        ("switches", switches),
        ("links", plan.links),
        ("nics", plan.nics),
        ("rails", plan.rails),
    ):
        how = _ROWS[kind][1]
        doc[kind] = columns_of(table, rows, how)
    doc["strings"] = list(table)
    keep_entry(_entry(seal, cache, key), doc)
