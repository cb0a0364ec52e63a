"""A plan you can trust: sourced plans rank above unsourced ones whatever they cost, every
feasible plan says why it ranks where it does (text and JSON), and ``--write`` writes the best
sourced plan (``--pick N`` for any other), so generate of what it wrote warns of nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from roce_cfg.advise import Demand, plan
from roce_cfg.advise.order import idle_ports, switch_count
from roce_cfg.platforms.profile import load_profiles
from tests.helpers import run

PROFILES = load_profiles()


def _table(stdout: str) -> list[dict[str, str]]:
    """The plan table read from a pipe: one dict per row, keyed by the column names."""
    rows = [line.split("\t") for line in stdout.splitlines() if "\t" in line]
    return [dict(zip(rows[0], r, strict=True)) for r in rows[1:]]


@pytest.mark.parametrize(
    ("gpus", "first", "why", "unsourced_saves"),
    [
        # One Ruijie 128 x 400G box would do; its lossless commands have no source.
        (128, "h3c S9855-32D", "sourced syntax; fewest switches (10);", "9 fewer switches"),
        # Ruijie/ZTE two tiers of 96 boxes against H3C's 320 in three tiers.
        (4096, "h3c S9825-64D", "sourced syntax; fewest switches (320)", "224 fewer switches"),
    ],
)
def test_a_sourced_plan_ranks_first_and_says_why(
    gpus: int, first: str, why: str, unsourced_saves: str
) -> None:
    res = run("plan", "--gpus", str(gpus))
    assert res.exit_code == 0, res.output
    rows = _table(res.stdout)
    assert rows[0]["syntax"] == "sourced" and first in rows[0]["switches"]
    assert rows[0]["why this rank"].startswith(why)
    assert f"why plan 1: {rows[0]['why this rank']}" in res.stdout
    # Every sourced plan before every unsourced one; the unsourced say what they would save.
    trust = [r["syntax"] == "sourced" for r in rows]
    assert trust == sorted(trust, reverse=True) and not all(trust)
    unsourced = [r for r in rows if r["syntax"].startswith("UNSOURCED ")]
    assert all(r["why this rank"].startswith("unsourced syntax (") for r in unsourced)
    assert any(unsourced_saves + " than plan 1" in r["why this rank"] for r in unsourced)
    assert "rank after every sourced one" in res.stdout
    # Each sourced plan below the first names what puts it there.
    for r in rows[1 : trust.count(True)]:
        assert r["why this rank"].endswith("than plan 1"), r
    # The same reasons in the JSON document, plan by plan.
    doc = json.loads(run("plan", "--gpus", str(gpus), "--format", "json").stdout)
    feasible = [p for p in doc["plans"] if p["feasible"]]
    assert [p["why"] for p in feasible] == [r["why this rank"] for r in rows]
    assert not feasible[0]["unsourced"]


def test_write_takes_the_best_sourced_plan_and_generate_warns_of_nothing(tmp_path: Path) -> None:
    intent = tmp_path / "planned.yaml"
    res = run("plan", "--gpus", "128", "--write", str(intent), "--format", "json")
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    assert doc["wrote"] == {"plan": 1, "path": str(intent), "sourced": True}
    assert "wrote plan 1 (two-tier: leaf: 8 x h3c S9855-32D; spine: 2 x h3c" in res.stderr
    assert "no public source" not in res.stderr
    gen = run("generate", str(intent), "-o", str(tmp_path / "out"))
    assert gen.exit_code == 0, gen.output
    assert "unverified syntax" not in gen.stderr and "warning" not in gen.stderr


def test_only_unsourced_plans_fit_writes_nothing_unless_picked(tmp_path: Path) -> None:
    intent = tmp_path / "planned.yaml"
    ruijie = ["plan", "--gpus", "128", "--leaf", "ruijie", "--spine", "ruijie"]
    listed = run(*ruijie)
    assert listed.exit_code == 0, listed.output  # listing is no failure
    rows = _table(listed.stdout)
    assert rows[0]["why this rank"].startswith("unsourced syntax, no sourced plan fits; ")
    assert "syntax: no sourced plan fits; plan 1's lossless commands" in listed.stdout
    # Asked to write, and nothing sourced fits: one line that says so and how, exit 1.
    res = run(*ruijie, "--write", str(intent), "--quiet")
    assert res.exit_code == 1 and res.stdout == ""
    assert res.stderr.strip() == (
        "roce-cfg: plan: no sourced plan fits: plan 1's lossless commands have no public source "
        "(ruijie: qos_maps, scheduling, pfc, watchdog, ecn); nothing written "
        "(--pick 1 writes it anyway, and generate warns)"
    )
    assert not intent.exists()
    # --pick 1 writes it, and both plan and generate say its syntax has no source.
    res = run(*ruijie, "--write", str(intent), "--pick", "1", "--format", "json")
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["wrote"] == {"plan": 1, "path": str(intent), "sourced": False}
    assert "single-switch: switch: 1 x ruijie generic-128x400G" in res.stderr
    assert "its lossless commands have no public source (ruijie: " in res.stderr
    gen = run("generate", str(intent), "-o", str(tmp_path / "out"), "--quiet")
    assert gen.exit_code == 0, gen.output
    assert "ruijie pfc: unverified syntax" in gen.stderr


def test_pick_writes_the_plan_asked_for(tmp_path: Path) -> None:
    intent = tmp_path / "planned.yaml"
    doc = json.loads(run("plan", "--gpus", "128", "--format", "json").stdout)
    n = next(i for i, p in enumerate(doc["plans"], 1) if p["unsourced"])
    res = run("plan", "--gpus", "128", "--write", str(intent), "--pick", str(n), "-q")
    assert res.exit_code == 0, res.output
    assert res.stderr.startswith(f"wrote plan {n} (") and "no public source" in res.stderr
    assert "ruijie" in intent.read_text() or "zte" in intent.read_text()


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--pick", "1"], "--pick: picks the plan --write writes: give --write too"),
        (["--pick", "0", "--write", "{w}"], "--pick: there are 36 plans (1-36)"),
        (["--pick", "37", "--write", "{w}"], "--pick: there are 36 plans (1-36)"),
        (["--pick", "36", "--write", "{w}", "--format", "json"], "--pick: plan 36 is infeasible"),
    ],
)
def test_a_bad_pick_is_one_line_and_writes_nothing(
    tmp_path: Path, args: list[str], says: str
) -> None:
    intent = tmp_path / "planned.yaml"
    res = run("plan", "--gpus", "128", *[a.format(w=intent) for a in args])
    assert res.exit_code == 2, res.output
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"roce-cfg: error: {says}"), lines
    assert res.stdout == "" and not intent.exists()


def test_prices_rank_within_the_sourced_plans(tmp_path: Path) -> None:
    """With prices, the cheapest sourced plan is first and says so; a cheaper unsourced plan
    ranks after it and says how much it would save; a plan the table does not price says so."""
    table = tmp_path / "prices.yaml"
    table.write_text(
        '"h3c S9855-32D": 20000\n"h3c S9825-64D": 50000\n"ruijie generic-128x400G": 60000\n'
        '"400G x 3m": 50\n"400G x 30m": 100\n"400G x 100m": 300\noptic-400G: 800\n'
    )
    rows = _table(run("plan", "--gpus", "128", "--prices", str(table)).stdout)
    assert rows[0]["why this rank"] == "sourced syntax; cheapest (700,800)"
    assert rows[0]["switches"] == "leaf: 8 x h3c S9855-32D; spine: 4 x h3c S9855-32D"
    assert rows[1]["why this rank"] == "costs 240,000 more than plan 1"
    assert rows[2]["why this rank"] == "--prices does not price all of it"
    ruijie = next(r for r in rows if r["switches"] == "switch: 1 x ruijie generic-128x400G")
    assert ruijie["why this rank"] == (
        "unsourced syntax (ruijie); 429,600 cheaper than plan 1; 11 fewer switches than plan 1"
    )


@settings(max_examples=15, deadline=None)
@given(
    servers=st.integers(1, 96),
    nics=st.sampled_from([1, 2, 8]),
    speed=st.sampled_from([100, 200, 400]),
)
def test_the_ranking_is_the_order_its_reasons_give(servers: int, nics: int, speed: int) -> None:
    """For any demand: feasible before infeasible, sourced before unsourced, then fewest
    switches, no unsourced breakout, spine loss, idle ports; plan 1's reason ends on what beat
    plan 2, and every other feasible plan's reason names a measure it loses on."""
    plans = plan(Demand(servers, nics, speed), PROFILES)
    feasible = [p for p in plans if p.feasible]
    assert plans[: len(feasible)] == feasible
    keys = [
        (
            bool(p.unsourced),
            switch_count(p),
            bool(p.also_unsourced),
            p.spine_loss_percent,
            idle_ports(p),
        )
        for p in feasible
    ]
    assert keys == sorted(keys)
    assert all(p.why == "" for p in plans[len(feasible) :])
    if not feasible:
        return
    top = feasible[0]
    assert top.why.startswith("sourced syntax" if not top.unsourced else "unsourced syntax, no")
    for p, key in zip(feasible[1:], keys[1:], strict=True):
        if key[0] != keys[0][0]:
            assert p.why.startswith("unsourced syntax (")
        elif key[1] != keys[0][1]:
            assert (
                p.why
                == f"{key[1] - keys[0][1]} more switch"
                + "es" * (key[1] - keys[0][1] != 1)
                + " than plan 1"
            )
        elif key[2] != keys[0][2]:
            assert p.why.endswith(": breakout (plan 1 has none)")
        else:
            assert p.why.endswith("than plan 1") or "(plan 1:" in p.why or "ties" in p.why


