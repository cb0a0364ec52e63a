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
import traceback
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from typer.main import get_command

from roce_cfg.cli import app
from tests.helpers import ROOT

KINDS = ["directory", "missing-parent", "fifo", "dev-zero", "dev-full", "dangling", "link-out",
         "link-out-dir", "non-utf8", "oversized", "deep-json"]  # fmt: skip
# What a path option is for, and so which kinds it must refuse.
IN_FILE, IN_ANY, IN_DIR, OUT_FILE, OUT_DIR, STATE = (
    "input file", "input file or folder", "input folder", "output file", "output folder",
    "state file",
)  # fmt: skip
REFUSED = {
    IN_FILE: set(KINDS),
    # an empty folder holds nothing: refused, not required; a link to a folder the user named
    # is read as that folder
    IN_ANY: set(KINDS) - {"directory", "link-out-dir"},
    IN_DIR: set(KINDS) - {"directory", "link-out-dir"},
    OUT_FILE: {"directory", "fifo", "dev-zero", "dev-full", "dangling", "link-out", "link-out-dir"},
    OUT_DIR: set(KINDS) - {"directory", "missing-parent"},
    STATE: set(KINDS) - {"missing-parent"},
}
ROLES: dict[tuple[str, str], str] = {
    ("generate", "intent"): IN_FILE,
    ("generate", "output"): OUT_DIR,
    ("parse", "files"): IN_ANY,
    ("parse", "fabric"): IN_FILE,
    ("lint", "paths"): IN_ANY,
    ("lint", "intent"): IN_FILE,
    ("lint", "fabric"): IN_FILE,
    ("lint", "cabling"): IN_FILE,
    ("lint", "config"): IN_FILE,
    ("deadlock", "source"): IN_ANY,
    ("deadlock", "svg_file"): OUT_FILE,
    ("deadlock", "html_file"): OUT_FILE,
    ("deadlock", "state"): STATE,
    ("docs", "intent"): IN_ANY,
    ("docs", "output"): OUT_DIR,
    ("report", "source"): IN_ANY,
    ("report", "output"): OUT_FILE,
    ("report", "verify_result"): IN_FILE,
    ("push", "configs"): IN_DIR,
    ("push", "inventory"): IN_ANY,
    ("verify", "source"): IN_ANY,
    ("verify", "inventory"): IN_ANY,
    ("lab", "intent"): IN_FILE,
    ("lab", "inventory_out"): OUT_FILE,
    ("pipeline", "intent"): IN_FILE,
    ("pipeline", "inventory"): IN_ANY,
    ("pipeline", "work"): OUT_DIR,
    ("plan", "prices"): IN_FILE,
    ("plan", "write"): OUT_FILE,
    ("vendor", "vendor_dir"): IN_DIR,  # every command's --vendor-dir
}
# A valid command line per command; {name} is the path parameter of that name (its valid
# value below unless it is the one under test). Options not listed are added when tested.
BASE = {
    "generate": ["generate", "{intent}", "-o", "{output}"],
    "parse": ["parse", "{files}"],
    "lint": ["lint", "{paths}"],
    "deadlock": ["deadlock", "{source}", "--fail-links", "all-single"],
    "docs": ["docs", "{intent}", "-o", "{output}"],
    "report": ["report", "{source}", "-o", "{output}"],
    "push": ["push", "{configs}", "-i", "{inventory}", "--timeouts", "connect=1"],
    "verify": ["verify", "{source}", "-i", "{inventory}", "--timeouts", "connect=1"],
    "lab": ["lab", "--intent", "{intent}", "--inventory-out", "{inventory_out}"],
    "pipeline": ["pipeline", "generate", "{intent}", "{inventory}", "{work}"],
    "plan": ["plan", "--gpus", "16"],
    "vendors": ["vendors"],
    "models": ["models"],
}
VALID = {
    "intent": "intent.yaml", "output": "out", "files": "configs/switch-1.cfg",
    "paths": "configs", "configs": "configs", "inventory": "inv.yaml", "work": "work",
    "inventory_out": "lab-inv.yaml",
}  # fmt: skip
VALID_BY = {("deadlock", "source"): "valley.yaml", ("report", "source"): "intent.yaml",
            ("report", "output"): "r.html", ("verify", "source"): "intent.yaml"}  # fmt: skip
HANG_S = 20


def _path_options() -> list[tuple[str, str, list[str]]]:
    found = []
    for name, command in get_command(app).commands.items():  # type: ignore[attr-defined]
        for p in command.params:
            annotation = p.type_descriptor.annotation
            if annotation is Path or "Path" in str(annotation):
                found.append((name, p.name, list(p.opts)))
    return found


OPTIONS = _path_options()


def _role(command: str, param: str) -> str | None:
    return ROLES.get((command, param)) or (
        ROLES[("vendor", param)] if param == "vendor_dir" else None
    )


def test_every_path_option_has_a_role_and_a_command_line() -> None:
    """A new path option fails here until it is given a role (and its command a base line)."""
    assert len(OPTIONS) >= 38
    missing = [f"{c} {p}" for c, p, _ in OPTIONS if _role(c, p) is None or c not in BASE]
    assert missing == []


