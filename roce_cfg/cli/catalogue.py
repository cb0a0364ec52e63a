"""What roce-cfg knows, listed: lint rules, one rule explained, JSON Schemas, vendor
syntax provenance, switch models."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Annotated, Any, Literal

import typer

from roce_cfg.cli.common import err, out
from roce_cfg.cli.options import (
    CaptureAction,
    CaptureDate,
    CaptureOut,
    CapturePort,
    CaptureRead,
    CaptureVendor,
    TextOrJson,
    UndoGaps,
    UndoOverlay,
    VendorDir,
)
from roce_cfg.errors import EXIT_INPUT, InputError
from roce_cfg.output import emit, emit_json, made_folder, write_all
from roce_cfg.tables import print_table
from roce_cfg.vendor import Vendor

SESSION_BYTES = 64 * 2**20  # a session log of every group, with full running configs


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
    if not found["verifies"]:
        out.print(
            "\nKind: cannot verify. It says what could not be checked, not that something is "
            "wrong; lint and verify fail on it only with --require-verified.",
            markup=False,
        )
    if found["reads"]:
        out.print(
            f"\nReads: {', '.join(found['reads'])}; where one of these was not read, it concludes "
            "nothing there and RC405 says what could not be verified.",
            markup=False,
        )


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


def vendors_cmd(
    action: CaptureAction = None,
    vendor: CaptureVendor = None,
    vendor_dir: VendorDir = None,
    fmt: Annotated[Literal["text", "json", "markdown"], typer.Option("--format")] = "text",
    undo_gaps: UndoGaps = False,
    undo_overlay: UndoOverlay = None,
    read: CaptureRead = None,
    port: CapturePort = None,
    date: CaptureDate = None,
    output: CaptureOut = None,
) -> None:
    """Show, per vendor and template section, whether its syntax is verified and by what: the
    profile's claim, lowered to what the vendor grammar's commands support per model, and how
    many of the grammar's commands are sourced, partial or unsourced. 'vendors capture VENDOR'
    prints the commands that confirm VENDOR's unsourced syntax on a switch; with --read, it
    reads the saved session into an overlay that cites it (docs/sources.md, 'Capture kit')."""
    from roce_cfg.grammar.gaps import gaps, skeleton
    from roce_cfg.platforms.profile import overlay_dir
    from roce_cfg.platforms.provenance import markdown, provenance

    overlay = overlay_dir(vendor_dir)
    if action is not None or vendor is not None:
        _capture(vendor, overlay, read, port, date, output)
        return
    if (read, port, date, output) != (None, None, None, None):
        raise InputError("--read, --port, --date and -o go with 'vendors capture VENDOR'")
    if undo_overlay is not None:
        emit(skeleton(undo_overlay.value, overlay), kind="yaml")
        return
    rows, totals = provenance(overlay)
    missing = [g for v in totals for g in gaps(v, overlay)]
    if fmt == "json":
        from roce_cfg.results import vendors_doc

        emit_json(vendors_doc(rows, totals, [g.as_dict() for g in missing]))
        return
    if undo_gaps:
        _print_gaps(missing, markdown=fmt == "markdown")
        return
    if fmt == "markdown":
        out.print(markdown(rows, totals), markup=False, soft_wrap=True)
        return
    _print_provenance(rows, totals)


def _print_provenance(rows: list[Any], totals: dict[str, dict[str, int]]) -> None:
    """The two tables of 'roce-cfg vendors': sections and their sources, grammar counts."""
    from roce_cfg.grammar import STATUSES
    from roce_cfg.platforms.provenance import detail

    cells = [
        (
            str(r["vendor"]),
            str(r["section"]),
            str(r["status"]),
            "/".join(str(r["commands"][k]) for k in STATUSES),
            detail(r),
        )
        for r in rows
    ]
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


def _capture(
    vendor: Vendor | None,
    overlay: Path | None,
    read: Path | None,
    port: str | None,
    date: str | None,
    output: Path | None,
) -> None:
    """The capture kit: the script, or (--read) the overlay its session supports."""
    from roce_cfg.platforms import session
    from roce_cfg.platforms.capture import script
    from roce_cfg.platforms.profile import load_profile
    from roce_cfg.yamlsrc import read_text

    if vendor is None:
        raise InputError("'vendors capture' needs the vendor: roce-cfg vendors capture VENDOR")
    profile = load_profile(vendor, overlay)
    if read is None:
        if output is not None or date is not None:
            raise InputError("-o and --date go with --read SESSION.log")
        emit(script(profile, overlay, port) + "\n")
        return
    if output is None:
        raise InputError("--read needs -o DIR: the overlay folder to write")
    text = read_text(read, "session log", max_bytes=SESSION_BYTES)
    cap = session.read(profile, text, str(read), _day(date, read), overlay)
    folder = made_folder(made_folder(output) / "vendors")  # never through a link named -o
    write_all(
        folder,
        {
            f"{vendor.value}.grammar.yaml": session.overlay_text(cap, overlay),
            f"{vendor.value}.yaml": session.profile_text(cap, profile, overlay),
        },
    )
    out.print(f"wrote {folder}: {session.summary(cap)}", markup=False)


def _day(date: str | None, log: Path) -> str:
    """The capture's date: as given (YYYY-MM-DD), else the day the log was last written."""
    if date is None:
        return dt.datetime.fromtimestamp(log.stat().st_mtime, dt.UTC).date().isoformat()
    try:
        return dt.date.fromisoformat(date).isoformat()
    except ValueError:
        raise InputError(f"--date {date!r}: expected YYYY-MM-DD") from None


def _print_gaps(missing: list[Any], markdown: bool) -> None:
    """The undo gaps, one row each: what remediation types today, and why no source backs it."""
    rows = [(g.vendor, g.section, g.command, g.typed, g.note) for g in missing]
    columns = ("vendor", "section", "command", "negation typed (unsourced)", "note")
    if markdown:
        lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
        lines += [
            "| " + " | ".join(f"`{c}`" if i == 3 else c for i, c in enumerate(r)) + " |"
            for r in rows
        ]
        out.print("\n".join(lines), markup=False, soft_wrap=True)
        return
    print_table(
        out, "Undo forms no source documents (push --strict-syntax refuses them)", columns, rows
    )


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
