"""A systematic search of the folds a random property rarely draws: every two adjacent lines of
each vendor's planted-secrets fixture, the first made to end its last 80-column piece at
columns 77-80 (a full piece reads as glued to the next line, which the fold pass and ZTE's
unwrap handle apart), the second shifted by 0-80 blanks in steps, both folded at 80 columns;
parse's JSON and YAML must hold no piece of a planted token. Three leaks of this family were
found on ZTE in session 48 (tests/test_secrets_folded.py holds each as its own test); this
keeps the whole neighbourhood searched, on every vendor (a config copied from an 80-column
terminal is folded the same way). As the property, blanks are never drawn where a fold would
fall inside their run: no switch prints a run of blanks inside a command."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from roce_cfg.vendor import Vendor
from tests.helpers import run
from tests.test_secrets_folded import DATA, IDS, VENDORS, WIDTH, _leaks, fold

_PLANTED = re.compile(r"PLANTED[\w-]*")
STEP = 16  # blanks between the shifts of the second line (4 finds what 16 does, in 4x the time)


def _shifted(line: str, extra: int, length: int) -> tuple[str, list[str]] | None:
    """``line`` with each planted secret a token of ``length`` letters and ``extra`` blanks
    put in its first gap before the first token (fewer where a fold would fall in them);
    None when there is no such gap."""
    tokens: list[str] = []

    def fresh(_: re.Match[str]) -> str:
        tokens.append("PLANTED" + ("QZXJKW" * 20)[:length])
        return tokens[-1]

    line = _PLANTED.sub(fresh, line)
    indent = len(line) - len(line.lstrip(" "))
    gaps = [m.start() for m in re.finditer(" ", line[: line.index("PLANTED")])][indent:]
    if not gaps:
        return None
    at = gaps[0]
    for cut in range(WIDTH, len(line) + extra + 1, WIDTH):
        if at < cut <= at + extra + 2:
            extra = max(0, cut - at - 3)
    return line[:at] + " " * extra + line[at:], tokens


def _cases(lines: list[str]) -> Iterator[tuple[str, list[str]]]:
    """(the fixture with one pair of adjacent secret lines shifted, their tokens)."""
    secret = [k for k, line in enumerate(lines) if "PLANTED" in line]
    for a in (k for k in secret if k + 1 in secret):
        for length in (20, 60):
            plain = _shifted(lines[a], 0, length)
            if plain is None:
                continue
            for fill in range(WIDTH - 3, WIDTH + 1):
                first = _shifted(lines[a], (fill - len(plain[0]) % WIDTH) % WIDTH, length)
                for extra in range(0, WIDTH + 1, STEP):
                    second = _shifted(lines[a + 1], extra, length)
                    if first is None or second is None:
                        continue
                    out = [*lines]
                    out[a], out[a + 1] = first[0], second[0]
                    yield "\n".join(out), first[1] + second[1]


@pytest.mark.slow
@pytest.mark.parametrize("vendor", VENDORS, ids=IDS)
def test_no_fold_of_two_adjacent_secret_lines_leaks(vendor: Vendor, tmp_path: Path) -> None:
    lines = (DATA / f"{vendor.value}.cfg").read_text().split("\n")
    config = tmp_path / "switch.cfg"
    leaks: list[str] = []
    cases = 0
    for text, tokens in _cases(lines):
        config.write_text(fold(text))
        outputs = {
            fmt: run("parse", str(config), "-v", "--format", fmt).stdout for fmt in ("json", "yaml")
        }
        cases += 1
        found = _leaks(outputs, tokens)
        if found:
            leaks.append(f"{tokens[0][:20]}...: {found}")
    assert cases > 100  # the fixture has pairs of adjacent secret lines to search
    assert leaks == []
