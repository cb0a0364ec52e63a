"""Findings: what the linter and the deadlock analyser report, one stable shape for every format."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from roce_cfg.model.order import natural

Severity = Literal["error", "warning", "info"]
RANK: dict[str, int] = {"info": 0, "warning": 1, "error": 2}


class Finding(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    rule: str
    severity: Severity
    device: str
    file: str | None = None
    line: int | None = None
    port: str | None = None
    message: str
    related_device: str | None = None
    related_port: str | None = None
    detail: tuple[str, ...] = ()
    suppressed: str | None = None

    def fingerprint(self) -> str:
        """Stable across runs and line moves: what is wrong where, not on which line."""
        key = "|".join((self.rule, self.device, self.port or "", self.related_device or ""))
        return hashlib.sha256(key.encode()).hexdigest()[:32]

    def sort_key(self) -> tuple[tuple[tuple[int, int, str], ...], int, str, str, str]:
        """By device in natural order (leaf-9 before leaf-21), then line, rule, port."""
        return (natural(self.device), self.line or 0, self.rule, self.port or "", self.message)


# The 'cannot verify' rules (lint's registry: verifies=False; verify's RV190), kept here for the
# findings of commands that do not import the rules; tests/test_lint.py holds the two equal.
UNVERIFIED_RULES = frozenset(
    {
        "RC118",
        "RC120",
        "RC123",
        "RC124",
        "RC125",
        "RC126",
        "RC127",
        "RC133",
        "RC204",
        "RC206",
        "RC311",
        "RC312",
        "RC313",
        "RC314",
        "RC405",
        "RC503",
        "RV190",
    }
)


def unverified(f: Finding) -> bool:
    """A finding that says what could not be checked, not that something is wrong."""
    return f.rule in UNVERIFIED_RULES


@dataclass
class LintResult:
    findings: list[Finding]
    files: list[str]
    devices: list[str]
    notes: list[str] = field(default_factory=list)
    # the parsed devices the rules looked at, by hostname (for reports; not serialised)
    views: dict[str, Any] = field(default_factory=dict)
    # notes on the files of a folder that were skipped (not configs, symlinks)
    skipped: list[str] = field(default_factory=list)
    # what the analysis saw: switches, links, sessions matched, routes (roce_cfg/evidence.py)
    coverage: str = ""
    # the evidence step's facts themselves (an evidence.Evidence), for a caller that would
    # otherwise gather them again over the same switches (report: deadlock.from_parsed)
    facts: Any = None

    def counts(self) -> dict[str, int]:
        out = {"error": 0, "warning": 0, "info": 0, "suppressed": 0}
        for f in self.findings:
            out["suppressed" if f.suppressed else f.severity] += 1
        return out

    def failing(self, threshold: Severity, require_verified: bool = False) -> list[Finding]:
        """The findings that fail the gate: at or above ``threshold``, and with
        ``require_verified`` every 'cannot verify' finding whatever its severity."""
        return [
            f
            for f in self.findings
            if not f.suppressed
            and (RANK[f.severity] >= RANK[threshold] or (require_verified and unverified(f)))
        ]
