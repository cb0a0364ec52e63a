"""IPv6 destinations are routed as IPv4 ones: the routing cases of
tests/test_deadlock_routes.py on the valley fabric, addressed in IPv6 as each vendor prints it
(tests/metamorphic.py 'IPv6 addressing': interfaces, peers, networks, defaults advertised and
statics), give the same cycles in the same scenarios."""

from __future__ import annotations

from pathlib import Path

import pytest

from roce_cfg.output import write_all
from tests.metamorphic import ipv6_addressing
from tests.test_deadlock_routes import FAIL_VALLEY, _cycles, _fabric

STATIC_DOWN = "ip route-static 172.16.1.0 24 10.1.0.1"
PRIMARY = "ip route-static 172.16.1.0 24 10.1.0.5"
VALLEY_CYCLE = "leaf-1[spine-1] -> spine-1[leaf-1] -> leaf-1[spine-1]"


def _in_ipv6(folder: Path, out: Path, vendor: str) -> Path:
    """``folder``'s configs addressed in IPv6 (its fabric.json, of IPv4 links, left out)."""
    files = {}
    for cfg in sorted(folder.glob("*.cfg")):
        text = cfg.read_text()
        files[cfg.name] = ipv6_addressing(text, vendor) or text
        assert files[cfg.name] != text, cfg.name
    write_all(out, files)
    return out


def _both(
    folder: Path, tmp_path: Path, *args: str, vendor: str = "huawei"
) -> tuple[list[str], list[str]]:
    """The cycles of the IPv4 configs (without their plan) and of their IPv6 twins, whose
    verdicts agree in every count (switches, links, scenarios, cycles, classes routed)."""
    (folder / "fabric.json").unlink()
    v6 = _in_ipv6(folder, tmp_path / "v6", vendor)
    code4, chains4, doc4 = _cycles(folder, *args)
    code6, chains6, doc6 = _cycles(v6, *args)
    assert (code6, doc6["summary"]) == (code4, doc4["summary"])
    assert doc6["routing"]["classes"] == doc4["routing"]["classes"]
    return chains4, chains6


@pytest.mark.parametrize(
    ("add", "args", "cycles"),
    [
        # a static down to leaf-1 wins over eBGP (VRP static 60 / 250 < eBGP 255)
        ({"spine-1": [STATIC_DOWN + " preference 250"]}, (), [VALLEY_CYCLE]),
        # the primary static is used, not the floating backup
        ({"spine-1": [PRIMARY, STATIC_DOWN + " preference 250"]}, (), []),
        ({"spine-1": [PRIMARY, STATIC_DOWN]}, (), [VALLEY_CYCLE]),
        # static defaults lose to the longer eBGP routes
        (
            {
                "leaf-1": ["ip route-static 0.0.0.0 0 10.1.0.0"],
                "spine-1": ["ip route-static 0.0.0.0 0 10.1.0.1"],
            },
            ("--fail-links", "all-single"),
            [],
        ),
        # the valley fixture's own failure: two cycles through the leaves' servers
        ({}, FAIL_VALLEY, None),
    ],
)
def test_statics_and_ebgp_route_ipv6_as_ipv4(
    tmp_path: Path, add: dict[str, list[str]], args: tuple[str, ...], cycles: list[str] | None
) -> None:
    chains4, chains6 = _both(_fabric(tmp_path, "huawei", add), tmp_path, *args)
    if cycles is not None:
        assert chains4 == cycles
    else:
        assert chains4  # not vacuous: the valley's failure closes cycles
    assert chains6 == chains4


def test_a_default_advertised_to_ipv6_peers_is_routed(tmp_path: Path) -> None:
    """'peer <ipv6> default-route-advertise' in 'ipv6-family unicast': the leaves (one ASN)
    reach each other by the spines' ::/0 as they did by 0.0.0.0/0, and the valley's failure
    closes the same cycle."""
    peers = {"spine-1": (0, 4, 8, 12), "spine-2": (2, 6, 10, 14)}
    adverts = {
        spine: [
            (
                f"  peer 10.1.0.{a + 1} enable\n",
                f"  peer 10.1.0.{a + 1} enable\n  peer 10.1.0.{a + 1} default-route-advertise\n",
            )
            for a in addresses
        ]
        for spine, addresses in peers.items()
    }
    folder = _fabric(tmp_path, "huawei", swap=adverts, shared_leaf_asn=True)
    chains4, chains6 = _both(folder, tmp_path, *FAIL_VALLEY)
    assert chains4 == chains6 == ["leaf-3[spine-2] -> spine-2[leaf-3] -> leaf-3[spine-2]"]


@pytest.mark.parametrize("vendor", ["h3c", "huawei", "ruijie", "zte"])
def test_every_vendor_routes_ipv6_as_ipv4(tmp_path: Path, vendor: str) -> None:
    """The valley's failure closes the same cycles in each vendor's IPv6 twin: its links pair by
    their /127s, its eBGP sessions by their IPv6 peers, its servers' prefixes are announced in
    the vendor's IPv6 family (Comware 'address-family ipv6 unicast', the IOS shape of RGOS and
    ZXROS)."""
    chains4, chains6 = _both(_fabric(tmp_path, vendor), tmp_path, *FAIL_VALLEY, vendor=vendor)
    assert chains4  # not vacuous
    assert chains6 == chains4


@pytest.mark.parametrize(
    ("vendor", "static"),
    [
        # Comware: static 60 < eBGP 255 ([CMW-STATIC], [HPE-5710-L3]); 'ipv6 route-static'
        ("h3c", "ip route-static 172.16.1.0 24 10.1.0.1"),
        # RGOS: distance 1 < 20 (IOS values, unconfirmed); 'ipv6 route <ipv6>/<len>'
        ("ruijie", "ip route 172.16.1.0 255.255.255.0 10.1.0.1"),
    ],
)
def test_an_ipv6_static_wins_over_ebgp_as_the_ipv4_one(
    tmp_path: Path, vendor: str, static: str
) -> None:
    """spine-1's static down to leaf-1 (leaf-2's servers), in IPv6 as in IPv4: the cycle."""
    chains4, chains6 = _both(
        _fabric(tmp_path, vendor, {"spine-1": [static]}), tmp_path, vendor=vendor
    )
    assert chains4 == chains6 == [VALLEY_CYCLE]
