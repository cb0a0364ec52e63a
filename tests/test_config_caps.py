"""Per-file caps on configs: a huge, binary, endless-line or impossibly indented file is refused
alone with its figure, and the rest of a folder is still analysed."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from roce_cfg.parse.text import MAX_CONFIG_BYTES, MAX_CONFIG_LINES, MAX_INDENT, MAX_LINE_CHARS
from tests.helpers import ROOT, run

GOOD = ROOT / "golden" / "pod-small-zte"


def _bad_files(folder: Path) -> dict[str, str]:
    """file name -> the reason its notice or error must give."""
    (folder / "endless.cfg").write_text("hostname x\n" + "x" * (MAX_LINE_CHARS + 1) + "\n")
    (folder / "deep.cfg").write_text(
        "hostname x\ninterface a\n" + "".join(" " * i + "b\n" for i in range(0, 200, 4))
    )
    with (folder / "huge.cfg").open("wb") as fh:
        fh.truncate(MAX_CONFIG_BYTES + 1)
    (folder / "blob.cfg").write_bytes(b"\x7fELF\x02\x01\x01\x00" * 1000)
    (folder / "many.cfg").write_text("hostname x\n" + " vlan 1\n" * MAX_CONFIG_LINES)
    return {
        "many.cfg": f"{MAX_CONFIG_LINES + 1:,} lines; the largest running-configs are tens",
        # a .cfg is a backup: a finding on the file, its line in the finding's own field
        "endless.cfg": f"a line of {MAX_LINE_CHARS + 1:,} characters",
        "deep.cfg": f"indented {MAX_INDENT + 4} columns; no config block nests that deep",
        "huge.cfg": f"too large ({MAX_CONFIG_BYTES + 1:,} bytes",
        "blob.cfg": "binary file",
    }


@pytest.mark.parametrize("command", ["parse", "lint", "deadlock"])
def test_a_bad_file_is_skipped_and_the_folder_still_analysed(tmp_path: Path, command: str) -> None:
    folder = tmp_path / "configs"
    shutil.copytree(GOOD, folder, ignore=shutil.ignore_patterns("*.yaml"))
    reasons = _bad_files(folder)
    result = run(command, str(folder), "--format", "json")
    assert result.exit_code in (0, 1), result.output
    # each bad file is a finding on that file (issue 26: degrade per file, never per folder),
    # named with its reason, in the report or on stderr
    for name, reason in reasons.items():
        assert str(folder / name) in result.output, (name, result.output[-2000:])
        assert reason in result.output, (name, result.output[-2000:])
    assert "Traceback" not in result.output
    if command == "parse":
        assert result.stdout.count('"hostname"') == 12  # every good config read


@pytest.mark.parametrize("name", ["endless.cfg", "deep.cfg", "huge.cfg", "blob.cfg", "many.cfg"])
def test_a_bad_file_named_alone_is_exit_2_with_one_line(tmp_path: Path, name: str) -> None:
    reasons = _bad_files(tmp_path)
    result = run("parse", str(tmp_path / name))
    assert result.exit_code == 2
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith(f"roce-cfg: error: {tmp_path / name}")
    assert reasons[name].removeprefix("line 2: ") in line


def test_configs_at_the_caps_are_still_read(tmp_path: Path) -> None:
    text = (GOOD / "leaf-1.cfg").read_text()
    path = tmp_path / "leaf-1.cfg"
    line = "  description server-1:nic0"
    at_cap = line + "x" * (MAX_LINE_CHARS - len(line))
    deep = "\n" + " " * MAX_INDENT + "mtu 9216"
    path.write_text(text.replace(line, at_cap + deep, 1))
    assert run("parse", str(path)).exit_code == 0
