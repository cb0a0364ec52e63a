"""The sizing advisor against the designer: what it calls feasible builds with the counts it
promised; what it calls infeasible the designer refuses for the same port budget."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from roce_cfg.advise import Demand, intent_for, plan, single_switch, three_tier, two_tier
from roce_cfg.design.topology import build
from roce_cfg.errors import PlanError
from roce_cfg.intent.models import Intent
from roce_cfg.platforms.profile import load_profiles
from roce_cfg.vendor import Vendor
from tests.helpers import examples, run

PROFILES = load_profiles()
CHOICES = [(v, p, n, m) for v, p in PROFILES.items() for n, m in sorted(p.models.items())]

demands = st.builds(
    Demand,
    servers=st.integers(1, 300),
    nics=st.integers(1, 8),
    nic_speed=st.sampled_from([25, 100, 200, 400]),
    oversubscription=st.sampled_from([1.0, 1.5, 2.0, 3.0]),
)


def _counts(plan_switches: dict[str, dict[str, int]]) -> Counter[tuple[str, str]]:
    return Counter({(t, m): n for t, ms in plan_switches.items() for m, n in ms.items() if n})


def _check(d: Demand, p) -> None:  # type: ignore[no-untyped-def]
    intent = Intent.model_validate(intent_for(d, p))
    topo = build(intent, PROFILES)
    got: Counter[tuple[str, str]] = Counter(
        (s.plan.role, f"{s.plan.vendor.value} {s.plan.model}") for s in topo.switches
    )
    assert got == _counts(p.switches)
    assert len(topo.links) == p.links
    assert len(topo.nics) == d.servers * d.nics
    assert sum(p.cables.values()) == len(topo.links) + len(topo.nics)


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(d=demands, leaf=st.sampled_from(CHOICES), spine=st.sampled_from(CHOICES))
def test_two_tier_plans_match_the_designer(d: Demand, leaf, spine) -> None:  # type: ignore[no-untyped-def]
    p = two_tier(d, leaf, spine)
    if p.feasible:
        _check(d, p)
        return
    # Infeasible: the leaf (or spine) port budget named in the reason is what the designer
    # refuses for the smallest layout, one leaf per rail and every uplink on one spine.
    assert re.match(r"(leaf|spine) ports run out: ", p.reason)


@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(d=demands, leaf=st.sampled_from(CHOICES), spine=st.sampled_from(CHOICES))
def test_three_tier_plans_match_the_designer(d: Demand, leaf, spine) -> None:  # type: ignore[no-untyped-def]
    p = three_tier(d, leaf, spine)
    if not p.feasible:
        assert re.match(r"((leaf|spine|super-spine) ports run out: |the servers do not split)",
                        p.reason)  # fmt: skip
        return
    fab = p.fabric
    assert fab["pods"] >= 2 and d.servers % fab["pods"] == 0
    assert fab["super_spine_planes"] and fab["super_spines"] % fab["spines"] == 0
    assert p.oversubscription["spine"] == 1.0
    _check(d, p)


@settings(max_examples=examples(40), deadline=None)
@given(d=demands, choice=st.sampled_from(CHOICES))
def test_single_switch_plans_match_the_designer(d: Demand, choice) -> None:  # type: ignore[no-untyped-def]
    p = single_switch(d, *choice)
    if p.feasible:
        _check(d, p)
        return
    v, _, name, _ = choice
    intent = Intent.model_validate(
        {
            "name": "refused",
            "addressing": {
                "loopbacks": "10.0.0.0/24",
                "rail_subnets": "10.128.0.0/9",
                "rail_vlan_base": 101,
            },
            "servers": {"count": d.servers, "nics": d.nics, "nic_speed": f"{d.nic_speed}G"},
            "fabric": {
                "topology": "single-switch",
                "rails": d.nics,
                "switch": {"vendor": v.value, "model": name},
                "links": {"server_leaf": {"speed": f"{d.nic_speed}G", "cable_m": 3}},
            },
        }
    )
    with pytest.raises(PlanError) as exc:
        build(intent, PROFILES)
    assert exc.value.reason.startswith(p.reason.removeprefix("switch ports run out: "))


def test_four_servers_on_one_huawei_box_names_the_fitting_model() -> None:
    plans = plan(Demand(4, 8, 400), PROFILES, leaf=["huawei"])
    single = [p for p in plans if p.kind == "single-switch" and p.feasible]
    # the 4-slot chassis in both builds (the -A build has the same subcard layout)
    assert [list(p.switches["switch"]) for p in single] == [
        ["huawei CE9860-4C-EI"],
        ["huawei CE9860-4C-EI-A"],
    ]
    refused = [p for p in plans if p.kind == "single-switch" and not p.feasible]
    assert any("CE8851-32CQ8DQ-P" in p.reason for p in refused)


def test_plan_write_generates_and_lints_clean(tmp_path) -> None:  # type: ignore[no-untyped-def]
    intent = tmp_path / "intent.yaml"
    r = run("plan", "--servers", "64", "--leaf", "h3c", "--spine", "h3c", "--write", str(intent),
            "--format", "json")  # fmt: skip
    assert r.exit_code == 0, r.output
    best = json.loads(r.stdout)["plans"][0]
    assert best["feasible"] and best["kind"] == "two-tier"
    r = run("generate", str(intent), "-o", str(tmp_path / "out"))
    assert r.exit_code == 0, r.output
    r = run("lint", str(tmp_path / "out"), "--intent", str(intent))
    assert r.exit_code == 0, r.output
    _clean_but_cell_sizes(r.output)


def test_models_lists_every_profile_model() -> None:
    r = run("models", "--format", "json")
    rows = json.loads(r.stdout)["models"]
    want = {(v.value, n) for v, p in PROFILES.items() for n in p.models}
    assert {(x["vendor"], x["model"]) for x in rows} == want
    assert all(x["source"] for x in rows)
    assert run("models", "--vendor", "nokia").exit_code == 2


def test_plan_rejects_bad_demand() -> None:
    r = run("plan", "--gpus", "8", "--servers", "1")
    assert r.exit_code == 2
    assert "Traceback" not in r.output
    assert Vendor.H3C.value  # profiles loaded


def test_generate_refusal_names_the_models_that_fit(tmp_path) -> None:  # type: ignore[no-untyped-def]
    intent = tmp_path / "i.yaml"
    intent.write_text(
        "name: t\nservers: {count: 4, nics: 8, nic_speed: 400G}\n"
        "fabric:\n  topology: single-switch\n  rails: 8\n"
        "  switch: {vendor: huawei, model: CE8851-32CQ8DQ-P}\n"
        "  links: {server_leaf: {speed: 400G, cable_m: 3}}\n"
        "addressing: {loopbacks: 10.0.0.0/24, rail_subnets: 10.128.0.0/16, rail_vlan_base: 101}\n"
    )
    r = run("generate", str(intent), "-o", str(tmp_path / "out"))
    assert r.exit_code == 2
    assert "huawei models that fit: CE9860-4C-EI" in r.output


def test_three_tier_refuses_servers_that_do_not_split_over_the_pods(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import yaml

    from tests.helpers import SCENARIOS

    raw = yaml.safe_load(SCENARIOS["three-tier-planes"].read_text())
    raw["servers"]["count"] = 9  # 2 pods: one server would have no leaf
    # The designer itself (an Intent made in code skips load_intent's checks) ...
    with pytest.raises(PlanError) as exc:
        build(Intent.model_validate(raw), PROFILES)
    assert exc.value.loc == ("servers", "count") and "split evenly over 2 pods" in exc.value.reason
    # ... and the command: one line naming the file and field, exit 2.
    bad = tmp_path / "odd.yaml"
    bad.write_text(yaml.safe_dump(raw))
    result = run("generate", str(bad), "-o", str(tmp_path / "out"))
    assert result.exit_code == 2
    assert result.output.strip().count("\n") == 0
    assert "servers.count: must split evenly over 2 pods" in result.output


def test_32768_gpus_get_a_three_tier_plan_where_two_tiers_run_out() -> None:
    plans = plan(Demand(4096, 8, 400), PROFILES, leaf=["ruijie"], spine=["ruijie"])
    best = plans[0]
    assert best.feasible and best.kind == "three-tier"
    assert not any(p.feasible for p in plans if p.kind == "two-tier")
    fab = best.fabric
    leaves = fab["pods"] * 8 * fab["leaves_per_rail"]
    assert sum(best.switches["leaf"].values()) == leaves
    assert sum(best.switches["spine"].values()) == fab["pods"] * fab["spines"]
    assert sum(best.switches["superspine"].values()) == fab["super_spines"]
    # 1:1 all the way up: as many spine-to-super-spine links as leaf-to-spine links.
    assert best.links == 2 * leaves * fab["spines"] * fab["uplinks_per_spine"]
    Intent.model_validate(intent_for(Demand(4096, 8, 400), best))


def test_three_tier_plan_writes_an_intent_that_generates_and_lints_clean(tmp_path) -> None:  # type: ignore[no-untyped-def]
    intent = tmp_path / "intent.yaml"
    r = run("plan", "--servers", "128", "--leaf", "huawei", "--spine", "huawei", "--write",
            str(intent), "--format", "json")  # fmt: skip
    assert r.exit_code == 0, r.output
    best = json.loads(r.stdout)["plans"][0]
    assert best["feasible"] and best["kind"] == "three-tier"
    r = run("generate", str(intent), "-o", str(tmp_path / "out"))
    assert r.exit_code == 0, r.output
    fabric = json.loads((tmp_path / "out/fabric.json").read_text())
    roles = Counter(s["role"] for s in fabric["switches"])
    assert {r: sum(best["switches"][r].values()) for r in roles} == dict(roles)
    assert len(fabric["links"]) == best["links"]
    r = run("lint", str(tmp_path / "out"), "--intent", str(intent))
    assert r.exit_code == 0, r.output
    _clean_but_cell_sizes(r.output)


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--gpus", "64", "--nics", "0"], "--nics: must be 1-16 (got 0)"),  # was ZeroDivisionError
        (["--servers", "4", "--nics", "-8"], "--nics: must be 1-16"),  # was -32 leaves, exit 0
        (["--gpus", "64", "--in-rack-m", "nan"], "--in-rack-m: must be more than 0"),
        (["--gpus", "64", "--between-rows-m", "-1"], "--between-rows-m: must be more than 0"),
        (["--gpus", "64", "--oversubscription", "inf"], "--oversubscription: must be 1-64"),
        (["--gpus", "64", "--nic-speed", "0"], "--nic-speed: must be 1-1,600"),
    ],
)
def test_plan_refuses_figures_no_fabric_has(args: list[str], says: str) -> None:
    """Each of these once gave a traceback, or plans (and --write intents) with negative
    switch counts or 'nan m' cables that generate then refused."""
    result = run("plan", *args)
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"roce-cfg: error: {says}"), lines


@pytest.mark.parametrize("price", [".nan", ".inf", "true", "-5", "1e13"])
def test_a_price_table_holds_prices(tmp_path: Path, price: str) -> None:
    table = tmp_path / "prices.yaml"
    table.write_text(f"S9855-32D: {price}\n")
    result = run("plan", "--gpus", "64", "--prices", str(table))
    assert result.exit_code == 2, result.output
    assert "must map item names to prices" in result.stderr


def test_plan_says_what_the_h3c_ecmp_cap_means() -> None:
    """[H3C-S12500-CG] max-ecmp-num caps 'balance' device-wide and takes effect after a reboot;
    no source gives the S98xx default, and plan says so. Huawei has no such cap in its data."""
    result = run("plan", "--gpus", "1024", "--leaf", "h3c:S9825-64D", "--spine", "h3c:S9825-64D")
    assert result.exit_code == 0, result.output
    assert re.search(
        r"ECMP: leaf h3c S9825-64D: (\d+) equal-cost paths need 'max-ecmp-num \1' or more "
        r"\(effective after a reboot\); its default is in no source read",
        result.stdout,
    ), result.stdout
    huawei = run("plan", "--gpus", "1024", "--leaf", "huawei", "--spine", "huawei")
    assert huawei.exit_code == 0 and "ECMP:" not in huawei.stdout
    profiles = load_profiles()
    d = Demand(servers=128, nics=8, nic_speed=400)
    best = plan(d, profiles, leaf=["h3c:S9825-64D"], spine=["h3c:S9825-64D"])[0]
    assert best.feasible and best.notes


def _clean_but_cell_sizes(output: str) -> None:
    """0 errors, and the only warnings say the headroom rests on a figure no source gives for
    the model (RC204: Comware's cell size, a CloudEngine model's own headroom default)."""
    assert "0 errors," in output
    warned = [ln.split()[1] for ln in output.splitlines() if ln.lstrip().startswith("warning")]
    assert set(warned) <= {"RC204"}, warned
