"""The largest fabric roce-cfg designs, checked from the intent's figures before any design.

Work is proportional to the plan, not to the file: a 2 KB intent can ask for a million GPUs.
The ceilings sit above the largest RoCE fabrics built so far (clusters of about 100,000 GPUs):

- 131,072 GPUs (2**17): one RoCE NIC per GPU, so also the server-facing ports.
- 8,192 switches: 131,072 NICs on 64-port leaves at 1:1 is 4,096 leaves, their uplinks need
  2,048 spines of 64 ports, and the super-spines of a three-tier plan fit in what is left.
- 262,144 switch-to-switch links: the 4,096 leaves' 131,072 uplinks, and as many again
  between spines and super-spines.

A plan past any of them is refused with the figure and how it was counted.
"""

from __future__ import annotations

from dataclasses import dataclass

from roce_cfg.errors import PlanError
from roce_cfg.intent.models import Intent

MAX_GPUS = 131_072
MAX_SWITCHES = 8_192
MAX_LINKS = 262_144


@dataclass(frozen=True)
class Size:
    gpus: int
    switches: int
    links: int
    switches_how: str
    links_how: str

    @property
    def ports(self) -> int:
        """Switch ports in use: one per NIC, two per switch-to-switch link."""
        return self.gpus + 2 * self.links


def size(intent: Intent) -> Size:
    """Switches and links as design.topology would build them, from the intent's figures."""
    fab, gpus = intent.fabric, intent.servers.count * intent.servers.nics
    if fab.topology == "single-switch":
        return Size(gpus, 1, 0, "one switch", "none")
    leaves = fab.pods * fab.rails * fab.leaves_per_rail
    spines = fab.pods * fab.spines
    leaf_links = leaves * fab.spines * fab.uplinks_per_spine
    if fab.pods == 1:
        return Size(
            gpus,
            leaves + spines,
            leaf_links,
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
        f"{leaves:,} leaves + {spines:,} spines + {fab.super_spines:,} super-spines",
        f"{leaf_links:,} leaf-spine + {up_links:,} spine-super-spine",
    )


def check(intent: Intent) -> None:
    """Refuse, before design, a plan larger than any real fabric."""
    s = size(intent)
    if s.gpus > MAX_GPUS:
        raise PlanError(
            ("servers", "count"),
            f"{s.gpus:,} GPUs ({intent.servers.count:,} servers x {intent.servers.nics} NICs) "
            f"is more than the largest fabric roce-cfg designs ({MAX_GPUS:,} GPUs)",
        )
    if s.switches > MAX_SWITCHES:
        raise PlanError(
            ("fabric",),
            f"{s.switches:,} switches ({s.switches_how}) is more than the largest fabric "
            f"roce-cfg designs ({MAX_SWITCHES:,} switches)",
        )
    if s.links > MAX_LINKS:
        raise PlanError(
            ("fabric",),
            f"{s.links:,} switch-to-switch links ({s.links_how}) is more than the largest "
            f"fabric roce-cfg designs ({MAX_LINKS:,} links)",
        )
