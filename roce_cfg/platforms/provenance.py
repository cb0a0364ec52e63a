"""Per vendor and template section, whether its syntax is verified and by what (``roce-cfg
vendors``): the profile's claim, lowered to what the vendor grammar's commands support per model,
the grammar's counts of sourced, partial and unsourced commands, and the secrets tables'
claims (what redaction treats as a secret is a claim about the vendor's CLI too)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from roce_cfg.grammar import STATUSES, Grammar, load_grammar, section_grades
from roce_cfg.platforms.profile import VendorProfile, load_profiles
from roce_cfg.redact import rules as secret_rules

RANK = {"verified": 0, "user": 0, "partial": 1, "unverified": 2}
Row = dict[str, Any]


def provenance(overlay: Path | None) -> tuple[list[Row], dict[str, dict[str, int]]]:
    """One row per vendor section and secrets rule, and each vendor's grammar command counts
    (and its undo forms' counts, keyed 'undo <status>')."""
    profiles = load_profiles(overlay)
    grammars = {v: load_grammar(v.value, overlay) for v in profiles}
    rows: list[Row] = []
    for v, p in profiles.items():
        rows += _sections(p, grammars[v])
    rows += _secrets()
    return rows, {v.value: _counts(g) for v, g in grammars.items()}


def _counts(grammar: Grammar) -> dict[str, int]:
    undo = {f"undo {k}": n for k, n in grammar.undo_coverage().items()}
    return grammar.coverage() | undo


def _sections(profile: VendorProfile, grammar: Grammar) -> list[Row]:
    grades = section_grades(grammar, sorted(profile.models))
    rows = []
    for name, s in profile.sections.items():
        g = grades.get(name)
        status: str = s.status
        if g is not None and s.status != "user" and RANK[g.status] > RANK[s.status]:
            status = g.status
        rows.append(
            {
                "vendor": profile.vendor.value,
                "section": name,
                "status": status,
                "source": s.source,
                "note": s.note,
                "profile_status": s.status,
                "by_model": g.by_model if g else {},
                "commands": g.commands if g else dict.fromkeys(STATUSES, 0),
            }
        )
    return rows


SECRETS = "secrets ("  # a secrets table's row: "secrets (<its name>)"


def _secrets() -> list[Row]:
    # The secret's name in brackets: a name ends in its keyword ('BGP peer password'), and in a
    # printed row the next cell (the status) would be taken for its value and redacted.
    return [
        {
            "vendor": rule.vendor,
            "section": f"{SECRETS}{rule.name})",
            "status": "verified" if rule.source else "unverified",
            "source": rule.source or "",
            "note": "" if rule.source else "no vendor document found; redacted defensively",
            "profile_status": "verified" if rule.source else "unverified",
            "by_model": {},
            "commands": dict.fromkeys(STATUSES, 0),
        }
        for rule in secret_rules()
    ]


def detail(row: Row) -> str:
    """Source, note and the models on which the grammar grades the section lower."""
    lower = {m: g for m, g in dict(row["by_model"]).items() if g and g != "verified"}
    parts = (
        str(row["source"]),
        str(row["note"]),
        ", ".join(f"{g} on {m}" for m, g in sorted(lower.items())),
    )
    return "; ".join(x for x in parts if x)


def markdown(rows: list[Row], totals: dict[str, dict[str, int]]) -> str:
    """The README's provenance table (regenerate with ``roce-cfg vendors --format markdown``)."""
    lines = [
        "| vendor | model | verified | partial | unverified (warned) |",
        "|---|---|---|---|---|",
    ]
    for vendor in totals:
        # Secrets tables are listed by the table view; the README's grid is about sections.
        mine = [
            r for r in rows if r["vendor"] == vendor and not str(r["section"]).startswith(SECRETS)
        ]
        for model in sorted({m for r in mine for m in dict(r["by_model"])}):
            lines.append(f"| {vendor} | {model} | " + " | ".join(_cells(mine, model)) + " |")
    lines += [
        "",
        "| vendor | grammar commands sourced | partial | unsourced | undo forms sourced | partial "
        "| unsourced | none |",
        "|---|---|---|---|---|---|---|---|",
    ]
    keys = [*STATUSES, *(f"undo {k}" for k in (*STATUSES, "none"))]
    for vendor, counts in totals.items():
        lines.append(f"| {vendor} | " + " | ".join(str(counts[k]) for k in keys) + " |")
    return "\n".join(lines)


def _cells(rows: list[Row], model: str) -> list[str]:
    """The sections of each status on ``model``: the claim, or the grammar's grade if lower."""
    status: dict[str, str] = {}
    for r in rows:
        claim = str(r["profile_status"])
        g = dict(r["by_model"]).get(model) or claim
        status[str(r["section"])] = g if RANK[g] > RANK[claim] else claim
    return [", ".join(n for n, s in status.items() if s == want) for want in RANK if want != "user"]
