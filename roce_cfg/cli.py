"""Command line: argument parsing and output only; the work is done by the API modules."""

from __future__ import annotations

import contextlib
import json
import os
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

import typer
from rich.table import Table
from typer._click import core as click
from typer.core import TyperGroup

from roce_cfg import __version__
from roce_cfg.errors import InputError, IntentErrors, RoceCfgError, printable
from roce_cfg.heap import before_exit, keep_until_exit, long_lived
from roce_cfg.output import (
    Shown,
    console,
    emit,
    emit_chunks,
    emit_doc,
    emit_json,
    emit_models,
    print_table,
    redact_tracebacks,
    write_all,
    write_file,
)
from roce_cfg.safepath import refused_path
from roce_cfg.vendor import OVERLAY_ENV, Vendor

# Start-up time: every command pays for what this module imports, so netmiko, nornir, asyncssh,
# jinja2, ttp and the pydantic models are imported inside the commands that use them
# (tests/test_startup.py holds the line).
if TYPE_CHECKING:
    from roce_cfg.advise import Demand, Plan
    from roce_cfg.analysis import Finding, LintResult, Options
    from roce_cfg.deadlock.analyse import Report as DeadlockReport
    from roce_cfg.deploy.push import Credentials, Outcome
    from roce_cfg.generate import Written
    from roce_cfg.inputs import Found
    from roce_cfg.model.fabric import Fabric
    from roce_cfg.parse import Hints, ParsedConfig
    from roce_cfg.parse.hints import EarlyPlan
    from roce_cfg.verify.run import Verified

EXIT_OK, EXIT_FINDINGS, EXIT_INPUT, EXIT_PUSH = 0, 1, 2, 3
EXIT_ROLLBACK_FAILED = 4  # a switch is left changed: its rollback failed too
PROGRESS_FROM = 50
PROGRESS_AFTER_S = 1.0


def _report(exc: RoceCfgError) -> int:
    """A user's error, one line per problem (each of an intent's), and its exit code."""
    lines = [e.one_line() for e in exc.errors] if isinstance(exc, IntentErrors) else [str(exc)]
    for line in lines:
        err.print(f"roce-cfg: error: {line}", markup=False)
    return EXIT_INPUT


class _Commands(TyperGroup):
    """Runs the commands; a RoceCfgError any of them raises is reported here, the one place
    (main() runs the app through it, and so do the tests' CliRunner)."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except RoceCfgError as exc:
            raise typer.Exit(_report(exc)) from None
        except OSError as exc:
            if (refused := refused_path(exc)) is None:
                raise
            raise typer.Exit(_report(refused)) from None


app = typer.Typer(
    cls=_Commands,
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    # Plain click help: flags print without a "<bool>" type, and help needs no rich layout.
    rich_markup_mode=None,
    help="Intent -> switch configs, lint and push for lossless RoCEv2 GPU fabrics.",
)
# Every print goes through roce_cfg/output.py's redactor.
out = console(highlight=False, soft_wrap=True)
err = console(stderr=True, highlight=False, soft_wrap=True)

VendorDir = Annotated[
    Path | None,
    typer.Option(
        "--vendor-dir",
        envvar=OVERLAY_ENV,
        help="Overlay with your own templates/<vendor>/sections/*.j2 and vendors/<vendor>.yaml.",
        file_okay=False,
    ),
]


VendorOption = Annotated[
    Vendor | None, typer.Option("--vendor", help="Skip auto-detection.", case_sensitive=False)
]
FindingsFormat = Annotated[Literal["text", "json", "sarif", "junit"], typer.Option("--format")]
# --format and --quiet, one meaning on every command (Shown in roce_cfg/output.py; docs/cli.md).
TextOrJson = Annotated[
    Literal["text", "json"],
    typer.Option("--format", help="text, or one JSON document on stdout (docs/cli.md)."),
]
Quiet = Annotated[
    bool,
    typer.Option(
        "--quiet",
        "-q",
        help="No text on stdout and no notes; errors and warnings on stderr; the exit code says.",
    ),
]
FailLinks = Annotated[
    str | None,
    typer.Option(
        "--fail-links",
        help="'all-single' (every link, one at a time) or links that fail together: "
        "'leaf-1:HundredGigE1/0/25,leaf-2:spine-2'.",
    ),
]
FailDevices = Annotated[
    str | None, typer.Option("--fail-devices", help="Switches that fail together: 'spine-1'.")
]
Scheduler = Annotated[
    str | None,
    typer.Option(
        "--scheduler",
        help="A Dask scheduler (tcp://host:8786) for the failure sweep; unset: a local "
        "cluster (with roce-cfg[dask]).",
    ),
]
SweepState = Annotated[
    Path | None,
    typer.Option("--state", help="Keep the sweep's answers in FILE; a rerun resumes."),
]
MaxFailures = Annotated[
    int, typer.Option("--max-failures", min=1, max=2, help="2: every pair of links.")
]
CableLength = Annotated[
    str | None,
    typer.Option(
        "--cable-length",
        help="Metres where no plan or description says: '30', or per role "
        "'server=3,fabric=30'. Unset: the shortest plausible cable is checked and "
        "the rest reported once per switch (RC206).",
    ),
]
FailOn = Annotated[
    Literal["error", "warning", "info"],
    typer.Option("--fail-on", help="Exit 1 when a finding is at least this severe."),
]
LintConfig = Annotated[
    Path | None, typer.Option("--config", help="Suppressions (default ./.roce-cfg.yaml).")
]
Samples = Annotated[
    int,
    typer.Option("--samples", min=1, max=100_000, help="Pairs to sample when there are more."),
]


def _n(count: int, one: str, many: str | None = None) -> str:
    """``1 error``, ``2 errors``; ``many`` where the plural is not one + s.

    >>> _n(1, "error"), _n(0, "cycle"), _n(2, "switch", "switches")
    ('1 error', '0 cycles', '2 switches')
    """
    return f"{count} {one if count == 1 else many or one + 's'}"


def _print_version(value: bool) -> None:
    if value:
        out.print(f"roce-cfg {__version__}", markup=False)
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option(
            "--version", is_eager=True, callback=_print_version, help="Print the version."
        ),
    ] = False,
) -> None:
    """Intent -> switch configs, lint and push for lossless RoCEv2 GPU fabrics."""


@app.command("generate")
def generate_cmd(
    intent: Annotated[Path, typer.Argument(help="Intent YAML file.")],
    output: Annotated[Path, typer.Option("-o", "--output", help="Directory to write.")],
    only: Annotated[str | None, typer.Option("--only", help="Render one switch.")] = None,
    fmt: Annotated[
        Literal["cfg", "json"],
        typer.Option(
            "--format", help="CLI text, or the model as JSON (and stdout one JSON document)."
        ),
    ] = "cfg",
    strict_syntax: Annotated[
        bool, typer.Option("--strict-syntax", help="Refuse vendor syntax that has no source.")
    ] = False,
    force: Annotated[
        bool,
        typer.Option("--force", help="Replace an output folder that holds other files, whole."),
    ] = False,
    vendor_dir: VendorDir = None,
    quiet: Quiet = False,
) -> None:
    """Write every switch's configuration and fabric.json from one intent."""
    from roce_cfg.generate import write_generated
    from roce_cfg.platforms.profile import overlay_dir
    from roce_cfg.results import generate_doc

    with _progress() as tick:
        result = write_generated(
            intent,
            output,
            fmt=fmt,
            overlay=overlay_dir(vendor_dir),
            only=only,
            strict_syntax=strict_syntax,
            progress=tick,
            force=force,
        )
    for w in result.warnings:
        err.print(
            f"roce-cfg: warning: {w.vendor.value} {w.section}: unverified syntax (no public "
            f"source) on {_n(w.switches, 'switch', 'switches')}; "
            f"{w.note or 'check it before pushing'}",
            markup=False,
        )
    shown = Shown("json" if fmt == "json" else "text", quiet)
    shown.result(lambda: generate_doc(result, output, fmt), lambda: _summary(result, output))


