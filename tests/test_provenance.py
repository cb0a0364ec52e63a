"""Provenance as data: unverified sections warn, --strict-syntax refuses, overlays take over."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from roce_cfg.output import MANIFEST
from tests.helpers import ROOT, run

MIXED = ROOT / "examples" / "cluster-mixed.yaml"
OVERLAY = ROOT / "tests" / "overlay"
ACCEPTANCE = ROOT / "tests/data/acceptance/cluster-mixed.yaml"
SHARED = ROOT.parent / "shared/acceptance/cluster-mixed.yaml"  # the original, if beside us

EXPECTED_WARNINGS = {
    (vendor, section)
    for vendor in ("ruijie", "zte")
    for section in ("bgp", "ecn", "pfc", "qos_maps", "scheduling", "watchdog")
} | {
    ("zte", "system"),
}  # zte system: its one command, hostname, is unsourced; ruijie loopback is partial ([RJ-LAB]);
# lldp is sourced for both ([RJ-CG-LLDP], [ZTE-NG-CR])


def _warned(stderr: str) -> set[tuple[str, str]]:
    out = set()
    for line in stderr.splitlines():
        if line.startswith("roce-cfg: warning: "):
            vendor, section = line.removeprefix("roce-cfg: warning: ").split(":")[0].split()
            out.add((vendor, section))
    return out


def test_mixed_cluster_warns_for_exactly_the_unverified_sections(tmp_path: Path) -> None:
    result = run("generate", str(MIXED), "-o", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output
    assert _warned(result.stderr) == EXPECTED_WARNINGS
    plan = json.loads((tmp_path / "out" / "fabric.json").read_text())
    listed = {(s["vendor"], s["section"]) for s in plan["syntax"] if s["status"] == "unverified"}
    assert listed == EXPECTED_WARNINGS
    names = sorted(p.name for p in (tmp_path / "out").iterdir() if p.name != MANIFEST)
    assert names.count("fabric.json") == 1 and len(names) == 1 + 16 + 8


def test_strict_syntax_refuses_and_writes_nothing(tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = run("generate", str(MIXED), "-o", str(out), "--strict-syntax")
    assert result.exit_code == 2
    assert "--strict-syntax: unverified vendor syntax in ruijie bgp" in result.stderr
    assert not out.exists()


def test_verified_vendors_pass_strict_syntax(tmp_path: Path) -> None:
    result = run(
        "generate",
        str(ROOT / "examples" / "pod-small.yaml"),
        "-o",
        str(tmp_path / "o"),
        "--strict-syntax",
    )
    assert result.exit_code == 0, result.output
    assert "warning" not in result.stderr


def test_overlay_replaces_a_section_and_its_warning(tmp_path: Path) -> None:
    result = run("generate", str(MIXED), "-o", str(tmp_path / "out"), "--vendor-dir", str(OVERLAY))
    assert result.exit_code == 0, result.output
    assert ("ruijie", "pfc") not in _warned(result.stderr)
    assert ("zte", "pfc") in _warned(result.stderr)
    leaf = (tmp_path / "out" / "leaf-1.cfg").read_text()
    assert " overlay-pfc no-drop 3\n" in leaf and "priority-flow-control nodrop" not in leaf
    plan = json.loads((tmp_path / "out" / "fabric.json").read_text())
    pfc = next(s for s in plan["syntax"] if (s["vendor"], s["section"]) == ("ruijie", "pfc"))
    assert pfc["status"] == "user"


def test_overlay_from_environment_and_new_model(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    intent = tmp_path / "lab.yaml"
    intent.write_text(
        (ROOT / "tests/scenarios/pod-small-ruijie.yaml")
        .read_text()
        .replace("model: generic-32x400G}", "model: lab-16x400G}")
        .replace("uplinks_per_spine: 2", "uplinks_per_spine: 1")
        .replace("count: 16", "count: 8")
    )
    monkeypatch.setenv("ROCE_CFG_VENDOR_DIR", str(OVERLAY))
    result = run("generate", str(intent), "-o", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output
    assert ("ruijie", "pfc") not in _warned(result.stderr)


def test_vendors_matrix_shows_user_sections() -> None:
    doc = json.loads(run("vendors", "--format", "json", "--vendor-dir", str(OVERLAY)).stdout)
    rows = doc["sections"]
    status = {(r["vendor"], r["section"]): r["status"] for r in rows}
    assert status[("ruijie", "pfc")] == "user"
    assert status[("zte", "pfc")] == "unverified"
    # verified on the models the command reference names, partial on CE9860-4C-EI (it names none
    # of its commands), so partial overall
    assert status[("huawei", "ecn")] == "partial"
    ecn = next(r for r in rows if (r["vendor"], r["section"]) == ("huawei", "ecn"))
    assert ecn["by_model"]["CE6885-48YS8CQ"] == "verified"
    assert ecn["by_model"]["CE9860-4C-EI"] == "partial"


def test_zte_refuses_a_breakout_it_cannot_name(tmp_path: Path) -> None:
    intent = tmp_path / "z.yaml"
    intent.write_text(
        (ROOT / "tests/scenarios/pod-small-zte.yaml").read_text().replace("count: 16", "count: 30")
    )
    result = run("generate", str(intent), "-o", str(tmp_path / "out"))
    assert result.exit_code == 2
    assert "do not fit zte generic-32x400G" in result.stderr


def test_mixed_example_is_the_acceptance_file() -> None:
    assert ACCEPTANCE.read_text() == MIXED.read_text()
    if SHARED.exists():
        assert SHARED.read_text() == ACCEPTANCE.read_text(), "the acceptance copy drifted"


def test_overlay_parse_templates_read_the_overlay_syntax(tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert run("generate", str(MIXED), "-o", str(out), "--vendor-dir", str(OVERLAY)).exit_code == 0
    leaf = str(out / "leaf-1.cfg")

    def pfc_ports(*extra: str) -> list[list[int]]:
        result = run("parse", leaf, *extra)
        assert result.exit_code == 0, result.stderr
        ports = json.loads(result.stdout)["configs"][0]["device"]["interfaces"]
        return [p["qos"]["no_drop"] for p in ports if p["qos"]["pfc"]]

    assert pfc_ports() == []  # the bundled templates do not know the overlay's words
    with_overlay = pfc_ports("--vendor-dir", str(OVERLAY))
    assert with_overlay and all(nd == [3] for nd in with_overlay)
