"""Static routes with every option the vendors print (issue 26 item 6): preference, tag,
description, track, bfd, vpn-instance, NULL0, permanent, several next hops; a line not
understood is reported with its number, never dropped unseen."""

from __future__ import annotations

from ipaddress import IPv4Address, IPv4Network
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from roce_cfg.model.device import StaticRoute
from roce_cfg.parse import parse_file, parse_text
from roce_cfg.vendor import Vendor
from tests.helpers import ROOT, examples

FABRICS = ROOT / "tests/brownfield/fabrics"


def _wanted(entry: dict[str, Any]) -> dict[str, Any]:
    """The fields a careful reader takes from expected.yaml's option text."""
    words = str(entry.get("options", "")).split()
    out: dict[str, Any] = {
        "prefix": IPv4Network(entry["prefix"]),
        "vrf": entry.get("vrf", ""),
        "line": entry["line"],
        "preference": None,
        "tag": None,
        "description": "",
        "permanent": False,
        "bfd": False,
    }
    hop = str(entry["next_hop"])
    out["next_hop"], out["interface"] = (None, hop) if hop == "NULL0" else (IPv4Address(hop), "")
    i = 0
    while i < len(words):
        w = words[i]
        if w in ("preference", "tag"):
            out[w], i = int(words[i + 1]), i + 2
        elif w == "description":
            out["description"], i = " ".join(words[i + 1 :]), len(words)
        elif w == "bfd":
            out["bfd"], i = True, i + 2
        else:
            out[w], i = True, i + 1
    return out


def _got(r: StaticRoute) -> dict[str, Any]:
    keys = ("prefix", "vrf", "line", "preference", "tag", "description", "permanent", "bfd")
    return {**{k: getattr(r, k) for k in keys}, "next_hop": r.next_hop, "interface": r.interface}


@pytest.mark.parametrize("fabric", ["hw-v300-mlag", "hw-v200", "h3c-lag"])
def test_corpus_static_routes_are_read_with_their_options(fabric: str) -> None:
    expected = yaml.safe_load((FABRICS / fabric / "expected.yaml").read_text())
    by_device: dict[str, list[dict[str, Any]]] = {}
    for entry in expected["static_routes"]:
        by_device.setdefault(entry["device"], []).append(_wanted(entry))
    for device, want in by_device.items():
        got = parse_file(FABRICS / fabric / f"{device}.cfg").config.device.static_routes
        key = lambda d: (d["line"], str(d["prefix"]))  # noqa: E731
        assert sorted((_got(r) for r in got), key=key) == sorted(want, key=key), device


def huawei(routes: str) -> Any:
    text = f"#\nsysname sw-1\n#\ninterface 100GE1/0/1\n undo portswitch\n#\n{routes}\n#\nreturn\n"
    return parse_text(text, file="sw-1.cfg", vendor=Vendor.HUAWEI).config


def test_every_huawei_option_form() -> None:
    """[HW-CR] ip route-static: track bfd-session / nqa, inherit-cost, an outgoing interface
    with a next hop, 'NULL 0' as typed, a route into another VPN instance."""
    config = huawei(
        "ip route-static 10.1.0.0 255.255.0.0 10.0.0.1 track bfd-session s1 description a b\n"
        "ip route-static 10.2.0.0 16 Vlanif10 10.0.0.3 preference 70 tag 7 inherit-cost\n"
        "ip route-static 10.3.0.0 16 NULL 0\n"
        "ip route-static 10.4.0.0 16 10.0.0.5 track nqa admin test permanent\n"
        "ip route-static vpn-instance a 10.5.0.0 16 vpn-instance b 10.0.0.7\n"
        "ip route-static default-preference 70"
    )
    r = config.device.static_routes
    assert [(str(x.prefix), x.line) for x in r] == [
        ("10.1.0.0/16", 7), ("10.2.0.0/16", 8), ("10.3.0.0/16", 9), ("10.4.0.0/16", 10),
        ("10.5.0.0/16", 11),
    ]  # fmt: skip
    assert (r[0].track, r[0].description) == ("bfd-session s1", "a b")
    assert (r[1].interface, str(r[1].next_hop), r[1].preference, r[1].tag) == (
        "Vlanif10", "10.0.0.3", 70, 7,
    )  # fmt: skip
    assert (r[2].interface, r[2].next_hop) == ("NULL0", None)
    assert (r[3].track, r[3].permanent) == ("nqa admin test", True)
    assert (r[4].vrf, str(r[4].next_hop)) == ("a", "10.0.0.7")
    assert not config.unread


def test_h3c_options() -> None:
    """Comware 7 [CMW-STATIC]: permanent / track, bfd control-packet bfd-source."""
    text = (
        "#\n sysname sw-1\n#\n ip route-static 0.0.0.0 0 10.0.0.1 track 3 bfd control-packet "
        "bfd-source 10.0.0.0 preference 200 tag 5 description oob\n"
        " ip route-static vpn-instance mgmt 0.0.0.0 0 192.168.0.1 permanent\n#\nreturn\n"
    )
    r = parse_text(text, file="sw-1.cfg", vendor=Vendor.H3C).config.device.static_routes
    assert [(x.track, x.bfd, x.preference, x.tag, x.description) for x in r[:1]] == [
        ("3", True, 200, 5, "oob")
    ]
    assert (r[1].vrf, r[1].permanent, r[1].line) == ("mgmt", True, 5)


