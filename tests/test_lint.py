"""Lint: every rule fires on its mistake (at the right line) and not on its near miss; our own
configs lint clean; the output formats are what CI tools accept."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from xml.etree import ElementTree as ET

import jsonschema
import pytest
import yaml

from roce_cfg.analysis import lint
from roce_cfg.analysis.registry import Hit, rules
from roce_cfg.vendor import OVERLAY_ENV
from tests.helpers import ROOT, SCENARIOS, run
from tests.lintcases import CASES, _generated, observed, run_case

SARIF_SCHEMA = json.loads((ROOT / "tests/data/sarif-schema-2.1.0.json").read_text())


@pytest.fixture(scope="session")
def scenario_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("scenarios")


def _key(f: dict[str, object]) -> tuple[str, ...]:
    return tuple(str(f[k]) for k in ("device", "rule", "line", "port"))


@pytest.mark.parametrize("case", CASES, ids=lambda p: p.stem)
def test_lint_case(case: Path, tmp_path: Path, scenario_cache: Path) -> None:
    spec, result = run_case(case, tmp_path / "work", scenario_cache)
    expect = [{k: v for k, v in e.items() if k != "says"} for e in spec["expect"]]
    assert sorted(observed(spec, result), key=_key) == sorted(expect, key=_key)
    # 'says': words the finding's message must hold, where the place alone cannot tell a
    # right finding from a wrong one.
    for e in spec["expect"]:
        if "says" in e:
            messages = [f.message for f in result.findings if _key(e) == _key(f.__dict__)]
            assert any(e["says"] in m for m in messages), (e["says"], messages)


def test_every_rule_has_a_trigger_and_a_near_miss() -> None:
    triggered: set[str] = set()
    missed: set[str] = set()
    for case in CASES:
        spec = yaml.safe_load(case.read_text())
        rule_id = case.stem.split("-")[0]
        fired = {e["rule"] for e in spec["expect"]}
        if "trigger" in case.stem and rule_id in fired:
            triggered.add(rule_id)
        if "near-miss" in case.stem and rule_id not in fired:
            missed.add(rule_id)
    # RC401 reads the intent (tested below); RC5xx are the deadlock analyser's (test_deadlock).
    data_rules = {r.id for r in rules() if not r.id.startswith("RC5")} - {"RC401"}
    assert data_rules - triggered == set()
    assert data_rules - missed == set()


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_generated_configs_lint_clean(name: str, scenario_cache: Path) -> None:
    out = _generated(name, scenario_cache)
    for intent in (None, SCENARIOS[name]):
        result = lint([out], intent=intent)
        # RC126: roce-cfg's own RGOS/ZXROS lines are in the syntax no source confirms, as the
        # switches' (vendors/<vendor>.grammar.yaml); RC204: its own Comware headroom counts
        # cells of a size no source gives, and a CE9860 sets headroom to a default no source
        # gives: lint says so of its own output too
        bad = [
            f for f in result.findings if f.severity != "info" and f.rule not in ("RC126", "RC204")
        ]
        assert bad == [], bad[:3]


def _pcie_intent(tmp_path: Path, gen: int) -> Path:
    text = SCENARIOS["cluster-mixed"].read_text()
    assert "nic_speed: 400G" in text
    path = tmp_path / "intent.yaml"
    path.write_text(text.replace("pcie_gen: 5", f"pcie_gen: {gen}"))
    return path


@pytest.mark.parametrize(("gen", "fires"), [(4, True), (5, False)])
def test_rc401_nic_faster_than_its_pcie_slot(
    tmp_path: Path, scenario_cache: Path, gen: int, fires: bool
) -> None:
    intent = _pcie_intent(tmp_path, gen)
    assert f"pcie_gen: {gen}" in intent.read_text()
    out = _generated("cluster-mixed", scenario_cache)
    found = [f for f in lint([out / "leaf-1.cfg"], intent=intent).findings if f.rule == "RC401"]
    if fires:
        assert len(found) == 1
        assert found[0].file == str(intent)
        assert found[0].line == intent.read_text().splitlines().index("  nic_speed: 400G") + 1
    else:
        assert found == []


# Comware counts headroom in cells and no source gives the S9855-32D's cell size: lint judges
# its headroom only where the operator gives the cell size (an overlay, with their source).
CELL_GIVEN = "models:\n  S9855-32D: {cell_bytes: 254, cell_unconfirmed: false}\n"


def _overlay(pod: Path) -> Path:
    return pod.parent / "overlay"


@pytest.fixture
def broken(tmp_path: Path, scenario_cache: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The H3C pod with one error (RC201) and one warning (RC202) in leaf-1, linted with the
    S9855-32D's cell size given (ROCE_CFG_VENDOR_DIR for the CLI; lint(overlay=_overlay(pod)))."""
    (tmp_path / "overlay/vendors").mkdir(parents=True)
    (tmp_path / "overlay/vendors/h3c.yaml").write_text(CELL_GIVEN)
    monkeypatch.setenv(OVERLAY_ENV, str(tmp_path / "overlay"))
    out = tmp_path / "pod"
    shutil.copytree(_generated("pod-small-h3c", scenario_cache), out)
    leaf = out / "leaf-1.cfg"
    text = leaf.read_text()
    # First server port short of headroom, second one with more than twice what it needs.
    text = text.replace(" dot1p 3 headroom 383", " dot1p 3 headroom 200", 1)
    text = text.replace(" dot1p 3 headroom 383", " dot1p 3 headroom 800", 1)
    leaf.write_text(text)
    return out


