"""Issue 30: a parse worker's cyclic collections run between chunks of files, where little but
a parse's garbage is alive, never in the middle of a parse rescanning the model it builds."""

from __future__ import annotations

import gc
from typing import Any

from roce_cfg.parse import many
from tests.helpers import ROOT

CONFIG = ROOT / "golden/cluster-mixed/leaf-1.cfg"


def test_a_worker_collects_once_a_chunk_and_only_then() -> None:
    at: list[int] = []

    def seen(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            at.append(many._since_collected)

    enabled = gc.isenabled()
    gc.callbacks.append(seen)
    try:
        many._init(many._Job())
        assert not gc.isenabled()
        for _ in range(2 * many.CHUNK + 1):
            assert many._parse(CONFIG) is not None
    finally:
        gc.callbacks.remove(seen)
        many._init(many._Job())
        many._since_collected = 0
        gc.unfreeze()
        if enabled:
            gc.enable()
    # one collection before each chunk after the first; none triggered by the parses' objects
    assert at == [many.CHUNK, many.CHUNK]
