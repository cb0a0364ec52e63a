"""The commands that build from an intent: generate, plan, docs, report, pipeline."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Literal

import typer

from roce_cfg.cli.common import counted, err, out, progress, source_cache, unread_exit
from roce_cfg.cli.options import NoCache, Quiet, TextOrJson, VendorDir
from roce_cfg.errors import EXIT_FINDINGS, InputError
from roce_cfg.heap import keep_until_exit, long_lived
from roce_cfg.output import Shown, emit, emit_json, write_all, write_file
from roce_cfg.tables import print_table

if TYPE_CHECKING:
    from roce_cfg.advise import Demand, Plan
    from roce_cfg.generate import Written


GenerateFiles = Annotated[
    Literal["cfg", "model"] | None,
    typer.Option(
        "--files",
        help="Each switch's file: cfg, its configuration (<host>.cfg, the default); model, its "
        "vendor-neutral model as JSON (<host>.json). fabric.json either way.",
    ),
]
# --format json wrote the switch models instead of their configs until --files came: a script
# that still says only --format json gets configs now, and this line says where the models went.
GENERATE_JSON_NOTE = (
    "roce-cfg: note: generate --format json now shapes stdout only and the files are configs; "
    "for each switch's model as JSON (what --format json wrote before) add --files model; "
    "--files cfg silences this note"
)


def generate_cmd(
    intent: Annotated[Path, typer.Argument(help="Intent YAML file.")],
    output: Annotated[Path, typer.Option("-o", "--output", help="Directory to write.")],
    only: Annotated[str | None, typer.Option("--only", help="Render one switch.")] = None,
    files: GenerateFiles = None,
    fmt: Annotated[
        Literal["text", "json", "cfg"],
        typer.Option(
            "--format",
            help="stdout: the summary table, or one JSON document (docs/cli.md); what the files "
            "hold is --files ('cfg' is the old name of text).",
        ),
    ] = "text",
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

    shown = Shown("json" if fmt == "json" else "text", quiet)
    if shown.json and files is None and shown.notes:
        err.print(GENERATE_JSON_NOTE, markup=False)
    files_format = "json" if files == "model" else "cfg"
    with progress() as tick:
        result = write_generated(
            intent,
            output,
            fmt=files_format,
            overlay=overlay_dir(vendor_dir),
            only=only,
            strict_syntax=strict_syntax,
            progress=tick,
            force=force,
        )
    # the plan's links, NICs and headroom (8,192 of each on the large fabric): not freed one by
    # one at exit, a twentieth of a large generate's CPU
    keep_until_exit(result)
    for w in result.warnings:
        err.print(
            f"roce-cfg: warning: {w.vendor.value} {w.section}: unverified syntax (no public "
            f"source) on {counted(w.switches, 'switch', 'switches')}; "
            f"{w.note or 'check it before pushing'}",
            markup=False,
        )
    shown.result(
        lambda: generate_doc(result, output, files_format), lambda: _summary(result, output)
    )


def _summary(result: Written, output: Path) -> None:
    from roce_cfg.results import GENERATE_COLUMNS, generate_kinds

    title = f"{result.fabric.name}: {counted(result.files, 'switch config')} in {output}"
    rows = [tuple(str(v) for v in kind.values()) for kind in generate_kinds(result)]
    print_table(out, title, GENERATE_COLUMNS, rows, right=GENERATE_COLUMNS[3:])


def docs_cmd(
    intent: Annotated[Path, typer.Argument(help="Intent YAML (or a generated folder).")],
    output: Annotated[Path, typer.Option("-o", "--output", help="Directory to write.")],
    fmt: TextOrJson = "text",
    quiet: Quiet = False,
    no_cache: NoCache = False,
) -> None:
    """Hand-over documents: fabric and per-switch Markdown, and the cabling plan as CSV."""
    from roce_cfg.report import markdown as markdown_docs
    from roce_cfg.report.data import gather as gather_report
    from roce_cfg.results import docs_doc

    data = gather_report(intent, cache=source_cache(intent, None, no_cache))
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
    unread_exit(data.notes, data.findings, shown)


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
    no_cache: NoCache = False,
) -> None:
    """One self-contained HTML report: topology, findings, deadlock cycles, buffers."""
    from roce_cfg.deadlock.run import Failures
    from roce_cfg.output import write_file
    from roce_cfg.report import html as html_report
    from roce_cfg.report.data import gather as gather_report
    from roce_cfg.results import report_doc
    from roce_cfg.verify.report import load_result

    live = load_result(verify_result) if verify_result is not None else []
    cache = source_cache(source, None, no_cache)
    # one indeterminate spinner: gathering is design or parse + lint + deadlock in one call
    with err.status("building the report") if err.is_terminal else contextlib.nullcontext():
        failures = Failures(fail_links=fail_links)
        data = gather_report(source, failures, round_trip=round_trip, cache=cache, page=True)
        data.findings.extend(live)  # verify's findings flag their switches and links too
        with long_lived():
            write_file(output, html_report.render(data))
    keep_until_exit(data)
    shown = Shown(fmt, quiet)
    shown.result(
        lambda: report_doc(output, data),
        lambda: out.print(f"wrote {output} ({output.stat().st_size / 1024:.0f} KB)", markup=False),
    )
    unread_exit(data.notes, data.findings, shown)


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
    job = pipeline.Job(
        intent, inventory, work, batch, say=lambda s: say(s, markup=False), echo=shown.text
    )
    ran: list[tuple[str, int]] = []
    rc = pipeline.run(stage, job, ran)
    if shown.json:
        emit_json(pipeline_doc(stage, work, ran))
    if rc:
        raise typer.Exit(rc)


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
        Path | None, typer.Option("--write", help="Write the best sourced plan as an intent.")
    ] = None,
    pick: Annotated[
        int | None, typer.Option("--pick", help="With --write: write plan N, sourced or not.")
    ] = None,
    fmt: TextOrJson = "text",
    show_all: Annotated[
        bool, typer.Option("--all", help="Also list the infeasible plans, with the reason.")
    ] = False,
    quiet: Quiet = False,
    vendor_dir: VendorDir = None,
) -> None:
    """Candidate fabric plans for a GPU demand, best first; --write the best sourced one."""
    from roce_cfg import advise
    from roce_cfg.platforms.profile import load_profiles, overlay_dir

    demand = advise.Demand.of(
        gpus,
        servers,
        nics=nics,
        nic_speed=_speed(nic_speed),
        pcie_gen=pcie_gen,
        pcie_lanes=pcie_lanes,
        oversubscription=oversub,
        in_rack_m=in_rack,
        in_row_m=in_row,
        between_rows_m=between,
    )
    price_table = advise.load_prices(prices) if prices is not None else None
    plans = advise.plan(
        demand, load_profiles(overlay_dir(vendor_dir)), leaf=leaf, spine=spine, prices=price_table
    )
    _plan_out(demand, plans, (write, pick), fmt, quiet=quiet, show_all=show_all)


def _speed(nic_speed: str) -> int:
    """--nic-speed in the forms the intent takes (400G, 400g, 400Gb, 400)."""
    from roce_cfg.intent.models import speed_number

    try:
        return speed_number(nic_speed)
    except ValueError as exc:
        raise InputError(str(exc), path="--nic-speed") from None


def _plan_out(
    demand: Demand,
    plans: list[Plan],
    writing: tuple[Path | None, int | None],
    fmt: str,
    *,
    quiet: bool,
    show_all: bool,
) -> None:
    """--write the best sourced plan (or plan --pick); the plans as JSON or a table (none when
    ``quiet``); then which plan was written, and where (on stderr when stdout carries JSON)."""
    from roce_cfg import advise

    write, pick = writing
    if pick is not None and write is None:
        raise InputError("picks the plan --write writes: give --write too", path="--pick")
    feasible = any(p.feasible for p in plans)
    chosen = advise.best(plans, pick) if write is not None and feasible else None
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
        emit(_wrote(plans, chosen, write) + "\n", stderr=fmt == "json" or quiet)
    if not feasible:  # a negative answer, as lint's finding is: exit 1
        err.print(
            "roce-cfg: plan: no feasible plan (--all says why)"
            + ("; nothing written" if write is not None else ""),
            markup=False,
        )
        raise typer.Exit(EXIT_FINDINGS)
    if write is not None and chosen is None:  # feasible plans, none sourced: asked, not done
        err.print(
            "roce-cfg: plan: no sourced plan fits: plan 1's lossless commands have no public "
            f"source ({'; '.join(plans[0].unsourced)}); nothing written "
            "(--pick 1 writes it anyway, and generate warns)",
            markup=False,
        )
        raise typer.Exit(EXIT_FINDINGS)


def _wrote(plans: list[Plan], chosen: Plan, write: Path | None) -> str:
    """``wrote plan N (kind: switches) to PATH``, and a warning when its syntax is unsourced."""
    from roce_cfg import advise

    number = plans.index(chosen) + 1
    said = f"wrote plan {number} ({chosen.kind}: {advise.plan_row(chosen, number)[2]}) to {write}"
    if chosen.unsourced:
        said += (
            f"; its lossless commands have no public source ({'; '.join(chosen.unsourced)}): "
            "generate warns"
        )
    if chosen.also_unsourced:
        said += f"; generate warns: no public source for {'; '.join(chosen.also_unsourced)}"
    return said


def _plan_table(title: str, plans: list[Plan], show_all: bool) -> None:
    """Feasible plans (all with --all), numbered by rank; then PCIe, ECMP and trust notes."""
    from roce_cfg import advise

    shown = [(i, p) for i, p in enumerate(plans, 1) if p.feasible or show_all]
    rows = [advise.plan_row(p, i) for i, p in shown]
    print_table(out, title, advise.PLAN_COLUMNS, rows)
    hidden = len(plans) - len(shown)
    if hidden:
        out.print(
            f"{counted(hidden, 'infeasible plan')} not shown (--all lists them)", markup=False
        )
    if not plans:
        return
    out.print(f"PCIe: {plans[0].pcie_fit}", markup=False)
    for note in plans[0].notes:
        out.print(f"ECMP: {note}", markup=False)
    feasible = [p for p in plans if p.feasible]
    if feasible:
        out.print(f"why plan 1: {feasible[0].why}", markup=False)
    if feasible and feasible[0].unsourced:
        out.print(
            "syntax: no sourced plan fits; plan 1's lossless commands have no public source ("
            + "; ".join(feasible[0].unsourced)
            + "): generate warns, and the lab checks them against roce-cfg's own guess",
            markup=False,
        )
    elif any(p.unsourced for p in feasible):
        vendors = sorted({u.split(":")[0] for p in feasible for u in p.unsourced})
        out.print(
            f"syntax: {', '.join(vendors)} plans rank after every sourced one: their lossless "
            "commands have no public source (--write --pick N writes one anyway)",
            markup=False,
        )