def test_exit_codes_and_fail_on(broken: Path, scenario_cache: Path) -> None:
    clean = _generated("pod-small-h3c", scenario_cache)
    assert run("lint", str(clean)).exit_code == 0
    result = run("lint", str(broken))
    assert result.exit_code == 1
    assert "RC201" in result.stdout and "1 error, 1 warning" in result.stdout
    assert run("lint", str(broken), "--fail-on", "info").exit_code == 1
    only_warning = broken / "leaf-1.cfg"
    only_warning.write_text(only_warning.read_text().replace("headroom 200", "headroom 383", 1))
    assert run("lint", str(broken)).exit_code == 0
    assert run("lint", str(broken), "--fail-on", "warning").exit_code == 1
    bad = run("lint", str(broken / "nope.cfg"))
    assert bad.exit_code == 2 and bad.stderr.startswith("roce-cfg: error:")


def test_json_output_is_stable_and_complete(broken: Path) -> None:
    result = run("lint", str(broken), "--format", "json")
    doc = json.loads(result.stdout)
    assert doc["format"] == "roce-cfg/lint/v1"
    assert doc["summary"] == {
        "error": 1,
        "warning": 1,
        "info": 12,  # RC118 on each switch: the S9855-32D's default ECMP cap is in no source
        "suppressed": 0,
        "devices": 12,
        "files": 12,
    }
    first = doc["findings"][0]
    assert set(first) == {
        "rule",
        "severity",
        "device",
        "file",
        "line",
        "port",
        "message",
        "related_device",
        "related_port",
        "detail",
        "suppressed",
    }
    found = [(f["rule"], f["line"]) for f in doc["findings"] if f["rule"] != "RC118"]
    assert found == [("RC201", 42), ("RC202", 57)]
    assert any("cable round trip" in d for d in first["detail"])


