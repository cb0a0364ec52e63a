"""Prices, cables and optics: what a plan or a built fabric costs."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from roce_cfg.errors import InputError
from roce_cfg.yamlsrc import PRICES, load_file

if TYPE_CHECKING:
    from roce_cfg.model.fabric import Fabric
    from roce_cfg.parse.hints import LintPlan


def load_prices(path: Path) -> dict[str, float]:
    """A unit-price table: item name (switch model, cable 'speed x length', 'optic-<speed>')
    to a price from 0 to 1e12."""
    raw, _ = load_file(path, PRICES)
    if not isinstance(raw, dict) or not all(
        isinstance(v, int | float)
        and not isinstance(v, bool)
        and math.isfinite(v)
        and 0 <= v <= 1e12
        for v in raw.values()
    ):
        raise InputError("must map item names to prices (numbers from 0 to 1e12)", file=str(path))
    return {str(k): float(v) for k, v in raw.items()}


def cable_key(speed_gbps: int, cable_m: float) -> str:
    """``400G x 30m``: how cables are counted, in plans and in a built fabric's bill."""
    return f"{speed_gbps}G x {cable_m:g}m"


def count_cables(runs: Iterable[tuple[int, float, int]]) -> dict[str, int]:
    """Cables by speed x length from (speed, metres, count) runs."""
    out: dict[str, int] = {}
    for speed, metres, n in runs:
        if n:
            out[cable_key(speed, metres)] = out.get(cable_key(speed, metres), 0) + n
    return out


def count_transceivers(runs: Iterable[tuple[int, float, int]]) -> dict[str, int]:
    """Transceivers by speed: one at each end of every cable."""
    out: dict[str, int] = {}
    for speed, _, n in runs:
        if n:
            out[f"{speed}G"] = out.get(f"{speed}G", 0) + 2 * n
    return out


@dataclass
class BillOfMaterials:
    switches: dict[str, dict[str, int]]  # tier -> "vendor model" -> count
    nic_cables: dict[str, int]  # server to switch, by speed x length
    link_cables: dict[str, int]  # switch to switch, by speed x length
    transceivers: dict[str, int]

    @property
    def cables(self) -> dict[str, int]:
        out = dict(self.nic_cables)
        for k, n in self.link_cables.items():
            out[k] = out.get(k, 0) + n
        return out


def bill_of_materials(fabric: Fabric | LintPlan) -> BillOfMaterials:
    """What a designed fabric takes to build, counted the way ``plan`` counts a candidate (its
    fabric.json's rows as lint reads them count alike)."""
    switches: dict[str, dict[str, int]] = {}
    for s in fabric.switches:
        tier = switches.setdefault(s.role, {})
        key = f"{s.vendor.value} {s.model}"
        tier[key] = tier.get(key, 0) + 1
    nics = [(n.speed_gbps, n.cable_m, 1) for n in fabric.nics]
    links = [(k.speed_gbps, k.cable_m, 1) for k in fabric.links]
    return BillOfMaterials(
        switches=switches,
        nic_cables=count_cables(nics),
        link_cables=count_cables(links),
        transceivers=count_transceivers([*nics, *links]),
    )
