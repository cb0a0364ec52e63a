"""Defaults that every model takes (issue 32 item 1): the watchdog restore time comes from the
chosen model's grammar range and step, a value the model cannot take is refused at the intent's
own line, and plan --write -> generate -> lint holds for every vendor x model in the profiles."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from roce_cfg.grammar import load_grammar
from roce_cfg.platforms.profile import load_profiles
from roce_cfg.platforms.timers import default_restore, watchdog_problem
from tests.helpers import examples, run

PROFILES = load_profiles()
MODELS = [(v.value, name) for v, p in PROFILES.items() for name in sorted(p.models)]
EXAMPLES_PER_MODEL = 4
NIC_SPEEDS = {25, 100, 200, 400}


def _speeds(vendor: str, model: str) -> list[int]:
    """NIC speeds the model's ports can serve (native, run at, or broken out to)."""
    spec = next(p for v, p in PROFILES.items() if v.value == vendor).models[model]
    have = {s for g in spec.ports for s in (g.speed, *g.runs_at, *g.breakout)}
    return sorted(have & NIC_SPEEDS)


def _default(vendor: str, model: str, detect_ms: int = 200) -> int:
    spec = PROFILES[next(v for v in PROFILES if v.value == vendor)].watchdog_timer
    return default_restore(spec, load_grammar(vendor), model, detect_ms)


def test_ce8851_restore_default_is_within_its_range() -> None:
    # [HW-CR] dcb pfc deadlock-recovery timer: 10-1500 ms on CE8851-32CQ8DQ-P
    assert _default("huawei", "CE8851-32CQ8DQ-P") == 1500


def test_step_models_keep_the_preferred_restore() -> None:
    # CE6885 counts in 100 ms steps up to 31: 2000 ms is 20 steps
    assert _default("huawei", "CE6885-48YS8CQ") == 2000
    assert _default("h3c", "S9855-32D") == 2000


def test_every_model_takes_its_default() -> None:
    for vendor, model in MODELS:
        v = next(x for x in PROFILES if x.value == vendor)
        restore = _default(vendor, model)
        grammar = load_grammar(vendor)
        assert watchdog_problem(PROFILES[v].watchdog_timer, grammar, model, 200, restore) is None


def _single(tmp_path: Path, watchdog: str) -> Path:
    intent = tmp_path / "hw.yaml"
    intent.write_text(
        "name: t\n"
        "servers: {count: 2, nics: 8, nic_speed: 100G}\n"
        "fabric:\n"
        "  topology: single-switch\n"
        "  rails: 8\n"
        "  switch: {vendor: huawei, model: CE8851-32CQ8DQ-P}\n"
        "  links: {server_leaf: {speed: 100G, cable_m: 3}}\n"
        "addressing: {loopbacks: 10.0.0.0/24, rail_subnets: 10.128.0.0/21, rail_vlan_base: 101}\n"
        "lossless:\n"
        "  pfc:\n"
        f"{watchdog}",
        "utf-8",
    )
    return intent


def test_out_of_range_restore_is_refused_at_the_intents_line(tmp_path: Path) -> None:
    intent = _single(tmp_path, "    watchdog:\n      detect_ms: 200\n      restore_ms: 2000\n")
    res = run("generate", str(intent), "-o", str(tmp_path / "out"))
    assert res.exit_code == 2
    assert f"{intent}:13 lossless.pfc.watchdog.restore_ms" in res.output
    assert "CE8851-32CQ8DQ-P takes 10-1500 ms" in res.output
    assert not (tmp_path / "out").exists()


def test_default_restore_generates_for_ce8851(tmp_path: Path) -> None:
    intent = _single(tmp_path, "    no_drop: [3]\n")
    res = run("generate", str(intent), "-o", str(tmp_path / "out"))
    assert res.exit_code == 0, res.output
    text = (tmp_path / "out" / "switch-1.cfg").read_text("utf-8")
    assert "dcb pfc deadlock-recovery timer 1500" in text


SEEN: list[tuple[str, str]] = []


@pytest.mark.parametrize(("vendor", "model"), MODELS, ids=[f"{v}:{m}" for v, m in MODELS])
@settings(
    max_examples=examples(EXAMPLES_PER_MODEL),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_plan_write_generate_lint_for_every_model(
    tmp_path: Path, vendor: str, model: str, data: st.DataObject
) -> None:
    choice = f"{vendor}:{model}"
    gpus = data.draw(st.integers(1, 24), label="servers") * 8
    speed = data.draw(st.sampled_from(_speeds(vendor, model)), label="nic speed")
    work = tmp_path / f"{gpus}-{speed}"
    work.mkdir()
    intent = work / "plan.yaml"
    # --pick 1: the best plan, sourced or not (--write alone takes only a sourced one)
    res = run("plan", "--gpus", str(gpus), "--nic-speed", str(speed), "--leaf", choice,
              "--spine", choice, "--write", str(intent), "--pick", "1",
              "--format", "json")  # fmt: skip
    plans = json.loads(res.stdout)["plans"] if res.exit_code == 0 else []
    if not any(p["feasible"] for p in plans):
        assert not intent.exists()  # nothing feasible: nothing written, and nothing to check
        return
    assert res.exit_code == 0, res.output
    out = work / "out"
    res = run("generate", str(intent), "-o", str(out))
    assert res.exit_code == 0, res.output
    res = run("lint", str(out), "--intent", str(intent), "--format", "json")
    assert res.exit_code == 0, res.output
    SEEN.append((choice, f"{gpus}x{speed}"))
