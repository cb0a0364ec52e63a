"""``push --format json``: each switch's outcome as data (issue 29): what became of it, the
commands, how long it took, how a failure was undone and what is left on it. The outcomes are
redacted already (deploy/push.py); emit_doc redacts again on the way out."""

from __future__ import annotations

from collections import Counter
from typing import Any

from roce_cfg.deploy.push import FAILED, Outcome

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


def _switch(o: Outcome) -> dict[str, Any]:
    return {
        "host": o.host,
        "status": o.status,
        "failed": o.status in FAILED,
        "kind": o.kind,
        "error": o.error,
        "seconds": round(o.seconds, 3),
        "commands": o.commands,
        "saved": o.saved,
        "restore": o.restore,
        # how the switch differs from before the push: empty unless its rollback failed
        "left": o.left,
        "pruned": o.pruned,
        "unsourced_undos": o.unsourced,
    }
