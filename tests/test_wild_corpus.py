"""The wild corpus (tests/wild/): public running-configs no one here wrote.

Every file is parsed and linted in-process. Neither may raise or print a secret: parse exits 0,
or 2 with the one line tests/wild/expect.yaml records for a file it refuses today; lint exits 0
or 1 (a file lint still refuses is an expected failure until its reader is fixed, then the
strict mark fails and the entry goes). Every line expect.yaml names as bearing on losslessness
and not read must be in the parse's accounting as not read: roce-cfg may leave a form unread,
never silently.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import pytest
import yaml

from tests.helpers import ROOT, run

WILD = ROOT / "tests" / "wild"
EXPECT: dict[str, dict[str, Any]] = yaml.safe_load((WILD / "expect.yaml").read_text("utf-8"))
FILES = sorted(p.relative_to(WILD).as_posix() for p in WILD.rglob("*.cfg"))
REFUSED = sorted(name for name, e in EXPECT.items() if e.get("refused"))


def _no_traceback(result: Any) -> None:
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    assert "Traceback" not in result.output
    assert "PLANTED-WILD" not in result.output  # the secrets SOURCES.md says were replaced


@cache
def _lint(name: str) -> Any:
    """One lint run per file, shared by the two lint tests."""
    return run("lint", str(WILD / name), "--format", "json")


def _listed(name: str) -> list[tuple[int, str]]:
    out = []
    for item in EXPECT[name]["lossless_unread"]:
        number, text = item.split(": ", 1)
        out.append((int(number), text))
    return out


def test_every_file_has_an_entry_and_a_source() -> None:
    assert sorted(EXPECT) == FILES
    sources = (WILD / "SOURCES.md").read_text("utf-8")
    missing = [name for name in FILES if f"| {name} |" not in sources]
    assert not missing, missing


@pytest.mark.parametrize("name", FILES)
def test_listed_lines_are_the_files_own(name: str) -> None:
    """The entries name real lines: a file edited under the manifest fails here first."""
    lines = (WILD / name).read_bytes().decode("utf-8").splitlines()
    for number, text in _listed(name):
        assert " ".join(lines[number - 1].split()) == text, (name, number)


@pytest.mark.parametrize("name", FILES)
def test_parse_reads_or_refuses_in_one_line(name: str) -> None:
    result = run("parse", str(WILD / name), "-v")
    _no_traceback(result)
    refused = EXPECT[name].get("refused")
    if refused:
        assert result.exit_code == 2, result.output
        errors = [x for x in result.stderr.splitlines() if x.startswith("roce-cfg: error: ")]
        assert len(errors) == 1 and refused in errors[0], result.stderr
        assert name.split("/")[-1] in errors[0]
        return
    assert result.exit_code == 0, result.stderr
    config = json.loads(result.stdout)["configs"][0]
    accounting = config["accounting"]
    assert accounting["lines"] > 0
    # not read: no reader took the line, or one refused its value (RC119)
    unread = {u["line"]: u["text"] for u in (*accounting["unread_lines"], *config["unread"])}
    silent = [(n, text) for n, text in _listed(name) if n not in unread]
    assert not silent, f"{name}: lines bearing on losslessness read as understood: {silent}"


@pytest.mark.parametrize("name", FILES)
def test_lint_never_raises(name: str) -> None:
    """Kept apart from the exit-code test so that its expected failures cannot hide a traceback."""
    result = _lint(name)
    _no_traceback(result)
    if result.exit_code == 2:
        errors = [x for x in result.stderr.splitlines() if x.startswith("roce-cfg: error: ")]
        assert len(errors) == 1, result.stderr


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(
            n,
            marks=pytest.mark.xfail(
                strict=True, reason=f"refused today: {EXPECT[n]['refused']} (docs/wild-corpus.md)"
            ),
        )
        if n in REFUSED
        else n
        for n in FILES
    ],
)
def test_lint_exits_0_or_1(name: str) -> None:
    result = _lint(name)
    assert result.exit_code in (0, 1), result.stderr
    assert json.loads(result.stdout)["summary"]["files"] == 1
