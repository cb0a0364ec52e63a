"""One discovery for every command that takes a folder, and degrade per file (issue 32 item 6,
issue 26 item 1): backups kept per vendor in subfolders are found; a note, a dangling symlink
are reported and skipped; a config that cannot be read is a finding on that file (RC001) while
every other file is still analysed, and the exit code is the worst finding."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from tests.helpers import ROOT, run

POD = ROOT / "examples/pod-small.yaml"


@pytest.fixture(scope="module")
def backups(tmp_path_factory: pytest.TempPathFactory) -> Path:
    gen = tmp_path_factory.mktemp("gen") / "out"
    assert run("generate", str(POD), "-o", str(gen)).exit_code == 0
    folder = tmp_path_factory.mktemp("backups")
    (folder / "h3c").mkdir()
    (folder / "huawei").mkdir()
    for cfg in gen.glob("leaf-*.cfg"):
        shutil.copy(cfg, folder / "h3c" / cfg.name)
    for cfg in gen.glob("spine-*.cfg"):
        shutil.copy(cfg, folder / "huawei" / cfg.name)
    # leaf-2's backup has a line past the per-line cap: a config (its words say so) not read
    lines = (folder / "h3c/leaf-2.cfg").read_text("utf-8").split("\n")
    lines.insert(20, " description " + "x" * 20000)
    (folder / "h3c/leaf-2.cfg").write_text("\n".join(lines), "utf-8")
    (folder / "README.txt").write_text("backups of pod1, taken nightly\n", "utf-8")
    os.symlink(folder / "gone.cfg", folder / "dangling.cfg")
    return folder


def test_lint_reads_subfolders_and_reports_the_unreadable_file(backups: Path) -> None:
    res = run("lint", str(backups), "--format", "json")
    assert res.exit_code == 1, res.output
    doc = json.loads(res.stdout)
    unread = [f for f in doc["findings"] if f["rule"] == "RC001"]
    assert [(Path(f["file"]).name, f["line"], f["severity"]) for f in unread] == [
        ("leaf-2.cfg", 21, "error")
    ]
    assert doc["summary"]["devices"] == 11  # 7 leaves and 4 spines still read
    assert f"{backups / 'README.txt'}: skipped, not a switch config" in res.stderr
    assert f"{backups / 'dangling.cfg'}: skipped, a dangling symlink" in res.stderr


def test_parse_prints_the_others_and_fails(backups: Path) -> None:
    res = run("parse", str(backups))
    assert res.exit_code == 1
    assert len(json.loads(res.stdout)["configs"]) == 11
    assert "leaf-2.cfg:21" in res.stderr


def test_deadlock_says_what_it_did_not_read(backups: Path) -> None:
    res = run("deadlock", str(backups))
    assert res.exit_code == 1
    assert "11 switches" in res.stdout
    assert "no deadlock cycle among what was read, but unverified: 1 config not read (RC001)" in (
        res.stdout
    )
    assert "\nno deadlock cycle\n" not in res.stdout


@pytest.mark.parametrize("command", ["docs", "report"])
def test_docs_and_report_cover_the_rest_and_exit_1(
    backups: Path, tmp_path: Path, command: str
) -> None:
    target = tmp_path / ("docs" if command == "docs" else "r.html")
    res = run(command, str(backups), "-o", str(target))
    assert res.exit_code == 1, res.output
    assert target.exists()
    assert "leaf-2.cfg:21: not read" in res.stderr
    assert f"{backups / 'README.txt'}: skipped" in res.stderr
    if command == "docs":
        assert (target / "leaf-1.md").exists() and not (target / "leaf-2.md").exists()


def test_a_clean_folder_is_still_exit_0(tmp_path: Path) -> None:
    # the whole fabric, every switch read: a subset would leave its neighbours' links and
    # sessions unverified (RC311/RC313, exit 1)
    clean = tmp_path / "clean"
    for vendor, pattern in (("h3c", "leaf-*.cfg"), ("huawei", "spine-*.cfg")):
        (clean / vendor).mkdir(parents=True)
        for cfg in (ROOT / "golden/pod-small").glob(pattern):
            shutil.copy(cfg, clean / vendor / cfg.name)
    res = run("deadlock", str(clean))
    assert res.exit_code == 0, res.output
    assert res.stdout.rstrip().endswith("no deadlock cycle")


def test_parse_in_workers_degrades_per_file_as_in_series(
    backups: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past PARALLEL_FROM files the parse runs in worker processes: a file past a cap among
    them is still an error on that file alone, a note is still a note, and every byte of
    stdout and stderr is what the parse in series writes."""
    from roce_cfg.parse import many

    folder = tmp_path / "many"
    for copy in range(3):  # 33 configs and three bad leaf-2: past PARALLEL_FROM
        shutil.copytree(backups / "h3c", folder / f"site-{copy}" / "h3c")
        shutil.copytree(backups / "huawei", folder / f"site-{copy}" / "huawei")
    shutil.copy(backups / "README.txt", folder / "README.txt")
    assert len(list(folder.rglob("*.cfg"))) >= many.PARALLEL_FROM + 1
    assert many.workers() > 1 or pytest.skip("one CPU: no worker pool")
    parallel = run("parse", str(folder))
    monkeypatch.setattr(many, "PARALLEL_FROM", 10**6)
    serial = run("parse", str(folder))
    assert parallel.exit_code == serial.exit_code == 1
    assert len(json.loads(parallel.stdout)["configs"]) == 33
    assert parallel.stdout == serial.stdout and parallel.stderr == serial.stderr
    assert parallel.stderr.count("leaf-2.cfg:21") == 3
    assert f"{folder / 'README.txt'}: skipped, not a switch config" in parallel.stderr


