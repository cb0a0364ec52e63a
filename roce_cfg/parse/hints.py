"""Hints from a generated fabric.json: the model, role and link speeds a config cannot state.

``load_fabric`` reads the whole plan; ``load_lint_plan`` only what lint checks configs against:
at 1,280 switches fabric.json is 40 MB, and validating every address in it as an
``IPv4Interface`` (a network object each) and every headroom term was 6 % of an xl lint.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import replace
from ipaddress import IPv4Address, IPv4Interface
from pathlib import Path
from typing import Annotated, Any, Generic, NamedTuple, TypeVar

from pydantic import BaseModel, ConfigDict, PlainValidator, ValidationError

from roce_cfg.errors import InputError
from roce_cfg.model.ceilings import MAX_GPUS, MAX_LINKS, MAX_SWITCHES
from roce_cfg.model.fabric import Bytes, Fabric, Gbps, Metres, VlanId
from roce_cfg.model.numbers import QUAD, quad
from roce_cfg.parse import Hints
from roce_cfg.parse.context import Role
from roce_cfg.vendor import Vendor
from roce_cfg.yamlsrc import FABRIC_JSON, load_json


def hints_from_fabric(path: Path) -> dict[str, Hints]:
    return hints_from_plan(load_fabric(path))


def load_fabric(path: Path) -> Fabric:
    """A fabric.json written by ``generate`` (devices are not in it)."""
    return validated_fabric(plan_data(path), path)


def validated_fabric(data: Any, path: Path) -> Fabric:
    """``plan_data``'s data as the whole plan (``load_fabric``)."""
    return _checked(Fabric, {**data, "devices": []} if isinstance(data, dict) else data, path)


class IfAddress(NamedTuple):
    """An interface address of fabric.json as lint reads it: the address (what evidence
    matches BGP peers with); the prefix length is checked, not kept."""

    ip: IPv4Address


# What generate writes, 'a.b.c.d/len', in one match: the dotted quads ipaddress accepts (no
# leading zeros, ASCII digits) and the lengths _if_address takes for one. fabric.json holds
# 131,072 link addresses at xl; ipaddress's own parse of them was a third of loading it.
_USUAL = re.compile(rf"({QUAD})(?:/(?:[0-2]?[0-9]|3[0-2]))?")


def _if_address(value: Any) -> IfAddress:
    usual = _USUAL.fullmatch(value) if isinstance(value, str) else None
    if usual is not None:
        return IfAddress(IPv4Address(quad(usual[1])))
    return _if_address_as_ipaddress_reads_it(value)


def _if_address_as_ipaddress_reads_it(value: Any) -> IfAddress:
    if not isinstance(value, str):
        raise ValueError("an interface address is a string ('10.0.0.1/31')")
    addr, slash, length = value.partition("/")
    if slash and not (length.isdigit() and len(length) <= 2 and int(length) <= 32):
        return IfAddress(IPv4Interface(value).ip)  # a netmask form, or refused as ipaddress says
    return IfAddress(IPv4Address(addr))  # AddressValueError is a ValueError: a one-line error


class PlanSwitch(NamedTuple):
    hostname: str
    role: Role
    vendor: Vendor
    model: str


class PlanLink(NamedTuple):
    a_device: str
    a_port: str
    a_ip: IfAddress
    b_device: str
    b_port: str
    b_ip: IfAddress
    speed_gbps: int
    cable_m: float


class PlanNic(NamedTuple):
    switch: str
    port: str
    vlan: int
    speed_gbps: int
    cable_m: float


class PlanRail(NamedTuple):
    rail: int
    vlan: int
    switch: str


class LintPlan(NamedTuple):
    """What of fabric.json lint checks configs against: switches, links, NICs, rails. Plain
    tuples, not models: a plan kept in the cache folder (parse/plan_cache.py) is rebuilt from
    its columns in a fraction of what building 100,000 models takes."""

    name: str
    switches: tuple[PlanSwitch, ...]
    links: tuple[PlanLink, ...]
    nics: tuple[PlanNic, ...]
    rails: tuple[PlanRail, ...]


class _Lax(BaseModel):
    # Only the fields lint reads are declared; the rest of each entry is not validated.
    model_config = ConfigDict(frozen=True, extra="ignore")


