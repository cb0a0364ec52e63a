"""roce-cfg push and verify: the commands that log in to switches."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from roce_cfg.cli.common import (
    ask_credentials,
    counted,
    counts_line,
    err,
    out,
    progress,
    quiet_verdict,
)
from roce_cfg.cli.options import (
    ConfirmTimeout,
    FailOn,
    FindingsFormat,
    Prune,
    PushBatch,
    PushDiff,
    PushDiffFile,
    PushStrict,
    Quiet,
    RequireVerified,
    StepTimeouts,
    TextOrJson,
    TypeAhead,
    VendorDir,
    VerifyAfter,
)
from roce_cfg.errors import EXIT_FINDINGS
from roce_cfg.output import Shown, emit, emit_json, writable, write_file
from roce_cfg.tables import print_table

if TYPE_CHECKING:
    from roce_cfg.deploy.push import Credentials, Outcome
    from roce_cfg.verify.run import Verified


def push_cmd(
    configs: Annotated[Path, typer.Argument(help="Folder of intended configs (from generate).")],
    inventory: Annotated[Path, typer.Option("--inventory", "-i", help="Hosts (nornir shape).")],
    apply: Annotated[
        bool, typer.Option("--apply", help="Change the switches (default: dry run).")
    ] = False,
    workers: Annotated[int, typer.Option("--workers", min=1, max=200)] = 10,
    limit: Annotated[str | None, typer.Option("--limit", help="Hosts matching a glob.")] = None,
    batch: PushBatch = "100%",
    prune: Prune = False,
    timeouts: StepTimeouts = "",
    verify_after: VerifyAfter = "off",
    vendor_dir: VendorDir = None,
    confirm_timeout: ConfirmTimeout = None,
    strict_syntax: PushStrict = False,
    type_ahead: TypeAhead = None,
    diff: PushDiff = "summary",
    diff_file: PushDiffFile = None,
    fmt: TextOrJson = "text",
    quiet: Quiet = False,
) -> None:
    """Diff running configs with intended ones; --apply pushes, verifies, rolls back failures."""
    from roce_cfg.deploy import fanout
    from roce_cfg.deploy.inventory import load as load_inventory
    from roce_cfg.deploy.transport import Timeouts
    from roce_cfg.platforms.profile import overlay_dir

    steps = Timeouts.parse(timeouts)
    if diff_file is not None:
        writable(diff_file)  # refused now, not after the switches were changed
    targets = load_inventory(inventory, overlay_dir(vendor_dir), limit)
    creds = ask_credentials()
    with progress("pushing") as tick:
        outcomes = fanout.run(
            targets,
            configs,
            creds,
            apply=apply,
            workers=workers,
            batch=batch,
            prune=prune,
            progress=tick,
            timeouts=steps,
            confirm=confirm_timeout,
            on_batch=_batch_line if batch != "100%" else None,
            strict=strict_syntax,
            window=type_ahead,
        )
    if diff_file is not None:
        write_file(diff_file, "".join(full_plan(o) for o in outcomes))
    shown = Shown(fmt, quiet)
    live = verify_after == "live" and apply
    _push_finish(
        shown,
        outcomes,
        len(targets) - len(outcomes),
        (apply, prune, Diff(diff == "full", diff_file)),
        lambda: _verify_live(live, configs, targets, outcomes, creds, steps),
    )


def _push_finish(
    shown: Shown,
    outcomes: list[Outcome],
    skipped: int,
    how: tuple[bool, bool, Diff],
    verify: Callable[[], Verified | None],
) -> None:
    """push's output (the text report as soon as the push ends; the JSON document after
    --verify live, which it includes) and exit code (deploy/report.py's, or 1 when verify
    found something after a clean push)."""
    from roce_cfg.deploy.report import document, exit_code
    from roce_cfg.verify.report import render, text_report

    apply, prune, diff = how
    if shown.text:
        _push_report(outcomes, apply, prune, diff)
        if skipped:
            out.print(
                f"{counted(skipped, 'switch', 'switches')} not attempted: an earlier batch failed",
                markup=False,
            )
    code = exit_code(outcomes, skipped)
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
        quiet_verdict(shown, "push", ", ".join(f"{n} {k}" for k, n in sorted(counts.items())))
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
        f"batch {number}/{of}: {counted(len(outcomes), 'switch', 'switches')} ({names}): {results}",
        markup=False,
    )


def _push_report(outcomes: list[Outcome], apply: bool, prune: bool, diff: Diff) -> None:
    out.print(
        "# --prune: peers, VLANs and networks of managed kinds that the intent does not name "
        "are removed"
        if prune
        else "# unmanaged lines are left alone (--prune removes objects "
        "of managed kinds that the intent does not name)",
        markup=False,
    )
    if not apply and not diff.full:
        _sections(outcomes, diff.file)
    for o in outcomes:
        if not apply and diff.full:
            emit(full_plan(o))
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
    rows = [
        (
            o.host,
            f"{o.status} ({o.kind})" if o.kind and o.status == "failed" else o.status,
            str(len(o.commands)),
            f"{o.seconds:.1f}",
            o.error,
        )
        for o in outcomes
    ]
    print_table(
        out,
        f"push {'(applied)' if apply else '(dry run: nothing sent)'}",
        ("switch", "result", "commands", "seconds", "error"),
        rows,
        right=("commands", "seconds"),
        styles={"result": _result_style},
    )
    for o in outcomes:
        _restore_lines(o)


def _restore_lines(o: Outcome) -> None:
    """How a failed push was undone, what was checked, what is left, what the switch's own
    confirm timer will still do."""
    if o.status == "rolled back" and o.restore:  # how, and that it was checked
        checked = "running and saved config" if o.saved_back else "running config"
        out.print(
            f"# {o.host}: rolled back ({o.restore}); {checked} compared whole with the "
            "snapshot: the same",
            markup=False,
        )
    if o.status == "rollback-failed":
        if o.running_back:
            out.print(f"# {o.host}: running config back as before the push", markup=False)
        out.print(f"# {o.host}: rollback failed; left on the switch:", markup=False)
        for line in o.left:
            out.print(f"  {line}", markup=False)
    if o.timer:
        out.print(f"# {o.host}: {o.timer}", markup=False)


@dataclass(frozen=True)
class Diff:
    """How the dry run shows its diff: in full (``--diff full``) or section by section, and
    the file that gets it in full (``--diff-file``)."""

    full: bool = False
    file: Path | None = None


def full_plan(o: Outcome) -> str:
    """A switch's unified diff (running against running-after-push) and the commands."""
    if not o.diff:
        return ""
    commands = "".join(f"  {c}\n" for c in o.commands)
    return f"{o.diff}# {o.host}: {len(o.commands)} commands\n{commands}"


