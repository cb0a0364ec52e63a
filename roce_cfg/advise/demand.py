"""A GPU demand, as `roce-cfg plan` was given it, within the bounds the intent sets."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from roce_cfg.errors import InputError

if TYPE_CHECKING:
    pass


# The demand's figures bounded as the intent bounds them (servers.nics, nic_speed, cable_m), so
# that a plan's intent is one generate accepts: (low, high), low 0 meaning more than 0.
BOUNDS = {
    "nics": (1, 16),
    "nic_speed": (1, 1600),
    "in_rack_m": (0, 10000),
    "in_row_m": (0, 10000),
    "between_rows_m": (0, 10000),
    "oversubscription": (1, 64),
}


@dataclass(frozen=True)
class Demand:
    servers: int
    nics: int
    nic_speed: int
    pcie_gen: int = 5
    pcie_lanes: int = 16
    oversubscription: float = 1.0
    in_rack_m: float = 3.0
    in_row_m: float = 30.0
    between_rows_m: float = 100.0

    @classmethod
    def of(cls, gpus: int | None, servers: int | None, **figures: Any) -> Demand:
        """The demand ``roce-cfg plan`` was given: exactly one of a GPU count (one NIC each)
        and a server count, and the other figures within BOUNDS (NaN and infinity are no
        lengths); else an InputError naming the option."""
        if (gpus is None) == (servers is None):
            raise InputError("give exactly one of --gpus and --servers", path="--gpus")
        for name, (low, high) in BOUNDS.items():
            value: float = figures[name]
            if not (math.isfinite(value) and low <= value <= high) or (low == 0 and value == 0):
                bound = f"more than 0 and at most {high:,}" if low == 0 else f"{low}-{high:,}"
                raise InputError(
                    f"must be {bound} (got {value})", path="--" + name.replace("_", "-")
                )
        count = servers if servers is not None else -(-int(gpus or 0) // figures["nics"])
        if count < 1:
            raise InputError("must be at least 1", path="--gpus")
        return cls(servers=count, **figures)
