"""Vendor profiles: interface naming, models, the CLI dialect (platforms/dialect.py) and the
provenance of each section.

Every template section a vendor renders is listed under ``sections`` with ``status``:
``verified`` (syntax and meaning from the cited source), ``partial`` (syntax sourced, a unit or
range not), ``unverified`` (no public source: closest consistent form, the user is warned) or
``user`` (supplied by the operator's overlay).
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from roce_cfg import safepath
from roce_cfg.errors import InputError
from roce_cfg.grammar import Grammar, load_grammar
from roce_cfg.platforms.dialect import Dialect
from roce_cfg.platforms.parse_spec import (
    ParseSpec,
)
from roce_cfg.platforms.routes import RoutePreference, Status
from roce_cfg.platforms.scheduling import SchedulingDefault
from roce_cfg.platforms.steps import LintSpec
from roce_cfg.resources import vendors_dir
from roce_cfg.vendor import OVERLAY_ENV, Vendor
from roce_cfg.yamlsrc import PROFILE, load_file


class _Data(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class SectionProvenance(_Data):
    status: Status
    source: str = ""
    note: str = ""


class PortGroup(_Data):
    # Bounded like real hardware: a vendors/*.yaml overlay is hand-written, and a count of
    # 10^18 or a 0G cage once hung or divided by zero in generate and plan.
    count: int = Field(ge=1, le=1024)
    speed: int = Field(gt=0, le=1600, description="native speed of the cage, Gb/s")
    label: str = Field(
        max_length=64,
        pattern=r"^[^{}]*\{n\}[^{}]*$",
        description="port label with {n}, e.g. '1/0/{n}'",
    )
    first: int = 1
    runs_at: tuple[Annotated[int, Field(gt=0, le=1600)], ...] = Field(
        default=(), description="lower speeds one port can run at"
    )
    breakout: tuple[Annotated[int, Field(gt=0, le=1600)], ...] = Field(
        default=(), description="sub-port speeds of a breakout"
    )

    def has_legs_named(self, speed: int | None) -> bool:
        """Whether a leg named by a type of ``speed`` is this group's: by its own speed (H3C
        'HundredGigE1/0/1:1') or its parent's type (Huawei '400GE1/0/7:1' [HW-CR port split])."""
        return speed in self.breakout or bool(self.breakout and speed == self.speed)


class ModelSpec(_Data):
    ports: tuple[PortGroup, ...]
    buffer_bytes: int | None = None
    cell_bytes: int = Field(gt=0, le=65536)
    cell_unconfirmed: bool = Field(
        default=False,
        description="no source gives this model's cell size (cell_bytes is an assumption): a "
        "headroom counted in cells is not judged, lint says it cannot verify it (RC204)",
    )
    headroom_pool_bytes: int | None = None
    headroom_default_bytes: int | None = Field(
        default=None,
        ge=0,
        le=2**40,
        description="per-port, per-queue headroom in force when no headroom line is printed "
        "(None: no source gives it)",
    )
    max_no_drop: int = 2
    headroom_configurable: bool = True
    needs_headroom_pool: bool = False
    ecmp_default: int | None = Field(
        default=None,
        ge=1,
        le=4096,
        description="ECMP paths the device installs before its reboot-time ECMP setting is "
        "raised (None: no source gives it)",
    )
    known: bool = Field(
        default=True,
        description="False: a model the profile does not list (its buffer figures are unknown)",
    )
    frame_default_bytes: int | None = Field(
        default=None,
        ge=64,
        le=65536,
        description="the frame limit of a port with no frame-limit line (None: no source gives it)",
    )
    source: str = ""


class HeadroomConstants(_Data):
    mac_phy_delay_bytes: int | None = Field(
        default=None,
        ge=0,
        le=1 << 20,
        description="bytes of MAC/PHY delay both ends together, where the vendor measures it "
        "(None: IEEE 802.3's interface delay bound per speed, roce_cfg/design/headroom.py)",
    )
    small_packet_percent: int = Field(ge=0, le=100)
    min_packet_bytes: int = Field(default=64, gt=0, le=16384)
    source: str = ""


