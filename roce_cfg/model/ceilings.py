"""The largest fabric roce-cfg designs or reads back, below both design and parse.

Work is proportional to the plan, not to the file: a 2 KB intent can ask for a million GPUs,
and a fabric.json can list as many switches. The ceilings sit above the largest RoCE fabrics
built so far (clusters of about 100,000 GPUs):

- 131,072 GPUs (2**17): one RoCE NIC per GPU, so also the server-facing ports.
- 8,192 switches: 131,072 NICs on 64-port leaves at 1:1 is 4,096 leaves, their uplinks need
  2,048 spines of 64 ports, and the super-spines of a three-tier plan fit in what is left.
- 262,144 switch-to-switch links: the 4,096 leaves' 131,072 uplinks, and as many again
  between spines and super-spines.

A plan past any of them is refused with the figure and how it was counted
(``Size.check``); a fabric.json past them is refused before it is validated
(roce_cfg.parse.hints).
"""

from __future__ import annotations

from dataclasses import dataclass

from roce_cfg.errors import PlanError

MAX_GPUS = 131_072
MAX_SWITCHES = 8_192
MAX_LINKS = 262_144


@dataclass(frozen=True)
class Size:
    """A plan's figures, each with how it was counted (for the refusal)."""

    gpus: int
    switches: int
    links: int
    gpus_how: str
    switches_how: str
    links_how: str

    @property
    def ports(self) -> int:
        """Switch ports in use: one per NIC, two per switch-to-switch link."""
        return self.gpus + 2 * self.links

    def check(self) -> None:
        """Refuse, before design, a plan larger than any real fabric."""
        if self.gpus > MAX_GPUS:
            raise PlanError(
                ("servers", "count"),
                f"{self.gpus:,} GPUs ({self.gpus_how}) is more than the largest fabric "
                f"roce-cfg designs ({MAX_GPUS:,} GPUs)",
            )
        if self.switches > MAX_SWITCHES:
            raise PlanError(
                ("fabric",),
                f"{self.switches:,} switches ({self.switches_how}) is more than the largest "
                f"fabric roce-cfg designs ({MAX_SWITCHES:,} switches)",
            )
        if self.links > MAX_LINKS:
            raise PlanError(
                ("fabric",),
                f"{self.links:,} switch-to-switch links ({self.links_how}) is more than the "
                f"largest fabric roce-cfg designs ({MAX_LINKS:,} links)",
            )
