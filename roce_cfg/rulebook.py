"""The lint rules' descriptions as data, for ``roce-cfg rules`` and ``explain``.

Listing the rules through the registry imports every check and with them the models, parsers
and pydantic: about half a second before a table of text (hence this module sits outside
roce_cfg.analysis, whose package import is that cost). The descriptions are therefore kept in
``rulebook.json`` beside this module; ``python -m roce_cfg.rulebook`` rewrites it from
the registry and tests/test_startup.py fails when the two differ.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TypedDict

FILE = Path(__file__).with_name("rulebook.json")
FIELDS = (
    "id",
    "name",
    "severity",
    "scope",
    "summary",
    "rationale",
    "fix",
    "limits",
    "reads",
    "verifies",
)


class Entry(TypedDict):
    id: str
    name: str
    severity: str
    scope: str
    summary: str
    rationale: str
    fix: str
    limits: str
    reads: list[str]  # the config sections it judges (roce_cfg/gate.py: unread ones, no verdict)
    verifies: bool  # False: a 'cannot verify' rule (fails only with --require-verified)


def load() -> list[Entry]:
    """Every rule's description, by ID."""
    entries: list[Entry] = json.loads(FILE.read_text(encoding="utf-8"))
    return entries


def from_registry() -> list[Entry]:
    """The same, read from the registered checks (slow: imports every rule module)."""
    from roce_cfg.analysis.registry import rules

    return [
        Entry(
            id=r.id,
            name=r.name,
            severity=r.severity,
            scope=r.scope,
            summary=r.summary,
            rationale=r.rationale,
            fix=r.fix,
            limits=r.limits,
            reads=list(r.reads),
            verifies=r.verifies,
        )
        for r in rules()
    ]


def main() -> None:
    FILE.write_text(json.dumps(from_registry(), indent=2) + "\n", encoding="utf-8")
    print(f"wrote {FILE}")


if __name__ == "__main__":
    main()