def test_deadlock_in_workers_degrades_per_file_as_in_series(
    backups: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """deadlock reads a folder as lint does: each file once, by the parse workers, which say
    which files are configs. Three sites of one fabric: the other sites' switches are second
    configs of their hostnames (RC001 on those files), leaf-2 past a cap is RC001 too, the
    README a note; the workers' answer is byte for byte the answer in series."""
    from roce_cfg.parse import many

    folder = tmp_path / "many"
    for copy in range(3):
        shutil.copytree(backups / "h3c", folder / f"site-{copy}" / "h3c")
        shutil.copytree(backups / "huawei", folder / f"site-{copy}" / "huawei")
    shutil.copy(backups / "README.txt", folder / "README.txt")
    assert many.workers() > 1 or pytest.skip("one CPU: no worker pool")
    parallel = run("deadlock", str(folder), "--format", "json")
    monkeypatch.setattr(many, "PARALLEL_FROM", 10**6)
    serial = run("deadlock", str(folder), "--format", "json")
    assert parallel.exit_code == serial.exit_code == 1, parallel.output
    assert parallel.stdout == serial.stdout and parallel.stderr == serial.stderr
    unread = [f for f in json.loads(parallel.stdout)["findings"] if f["rule"] == "RC001"]
    assert sum("leaf-2.cfg" in f["file"] for f in unread) == 3
    assert sum("also in" in f["message"] for f in unread) == 2 * 11
    assert f"{folder / 'README.txt'}: skipped, not a switch config" in parallel.stderr


def test_deadlock_of_nothing_readable_names_the_file_discovery_refuses(
    backups: Path, tmp_path: Path
) -> None:
    """When no file parses, the error is the first file a serial discovery would have refused
    (past a cap), not a later parse failure of a file named before it."""
    folder = tmp_path / "bad"
    folder.mkdir()
    shutil.copy(backups / "h3c/leaf-2.cfg", folder / "z-leaf-2.cfg")
    spine = (backups / "huawei/spine-1.cfg").read_text("utf-8").rstrip().rsplit("\n", 1)[0]
    (folder / "a-spine-1.cfg").write_text(spine + "\n", "utf-8")  # cut before 'return'
    (folder / "notes.txt").write_text("nothing here\n", "utf-8")
    res = run("deadlock", str(folder))
    assert res.exit_code == 2
    assert "z-leaf-2.cfg:21" in res.stderr and "a-spine-1.cfg" not in res.stderr
    (folder / "z-leaf-2.cfg").unlink()
    res = run("deadlock", str(folder))
    assert res.exit_code == 2 and "a-spine-1.cfg" in res.stderr and "truncated" in res.stderr
    (folder / "a-spine-1.cfg").unlink()
    res = run("deadlock", str(folder))
    assert res.exit_code == 2 and "no intent, fabric.json or config files" in res.stderr


def test_a_link_out_of_the_folder_is_skipped_not_read(tmp_path: Path) -> None:
    """A backups folder's link to a config elsewhere (or to any file) is not followed out of
    the folder; a link to a file inside it is read, and said so."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    golden = ROOT / "golden/single-switch/switch-1.cfg"
    shutil.copy(golden, elsewhere / "leaf-9.cfg")
    folder = tmp_path / "backups"
    folder.mkdir()
    shutil.copy(golden, folder / "switch-1.cfg")
    os.symlink(elsewhere / "leaf-9.cfg", folder / "leaf-9.cfg")
    os.symlink(folder / "switch-1.cfg", folder / "copy.cfg")
    res = run("parse", str(folder))
    assert f"{folder / 'leaf-9.cfg'}: skipped, a symlink out of {folder}" in res.stderr
    assert f"{folder / 'copy.cfg'}: a symlink, read from" in res.stderr
    sources = [c["source"] for c in json.loads(res.stdout)["configs"]]
    assert not any("leaf-9" in s for s in sources), sources
