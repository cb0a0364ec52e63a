"""The plan's size from the intent's figures, checked against the ceilings
(roce_cfg.model.ceilings) before any design."""

from __future__ import annotations

from roce_cfg.intent.models import Intent
from roce_cfg.model.ceilings import Size


def size(intent: Intent) -> Size:
    """Switches and links as design.topology would build them, from the intent's figures."""
    fab, gpus = intent.fabric, intent.servers.count * intent.servers.nics
    gpus_how = f"{intent.servers.count:,} servers x {intent.servers.nics} NICs"
    if fab.topology == "single-switch":
        return Size(gpus, 1, 0, gpus_how, "one switch", "none")
    leaves = fab.pods * fab.rails * fab.leaves_per_rail
    spines = fab.pods * fab.spines
    leaf_links = leaves * fab.spines * fab.uplinks_per_spine
    if fab.pods == 1:
        return Size(
            gpus,
            leaves + spines,
            leaf_links,
            gpus_how,
            f"{leaves:,} leaves + {spines:,} spines",
            f"{leaves:,} leaves x {fab.spines} spines x {fab.uplinks_per_spine} uplinks",
        )
    per_plane = (
        fab.super_spines // max(1, fab.spines) if fab.super_spine_planes else fab.super_spines
    )
    up_links = spines * per_plane * fab.uplinks_per_super_spine
    return Size(
        gpus,
        leaves + spines + fab.super_spines,
        leaf_links + up_links,
        gpus_how,
        f"{leaves:,} leaves + {spines:,} spines + {fab.super_spines:,} super-spines",
        f"{leaf_links:,} leaf-spine + {up_links:,} spine-super-spine",
    )


def check(intent: Intent) -> None:
    """Refuse, before design, a plan larger than any real fabric."""
    size(intent).check()
