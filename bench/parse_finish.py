"""CPU per config of the parse's later stages and of sending a parse back from a worker.

``python -m bench.parse_finish [CONFIG ...]`` (default: the first leaf, spine and superspine
of the xl fabric generated into /tmp/xl, ``roce-cfg generate bench/fabric-xl.yaml -o /tmp/xl``)
prints milliseconds of process CPU per config, the mean of ``--repeats`` runs of each stage:
the templates (ttp), ``finish`` (normalise into the model), and pickling a ``Parsed`` as a
worker does and unpickling it as the lint parent does. The collector runs with the thresholds
``parse_text`` sets (heap.bulk_objects), so its cost lands where it would.
"""

from __future__ import annotations

import argparse
import pickle
import sys
import time
from collections.abc import Callable
from multiprocessing.reduction import ForkingPickler
from pathlib import Path
from typing import Any

from roce_cfg.heap import bulk_objects
from roce_cfg.parse import finish, prepare, read_templates
from roce_cfg.parse.run import accounted

XL = Path("/tmp/xl")
DEFAULT = [XL / "leaf-1.cfg", XL / "spine-1.cfg", XL / "superspine-1.cfg"]


def _ms(run: Callable[[], Any], repeats: int) -> float:
    start = time.process_time()
    for _ in range(repeats):
        run()
    return (time.process_time() - start) / repeats * 1000


@bulk_objects()
def measure(path: Path, repeats: int) -> dict[str, float]:
    text = path.read_text(encoding="utf-8")
    prep = prepare(text, file=str(path))
    accounting = accounted(prep, None)
    raw = read_templates(prep)
    parsed = finish(prep, raw, None, accounting)
    blob = bytes(ForkingPickler.dumps(parsed))

    finish_ms = 0.0
    for _ in range(repeats):
        fresh = read_templates(prep)  # finish consumes what the templates gave: one per run
        start = time.process_time()
        finish(prep, fresh, None, accounting)
        finish_ms += (time.process_time() - start) / repeats * 1000
    return {
        "templates": _ms(lambda: read_templates(prep), repeats),
        "finish": finish_ms,
        "send": _ms(lambda: ForkingPickler.dumps(parsed), repeats),
        "receive": _ms(lambda: pickle.loads(blob), repeats),
        "bytes": float(len(blob)),
    }


def main(argv: list[str]) -> None:
    ap = argparse.ArgumentParser(prog="python -m bench.parse_finish")
    ap.add_argument("configs", nargs="*", type=Path, default=DEFAULT)
    ap.add_argument("--repeats", type=int, default=20)
    args = ap.parse_args(argv)
    print("| config | templates ms | finish ms | send ms | receive ms | bytes sent |")
    print("|---|---:|---:|---:|---:|---:|")
    for path in args.configs:
        m = measure(path, args.repeats)
        print(
            f"| {path.name} | {m['templates']:.2f} | {m['finish']:.2f} | {m['send']:.2f} "
            f"| {m['receive']:.2f} | {m['bytes']:,.0f} |"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
