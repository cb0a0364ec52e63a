"""Lint output: JSON (stable), SARIF 2.1.0 (code scanning), JUnit XML (CI test reports)."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

from pydantic import TypeAdapter

from roce_cfg import __version__
from roce_cfg.analysis.findings import Finding, LintResult
from roce_cfg.analysis.registry import Rule
from roce_cfg.jsontext import ascii_json
from roce_cfg.model.order import natural

FORMAT = "roce-cfg/lint/v1"
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
SARIF_LEVEL = {"error": "error", "warning": "warning", "info": "note"}


_FINDINGS = TypeAdapter(list[Finding])


def to_json(result: LintResult) -> str:
    """The text ``json.dumps(doc, indent=2)`` writes, the findings serialised by pydantic: a
    config of 100,000 ports has some 400,000 findings, and a tree of Python objects of them
    took 1.8 GB."""
    return "".join(json_chunks(result))


# findings serialised at a time: a few hundred KB of text, whatever the number of findings
BATCH = 1000


def json_chunks(result: LintResult) -> Iterator[str]:
    """``to_json``'s text in pieces of at most ``BATCH`` findings each, split between findings
    (never inside a string, so each piece is redacted as the whole would be): written as they
    are made, the JSON of 100,000 findings is never one string (nor its redacted copies)."""
    doc = {
        "format": FORMAT,
        "summary": {**result.counts(), "devices": len(result.devices), "files": len(result.files)},
        "findings": [],
    }
    head = json.dumps(doc, indent=2)
    if not result.findings:
        yield head + "\n"
        return
    yield head.removesuffix("[]\n}") + "["
    found = result.findings
    for at in range(0, len(found), BATCH):
        # a list's items at indent 2 are what the whole list's are: '[\n  {...},\n  {...}\n]'
        items = _FINDINGS.dump_json(found[at : at + BATCH], indent=2).decode()[1:-2]
        yield ascii_json(("," if at else "") + items).replace("\n", "\n  ")
    yield "\n  ]\n}\n"


def _uri(file: str | None, base: Path) -> str | None:
    if file is None:
        return None
    path = Path(file)
    try:
        rel = os.path.relpath(path.resolve(), base.resolve())
    except ValueError:  # another drive on Windows
        return path.as_posix()
    return Path(rel).as_posix()


def _location(f: Finding, base: Path) -> dict[str, Any] | None:
    uri = _uri(f.file, base)
    if uri is None:
        return None
    physical: dict[str, Any] = {"artifactLocation": {"uri": uri, "uriBaseId": "SRCROOT"}}
    if f.line:
        physical["region"] = {"startLine": f.line}
    loc: dict[str, Any] = {"physicalLocation": physical}
    names = [{"name": f.device, "kind": "module"}]
    if f.port:
        names.append(
            {"name": f.port, "kind": "member", "fullyQualifiedName": f"{f.device}:{f.port}"}
        )
    loc["logicalLocations"] = names
    return loc


def to_sarif(result: LintResult, rules: list[Rule], base: Path) -> str:
    index = {r.id: n for n, r in enumerate(rules)}
    results: list[dict[str, Any]] = []
    for f in result.findings:
        item: dict[str, Any] = {
            "ruleId": f.rule,
            "ruleIndex": index[f.rule],
            "level": SARIF_LEVEL[f.severity],
            "message": {"text": f"{f.device}{' ' + f.port if f.port else ''}: {f.message}"},
            "partialFingerprints": {"rocecfgFinding/v1": f.fingerprint()},
        }
        loc = _location(f, base)
        if loc:
            item["locations"] = [loc]
        if f.related_device:
            item["relatedLocations"] = [
                {
                    "id": 1,
                    "message": {
                        "text": f"far end: {f.related_device} {f.related_port or ''}".strip()
                    },
                    "logicalLocations": [{"name": f.related_device, "kind": "module"}],
                }
            ]
        if f.suppressed:
            item["suppressions"] = [{"kind": "external", "justification": f.suppressed}]
        results.append(item)
    driver = {
        "name": "roce-cfg",
        "version": __version__,
        "informationUri": "https://pypi.org/project/roce-cfg/",
        "rules": [
            {
                "id": r.id,
                "name": r.name,
                "shortDescription": {"text": r.summary},
                "fullDescription": {"text": r.rationale},
                "help": {
                    "text": f"{r.rationale}\nFix: {r.fix}"
                    + (f"\nLimits: {r.limits}" if r.limits else "")
                },
                "defaultConfiguration": {"level": SARIF_LEVEL[r.severity]},
                "properties": {"scope": r.scope},
            }
            for r in rules
        ],
    }
    doc = {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {"driver": driver},
                "originalUriBaseIds": {"SRCROOT": {"uri": base.resolve().as_uri() + "/"}},
                "results": results,
            }
        ],
    }
    return json.dumps(doc, indent=2) + "\n"


def to_junit(result: LintResult, command: str = "lint") -> str:
    """One test case per finding (failed, or skipped when suppressed) and one per clean device;
    the suite and the clean cases are named after the ``command`` that ran (lint, deadlock)."""
    suite = ET.Element("testsuite", name=f"roce-cfg {command}")
    failures = skipped = 0
    flagged = set()
    for f in result.findings:
        case = ET.SubElement(
            suite, "testcase", classname=f.device, name=f"{f.rule} {f.port or f.device}".strip()
        )
        if f.file:
            case.set("file", f.file)
        if f.line:
            case.set("line", str(f.line))
        if f.suppressed:
            ET.SubElement(case, "skipped", message=f"suppressed: {f.suppressed}")
            skipped += 1
            continue
        failure = ET.SubElement(case, "failure", message=f.message, type=f.severity)
        failure.text = "\n".join((f.message, *f.detail))
        failures += 1
        flagged.add(f.device)
    for device in sorted(result.devices, key=natural):
        if device not in flagged:
            ET.SubElement(suite, "testcase", classname=device, name=command)
    suite.set("tests", str(len(suite)))
    suite.set("failures", str(failures))
    suite.set("skipped", str(skipped))
    suite.set("errors", "0")
    root = ET.Element("testsuites")
    root.append(suite)
    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"
