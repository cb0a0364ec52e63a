"""The VLANs an M-LAG peer-link carries where the vendor adds it to every VLAN.

Huawei: "After an interface is configured as a peer-link interface, it is added to all VLANs by
default ... You can run the port vlan exclude command to configure the VLANs that are not
allowed to pass through the peer-link interface" [HW-CR port vlan exclude]. Where the profile
says so (``parse.aggregate.peer_link_all_vlans``), a peer-link's trunk VLANs are every VLAN the
switch has, less those its exclusion lines (``vlan_excludes``) name.
"""

from __future__ import annotations

from typing import Any

from roce_cfg.model import numbers
from roce_cfg.parse.reader import LineReader


def carried(
    ctx: LineReader, item: dict[str, Any], every: numbers.Ranges, scope: str
) -> numbers.Ranges | None:
    """The VLANs the peer-link ``item`` carries; None where its own VLAN lines say (not a
    peer-link, or a vendor that does not add its peer-link to every VLAN)."""
    spec = ctx.profile.parse.aggregate
    if "peer_link" not in item or spec is None or not spec.peer_link_all_vlans:
        return None
    excludes = item.get("vlan_excludes") or []
    lines = excludes if isinstance(excludes, list) else [excludes]
    out = set(numbers.expand(every))
    for line in lines:
        if isinstance(line, dict):
            out -= set(numbers.expand(ctx.ranges(line.get("vlans", ""), numbers.VLAN, scope)))
    return numbers.of(out)