def test_an_unsourced_breakout_is_said_and_ranks_within_a_size(tmp_path: Path) -> None:
    """100G NICs on H3C: one switch must break its 400G cages out, and H3C's breakout command
    has no source. It stays plan 1 (eight more switches to avoid one port-split command is no
    trade), but the syntax column, the reason and the --write line say generate will warn."""
    h3c = ["plan", "--gpus", "128", "--nic-speed", "100G", "--leaf", "h3c", "--spine", "h3c"]
    rows = _table(run(*h3c).stdout)
    assert rows[0]["switches"] == "switch: 1 x h3c S9855-32D"
    assert rows[0]["syntax"] == "sourced except h3c: breakout"
    assert rows[0]["why this rank"].startswith("sourced syntax; fewest switches (1); unsourced h3c")
    # With every vendor, a Huawei chassis that needs no breakout wins the tie on size.
    rows = _table(run(*h3c[:5]).stdout)
    assert rows[0]["syntax"] == "sourced" and "huawei" in rows[0]["switches"]
    broken = next(r for r in rows if r["syntax"] == "sourced except h3c: breakout")
    assert broken["why this rank"] == "unsourced h3c: breakout (plan 1 has none)"
    intent = tmp_path / "planned.yaml"
    res = run(*h3c, "--write", str(intent), "-q")
    assert res.exit_code == 0, res.output
    assert res.stderr.rstrip().endswith("generate warns: no public source for h3c: breakout")
    gen = run("generate", str(intent), "-o", str(tmp_path / "out"), "--quiet")
    assert gen.exit_code == 0, gen.output
    warned = [line for line in gen.stderr.splitlines() if "unverified syntax" in line]
    assert len(warned) == 1 and warned[0].startswith("roce-cfg: warning: h3c breakout: ")