class TimerSpec(_Data):
    """How a vendor expresses the watchdog: a granularity (ms) times a small step count."""

    granularities_ms: dict[str, Annotated[int, Field(gt=0, le=100000)]]
    max_detect_steps: int
    max_restore_steps: int
    ms_commands: dict[Literal["detect", "restore"], str] = Field(
        default={},
        description="grammar commands that take the times in milliseconds on the models they "
        "name (their parameter 'ms' gives the range); other models use the steps above",
    )


class EcmpLimit(_Data):
    """A device-wide cap on ECMP paths below the routing protocol's own (H3C max-ecmp-num):
    'balance N' above it installs only the cap's number of paths."""

    setting: str = Field(description="the command that raises the cap, as the operator types it")
    line: str = Field(description="regex of that command in a saved config; group 1 = the cap")
    reboot: bool = Field(description="the new cap takes effect only after a reboot")
    source: str = ""


class ManagedObject(_Data):
    """A kind of line that names one object (a BGP peer, a VLAN, an interface): roce-cfg owns
    the object in a view only when the intended config names the same object there."""

    within: tuple[str, ...] = Field(
        default=(), description="regexes of the enclosing view lines, outermost first (root: [])"
    )
    line: str = Field(description="regex of the line; the group 'key' names the object")
    prune: bool = Field(
        default=True, description="push --prune may remove objects of this kind not intended"
    )
    renames: bool = Field(
        default=False,
        description="an intent change renames such objects (the rail VLAN and its VLAN "
        "interface): one the intent no longer names is removed, after the new one is in "
        "place, when the intent adds one of the same kind with the same shape",
    )


class ManagedScope(_Data):
    """Which running lines push may change (hier_config's idea of a managed scope)."""

    objects: tuple[ManagedObject, ...] = ()


class VendorProfile(_Data):
    vendor: Vendor
    os: str
    negation: str
    error_patterns: tuple[str, ...]
    interface_prefix: dict[int, str]
    breakout_suffix: str
    vlan_interface: str
    loopback_interface: str
    headroom_unit_bytes: Annotated[int, Field(gt=0)] | Literal["cell"]
    headroom_unit_unconfirmed: bool = Field(
        default=False,
        description="no source gives the unit a headroom line (and pool) counts in: the figure "
        "is read as headroom_unit_bytes, an assumption, so no shortfall, waste or overflow is "
        "concluded from it (RC204 says it cannot verify it)",
    )
    ecn_unit_bytes: Annotated[int, Field(gt=0)] | Literal["cell"]
    watchdog_timer: TimerSpec
    headroom: HeadroomConstants
    default_model: str
    models: dict[str, ModelSpec]
    sections: dict[str, SectionProvenance]
    parse: ParseSpec
    dialect: Dialect
    lint: LintSpec = LintSpec()
    managed: ManagedScope = ManagedScope()
    ecmp_limit: EcmpLimit | None = None
    # None: no source gives a port's scheduling where it prints none (RC107 cannot verify it)
    scheduling_default: SchedulingDefault | None = None
    route_preference: RoutePreference | None = None
    wred_table_name: str = "ROCE"
    queue_names: tuple[str, ...] = ("be", "af1", "af2", "af3", "af4", "ef", "cs6", "cs7")
    # The overlay folder the profile was loaded with (never read from YAML): its grammar, merged
    # over ours, is the one push, remediation and rollback type and check against.
    overlay: Path | None = Field(default=None, exclude=True)

    def grammar(self) -> Grammar:
        """The CLI grammar of this profile: the bundled one with the overlay's merged over it."""
        return load_grammar(self.vendor.value, self.overlay)

    def model_spec(self, name: str | None) -> tuple[str, ModelSpec]:
        key = name or self.default_model
        if key not in self.models:
            known = ", ".join(sorted(self.models))
            raise KeyError(f"unknown {self.vendor.value} model '{key}' (known: {known})")
        return key, self.models[key]

    def spec_of(self, name: str, layout: ModelSpec | None = None) -> ModelSpec:
        """The model's figures; for a model the profile does not list, a stand-in that knows
        nothing of its buffer (rules needing it say 'cannot verify'), with the port layout of
        ``layout`` (the listed model its ports fit) so its port names can still be read."""
        if name in self.models:
            return self.models[name]
        like = layout or self.models[self.default_model]
        return ModelSpec(
            ports=like.ports,
            cell_bytes=like.cell_bytes,  # only to read sizes printed in cells; rules skip it
            buffer_bytes=None,
            headroom_pool_bytes=None,
            max_no_drop=len(self.queue_names),
            needs_headroom_pool=False,
            known=False,
            source=f"not in vendors/{self.vendor.value}.yaml",
        )

    def unit_bytes(self, unit: int | Literal["cell"], model: ModelSpec) -> int:
        return model.cell_bytes if unit == "cell" else unit


