"""Output folders hold one run of roce-cfg; input folders may hold more than configs."""

from __future__ import annotations

import json
from pathlib import Path

from roce_cfg.output import MANIFEST
from tests.helpers import ROOT, run

POD = ROOT / "examples/pod-small.yaml"
ISLAND = ROOT / "examples/single-switch.yaml"


def _names(folder: Path) -> set[str]:
    return {p.name for p in folder.iterdir()}


def test_a_rerun_into_its_own_output_needs_no_force_and_leaves_no_old_files(
    tmp_path: Path,
) -> None:
    out = tmp_path / "out"
    assert run("generate", str(POD), "-o", str(out)).exit_code == 0
    first = _names(out)
    assert MANIFEST in first and "leaf-8.cfg" in first
    manifest = json.loads((out / MANIFEST).read_text())
    assert set(manifest["files"]) == first - {MANIFEST}
    assert run("generate", str(POD), "-o", str(out)).exit_code == 0
    assert _names(out) == first
    # Another, smaller fabric into the same folder: the pod's 12 configs are gone, not mixed in.
    assert run("generate", str(ISLAND), "-o", str(out)).exit_code == 0
    assert "leaf-8.cfg" not in _names(out)
    assert set(json.loads((out / MANIFEST).read_text())["files"]) == _names(out) - {MANIFEST}
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no staging left


def test_a_folder_holding_other_files_is_refused_unless_forced(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "notes.txt").write_text("my notes\n")
    (out / "leaf-1.cfg").write_text("an old config\n")
    refused = run("generate", str(POD), "-o", str(out))
    assert refused.exit_code == 2
    assert "holds files roce-cfg did not write (leaf-1.cfg, notes.txt)" in refused.stderr
    assert "--force" in refused.stderr
    assert _names(out) == {"notes.txt", "leaf-1.cfg"}
    assert (out / "leaf-1.cfg").read_text() == "an old config\n"  # untouched
    forced = run("generate", str(POD), "-o", str(out), "--force")
    assert forced.exit_code == 0, forced.output
    assert "notes.txt" not in _names(out)  # the whole previous content was replaced
    assert (out / "leaf-1.cfg").read_text().startswith("#")


def test_a_file_added_to_roce_cfgs_output_makes_it_foreign(tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert run("generate", str(POD), "-o", str(out)).exit_code == 0
    (out / "README.txt").write_text("handed over on Monday\n")
    result = run("generate", str(POD), "-o", str(out))
    assert result.exit_code == 2 and "README.txt" in result.stderr
    assert (out / "README.txt").exists()


def test_only_joins_its_own_previous_output(tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert run("generate", str(POD), "-o", str(out)).exit_code == 0
    before = _names(out)
    (out / "leaf-3.cfg").write_text("stale\n")
    assert run("generate", str(POD), "-o", str(out), "--only", "leaf-3").exit_code == 0
    assert _names(out) == before
    assert (out / "leaf-3.cfg").read_text().startswith("#")


def _backups(tmp_path: Path) -> Path:
    folder = tmp_path / "backups"
    assert run("generate", str(POD), "-o", str(folder)).exit_code == 0
    (folder / "notes.txt").write_text("leaf-3 replaced on 2026-11-02, see ticket 4711\n")
    return folder


def test_lint_and_parse_of_a_folder_skip_a_notes_file_and_read_the_rest(tmp_path: Path) -> None:
    folder = _backups(tmp_path)
    configs = len(list(folder.glob("*.cfg")))
    notice = f"roce-cfg: note: {folder / 'notes.txt'}: skipped, not a switch config"
    lint = run("lint", str(folder), "--format", "json")
    assert lint.exit_code == 0, lint.output
    assert lint.stderr.count(notice) == 1
    assert json.loads(lint.stdout)["summary"]["files"] == configs == 12
    parse = run("parse", str(folder))
    assert parse.exit_code == 0, parse.output
    assert parse.stderr.count(notice) == 1
    assert len(json.loads(parse.stdout)["configs"]) == configs


def test_a_bad_file_named_directly_or_nothing_usable_is_still_exit_2(tmp_path: Path) -> None:
    folder = _backups(tmp_path)
    assert run("parse", str(folder / "notes.txt")).exit_code == 2
    assert run("lint", str(folder / "notes.txt")).exit_code == 2
    junk = tmp_path / "junk"
    junk.mkdir()
    (junk / "notes.txt").write_text("nothing here\n")
    (junk / "dump.bin").write_bytes(b"\x00\x01binary")
    for command in ("lint", "parse"):
        result = run(command, str(junk))
        assert result.exit_code == 2
        assert "dump.bin: skipped, not a switch config (binary file" in result.stderr
