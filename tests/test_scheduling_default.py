"""A port's queue scheduling where it prints none: the vendor's sourced default (CloudEngine:
every queue PQ), or, where no source gives it, a port listed as unknown (RC125, not RC107)."""

from __future__ import annotations

from roce_cfg.analysis import lint
from roce_cfg.parse import parse_text
from roce_cfg.platforms.profile import load_profiles
from roce_cfg.vendor import Vendor
from tests.helpers import ROOT

_HUAWEI = "#\nsysname sw\n#\ninterface 100GE1/0/1\n{lines}#\ninterface 100GE1/0/2\n#\nreturn\n"


def _strict(lines: str) -> dict[str, tuple[int, ...]]:
    text = _HUAWEI.format(lines=lines)
    device = parse_text(text, vendor=Vendor.HUAWEI).config.device
    assert device.scheduling_unknown == ()
    return {p.name: p.qos.strict_queues for p in device.interfaces}


def test_cloudengine_queues_no_line_schedules_are_pq() -> None:
    got = _strict(" qos drr 0 to 5\n")
    assert got == {"100GE1/0/1": (6, 7), "100GE1/0/2": tuple(range(8))}
    assert _strict(" qos drr 0 to 7\n")["100GE1/0/1"] == ()


def test_the_default_gives_way_to_the_lines() -> None:
    default = load_profiles(None)[Vendor.HUAWEI].scheduling_default
    assert default is not None and default.source.startswith("[HW-CR]")
    assert default.in_force({6}, {0, 1, 2, 3, 4, 5, 6}) == (7,)
    assert default.in_force((), ()) == tuple(range(8))
    for vendor in (Vendor.H3C, Vendor.RUIJIE, Vendor.ZTE):
        assert load_profiles(None)[vendor].scheduling_default is None  # no source read gives it


def test_a_port_with_no_scheduling_line_and_no_sourced_default_is_unknown() -> None:
    text = (ROOT / "golden/pod-small-h3c/leaf-1.cfg").read_text()
    port = "interface FourHundredGigE1/0/1\n"
    head, tail = text.split(port, 1)
    block, rest = tail.split("#\n", 1)
    bare = "".join(x for x in block.splitlines(True) if " qos wfq " not in x)
    device = parse_text(head + port + bare + "#\n" + rest, vendor=Vendor.H3C).config.device
    assert device.scheduling_unknown == ("FourHundredGigE1/0/1",)
    assert parse_text(text, vendor=Vendor.H3C).config.device.scheduling_unknown == ()


def test_the_abs_pfc_example_runs_its_cnp_queue_strict() -> None:
    path = ROOT / "tests/wild/huawei/ce-doc-abs-pfc-devicea.cfg"
    rules = {f.rule for f in lint([path]).findings}
    assert "RC107" not in rules and "RC125" not in rules