def _merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        else:
            out[key] = value
    return out


def overlay_dir(explicit: Path | None) -> Path | None:
    env = os.environ.get(OVERLAY_ENV)
    found = explicit if explicit is not None else Path(env) if env else None
    if found is not None:
        # A mistyped --vendor-dir silently gave the bundled syntax.
        what = "--vendor-dir" if explicit is not None else OVERLAY_ENV
        if not found.is_dir():
            kind = safepath.kind(found.stat().st_mode) if found.exists() else "no such folder"
            raise InputError(f"{found}: {kind} (the overlay of your own syntax)", path=what)
        from roce_cfg.redact import use_overlay

        use_overlay(found)  # its secrets tables apply to everything printed from here on
    return found


@cache
def load_profile(vendor: Vendor, overlay: Path | None = None) -> VendorProfile:
    """Bundled profile, with ``overlay/vendors/<vendor>.yaml`` merged over it key by key."""
    path = vendors_dir() / f"{vendor.value}.yaml"
    data, _ = load_file(path, PROFILE)
    user_sections: set[str] = set()
    # The bundled profile validates on its own (tests); merged, a bad value is the overlay's.
    blame = path
    if overlay is not None:
        user = overlay / "vendors" / f"{vendor.value}.yaml"
        if os.path.lexists(user):  # a FIFO or a link out of the overlay: refused, not skipped
            extra, _ = load_file(user, PROFILE, root=overlay)
            if not isinstance(extra, dict):
                raise InputError("must be a YAML mapping", file=str(user))
            data = _merge(data, extra)
            blame = user
        user_sections = _overlaid_sections(overlay, vendor)
    for name in user_sections:
        data.setdefault("sections", {})[name] = {
            "status": "user",
            "source": f"overlay {overlay}",
        }
    try:
        return VendorProfile.model_validate(data).model_copy(update={"overlay": overlay})
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = ".".join(str(p) for p in first["loc"])
        raise InputError(f"{loc}: {first['msg']}", file=str(blame)) from None


def _overlaid_sections(overlay: Path, vendor: Vendor) -> set[str]:
    sections = overlay / "templates" / vendor.value / "sections"
    if not sections.is_dir():
        return set()
    return {p.name.split(".")[0] for p in sections.glob("*.j2")}


def load_profiles(overlay: Path | None = None) -> dict[Vendor, VendorProfile]:
    return {v: load_profile(v, overlay) for v in _bundled_vendors()}


@cache  # the package's own files: a stat per vendor per parsed config otherwise
def _bundled_vendors() -> tuple[Vendor, ...]:
    return tuple(v for v in Vendor if (vendors_dir() / f"{v}.yaml").exists())
