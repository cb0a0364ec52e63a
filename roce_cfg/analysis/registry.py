"""The rule registry: every check has a stable ID, a severity, a rationale and a fix hint."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

from roce_cfg.analysis.findings import Severity

Scope = Literal["device", "fabric", "intent"]


@dataclass(frozen=True)
class Hit:
    """One problem a check found; the engine turns it into a located Finding."""

    message: str
    port: str | None = None
    device: str | None = None  # fabric rules name the device; device rules leave it None
    anchor: str | None = None  # vendor anchor name (vendors/*.yaml parse.anchors) for the line
    line: int | None = None
    related_device: str | None = None
    related_port: str | None = None
    detail: tuple[str, ...] = ()


Check = Callable[[Any], Iterable[Hit]]


@dataclass(frozen=True)
class Rule:
    id: str
    name: str
    severity: Severity
    scope: Scope
    summary: str
    rationale: str
    fix: str
    limits: str = ""
    check: Check = field(repr=False, default=lambda _: ())


RULES: dict[str, Rule] = {}


def rule(
    id: str,
    name: str,
    severity: Severity,
    scope: Scope,
    *,
    summary: str,
    rationale: str,
    fix: str,
    limits: str = "",
) -> Callable[[Check], Check]:
    def register(fn: Check) -> Check:
        if id in RULES:
            raise RuntimeError(f"rule {id} registered twice")
        RULES[id] = Rule(id, name, severity, scope, summary, rationale, fix, limits, fn)
        return fn

    return register


def rules() -> list[Rule]:
    # Importing the rule modules fills the registry.
    from roce_cfg.analysis import rules_device, rules_fabric, rules_headroom, rules_intent  # noqa: F401
    from roce_cfg.deadlock import findings  # noqa: F401

    return [RULES[k] for k in sorted(RULES)]
