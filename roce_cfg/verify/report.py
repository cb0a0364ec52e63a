"""Verify's output: lint's JSON, SARIF and JUnit writers over the RV rules, and its own text."""

from __future__ import annotations

import json
import re
from pathlib import Path

from roce_cfg.analysis import report as lint_report
from roce_cfg.analysis.findings import Finding
from roce_cfg.output import Kind
from roce_cfg.verify.rules import rules
from roce_cfg.verify.run import Verified

FORMAT = "roce-cfg/verify/v1"


def render(verified: Verified, fmt: str, base: Path) -> tuple[str, Kind]:
    """(text, kind) of the result in ``fmt``: text, json, sarif or junit."""
    result = verified.result
    if fmt == "json":
        doc = json.loads(lint_report.to_json(result))
        doc["format"] = FORMAT
        per = verified.seconds / verified.switches if verified.switches else 0.0
        doc["summary"].update(seconds=round(verified.seconds, 3), per_switch_s=round(per, 4))
        doc["notes"] = verified.notes
        return json.dumps(doc, indent=2, ensure_ascii=True) + "\n", "json"
    if fmt == "sarif":
        return lint_report.to_sarif(result, rules(), base), "json"
    if fmt == "junit":
        text = lint_report.to_junit(result)
        return re.sub(r'name="roce-cfg lint"', 'name="roce-cfg verify"', text, count=1), "markup"
    return text_report(verified), "text"


def text_report(verified: Verified) -> str:
    lines: list[str] = []
    device = None
    for f in verified.result.findings:
        if f.device != device:
            device = f.device
            lines.append(device)
        port = f" {f.port}" if f.port else ""
        far = f" (far end {f.related_device} {f.related_port or ''})" if f.related_device else ""
        lines.append(f"  {f.severity:<7} {f.rule}{port}: {f.message}{far.replace(' )', ')')}")
        lines.extend(f"           {d}" for d in f.detail)
    lines.extend(f"note: {n}" for n in verified.notes)
    counts = verified.result.counts()
    per = verified.seconds / verified.switches if verified.switches else 0.0
    lines.append(
        f"{counts['error']} errors, {counts['warning']} warnings on {verified.switches} switches "
        f"in {verified.seconds:.1f} s ({per:.2f} s per switch)"
    )
    return "\n".join(lines) + "\n"


def load_result(path: Path) -> list[Finding]:
    """The findings of a saved 'verify --format json' result (for 'report --verify')."""
    from pydantic import TypeAdapter, ValidationError

    from roce_cfg.errors import InputError
    from roce_cfg.yamlsrc import VERIFY_RESULT, load_json

    doc = load_json(path, VERIFY_RESULT)
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise InputError(f"not a roce-cfg verify result (format {FORMAT})", file=str(path))
    try:
        return TypeAdapter(list[Finding]).validate_python(doc.get("findings"))
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise InputError(f"findings.{where}: {first['msg']}", file=str(path)) from None
