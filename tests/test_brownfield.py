"""Configs roce-cfg did not write, or wrote without the plan beside them: the analysis reads each
switch's own policy and descriptions, never a default that contradicts them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from roce_cfg.analysis import lint
from roce_cfg.generate import generate
from roce_cfg.output import write_all
from tests.helpers import ROOT, SCENARIOS
from tests.helpers import run as cli

DEADLOCK = ROOT / "tests/deadlock"
FAIL = ["--fail-links", "leaf-1:spine-1,leaf-2:spine-2"]


def _configs_only(source: Path, folder: Path) -> Path:
    """The generated configs of an intent, without fabric.json: what a backup folder holds."""
    write_all(folder, {f"{h}.cfg": t for h, t in generate(source).configs.items()})
    return folder


@pytest.mark.parametrize("scenario", ["pod-small", "cluster-mixed", "pod-small-huawei"])
def test_generated_configs_alone_lint_clean(scenario: str, tmp_path: Path) -> None:
    # Without fabric.json: the speeds (200G NICs in 400G cages) and cable lengths come from the
    # port descriptions, the policy from the configs. Was 192 errors + a 2:1 warning on pod-small.
    result = lint([_configs_only(SCENARIOS[scenario], tmp_path)])
    bad = [f"{f.rule} {f.device} {f.port}" for f in result.findings if f.severity != "info"]
    assert bad == []


def _chains(result_stdout: str) -> list[str]:
    doc = json.loads(result_stdout)
    return sorted(f["message"].split("PFC deadlock cycle ", 1)[1] for f in doc["findings"])


def test_dscp34_configs_give_the_intents_cycles(tmp_path: Path) -> None:
    intent = DEADLOCK / "valley-dscp34.yaml"
    folder = _configs_only(intent, tmp_path / "pod")
    by_intent = cli("deadlock", str(intent), *FAIL, "--format", "json")
    by_configs = cli("deadlock", str(folder), *FAIL, "--format", "json")
    assert by_intent.exit_code == by_configs.exit_code == 1
    assert len(_chains(by_intent.stdout)) == 2
    assert _chains(by_configs.stdout) == _chains(by_intent.stdout)
    # Naming another class on the command line overrides what the configs say: 26 is lossy here.
    assert cli("deadlock", str(folder), *FAIL, "--roce-dscp", "26").exit_code == 0


def test_dscp34_configs_lint_clean_and_a_switch_with_another_policy_is_named(
    tmp_path: Path,
) -> None:
    folder = _configs_only(DEADLOCK / "valley-dscp34.yaml", tmp_path / "pod")
    assert [f for f in lint([folder]).findings if f.severity != "info"] == []
    # leaf-3 keeps the default policy (26 -> 3 no-drop): it differs from its neighbours, whose
    # lossless class 34 is lossy on leaf-3 (RC109, RC306) and whose maps differ (RC303).
    cfg = folder / "leaf-3.cfg"
    text = cfg.read_text()
    assert " import 34 export 4" in text
    cfg.write_text(
        text.replace(" import 34 export 4", " import 26 export 3")
        .replace("no-drop dot1p 4", "no-drop dot1p 3")
        .replace("dot1p 4 headroom", "dot1p 3 headroom")
    )
    rules = {(f.rule, f.device) for f in lint([folder]).findings if f.severity == "error"}
    assert ("RC109", "leaf-3") in rules
    assert ("RC303", "leaf-3") in rules or ("RC303", "spine-1") in rules