def test_ios_shape_distance_for_ruijie() -> None:
    text = (
        "hostname sw-1\n!\ninterface HundredGigabitEthernet 0/1\n no switchport\n!\n"
        "ip route 10.0.0.0 255.0.0.0 10.1.1.1 250 tag 3 description x\n!\nend\n"
    )
    r = parse_text(text, file="sw-1.cfg", vendor=Vendor.RUIJIE).config.device.static_routes
    assert [(x.preference, x.tag, x.description) for x in r] == [(250, 3, "x")]


def test_unknown_option_leaves_the_route_unread_and_says_so() -> None:
    """A route read up to a word no option takes is not the route the switch has (its tag, its
    preference after the word): the line is unread, and the gate keeps deadlock from routing
    without it."""
    config = huawei("ip route-static 10.1.0.0 16 10.0.0.1 preference 9 frobnicate 3 tag 4")
    assert config.device.static_routes == ()
    (u,) = config.unread
    assert u.line == 7 and "option 'frobnicate' not understood" in u.reason
    assert [(f.section, f.lines) for f in config.accounting.unread_facts] == [
        ("static_routes", (7,))
    ]


@pytest.mark.parametrize(
    "line",
    [
        "ip route-static 10.1.0.0 16",
        "ip route-static 10.1.0.0 33 10.0.0.1",
        "ip route-static 10.1.0.0 16 10.0.0.1 preference 256",
        "ip route-static 10.1.0.0 16 10.0.0.1 tag 4294967296",
        "ip route-static 10.1.0.0 16 10.0.0.1 preference",
        "ip route-static 10.1.0.0 16 preference 3",
        "ip route-static vpn-instance",
    ],
)
def test_a_line_not_understood_is_reported_with_its_number(line: str) -> None:
    config = huawei(line)
    assert config.device.static_routes == ()
    assert [(u.line, u.text) for u in config.unread] == [(7, line)]
    assert config.unread[0].reason.startswith("static route not read")


@settings(max_examples=examples(60), deadline=None)
@given(
    pref=st.integers(min_value=-5, max_value=10**12),
    tag=st.integers(min_value=-5, max_value=10**12),
)
def test_values_beyond_every_range_are_never_taken(pref: int, tag: int) -> None:
    config = huawei(f"ip route-static 10.1.0.0 16 10.0.0.1 preference {pref} tag {tag}")
    routes = config.device.static_routes
    if 1 <= pref <= 255 and 0 <= tag <= 4_294_967_295:
        assert [(r.preference, r.tag) for r in routes] == [(pref, tag)]
    else:
        assert routes == () and len(config.unread) == 1


def test_inter_protocol_ecmp_is_read() -> None:
    """[HW-CR] ip route-static ... [ inter-protocol-ecmp ]: the static load-balances with a
    dynamic route of its preference; the deadlock analyser follows both."""
    config = huawei(
        "ip route-static 10.1.0.0 16 10.0.0.1 preference 255 inter-protocol-ecmp\n"
        "ip route-static 10.2.0.0 16 10.0.0.1"
    )
    flagged, plain = config.device.static_routes
    assert (flagged.preference, flagged.inter_protocol_ecmp) == (255, True)
    assert not plain.inter_protocol_ecmp
    assert "inter_protocol_ecmp" not in plain.model_dump()  # outputs without it stay as they were
    assert not config.unread and not [n for n in config.notes if "static route" in n]


@pytest.mark.parametrize(
    ("vendor", "text"),
    [
        (
            Vendor.HUAWEI,
            "#\nsysname sw-1\n#\nbgp 65001\n router-id 10.0.0.1\n peer 10.1.0.1 as-number 65101\n"
            " #\n ipv4-family unicast\n  peer 10.1.0.1 default-route-advertise\n"
            "  peer 10.1.0.3 default-route-advertise route-policy P\n#\nreturn\n",
        ),
        (
            Vendor.H3C,
            "#\n sysname sw-1\n#\nbgp 65001\n router-id 10.0.0.1\n peer 10.1.0.1 as-number 65101\n"
            " #\n address-family ipv4 unicast\n  peer 10.1.0.1 default-route-advertise\n"
            "  peer 10.1.0.3 default-route-advertise route-policy P\n#\nreturn\n",
        ),
    ],
)
def test_a_default_route_advertised_to_a_peer_is_read(vendor: Vendor, text: str) -> None:
    """'peer X default-route-advertise' ([HW-CR], [H3C-BGP-DEF]); the route-policy variant
    advertises only when the policy says so, which is not read: that line stays unread."""
    config = parse_text(text, file="sw-1.cfg", vendor=vendor).config
    assert config.device.bgp is not None
    assert config.device.bgp.default_to == (IPv4Address("10.1.0.1"),)
    assert [u.text.strip() for u in config.accounting.unread_lines] == [
        "peer 10.1.0.3 default-route-advertise route-policy P"
    ]


def test_default_originate_in_the_ios_shape() -> None:
    """'neighbor X default-originate': the IOS form, read for RGOS (unconfirmed there)."""
    text = (
        "hostname sw-1\n!\nrouter bgp 65001\n bgp router-id 10.0.0.1\n"
        " neighbor 10.1.0.1 remote-as 65101\n address-family ipv4 unicast\n"
        "  neighbor 10.1.0.1 default-originate\n exit-address-family\n!\nend\n"
    )
    bgp = parse_text(text, file="sw-1.cfg", vendor=Vendor.RUIJIE).config.device.bgp
    assert bgp is not None and bgp.default_to == (IPv4Address("10.1.0.1"),)
