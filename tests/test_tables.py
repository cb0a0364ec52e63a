"""Tables a person reads on a terminal (output.print_table): cells wrap between words and a word
is never cut in two (``generic-128x400│G`` at 160 columns was); a table whose longest words
cannot all fit becomes one block per row. In a pipe every table is plain rows, push's too."""

from __future__ import annotations

import io
import os
import pty
import re
import subprocess
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

from roce_cfg.tables import column_widths, print_table

SCRIPT = Path(sys.executable).parent / "roce-cfg"
ENTRY = [str(SCRIPT)] if SCRIPT.is_file() else [sys.executable, "-m", "roce_cfg"]
BOX = re.compile(r"[\u2500-\u257f]")  # box drawing: borders, not words


def tokens(shown: str) -> set[str]:
    return set(BOX.sub(" ", shown).split())


WORD = st.text("abcxyz0189-/.:;", min_size=1, max_size=18)
CELL = st.lists(WORD, min_size=0, max_size=6).map(" ".join)


@settings(deadline=None)
@given(
    width=st.integers(40, 200),
    columns=st.lists(WORD, min_size=1, max_size=9, unique=True),
    data=st.data(),
)
def test_a_terminal_table_never_breaks_a_word(width: int, columns: list[str], data) -> None:  # type: ignore[no-untyped-def]
    rows = data.draw(st.lists(st.lists(CELL, min_size=len(columns), max_size=len(columns))))
    buf = io.StringIO()
    con = Console(file=buf, force_terminal=True, width=width, color_system=None)
    print_table(con, "t", columns, rows)
    shown = buf.getvalue()
    assert all(len(line) <= width for line in shown.splitlines())
    # a block per row names only the columns it has a value for
    named = columns if "┃" in shown else []
    words = {w for cell in [*named, *(c for r in rows for c in r)] for w in cell.split()}
    assert not words - tokens(shown), shown


@settings(deadline=None)
@given(
    sizes=st.lists(st.tuples(st.integers(0, 40), st.integers(0, 120)), min_size=1, max_size=12),
    slack=st.integers(0, 300),
)
def test_column_widths_hold_each_longest_word_within_the_room(
    sizes: list[tuple[int, int]], slack: int
) -> None:
    words = [w for w, _ in sizes]
    lines = [max(w, ln) for w, ln in sizes]
    room = sum(max(w, 1) for w in words) + slack
    widths = column_widths(words, lines, room)
    assert sum(widths) <= room
    assert all(w >= max(word, 1) for w, word in zip(widths, words, strict=True))
    assert all(w <= max(line, 1) for w, line in zip(widths, lines, strict=True))


def on_a_terminal(columns: int, *args: str) -> str:
    """``roce-cfg args`` with stdout a pseudo-terminal ``columns`` wide: what the user sees."""
    leader, follower = pty.openpty()
    env = {**os.environ, "COLUMNS": str(columns), "LINES": "50", "TERM": "xterm"}
    proc = subprocess.Popen([*ENTRY, *args], stdout=follower, stderr=subprocess.PIPE, env=env)
    os.close(follower)
    shown = b""
    while True:
        try:
            chunk = os.read(leader, 1 << 16)
        except OSError:  # the terminal's other side closed: the command is done
            break
        if not chunk:
            break
        shown += chunk
    os.close(leader)
    assert proc.wait(timeout=60) == 0
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", shown.decode()).replace("\r", "")


def test_plan_on_a_terminal_keeps_every_name_whole() -> None:
    wide = on_a_terminal(160, "plan", "--gpus", "128")
    assert "┃ plan" in wide  # a table at 160 columns
    narrow = on_a_terminal(80, "plan", "--gpus", "128")
    assert "┃" not in narrow  # eleven columns do not fit 80: one block per plan
    assert re.search(r"^switches +switch: 1 x ruijie generic-128x400G", narrow, re.M)
    for shown in (wide, narrow):
        seen = tokens(shown)
        assert {"generic-128x400G", "CE9860-4C-EI-A;", "single-switch", "UNSOURCED"} <= seen
    assert all(len(line) <= 160 for line in wide.splitlines() if BOX.search(line))
