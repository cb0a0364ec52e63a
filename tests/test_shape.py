"""The fabric's shape: tiers top first, derived once from the intent and read by the designer."""

from __future__ import annotations

from pathlib import Path

import yaml

from tests.helpers import ROOT, run

THREE_TIER = ROOT / "tests" / "scenarios" / "three-tier.yaml"


def _three_tier(tmp_path: Path, **fabric: object) -> Path:
    doc = yaml.safe_load(THREE_TIER.read_text(encoding="utf-8"))
    doc["fabric"].update(fabric)
    doc["lossless"]["pfc"]["watchdog"]["restore_ms"] = 1000  # within every vendor's range
    path = tmp_path / "tiers.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    return path


def test_super_spines_of_another_vendor_than_the_pods(tmp_path: Path) -> None:
    """The profile of every tier's vendor is loaded (a Huawei super-spine above H3C pods was
    a KeyError traceback: only leaf, spine and single-switch vendors were)."""
    path = _three_tier(tmp_path, super_spine={"vendor": "huawei"})
    out = tmp_path / "out"
    result = run("generate", str(path), "-o", str(out))
    assert result.exit_code == 0, result.output
    assert "sysname superspine-1" in (out / "superspine-1.cfg").read_text(encoding="utf-8")
    assert "#\n sysname leaf-1" in (out / "leaf-1.cfg").read_text(encoding="utf-8")
