"""Which switch model a config is of: the one given, the one the config names, else the model of the
vendor profile whose port layout holds every port the config names (breakout legs at a breakout
speed); a note says what was assumed.
"""

from __future__ import annotations

import re
from typing import Literal

from roce_cfg.errors import InputError
from roce_cfg.parse.names import Name
from roce_cfg.parse.values import port_number
from roce_cfg.platforms.profile import ModelSpec, VendorProfile

# the model of a config that names none and whose ports fit no model of the profile
UNKNOWN_MODEL = "unknown"


def holds_ports(model: ModelSpec, ports: list[Name]) -> bool:
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


def choose_model(
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
    fits = [name for name, spec in sorted(profile.models.items()) if holds_ports(spec, ports)]
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
