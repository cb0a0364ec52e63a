"""roce-cfg deadlock: the PFC deadlock cycles, healthy and after failures."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from roce_cfg.cli.common import (
    counted,
    emit_findings,
    out,
    progress,
    quiet_verdict,
    say_notes,
    say_unread,
    source_cache,
)
from roce_cfg.cli.options import (
    FailDevices,
    FailLinks,
    FindingsFormat,
    MaxFailures,
    NoCache,
    Quiet,
    Samples,
    Scheduler,
    SweepState,
    VendorDir,
    VendorOption,
)
from roce_cfg.errors import EXIT_FINDINGS
from roce_cfg.output import Shown, write_file

if TYPE_CHECKING:
    from roce_cfg.analysis import LintResult
    from roce_cfg.deadlock import Source
    from roce_cfg.deadlock.analyse import Report as DeadlockReport


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
    no_cache: NoCache = False,
) -> None:
    """Find PFC deadlock cycles in the lossless buffer graph, healthy and after failures."""
    from roce_cfg.deadlock import load as load_deadlock_source
    from roce_cfg.deadlock.run import Failures
    from roce_cfg.deadlock.run import run as run_deadlock
    from roce_cfg.platforms.profile import overlay_dir

    devices = tuple(d.strip() for d in (fail_devices or "").split(",") if d.strip())
    failures = Failures(
        fail_links, devices, max_failures, samples, scheduler, str(state) if state else None
    )
    overlay = overlay_dir(vendor_dir)
    cache = source_cache(source, overlay, no_cache)
    src = load_deadlock_source(source, dscp=roce_dscp, vendor=vendor, overlay=overlay, cache=cache)
    say_notes(src.notices, quiet)
    with progress("failure scenarios") as tick:
        report = run_deadlock(src, failures, tick)
    say_notes(report.notes, quiet)
    _pictures(report, svg_file, html_file)
    _deadlock_out(src, report, Shown(fmt, quiet), verbose)


def _deadlock_out(src: Source, report: DeadlockReport, shown: Shown, verbose: bool) -> None:
    """The findings (the configs not read first, in text), the document or the text, and the
    exit code: 1 on an error finding."""
    from roce_cfg.analysis.rules_deadlock import deadlock_findings
    from roce_cfg.results import deadlock_doc

    result = deadlock_findings(src, report)
    if shown.fmt == "text":
        say_unread(result.findings)  # said before the verdict, which covers only the rest
    emit_findings(
        result,
        shown,
        lambda: _deadlock_text(report, verbose, result),
        "deadlock",
        lambda: deadlock_doc(report, result),
    )
    if result.failing("error"):
        quiet_verdict(shown, "deadlock", counted(result.counts()["error"], "error finding"))
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
        out.print(f"[bold red]{counted(len(cycles), 'deadlock cycle')}[/bold red] {title}:")
        for c in cycles:
            total += 1
            out.print(f"  {report.chain(c)}", markup=False)
            if verbose:
                for node, cause in zip(c.nodes, c.causes, strict=True):
                    out.print(f"      {report.node_name(node)}: {cause}", markup=False)
    if report.baseline and report.survived:
        out.print(
            "healthy-fabric cycles that survive every checked failure: "
            f"{report.always_closed()} of {len(report.baseline)}",
            markup=False,
        )
        broken = report.breaking()
        for sc, kept in broken[:20]:
            out.print(
                f"  after {report.scenario_name(sc)}: {len(kept)} of {len(report.baseline)} "
                "survive",
                markup=False,
            )
        if len(broken) > 20:
            out.print(f"  ... and {len(broken) - 20} more failures that break some", markup=False)
    from roce_cfg.deadlock.verdict import lines as covered

    for line in covered(net):  # what the verdict covers, and what it does not
        out.print(line, markup=False)
    _deadlock_verdict(result, total)


def _deadlock_verdict(result: LintResult, total: int) -> None:
    """The last lines: what could not be verified, and never an all-clear about switches not
    read (RC001), switches partly read (RC503) or a fabric not seen whole (RC311-RC314)."""
    from roce_cfg.results import deadlock_verdict

    gaps = [f for f in result.findings if f.rule not in ("RC501", "RC502", "RC001")]
    for f in gaps:
        out.print(f"{f.device}:{f.line or '-'} {f.rule} {f.message}", markup=False)
    out.print(deadlock_verdict(result, total), markup=False)
