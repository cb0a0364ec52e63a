"""Every scenario renders byte for byte as reviewed in golden/<scenario>/.

Run ``pytest --update-golden`` to rewrite them, then read the diff before committing it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from roce_cfg.generate import generate
from tests.helpers import ROOT, SCENARIOS

GOLDEN = ROOT / "golden"


def _expected_files(name: str) -> dict[str, str]:
    result = generate(SCENARIOS[name])
    files = {f"{host}.cfg": text for host, text in result.configs.items()}
    for device in result.fabric.devices:
        model = device.model_dump(mode="json")
        files[f"{device.hostname}.yaml"] = yaml.safe_dump(model, sort_keys=False, width=100)
    return files


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_scenario_matches_golden(name: str, update_golden: bool) -> None:
    files = _expected_files(name)
    folder = GOLDEN / name
    if update_golden:
        folder.mkdir(parents=True, exist_ok=True)
        for stale in folder.iterdir():
            if stale.name not in files:
                stale.unlink()
        for fname, text in files.items():
            (folder / fname).write_text(text, encoding="utf-8")
    assert folder.is_dir(), f"no golden for {name}: run pytest --update-golden and review"
    on_disk = {p.name for p in folder.iterdir()}
    assert on_disk == set(files), f"golden/{name} has other files than the scenario renders"
    for fname, text in files.items():
        assert (folder / fname).read_text(encoding="utf-8") == text, f"golden/{name}/{fname}"


def test_every_golden_folder_has_a_scenario() -> None:
    assert {p.name for p in GOLDEN.iterdir() if p.is_dir()} == set(SCENARIOS)


def test_generation_is_deterministic() -> None:
    path: Path = SCENARIOS["pod-small"]
    assert generate(path).configs == generate(path).configs
