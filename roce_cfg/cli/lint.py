"""roce-cfg lint: the findings on running-configs, as text or a machine format."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from roce_cfg.cli.common import (
    counts_line,
    emit_findings,
    err,
    memoised,
    notes_around,
    out,
    parse_cache,
    progress,
    quiet_verdict,
    say_notes,
)
from roce_cfg.cli.options import (
    CableLength,
    Cabling,
    ConfigsDscp,
    FailOn,
    FindingsFormat,
    LintConfig,
    NoCache,
    Quiet,
    RequireVerified,
    VendorDir,
    VendorOption,
)
from roce_cfg.errors import EXIT_FINDINGS, InputError, printable
from roce_cfg.heap import keep_until_exit
from roce_cfg.output import LINT_CONFIG, Shown, emit

if TYPE_CHECKING:
    from roce_cfg.analysis import Finding, LintResult, Options
    from roce_cfg.analysis.findings import Severity
    from roce_cfg.vendor import Vendor

SEVERITY_STYLE = {"error": "bold red", "warning": "yellow", "info": "cyan"}


def lint_cmd(
    paths: Annotated[list[Path], typer.Argument(help="Running-configs, or directories of them.")],
    intent: Annotated[
        Path | None, typer.Option("--intent", help="Also check drift from this intent.")
    ] = None,
    fabric: Annotated[
        Path | None,
        typer.Option("--fabric", help="fabric.json (found automatically in a directory given)."),
    ] = None,
    cable_length: CableLength = None,
    cabling: Cabling = None,
    roce_dscp: ConfigsDscp = None,
    cnp_dscp: Annotated[
        int | None, typer.Option("--cnp-dscp", min=0, max=63, help="Unset: 48.")
    ] = None,
    fmt: FindingsFormat = "text",
    fail_on: FailOn = "error",
    require_verified: RequireVerified = False,
    config: LintConfig = None,
    vendor: VendorOption = None,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Show the arithmetic.")] = False,
    deadlock: Annotated[
        bool, typer.Option("--deadlock", help="Also look for deadlock cycles (RC501).")
    ] = False,
    vendor_dir: VendorDir = None,
    quiet: Quiet = False,
    no_cache: NoCache = False,
) -> None:
    """Check running-configs (or generated ones) for what breaks a lossless RoCE fabric."""
    given = dict(locals())  # every option: the memo's key (a new one joins it by itself)
    memoised(lambda: _lint(**given), given, vendor_dir, Path(LINT_CONFIG))


def _lint(
    paths: list[Path],
    intent: Path | None,
    fabric: Path | None,
    cable_length: str | None,
    cabling: Path | None,
    roce_dscp: int | None,
    cnp_dscp: int | None,
    fmt: str,
    fail_on: Severity,
    require_verified: bool,
    config: Path | None,
    vendor: Vendor | None,
    verbose: bool,
    deadlock: bool,
    vendor_dir: Path | None,
    quiet: bool,
    no_cache: bool,
) -> None:
    from roce_cfg.analysis import lint
    from roce_cfg.inputs import discover
    from roce_cfg.platforms.profile import overlay_dir

    options = _lint_options(cable_length, cabling, roce_dscp, cnp_dscp, deadlock, quiet)
    # Whether a folder's file is a config is judged by the parse that reads it (one read).
    found = discover(paths, vendor, overlay_dir(vendor_dir), screen=False)
    cache = parse_cache(paths, overlay_dir(vendor_dir), no_cache)
    with notes_around(found.notes, quiet), progress("linting") as tick:
        result = lint(
            paths,
            found=found,
            intent=intent,
            fabric=fabric,
            options=options,
            vendor=vendor,
            overlay=overlay_dir(vendor_dir),
            config=config,
            progress=tick,
            cache=cache,
        )
    keep_until_exit(result)  # thousands of parsed configs: not torn down one by one at exit
    _lint_out(result, Shown(fmt, quiet), verbose, (fail_on, require_verified))


def _lint_out(result: LintResult, shown: Shown, verbose: bool, fail: tuple[Severity, bool]) -> None:
    """The findings in the format asked for, and exit 1 on one at least as severe as ``fail``
    says (--fail-on; with --require-verified, any finding that says what could not be checked
    too)."""
    emit_findings(result, shown, lambda: _lint_text(result, verbose))
    if result.failing(*fail):
        quiet_verdict(shown, "lint", counts_line(result))
        raise typer.Exit(EXIT_FINDINGS)


def _lint_options(
    cable_length: str | None,
    cabling: Path | None,
    roce_dscp: int | None,
    cnp_dscp: int | None,
    deadlock: bool,
    quiet: bool = False,
) -> Options:
    """lint's options: cable lengths by role (--cable-length) and per port (--cabling: which
    column it read as what is a note, what it could not read a warning)."""
    from roce_cfg.analysis import Options
    from roce_cfg.analysis.context import parse_cable_lengths
    from roce_cfg.parse.cabling import read_cabling

    try:
        cables = parse_cable_lengths(cable_length) if cable_length is not None else {}
    except ValueError as exc:
        raise InputError(f"--cable-length: {exc}") from None
    if cabling is None:
        return Options(cable_m=cables, roce_dscp=roce_dscp, cnp_dscp=cnp_dscp, deadlock=deadlock)
    plan = read_cabling(cabling)
    say_notes([f"{cabling}: read {plan.read_as}"], quiet)
    for warning in plan.warnings:
        err.print(f"roce-cfg: warning: {printable(warning)}", markup=False)
    return Options(
        cable_m=cables,
        cables=plan.cables,
        speeds=plan.speeds,
        roce_dscp=roce_dscp,
        cnp_dscp=cnp_dscp,
        deadlock=deadlock,
    )


def _lint_text(result: LintResult, verbose: bool) -> None:
    by_device: dict[str, list[Finding]] = {}
    for f in result.findings:
        if not f.suppressed or verbose:
            by_device.setdefault(f.device, []).append(f)
    # Colours are for a terminal; a pipe gets the same text without rich (400,000 findings of
    # a 100,000-port config took 70 s as one rich print each).
    plain: list[str] | None = None if out.is_terminal else []
    for device, findings in by_device.items():
        if plain is not None:
            plain.append(f"{device}  {findings[0].file or ''}\n")
            plain.extend(_finding_text(f, verbose) for f in findings)
            continue
        out.print(f"[bold]{device}[/bold]  {findings[0].file or ''}")
        for f in findings:
            where = f":{f.line}" if f.line else ""
            port = f" {f.port}" if f.port else ""
            far = f" (far end {f.related_device} {f.related_port})" if f.related_device else ""
            style = "dim" if f.suppressed else SEVERITY_STYLE[f.severity]
            out.print(
                f"  [{style}]{f.severity:<7}[/{style}] {f.rule} line{where or ' -'}{port}: ",
                end="",
            )
            out.print(f"{f.message}{far}", markup=False)
            if f.suppressed:
                out.print(f"           suppressed: {f.suppressed}", markup=False, style="dim")
            if verbose:
                for d in f.detail:
                    out.print(f"           {d}", markup=False, style="dim")
    if plain is not None:
        emit("".join(plain))
    if verbose:
        for note in result.notes:
            err.print(f"roce-cfg: note: {printable(note)}", markup=False)
    if result.coverage:
        out.print(result.coverage, markup=False)
    out.print(counts_line(result), markup=False)


def _finding_text(f: Finding, verbose: bool) -> str:
    """One finding's lines as lint prints them (the severity padded to 7 columns)."""
    where = f":{f.line}" if f.line else ""
    port = f" {f.port}" if f.port else ""
    far = f" (far end {f.related_device} {f.related_port})" if f.related_device else ""
    lines = [f"  {f.severity:<7} {f.rule} line{where or ' -'}{port}: {f.message}{far}\n"]
    if f.suppressed:
        lines.append(f"           suppressed: {f.suppressed}\n")
    if verbose:
        lines.extend(f"           {d}\n" for d in f.detail)
    return "".join(lines)
