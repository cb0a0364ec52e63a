"""Render a DeviceConfig to a vendor's CLI text with jinja2. Templates format; they never decide.

``templates/<vendor>/device.j2`` is an ordered list of ``section('name')`` calls; each section is
``templates/<vendor>/sections/<name>.j2`` (port-level parts are ``<name>.port.j2``). An operator's
overlay directory is searched first, so a user partial replaces ours section by section. The
renderer records which sections produced text, so the provenance of every emitted line is known.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from ipaddress import IPv4Interface, IPv4Network
from pathlib import Path
from typing import Any

import jinja2

from roce_cfg.errors import InputError
from roce_cfg.model.device import DeviceConfig, Interface
from roce_cfg.platforms.profile import ModelSpec, VendorProfile
from roce_cfg.platforms.timers import watchdog_steps
from roce_cfg.resources import templates_dir


def _mask(value: IPv4Interface | IPv4Network) -> str:
    """``10.1.0.1/31`` -> ``10.1.0.1 255.255.255.254`` (a network prints its address)."""
    if isinstance(value, IPv4Network):
        return f"{value.network_address} {value.netmask}"
    return f"{value.ip} {value.netmask}"


def _units(value: int, unit: int) -> int:
    if value % unit:
        raise ValueError(f"{value} bytes is not a whole number of {unit}-byte units")
    return value // unit


def _ranges(values: list[int] | tuple[int, ...], joiner: str = " to ") -> list[str]:
    """``[0, 1, 2, 5]`` -> ``['0 to 2', '5']``."""
    runs: list[list[int]] = []
    for v in sorted(values):
        if runs and v == runs[-1][-1] + 1:
            runs[-1].append(v)
        else:
            runs.append([v])
    return [str(r[0]) if len(r) == 1 else f"{r[0]}{joiner}{r[-1]}" for r in runs]


@dataclass
class Rendered:
    text: str
    sections: set[str] = field(default_factory=set)


class Renderer:
    """One jinja environment per vendor (and overlay)."""

    def __init__(self, profile: VendorProfile, overlay: Path | None = None) -> None:
        self.profile = profile
        paths = []
        if overlay is not None:
            paths.append(overlay / "templates" / profile.vendor.value)
        paths.append(templates_dir() / profile.vendor.value)
        self.env = jinja2.Environment(
            loader=jinja2.FileSystemLoader([str(p) for p in paths]),
            undefined=jinja2.StrictUndefined,
            trim_blocks=True,
            lstrip_blocks=True,
            keep_trailing_newline=True,
            autoescape=False,
            auto_reload=False,  # templates do not change during a run; skip a stat per section
        )
        self._templates: dict[str, jinja2.Template] = {}
        self.env.filters["mask"] = _mask
        self.env.filters["units"] = _units
        self.env.filters["ranges"] = _ranges
        self.env.globals["watchdog_steps"] = watchdog_steps

    def render(self, device: DeviceConfig, model: ModelSpec) -> Rendered:
        emitted: set[str] = set()
        context: dict[str, Any] = {
            "d": device,
            "p": self.profile,
            "m": model,
            "headroom_unit": self.profile.unit_bytes(self.profile.headroom_unit_bytes, model),
            "ecn_unit": self.profile.unit_bytes(self.profile.ecn_unit_bytes, model),
        }

        def section(name: str, iface: Interface | None = None) -> str:
            try:
                template = self._templates.get(name)
                if template is None:
                    template = self._templates[name] = self.env.get_template(f"sections/{name}.j2")
            except jinja2.TemplateNotFound:
                raise InputError(
                    f"template section '{name}' missing for {self.profile.vendor.value}"
                ) from None
            text = template.render({**context, "iface": iface, "section": section})
            if text.strip():
                emitted.add(name.split(".")[0])
            return text

        context["section"] = section
        try:
            text = self.env.get_template("device.j2").render(context)
        except jinja2.TemplateError as exc:
            where = (
                f"{exc.filename}:{exc.lineno}"
                if isinstance(exc, jinja2.TemplateSyntaxError)
                else ""
            )
            raise InputError(f"template error {where} {exc}".replace("  ", " ")) from None
        return Rendered(text=text, sections=emitted)
