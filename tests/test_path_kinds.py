"""Every path a user names goes through one door (roce_cfg/safepath.py, roce_cfg/output.py):
each CLI option typed as a path, found by walking the typer app (so a new one is covered, or
this test fails until it is given a role), gets each hostile kind of path in turn: a
directory, a missing parent folder, a FIFO, /dev/zero, /dev/full, a dangling symlink, a
symlink out of the folder (to a file, to a folder), non-UTF-8 bytes, a file past every size
cap (sparse), deeply nested JSON. Whatever the kind: no traceback, no hang, exit 0, 1 or 2
(push, verify and pipeline: 3 when the switch is unreachable), an exit 2 is one error line,
and nothing outside the case's folder is written (the link targets unchanged, the dangling
link's target never created, the device nodes still devices). The kinds a role cannot take
are refused: exit 2."""

from __future__ import annotations

import os
import signal
import stat
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from bench.hostile import (
    BASE,
    KINDS,
    REFUSED,
    argv,
    fixtures,
    hostile,
    main_cli,
    one_line,
    path_options,
    role,
)

HANG_S = 20
OPTIONS = path_options()


def test_every_path_option_has_a_role_and_a_command_line() -> None:
    """A new path option fails here until it is given a role (and its command a base line)."""
    assert len(OPTIONS) >= 38
    missing = [f"{c} {p}" for c, p, _ in OPTIONS if role(c, p) is None or c not in BASE]
    assert missing == []


class _Hang(Exception):
    pass


@contextmanager
def _deadline(seconds: int) -> Iterator[None]:
    def alarm(signum: int, frame: Any) -> None:
        raise _Hang(f"still running after {seconds} s")

    old = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def _snapshot(outside: Path) -> dict[str, bytes]:
    return {str(p.relative_to(outside)): p.read_bytes() for p in outside.rglob("*") if p.is_file()}


CASES = [pytest.param(c, p, o, k, id=f"{c}-{o[-1]}-{k}") for c, p, o in OPTIONS for k in KINDS]


@pytest.mark.skipif(sys.platform == "win32", reason="FIFOs and /dev nodes are POSIX")
@pytest.mark.sample(60)
@pytest.mark.parametrize(("command", "param", "opts", "kind"), CASES)
def test_a_hostile_path_is_one_line_and_touches_nothing_outside(
    command: str,
    param: str,
    opts: list[str],
    kind: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    what = role(command, param)
    assert what is not None
    work, outside = tmp_path / "work", tmp_path / "outside"
    work.mkdir()
    outside.mkdir()
    (outside / "outside.txt").write_text("outside the folder\n")
    (outside / "folder").mkdir()  # an empty folder: nothing may be written into it
    fixtures(work)
    monkeypatch.chdir(work)
    monkeypatch.setenv("ROCE_CFG_USERNAME", "netops")
    monkeypatch.setenv("ROCE_CFG_PASSWORD", "not-used")  # port 9: nothing ever listens
    import roce_cfg.lab.run as lab_run

    monkeypatch.setattr(lab_run, "serve", lambda lab, ready: ready())  # not until Ctrl-C
    before = _snapshot(outside)
    args = argv(command, param, opts, hostile(kind, work, outside))
    try:
        with _deadline(HANG_S):
            code, stdout, stderr = main_cli(args)
    except _Hang as exc:
        pytest.fail(f"{' '.join(args)}: {exc}")
    shown = f"roce-cfg {' '.join(args)} ->\n{stdout}{stderr}"
    assert code is not None, shown  # an escaped exception: its traceback is in stderr
    assert "Traceback" not in stdout + stderr, shown
    allowed = (0, 1, 2, 3) if command in ("push", "verify", "pipeline") else (0, 1, 2)
    assert code in allowed, shown
    if kind in REFUSED[what]:
        assert code == 2, f"{what} {kind} not refused: {shown}"
    assert one_line(code, stderr) is None, shown
    assert _snapshot(outside) == before, f"wrote outside the folder: {shown}"
    assert not any((outside / "folder").iterdir()), f"wrote through a link: {shown}"
    assert not (outside / "never-created").exists(), f"wrote through a dangling link: {shown}"
    for dev in ("/dev/zero", "/dev/full"):
        assert stat.S_ISCHR(os.stat(dev).st_mode), f"{dev} replaced: {shown}"
