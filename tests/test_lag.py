"""Link aggregation and M-LAG (issue 26): aggregates are links, members take the aggregate's
settings, the evidence step finds the corpus fabrics' links and sessions, and deadlock finds the
planted cycles after a LAG failure and after a member failure that takes the LAG down."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from roce_cfg import evidence
from roce_cfg.analysis import lint
from roce_cfg.deadlock import load
from roce_cfg.deadlock.run import Failures, run
from roce_cfg.links import infer
from roce_cfg.parse import parse_file, parse_text
from tests.helpers import ROOT
from tests.helpers import run as run_cli

CORPUS = ROOT / "tests/brownfield/fabrics"
# Lines the parser of this branch refuses or drops (their forms are issue 26's other items:
# watchdog and headroom-pool variants, static-route options); the links, aggregates and
# sessions these tests are about do not depend on them.
_UNREAD = re.compile(
    r"^\s*(dcb pfc deadlock|qos buffer headroom-pool|priority-flow-control (deadlock|pool))",
    re.IGNORECASE,
)
_ROUTE_OPTIONS = re.compile(r" (preference \d+|tag \d+|bfd enable|description .*)")


def corpus(name: str, tmp: Path) -> Path:
    """A readable copy of a corpus fabric: the text configs, without the lines above."""
    out = tmp / name
    out.mkdir(parents=True)
    for cfg in sorted((CORPUS / name).glob("*.cfg")):
        raw = cfg.read_bytes()
        if b"\x00" in raw:
            continue  # h3c-lag/leaf-4.cfg: a binary backup
        text = raw.decode("utf-8").replace("\r\n", "\n")
        kept = [
            _ROUTE_OPTIONS.sub("", ln) if "route-static" in ln else ln
            for ln in text.split("\n")
            if not _UNREAD.match(ln)
        ]
        (out / cfg.name).write_text("\n".join(kept), encoding="utf-8")
    return out


def expected(name: str) -> dict:  # type: ignore[type-arg]
    return yaml.safe_load((CORPUS / name / "expected.yaml").read_text(encoding="utf-8"))


def _facts(folder: Path) -> evidence.Evidence:
    return evidence.gather([parse_file(p).config.device for p in sorted(folder.glob("*.cfg"))])


def _end(text: str) -> infer.End:
    device, _, port = text.partition(":")
    return infer.End(device, port)


@pytest.mark.parametrize("name", ["hw-v300-mlag", "h3c-lag"])
def test_evidence_finds_the_corpus_links_with_their_members(name: str, tmp_path: Path) -> None:
    facts = _facts(corpus(name, tmp_path))
    got = {(k.a, k.b): k for k in facts.links}
    kinds = {"l3-lag": "l3-lag", "mlag-peer-link": "mlag-peer-link",
             "l3-vlan-over-peer-link": "l3-vlan"}  # fmt: skip
    want = [k for k in expected(name)["links"] if k["kind"] in kinds]
    assert len(want) >= 7
    for k in want:
        a, b = sorted([_end(k["a"]), _end(k["b"])])
        link = got[(a, b)]
        assert link.kind == kinds[k["kind"]]
        assert link.min_active == k.get("min_active_members", 1)
        if "members" in k:
            pairs = {tuple(_end(x).port for x in pair) for pair in k["members"]}
            if _end(k["a"]) != a:
                pairs = {(y, x) for x, y in pairs}
            assert set(link.members) == pairs
        if "rides" in k:
            assert link.rides is not None and _end(k["rides"]) in link.rides
    assert len(facts.links) == len(want)


@pytest.mark.parametrize("name", ["hw-v300-mlag", "h3c-lag"])
def test_bgp_sessions_are_matched_to_links_and_the_rest_are_gaps(name: str, tmp_path: Path) -> None:
    facts = _facts(corpus(name, tmp_path))
    spec = expected(name)
    matched = {(s.device, s.link.a.device if s.link.a.device != s.device else s.link.b.device)
               for s in facts.sessions if s.link is not None}  # fmt: skip
    for s in spec["bgp_sessions"]:
        assert (s["a"], s["b"]) in matched and (s["b"], s["a"]) in matched
    unexplained = spec.get("bgp_sessions_unmatched", []) + spec.get("bgp_sessions_unverifiable", [])
    gaps = {(g.device, g.what.split()[2]) for g in facts.gaps if g.kind == "bgp-peer"}
    assert gaps == {(u["device"], u["peer"]) for u in unexplained}
    assert facts.coverage.sessions_matched == 2 * len(spec["bgp_sessions"])


def test_members_take_the_aggregates_mtu_trust_and_mode(tmp_path: Path) -> None:
    device = parse_file(corpus("hw-v300-mlag", tmp_path) / "leaf-1.cfg").config.device
    trunk = device.aggregate("Eth-Trunk1")
    assert trunk is not None and trunk.members == ("100GE1/0/1", "100GE1/0/2")
    ports = {p.name: p for p in device.interfaces}
    for m in trunk.members:
        assert ports[m].mode == "routed" and ports[m].mtu == 9000 and ports[m].qos.trust_dscp
    # scheduling lives on the members on VRP: the aggregate has what all of them share
    assert ports["Eth-Trunk1"].qos.strict_queues == (6, 7)
    assert ports["Eth-Trunk1"].speed_gbps == 200
    peer = device.aggregate("Eth-Trunk0")
    assert peer is not None and peer.peer_link
    assert device.aggregate("Eth-Trunk10") is not None
    assert device.aggregate("Eth-Trunk10").mlag_group == 1  # type: ignore[union-attr]


def _findings(folder: Path) -> set[tuple[str, str | None, str | None]]:
    result = lint(sorted(folder.glob("*.cfg")))
    return {(f.rule, f.device, f.port) for f in result.findings}


def test_lint_judges_members_for_pfc_and_aggregates_for_mtu_trust_scheduling(
    tmp_path: Path,
) -> None:
    folder = corpus("hw-v300-mlag", tmp_path)
    found = _findings(folder)
    devices = [parse_file(p).config.device for p in sorted(folder.glob("*.cfg"))]
    members = {(d.hostname, m) for d in devices for a in d.aggregates for m in a.members}
    assert len(members) == 44  # 10 on leaf-1 and leaf-2, 4 on leaf-3 and leaf-4, 8 per spine
    false = {f for f in found if f[0] in ("RC107", "RC108", "RC113") and f[1:] in members}
    assert false == set()
    # F1: one member of leaf-4's lossless LAG toward spine-2 has no PFC
    assert ("RC306", "leaf-4", "100GE1/0/4") in found
    # F2: leaf-2's peer-link members have no PFC while leaf-1's do
    assert {("RC102", "leaf-2", "100GE1/0/7"), ("RC102", "leaf-2", "100GE1/0/8")} <= found
    assert ("RC306", "leaf-2", "100GE1/0/7") in found
    assert not [f for f in found if f[0] == "RC102" and (f[2] or "").startswith("Eth-Trunk")]


def test_h3c_peer_link_frame_mismatch_and_lossy_member(tmp_path: Path) -> None:
    found = _findings(corpus("h3c-lag", tmp_path))
    # H1: the peer-link aggregates disagree on the jumbo frame
    assert ("RC304", "leaf-1", "Bridge-Aggregation100") in found
    # H2: a member enables PFC with no no-drop priority
    assert ("RC101", "spine-2", "HundredGigE1/0/1:4") in found
    assert ("RC306", "spine-2", "HundredGigE1/0/1:4") in found
    assert not [f for f in found if f[0] in ("RC107", "RC108") and "GigE" in (f[2] or "")]


@pytest.mark.parametrize(
    ("name", "opens", "closed"),
    [
        ("hw-v300-mlag",
         ["spine-1:Eth-Trunk14", "spine-1:100GE1/0/7", "leaf-4:100GE1/0/2"],
         ["spine-1:100GE1/0/5", "spine-2:Eth-Trunk14", "leaf-3:100GE1/0/1"]),
        ("h3c-lag",
         ["spine-2:Route-Aggregation13", "spine-2:FourHundredGigE1/0/3",
          "leaf-3:FourHundredGigE1/0/52"],
         ["spine-1:FourHundredGigE1/0/3"]),
    ],
)  # fmt: skip
def test_deadlock_crosses_a_lag_after_a_lag_or_member_failure(
    name: str, opens: list[str], closed: list[str], tmp_path: Path
) -> None:
    src = load(corpus(name, tmp_path))
    spec = expected(name)
    fault = next(f for f in spec["faults"] if "deadlock_after" in f["expect"])
    cycle = set(fault["expect"]["cycle_switches"])
    assert run(src, Failures()).baseline == []
    for failure in opens:
        report = run(src, Failures(fail_links=failure))
        hops = {report.node_name(n).split("[")[0] for c in report.baseline for n in c.nodes}
        opened = [c for cs in report.opened.values() for c in cs]
        assert opened, failure
        names = {report.node_name(n).split("[")[0] for c in opened for n in c.nodes}
        assert names == cycle and not hops, failure
    for failure in closed:
        report = run(src, Failures(fail_links=failure))
        assert not any(report.opened.values()), failure


def test_a_member_failure_above_the_minimum_changes_no_route(tmp_path: Path) -> None:
    src = load(corpus("hw-v300-mlag", tmp_path))
    from roce_cfg.deadlock.net import build
    from roce_cfg.deadlock.run import links_named

    net = build(src.devices, src.links, src.dscp)
    assert links_named(net, "spine-1:100GE1/0/5") == ()
    both = links_named(net, "spine-1:100GE1/0/5,spine-1:100GE1/0/6")
    assert [net.links[i].name(net.names) for i in both] == [
        "leaf-3:Eth-Trunk1<->spine-1:Eth-Trunk13"
    ]
    (lag,) = links_named(net, "leaf-4:100GE1/0/1")
    assert net.links[lag].name(net.names) == "leaf-4:Eth-Trunk1<->spine-1:Eth-Trunk14"


def test_deadlock_with_an_unexplained_peer_is_never_an_all_clear(tmp_path: Path) -> None:
    folder = corpus("hw-v300-mlag", tmp_path)
    result = run_cli("deadlock", str(folder))
    assert result.exit_code == 1, result.stdout
    assert "coverage: 6 switches read, 10 links found (8 aggregated, 1 M-LAG peer-link)" in (
        result.stdout
    )
    assert "RC311 cannot verify: BGP peer 10.1.2.9 (AS 65105)" in result.stdout
    assert "no deadlock cycle among what was read, but unverified:" in result.stdout
    assert "1 gap in the fabric seen (RC311-RC314); exit 1" in result.stdout
    assert "\nno deadlock cycle\n" not in result.stdout
    # with the peer removed the gap goes; the verdict is clean, or unverified only where a
    # switch's lines were not read (RC503)
    spine = folder / "spine-2.cfg"
    spine.write_text("\n".join(ln for ln in spine.read_text().split("\n") if "10.1.2.9" not in ln))
    clean = run_cli("deadlock", str(folder))
    last = clean.stdout.rstrip().splitlines()[-1]
    assert "gap" not in last and "RC311" not in clean.stdout
    if "RC503" in clean.stdout:
        assert clean.exit_code == 1 and "partly not read (RC503); exit 1" in last
    else:
        assert clean.exit_code == 0 and last == "no deadlock cycle"


def test_lint_states_its_coverage(tmp_path: Path) -> None:
    result = run_cli("lint", str(corpus("h3c-lag", tmp_path)))
    assert (
        "coverage: 5 switches read, 8 links found (6 aggregated, 1 M-LAG peer-link), "
        "14 of 15 BGP sessions matched to links" in result.stdout
    )
    assert "RC313" in result.stdout and "RC311" in result.stdout


@pytest.mark.parametrize("name", ["hw-v300-mlag", "h3c-lag"])
def test_roles_come_from_the_topology(name: str, tmp_path: Path) -> None:
    folder = corpus(name, tmp_path)
    facts = _facts(folder)
    want = {s: v["role"] for s, v in expected(name)["switches"].items() if s in facts.roles}
    assert facts.roles == want
    # lint's views carry them (the spines' shut or unused Layer 2 ports made them leaves)
    result = lint(sorted(folder.glob("*.cfg")))
    assert {n: v.device.role for n, v in result.views.items()} == want


def test_a_dual_active_gateway_is_not_a_subnet_spread(tmp_path: Path) -> None:
    for name in ("hw-v300-mlag", "h3c-lag"):
        found = _findings(corpus(name, tmp_path / name))
        assert not [f for f in found if f[0] == "RC307"], name
    # two leaves that are no M-LAG pair with one gateway subnet still are
    folder = corpus("hw-v300-mlag", tmp_path / "unpaired")
    for cfg in (folder / "leaf-1.cfg", folder / "leaf-2.cfg"):
        cfg.write_text(cfg.read_text().replace(" peer-link 1\n", "\n"))
    found = _findings(folder)
    assert {("RC307", "leaf-1"), ("RC307", "leaf-2")} <= {(f[0], f[1]) for f in found}


def test_docs_show_the_policy_per_group_and_flag_the_odd_one_out(tmp_path: Path) -> None:
    from roce_cfg.report.markdown import _policies

    folder = corpus("hw-v300-mlag", tmp_path)
    devices = [parse_file(p).config.device for p in sorted(folder.glob("leaf-*.cfg"))]
    assert _policies(devices)[0] == "All 4 switches:\n"
    odd = devices[2].qos.model_copy(update={"no_drop": (3, 4)})
    devices[2] = devices[2].model_copy(update={"qos": odd})
    text = "\n".join(_policies(devices))
    first = ", ".join(d.hostname for i, d in enumerate(devices) if i != 2)
    assert text.startswith(f"{first} (3):\n")
    assert f"{devices[2].hostname} (1) — **differs from the most common policy**" in text
    assert "| no-drop priorities | 3, 4 |" in text


def test_ruijie_aggregate_port_members_take_its_mtu() -> None:
    # AggregatePort is confirmed; the member line 'port-group <n>' is marked unsourced in data
    text = (ROOT / "tests/parse/ruijie/leaf-48x25g.cfg").read_text(encoding="utf-8")
    text = text.replace(
        "interface TwentyFiveGigabitEthernet 0/2\n shutdown\n",
        "interface TwentyFiveGigabitEthernet 0/2\n port-group 1\n",
    ).replace(" description to-mgmt\n", " description to-mgmt\n mtu 9000\n")
    device = parse_text(text, file="leaf-31.cfg").config.device
    agg = device.aggregate("AggregatePort 1")
    assert agg is not None and agg.members == ("TwentyFiveGigabitEthernet 0/2",)
    ports = {p.name: p for p in device.interfaces}
    assert ports["TwentyFiveGigabitEthernet 0/2"].mtu == 9000
    assert not ports["AggregatePort 1"].shutdown
    # without members the aggregate is down
    plain = parse_file(ROOT / "tests/parse/ruijie/leaf-48x25g.cfg").config.device
    assert {p.name: p for p in plain.interfaces}["AggregatePort 1"].shutdown


def test_members_pair_by_the_far_port_their_descriptions_name(tmp_path: Path) -> None:
    folder = corpus("h3c-lag", tmp_path)
    leaf = parse_file(folder / "leaf-1.cfg").config.device
    spine = parse_file(folder / "spine-1.cfg").config.device
    # given in the opposite order, the descriptions ('to_spine-1_HundredGigE1/0/1:2_5m_AOC')
    # still pair each member with its far port
    pairs = infer.pair_members(
        leaf, ["HundredGigE1/0/50", "HundredGigE1/0/49"], spine,
        ["HundredGigE1/0/1:1", "HundredGigE1/0/1:2"],
    )  # fmt: skip
    assert pairs == (
        ("HundredGigE1/0/49", "HundredGigE1/0/1:1"),
        ("HundredGigE1/0/50", "HundredGigE1/0/1:2"),
    )