@contextmanager
def _progress(what: str = "rendering") -> Iterator[Callable[[int, int], None]]:
    """A bar on stderr, only when stderr is a terminal (never in pipelines), shown for many items
    or once the stage has run for a second (so quick runs do not flicker)."""
    if not err.is_terminal:
        yield lambda done, total: None
        return
    from rich.progress import Progress

    started = time.monotonic()
    with Progress(console=err, transient=True) as bar:
        task = bar.add_task(what, total=None, visible=False)

        def tick(done: int, total: int) -> None:
            slow = time.monotonic() - started > PROGRESS_AFTER_S
            bar.update(task, completed=done, total=total, visible=total >= PROGRESS_FROM or slow)

        yield tick


def _summary(result: Written, output: Path) -> None:
    from roce_cfg.results import GENERATE_COLUMNS, generate_kinds

    title = f"{result.fabric.name}: {_n(result.files, 'switch config')} in {output}"
    rows = [tuple(str(v) for v in kind.values()) for kind in generate_kinds(result)]
    print_table(out, title, GENERATE_COLUMNS, rows, right=GENERATE_COLUMNS[3:])


def _config_files(
    paths: list[Path], vendor: Vendor | None, overlay: Path | None, fabric: bool = False
) -> list[Path]:
    """Files as given; a directory stands for the switch configs in it (and fabric.json when
    ``fabric``). Other files of a directory are skipped with a one-line notice."""
    from roce_cfg.inputs import config_files

    files, notices = config_files(paths, vendor, overlay, fabric)
    _notes(notices)
    return files


def _notes(notes: list[str], quiet: bool = False) -> None:
    """Discovery's notes on stderr: what a folder held that was not read, and why (not when
    ``quiet``)."""
    for note in [] if quiet else notes:
        err.print(f"roce-cfg: note: {printable(note)}", markup=False)


@contextmanager
def _notes_around(notes: list[str], quiet: bool = False) -> Iterator[None]:
    """``notes`` now, before anything can fail (why a folder's files were not read), and the
    ones added inside the block (files the parse found to be no config) as it ends."""
    _notes(notes, quiet)
    shown = len(notes)
    try:
        yield
    finally:
        _notes(notes[shown:], quiet)


@app.command("parse")
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
    from roce_cfg.inputs import discover
    from roce_cfg.parse import Hints
    from roce_cfg.parse.hints import EarlyPlan, validated_fabric
    from roce_cfg.platforms.profile import overlay_dir

    overlay = overlay_dir(vendor_dir)
    # fabric.json is validated while the workers parse on its hints (_parse_found)
    early = EarlyPlan(fabric, validated_fabric) if fabric else None
    hints: Hints | dict[str, Hints] = early.hints if early else Hints(model=model)
    # Whether a folder's file is a config is judged by the parse that reads it (one read).
    found = discover(files, vendor, overlay, screen=False)
    with _notes_around(found.notes, quiet), _progress("parsing") as tick:
        parsed, failed, read = _parse_found(found, vendor, hints, overlay, tick, early)
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


def _parse_found(
    found: Found,
    vendor: Vendor | None,
    hints: Hints | dict[str, Hints],
    overlay: Path | None,
    tick: Callable[[int, int], None],
    early: EarlyPlan[Fabric] | None,
) -> tuple[list[ParsedConfig], list[RoceCfgError], list[Path]]:
    """The configs of ``found`` parsed (by worker processes when there are many), the errors
    on the files that failed, and the files that were switch configs (read whole). A file of a
    folder that is no config at all becomes a note of ``found``. Errors come as when a serial
    discovery read every file first: the files it could not read or screen, then the parse's."""
    from roce_cfg.inputs import Unread, refused_by_screen, screener
    from roce_cfg.parse.many import Skipped, screen_each

    unread = [u.as_error() for u in found.unread]
    parsed: list[ParsedConfig] = []
    failed: list[RoceCfgError] = []
    read: list[Path] = []
    files = list(found.configs)
    pending = frozenset(found.unscreened)
    screen = screener(vendor, overlay)
    with screen_each(files, vendor, hints, overlay, screen, pending) as outcomes:
        if early is not None:
            early.validated()  # a bad fabric.json: its error, and the workers stop
        for n, (path, out) in enumerate(outcomes, 1):
            tick(n, len(files))
            if isinstance(out, Skipped):
                found.skip(path, out.reason)
            elif isinstance(out, InputError) and refused_by_screen(path, pending, vendor, overlay):
                unread.append(Unread.of(path, out).as_error())
            else:
                read.append(path)
                if isinstance(out, InputError):
                    failed.append(out)
                else:
                    parsed.append(out.config)
    return parsed, unread + failed, read


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

    counts, *listed = describe(p.accounting, verbose)  # every line accounted for (issue 26)
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


SEVERITY_STYLE = {"error": "bold red", "warning": "yellow", "info": "cyan"}


@app.command("lint")
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
    cabling: Annotated[
        Path | None,
        typer.Option("--cabling", help="A cabling plan CSV (as 'docs' writes): cable lengths."),
    ] = None,
    roce_dscp: Annotated[
        int | None,
        typer.Option(
            "--roce-dscp",
            min=0,
            max=63,
            help="Unset: the DSCP the configs map to a no-drop priority, else 26.",
        ),
    ] = None,
    cnp_dscp: Annotated[
        int | None, typer.Option("--cnp-dscp", min=0, max=63, help="Unset: 48.")
    ] = None,
    fmt: FindingsFormat = "text",
    fail_on: FailOn = "error",
    config: LintConfig = None,
    vendor: VendorOption = None,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Show the arithmetic.")] = False,
    deadlock: Annotated[
        bool, typer.Option("--deadlock", help="Also look for deadlock cycles (RC501).")
    ] = False,
    vendor_dir: VendorDir = None,
    quiet: Quiet = False,
) -> None:
    """Check running-configs (or generated ones) for what breaks a lossless RoCE fabric."""
    from roce_cfg.analysis import lint
    from roce_cfg.inputs import discover
    from roce_cfg.platforms.profile import overlay_dir

    options = _lint_options(cable_length, cabling, roce_dscp, cnp_dscp, deadlock)
    # Whether a folder's file is a config is judged by the parse that reads it (one read).
    found = discover(paths, vendor, overlay_dir(vendor_dir), screen=False)
    with _notes_around(found.notes, quiet), _progress("linting") as tick:
        result = lint(paths, found=found, intent=intent, fabric=fabric, options=options,
                      vendor=vendor, overlay=overlay_dir(vendor_dir), config=config,
                      progress=tick)  # fmt: skip
    keep_until_exit(result)  # thousands of parsed configs: not torn down one by one at exit
    shown = Shown(fmt, quiet)
    _emit(result, shown, lambda: _lint_text(result, verbose))
    if result.failing(fail_on):
        _quiet_verdict(shown, "lint", _counts_line(result))
        raise typer.Exit(EXIT_FINDINGS)


