"""Deadlock routing as switches route: route preference per vendor between statics and eBGP,
backup statics, the longest prefix first, BGP default routes, every destination the configs
carry, inter-protocol ECMP, and mutual defaults over an M-LAG peer-link. Each case is the
valley fabric of tests/deadlock (2 spines, 4 leaves, one ASN per spine) generated for a vendor,
with the lines of the case added to its configs.

Addresses of the valley fabric: spine-1 <-> leaf-k is 10.1.0.(4k-4) / 10.1.0.(4k-3), spine-2
<-> leaf-k 10.1.0.(4k-2) / 10.1.0.(4k-1); leaf-k's servers are 172.16.(k-1).0/24.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml

from roce_cfg.deadlock import load
from roce_cfg.deadlock.net import Network, build
from roce_cfg.deadlock.routing import State, baseline, fail, restore
from roce_cfg.generate import generate
from roce_cfg.output import write_all
from tests.helpers import ROOT
from tests.helpers import run as cli

VALLEY = ROOT / "tests/deadlock/valley-per-spine-asn.yaml"
MLAG = ROOT / "tests/brownfield/fabrics/hw-v300-mlag"
MODELS = {
    "h3c": "S9855-32D",
    "huawei": "CE8851-32CQ8DQ-P",
    "ruijie": "generic-64x400G",
    "zte": "generic-64x400G",
}
LAST = {"h3c": "\nreturn", "huawei": "\nreturn", "ruijie": "\nend"}
INDENT = {"h3c": " ", "huawei": "", "ruijie": ""}  # Comware prints global lines indented
SEP = {"h3c": "#", "huawei": "#", "ruijie": "!"}
FAIL_VALLEY = ("--fail-links", "leaf-1:spine-1,leaf-2:spine-2")


@cache
def _generated(vendor: str, shared_leaf_asn: bool = False) -> dict[str, str]:
    """The valley fabric's files for ``vendor``; with ``shared_leaf_asn`` every leaf in AS
    65101 (the spines' peers named so too)."""
    spec: dict[str, Any] = yaml.safe_load(VALLEY.read_text())
    for role in ("leaf", "spine"):
        spec["fabric"][role] = {"vendor": vendor, "model": MODELS[vendor]}
    with tempfile.TemporaryDirectory() as tmp:
        intent = Path(tmp) / "valley.yaml"
        intent.write_text(yaml.safe_dump(spec))
        out = generate(intent)
    files = {f"{h}.cfg": t for h, t in out.configs.items()}
    files["fabric.json"] = out.fabric.model_dump_json(exclude={"devices"})
    if shared_leaf_asn:
        for k in (2, 3, 4):
            files = {name: text.replace(f"6510{k}", "65101") for name, text in files.items()}
    return files


def _fabric(
    tmp_path: Path,
    vendor: str,
    add: dict[str, list[str]] | None = None,
    swap: dict[str, list[tuple[str, str]]] | None = None,
    shared_leaf_asn: bool = False,
) -> Path:
    """The valley fabric for ``vendor`` with global lines added and text replaced per switch."""
    files = dict(_generated(vendor, shared_leaf_asn))
    for host, lines in (add or {}).items():
        text = files[f"{host}.cfg"]
        block = "".join(f"{SEP[vendor]}\n{INDENT[vendor]}{line}\n" for line in lines)
        cut = text.rindex(LAST[vendor])
        files[f"{host}.cfg"] = text[: cut + 1] + block + text[cut + 1 :]
    for host, pairs in (swap or {}).items():
        for old, new in pairs:
            assert old in files[f"{host}.cfg"], (host, old)
            files[f"{host}.cfg"] = files[f"{host}.cfg"].replace(old, new)
    folder = tmp_path / "fabric"
    write_all(folder, files)
    return folder


def _cycles(folder: Path, *args: str) -> tuple[int, list[str], dict[str, Any]]:
    result = cli("deadlock", str(folder), *args, "--format", "json")
    assert result.exit_code in (0, 1), result.output
    doc = json.loads(result.stdout)
    return result.exit_code, [c["chain"] for c in doc["cycles"]], doc


STATIC_DOWN = {
    "huawei": "ip route-static 172.16.1.0 24 10.1.0.1",
    "ruijie": "ip route 172.16.1.0 255.255.255.0 10.1.0.1",
}


@pytest.mark.parametrize(
    ("vendor", "preference", "cycle"),
    [
        # VRP: static 60 by default, eBGP 255 [HW-CR]: a static of 250 still wins.
        ("huawei", " preference 250", True),
        ("huawei", "", True),
        # RGOS: static distance 1, eBGP 20 (IOS values): a floating static of 250 loses.
        ("ruijie", " 250", False),
        ("ruijie", " 10", True),
    ],
)
def test_a_static_wins_over_ebgp_only_where_its_preference_does(
    tmp_path: Path, vendor: str, preference: str, cycle: bool
) -> None:
    """spine-1 sends leaf-2's servers down to leaf-1 by a static, and leaf-1 sends them back
    up by eBGP: a 2-buffer cycle, where the static is preferred to spine-1's eBGP route."""
    folder = _fabric(tmp_path, vendor, {"spine-1": [STATIC_DOWN[vendor] + preference]})
    code, chains, doc = _cycles(folder)
    unconfirmed = [n for n in doc["routing"]["unconfirmed"] if "route preference" in n]
    assert bool(unconfirmed) == (vendor == "ruijie")  # RGOS's distances have no source
    assert (code, chains) == (
        (1, ["leaf-1[spine-1] -> spine-1[leaf-1] -> leaf-1[spine-1]"]) if cycle else (0, [])
    )


def test_a_backup_static_is_used_only_when_its_primary_is_down(tmp_path: Path) -> None:
    """spine-1's primary static to leaf-2's servers goes straight to leaf-2 (preference 60); a
    floating backup (250) goes down to leaf-1. Healthy, only the primary is used: no cycle.
    With the primary's link down the backup carries the traffic, and leaf-1 forwards it to
    spine-2 (its own eBGP route): still no cycle, but the edge spine-1 -> leaf-1 appears."""
    primary, backup = (
        "ip route-static 172.16.1.0 24 10.1.0.5",
        "ip route-static 172.16.1.0 24 10.1.0.1 preference 250",
    )
    folder = _fabric(tmp_path, "huawei", {"spine-1": [primary, backup]})
    assert _cycles(folder)[:2] == (0, [])
    # Both followed (the old reading) is a cycle: the backup leg down to leaf-1 and back up.
    both = _fabric(
        tmp_path / "both", "huawei", {"spine-1": [primary, backup.replace(" preference 250", "")]}
    )
    assert _cycles(both)[1] == ["leaf-1[spine-1] -> spine-1[leaf-1] -> leaf-1[spine-1]"]
    net, st = _state(folder)
    spine1, leaf1, leaf2 = (net.index(n) for n in ("spine-1", "leaf-1", "leaf-2"))
    (flow,) = [i for i, f in enumerate(net.flows) if str(f.prefixes[0]) == "172.16.1.0/24"]
    down = {(leaf1, lid) for lid in net.adj[spine1][leaf1]}
    assert not down & st.gouts[flow][spine1]
    lost = net.adj[spine1][leaf2]
    fail(st, lost)
    assert down <= st.gouts[flow][spine1]
    restore(st, lost)
    assert not down & st.gouts[flow][spine1]


def _state(folder: Path) -> tuple[Network, State]:
    src = load(folder)
    net = build(src.devices, src.links, src.dscp)
    return net, baseline(net)


def test_a_static_default_does_not_win_over_a_longer_ebgp_route(tmp_path: Path) -> None:
    """leaf-1 and spine-1 point static defaults at each other. Every RoCE destination has an
    eBGP /24 at both, which is longer: the defaults carry none of it, and there is no cycle.
    Once leaf-1 has lost both spines' routes (its uplinks down) it would use its default, but
    then its link to spine-1 is down too."""
    defaults = {
        "leaf-1": ["ip route-static 0.0.0.0 0 10.1.0.0"],
        "spine-1": ["ip route-static 0.0.0.0 0 10.1.0.1"],
    }
    folder = _fabric(tmp_path, "huawei", defaults)
    assert _cycles(folder, "--fail-links", "all-single")[:2] == (0, [])


def test_a_default_learned_by_ebgp_is_routed_and_can_close_a_cycle(tmp_path: Path) -> None:
    """Leaves share one ASN (no allowas-in): they reject each other's /24 and reach each other
    by the default route the spines advertise them ('peer X default-route-advertise'). The
    leaves pass on the default they chose (spine-1's: lower router id) to spine-2, which takes
    it (spine-1 refuses it: its own ASN is on the path). Healthy, every leaf's servers are
    reached up to a spine and down: no cycle. With leaf-1 - spine-1 and leaf-2 - spine-2 down,
    spine-2's only route to leaf-2's servers is that default, down to leaf-3 and leaf-4, whose
    own default sends it back up: a cycle. Without the defaults leaf-to-leaf traffic had no
    route at all, and nothing was said."""
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
    code, chains, doc = _cycles(folder)
    assert (code, chains) == (0, [])
    assert doc["routing"]["classes"] == 4  # every leaf's servers, each reached by the default
    code, chains, _ = _cycles(folder, *FAIL_VALLEY)
    assert (code, chains) == (1, ["leaf-3[spine-2] -> spine-2[leaf-3] -> leaf-3[spine-2]"])
    text = cli("deadlock", str(folder), *FAIL_VALLEY, "-v").stdout
    assert "default route learned by eBGP at" in text


def _routed_port(name: str, address: str, pfc: bool) -> str:
    lossless = " trust upstream ROCE\n dcb pfc enable mode manual\n" if pfc else ""
    return f"interface {name}\n undo portswitch\n ip address {address} 255.255.255.0\n{lossless}#\n"


def test_every_prefix_the_configs_carry_is_a_destination(tmp_path: Path) -> None:
    """leaf-1 and leaf-2 advertise a storage subnet on a lossless routed port instead of their
    servers' subnet: the valley after leaf-1 - spine-1 and leaf-2 - spine-2 fail now carries
    storage traffic, and closes the valley fixture's two cycles (server subnets alone were
    destinations: none here, no cycle). spine-1's firewall subnet sits behind a port without
    PFC: no RoCE is simulated to it, and the verdict says so."""
    swap: dict[str, list[tuple[str, str]]] = {}
    for k in (1, 2):
        swap[f"leaf-{k}"] = [
            (
                f"  network 172.16.{k - 1}.0 255.255.255.0\n",
                f"  network 10.60.{k}.0 255.255.255.0\n",
            ),
            (
                "interface Vlanif101\n",
                _routed_port("100GE1/0/20", f"10.60.{k}.1", True) + "interface Vlanif101\n",
            ),
        ]
    swap["spine-1"] = [
        (
            "interface LoopBack0\n",
            _routed_port("100GE1/0/1", "192.0.2.1", False) + "interface LoopBack0\n",
        )
    ]
    folder = _fabric(tmp_path, "huawei", swap=swap)
    code, chains, doc = _cycles(folder, *FAIL_VALLEY)
    assert code == 1 and len(chains) == 2
    assert doc["routing"]["no_roce"] == ["192.0.2.0/24 (spine-1 100GE1/0/1)"]
    text = cli("deadlock", str(folder), *FAIL_VALLEY, "-v").stdout
    assert "10.60.1.0/24" in text and "no RoCE simulated to" in text and "192.0.2.0/24" in text


def _mlag(tmp_path: Path, lines: dict[str, str]) -> Path:
    """tests/brownfield/fabrics/hw-v300-mlag with a static line added to some leaves."""
    folder = tmp_path / "mlag"
    shutil.copytree(MLAG, folder)
    for host, line in lines.items():
        cfg = folder / f"{host}.cfg"
        text = cfg.read_text()
        cfg.write_text(text.replace("\nreturn", f"\n{line}\n#\nreturn", 1))
    # The fabric's fault F2 made lossless: leaf-2's peer-link members get PFC as leaf-1's have.
    cfg = folder / "leaf-2.cfg"
    text = cfg.read_text()
    assert text.count(" eth-trunk 0\n") == 2
    cfg.write_text(text.replace(" eth-trunk 0\n", " eth-trunk 0\n dcb pfc enable mode manual\n"))
    return folder


PAIR_UPLINKS = ("--fail-links", "leaf-1:spine-1,leaf-1:spine-2,leaf-2:spine-1,leaf-2:spine-2")


def test_mutual_defaults_over_a_peer_link_loop_only_without_longer_routes(tmp_path: Path) -> None:
    """The M-LAG pair leaf-1/leaf-2 point static defaults at each other's VLAN interface on the
    peer-link (Vlanif4000). Every RoCE destination has a longer eBGP route at both: no cycle,
    and not after any single failure. With all four uplinks of the pair down, traffic from the
    pair's servers to leaf-3 and leaf-4 has nothing but the defaults, and bounces over the
    lossless peer-link: a cycle. (A next hop on a VLAN interface of the far switch was once
    taken for a route out of the fabric: no cycle ever.) The fabric's planted fault F4 (a
    static loop between spine-1 and leaf-3 after one failure) is no business of this test."""
    folder = _mlag(
        tmp_path,
        {
            "leaf-1": "ip route-static 0.0.0.0 0 10.254.1.1",
            "leaf-2": "ip route-static 0.0.0.0 0 10.254.1.0",
        },
    )
    assert _cycles(folder)[1] == []
    # (the fabric's planted fault F4, a static loop between spine-1 and leaf-3, stays)
    singles = _cycles(folder, "--fail-links", "all-single")[1]
    assert singles and not [c for c in singles if "leaf-1[leaf-2]" in c or "leaf-2[leaf-1]" in c]
    chains = _cycles(folder, *PAIR_UPLINKS)[1]
    assert chains == ["leaf-1[leaf-2] -> leaf-2[leaf-1] -> leaf-1[leaf-2]"]
    text = cli("deadlock", str(folder), *PAIR_UPLINKS, "-v").stdout
    assert "static route 0.0.0.0/0 at leaf-1 via leaf-2" in text


def _firewall(address: str) -> str:
    return f"interface 100GE1/0/1\n undo portswitch\n ip address {address} 255.255.255.252\n#\n"


@pytest.mark.parametrize(
    ("options", "cycles", "tie_noted"),
    [
        ("", 0, False),  # the static (60) replaces the valley route (eBGP 255)
        (" preference 255 inter-protocol-ecmp", 2, False),  # [HW-CR]: load-balanced with eBGP
        (" preference 255", 2, True),  # a tie no source settles: both followed, and said so
        (" preference 254", 0, False),
    ],
)
def test_inter_protocol_ecmp_keeps_the_ebgp_route_beside_the_static(
    tmp_path: Path, options: str, cycles: int, tie_noted: bool
) -> None:
    """The valley fabric with leaf-1 - spine-1 and leaf-2 - spine-2 down, and each spine sending
    the subnet of the leaf it lost to a firewall by a static (tests/deadlock/static-offload, on
    VRP). Preferred alone, the static replaces the valley route: no cycle. With
    'inter-protocol-ecmp' at eBGP's preference the valley route carries half the traffic:
    the valley fixture's two cycles."""
    add, swap = {}, {}
    for n, (spine, fw) in enumerate((("spine-1", "192.0.2.1"), ("spine-2", "192.0.2.5"))):
        add[spine] = [f"ip route-static 172.16.{n}.0 24 {fw}{options}"]
        own = f"192.0.2.{2 + 4 * n}"
        swap[spine] = [("interface LoopBack0\n", _firewall(own) + "interface LoopBack0\n")]
    folder = _fabric(tmp_path, "huawei", add, swap)
    _, chains, doc = _cycles(folder, *FAIL_VALLEY)
    assert len(chains) == cycles
    notes = [n for n in doc["routing"]["unconfirmed"] if "ties eBGP" in n]
    assert bool(notes) == tie_noted, notes


def test_the_verdict_says_what_the_simulation_leaves_out() -> None:
    """In the text the user reads (before the last line) and in the JSON: the routing not
    modelled, destinations assumed to carry RoCE, routes not followed as configured."""
    result = cli("deadlock", str(ROOT / "tests/deadlock/static-loop"))
    lines = result.stdout.splitlines()
    assert lines[-1] == "1 cycle; exit 1"
    said = "\n".join(lines[:-1])
    for word in ("route maps", "local preference", "allowas-in", "policy-based routing", "IGPs"):
        assert word in said, word
    assert "RoCE assumed to (no subnet of a switch read holds them): 10.50.0.0/24" in said
    doc = json.loads(
        cli("deadlock", str(ROOT / "tests/deadlock/static-loop"), "--format", "json").stdout
    )
    routing = doc["routing"]
    assert any("route maps" in x for x in routing["not_modelled"])
    assert routing["assumed_roce"] == ["10.50.0.0/24 (routed by a static route at sw-a)"]
    assert routing["classes"] == 1 and routing["plain"] == 0
    h3c = json.loads(
        cli("deadlock", str(ROOT / "tests/brownfield/fabrics/h3c-lag"), "--format", "json").stdout
    )
    left = h3c["routing"]["not_followed"]
    assert any(
        x.startswith("leaf-1:396 static route 0.0.0.0/0 via next hop 192.168.30.254") for x in left
    )


def test_a_default_originated_by_network_is_routed(tmp_path: Path) -> None:
    """'network 0.0.0.0 0' on both spines (taken to originate the default whether or not the
    spine's own table holds one): leaves that share an ASN reach each other by it."""
    swap = {
        spine: [(" ipv4-family unicast\n", " ipv4-family unicast\n  network 0.0.0.0 0\n")]
        for spine in ("spine-1", "spine-2")
    }
    folder = _fabric(tmp_path, "huawei", swap=swap, shared_leaf_asn=True)
    net, st = _state(folder)
    leaf1, leaf2 = net.index("leaf-1"), net.index("leaf-2")
    (flow,) = [i for i, f in enumerate(net.flows) if str(f.prefixes[0]) == "172.16.1.0/24"]
    assert [c.plen for c in net.flows[flow].bgp] == [24, 0]
    assert {net.names[y] for y, _ in st.gouts[flow][leaf1]} == {"spine-1", "spine-2"}
    assert leaf2 not in st.gouts[flow]  # delivered there
    assert _cycles(folder, "--fail-links", "all-single")[:2] == (0, [])
