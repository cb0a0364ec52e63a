"""Headroom judged on what the port is (issue 26 items 9 and 11): the cable length a description
states by convention ('_300m_'), the model's documented default where no headroom line is
printed, and a configured shared headroom pool that must hold what the ports need."""

from __future__ import annotations

from pathlib import Path

import pytest

from roce_cfg.analysis import lint
from roce_cfg.model import describe
from tests.helpers import ROOT

FABRIC = ROOT / "tests/brownfield/fabrics/hw-v300-mlag"


@pytest.mark.parametrize(
    "text, metres",
    [
        ("to_spine-1_100GE1/0/1_100m_OM4", 100.0),
        ("gpu-101_eth0_3m_DAC", 3.0),
        ("uplink 300m", 300.0),
        ("far:spine-1:HGE1/0/1 speed=400G cable=30m", 30.0),
        ("to_leaf-2_25GE1/0/3", None),  # '3' is a port, not a length
        ("rack 10.1.1.1 5mm", None),
        ("x_0m_", None),
        ("x_20000m_", None),  # past 10 km: not read
        ("x_" + "9" * 5000 + "m_", None),
    ],
)
def test_cable_length_from_a_description(text: str, metres: float | None) -> None:
    assert describe.cable(text) == metres


def _lint(
    tmp_path: Path, name: str, edits: list[tuple[str, str]]
) -> list[tuple[str, str | None, str]]:
    text = (FABRIC / f"{name}.cfg").read_text()
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new, 1)
    path = tmp_path / f"{name}.cfg"
    path.write_text(text)
    return [(f.rule, f.port, f.message) for f in lint([path]).findings]


def test_the_length_in_the_description_judges_the_port(tmp_path: Path) -> None:
    """hw-v300 F6: 64 KB on a 300 m member is short; judged at 300 m, not an assumed 1 m."""
    found = _lint(tmp_path, "leaf-2", [])
    (f6,) = [f for f in found if f[0] == "RC201"]
    assert f6[1] == "100GE1/0/4"
    assert "300 m cable (from the description '300m')" in f6[2]


def test_no_headroom_line_is_the_models_documented_default(tmp_path: Path) -> None:
    """CE6885: hdrm 256 KB by default [HW-CR dcb pfc buffer]; no 'none configured' error."""
    found = _lint(tmp_path, "leaf-1", [])
    assert not [f for f in found if f[0] in ("RC201", "RC202")]
    long = _lint(
        tmp_path,
        "leaf-1",
        [(" description to_spine-1_100GE1/0/1_5m_AOC", " description to_spine-1_2000m_SMF")],
    )
    (short,) = [f for f in long if f[0] == "RC201"]
    assert short[1] == "100GE1/0/1"
    assert "headroom not configured, the CE6885-48YS8CQ default 262144 B < required" in short[2]


def test_a_shared_pool_must_hold_what_the_ports_need(tmp_path: Path) -> None:
    found = _lint(
        tmp_path,
        "leaf-1",
        [
            (
                "qos buffer headroom-pool size 4 mbytes slot 1",
                "qos buffer headroom-pool size 64 kbytes slot 1",
            )
        ],
    )
    (pool,) = [f for f in found if f[0] == "RC203"]
    assert "> shared headroom pool 65536 B" in pool[2]
    # 4 MB holds the need of every lossless port, though the per-port defaults (256 KB each)
    # sum past it: thresholds on a shared pool are not reservations
    assert not [f for f in _lint(tmp_path, "leaf-1", []) if f[0] == "RC203"]


@pytest.mark.parametrize(
    "port, lines, speed",
    [
        ("100GE1/0/49", " speed 40000\n", 40),  # [HW-CR speed 40000]
        ("25GE1/0/1", " port mode 10G\n", 10),  # [HW-CR port mode]
        ("100GE1/0/49", "", 100),
        ("100GE1/0/49", " description x speed=25G\n speed 40000\n", 40),  # the port's own line wins
    ],
)
def test_speed_from_the_ports_own_lines(port: str, lines: str, speed: int) -> None:
    from roce_cfg.parse import parse_text
    from roce_cfg.vendor import Vendor

    text = (
        "#\nsysname sw-1\n#\ndevice board 1 board-type CE6885-48YS8CQ\n#\n"
        f"interface {port}\n undo portswitch\n{lines}#\nreturn\n"
    )
    d = parse_text(text, file="sw-1.cfg", vendor=Vendor.HUAWEI).config.device
    assert d.interfaces[0].speed_gbps == speed


def test_a_speed_beyond_any_port_is_unread() -> None:
    from roce_cfg.parse import parse_text
    from roce_cfg.vendor import Vendor

    text = (
        "#\nsysname sw-1\n#\ninterface 100GE1/0/49\n undo portswitch\n"
        f" speed {'9' * 40}\n#\nreturn\n"
    )
    parsed = parse_text(text, file="sw-1.cfg", vendor=Vendor.HUAWEI).config
    assert parsed.device.interfaces[0].speed_gbps == 100
    assert parsed.unread
