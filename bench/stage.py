"""One benchmark stage in a fresh interpreter: ``python -m bench.stage STAGE INTENT WORKDIR``.

Prints one JSON line: the stage's own seconds (imports and set-up excluded) and what it handled.
The parent (``python -m bench``) runs every stage in its own process so that the peak memory it
samples belongs to that stage alone.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from roce_cfg.design.designer import plan
from roce_cfg.generate import output_files, render_fabric
from roce_cfg.intent.loader import load_intent
from roce_cfg.output import write_all
from roce_cfg.parse.hints import hints_from_fabric
from roce_cfg.parse.many import parse_many


def _load(intent: Path, _: Path) -> dict[str, object]:
    start = time.perf_counter()
    load_intent(intent)
    return {"seconds": time.perf_counter() - start}


def _design(intent: Path, _: Path) -> dict[str, object]:
    loaded = load_intent(intent)
    start = time.perf_counter()
    fabric, _profiles = plan(loaded, None)
    return {"seconds": time.perf_counter() - start, "switches": len(fabric.devices)}


def _render(intent: Path, work: Path) -> dict[str, object]:
    fabric, profiles = plan(load_intent(intent), None)
    start = time.perf_counter()
    result = render_fabric(fabric, profiles)
    write_all(work / "out", output_files(result))
    seconds = time.perf_counter() - start
    lines = sum(text.count("\n") for text in result.configs.values())
    return {"seconds": seconds, "switches": len(result.configs), "lines": lines}


def _parse(_: Path, work: Path) -> dict[str, object]:
    out = work / "out"
    files = sorted(p for p in out.iterdir() if p.suffix == ".cfg")
    start = time.perf_counter()
    hints = hints_from_fabric(out / "fabric.json")
    lines = sum(p.config.lines for p in parse_many(files, None, hints, None))
    return {"seconds": time.perf_counter() - start, "switches": len(files), "lines": lines}


STAGES = {"load": _load, "design": _design, "render": _render, "parse": _parse}


def main() -> None:
    stage, intent, work = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
    print(json.dumps(STAGES[stage](intent, work)))


if __name__ == "__main__":
    main()