class _Doc:
    """How fabric.json is validated into a ``LintPlan``: one model per kind of row, its fields
    those of the row's tuple in their order (``_rows`` relies on it; a test holds them alike),
    each named as its row (a validation error names the model: the messages stay as they were
    when the rows were these models)."""

    class PlanSwitch(_Lax):
        hostname: str
        role: Role
        vendor: Vendor
        model: str

    class PlanLink(_Lax):
        a_device: str
        a_port: str
        a_ip: Annotated[IfAddress, PlainValidator(_if_address)]
        b_device: str
        b_port: str
        b_ip: Annotated[IfAddress, PlainValidator(_if_address)]
        speed_gbps: Gbps
        cable_m: Metres

    class PlanNic(_Lax):
        switch: str
        port: str
        vlan: VlanId
        speed_gbps: Gbps
        cable_m: Metres

    class PlanRail(_Lax):
        rail: int
        vlan: VlanId
        switch: str

    class PlanHeadroom(_Lax):
        # not used by lint, but a hand-edited figure here is refused as before (bounded input)
        switch: str
        speed_gbps: Gbps
        cable_m: Metres
        priority: int
        required_bytes: Bytes
        configured_bytes: Bytes | None

    class LintPlan(_Lax):
        # named through _Doc: the models above, not the module's rows (built once _Doc is)
        name: str
        switches: tuple[_Doc.PlanSwitch, ...]
        links: tuple[_Doc.PlanLink, ...]
        nics: tuple[_Doc.PlanNic, ...]
        rails: tuple[_Doc.PlanRail, ...]
        headroom: tuple[_Doc.PlanHeadroom, ...] = ()


_Doc.LintPlan.model_rebuild()


_Row = TypeVar("_Row", PlanSwitch, PlanLink, PlanNic, PlanRail)


def _rows(row: type[_Row], docs: tuple[_Lax, ...]) -> tuple[_Row, ...]:
    # a validated model's __dict__ holds its declared fields alone, in their order
    return tuple(map(row._make, (d.__dict__.values() for d in docs)))


def _lint_plan(doc: _Doc.LintPlan) -> LintPlan:
    return LintPlan(
        doc.name,
        _rows(PlanSwitch, doc.switches),
        _rows(PlanLink, doc.links),
        _rows(PlanNic, doc.nics),
        _rows(PlanRail, doc.rails),
    )


_Model = TypeVar("_Model", bound=BaseModel)


def load_lint_plan(path: Path) -> LintPlan:
    """fabric.json as lint reads it (``LintPlan``), bounded as ``load_fabric`` bounds it."""
    return validated_plan(plan_data(path), path)


def plan_data(path: Path, raw: bytes | None = None) -> Any:
    """fabric.json (``raw``: its bytes when read already) read and bounded, not yet
    validated (``validated_plan``)."""
    # A fabric of thousands of switches writes a fabric.json of tens of MB (headroom terms per
    # port); FABRIC_JSON allows that much.
    data = load_json(path, FABRIC_JSON, raw)
    if isinstance(data, dict):
        # Bounded by the plan ceilings before validation, the costly part for a large list.
        for key, most, what in (
            ("switches", MAX_SWITCHES, "switches"),
            ("links", MAX_LINKS, "links"),
            ("nics", MAX_GPUS, "NIC attachments"),
        ):
            items = data.get(key)
            if isinstance(items, list) and len(items) > most:
                raise InputError(
                    f"{key}: {len(items):,} {what}, more than the largest fabric roce-cfg "
                    f"designs ({most:,})",
                    file=str(path),
                )
    return data


def validated_plan(data: Any, path: Path) -> LintPlan:
    """``plan_data``'s data as lint reads it; an InputError naming the first bad field."""
    return _lint_plan(_checked(_Doc.LintPlan, data, path))


def _checked(model: type[_Model], data: Any, path: Path) -> _Model:
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = ".".join(str(p) for p in first["loc"])
        raise InputError(
            f"not a roce-cfg fabric.json: {loc}: {first['msg']}", file=str(path)
        ) from None


def hints_from_plan(fabric: Fabric | LintPlan) -> dict[str, Hints]:
    return _hints(
        [(s.hostname, s.model, s.role) for s in fabric.switches],
        [(k.a_device, k.a_port, k.b_device, k.b_port, k.speed_gbps) for k in fabric.links],
        [(n.switch, n.port, n.speed_gbps) for n in fabric.nics],
    )


