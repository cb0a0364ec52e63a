"""Shared test helpers: scenario discovery, running the CLI in-process, copying the checkout."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from typer.testing import CliRunner

from roce_cfg.cli import app

ROOT = Path(__file__).resolve().parent.parent
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


def run(*args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(app, list(args))


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
