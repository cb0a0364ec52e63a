"""The switch models roce-cfg knows, as rows for `roce-cfg models`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from roce_cfg.platforms.profile import VendorProfile
from roce_cfg.vendor import Vendor

if TYPE_CHECKING:
    pass


def models_table(profiles: dict[Vendor, VendorProfile]) -> list[dict[str, Any]]:
    """One row per switch model of every loaded profile (bundled plus overlay)."""
    rows: list[dict[str, Any]] = []
    for vendor, p in profiles.items():
        for name, m in sorted(p.models.items()):
            rows.append(
                {
                    "vendor": vendor.value,
                    "model": name,
                    "default": name == p.default_model,
                    "ports": [
                        {
                            "count": g.count,
                            "speed": g.speed,
                            "runs_at": list(g.runs_at),
                            "breakout": list(g.breakout),
                        }
                        for g in m.ports
                    ],
                    "capacity_gbps": sum(g.count * g.speed for g in m.ports),
                    "buffer_bytes": m.buffer_bytes,
                    "max_no_drop": m.max_no_drop,
                    "source": m.source,
                }
            )
    return rows


def port_map(row: dict[str, Any]) -> str:
    """``32 x 400G (runs 200/100G, breaks out 2x200G/4x100G)`` for one models_table row."""
    parts = []
    for g in row["ports"]:
        s = f"{g['count']} x {g['speed']}G"
        extra = []
        if g["runs_at"]:
            extra.append("runs " + "/".join(str(x) for x in g["runs_at"]) + "G")
        if g["breakout"]:
            extra.append("breaks out " + "/".join(f"{g['speed'] // b}x{b}G" for b in g["breakout"]))
        parts.append(s + (f" ({', '.join(extra)})" if extra else ""))
    return " + ".join(parts)
