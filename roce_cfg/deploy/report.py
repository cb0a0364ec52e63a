"""``push --format json``: each switch's outcome as data: what became of it, the diff and
commands, how long it took, how a failure was undone and what is left on it. The outcomes are
redacted already (deploy/push.py); emit_doc redacts again on the way out."""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict
from typing import Any

from roce_cfg.deploy.push import FAILED, Outcome
from roce_cfg.errors import EXIT_OK, EXIT_PUSH, EXIT_ROLLBACK_FAILED

FORMAT = "roce-cfg/push/v1"


def document(outcomes: list[Outcome], apply: bool, prune: bool, skipped: int) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "applied": apply,
        "prune": prune,
        "counts": dict(sorted(Counter(o.status for o in outcomes).items())),
        "not_attempted": skipped,
        "switches": [_switch(o) for o in outcomes],
    }


def exit_code(outcomes: list[Outcome], skipped: int) -> int:
    """push's exit code for what became of its switches: a switch left changed (its rollback
    failed too) outranks one that failed or was not attempted; 0 is a clean push, the only one
    that ``--verify live`` goes on to check."""
    if any(o.status == "rollback-failed" for o in outcomes):
        return EXIT_ROLLBACK_FAILED
    if skipped or any(o.status in FAILED for o in outcomes):
        return EXIT_PUSH
    return EXIT_OK


def _switch(o: Outcome) -> dict[str, Any]:
    return {
        "host": o.host,
        "status": o.status,
        "failed": o.status in FAILED,
        "kind": o.kind,
        "error": o.error,
        "seconds": round(o.seconds, 3),
        "commands": o.commands,
        # running against running-after-push, as the text's --diff full prints it
        "diff": o.diff,
        "sections": [asdict(s) for s in o.sections],
        "saved": o.saved,
        "restore": o.restore,
        # after a failed push: each config compared whole with the one before it (null: unknown)
        "running_restored": o.running_back,
        "saved_restored": o.saved_back,
        # a confirm timer still running on the switch: when it will revert the push
        "timer": o.timer,
        # how the switch differs from before the push: empty unless its rollback failed
        "left": o.left,
        "pruned": o.pruned,
        "unsourced_undos": o.unsourced,
    }
