"""A port's queue scheduling: the queues its lines make strict or weighted, and for the rest
the vendor's default (``scheduling_default`` in vendors/<vendor>.yaml, applied by
``SchedulingDefault.in_force``, as the design model does).

CloudEngine runs every queue PQ until a line names it otherwise ([HW-CR] qos pq drr, qos pq drr
lpq: "By default, the scheduling mode of queues on an interface is PQ"), so a port with no
'qos drr' line has every queue strict and ' qos drr 0 to 5' leaves 6 and 7 strict. Where no
source gives the default (H3C, Ruijie, ZTE), a port that prints no scheduling line is listed in
``DeviceConfig.scheduling_unknown``: RC107 does not conclude its CNP queue is not strict, RC125
says what could not be verified.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from roce_cfg.model.device import Interface
from roce_cfg.platforms.profile import VendorProfile

# the template keys of a port's scheduling lines (templates/<vendor>/parse/interfaces.ttp)
KEYS = ("strict", "drr_last", "weighted")


def strict(profile: VendorProfile, named: set[int], weighted: set[int]) -> tuple[int, ...]:
    """The queues a port runs strict: ``named`` strict by its lines, ``weighted`` by weight,
    the rest as the vendor's default says (none where no source gives it)."""
    default = profile.scheduling_default
    if default is None:
        return tuple(sorted(named - weighted))
    return default.in_force(named, weighted)


def unknown(profile: VendorProfile, item: Mapping[str, Any]) -> bool:
    """The port prints no scheduling line and no source gives the vendor's default."""
    return profile.scheduling_default is None and not any(k in item for k in KEYS)


def unknown_ports(names: Iterable[str], ports: Iterable[Interface]) -> tuple[str, ...]:
    """Of ``names`` (ports that print no scheduling line), those with no strict queue once
    read: an aggregate's members take its lines, a sub-interface its parent's."""
    none = {p.name for p in ports if not p.qos.strict_queues}
    return tuple(n for n in names if n in none)
