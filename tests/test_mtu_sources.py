"""What bounds a RoCE packet's size where a port or gateway prints no MTU, or prints one the
switch does not apply to the packets it forwards: the vendor's sourced default MTU, RC127 where
no source gives it (ZXROS), and no IPv4 'mtu' judged on CloudEngine, whose chip does not check it
([HW-CR] mtu (interface view), Precautions)."""

from __future__ import annotations

from pathlib import Path

import pytest

from roce_cfg.analysis import lint
from roce_cfg.platforms.profile import load_profiles
from roce_cfg.vendor import Vendor
from tests.helpers import ROOT


def _findings(tmp_path: Path, pod: str, old: str, new: str) -> dict[str, list[str]]:
    """Lint golden/<pod>/leaf-1.cfg with its first ``old`` made ``new``: rule -> ports."""
    text = (ROOT / f"golden/{pod}/leaf-1.cfg").read_text()
    assert old in text
    path = tmp_path / "leaf-1.cfg"
    path.write_text(text.replace(old, new, 1))
    out: dict[str, list[str]] = {}
    for f in lint([path]).findings:
        out.setdefault(f.rule, []).append(str(f.port))
    return out


_ZTE_GATEWAY = "interface vlan101\n  description rail0 gateway\n  mtu 9216\n"
_ZTE_UPLINK = "  mtu 9216\n  ip address 10.1.0.1 255.255.255.254\n"


def test_every_vendor_says_where_its_default_mtu_comes_from() -> None:
    profiles = load_profiles(None)
    for vendor in (Vendor.H3C, Vendor.HUAWEI, Vendor.RUIJIE):
        assert profiles[vendor].parse.default_mtu_source, vendor
    assert profiles[Vendor.ZTE].parse.default_mtu_source is None  # no ZXROS source read
    assert [v for v in Vendor if not profiles[v].parse.ip_mtu_bounds_forwarding] == [Vendor.HUAWEI]


@pytest.mark.parametrize(
    ("old", "new", "port"),
    [
        (_ZTE_GATEWAY, _ZTE_GATEWAY.replace("  mtu 9216\n", ""), "vlan101"),
        (_ZTE_UPLINK, _ZTE_UPLINK.replace("  mtu 9216\n", ""), "cdgei-0/1/0/25"),
    ],
)
def test_a_zte_interface_printing_no_mtu_cannot_be_verified(
    tmp_path: Path, old: str, new: str, port: str
) -> None:
    got = _findings(tmp_path, "pod-small-zte", old, new)
    assert got.get("RC127") == [port]
    assert "RC113" not in got and "RC304" not in got
    # the same interface printing a small MTU is a finding: the line is read
    small = _findings(tmp_path, "pod-small-zte", old, old.replace("mtu 9216", "mtu 1500"))
    assert port in small.get("RC113", []) and "RC127" not in small


def test_an_h3c_gateway_printing_no_mtu_runs_the_sourced_default(tmp_path: Path) -> None:
    got = _findings(tmp_path, "pod-small-h3c", " mtu 9216\n#\nbgp", "#\nbgp")
    assert got.get("RC113") == ["Vlan-interface101"]
    assert "RC127" not in got


def test_a_cloudengine_ipv4_mtu_does_not_bound_what_the_chip_forwards(tmp_path: Path) -> None:
    gateway = "interface Vlanif101\n description rail0 gateway\n mtu 9216\n"
    for new in (gateway.replace("mtu 9216", "mtu 1500"), gateway.replace(" mtu 9216\n", "")):
        got = _findings(tmp_path, "pod-small-huawei", gateway, new)
        assert "RC113" not in got and "RC127" not in got
    # the frame limit still bounds it: a 1,500-byte frame limit on a server port is RC113
    frame = " jumboframe enable 9238\n"
    got = _findings(tmp_path, "pod-small-huawei", frame, " jumboframe enable 1518\n")
    assert got.get("RC113") == ["400GE1/1/1"]
