"""Lint fixtures: a generated scenario, single-line edits to its configs, the findings expected.

A case file (tests/lint/*.yaml) names a scenario, edits and the exact findings (rule, device,
line, port) the edited configs must produce; findings below warning are ignored unless the case
sets ``include_info``. ``expect: []`` is a near miss: a config that looks close but is fine.
"""

from __future__ import annotations

import shutil
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from roce_cfg.analysis import LintResult, Options, lint
from roce_cfg.generate import generate
from roce_cfg.output import write_all
from tests.helpers import ROOT, SCENARIOS

CASES = sorted((ROOT / "tests/lint").glob("*.yaml"))


@cache
def _generated(scenario: str, cache_root: Path) -> Path:
    out = cache_root / scenario
    result = generate(SCENARIOS[scenario])
    files = {f"{h}.cfg": t for h, t in result.configs.items()}
    files["fabric.json"] = result.fabric.model_dump_json(exclude={"devices"})
    write_all(out, files)
    return out


def _edit(text: str, edit: dict[str, Any]) -> str:
    lines = text.split("\n")
    start = 0
    if edit.get("after") is not None:
        start = lines.index(edit["after"]) + 1
    new = edit.get("new")
    if "old" in edit:
        at = lines.index(edit["old"], start)
        lines[at : at + 1] = [] if new is None else str(new).split("\n")
    else:
        lines[start:start] = str(new).split("\n")
    return "\n".join(lines)


def run_case(case: Path, work: Path, cache_root: Path) -> tuple[dict[str, Any], LintResult]:
    spec = yaml.safe_load(case.read_text(encoding="utf-8"))
    src = _generated(spec.get("scenario", "pod-small-h3c"), cache_root)
    shutil.copytree(src, work)
    for edit in spec.get("edits", []):
        path = work / f"{edit['in']}.cfg"
        path.write_text(_edit(path.read_text(encoding="utf-8"), edit), encoding="utf-8")
    if not spec.get("fabric_json", True):
        (work / "fabric.json").unlink()
    paths = [work / f"{f}.cfg" for f in spec["files"]] if "files" in spec else [work]
    intent = SCENARIOS[spec["scenario"]] if spec.get("intent") else None
    options = Options(**spec.get("options", {}))
    fabric = work / "fabric.json" if "files" in spec and spec.get("fabric_json", True) else None
    return spec, lint(paths, intent=intent, fabric=fabric, options=options)


# The neighbours a case leaves out are info ('cannot verify', docs/lint.md): the cases still
# see them, as they did when they were errors.
LEFT_OUT = frozenset({"RC311", "RC313", "RC314"})


def observed(spec: dict[str, Any], result: LintResult) -> list[dict[str, Any]]:
    keep = {"error", "warning", "info"} if spec.get("include_info") else {"error", "warning"}
    # RC126 (the RGOS/ZXROS syntax no source confirms) is on every Ruijie and ZTE case, RC204
    # (headroom counted in cells of a size no source gives; a model that sets its own headroom
    # to a default no source gives) on every H3C and CE9860 case: asked for only where a case
    # is about it (expects it, or lists it under 'observe')
    asked = {e["rule"] for e in spec["expect"]} | set(spec.get("observe", ()))
    quiet = {"RC126", "RC204"} - asked
    return [
        {"rule": f.rule, "device": f.device, "line": f.line, "port": f.port}
        for f in result.findings
        if (f.severity in keep or f.rule in LEFT_OUT) and not f.suppressed and f.rule not in quiet
    ]
