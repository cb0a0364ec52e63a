"""What each command prints, as data: the JSON documents of ``--format json`` (docs/cli.md), and
the rows the text tables are drawn from, so that the text and the JSON carry the same facts.

Every document is a dict with a ``format`` field, ``roce-cfg/<command>/v1``
(roce_cfg/output.py ``doc_format``); the keys below are the stable shape. Imports of the API
modules are inside the functions: every command pays for what cli.py imports at start-up.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from roce_cfg.output import doc_format

if TYPE_CHECKING:
    from roce_cfg.advise import Demand, Plan
    from roce_cfg.analysis import Finding, LintResult
    from roce_cfg.deadlock.analyse import Report as DeadlockReport
    from roce_cfg.generate import Written
    from roce_cfg.lab.server import Lab
    from roce_cfg.report.data import ReportData

GENERATE_COLUMNS = ("role", "vendor", "model", "switches", "ports", "links", "VLANs")


def generate_kinds(result: Written) -> list[dict[str, Any]]:
    """One row per (role, vendor, model): switches, ports, links touching the role, VLANs."""
    fabric = result.fabric
    role_of = {s.hostname: s.role for s in fabric.switches}
    links_of: Counter[str] = Counter()
    for k in fabric.links:
        for role in {role_of[k.a_device], role_of[k.b_device]}:
            links_of[role] += 1
    return [
        {
            "role": role,
            "vendor": vendor,
            "model": model,
            "switches": c["switches"],
            "ports": c["ports"],
            "links": links_of[role],
            "vlans": c["VLANs"],
        }
        for (role, vendor, model), c in sorted(result.kinds.items())
    ]


def generate_doc(result: Written, output: Path, files_format: str) -> dict[str, Any]:
    return {
        "format": doc_format("generate"),
        "fabric": result.fabric.name,
        "output": str(output),
        "files_format": files_format,
        "configs": result.files,
        "kinds": generate_kinds(result),
        "warnings": [
            {
                "vendor": w.vendor.value,
                "section": w.section,
                "switches": w.switches,
                "note": w.note or "",
            }
            for w in result.warnings
        ],
    }


def unread(findings: list[Finding]) -> list[dict[str, Any]]:
    """The configs a folder held that could not be read (RC001): file, line, why."""
    return [
        {"file": f.file, "line": f.line, "message": f.message}
        for f in findings
        if f.rule == "RC001"
    ]


def docs_doc(output: Path, files: list[str], findings: list[Finding]) -> dict[str, Any]:
    return {
        "format": doc_format("docs"),
        "output": str(output),
        "files": sorted(files),
        "unread": unread(findings),
    }


def report_doc(output: Path, data: ReportData) -> dict[str, Any]:
    """The page written, its size, and what it shows: switches, links, findings by severity,
    deadlock cycles, and the configs it could not read."""
    counts = Counter(f.severity for f in data.findings if not f.suppressed)
    cycles = len(data.deadlock.baseline) + sum(len(c) for c in data.deadlock.opened.values())
    return {
        "format": doc_format("report"),
        "output": str(output),
        "bytes": output.stat().st_size,
        "fabric": data.name,
        "checked": data.checked,  # what the findings were judged on: 'designed' or 'parsed'
        "switches": len(data.devices),
        "links": len(data.links),
        "findings": {k: counts[k] for k in ("error", "warning", "info")},
        "cycles": cycles,
        "unread": unread(data.findings),
    }


def rules_doc(rules: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    return {"format": doc_format("rules"), "rules": rules}


def explain_doc(rule: Mapping[str, Any]) -> dict[str, Any]:
    return {"format": doc_format("explain"), "rule": rule}


def vendors_doc(
    rows: list[Any], totals: dict[str, dict[str, int]], gaps: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    """Per vendor and section its status and sources (``sections``), per vendor the grammar's
    command counts by status (``grammar``), and the undo forms no source documents
    (``undo_gaps``: what push --strict-syntax refuses to type)."""
    doc = {"format": doc_format("vendors"), "sections": rows, "grammar": totals}
    return doc | {"undo_gaps": gaps or []}


def models_doc(rows: list[dict[str, Any]]) -> dict[str, Any]:
    return {"format": doc_format("models"), "models": rows}


def plan_doc(demand: Demand, plans: list[Plan], written: tuple[int, Path] | None) -> dict[str, Any]:
    """The demand as understood, every plan ranked (feasible and sourced first, each feasible
    one with ``why``), and which one ``--write`` wrote where, and whether its lossless syntax is
    sourced (null without --write, or when it wrote nothing)."""
    from dataclasses import asdict

    return {
        "format": doc_format("plan"),
        "demand": asdict(demand),
        "feasible": sum(p.feasible for p in plans),
        "plans": [p.as_dict() for p in plans],
        "wrote": None
        if written is None
        else {
            "plan": written[0],
            "path": str(written[1]),
            "sourced": not plans[written[0] - 1].unsourced,
        },
    }


def pipeline_doc(stage: str, work: Path, ran: list[tuple[str, int]]) -> dict[str, Any]:
    """The stages run, each with its exit code; ``exit`` is the first non-zero one (or 0)."""
    code = next((rc for _, rc in ran if rc), 0)
    return {
        "format": doc_format("pipeline"),
        "stage": stage,
        "work": str(work),
        "passed": code == 0,
        "exit": code,
        "stages": [{"stage": name, "exit": rc} for name, rc in ran],
    }


def _count(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def deadlock_verdict(result: LintResult, total: int) -> str:
    """The deadlock command's last line: never 'no cycle' where the analysis could not see."""
    from roce_cfg.analysis.rules_deadlock import not_covered

    unverified = not_covered(result)
    if total:
        more = (
            f"; more may hide where it could not see: {'; '.join(unverified)}" if unverified else ""
        )
        return f"{_count(total, 'cycle')}{more}; exit 1"
    if unverified:
        return f"no deadlock cycle among what was read, but unverified: {'; '.join(unverified)}" + (
            "; exit 1"
        )
    return "no deadlock cycle"


