"""The rule registry: every check has a stable ID, a severity, a rationale and a fix hint.

The rule modules register themselves when they are imported; the analysis package imports
every one of them (roce_cfg/analysis/__init__.py), so this module imports none.
"""

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
    # the entry of the anchored block the finding is about (a DSCP): its own line where the
    # vendor's anchors print the entry's form ('<anchor>.entry'), else the block's header
    anchor_key: str | None = None
    line: int | None = None
    related_device: str | None = None
    related_port: str | None = None
    detail: tuple[str, ...] = ()
    # a conclusion about the whole switch that names one port as its example (the worst of
    # them): the evidence gate weighs every port's unread lines, not only that one's
    of_switch: bool = False


Check = Callable[[Any], Iterable[Hit]]


@dataclass(frozen=True)
class Rule:
    """``check`` None: a rule whose findings another command computes (RC502 needs the failure
    scenarios of 'roce-cfg deadlock'); the lint engine skips it, rules and explain list it."""

    id: str
    name: str
    severity: Severity
    scope: Scope
    summary: str
    rationale: str
    fix: str
    limits: str = ""
    check: Check | None = field(repr=False, default=None)
    # the config sections its conclusions stand on (parse/accounting.py's names): where the
    # evidence gate finds one of them unread, the rule's conclusion there is dropped and RC405
    # says it could not be verified (roce_cfg/gate.py)
    reads: tuple[str, ...] = ()
    # False for a 'cannot verify' rule: its findings say what could not be checked, never that
    # something is wrong (docs/lint.md, "What could not be verified"); --require-verified fails
    # on them
    verifies: bool = True


RULES: dict[str, Rule] = {}


def declare(
    id: str,
    name: str,
    severity: Severity,
    scope: Scope,
    *,
    summary: str,
    rationale: str,
    fix: str,
    limits: str = "",
    check: Check | None = None,
    reads: tuple[str, ...] = (),
    verifies: bool = True,
) -> Rule:
    """Register a rule; with no ``check``, one that lint does not run itself."""
    if id in RULES:
        raise RuntimeError(f"rule {id} registered twice")
    text = (summary, rationale, fix, limits)
    RULES[id] = Rule(id, name, severity, scope, *text, check, reads, verifies)
    return RULES[id]


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
    reads: tuple[str, ...] = (),
    verifies: bool = True,
) -> Callable[[Check], Check]:
    """Register the decorated function as the rule's check."""

    def register(fn: Check) -> Check:
        text = {"summary": summary, "rationale": rationale, "fix": fix, "limits": limits}
        declare(id, name, severity, scope, **text, check=fn, reads=reads, verifies=verifies)
        return fn

    return register


def rules() -> list[Rule]:
    """Every registered rule, by ID."""
    return [RULES[k] for k in sorted(RULES)]
