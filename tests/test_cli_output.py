"""Output that fits its medium (issue 32 items 3, 4, 7): in a pipe, tables are plain rows, one
per line, tab-separated, no word broken; plan lists feasible plans (--all for the rest), says
which plan --write wrote and where, marks and ranks unsourced plans; --nic-speed takes the
intent's forms."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import run


def _rows(stdout: str) -> list[list[str]]:
    return [line.split("\t") for line in stdout.splitlines() if "\t" in line]


def test_plan_in_a_pipe_is_one_row_per_plan_feasible_first() -> None:
    res = run("plan", "--gpus", "512")
    assert res.exit_code == 0, res.output
    assert "│" not in res.stdout and "┃" not in res.stdout
    rows = _rows(res.stdout)
    header, body = rows[0], rows[1:]
    assert header[:2] == ["#", "plan"] and header[-2:] == ["syntax", "why this rank"]
    assert all(len(r) == len(header) for r in body)
    assert [r[0] for r in body] == [str(i) for i in range(1, len(body) + 1)]
    assert not any("infeasible" in r[1] for r in body)
    assert "infeasible plans not shown (--all lists them)" in res.stdout
    every = _rows(run("plan", "--gpus", "512", "--all").stdout)[1:]
    assert len(every) > len(body)
    assert any(r[1].endswith("(infeasible)") for r in every)


def test_plan_ranks_sourced_before_unsourced() -> None:
    # 512 x 400G: Ruijie's 12 generic boxes against H3C's 24; Ruijie's lossless syntax has no
    # source (vendors/ruijie.yaml), so H3C ranks first (at any count) and Ruijie's rows say why.
    body = _rows(run("plan", "--gpus", "512").stdout)[1:]
    assert body[0][-2] == "sourced" and "h3c" in body[0][2]
    ruijie = [r for r in body if "ruijie" in r[2]]
    assert ruijie and all(r[-2].startswith("UNSOURCED ruijie: ") for r in ruijie)
    plans = json.loads(run("plan", "--gpus", "512", "--format", "json").stdout)["plans"]
    assert any(p["unsourced"] for p in plans) and not plans[0]["unsourced"]


def test_plan_says_which_plan_it_wrote_and_where(tmp_path: Path) -> None:
    target = tmp_path / "intent.yaml"
    res = run("plan", "--gpus", "64", "--write", str(target), "--quiet")
    assert res.exit_code == 0, res.output
    assert res.stderr.startswith("wrote plan 1 (")
    assert res.stderr.rstrip().endswith(f"to {target}")
    assert res.stdout == ""  # --quiet: nothing on stdout, the one line on stderr
    as_json = run("plan", "--gpus", "64", "--write", str(target), "--format", "json")
    assert "wrote plan 1" in as_json.stderr
    doc = json.loads(as_json.stdout)  # stdout stays one JSON document
    assert doc["wrote"] == {"plan": 1, "path": str(target), "sourced": True}


@pytest.mark.parametrize("speed", ["400G", "400g", "400Gb", "400"])
def test_nic_speed_takes_the_intents_forms(speed: str) -> None:
    res = run("plan", "--gpus", "64", "--nic-speed", speed, "--format", "json")
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["plans"][0]["feasible"]


def test_a_bad_nic_speed_is_one_line() -> None:
    res = run("plan", "--gpus", "64", "--nic-speed", "4x")
    assert res.exit_code == 2
    assert res.stderr.strip() == (
        "roce-cfg: error: --nic-speed: '4x' is not a link speed such as 100G or 400G"
    )


def test_models_and_rules_in_a_pipe_break_no_name() -> None:
    models = _rows(run("models").stdout)
    assert models[0] == ["vendor", "model", "ports", "buffer", "no-drop", "source"]
    assert any(r[1] == "CE8851-32CQ8DQ-P (default)" for r in models[1:])
    rules = _rows(run("rules").stdout)
    assert any(r[:2] == ["RC001", "config-unreadable"] for r in rules)


def _intent(tmp_path: Path, old: str, new: str) -> Path:
    from tests.helpers import ROOT

    text = (ROOT / "examples/pod-small.yaml").read_text("utf-8")
    assert old in text
    path = tmp_path / "intent.yaml"
    path.write_text(text.replace(old, new, 1), "utf-8")
    return path


def test_vendor_names_in_any_case_and_a_near_miss_gets_a_did_you_mean(tmp_path: Path) -> None:
    upper = _intent(tmp_path, "{vendor: h3c,", "{vendor: H3C,")
    assert run("generate", str(upper), "-o", str(tmp_path / "out")).exit_code == 0
    typo = _intent(tmp_path, "{vendor: h3c,", "{vendor: hc3,")
    res = run("generate", str(typo), "-o", str(tmp_path / "out2"))
    assert res.exit_code == 2
    assert "fabric.leaf.vendor: unknown vendor 'hc3'" in res.stderr
    assert "did you mean 'h3c'?" in res.stderr
    plan = run("plan", "--gpus", "64", "--leaf", "hwawei")
    assert plan.exit_code == 2 and "did you mean 'huawei'?" in plan.stderr
    assert run("plan", "--gpus", "64", "--leaf", "H3C", "--format", "json").exit_code == 0


def test_a_key_typo_says_did_you_mean_first(tmp_path: Path) -> None:
    typo = _intent(tmp_path, "  rails: 8", "  rials: 8")
    res = run("generate", str(typo), "-o", str(tmp_path / "out"))
    assert res.exit_code == 2
    first = res.stderr.splitlines()[0]
    assert "unknown key 'rials'; did you mean 'rails'?" in first


def test_drift_on_a_vlan_interface_carries_its_line(tmp_path: Path) -> None:
    from tests.helpers import ROOT

    out = tmp_path / "out"
    assert run("generate", str(ROOT / "examples/pod-small.yaml"), "-o", str(out)).exit_code == 0
    cfg = out / "leaf-1.cfg"
    lines = cfg.read_text("utf-8").split("\n")
    at = lines.index("interface Vlan-interface101")
    mtu = next(i for i in range(at, len(lines)) if lines[i] == " mtu 9216")
    lines[mtu] = " mtu 1500"
    cfg.write_text("\n".join(lines), "utf-8")
    res = run("lint", str(cfg), "--intent", str(ROOT / "examples/pod-small.yaml"), "--format",
              "json")  # fmt: skip
    found = {f["rule"]: f for f in json.loads(res.stdout)["findings"] if f["device"] == "leaf-1"}
    assert found["RC402"]["line"] == found["RC113"]["line"] == at + 1


def test_deadlock_junit_is_named_deadlock_and_devices_sort_naturally() -> None:
    from tests.helpers import ROOT

    res = run("deadlock", str(ROOT / "examples/pod-small.yaml"), "--format", "junit")
    assert 'testsuite name="roce-cfg deadlock"' in res.stdout
    assert 'name="lint"' not in res.stdout
    from roce_cfg.model.order import natural

    names = ["leaf-21", "leaf-9", "leaf-31"]
    assert sorted(names, key=natural) == ["leaf-9", "leaf-21", "leaf-31"]
