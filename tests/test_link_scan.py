"""The link rules' one scan (rules_fabric._scan) clears only what each rule's own test clears:
every link rule's hits equal those of that test asked of every pair or end, on the golden and
brownfield fabrics and on a fabric edited to break links each way."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from itertools import chain
from pathlib import Path

import pytest

from roce_cfg.analysis import link_scan as ls
from roce_cfg.analysis import lint
from roce_cfg.analysis import rules_fabric as rf
from roce_cfg.analysis.context import FabricView
from roce_cfg.analysis.engine import _fabric_view
from roce_cfg.analysis.registry import Hit
from roce_cfg.policy import priority_of

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = [
    "golden/pod-small-h3c",
    "golden/pod-small-huawei",
    "golden/cluster-mixed",
    "tests/brownfield/fabrics/h3c-lag",
    "tests/brownfield/fabrics/hw-v300-ipv6",
    "tests/brownfield/fabrics/hw-v300-mlag",
    "tests/brownfield/fabrics/rj-zte-lag",
]


def _fabric(folder: Path) -> FabricView:
    views = lint([folder]).views
    devices = [v.device for _, v in sorted(views.items())]
    options = next(iter(views.values())).options
    return _fabric_view(views, devices, None, None, options)


def _lossy_every_end(f: FabricView) -> Iterator[Hit]:
    """RC306's own test asked of both ends of every physical pair (the rule before the scan)."""
    pairs = ls.physical_pairs(f)
    swapped = ((b, pb, a, pa, k) for a, pa, b, pb, k in pairs)
    for a, pa, b, pb, _ in chain(pairs, swapped):
        prio = a.priority_of(a.roce_dscp)
        lossy = [m for m in a.physical(pa) if not (m.qos.pfc and prio in m.qos.no_drop)]
        if not lossy or not (a.carries_roce(pa) or b.carries_roce(pb)):
            continue
        for m in lossy:
            member = f" (member {m.name} of {pa.name})" if m is not pa else ""
            yield Hit(
                f"RoCE priority {prio} is lossy on this end{member} of the link to {b.name}",
                device=a.name,
                port=m.name,
                related_device=b.name,
                related_port=pb.name,
            )


def _check(f: FabricView) -> dict[str, int]:
    """Each rule's hits against its own test over every pair or end; the reference counts."""
    pairs = ls.link_pairs(f)
    for physical in (False, True):
        every = ls.physical_pairs(f) if physical else pairs
        want = [p for p in every if ls.settings_of(p[0], p[1]) != ls.settings_of(p[2], p[3])]
        assert ls.differing(f, physical) == want
    lossy = list(_lossy_every_end(f))
    assert list(rf.roce_lossy_hop(f)) == lossy
    ends = [e for x, px, y, py, _ in pairs for e in ((x, px, y, py), (y, py, x, px))]
    remote = [h for a, pa, b, pb in ends for h in rf._remote_as(a, pa, b, pb)]
    assert list(rf.bgp_remote_as(f)) == remote
    without = [h for a, pa, b, pb, _ in pairs for h in rf._without_bgp(a, pa, b, pb)]
    assert list(rf.link_without_bgp(f)) == without
    return {"pairs": len(pairs), "RC306": len(lossy), "RC309": len(remote), "RC310": len(without)}


@pytest.mark.parametrize("folder", FOLDERS)
def test_scan_clears_what_the_rules_clear(folder: str) -> None:
    assert _check(_fabric(ROOT / folder))["pairs"]


def _edit(lines: list[str], block: str, old: str, new: str | None) -> None:
    """The first line ``old`` after the line ``block`` replaced by ``new`` (None: removed)."""
    at = lines.index(old, lines.index(block))
    if new is None:
        del lines[at]
    else:
        lines[at] = new


def test_scan_lists_broken_links(tmp_path: Path) -> None:
    folder = tmp_path / "fabric"
    shutil.copytree(ROOT / "golden/pod-small-h3c", folder)
    leaf = folder / "leaf-1.cfg"
    lines = leaf.read_text().split("\n")
    _edit(lines, "interface FourHundredGigE1/0/28", " priority-flow-control no-drop dot1p 3", None)
    # a port like its neighbours but for its MTU, and one but for its speed
    _edit(lines, "interface FourHundredGigE1/0/29", " mtu 9216", " mtu 9000")
    old, new = "speed=400G cable=30m", "speed=200G cable=30m"
    at = lines.index("interface FourHundredGigE1/0/30") + 2
    lines[at] = lines[at].replace(old, new)
    _edit(lines, "bgp 65101", " peer 10.1.0.0 as-number 65000", " peer 10.1.0.0 as-number 65009")
    _edit(lines, "bgp 65101", " peer 10.1.0.2 as-number 65000", None)
    leaf.write_text("\n".join(lines))
    f = _fabric(folder)
    counts = _check(f)
    assert counts["RC306"] and counts["RC309"] and counts["RC310"]
    assert len(ls.differing(f)) == 3  # the no-drop priorities, the MTU, the speed


def test_classes_as_priority_of() -> None:
    """A switch's classes read its map once: the first entry for a DSCP wins, as in
    priority_of, and an unmapped DSCP is its class selector."""
    f = _fabric(ROOT / "golden/pod-small-huawei")
    view = next(iter(f.devices.values()))
    qos = view.device.qos
    first = qos.dscp_map[0]
    again = first.model_copy(update={"priority": (first.priority + 1) % 8})
    twice = qos.model_copy(update={"dscp_map": (*qos.dscp_map, again)})
    config = view.parsed.config
    view.parsed.config = config.model_copy(
        update={"device": config.device.model_copy(update={"qos": twice})}
    )
    view.memo.clear()
    classes = ls.dscp_classes(view)
    device = view.device
    assert classes[2:] == tuple(priority_of(device, d) for d in range(64))
    assert classes[:2] == (priority_of(device, view.roce_dscp), priority_of(device, view.cnp_dscp))
    assert classes[2 + first.dscp] == first.priority