def _lint_options(
    cable_length: str | None,
    cabling: Path | None,
    roce_dscp: int | None,
    cnp_dscp: int | None,
    deadlock: bool,
) -> Options:
    """lint's options: cable lengths by role (--cable-length) and per port (--cabling)."""
    from roce_cfg.analysis import Options
    from roce_cfg.analysis.context import parse_cable_lengths
    from roce_cfg.parse.cabling import read_cabling

    try:
        cables = parse_cable_lengths(cable_length) if cable_length is not None else {}
    except ValueError as exc:
        raise InputError(f"--cable-length: {exc}") from None
    planned = read_cabling(cabling) if cabling is not None else {}
    return Options(cable_m=cables, cables=planned, roce_dscp=roce_dscp, cnp_dscp=cnp_dscp,
                   deadlock=deadlock)  # fmt: skip


def _emit(
    result: LintResult,
    shown: Shown,
    text: Callable[[], None],
    command: str = "lint",
    doc: Callable[[], dict[str, Any]] | None = None,
) -> None:
    """Findings in the machine formats lint and deadlock share (``doc``: the command's own
    JSON document), or the command's own text (none when quiet)."""
    from roce_cfg.analysis import report as report_fmt
    from roce_cfg.analysis.registry import rules

    fmt = shown.fmt
    if fmt == "json" and doc is not None:
        emit_json(doc())
    elif fmt == "json":
        emit_chunks(report_fmt.json_chunks(result), kind="json")
    elif fmt == "sarif":
        emit(report_fmt.to_sarif(result, rules(), Path.cwd()), kind="json")
    elif fmt == "junit":
        emit(report_fmt.to_junit(result, command), kind="markup")
    elif shown.text:
        text()


def _quiet_verdict(shown: Shown, command: str, line: str) -> None:
    """--quiet's one line on a failing exit, on stderr, so a CI log says why it stopped."""
    if shown.quiet and shown.fmt == "text":
        err.print(f"roce-cfg: {command}: {line}", markup=False)