def _fixtures(work: Path) -> None:
    (work / "intent.yaml").write_bytes((ROOT / "examples/single-switch.yaml").read_bytes())
    (work / "valley.yaml").write_bytes(
        (ROOT / "tests/deadlock/valley-per-spine-asn.yaml").read_bytes()
    )
    (work / "configs").mkdir()
    cfg = (ROOT / "golden/single-switch/switch-1.cfg").read_bytes()
    (work / "configs/switch-1.cfg").write_bytes(cfg)
    (work / "inv.yaml").write_text(
        "hosts:\n  switch-1: {hostname: 127.0.0.1, port: 9, data: {vendor: huawei}}\n"
    )


def _hostile(kind: str, work: Path, outside: Path) -> str:
    path = work / f"hostile-{kind}"
    if kind == "directory":
        path.mkdir()
    elif kind == "missing-parent":
        return str(work / "no" / "such" / "folder" / "x.yaml")
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind in ("dev-zero", "dev-full"):
        return "/dev/" + kind.split("-")[1]
    elif kind == "dangling":
        path.symlink_to(outside / "never-created")
    elif kind == "link-out":
        path.symlink_to(outside / "outside.txt")
    elif kind == "link-out-dir":
        path.symlink_to(outside / "folder")
    elif kind == "non-utf8":
        path.write_bytes(b"name: caf\xe9\n\xff\xfe garbage \xc3\x28\n")
    elif kind == "oversized":
        with path.open("wb") as fh:  # sparse: past every cap (fabric.json's 1 GiB) for free
            fh.truncate(3 << 29)
    else:
        path.write_text("[" * 100_000 + "]" * 100_000)
    return str(path)


def _argv(command: str, param: str, opts: list[str], value: str) -> list[str]:
    argv = list(BASE[command])
    slot = "{" + param + "}"
    if slot not in argv:
        argv += [opts[-1], value]
    out = []
    for a in argv:
        if a.startswith("{") and a.endswith("}"):
            name = a[1:-1]
            a = value if name == param else VALID_BY.get((command, name)) or VALID[name]
        out.append(a)
    return out


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


def _main(
    argv: list[str], monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> tuple[int, str, str]:
    """roce-cfg ``argv`` as the console script runs it (main(): usage errors are one line),
    under a deadline; (exit code, stdout, stderr) with an escaped exception as a failure."""
    from roce_cfg import cli

    monkeypatch.setattr(sys, "argv", ["roce-cfg", *argv])
    monkeypatch.setattr(cli, "before_exit", sys.exit)  # never os._exit inside the test
    capfd.readouterr()
    code: int | None = 0
    try:
        with _deadline(HANG_S):
            cli.main()
    except _Hang as exc:
        pytest.fail(f"{' '.join(argv)}: {exc}")
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    except Exception as exc:
        tb = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
        pytest.fail(f"roce-cfg {' '.join(argv)} raised:\n{tb}")
    out = capfd.readouterr()
    return code or 0, out.out, out.err


def _snapshot(outside: Path) -> dict[str, bytes]:
    return {str(p.relative_to(outside)): p.read_bytes() for p in outside.rglob("*") if p.is_file()}


CASES = [pytest.param(c, p, o, k, id=f"{c}-{o[-1]}-{k}") for c, p, o in OPTIONS for k in KINDS]


@pytest.mark.skipif(sys.platform == "win32", reason="FIFOs and /dev nodes are POSIX")
@pytest.mark.parametrize(("command", "param", "opts", "kind"), CASES)
def test_a_hostile_path_is_one_line_and_touches_nothing_outside(
    command: str,
    param: str,
    opts: list[str],
    kind: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capfd: pytest.CaptureFixture[str],
) -> None:
    role = _role(command, param)
    assert role is not None
    work, outside = tmp_path / "work", tmp_path / "outside"
    work.mkdir()
    outside.mkdir()
    (outside / "outside.txt").write_text("outside the folder\n")
    (outside / "folder").mkdir()  # an empty folder: nothing may be written into it
    _fixtures(work)
    monkeypatch.chdir(work)
    monkeypatch.setenv("ROCE_CFG_USERNAME", "netops")
    monkeypatch.setenv("ROCE_CFG_PASSWORD", "not-used")  # port 9: nothing ever listens
    import roce_cfg.lab.run as lab_run

    monkeypatch.setattr(lab_run, "serve", lambda lab, ready: ready())  # not until Ctrl-C
    before = _snapshot(outside)
    argv = _argv(command, param, opts, _hostile(kind, work, outside))
    code, stdout, stderr = _main(argv, monkeypatch, capfd)
    shown = f"roce-cfg {' '.join(argv)} ->\n{stdout}{stderr}"
    assert "Traceback" not in stdout + stderr, shown
    allowed = (0, 1, 2, 3) if command in ("push", "verify", "pipeline") else (0, 1, 2)
    assert code in allowed, shown
    if kind in REFUSED[role]:
        assert code == 2, f"{role} {kind} not refused: {shown}"
    if code == 2:
        errors = [ln for ln in stderr.splitlines() if ln.startswith("roce-cfg: error:")]
        assert len(errors) == 1, shown
        assert all(ln.startswith(("roce-cfg: ", "pipeline: ")) for ln in stderr.splitlines()), shown
    assert _snapshot(outside) == before, f"wrote outside the folder: {shown}"
    assert not any((outside / "folder").iterdir()), f"wrote through a link: {shown}"
    assert not (outside / "never-created").exists(), f"wrote through a dangling link: {shown}"
    for dev in ("/dev/zero", "/dev/full"):
        assert stat.S_ISCHR(os.stat(dev).st_mode), f"{dev} replaced: {shown}"
