"""The lossless policy a running-config states about itself: which DSCPs it maps to a no-drop
priority. Lint and deadlock read it from each config; --roce-dscp only fills what none says."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from roce_cfg.model.device import DeviceConfig

DEFAULT_ROCE_DSCP = 26


def priority_of(device: DeviceConfig, dscp: int) -> int:
    """The 802.1p priority a DSCP lands in: the device's map, else the class selector
    (DSCP >> 3) that every vendor here uses as the default map. The one DSCP lookup of lint
    and deadlock."""
    for m in device.qos.dscp_map:
        if m.dscp == dscp:
            return m.priority
    return dscp >> 3


def lossless_dscps(device: DeviceConfig) -> tuple[int, ...]:
    """DSCPs the config maps explicitly to one of its no-drop priorities."""
    no_drop = set(device.qos.no_drop)
    return tuple(sorted({m.dscp for m in device.qos.dscp_map if m.priority in no_drop}))


def fabric_roce_dscp(devices: Iterable[DeviceConfig], given: int | None) -> tuple[int, str]:
    """The DSCP analysed as RoCE and why: the user's, else the one most configs map to a no-drop
    priority (the lowest on a tie), else the default. A switch that maps it elsewhere is then a
    finding (RC109, RC303, RC306), not a silent second policy."""
    if given is not None:
        return given, "given"
    votes = Counter(d for dev in devices for d in lossless_dscps(dev))
    if not votes:
        return DEFAULT_ROCE_DSCP, "default (no config maps a DSCP to a no-drop priority)"
    top = max(votes.values())
    dscp = min(d for d, n in votes.items() if n == top)
    return dscp, "from the configs"
