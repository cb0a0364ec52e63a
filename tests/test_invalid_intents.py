"""Each file in tests/invalid/ carries its expected one-line error in its first line."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import ROOT, run

CASES = sorted((ROOT / "tests" / "invalid").glob("*.yaml"))


def _expected(path: Path) -> str:
    first = path.read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith("# expected_error: "), f"{path.name} lacks its expected error"
    return first.removeprefix("# expected_error: ")


@pytest.mark.parametrize("case", CASES, ids=[c.stem for c in CASES])
def test_invalid_intent(case: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(case.parent)
    out = tmp_path / "out"
    result = run("generate", case.name, "-o", str(out))
    assert result.exit_code == 2, result.output
    first = result.stderr.splitlines()[0]
    assert first.startswith("roce-cfg: error: ")
    assert _expected(case) in first
    assert "Traceback" not in result.output
    assert not out.exists(), "nothing may be written for a bad intent"


def test_there_are_enough_cases() -> None:
    assert len(CASES) >= 15


def _write_and_generate(tmp_path: Path, name: str, data: bytes):  # type: ignore[no-untyped-def]
    path = tmp_path / name
    path.write_bytes(data)
    return run("generate", str(path), "-o", str(tmp_path / "out"))


def test_binary_junk(tmp_path: Path) -> None:
    result = _write_and_generate(tmp_path, "junk.yaml", b"\x7fELF\x00\x01\x02garbage")
    assert result.exit_code == 2
    assert "junk.yaml:1 binary data (NUL byte), expected text" in result.stderr


def test_not_utf8(tmp_path: Path) -> None:
    result = _write_and_generate(tmp_path, "latin.yaml", b"name: caf\xe9\n")
    assert result.exit_code == 2
    assert "not UTF-8 text" in result.stderr


def test_truncated_file(tmp_path: Path) -> None:
    text = (ROOT / "examples" / "pod-small.yaml").read_bytes()
    result = _write_and_generate(tmp_path, "cut.yaml", text[: len(text) // 2])
    assert result.exit_code == 2
    assert result.stderr.startswith("roce-cfg: error: ")
    assert "Traceback" not in result.output


def test_missing_file(tmp_path: Path) -> None:
    result = run("generate", str(tmp_path / "nope.yaml"), "-o", str(tmp_path / "out"))
    assert result.exit_code == 2
    assert "nope.yaml: no such intent file" in result.stderr


def test_directory_instead_of_file(tmp_path: Path) -> None:
    result = run("generate", str(tmp_path), "-o", str(tmp_path / "out"))
    assert result.exit_code == 2
    assert "is a directory, expected an intent file" in result.stderr


def test_a_switch_failing_late_leaves_an_existing_output_as_it_was(tmp_path: Path) -> None:
    """Switches are staged as they render; one failing after others must not let those land."""
    out = tmp_path / "out"
    out.mkdir()
    (out / "leaf-1.cfg").write_text("the config from last week\n")
    result = run("generate", str(ROOT / "tests/invalid/watchdog-spine-vendor.yaml"), "-o", str(out))
    assert result.exit_code == 2
    assert [p.name for p in tmp_path.iterdir()] == ["out"]  # no staging directory left behind
    assert [p.name for p in out.iterdir()] == ["leaf-1.cfg"]
    assert (out / "leaf-1.cfg").read_text() == "the config from last week\n"