def _counts_line(result: LintResult) -> str:
    c = result.counts()
    return (
        f"{_n(c['error'], 'error')}, {_n(c['warning'], 'warning')}, {c['info']} info"
        f" ({c['suppressed']} suppressed) in {_n(len(result.devices), 'config')}"
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
    out.print(_counts_line(result), markup=False)


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


@app.command("deadlock")
def deadlock_cmd(
    source: Annotated[
        Path,
        typer.Argument(help="An intent, a fabric.json beside its configs, or a config folder."),
    ],
    fail_links: FailLinks = None,
    fail_devices: FailDevices = None,
    max_failures: MaxFailures = 1,
    samples: Samples = 2000,
    roce_dscp: Annotated[
        int | None,
        typer.Option(
            "--roce-dscp",
            min=0,
            max=63,
            help="Unset: the intent's, else the DSCP the configs map to a no-drop priority, "
            "else 26.",
        ),
    ] = None,
    fmt: FindingsFormat = "text",
    vendor: VendorOption = None,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Why each hop exists.")] = False,
    svg_file: Annotated[
        Path | None, typer.Option("--svg", help="Draw the fabric and the first cycle (SVG).")
    ] = None,
    html_file: Annotated[
        Path | None, typer.Option("--html", help="One self-contained HTML page with the picture.")
    ] = None,
    vendor_dir: VendorDir = None,
    scheduler: Scheduler = None,
    state: SweepState = None,
    quiet: Quiet = False,
) -> None:
    """Find PFC deadlock cycles in the lossless buffer graph, healthy and after failures."""
    from roce_cfg.analysis.rules_deadlock import deadlock_findings
    from roce_cfg.deadlock import load as load_deadlock_source
    from roce_cfg.deadlock.run import Plan as DeadlockPlan
    from roce_cfg.deadlock.run import run as run_deadlock
    from roce_cfg.platforms.profile import overlay_dir
    from roce_cfg.results import deadlock_doc

    devices = tuple(d.strip() for d in (fail_devices or "").split(",") if d.strip())
    plan = DeadlockPlan(fail_links, devices, max_failures, samples, scheduler,
                        str(state) if state else None)  # fmt: skip
    overlay = overlay_dir(vendor_dir)
    src = load_deadlock_source(source, dscp=roce_dscp, vendor=vendor, overlay=overlay)
    _notes(src.notices, quiet)
    with _progress("failure scenarios") as tick:
        report = run_deadlock(src, plan, tick)
    _notes(report.notes, quiet)
    result = deadlock_findings(src, report)
    shown = Shown(fmt, quiet)
    if fmt == "text":
        _say_unread(result.findings)  # said before the verdict, which covers only the rest
    _pictures(report, svg_file, html_file)
    _emit(result, shown, lambda: _deadlock_text(report, verbose, result), "deadlock",
          lambda: deadlock_doc(report, result))  # fmt: skip
    if result.failing("error"):
        _quiet_verdict(shown, "deadlock", _n(result.counts()["error"], "error finding"))
        raise typer.Exit(EXIT_FINDINGS)


def _pictures(report: DeadlockReport, svg_file: Path | None, html_file: Path | None) -> None:
    """deadlock --svg and --html: the fabric and the first cycle drawn."""
    from roce_cfg.deadlock import picture

    for target, draw in ((svg_file, picture.svg), (html_file, picture.html)):
        if target is not None:
            write_file(target, draw(report))


def _deadlock_text(report: DeadlockReport, verbose: bool, result: LintResult) -> None:
    net = report.net
    if result.coverage:
        out.print(result.coverage, markup=False)
    failures = report.scenarios - 1
    with_failures = f" and {failures} with failures" if failures else ""
    out.print(
        f"{len(net.names)} switches, {len(net.links)} links; checked {report.scenarios} "
        f"scenario{'s' if report.scenarios != 1 else ''} (the healthy fabric{with_failures})",
        markup=False,
    )
    if report.symmetry:
        out.print(report.symmetry, markup=False)
    for k in report.classes:
        if k.cycles:
            out.print(f"{k.pairs:,} pairs like {report.scenario_name(k.scenario)}", markup=False)
    groups = [("healthy fabric", report.baseline)] + [
        (f"after {report.scenario_name(sc)}", cycles) for sc, cycles in report.opened.items()
    ]
    total = 0
    for title, cycles in groups:
        if not cycles:
            continue
        out.print(f"[bold red]{_n(len(cycles), 'deadlock cycle')}[/bold red] {title}:")
        for c in cycles:
            total += 1
            out.print(f"  {report.chain(c)}", markup=False)
            if verbose:
                for node, cause in zip(c.nodes, c.causes, strict=True):
                    out.print(f"      {report.node_name(node)}: {cause}", markup=False)
    if report.baseline and report.survived:
        # A failure can break a healthy-fabric cycle as well as open new ones: say which stay.
        every = set(range(len(report.baseline)))
        for kept in report.survived.values():
            every &= set(kept)
        out.print(
            f"healthy-fabric cycles that survive every checked failure: {len(every)} of "
            f"{len(report.baseline)}",
            markup=False,
        )
        broken = [(sc, k) for sc, k in report.survived.items() if len(k) < len(report.baseline)]
        for sc, kept in broken[:20]:
            out.print(
                f"  after {report.scenario_name(sc)}: {len(kept)} of {len(report.baseline)} "
                "survive",
                markup=False,
            )
        if len(broken) > 20:
            out.print(f"  ... and {len(broken) - 20} more failures that break some", markup=False)
    _deadlock_verdict(result, total)


def _deadlock_verdict(result: LintResult, total: int) -> None:
    """The last lines: what could not be verified, and never an all-clear about switches not
    read (RC001) or a fabric not seen whole (RC311-RC314, issue 26)."""
    unread = sum(f.rule == "RC001" for f in result.findings)
    gaps = [f for f in result.findings if f.rule not in ("RC501", "RC502", "RC001")]
    for f in gaps:
        out.print(f"{f.device}:{f.line or '-'} {f.rule} {f.message}", markup=False)
    if total == 0 and unread:
        out.print(f"no deadlock cycle among the switches read; {_n(unread, 'config')} not read "
                  "(RC001); exit 1", markup=False)  # fmt: skip
    elif total == 0 and gaps:
        out.print(f"no deadlock cycle among the links found; {_n(len(gaps), 'gap')} cannot be "
                  "verified; exit 1", markup=False)  # fmt: skip
    elif total == 0:
        out.print("no deadlock cycle", markup=False)
    else:
        out.print(f"{_n(total, 'cycle')}; exit 1", markup=False)


@app.command("docs")
def docs_cmd(
    intent: Annotated[Path, typer.Argument(help="Intent YAML (or a generated folder).")],
    output: Annotated[Path, typer.Option("-o", "--output", help="Directory to write.")],
    fmt: TextOrJson = "text",
    quiet: Quiet = False,
) -> None:
    """Hand-over documents: fabric and per-switch Markdown, and the cabling plan as CSV."""
    from roce_cfg.report import markdown as markdown_docs
    from roce_cfg.report.data import gather as gather_report
    from roce_cfg.results import docs_doc

    data = gather_report(intent)
    files = markdown_docs.documents(data)
    write_all(output, files)
    shown = Shown(fmt, quiet)
    shown.result(
        lambda: docs_doc(output, list(files), data.findings),
        lambda: out.print(
            f"{len(files)} files in {output} (index.md, cabling.csv, one page per switch)",
            markup=False,
        ),
    )
    _unread_exit(data.notes, data.findings, shown)


def _unread_exit(notes: list[str], findings: list[Finding], shown: Shown) -> None:
    """docs and report of a folder: the skipped files' notes, and exit 1 when a config could
    not be read (RC001: the documents leave that switch out)."""
    _notes(notes, shown.quiet)
    if _say_unread(findings):
        raise typer.Exit(EXIT_FINDINGS)


def _say_unread(findings: list[Finding]) -> bool:
    """The RC001 findings (configs not read) as error lines on stderr; whether there were any."""
    unread = [f for f in findings if f.rule == "RC001"]
    for f in unread:
        where = f"{f.file}:{f.line}" if f.line else f.file
        err.print(f"roce-cfg: error: {printable(f'{where}: {f.message}')}", markup=False)
    return bool(unread)


@app.command("report")
def report_cmd(
    source: Annotated[Path, typer.Argument(help="An intent, or a folder of configs.")],
    output: Annotated[Path, typer.Option("-o", "--output", help="The HTML file to write.")],
    fail_links: Annotated[
        str | None,
        typer.Option("--fail-links", help="Deadlock scenarios to include (see deadlock)."),
    ] = None,
    verify_result: Annotated[
        Path | None, typer.Option("--verify", help="A 'verify --format json' result to show.")
    ] = None,
    round_trip: Annotated[
        bool,
        typer.Option(
            "--round-trip",
            help="An intent's configs: parse the rendered text back and lint that, instead of "
            "the switches as designed (a self-check; much slower at scale).",
        ),
    ] = False,
    fmt: TextOrJson = "text",
    quiet: Quiet = False,
) -> None:
    """One self-contained HTML report: topology, findings, deadlock cycles, buffers."""
    from roce_cfg.deadlock.run import Plan as DeadlockPlan
    from roce_cfg.output import write_file
    from roce_cfg.report import html as html_report
    from roce_cfg.report.data import gather as gather_report
    from roce_cfg.results import report_doc
    from roce_cfg.verify.report import load_result

    live = load_result(verify_result) if verify_result is not None else []
    # one indeterminate spinner: gathering is design or parse + lint + deadlock in one call
    with err.status("building the report") if err.is_terminal else contextlib.nullcontext():
        data = gather_report(source, DeadlockPlan(fail_links=fail_links), round_trip=round_trip)
        data.findings.extend(live)  # verify's findings flag their switches and links too
        with long_lived():
            write_file(output, html_report.render(data))
    keep_until_exit(data)
    shown = Shown(fmt, quiet)
    shown.result(
        lambda: report_doc(output, data),
        lambda: out.print(f"wrote {output} ({output.stat().st_size / 1024:.0f} KB)", markup=False),
    )
    _unread_exit(data.notes, data.findings, shown)


def _credentials() -> Credentials:
    """From ROCE_CFG_USERNAME / ROCE_CFG_PASSWORD, or asked for on a terminal; never stored."""
    from roce_cfg.deploy.push import Credentials
    from roce_cfg.envvars import PASSWORD_ENV, USER_ENV

    user = os.environ.get(USER_ENV)
    password = os.environ.get(PASSWORD_ENV)
    if user is None or password is None:
        if not sys.stdin.isatty():
            raise InputError(f"set {USER_ENV} and {PASSWORD_ENV} (no terminal to ask on)")
        user = user or typer.prompt("switch username")
        password = password or typer.prompt("switch password", hide_input=True)
    return Credentials(user, password)


VerifyAfter = Annotated[
    Literal["off", "live"],
    typer.Option("--verify", help="live: after --apply, 'roce-cfg verify' what changed."),
]
ConfirmTimeout = Annotated[
    int | None,
    typer.Option(
        "--confirm-timeout",
        min=1,
        max=86400,
        help="Seconds: apply under the switch's own confirm timer (VRP commit trial, "
        "Comware commit delay), confirm after verifying; a lost session reverts by itself.",
    ),
]


@app.command("push")
def push_cmd(
    configs: Annotated[Path, typer.Argument(help="Folder of intended configs (from generate).")],
    inventory: Annotated[Path, typer.Option("--inventory", "-i", help="Hosts (nornir shape).")],
    apply: Annotated[
        bool, typer.Option("--apply", help="Change the switches (default: dry run).")
    ] = False,
    workers: Annotated[int, typer.Option("--workers", min=1, max=200)] = 10,
    limit: Annotated[str | None, typer.Option("--limit", help="Hosts matching a glob.")] = None,
    batch: Annotated[
        str, typer.Option("--batch", help="Canary batches, e.g. '1,10%,100%'; stops at a failure.")
    ] = "100%",
    prune: Annotated[
        bool,
        typer.Option(
            "--prune", help="Also remove peers, VLANs, networks of managed kinds not in the intent."
        ),
    ] = False,
    timeouts: Annotated[
        str,
        typer.Option(
            "--timeouts",
            help="Seconds per step, e.g. 'connect=5,prompt=10' (steps: connect, banner, auth, "
            "prompt, command; defaults 10, 15, 15, 20, 120).",
        ),
    ] = "",
    verify_after: VerifyAfter = "off",
    vendor_dir: VendorDir = None,
    confirm_timeout: ConfirmTimeout = None,
    strict_syntax: Annotated[
        bool,
        typer.Option(
            "--strict-syntax",
            help="Send nothing to a switch whose change would type a negation no source "
            "documents (an unsourced undo form, or none at all): it fails as unsourced-undo.",
        ),
    ] = False,
    fmt: TextOrJson = "text",
    quiet: Quiet = False,
) -> None:
    """Diff running configs with intended ones; --apply pushes, verifies, rolls back failures."""
    from roce_cfg.deploy import fanout
    from roce_cfg.deploy.inventory import load as load_inventory
    from roce_cfg.deploy.transport import Timeouts
    from roce_cfg.platforms.profile import overlay_dir

    steps = Timeouts.parse(timeouts)
    targets = load_inventory(inventory, overlay_dir(vendor_dir), limit)
    creds = _credentials()
    with _progress("pushing") as tick:
        outcomes = fanout.run(
            targets, configs, creds, apply=apply, workers=workers, batch=batch,
            prune=prune, progress=tick, timeouts=steps, confirm=confirm_timeout,
            on_batch=_batch_line if batch != "100%" else None, strict=strict_syntax,
        )  # fmt: skip
    shown = Shown(fmt, quiet)
    live = verify_after == "live" and apply
    _push_finish(shown, outcomes, len(targets) - len(outcomes), apply, prune,
                 lambda: _verify_live(live, configs, targets, outcomes, creds, steps))  # fmt: skip


def _push_finish(
    shown: Shown,
    outcomes: list[Outcome],
    skipped: int,
    apply: bool,
    prune: bool,
    verify: Callable[[], Verified | None],
) -> None:
    """push's output (the text report as soon as the push ends; the JSON document after
    --verify live, which it includes) and exit code: 4 a rollback failed, 3 a switch failed
    or was not attempted, 1 verify found something after a clean push."""
    from roce_cfg.deploy.push import FAILED as PUSH_FAILED
    from roce_cfg.deploy.report import document
    from roce_cfg.verify.report import render, text_report

    if shown.text:
        _push_report(outcomes, apply, prune)
        if skipped:
            out.print(f"{_n(skipped, 'switch', 'switches')} not attempted: an earlier batch "
                      "failed", markup=False)  # fmt: skip
    code = EXIT_ROLLBACK_FAILED if any(o.status == "rollback-failed" for o in outcomes) else 0
    if not code and (skipped or any(o.status in PUSH_FAILED for o in outcomes)):
        code = EXIT_PUSH
    verified = None if code else verify()
    if shown.json:
        doc = document(outcomes, apply, prune, skipped)
        if verified is not None:
            doc["verify"] = json.loads(render(verified, "json", Path.cwd())[0])
        emit_json(doc)
    elif verified is not None and shown.text:
        out.print("# verify (live) of the changed switches:", markup=False)
        emit(text_report(verified))
    if not code and verified is not None and verified.result.failing("error"):
        code = EXIT_FINDINGS
    if code:
        counts = Counter(o.status for o in outcomes)
        _quiet_verdict(shown, "push", ", ".join(f"{n} {k}" for k, n in sorted(counts.items())))
        raise typer.Exit(code)


def _verify_live(
    wanted: bool,
    configs: Path,
    targets: list[Any],
    outcomes: list[Outcome],
    creds: Credentials,
    steps: Any,
) -> Verified | None:
    """push --verify live (after --apply): verify's checks, sourced display data only, on the
    switches push changed."""
    from roce_cfg.verify.run import Settings, after_push

    if not wanted:
        return None
    changed = {o.host for o in outcomes if o.status == "changed"}
    return after_push(configs, targets, changed, creds, Settings(steps=steps))


def _batch_line(number: int, of: int, outcomes: list[Outcome]) -> None:
    """One stderr line per finished canary batch: where it ended and how its switches went."""
    counts = Counter(o.status for o in outcomes)
    results = ", ".join(f"{n} {status}" for status, n in sorted(counts.items()))
    names = ", ".join(o.host for o in outcomes[:5]) + (", ..." if len(outcomes) > 5 else "")
    err.print(
        f"batch {number}/{of}: {_n(len(outcomes), 'switch', 'switches')} ({names}): {results}",
        markup=False,
    )


def _push_report(outcomes: list[Outcome], apply: bool, prune: bool) -> None:
    from roce_cfg.deploy.push import FAILED as PUSH_FAILED

    out.print(
        "# --prune: peers, VLANs and networks of managed kinds that the intent does not name "
        "are removed" if prune else "# unmanaged lines are left alone (--prune removes objects "
        "of managed kinds that the intent does not name)",
        markup=False,
    )  # fmt: skip
    for o in outcomes:
        if o.diff and not apply:
            out.print(o.diff, markup=False, end="")
            out.print(f"# {o.host}: {len(o.commands)} commands", markup=False)
            for c in o.commands:
                out.print(f"  {c}", markup=False)
        if o.pruned:
            out.print(f"# {o.host}: {len(o.pruned)} removed by --prune", markup=False)
            for c in o.pruned:
                out.print(f"  {c}", markup=False)
        if o.unsourced:
            out.print(
                f"# {o.host}: {len(o.unsourced)} negations no source documents (an undo form "
                "graded unsourced, or none at all; vendors/<vendor>.grammar.yaml):",
                markup=False,
            )
            for c in o.unsourced:
                out.print(f"  {c}", markup=False)
    table = Table(title=f"push {'(applied)' if apply else '(dry run: nothing sent)'}")
    for col in ("switch", "result", "commands", "seconds", "error"):
        table.add_column(col, overflow="fold")
    for o in outcomes:
        style = "red" if o.status in PUSH_FAILED else "green" if o.status == "changed" else ""
        status = f"{o.status} ({o.kind})" if o.kind and o.status == "failed" else o.status
        table.add_row(o.host, f"[{style}]{status}[/{style}]" if style else status,
                      str(len(o.commands)), f"{o.seconds:.1f}", o.error)  # fmt: skip
    out.print(table)
    for o in outcomes:
        if o.status == "rolled back" and o.restore:  # issue 29: how, and that it was checked
            out.print(f"# {o.host}: rolled back ({o.restore}); running and saved config "
                      "compared whole with the snapshot: the same", markup=False)  # fmt: skip
        if o.status == "rollback-failed":
            out.print(f"# {o.host}: rollback failed; left on the switch:", markup=False)
            for line in o.left:
                out.print(f"  {line}", markup=False)


@app.command("verify")
def verify_cmd(
    source: Annotated[
        Path,
        typer.Argument(help="The plan: an intent, or a generated folder (fabric.json, configs)."),
    ],
    inventory: Annotated[Path, typer.Option("--inventory", "-i", help="Hosts (nornir shape).")],
    window: Annotated[
        str, typer.Option("--window", help="Read counters twice, this far apart (30s, 500ms).")
    ] = "0",
    skip: Annotated[
        str, typer.Option("--skip", help="Checks not to run, e.g. 'queue,watchdog,counters'.")
    ] = "",
    unsourced: Annotated[
        bool, typer.Option("--unsourced", help="Also use display formats no source backs.")
    ] = False,
    storm_pps: Annotated[
        float, typer.Option("--storm-pps", min=1, help="Pauses received per second = a storm.")
    ] = 1000.0,
    workers: Annotated[int, typer.Option("--workers", min=1, max=200)] = 10,
    limit: Annotated[str | None, typer.Option("--limit", help="Hosts matching a glob.")] = None,
    timeouts: Annotated[str, typer.Option("--timeouts", help="As for push.")] = "",
    fmt: FindingsFormat = "text",
    fail_on: FailOn = "error",
    vendor_dir: VendorDir = None,
    quiet: Quiet = False,
) -> None:
    """Check what the switches report (LLDP, links, BGP, PFC, ECN, counters) against the plan;
    read-only: display commands only."""
    from roce_cfg.deploy.inventory import load as load_inventory
    from roce_cfg.deploy.transport import Timeouts
    from roce_cfg.platforms.profile import overlay_dir
    from roce_cfg.verify import run as verify_run
    from roce_cfg.verify.checks import Options
    from roce_cfg.verify.report import render

    overlay = overlay_dir(vendor_dir)
    settings = verify_run.Settings(
        verify_run.parse_window(window), verify_run.parse_skip(skip), unsourced, workers,
        Timeouts.parse(timeouts), Options(storm_pps=storm_pps), overlay,
    )  # fmt: skip
    plan = verify_run.load_plan(source, overlay)
    targets = load_inventory(inventory, overlay, limit)
    creds = _credentials()
    with _progress("verifying") as tick:
        verified = verify_run.verify(plan, targets, creds, settings, progress=tick)
    shown = Shown(fmt, quiet)
    text, kind = render(verified, fmt, Path.cwd())
    if not shown.quiet or fmt != "text":
        emit(text, kind=kind)
    if verified.result.failing(fail_on):
        _quiet_verdict(shown, "verify", _counts_line(verified.result))
        raise typer.Exit(EXIT_FINDINGS)


LabLenient = Annotated[
    bool,
    typer.Option(
        "--lenient",
        help="Accept lines no vendor grammar entry knows (unknown-but-plausible) instead of "
        "refusing them; wrong views, parameters and undo forms are still refused.",
    ),
]
LabStrict = Annotated[
    bool,
    typer.Option(
        "--strict-syntax",
        help="Refuse the commands the vendor grammar grades unsourced (Ruijie and ZTE lossless "
        "guesses) instead of accepting them.",
    ),
]
LENIENT_NOTE = (
    '"lenient" mode: lines no vendor grammar knows are accepted as typed; a real switch may '
    "refuse them"
)


LabFault = Annotated[
    list[str] | None,
    typer.Option(
        "--fault",
        help="HOST:KIND[=VALUE], repeatable: reject=REGEX, drop-after=N, drop-on=REGEX, "
        "delay=SECONDS, hang-on=REGEX, refuse-login, save-error, commit-error, "
        "not-applied=REGEX; live state for verify: link-down=PORT, pfc-storm=PORT, ... "
        "(docs/verify.md).",
    ),
]


@app.command("lab")
def lab_cmd(
    intent: Annotated[Path, typer.Option("--intent", help="The fabric whose switches to emulate.")],
    inventory_out: Annotated[
        Path, typer.Option("--inventory-out", help="Write a matching inventory here.")
    ],
    start: Annotated[
        str, typer.Option("--start", help="empty, intended, or a folder of saved configs.")
    ] = "empty",
    lenient: LabLenient = False,
    strict_syntax: LabStrict = False,
    vendor_dir: VendorDir = None,
    fault: LabFault = None,
    fmt: TextOrJson = "text",
) -> None:
    """Run one SSH switch emulator per switch on 127.0.0.1 until interrupted (Ctrl-C, SIGINT or
    SIGTERM). With --vendor-dir the emulators accept your overlay's syntax."""
    try:
        from roce_cfg.lab.run import start as start_lab
        from roce_cfg.lab.run import unsourced_note
    except ModuleNotFoundError as exc:  # asyncssh comes with the 'lab' extra only
        err.print(
            f"roce-cfg: error: roce-cfg lab needs {exc.name}: pip install 'roce-cfg[lab]'",
            markup=False,
        )
        raise typer.Exit(EXIT_INPUT) from None
    from roce_cfg.platforms.profile import overlay_dir

    creds = _credentials()
    lab, text = start_lab(
        intent,
        start,
        creds.username,
        creds.password,
        lenient=lenient,
        overlay=overlay_dir(vendor_dir),
        strict=strict_syntax,
        faults=fault or [],
    )

    def ready() -> None:
        write_file(inventory_out, text)
        notes = [n for n in (unsourced_note(lab.switches), LENIENT_NOTE if lenient else None,
                             *lab.notes) if n]  # fmt: skip
        if fmt == "json":  # one document when the emulators listen, for a script to wait on
            from roce_cfg.results import lab_doc

            emit_json(lab_doc(lab, inventory_out, notes))
            sys.stdout.flush()
            return
        out.print(
            f"{len(lab.endpoints)} emulated switches on 127.0.0.1; inventory in {inventory_out}. "
            "Ctrl-C stops them.",
            markup=False,
        )
        for note in notes:
            out.print(note, markup=False)

    from roce_cfg.lab.run import serve

    serve(lab, ready)


@app.command("rules")
def rules_cmd(fmt: TextOrJson = "text") -> None:
    """List the lint rules: ID, name, severity, scope."""
    from roce_cfg import rulebook
    from roce_cfg.results import rules_doc

    all_rules = rulebook.load()
    if fmt == "json":
        emit_json(rules_doc(all_rules))
        return
    rows = [(r["id"], r["name"], r["severity"], r["scope"], r["summary"]) for r in all_rules]
    print_table(out, "roce-cfg lint rules", ("ID", "name", "severity", "scope", "what"), rows)


@app.command("explain")
def explain_cmd(
    rule_id: Annotated[str, typer.Argument(help="A rule ID such as RC201.")],
    fmt: TextOrJson = "text",
) -> None:
    """Explain one lint rule: why it matters, how to fix it, what it cannot check."""
    from roce_cfg import rulebook
    from roce_cfg.results import explain_doc

    found = {r["id"]: r for r in rulebook.load()}.get(rule_id.upper())
    if found is None:
        err.print(f"roce-cfg: error: no rule {rule_id} (see roce-cfg rules)", markup=False)
        raise typer.Exit(EXIT_INPUT)
    if fmt == "json":
        emit_json(explain_doc(found))
        return
    out.print(
        f"{found['id']} {found['name']} ({found['severity']}, {found['scope']})", markup=False
    )
    out.print(found["summary"], markup=False)
    out.print(f"\nWhy: {found['rationale']}", markup=False)
    out.print(f"\nFix: {found['fix']}", markup=False)
    if found["limits"]:
        out.print(f"\nLimits: {found['limits']}", markup=False)


@app.command("schema")
def schema_cmd(
    of: Annotated[
        Literal["intent", "parse"],
        typer.Option("--of", help="intent: the intent YAML; parse: roce-cfg parse's JSON."),
    ] = "intent",
) -> None:
    """Print a JSON Schema: the intent's (editor completion) or the parse output's."""
    from roce_cfg.intent.models import Intent
    from roce_cfg.parse import FORMAT as PARSE_FORMAT
    from roce_cfg.parse import ParsedConfig

    if of == "parse":
        schema = ParsedConfig.model_json_schema()
        doc = {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": "roce-cfg parse output",
            "type": "object",
            "required": ["format", "configs"],
            "properties": {
                "format": {"const": PARSE_FORMAT},
                "configs": {"type": "array", "items": {"$ref": "#/$defs/ParsedConfig"}},
            },
            "$defs": {**schema.pop("$defs", {}), "ParsedConfig": schema},
        }
        emit(json.dumps(doc, indent=2) + "\n", kind="json")
        return
    emit(json.dumps(Intent.model_json_schema(), indent=2) + "\n", kind="json")


@app.command("vendors")
def vendors_cmd(
    vendor_dir: VendorDir = None,
    fmt: Annotated[Literal["text", "json", "markdown"], typer.Option("--format")] = "text",
) -> None:
    """Show, per vendor and template section, whether its syntax is verified and by what: the
    profile's claim, lowered to what the vendor grammar's commands support per model, and how
    many of the grammar's commands are sourced, partial or unsourced."""
    from roce_cfg.grammar import STATUSES
    from roce_cfg.platforms.profile import overlay_dir
    from roce_cfg.platforms.provenance import detail, markdown, provenance

    rows, totals = provenance(overlay_dir(vendor_dir))
    if fmt == "json":
        from roce_cfg.results import vendors_doc

        emit_json(vendors_doc(rows, totals))
        return
    if fmt == "markdown":
        out.print(markdown(rows, totals), markup=False, soft_wrap=True)
        return
    cells = [
        (str(r["vendor"]), str(r["section"]), str(r["status"]),
         "/".join(str(r["commands"][k]) for k in STATUSES), detail(r))
        for r in rows
    ]  # fmt: skip
    columns = ("vendor", "section", "status", "commands s/p/u", "source / note / per model")
    print_table(out, "Vendor syntax provenance", columns, cells)
    keys = (*STATUSES, *(f"undo {k}" for k in (*STATUSES, "none")))
    print_table(
        out,
        "Vendor grammar: commands and their undo forms, sourced / partial / unsourced",
        ("vendor", *keys),
        [(vendor, *(str(total[k]) for k in keys)) for vendor, total in totals.items()],
        right=keys,
    )


@app.command("models")
def models_cmd(
    vendor: Annotated[str | None, typer.Option("--vendor", help="Only this vendor.")] = None,
    fmt: TextOrJson = "text",
    vendor_dir: VendorDir = None,
) -> None:
    """Every switch model in the vendor profiles (and overlay): ports, buffer, no-drop, source."""
    from roce_cfg.advise import models_table, port_map
    from roce_cfg.platforms.profile import load_profiles, overlay_dir

    rows = models_table(load_profiles(overlay_dir(vendor_dir)))
    if vendor is not None:
        rows = [r for r in rows if r["vendor"] == vendor.lower()]
        if not rows:
            raise InputError(f"no models for vendor '{vendor}'", path="--vendor")
    if fmt == "json":
        from roce_cfg.results import models_doc

        emit_json(models_doc(rows))
        return
    cells = []
    for r in rows:
        buf = f"{r['buffer_bytes'] / 2**20:.0f} MiB" if r["buffer_bytes"] else "not published"
        name = str(r["model"]) + (" (default)" if r["default"] else "")
        cells.append(
            (str(r["vendor"]), name, port_map(r), buf, str(r["max_no_drop"]), str(r["source"]))
        )
    columns = ("vendor", "model", "ports", "buffer", "no-drop", "source")
    print_table(out, "Switch models", columns, cells)


@app.command("pipeline")
def pipeline_cmd(
    stage: Annotated[
        Literal["generate", "lint", "deadlock", "plan", "apply", "all"],
        typer.Argument(help="One stage, or all (every stage but apply)."),
    ],
    intent: Annotated[Path, typer.Argument(help="The intent YAML.")],
    inventory: Annotated[Path, typer.Argument(help="The push inventory.")],
    work: Annotated[Path, typer.Argument(help="Where the artifacts go.")] = Path("pipeline-out"),
    batch: Annotated[
        str, typer.Option("--batch", envvar="ROCE_CFG_BATCH", help="apply's canary batches.")
    ] = "1,10%,100%",
    fmt: TextOrJson = "text",
    quiet: Quiet = False,
) -> None:
    """A config repository's CI, one stage per call: generate, lint (lint.sarif), deadlock
    what-ifs (deadlock.xml), push dry run (push-plan.txt), approved apply (docs/pipeline.md)."""
    from roce_cfg import pipeline
    from roce_cfg.results import pipeline_doc

    shown = Shown(fmt, quiet)
    # its stage line on stdout as text; beside a JSON document or quiet, on stderr
    say = (out if shown.text else err).print
    job = pipeline.Job(intent, inventory, work, batch, say=lambda s: say(s, markup=False),
                       echo=shown.text)  # fmt: skip
    ran: list[tuple[str, int]] = []
    rc = pipeline.run(stage, job, ran)
    if shown.json:
        emit_json(pipeline_doc(stage, work, ran))
    if rc:
        raise typer.Exit(rc)


@app.command("plan")
def plan_cmd(
    gpus: Annotated[int | None, typer.Option("--gpus", help="GPUs (one NIC each).")] = None,
    servers: Annotated[int | None, typer.Option("--servers", help="Servers.")] = None,
    nics: Annotated[int, typer.Option("--nics", help="NICs (rails) per server.")] = 8,
    nic_speed: Annotated[
        str, typer.Option("--nic-speed", help="NIC speed: 400G, 400g, 400Gb or 400 (Gb/s).")
    ] = "400G",
    pcie_gen: Annotated[int, typer.Option("--pcie-gen", min=3, max=6)] = 5,
    pcie_lanes: Annotated[int, typer.Option("--pcie-lanes", min=1, max=16)] = 16,
    leaf: Annotated[
        list[str] | None, typer.Option("--leaf", help="Allowed leaf vendor or vendor:model.")
    ] = None,
    spine: Annotated[
        list[str] | None, typer.Option("--spine", help="Allowed spine vendor or vendor:model.")
    ] = None,
    oversub: Annotated[float, typer.Option("--oversubscription", min=1.0)] = 1.0,
    in_rack: Annotated[float, typer.Option("--in-rack-m", help="In-rack cable, m.")] = 3.0,
    in_row: Annotated[float, typer.Option("--in-row-m", help="In-row cable, m.")] = 30.0,
    between: Annotated[float, typer.Option("--between-rows-m", help="Row-to-row, m.")] = 100.0,
    prices: Annotated[
        Path | None, typer.Option("--prices", help="YAML of your unit prices (model/cable/optic).")
    ] = None,
    write: Annotated[
        Path | None, typer.Option("--write", help="Write the best feasible plan as an intent.")
    ] = None,
    fmt: TextOrJson = "text",
    show_all: Annotated[
        bool, typer.Option("--all", help="Also list the infeasible plans, with the reason.")
    ] = False,
    quiet: Quiet = False,
    vendor_dir: VendorDir = None,
) -> None:
    """Candidate fabric plans for a GPU demand, best first; --write the best as an intent."""
    from roce_cfg import advise
    from roce_cfg.intent.models import speed_number
    from roce_cfg.platforms.profile import load_profiles, overlay_dir

    try:  # the forms the intent takes (400G, 400g, 400Gb, 400)
        speed = speed_number(nic_speed)
    except ValueError as exc:
        raise InputError(str(exc), path="--nic-speed") from None
    demand = advise.Demand.of(
        gpus, servers, nics=nics, nic_speed=speed, pcie_gen=pcie_gen, pcie_lanes=pcie_lanes,
        oversubscription=oversub, in_rack_m=in_rack, in_row_m=in_row, between_rows_m=between,
    )  # fmt: skip
    price_table = advise.load_prices(prices) if prices is not None else None
    plans = advise.plan(demand, load_profiles(overlay_dir(vendor_dir)), leaf=leaf, spine=spine,
                        prices=price_table)  # fmt: skip
    _plan_out(demand, plans, write, fmt, quiet=quiet, show_all=show_all)


def _plan_out(
    demand: Demand,
    plans: list[Plan],
    write: Path | None,
    fmt: str,
    *,
    quiet: bool,
    show_all: bool,
) -> None:
    """--write the best plan; the plans as JSON or a table (none when ``quiet``); then which
    plan was written, and where (on stderr when stdout carries JSON)."""
    from roce_cfg import advise

    chosen = advise.best(plans) if write is not None else None
    if write is not None and chosen is not None:
        import yaml

        write_file(write, yaml.safe_dump(advise.intent_for(demand, chosen), sort_keys=False))
    if fmt == "json":
        from roce_cfg.results import plan_doc

        wrote = (plans.index(chosen) + 1, write) if chosen is not None and write else None
        emit_json(plan_doc(demand, plans, wrote))
    elif not quiet:
        title = f"Plans for {demand.servers} servers x {demand.nics} x {demand.nic_speed}G"
        _plan_table(title, plans, show_all)
    if chosen is not None:
        number = plans.index(chosen) + 1
        said = (
            f"wrote plan {number} ({chosen.kind}: {advise.plan_row(chosen, number)[2]}) to {write}"
        )
        emit(said + "\n", stderr=fmt == "json" or quiet)
    if not any(p.feasible for p in plans):  # a negative answer, as lint's finding is: exit 1
        err.print("roce-cfg: plan: no feasible plan (--all says why)"
                  + ("; nothing written" if write is not None else ""), markup=False)  # fmt: skip
        raise typer.Exit(EXIT_FINDINGS)


def _plan_table(title: str, plans: list[Plan], show_all: bool) -> None:
    """Feasible plans (all with --all), numbered by rank; then PCIe, ECMP and trust notes."""
    from roce_cfg import advise

    shown = [(i, p) for i, p in enumerate(plans, 1) if p.feasible or show_all]
    rows = [advise.plan_row(p, i) for i, p in shown]
    print_table(out, title, advise.PLAN_COLUMNS, rows)
    hidden = len(plans) - len(shown)
    if hidden:
        out.print(f"{_n(hidden, 'infeasible plan')} not shown (--all lists them)", markup=False)
    if not plans:
        return
    out.print(f"PCIe: {plans[0].pcie_fit}", markup=False)
    for note in plans[0].notes:
        out.print(f"ECMP: {note}", markup=False)
    if plans[0].unsourced:
        out.print(
            "syntax: plan 1's lossless commands have no public source ("
            + "; ".join(plans[0].unsourced)
            + "): generate warns, and the lab checks them against roce-cfg's own guess",
            markup=False,
        )


def main() -> None:
    # typer vendors click as typer._click (the exceptions are not re-exported); tests/test_cli
    # runs a bad option in a real process, so a move there fails the suite, not a user.
    from typer._click.exceptions import ClickException, NoArgsIsHelpError, UsageError

    redact_tracebacks()
    try:
        # Not standalone: click would print a bad option as four lines (usage, hint, blank,
        # error); every other bad input is one line naming the field, so options are too.
        code = app(standalone_mode=False)
    except RoceCfgError as exc:  # raised before a command runs (an option's own callback)
        sys.exit(_report(exc))
    except NoArgsIsHelpError as exc:
        exc.show()  # 'roce-cfg' alone: the help, as click prints it
        sys.exit(EXIT_INPUT)
    except UsageError as exc:
        where = exc.ctx.command_path if exc.ctx else "roce-cfg"
        err.print(f"roce-cfg: error: {exc.format_message()} (see '{where} --help')", markup=False)
        sys.exit(EXIT_INPUT)
    except ClickException as exc:
        err.print(f"roce-cfg: error: {exc.format_message()}", markup=False)
        sys.exit(exc.exit_code)
    except typer.Abort:
        err.print("roce-cfg: aborted", markup=False)
        sys.exit(130)
    before_exit(code if isinstance(code, int) else EXIT_OK)


__all__ = ["EXIT_FINDINGS", "EXIT_INPUT", "EXIT_OK", "EXIT_PUSH", "app", "main"]