def test_sarif_validates_and_has_what_code_scanning_needs(
    broken: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(broken.parent)
    result = run("lint", "pod", "--format", "sarif")
    doc = json.loads(result.stdout)
    jsonschema.validate(doc, SARIF_SCHEMA)
    run0 = doc["runs"][0]
    assert [r["id"] for r in run0["tool"]["driver"]["rules"]] == [r.id for r in rules()]
    res = run0["results"][0]
    loc = res["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"]["uri"] == "pod/leaf-1.cfg"  # relative
    assert loc["region"]["startLine"] == 42
    assert res["partialFingerprints"]["rocecfgFinding/v1"]
    assert res["level"] == "error"


def test_junit_output(broken: Path) -> None:
    root = ET.fromstring(run("lint", str(broken), "--format", "junit").stdout)
    suite = root.find("testsuite")
    assert suite is not None
    assert suite.get("failures") == "14"  # every finding, the RC118 notes included
    assert int(suite.get("tests", "0")) == 2 + 12  # two findings and an RC118 note per switch


def test_suppression_by_file_and_by_comment(broken: Path, tmp_path: Path) -> None:
    config = tmp_path / ".roce-cfg.yaml"
    config.write_text(
        "ignore:\n  - {rule: RC201, device: leaf-*, reason: 'optics are 1 m, lab only'}\n"
    )
    result = run("lint", str(broken), "--config", str(config), "--format", "json")
    assert result.exit_code == 0
    doc = json.loads(result.stdout)
    assert doc["summary"]["suppressed"] == 1
    assert [f["suppressed"] for f in doc["findings"] if f["rule"] == "RC201"] == [
        "optics are 1 m, lab only"
    ]
    leaf = broken / "leaf-1.cfg"
    leaf.write_text("# roce-cfg: ignore RC201 short cables in this rack\n" + leaf.read_text())
    result = run("lint", str(broken), "--format", "json")
    assert result.exit_code == 0
    findings = json.loads(result.stdout)["findings"]
    assert [f["suppressed"] for f in findings if f["rule"] == "RC201"] == [
        "short cables in this rack"
    ]
    bad = tmp_path / "bad.yaml"
    bad.write_text("ignore:\n  - {rule: RC999, reason: x}\n")
    result = run("lint", str(broken), "--config", str(bad))
    assert result.exit_code == 2 and "unknown rule RC999" in result.stderr


def test_rules_and_explain() -> None:
    listed = json.loads(run("rules", "--format", "json").stdout)["rules"]
    assert [r["id"] for r in listed] == sorted(r["id"] for r in listed)
    assert all(r["rationale"] and r["fix"] and r["severity"] for r in listed)
    result = run("explain", "rc201")
    assert result.exit_code == 0
    assert "headroom-below-required" in result.stdout and "Fix:" in result.stdout
    assert run("explain", "RC999").exit_code == 2


def test_verbose_shows_the_headroom_arithmetic(broken: Path) -> None:
    result = run("lint", str(broken), "-v")
    assert "peer response 905 pause quanta" not in result.stdout  # 200G port: 453 quanta
    assert "peer response 453 pause quanta: 28992 B" in result.stdout
    assert "required: 97282 B" in result.stdout


def test_docs_list_every_rule() -> None:
    doc = (ROOT / "docs/lint.md").read_text()
    for r in rules():
        assert f"| {r.id} | {r.name} | {r.severity} |" in doc, r.id


def test_worker_processes_find_the_same_lines(
    broken: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Configs parsed in worker processes come back without their source maps; findings must
    still point at the same lines, and a bad file must still be named."""
    from roce_cfg.parse import many

    serial = lint([broken], overlay=_overlay(broken))
    monkeypatch.setattr(many, "PARALLEL_FROM", 2)
    monkeypatch.setattr(many, "workers", lambda: 2)
    parallel = lint([broken], overlay=_overlay(broken))
    assert [(f.rule, f.device, f.line, f.port) for f in parallel.findings] == [
        (f.rule, f.device, f.line, f.port) for f in serial.findings
    ]
    assert {f.rule for f in parallel.findings} >= {"RC201", "RC202"}
    assert all(f.line for f in parallel.findings if f.device == "leaf-1")
    # a config past a per-line cap is named in a finding on that file (RC001), and the other
    # files are still checked (issue 26: degrade per file, never per folder)
    (broken / "leaf-2.cfg").write_text("sysname leaf-2\n" + "x" * 20000 + "\nreturn\n")
    again = lint([broken], overlay=_overlay(broken))
    unread = [f for f in again.findings if f.rule == "RC001"]
    assert [(f.device, f.line) for f in unread] == [("leaf-2.cfg", 2)]
    assert {f.rule for f in again.findings} >= {"RC201", "RC202"}


def _device_rules_forked(monkeypatch: pytest.MonkeyPatch, in_child: Callable[[], None]) -> None:
    """Device rules run in a forked child from one switch on; RC201's check also calls
    ``in_child`` when it runs in the child (not in this process)."""
    from roce_cfg.analysis import engine, run

    parent = os.getpid()
    by_id = {r.id: r for r in rules()}
    plain = by_id["RC201"].check
    assert plain is not None

    def check(v: object) -> Iterator[Hit]:
        if os.getpid() != parent:
            in_child()
        yield from plain(v)

    by_id["RC201"] = replace(by_id["RC201"], check=check)
    monkeypatch.setattr(run, "rules", lambda: list(by_id.values()))
    monkeypatch.setattr(engine, "ASIDE_FROM", 1)
    monkeypatch.setattr(engine, "workers", lambda: 2)


def test_device_rules_in_a_child_find_what_they_find_here(
    broken: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Findings come back from the child whole and in the order the parent would give them;
    a child that dies leaves the parent to run the device rules itself, none lost."""
    here = [f.model_dump() for f in lint([broken], overlay=_overlay(broken)).findings]
    assert {f["rule"] for f in here} >= {"RC201", "RC202"}
    mark = tmp_path / "ran-in-a-child"
    _device_rules_forked(monkeypatch, mark.touch)
    assert [f.model_dump() for f in lint([broken], overlay=_overlay(broken)).findings] == here
    assert mark.exists()
    _device_rules_forked(monkeypatch, lambda: os._exit(3))
    assert [f.model_dump() for f in lint([broken], overlay=_overlay(broken)).findings] == here
