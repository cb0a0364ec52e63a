"""The benchmark command runs from a checkout and prints its table (smallest fabric, one run)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import ROOT


def _table(module: str, *args: str) -> list[list[str]]:
    """The cells of each row of the Markdown table a bench module prints."""
    result = subprocess.run(
        [sys.executable, "-m", module, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    return [ln.split("|")[1:-1] for ln in result.stdout.splitlines() if ln.startswith("| ")]


@pytest.mark.slow
def test_bench_prints_every_stage_for_the_small_fabric() -> None:
    rows = _table("bench", "--fabrics", "small", "--repeats", "1", "--no-push")
    head, body = rows[0], rows[1:]
    assert [c.strip() for c in head][:3] == ["stage", "fabric", "switches"]
    startup, body = body[:5], body[5:]
    assert [r[0].strip() for r in startup] == [
        "start-up: --help (CLI)",
        "start-up: --version (CLI)",
        "start-up: rules (CLI)",
        "generate examples/pod-small.yaml (CLI)",
        "plan --gpus 32768 (CLI)",
    ]
    assert startup[-1][1].strip() == "32,768 GPUs"
    assert all(0 < float(r[4]) < 30 for r in startup)
    stages = [r[0].strip() for r in body]
    assert stages[:3] == ["load + validate", "design", "render (all, written)"]
    assert "lint (CLI, fabric-wide)" in stages and "parse (CLI)" in stages and len(stages) == 10
    for r in body:
        assert r[1].strip() == "small" and r[2].strip() == "16"
        assert int(r[3].strip().replace(",", "")) > 10_000  # config lines of 16 switches
        assert float(r[4]) >= 0 and float(r[5].replace(",", "")) > 10  # seconds, peak MB


@pytest.mark.slow
def test_the_push_comparison_prints_a_row_per_mode() -> None:
    modes = "pipelined,line by line"
    args = ["--compare", "--switches", "4", "--repeats", "1", "--modes", modes]
    rows = _table("bench.push_bench", *args)
    assert [r[0].strip() for r in rows[1:]] == ["pipelined", "line by line"]
    assert [r[1].strip() for r in rows[1:]] == ["16", "1"]
    assert all(r[-1].strip() == "4/4" for r in rows[1:])  # every switch changed, both ways


@pytest.mark.slow
def test_the_checkout_comparison_runs_each_side_on_its_own_folder(tmp_path: Path) -> None:
    """Both sides this checkout (one by PYTHONPATH): each edit reaches its side's folder, each
    run a JSON line, each side a summary."""
    folders = [tmp_path / "base", tmp_path / "new"]
    for folder in folders:
        shutil.copytree(ROOT / "golden" / "pod-small", folder)
    args = ["--base", str(ROOT), "--base-folder", str(folders[0]), "--new-folder", str(folders[1])]
    result = subprocess.run(
        [sys.executable, "-m", "bench.checkout_ab", "changed", *args, "--rounds", "2"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    lines = result.stdout.splitlines()
    runs = [json.loads(line) for line in lines[:4]]
    assert [r["side"] for r in runs] == ["base", "new", "base", "new"]
    assert all(r["wall_s"] > 0 and r["cpu_s"] > 0 and r["peak_mib"] > 0 for r in runs)
    assert [line.split(":")[0] for line in lines[4:]] == ["changed base", "changed new"]
    for folder in folders:
        assert "abedit1" in (folder / "leaf-1.cfg").read_text()  # the second round's edit
        assert (folder / ".roce-cfg-cache").is_dir()
