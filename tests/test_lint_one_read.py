"""Issue 30 item 4: lint reads each file of a folder once. Whether a file is a switch config is
judged by the parse that reads it, not by a serial pass over every file before the workers
start; what is not a config is still a note per file, and what cannot be read a finding."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from roce_cfg import inputs
from roce_cfg.analysis import lint
from roce_cfg.errors import InputError
from roce_cfg.parse import many, read_capped
from roce_cfg.vendor import Vendor
from tests.helpers import ROOT, run

POD = ROOT / "examples/pod-small.yaml"


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("one-read") / "out"
    assert run("generate", str(POD), "-o", str(out)).exit_code == 0
    (out / "notes.txt").write_text("leaf-3 replaced on 2026-11-02, see ticket 4711\n")
    (out / "dump.bin").write_bytes(b"\x00\x01binary")
    return out


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    counted: Counter[str] = Counter()

    def counting(path: Path) -> bytes:
        counted[path.name] += 1
        return read_capped(path)

    monkeypatch.setattr(inputs, "read_capped", counting)
    monkeypatch.setattr(many, "read_capped", counting)
    monkeypatch.setattr(many, "workers", lambda: 1)  # in this process, where the count is
    return counted


def test_discovery_unscreened_reads_nothing(folder: Path, reads: Counter[str]) -> None:
    found = inputs.discover([folder], screen=False)
    assert not reads
    assert {p.name for p in found.unscreened} >= {"notes.txt", "dump.bin", "leaf-1.cfg"}
    assert found.fabric is not None and found.fabric.name == "fabric.json"


def test_lint_reads_each_file_once_and_notes_what_is_no_config(
    folder: Path, reads: Counter[str]
) -> None:
    result = lint([folder])
    configs = sorted(p.name for p in folder.glob("*.cfg"))
    assert sorted(Path(f).name for f in result.files) == configs
    assert set(reads) == {*configs, "notes.txt", "dump.bin"}
    assert set(reads.values()) == {1}, reads
    skipped = "\n".join(result.skipped)
    assert f"{folder / 'notes.txt'}: skipped, not a switch config (no vendor's" in skipped
    assert f"{folder / 'dump.bin'}: skipped, not a switch config (binary file" in skipped
    assert not [f for f in result.findings if f.rule == "RC001"]


def test_with_a_vendor_given_the_screen_still_skips_a_note(folder: Path) -> None:
    h3c = folder.parent / "h3c"
    h3c.mkdir(exist_ok=True)
    for cfg in folder.glob("leaf-*.cfg"):
        (h3c / cfg.name).write_bytes(cfg.read_bytes())
    (h3c / "notes.txt").write_text("nightly backups\n")
    result = lint([h3c], vendor=Vendor.H3C)
    assert len(result.views) == len(list(h3c.glob("*.cfg")))
    assert any("notes.txt: skipped, not a switch config" in n for n in result.skipped)


def test_a_folder_of_no_configs_is_bad_input(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("nothing here\n")
    with pytest.raises(InputError, match="no config files to lint"):
        lint([tmp_path])


def test_the_worker_pool_screens_as_the_parent_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Enough files for the pool (parse.many.PARALLEL_FROM): the workers' verdicts and parses
    are the ones one process reaches."""
    folder = tmp_path / "cluster"
    configs = sorted((ROOT / "golden/cluster-mixed").glob("*.cfg"))
    assert len(configs) >= many.PARALLEL_FROM
    folder.mkdir()
    for cfg in configs:
        (folder / cfg.name).write_bytes(cfg.read_bytes())
    (folder / "notes.txt").write_text("nightly backups\n")
    (folder / "dump.bin").write_bytes(b"\x00\x01binary")
    monkeypatch.setattr(many, "workers", lambda: 2)
    pooled = lint([folder])
    monkeypatch.setattr(many, "workers", lambda: 1)
    alone = lint([folder])
    assert len(pooled.views) == len(configs)
    assert pooled.findings == alone.findings and pooled.files == alone.files
    assert sorted(pooled.skipped) == sorted(alone.skipped)
    assert sum("skipped, not a switch config" in n for n in pooled.skipped) == 2
