"""Command line: argument parsing and output only; the work is done by the API modules."""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Literal

import typer
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from roce_cfg.errors import IntentErrors, RoceCfgError
from roce_cfg.generate import Generated, generate
from roce_cfg.intent.models import Intent
from roce_cfg.output import write_all
from roce_cfg.platforms.profile import OVERLAY_ENV, load_profiles, overlay_dir

EXIT_OK, EXIT_FINDINGS, EXIT_INPUT, EXIT_PUSH = 0, 1, 2, 3
PROGRESS_FROM = 50

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    help="Intent -> switch configs, lint and push for lossless RoCEv2 GPU fabrics.",
)
out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False, soft_wrap=True)

VendorDir = Annotated[
    Path | None,
    typer.Option(
        "--vendor-dir",
        envvar=OVERLAY_ENV,
        help="Overlay with your own templates/<vendor>/sections/*.j2 and vendors/<vendor>.yaml.",
        file_okay=False,
    ),
]


def _fail(exc: RoceCfgError) -> None:
    lines = [e.one_line() for e in exc.errors] if isinstance(exc, IntentErrors) else [str(exc)]
    for line in lines:
        err.print(f"roce-cfg: error: {line}", markup=False)
    raise typer.Exit(EXIT_INPUT)


@app.command("generate")
def generate_cmd(
    intent: Annotated[Path, typer.Argument(help="Intent YAML file.")],
    output: Annotated[Path, typer.Option("-o", "--output", help="Directory to write.")],
    only: Annotated[str | None, typer.Option("--only", help="Render one switch.")] = None,
    fmt: Annotated[
        Literal["cfg", "json"], typer.Option("--format", help="CLI text or the model as JSON.")
    ] = "cfg",
    strict_syntax: Annotated[
        bool, typer.Option("--strict-syntax", help="Refuse vendor syntax that has no source.")
    ] = False,
    vendor_dir: VendorDir = None,
) -> None:
    """Write every switch's configuration and fabric.json from one intent."""
    with _progress() as tick:
        try:
            result = generate(
                intent,
                overlay=overlay_dir(vendor_dir),
                only=only,
                strict_syntax=strict_syntax,
                progress=tick,
            )
            write_all(output, _files(result, fmt))
        except RoceCfgError as exc:
            _fail(exc)
    for w in result.warnings:
        err.print(
            f"roce-cfg: warning: {w.vendor.value} {w.section}: unverified syntax (no public "
            f"source) on {w.switches} switch(es); {w.note or 'check it before pushing'}",
            markup=False,
        )
    _summary(result, output)


@contextmanager
def _progress() -> Iterator[Callable[[int, int], None]]:
    """A bar on stderr for large fabrics, only when stderr is a terminal (never in pipelines)."""
    if not err.is_terminal:
        yield lambda done, total: None
        return
    with Progress(console=err, transient=True) as bar:
        task = bar.add_task("rendering", total=None, visible=False)

        def tick(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total, visible=total >= PROGRESS_FROM)

        yield tick


def _files(result: Generated, fmt: str) -> dict[str, str]:
    files: dict[str, str] = {}
    for device in result.fabric.devices:
        if device.hostname not in result.configs:
            continue
        if fmt == "json":
            files[f"{device.hostname}.json"] = device.model_dump_json(indent=2) + "\n"
        else:
            files[f"{device.hostname}.cfg"] = result.configs[device.hostname]
    plan = result.fabric.model_dump(mode="json", exclude={"devices"})
    files["fabric.json"] = json.dumps(plan, indent=2, sort_keys=True) + "\n"
    return files


def _summary(result: Generated, output: Path) -> None:
    fabric = result.fabric
    table = Table(title=f"{fabric.name}: {len(result.configs)} switch configs in {output}")
    for col in ("role", "vendor", "model", "switches", "ports", "links", "VLANs"):
        table.add_column(col, justify="left" if col in ("role", "vendor", "model") else "right")
    role_of = {s.hostname: s.role for s in fabric.switches}
    counts: dict[tuple[str, str, str], Counter[str]] = {}
    for d in fabric.devices:
        c = counts.setdefault((d.role, d.vendor.value, d.model), Counter())
        c["switches"] += 1
        c["ports"] += len(d.interfaces)
        c["VLANs"] += len(d.vlans)
    for key, c in sorted(counts.items()):
        links = sum(1 for k in fabric.links if key[0] in (role_of[k.a_device], role_of[k.b_device]))
        table.add_row(*key, str(c["switches"]), str(c["ports"]), str(links), str(c["VLANs"]))
    out.print(table)


@app.command("schema")
def schema_cmd() -> None:
    """Print the intent's JSON Schema (for editor completion and validation)."""
    out.print(json.dumps(Intent.model_json_schema(), indent=2), markup=False)


@app.command("vendors")
def vendors_cmd(
    vendor_dir: VendorDir = None,
    fmt: Annotated[Literal["text", "json"], typer.Option("--format")] = "text",
) -> None:
    """Show, per vendor and template section, whether its syntax is verified and by what."""
    try:
        profiles = load_profiles(overlay_dir(vendor_dir))
    except RoceCfgError as exc:
        _fail(exc)
    rows = [
        (v.value, name, s.status, s.source, s.note)
        for v, p in profiles.items()
        for name, s in p.sections.items()
    ]
    if fmt == "json":
        keys = ("vendor", "section", "status", "source", "note")
        out.print(
            json.dumps([dict(zip(keys, r, strict=True)) for r in rows], indent=2), markup=False
        )
        return
    table = Table(title="Vendor syntax provenance")
    for col in ("vendor", "section", "status", "source / note"):
        table.add_column(col, overflow="fold")
    for vendor, name, status, source, note in rows:
        table.add_row(vendor, name, status, "; ".join(x for x in (source, note) if x))
    out.print(table)


def main() -> None:
    try:
        app()
    except RoceCfgError as exc:  # raised outside a command's own handling
        err.print(f"roce-cfg: error: {exc}", markup=False)
        sys.exit(EXIT_INPUT)


__all__ = ["EXIT_FINDINGS", "EXIT_INPUT", "EXIT_OK", "EXIT_PUSH", "app", "main"]