def deadlock_doc(report: DeadlockReport, result: LintResult) -> dict[str, Any]:
    """lint's document of the findings (RC5xx, RC001, RC311-RC314) with what deadlock's text
    says besides: switches, links, scenarios checked, and every cycle as its chain of buffers."""
    import json

    from roce_cfg.analysis.report import to_json
    from roce_cfg.analysis.rules_deadlock import not_covered
    from roce_cfg.deadlock.verdict import doc as covered

    doc: dict[str, Any] = json.loads(to_json(result))
    doc["format"] = doc_format("deadlock")
    cycles = [{"scenario": "healthy fabric", "chain": report.chain(c)} for c in report.baseline]
    cycles += [
        {"scenario": f"after {report.scenario_name(sc)}", "chain": report.chain(c)}
        for sc, found in report.opened.items()
        for c in found
    ]
    doc["summary"].update(
        switches=len(report.net.names),
        links=len(report.net.links),
        scenarios=report.scenarios,
        cycles=len(cycles),
        verdict="cycles" if cycles else "unverified" if not_covered(result) else "no cycle",
        unverified=not_covered(result),
    )
    doc["cycles"] = cycles
    doc["routing"] = covered(report.net)  # what the verdict covers, and what it does not
    return doc


def lab_doc(lab: Lab, inventory: Path, notes: list[str]) -> dict[str, Any]:
    """Printed once the emulators listen: where each switch is, the inventory written, and the
    notes the text prints (unsourced syntax accepted, lenient mode)."""
    return {
        "format": doc_format("lab"),
        "inventory": str(inventory),
        "switches": [
            {
                "name": name,
                "host": "127.0.0.1",
                "port": ep.port,
                "vendor": ep.switch.profile.vendor.value,
            }
            for name, ep in sorted(lab.endpoints.items())
        ],
        "notes": notes,
    }
