"""Suppressions: '.roce-cfg.yaml' entries and 'roce-cfg: ignore RCnnn reason' config comments."""

from __future__ import annotations

import fnmatch
import re
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from roce_cfg.analysis.findings import Finding
from roce_cfg.errors import InputError
from roce_cfg.output import LINT_CONFIG
from roce_cfg.yamlsrc import SUPPRESSIONS, load_file

INLINE = re.compile(r"roce-cfg:\s*ignore\s+(?P<rules>RC\d{3}(?:\s*,\s*RC\d{3})*)\s*(?P<reason>.*)$")
DEFAULT_FILE = LINT_CONFIG


class Ignore(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    rule: str = Field(pattern=r"^RC\d{3}$")
    device: str = Field(default="*", description="hostname or glob")
    port: str | None = Field(default=None, description="interface name or glob")
    reason: str = Field(min_length=1, description="why this finding is accepted")


class LintConfig(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    ignore: tuple[Ignore, ...] = ()


def load(path: Path, known_rules: set[str]) -> LintConfig:
    data, _ = load_file(path, SUPPRESSIONS)
    try:
        config = LintConfig.model_validate(data or {})
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = ".".join(str(p) for p in first["loc"])
        raise InputError(f"{loc}: {first['msg']}", file=str(path)) from None
    for entry in config.ignore:
        if entry.rule not in known_rules:
            raise InputError(
                f"ignore: unknown rule {entry.rule} (see roce-cfg rules)", file=str(path)
            )
    return config


def inline(text: str) -> dict[str, str]:
    """Rule -> reason from comment lines such as '# roce-cfg: ignore RC204 default is enough'."""
    out: dict[str, str] = {}
    if "roce-cfg:" not in text:  # most configs: one scan instead of splitting 100 KB into lines
        return out
    for line in text.splitlines():
        if "roce-cfg:" not in line:
            continue
        m = INLINE.search(line)
        if m:
            for rule_id in re.split(r"\s*,\s*", m["rules"]):
                out[rule_id] = m["reason"].strip() or "inline ignore in the config"
    return out


def apply(
    findings: list[Finding], config: LintConfig, per_device: dict[str, dict[str, str]]
) -> list[Finding]:
    out: list[Finding] = []
    for f in findings:
        reason = per_device.get(f.device, {}).get(f.rule)
        if reason is None:
            for e in config.ignore:
                if (
                    e.rule == f.rule
                    and fnmatch.fnmatchcase(f.device, e.device)
                    and (
                        e.port is None
                        or (f.port is not None and fnmatch.fnmatchcase(f.port, e.port))
                    )
                ):
                    reason = e.reason
                    break
        out.append(f.model_copy(update={"suppressed": reason}) if reason else f)
    return out
