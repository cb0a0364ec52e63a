"""Deadlock analysis at scale: the 'large' fabric (128 leaves, 64 spines, 8,192 links, one ASN
per spine), healthy and with every single link failed; and the small pod for scale."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from roce_cfg.deadlock import load
from roce_cfg.deadlock.run import Plan
from roce_cfg.deadlock.run import run as run_deadlock

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


@dataclass
class Row:
    what: str
    fabric: str
    switches: int
    links: int
    scenarios: int
    seconds: float
    cycles: int


def _one(intent: Path, plan: Plan, what: str) -> Row:
    start = time.perf_counter()
    src = load(intent)  # design included: the command's whole work from the intent
    report, _ = run_deadlock(src, plan)
    seconds = time.perf_counter() - start
    cycles = len(report.baseline) + sum(len(c) for c in report.opened.values())
    return Row(
        what,
        intent.stem,
        len(report.net.names),
        len(report.net.links),
        report.scenarios,
        seconds,
        cycles,
    )


def run() -> list[Row]:
    rows = []
    for intent in (ROOT / "examples/pod-small.yaml", HERE / "fabric-large.yaml"):
        rows.append(_one(intent, Plan(), "healthy"))
        rows.append(_one(intent, Plan(fail_links="all-single"), "all single-link failures"))
    return rows