def _sections(outcomes: list[Outcome], diff_file: Path | None) -> None:
    """The dry run's default: per switch, the config lines added and removed per section."""
    rows = [
        (o.host, s.section, str(s.views or ""), str(s.added), str(s.removed))
        for o in outcomes
        for s in o.sections
    ]
    where = diff_file if diff_file else "--diff full, or --diff-file FILE"
    print_table(
        out,
        f"changes by section, in config lines (the diff and commands in full: {where})",
        ("switch", "section", "views", "added", "removed"),
        rows,
        right=("views", "added", "removed"),
    )


def _result_style(result: str) -> str:
    """A push result's colour on a terminal: failures red, changes green."""
    from roce_cfg.deploy.push import FAILED

    status = result.split(" (")[0]
    return "red" if status in FAILED else "green" if status == "changed" else ""


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
    require_verified: RequireVerified = False,
    vendor_dir: VendorDir = None,
    quiet: Quiet = False,
) -> None:
    """Check what the switches report (LLDP, links, BGP, PFC, ECN, counters) against the plan;
    read-only: display and show commands only."""
    from roce_cfg.deploy.inventory import load as load_inventory
    from roce_cfg.deploy.transport import Timeouts
    from roce_cfg.platforms.profile import overlay_dir
    from roce_cfg.verify import run as verify_run
    from roce_cfg.verify.checks import Options
    from roce_cfg.verify.report import render

    overlay = overlay_dir(vendor_dir)
    settings = verify_run.Settings(
        verify_run.parse_window(window),
        verify_run.parse_skip(skip),
        unsourced,
        workers,
        Timeouts.parse(timeouts),
        Options(storm_pps=storm_pps),
        overlay,
    )
    plan = verify_run.load_plan(source, overlay)
    targets = load_inventory(inventory, overlay, limit)
    creds = ask_credentials()
    with progress("verifying") as tick:
        verified = verify_run.verify(plan, targets, creds, settings, progress=tick)
    shown = Shown(fmt, quiet)
    text, kind = render(verified, fmt, Path.cwd())
    if not shown.quiet or fmt != "text":
        emit(text, kind=kind)
    if verified.result.failing(fail_on, require_verified):
        quiet_verdict(shown, "verify", counts_line(verified.result))
        raise typer.Exit(EXIT_FINDINGS)
