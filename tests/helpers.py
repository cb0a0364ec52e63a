"""Shared test helpers: scenario discovery and running the CLI in-process."""

from __future__ import annotations

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