def early_hints(data: Any) -> dict[str, Hints] | None:
    """The hints of ``plan_data``'s data before it is validated (lint's parse workers start
    on them while the parent validates), or None unless every field they take has
    the exact type validation keeps as it is: then, once it validates, they are
    ``hints_from_plan``'s. A bad value is refused by the validation that follows."""
    try:
        switches = [(s["hostname"], s["model"], s["role"]) for s in data["switches"]]
        links = [
            (k["a_device"], k["a_port"], k["b_device"], k["b_port"], k["speed_gbps"])
            for k in data["links"]
        ]
        nics = [(n["switch"], n["port"], n["speed_gbps"]) for n in data["nics"]]
    except (TypeError, KeyError, IndexError):  # not the shape validation accepts
        return None
    words = {type(w) for row in switches for w in row}
    words |= {type(w) for row in links for w in row[:4]}
    words |= {type(w) for row in nics for w in row[:2]}
    numbers = {type(k[4]) for k in links} | {type(n[2]) for n in nics}
    if not words <= {str} or not numbers <= {int}:  # e.g. a speed of '100' or 100.0: coerced
        return None
    return _hints(switches, links, nics)


_Plan = TypeVar("_Plan", Fabric, LintPlan)


class EarlyPlan(Generic[_Plan]):
    """fabric.json for a command that parses configs against it: its hints at once, read from
    the raw JSON where ``early_hints`` can, so that the parse workers start on them, and the
    plan validated when asked (``validated``), while they parse (validating the 40 MB xl
    fabric.json took 1.3 s of one core). Where the hints cannot be read early the
    plan is validated first, so a bad fabric.json still stops the command before any parse.
    ``raw``: fabric.json's bytes when read already; ``kept``: the plan when known already (read
    from the cache folder: fabric.json is not read at all); ``then``: called with the plan once
    it is validated."""

    def __init__(
        self,
        path: Path,
        validate: Callable[[Any, Path], _Plan],
        *,
        raw: bytes | None = None,
        kept: _Plan | None = None,
        then: Callable[[_Plan], None] | None = None,
    ) -> None:
        self._path = path
        self._validate: Callable[[Any, Path], _Plan] = validate
        self._then: Callable[[_Plan], None] | None = then
        self._planned: _Plan | None = kept
        self._data: Any = plan_data(path, raw) if kept is None else None
        early = early_hints(self._data) if kept is None else None
        self.hints = early if early is not None else hints_from_plan(self.validated())

    def validated(self) -> _Plan:
        """The plan; an InputError naming the first bad field when fabric.json is not one."""
        if self._planned is None:
            data, self._data = self._data, None  # the raw JSON, freed once validated
            self._planned = self._validate(data, self._path)
            if self._then is not None:
                self._then(self._planned)
        return self._planned


def _hints(
    switches: list[tuple[str, str, Any]],
    links: list[tuple[str, str, str, str, int]],
    nics: list[tuple[str, str, int]],
) -> dict[str, Hints]:
    speeds: dict[str, dict[str, int]] = {hostname: {} for hostname, _, _ in switches}
    for a_device, a_port, b_device, b_port, speed in links:
        speeds.setdefault(a_device, {})[a_port] = speed
        speeds.setdefault(b_device, {})[b_port] = speed
    for switch, port, speed in nics:
        speeds.setdefault(switch, {})[port] = speed
    return {
        hostname: Hints(model=model, role=role, speeds=speeds.get(hostname, {}))
        for hostname, model, role in switches
    }


def with_speeds(
    hints: Mapping[str, Hints], speeds: Mapping[tuple[str, str], int]
) -> Mapping[str, Hints]:
    """``hints`` with the port speeds a cabling plan states (``lint --cabling``): the plan's
    win over fabric.json's, as its cable lengths do."""
    if not speeds:
        return hints
    stated: dict[str, dict[str, int]] = {}
    for (device, port), gbps in speeds.items():
        stated.setdefault(device, {})[port] = gbps
    out = dict(hints)
    for device, ports in stated.items():
        had = out.get(device, Hints())
        out[device] = replace(had, speeds={**had.speeds, **ports})
    return out
