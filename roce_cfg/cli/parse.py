"""roce-cfg parse: saved running-configs into the vendor-neutral model."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Literal

import typer

from roce_cfg.cli.common import err, notes_around, progress
from roce_cfg.cli.options import VendorDir, VendorOption
from roce_cfg.errors import EXIT_FINDINGS, EXIT_INPUT, InputError, printable
from roce_cfg.output import emit_doc, emit_models
from roce_cfg.vendor import Vendor

if TYPE_CHECKING:
    from roce_cfg.parse import Hints, ParsedConfig


def parse_cmd(
    files: Annotated[list[Path], typer.Argument(help="Saved running-configs, or directories.")],
    vendor: VendorOption = None,
    model: Annotated[
        str | None, typer.Option("--model", help="Switch model (not in configs).")
    ] = None,
    fabric: Annotated[
        Path | None,
        typer.Option("--fabric", help="fabric.json from generate: models, roles, link speeds."),
    ] = None,
    fmt: Annotated[Literal["json", "yaml"], typer.Option("--format")] = "json",
    verbose: Annotated[
        bool, typer.Option("--verbose", "-v", help="List opaque blocks and notes on stderr.")
    ] = False,
    vendor_dir: VendorDir = None,
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="Only check that the files parse: errors only.")
    ] = False,
) -> None:
    """Read saved running-configs into roce-cfg's vendor-neutral model (JSON or YAML)."""

    from roce_cfg.evidence import topology_roles
    from roce_cfg.inputs import discover, parsed_configs
    from roce_cfg.parse import Hints
    from roce_cfg.parse.hints import EarlyPlan, validated_fabric
    from roce_cfg.platforms.profile import overlay_dir

    overlay = overlay_dir(vendor_dir)
    # fabric.json is validated while the workers parse on its hints
    early = EarlyPlan(fabric, validated_fabric) if fabric else None
    hints: Hints | dict[str, Hints] = early.hints if early else Hints(model=model)
    # Whether a folder's file is a config is judged by the parse that reads it (one read).
    found = discover(files, vendor, overlay, screen=False)
    with notes_around(found.notes, quiet), progress("parsing") as tick:
        parsed, failed, read = parsed_configs(
            found,
            vendor,
            hints,
            overlay,
            progress=tick,
            while_parsing=early.validated if early else None,
        )
    if not parsed and not failed:
        err.print("roce-cfg: error: no config files given", markup=False)
        raise typer.Exit(EXIT_INPUT)
    for path in read:
        if vendor is not None:
            _warn_other_vendor(path, vendor, overlay)
    for bad in failed:  # each bad file is reported; the others are still parsed and printed
        err.print(f"roce-cfg: error: {bad}", markup=False)
    if failed and not parsed:
        raise typer.Exit(EXIT_INPUT)
    parsed = topology_roles(parsed)  # roles from the links between the configs read
    if not quiet:
        _parse_out(parsed, fmt, verbose)
    if failed:
        raise typer.Exit(EXIT_FINDINGS)


def _parse_out(parsed: list[ParsedConfig], fmt: Literal["json", "yaml"], verbose: bool) -> None:
    from roce_cfg.parse import FORMAT as PARSE_FORMAT

    for p in parsed:
        _parsed_summary(p, verbose)
    if fmt == "json":
        emit_models({"format": PARSE_FORMAT}, "configs", parsed)
        return
    emit_doc({"format": PARSE_FORMAT, "configs": [p.model_dump(mode="json") for p in parsed]}, fmt)


def _parsed_summary(p: ParsedConfig, verbose: bool) -> None:
    """One config's line on stderr, its notes, its unread lines (and opaque blocks, -v)."""
    d = p.device
    err.print(
        f"{p.source}: {p.vendor.value} ({p.vendor_from}), {d.hostname}, {d.model} "
        f"({p.model_from}), {len(d.interfaces)} ports, {len(p.opaque)} opaque blocks",
        markup=False,
    )
    for note in p.notes:
        err.print(f"roce-cfg: note: {printable(f'{p.source}: {note}')}", markup=False)
    from roce_cfg.parse.accounting import describe

    counts, *listed = describe(p.accounting, verbose)  # every line: read, skipped or unread
    err.print(f"roce-cfg: note: {printable(f'{p.source}: {counts}')}", markup=False)
    for u in p.unread:
        where = f"{p.source}:{u.line}" if u.line else p.source
        err.print(f"roce-cfg: note: {printable(f'{where}: not read: {u.reason}')}", markup=False)
    for text in listed:
        err.print(printable(text), markup=False)
    if verbose:
        for block in p.opaque:
            err.print(f"  opaque {block.line}-{block.end_line}: {block.header}", markup=False)


def _warn_other_vendor(path: Path, vendor: Vendor, overlay: Path | None) -> None:
    from roce_cfg.parse import other_vendor, read_config

    try:  # capped: the whole of a 210 MB file was read here before the parse refused it
        text = read_config(path)
    except InputError:
        return  # the parse says what is wrong with the file
    found = other_vendor(text, vendor, overlay, str(path))
    if found is not None:
        err.print(
            f"roce-cfg: warning: {printable(str(path))}: --vendor {vendor.value} given, but "
            f"the file reads as {found.value}'s; the parse will likely miss most of it",
            markup=False,
        )
