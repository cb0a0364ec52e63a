"""Hostile paths for every CLI option typed as a path, shared by tests/test_path_kinds.py (each
option through each kind, in the suite) and the semantic fuzzer's 'paths' target
(bench/semfuzz_hostile.py, drawn cases in the long run): the kinds, what each option is for and
so which kinds it must refuse, a valid command line per command, and the runner that calls
roce-cfg as its console script does (main(): a bad option is one line too)."""

from __future__ import annotations

import importlib
import io
import os
import sys
import traceback
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

KINDS = [
    "directory",
    "missing-parent",
    "fifo",
    "dev-zero",
    "dev-full",
    "dangling",
    "link-out",
    "link-out-dir",
    "non-utf8",
    "oversized",
    "deep-json",
]
# What a path option is for, and so which kinds it must refuse.
IN_FILE, IN_ANY, IN_DIR, OUT_FILE, OUT_DIR, STATE = (
    "input file",
    "input file or folder",
    "input folder",
    "output file",
    "output folder",
    "state file",
)
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
    ("push", "diff_file"): OUT_FILE,
    ("verify", "source"): IN_ANY,
    ("verify", "inventory"): IN_ANY,
    ("lab", "intent"): IN_FILE,
    ("lab", "inventory_out"): OUT_FILE,
    ("pipeline", "intent"): IN_FILE,
    ("pipeline", "inventory"): IN_ANY,
    ("pipeline", "work"): OUT_DIR,
    ("plan", "prices"): IN_FILE,
    ("plan", "write"): OUT_FILE,
    ("vendors", "read"): IN_FILE,  # the capture kit's session log
    ("vendors", "output"): OUT_DIR,  # the overlay it writes
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
    "vendors": ["vendors", "capture", "ruijie", "--read", "{read}", "-o", "{output}"],
    "models": ["models"],
}
VALID = {
    "intent": "intent.yaml",
    "output": "out",
    "files": "configs/switch-1.cfg",
    "paths": "configs",
    "configs": "configs",
    "inventory": "inv.yaml",
    "work": "work",
    "inventory_out": "lab-inv.yaml",
}
VALID_BY = {
    ("deadlock", "source"): "valley.yaml",
    ("report", "source"): "intent.yaml",
    ("report", "output"): "r.html",
    ("verify", "source"): "intent.yaml",
    ("vendors", "read"): "capture.log",
}


def path_options() -> list[tuple[str, str, list[str]]]:
    from typer.main import get_command

    from roce_cfg.cli import app

    found = []
    for name, command in get_command(app).commands.items():  # type: ignore[attr-defined]
        for p in command.params:
            annotation = p.type_descriptor.annotation
            if annotation is Path or "Path" in str(annotation):
                found.append((name, p.name, list(p.opts)))
    return found


def role(command: str, param: str) -> str | None:
    return ROLES.get((command, param)) or (
        ROLES[("vendor", param)] if param == "vendor_dir" else None
    )


def fixtures(work: Path) -> None:
    (work / "intent.yaml").write_bytes((ROOT / "examples/single-switch.yaml").read_bytes())
    (work / "valley.yaml").write_bytes(
        (ROOT / "tests/deadlock/valley-per-spine-asn.yaml").read_bytes()
    )
    (work / "capture.log").write_bytes(
        (ROOT / "examples/capture/ruijie-lab-session.log").read_bytes()
    )
    (work / "configs").mkdir()
    cfg = (ROOT / "golden/single-switch/switch-1.cfg").read_bytes()
    (work / "configs/switch-1.cfg").write_bytes(cfg)
    (work / "inv.yaml").write_text(
        "hosts:\n  switch-1: {hostname: 127.0.0.1, port: 9, data: {vendor: huawei}}\n"
    )


def hostile(kind: str, work: Path, outside: Path) -> str:
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


def argv(command: str, param: str, opts: list[str], value: str) -> list[str]:
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


def main_cli(args: list[str]) -> tuple[int | None, str, str]:
    """roce-cfg ``args`` as the console script runs it: (exit code, stdout, stderr); the code
    is None and stderr the traceback when an exception escaped."""
    # the module, not the function roce_cfg.cli re-exports under the same name
    cli = importlib.import_module("roce_cfg.cli.main")

    out, err = io.StringIO(), io.StringIO()
    saved = sys.argv, cli.before_exit
    sys.argv, cli.before_exit = ["roce-cfg", *args], sys.exit  # never os._exit in-process
    code: int | None = 0
    try:
        with redirect_stdout(out), redirect_stderr(err):
            cli.main()
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    except Exception as exc:
        return (
            None,
            out.getvalue(),
            "".join(traceback.format_exception(type(exc), exc, exc.__traceback__)),
        )
    finally:
        sys.argv, cli.before_exit = saved
    return code, out.getvalue(), err.getvalue()


def one_line(code: int | None, stderr: str) -> str | None:
    """Why an exit 2 is not one error line (None when it is, or the exit is not 2)."""
    if code != 2:
        return None
    errors = [ln for ln in stderr.splitlines() if ln.startswith("roce-cfg: error:")]
    if len(errors) != 1:
        return f"{len(errors)} error lines: {stderr[:300]!r}"
    stray = [ln for ln in stderr.splitlines() if not ln.startswith(("roce-cfg: ", "pipeline: "))]
    return f"a line that is not roce-cfg's: {stray[0][:200]!r}" if stray else None
