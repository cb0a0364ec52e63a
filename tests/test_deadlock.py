"""PFC deadlock analysis: the fixtures of the design notes, routing properties, reports."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from roce_cfg.analysis.rules_deadlock import deadlock_findings
from roce_cfg.deadlock import load
from roce_cfg.deadlock.analyse import analyse, single_failures
from roce_cfg.deadlock.net import Network, build
from roce_cfg.deadlock.quick import acyclic, bicliques, twin_classes
from roce_cfg.deadlock.routing import Node, baseline, destinations, fail, restore
from roce_cfg.deadlock.run import Failures, run
from roce_cfg.design.designer import design
from roce_cfg.generate import generate
from roce_cfg.intent.models import Intent
from roce_cfg.output import write_all
from roce_cfg.platforms.profile import load_profile
from tests.helpers import ROOT, examples
from tests.helpers import run as cli

HERE = ROOT / "tests/deadlock"
CASES = yaml.safe_load((HERE / "expected.yaml").read_text())


@pytest.mark.parametrize("case", CASES, ids=[c["case"] for c in CASES])
def test_fixture(case: dict[str, Any]) -> None:
    result = cli("deadlock", str(HERE / case["source"]), *case["args"], "--format", "json")
    assert result.exit_code == case["exit"], result.output
    doc = json.loads(result.stdout)
    chains = [f["message"].split("PFC deadlock cycle ", 1)[1] for f in doc["findings"]]
    assert sorted(chains) == sorted(case["cycles"])
    text = cli("deadlock", str(HERE / case["source"]), *case["args"])
    assert f"checked {case['scenarios']} scenario" in text.stdout


def test_valley_cycle_findings_name_the_failure_and_every_hop() -> None:
    result = cli(
        "deadlock",
        str(HERE / "valley-per-spine-asn.yaml"),
        "--fail-links",
        "leaf-1:spine-1,leaf-2:spine-2",
        "--format",
        "json",
    )
    findings = json.loads(result.stdout)["findings"]
    assert {f["rule"] for f in findings} == {"RC502"}
    first = findings[0]
    assert first["message"].startswith("after leaf-1:")
    assert len(first["detail"]) == 4
    assert sum("valley route" in d for d in first["detail"]) == 2


def test_rc502_is_the_deadlock_commands_and_lint_lists_but_does_not_run_it() -> None:
    """RC502 needs failure scenarios: declared without a check (lint's engine skips it), it is
    still listed and explained like every rule."""
    from roce_cfg.analysis.registry import RULES

    assert RULES["RC502"].check is None
    assert RULES["RC501"].check is not None
    assert "RC502" in cli("rules").stdout
    assert "roce-cfg deadlock" in cli("explain", "RC502").stdout


def test_a_priority_remap_on_the_bounce_breaks_the_cycle(tmp_path: Path) -> None:
    generated = generate(HERE / "valley-per-spine-asn.yaml")
    files = {f"{h}.cfg": t for h, t in generated.configs.items()}
    files["fabric.json"] = generated.fabric.model_dump_json(exclude={"devices"})
    # leaf-3 puts RoCE in priority 4, lossy on its ports: the bounce through it drops, not waits.
    files["leaf-3.cfg"] = files["leaf-3.cfg"].replace(" import 26 export 3", " import 26 export 4")
    write_all(tmp_path / "pod", files)
    args = ["--fail-links", "leaf-1:spine-1,leaf-2:spine-2"]
    assert cli("deadlock", str(tmp_path / "pod"), *args).exit_code == 0
    files["leaf-3.cfg"] = generated.configs["leaf-3"]
    shutil.rmtree(tmp_path / "pod")
    write_all(tmp_path / "pod", files)
    assert cli("deadlock", str(tmp_path / "pod"), *args).exit_code == 1


def test_a_pause_holds_back_only_the_priority_it_names(tmp_path: Path) -> None:
    """leaf-3 puts RoCE in priority 4, lossless on its ports like 3, while the others put it
    in 3. leaf-3's pause names 4: a spine's priority-3 queue toward it never stops, nor does a
    spine's pause (3) stop leaf-3's RoCE: no dependency crosses those hops, and the valley's two
    cycles (both through leaf-3) cannot form. Lint still reports the mismatch (RC303)."""
    generated = generate(HERE / "valley-per-spine-asn.yaml")
    files = {f"{h}.cfg": t for h, t in generated.configs.items()}
    files["fabric.json"] = generated.fabric.model_dump_json(exclude={"devices"})
    both = "priority-flow-control no-drop dot1p 3 4\n"
    files["leaf-3.cfg"] = files["leaf-3.cfg"].replace(
        "priority-flow-control no-drop dot1p 3\n", both
    )
    args = ["--fail-links", "leaf-1:spine-1,leaf-2:spine-2"]
    write_all(tmp_path / "same", files)  # RoCE still in 3 everywhere: the two cycles
    assert "2 cycles" in cli("deadlock", str(tmp_path / "same"), *args).stdout
    files["leaf-3.cfg"] = files["leaf-3.cfg"].replace(" import 26 export 3", " import 26 export 4")
    write_all(tmp_path / "pod", files)
    result = cli("deadlock", str(tmp_path / "pod"), *args)
    assert result.exit_code == 0 and "no deadlock cycle" in result.stdout, result.output
    lint = json.loads(cli("lint", str(tmp_path / "pod"), "--format", "json").stdout)
    assert "RC303" in {f["rule"] for f in lint["findings"] if f["device"] == "leaf-3"}


def test_acceptance_pod_checks_every_single_failure() -> None:
    pod = ROOT / "tests/data/acceptance/pod-small.yaml"
    result = cli("deadlock", str(pod), "--fail-links", "all-single")
    assert result.exit_code == 0
    assert "checked 65 scenarios" in result.stdout and "no deadlock cycle" in result.stdout


def test_lint_deadlock_reports_a_static_loop() -> None:
    result = cli("lint", str(HERE / "static-loop"), "--deadlock", "--format", "json")
    rules = {f["rule"] for f in json.loads(result.stdout)["findings"]}
    assert "RC501" in rules and result.exit_code == 1
    plain = cli("lint", str(HERE / "static-loop"), "--format", "json")
    assert "RC501" not in {f["rule"] for f in json.loads(plain.stdout)["findings"]}


def test_bad_failure_specs_are_input_errors() -> None:
    src = str(HERE / "clos-2x2.yaml")
    for args in (
        ["--fail-links", "leaf-9:spine-1"],
        ["--fail-links", "leaf-1"],
        ["--fail-devices", "x"],
    ):
        result = cli("deadlock", src, *args)
        assert result.exit_code == 2 and result.stderr.startswith("roce-cfg: error:"), args


def _clos(spines: int, leaves: int, uplinks: int, shared: bool, paths: int) -> dict[str, Any]:
    return {
        "name": "p",
        "servers": {"count": leaves, "nics": 1, "nic_speed": "100G"},
        "fabric": {
            "topology": "leaf-spine",
            "rails": 1,
            "leaves_per_rail": leaves,
            "spines": spines,
            "uplinks_per_spine": uplinks,
            "leaf": {"vendor": "h3c", "model": "S9855-32D"},
            "spine": {"vendor": "h3c", "model": "S9855-32D"},
            "links": {
                "server_leaf": {"speed": "100G", "cable_m": 3},
                "leaf_spine": {"speed": "400G", "cable_m": 10},
            },
        },
        "addressing": {
            "loopbacks": "10.0.0.0/24",
            "fabric_p2p": "10.1.0.0/24",
            "rail_subnets": "172.16.0.0/16",
            "rail_vlan_base": 101,
        },
        "routing": {
            "protocol": "ebgp",
            "leaf_asn_base": 65101,
            "max_paths": paths,
            **({"spine_asn": 65000} if shared else {"spine_asn_base": 65001}),
        },
        "lossless": {
            "roce": {"dscp": 26, "priority": 3},
            "cnp": {"dscp": 48, "priority": 6},
            "pfc": {"no_drop": [3]},
        },
    }


def _net(spec: dict[str, Any]):  # type: ignore[no-untyped-def]
    intent = Intent.model_validate(spec)
    fabric = design(intent, {v: load_profile(v) for v in {intent.fabric.leaf.vendor}})
    links = [(k.a_device, k.a_port, k.b_device, k.b_port) for k in fabric.links]
    return build(list(fabric.devices), links, 26)


clos = st.builds(
    _clos,
    st.integers(1, 4),
    st.integers(2, 6),
    st.integers(1, 2),
    st.booleans(),
    st.sampled_from([1, 2, 64]),
)


@settings(max_examples=examples(25), deadline=None)
@given(clos)
def test_up_down_clos_without_failures_is_acyclic(spec: dict[str, Any]) -> None:
    report = analyse(_net(spec), [()])
    assert report.baseline == []


@settings(max_examples=examples(60), deadline=None)
@given(clos, st.data())
def test_incremental_failure_equals_recomputing_from_scratch(
    spec: dict[str, Any], data: st.DataObject
) -> None:
    net = _net(spec)
    failed = data.draw(st.sets(st.sampled_from(range(len(net.links))), min_size=1, max_size=2))
    state = baseline(net)
    before = {d: dict(t) for d, t in state.routes.items()}
    fail(state, sorted(failed))
    # The same fabric without those links, from scratch.
    kept = [ln for ln in net.links if ln.id not in failed]
    names = net.names
    scratch = baseline(
        build(net.devices, [(names[k.a], k.a_port, names[k.b], k.b_port) for k in kept], 26)
    )
    for d, table in state.routes.items():
        assert {names[s]: [names[n] for n in r.nh] for s, r in table.items()} == {
            names[s]: [names[n] for n in r.nh] for s, r in scratch.routes[d].items()
        }
    restore(state, sorted(failed))
    assert {d: dict(t) for d, t in state.routes.items()} == before


def test_single_failure_scenarios_roll_back_exactly() -> None:
    net = build(*(lambda s: (s.devices, s.links, s.dscp))(load(HERE / "valley-per-spine-asn.yaml")))
    state = baseline(net)
    edges = {u: dict(vs) for u, vs in state.edges.items() if vs}
    for (lid,) in single_failures(net):
        fail(state, [lid])
        restore(state, [lid])
    assert {u: dict(vs) for u, vs in state.edges.items() if vs} == edges


def test_run_api_counts_scenarios() -> None:
    src = load(HERE / "clos-2x2.yaml")
    report = run(src, Failures(fail_links="all-single", max_failures=2))
    result = deadlock_findings(src, report)
    assert report.scenarios == 1 + 4 + 6  # healthy, 4 single and 6 double failures
    assert result.findings == []


def test_svg_draws_every_switch_and_link_and_numbers_the_hops(tmp_path: Path) -> None:
    from xml.etree import ElementTree as ET

    svg = tmp_path / "cycle.svg"
    args = ["--fail-links", "leaf-1:spine-1,leaf-2:spine-2", "--svg", str(svg)]
    assert cli("deadlock", str(HERE / "valley-per-spine-asn.yaml"), *args).exit_code == 1
    root = ET.parse(svg).getroot()
    ns = "{http://www.w3.org/2000/svg}"
    assert (
        len(root.findall(f"{ns}g[@class='sw']")) + len(root.findall(f"{ns}g[@class='sw on']")) == 6
    )
    lines = root.findall(f"{ns}line")
    assert len(lines) == 8
    assert sum(ln.get("class") == "hop" for ln in lines) == 4
    assert sum(ln.get("class") == "failed" for ln in lines) == 2
    assert sorted(int(g.get("data-hop", 0)) for g in root.findall(f"{ns}g[@class='num']")) == [
        1,
        2,
        3,
        4,
    ]


def test_html_report_renders_in_a_real_browser(tmp_path: Path) -> None:
    import os
    import subprocess

    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        if os.environ.get("ROCE_CFG_REQUIRE_BROWSER"):
            pytest.fail("chromium not installed but ROCE_CFG_REQUIRE_BROWSER is set")
        pytest.skip("chromium not installed (.ci/run installs it)")
    page = tmp_path / "report.html"
    args = ["--fail-links", "leaf-1:spine-1,leaf-2:spine-2", "--html", str(page)]
    assert cli("deadlock", str(HERE / "valley-per-spine-asn.yaml"), *args).exit_code == 1
    assert "http" not in page.read_text().split("<svg", 1)[0].split("<title>")[0]  # no CDN
    dom = subprocess.run(
        [browser, "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom", page.as_uri()],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout
    status = dom.split('<div id="status"', 1)[1].split(">", 1)[0]
    assert 'data-ready="1"' in status and 'data-errors="0"' in status
    assert 'data-switches="6"' in status and 'data-links="8"' in status
    assert 'data-hops="4"' in status
    assert int(status.split('data-width="', 1)[1].split('"', 1)[0]) > 300


def test_three_tier_plan_is_acyclic_healthy_and_after_any_one_or_two_failures() -> None:
    src = load(ROOT / "tests/scenarios/three-tier.yaml")
    report = run(src, Failures(fail_links="all-single", max_failures=2))
    result = deadlock_findings(src, report)
    assert report.scenarios == 1 + 16 + 120  # healthy, 16 single and 120 double failures
    assert result.findings == []
    roles = {d.hostname: d.role for d in src.devices}
    assert sorted(set(roles.values())) == ["leaf", "spine", "superspine"]
    asns = {d.hostname: d.bgp.asn for d in src.devices if d.bgp}
    assert asns["spine-1"] == asns["spine-2"] != asns["spine-3"] == asns["spine-4"]
    assert asns["superspine-1"] == asns["superspine-2"]


def _routed_edges(net: Network) -> set[tuple[Node, Node]]:
    st = baseline(net)
    return {(u, v) for u, vs in st.edges.items() for v, n in vs.items() if n}


def _biclique_edges(net: Network) -> set[tuple[Node, Node]]:
    groups = bicliques(net)
    assert groups is not None
    ok = net.lossless
    return {
        ((s, lid), o)
        for (s, outs), ins in groups.items()
        for lid in ins
        for o in outs
        if (s, lid) in ok and o in ok
    }


@settings(max_examples=examples(80), deadline=None)
@given(clos, st.data())
def test_twins_and_bicliques_give_the_full_engines_edges(
    spec: dict[str, Any], data: st.DataObject
) -> None:
    """The healthy shortcut (twin destinations, biclique edges) against the per-edge engine,
    also on fabrics with cables missing: twins broken, valley routes, cycles."""
    net = _net(spec)
    gone = data.draw(st.sets(st.sampled_from(range(len(net.links))), max_size=3))
    names = net.names
    kept = [(names[k.a], k.a_port, names[k.b], k.b_port) for k in net.links if k.id not in gone]
    net = build(net.devices, kept, 26)
    assert _biclique_edges(net) == _routed_edges(net)
    assert acyclic(net, {}) == (analyse(net, [()]).baseline == [])


@pytest.mark.parametrize(
    "source", ["tests/scenarios/three-tier.yaml", "tests/scenarios/three-tier-planes.yaml"]
)
def test_twins_and_bicliques_on_three_tiers(source: str) -> None:
    src = load(ROOT / source)
    net = build(src.devices, src.links, src.dscp)
    assert len(twin_classes(net)) < len(destinations(net))  # the shortcut has work to save
    assert _biclique_edges(net) == _routed_edges(net)
    assert acyclic(net, {})


def test_valley_cycle_is_left_to_the_full_engine() -> None:
    src = load(HERE / "valley-per-spine-asn.yaml")
    names = {("leaf-1", "spine-1"), ("leaf-2", "spine-2")}
    kept = [k for k in src.links if (k[0], k[2]) not in names]
    net = build(src.devices, kept, src.dscp)
    assert _biclique_edges(net) == _routed_edges(net)
    assert not acyclic(net, {})
    assert len(analyse(net, [()]).baseline) == 2


def test_the_failure_report_says_which_healthy_cycles_survive() -> None:
    # stretched-vlan: both healthy cycles run round all four links, so any one failure breaks
    # both; the report says so instead of only listing what failures open.
    result = cli("deadlock", str(HERE / "stretched-vlan"), "--fail-links", "all-single")
    assert "healthy-fabric cycles that survive every checked failure: 0 of 2" in result.stdout
    assert result.stdout.count(": 0 of 2 survive") == 4
    src = load(HERE / "stretched-vlan")
    net = build(src.devices, src.links, src.dscp)
    report = analyse(net, [(), *single_failures(net)])
    assert len(report.baseline) == 2
    assert set(report.survived) == {(lid,) for lid in range(len(net.links))}
    assert all(kept == () for kept in report.survived.values())


def _named_edges(net: Network, edges: dict[Node, dict[Node, int]], failed: set[int]) -> set[str]:
    def name(node: Node) -> str:
        return f"{net.names[node[0]]}[{net.names[net.links[node[1]].far(node[0])]}]"

    return {
        f"{name(u)}->{name(v)}"
        for u, vs in edges.items()
        for v, n in vs.items()
        if n and u[1] not in failed and v[1] not in failed
    }


@pytest.mark.parametrize("fixture", ["static-down", "static-offload", "static-loop"])
def test_failures_with_static_routes_equal_recomputing_from_scratch(fixture: str) -> None:
    """A static over a failed link is withdrawn and BGP takes over at its switch again; the
    incremental engine must agree with a fabric built without that link, for every link."""
    source = load(HERE / fixture)
    net = build(source.devices, source.links, source.dscp)
    state = baseline(net)
    names = net.names
    for lid in range(len(net.links)):
        fail(state, [lid])
        kept = [(names[k.a], k.a_port, names[k.b], k.b_port) for k in net.links if k.id != lid]
        scratch_net = build(net.devices, kept, source.dscp)
        scratch = baseline(scratch_net)
        assert _named_edges(net, state.edges, {lid}) == _named_edges(
            scratch_net, scratch.edges, set()
        ), net.links[lid].name(names)
        restore(state, [lid])


def _offload_variant(tmp_path: Path, old: str, new: str) -> Path:
    """static-offload with ``old`` replaced on both spines ({n}: the subnet of the leaf each
    spine lost, 0 on spine-1, 1 on spine-2): one spine's static alone already breaks both
    cycles, since each cycle turns down a valley at both spines."""
    folder = tmp_path / "fabric"
    shutil.copytree(HERE / "static-offload", folder)
    for n, spine in enumerate(("spine-1", "spine-2")):
        cfg = folder / f"{spine}.cfg"
        text = cfg.read_text()
        assert old.format(n=n) in text
        cfg.write_text(text.replace(old.format(n=n), new.format(n=n)))
    return folder


@pytest.mark.parametrize(
    ("old", "new", "why"),
    [
        # A /25 covers half of the lost leaf's /24: BGP still carries the rest down the valley.
        ("ip route-static 172.16.{n}.0 24", "ip route-static 172.16.{n}.0 25", "partial"),
        # A shorter static (the /16) loses to the BGP /24.
        ("ip route-static 172.16.{n}.0 24", "ip route-static 172.16.{n}.0 16", "shorter"),
        # The firewall port is down: the next hop is unresolved, the static inactive.
        (" description firewall\n", " description firewall\n shutdown\n", "unresolved"),
    ],
)
def test_a_static_that_does_not_replace_the_valley_route_keeps_the_cycles(
    tmp_path: Path, old: str, new: str, why: str
) -> None:
    folder = _offload_variant(tmp_path, old, new)
    args = ("deadlock", str(folder), "--fail-links", "leaf-1:spine-1,leaf-2:spine-2")
    result = cli(*args)
    assert result.exit_code == 1, (why, result.output)
    assert "2 cycles" in result.stdout, why


def test_two_halves_replace_the_valley_route_as_one_static(tmp_path: Path) -> None:
    two = (
        "ip route-static 172.16.{n}.0 25 192.0.2.{h}\n"
        " ip route-static 172.16.{n}.128 25 192.0.2.{h}"
    )
    folder = tmp_path / "fabric"
    shutil.copytree(HERE / "static-offload", folder)
    for n, (spine, h) in enumerate((("spine-1", 1), ("spine-2", 5))):
        cfg = folder / f"{spine}.cfg"
        old = f"ip route-static 172.16.{n}.0 24 192.0.2.{h}"
        text = cfg.read_text()
        assert old in text
        cfg.write_text(text.replace(old, two.format(n=n, h=h)))
    result = cli("deadlock", str(folder), "--fail-links", "leaf-1:spine-1,leaf-2:spine-2")
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("permit", ["100 to 101", "all"])
def test_flooding_over_trunks_closes_the_stretched_vlan_cycles(tmp_path: Path, permit: str) -> None:
    """stretched-vlan with every access port made a trunk carrying VLAN 100 tagged (H3C
    'port link-type trunk' + 'port trunk permit vlan'): the same two flooding cycles. 'all'
    carries every VLAN the switch has (here only 100); it used to carry nothing."""
    folder = tmp_path / "fabric"
    shutil.copytree(HERE / "stretched-vlan", folder)
    for cfg in folder.glob("*.cfg"):
        text = cfg.read_text()
        assert " port access vlan 100\n" in text
        trunk = f" port link-type trunk\n port trunk permit vlan {permit}\n"
        cfg.write_text(text.replace(" port access vlan 100\n", trunk))
    result = cli("deadlock", str(folder), "--format", "json")
    assert result.exit_code == 1, result.output
    chains = [f["message"] for f in json.loads(result.stdout)["findings"]]
    assert len(chains) == 2
    assert "flooding in VLAN 100 " in result.stdout
    assert "VLAN 1 " not in result.stdout  # the PVID is not carried: the permit list says so


def test_trunks_without_a_shared_vlan_do_not_flood_into_each_other(tmp_path: Path) -> None:
    """stretched-vlan with each switch's first port a trunk for VLAN 100 and its second for
    VLAN 200: no VLAN joins two ports of one switch, so nothing floods and there is no cycle.
    (Read as plain switched ports, all in the default VLAN 1, they gave two false cycles.)"""
    folder = tmp_path / "fabric"
    shutil.copytree(HERE / "stretched-vlan", folder)
    for cfg in folder.glob("*.cfg"):
        text = cfg.read_text()
        assert text.count(" port access vlan 100\n") == 2
        for vlan in (100, 200):
            trunk = f" port link-type trunk\n port trunk permit vlan {vlan}\n"
            text = text.replace(" port access vlan 100\n", trunk, 1)
        cfg.write_text(text)
    result = cli("deadlock", str(folder))
    assert result.exit_code == 0, result.output
    assert "no deadlock cycle" in result.stdout


def test_an_intent_under_another_suffix_is_read_as_an_intent(tmp_path: Path) -> None:
    """generate takes an intent whatever its name; deadlock once read 'valley.intent' as a
    switch config and said it could not tell the vendor."""
    src = tmp_path / "valley.intent"
    shutil.copyfile(ROOT / "examples/deadlock/valley.yaml", src)
    result = cli("deadlock", str(src), "--fail-links", "leaf-1:spine-1,leaf-2:spine-2")
    assert result.exit_code == 1, result.output
    assert "2 cycles" in result.stdout
    # A config named without .cfg is still a config.
    cfg = tmp_path / "leaf-1.txt"
    shutil.copyfile(ROOT / "golden/pod-small-h3c/leaf-1.cfg", cfg)
    alone = cli("deadlock", str(cfg))
    # read as a config: one switch alone, its uplinks and peers facing configs not read
    assert alone.exit_code == 1 and "coverage: 1 switch read" in alone.stdout, alone.output