@settings(max_examples=8, deadline=None)
@example(servers=16, speed=100, nth=2)  # plan 3: one H3C box, cages broken out
@example(servers=16, speed=100, nth=0)  # plan 1: a Huawei chassis, nothing unsourced
@given(
    servers=st.integers(1, 24),
    speed=st.sampled_from([25, 100, 200, 400]),
    nth=st.integers(0, 40),
)
def test_what_a_plan_says_is_unsourced_is_what_generate_warns_about(
    tmp_path_factory: pytest.TempPathFactory, servers: int, speed: int, nth: int
) -> None:
    """Any feasible plan, written with --pick and generated: a plan the table calls 'sourced'
    generates with no unverified-syntax warning; the sections it lists (lossless and breakout)
    are among generate's warnings, and for a sourced plan they are all of them."""
    demand = ["plan", "--servers", str(servers), "--nic-speed", str(speed)]
    plans = json.loads(run(*demand, "--format", "json").stdout)["plans"]
    feasible = [i for i, p in enumerate(plans, 1) if p["feasible"]]
    if not feasible:
        return
    n = feasible[nth % len(feasible)]
    said = plans[n - 1]
    work = tmp_path_factory.mktemp("pick")
    assert run(*demand, "--write", str(work / "i.yaml"), "--pick", str(n), "-q").exit_code == 0
    gen = run("generate", str(work / "i.yaml"), "-o", str(work / "out"), "--format", "json")
    assert gen.exit_code == 0, gen.output
    warned = {(w["vendor"], w["section"]) for w in json.loads(gen.stdout)["warnings"]}
    listed = {
        (vendor, section)
        for entry in said["unsourced"] + said["also_unsourced"]
        for vendor, sections in [entry.split(": ")]
        for section in sections.split(", ")
    }
    assert listed <= warned, (said["switches"], listed, warned)
    if not said["unsourced"]:
        assert warned == listed, (said["switches"], listed, warned)
