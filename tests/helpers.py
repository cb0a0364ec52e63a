"""Shared test helpers: scenario discovery, running the CLI in-process, copying the checkout."""

from __future__ import annotations

import functools
import shutil
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import typer.main
import yaml
from typer.testing import CliRunner, Result

from roce_cfg.cli import app

ROOT = Path(__file__).resolve().parent.parent
# Set by conftest from `--full`: the quick suite (the README's command) or everything (.ci/run).
FULL = False


def examples(n: int) -> int:
    """A property's examples: n under --full, a tenth of them (at least 3) in the quick suite."""
    return n if FULL else max(3, -(-n // 10))


# libyaml's loader where PyYAML has it: the goldens' models are 34 KB of YAML each, and the
# pure-Python loader spent most of collection reading them
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def load_yaml(path: Path) -> Any:
    return yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER)


@functools.cache
def golden_meta(cfg: Path) -> tuple[str, str, str]:
    """(vendor, model, role) of a golden config, from the model saved beside it."""
    # only the three top-level scalars are read: parsing the whole model cost seconds per file
    text = cfg.with_suffix(".yaml").read_text(encoding="utf-8")
    top = "\n".join(
        line for line in text.splitlines() if line.startswith(("vendor:", "model:", "role:"))
    )
    meta = yaml.load(top, Loader=_LOADER)
    return meta["vendor"], meta["model"], meta["role"]


SCENARIOS = {
    p.stem: p
    for p in [
        # examples/ also holds a push inventory: only intents (a top-level 'fabric:') count
        *sorted(
            p for p in (ROOT / "examples").glob("*.yaml") if "\nfabric:" in p.read_text("utf-8")
        ),
        *sorted((ROOT / "tests/scenarios").glob("*.yaml")),
    ]
}


@functools.cache
def _command() -> Any:
    """The CLI as click runs it, built once: typer's runner builds it from the command functions'
    signatures on every invoke (25 ms, a sixth of the CLI tests' time)."""
    return typer.main.get_command(app)


def run(*args: str, env: Mapping[str, str | None] | None = None) -> Result:
    """The CLI run in-process as typer's CliRunner runs it (its isolation of stdin, stdout,
    stderr and the environment, its Result), with the command built once."""
    runner = CliRunner()
    exit_code, exception, exc_info = 0, None, None
    with runner.isolation(env=env) as (out, err, both):
        try:
            _command().main(args=list(args), prog_name=runner.get_default_prog_name(_command()))
        except SystemExit as e:
            code = 0 if e.code is None else e.code
            if not isinstance(code, int):
                sys.stdout.write(f"{code}\n")
                code = 1
            exit_code, exception = code, (e if code else None)
            exc_info = sys.exc_info()
        except Exception as e:
            exit_code, exception, exc_info = 1, e, sys.exc_info()
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
        return Result(
            runner,
            out.getvalue(),
            err.getvalue(),
            both.getvalue(),
            None,
            exit_code,
            exception,
            exc_info,  # type: ignore[arg-type]
        )


def lab_inventory(path: Path, port: int, vendor: str) -> Path:
    """A push inventory of one lab switch, leaf-1 on 127.0.0.1:port."""
    path.write_text(
        f"hosts:\n  leaf-1: {{hostname: 127.0.0.1, port: {port}, data: {{vendor: {vendor}}}}}\n"
    )
    return path


def copy_checkout(dest: Path) -> None:
    """The checkout's files as git sees them (tracked and new, not ignored), working-tree edits
    included, copied to ``dest``."""
    files = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split("\n")
    for name in filter(None, files):
        src = ROOT / name
        if src.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / name)
