"""How well sourced a template section's syntax is, per model, from its commands."""

from __future__ import annotations

from dataclasses import dataclass

from roce_cfg.grammar.checker import Grammar
from roce_cfg.grammar.commands import STATUSES


def grade(grammar: Grammar, model: str, used: dict[str, set[str]]) -> dict[str, str]:
    """Section -> ``verified`` when every command it used is sourced for ``model``,
    ``unverified`` when none has a source at all, ``partial`` otherwise (a source that does not
    name the model, a range or unit unconfirmed, or a mix)."""
    by_name = {c.name: c for c in grammar.commands}
    src_model = grammar.source_model(model)
    out: dict[str, str] = {}
    for section, names in used.items():
        cmds = [by_name[n] for n in names]
        if all(c.sourced_for(src_model) for c in cmds):
            out[section] = "verified"
        elif all(c.status == "unsourced" for c in cmds):
            out[section] = "unverified"
        else:
            out[section] = "partial"
    return out


@dataclass(frozen=True)
class SectionGrade:
    """A template section as the grammar grades it: overall, per model, and its commands."""

    status: str  # worst over the models
    by_model: dict[str, str]
    commands: dict[str, int]  # sourced / partial / unsourced


def section_grades(grammar: Grammar, models: list[str]) -> dict[str, SectionGrade]:
    """Every section's grade from the commands it can emit on each of ``models`` (a command a
    model's source rules out is not one that section emits there)."""
    sections = sorted({c.section for c in grammar.commands})
    out: dict[str, SectionGrade] = {}
    rank = {"verified": 0, "partial": 1, "unverified": 2}
    for section in sections:
        cmds = [c for c in grammar.commands if c.section == section]
        counts = dict.fromkeys(STATUSES, 0)
        for c in cmds:
            counts[c.status] += 1
        by_model: dict[str, str] = {}
        for model in models:
            src = grammar.source_model(model)
            names = {c.name for c in cmds if c.models is None or src is None or src in c.models}
            by_model[model] = grade(grammar, model, {section: names})[section] if names else ""
        graded = [g for g in by_model.values() if g]
        worst = max(graded, key=lambda g: rank[g]) if graded else "unverified"
        out[section] = SectionGrade(worst, by_model, counts)
    return out
