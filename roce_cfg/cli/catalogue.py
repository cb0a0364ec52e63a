"""What roce-cfg knows, listed: lint rules, one rule explained, JSON Schemas, vendor
syntax provenance, switch models."""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

import typer

from roce_cfg.cli.common import err, out
from roce_cfg.cli.options import TextOrJson, UndoGaps, UndoOverlay, VendorDir
from roce_cfg.errors import EXIT_INPUT, InputError
from roce_cfg.output import emit, emit_json
from roce_cfg.tables import print_table


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
    vendor_dir: VendorDir = None,
    fmt: Annotated[Literal["text", "json", "markdown"], typer.Option("--format")] = "text",
    undo_gaps: UndoGaps = False,
    undo_overlay: UndoOverlay = None,
) -> None:
    """Show, per vendor and template section, whether its syntax is verified and by what: the
    profile's claim, lowered to what the vendor grammar's commands support per model, and how
    many of the grammar's commands are sourced, partial or unsourced."""
    from roce_cfg.grammar import STATUSES
    from roce_cfg.grammar.gaps import gaps, skeleton
    from roce_cfg.platforms.profile import overlay_dir
    from roce_cfg.platforms.provenance import detail, markdown, provenance

    overlay = overlay_dir(vendor_dir)
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
