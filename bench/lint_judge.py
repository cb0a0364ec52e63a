"""Seconds of lint's judging, after the parse: the evidence step and the rules.

``python -m bench.lint_judge [FOLDER]`` (default /tmp/xl, ``roce-cfg generate
bench/fabric-xl.yaml -o /tmp/xl``) lints the folder once and prints one JSON line: the CPU of
the lint process in ``evidence.gather`` and in the rules (``_run``), the rules' wall time, and
the whole judging step's CPU and wall. ``--in-process`` keeps the device rules in this process
(no forked child, as below ``ASIDE_FROM`` switches) to compare. Note ``uptime`` beside it: on a
busy machine the child waits for a core and the rules' wall time grows.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import roce_cfg.analysis as analysis
from roce_cfg import evidence
from roce_cfg.analysis import engine, run


def _timed(seconds: dict[str, float], key: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    def run(*args: Any, **kwargs: Any) -> Any:
        cpu, wall = time.process_time(), time.perf_counter()
        try:
            return fn(*args, **kwargs)
        finally:
            seconds[f"{key} cpu"] = round(time.process_time() - cpu, 3)
            seconds[f"{key} wall"] = round(time.perf_counter() - wall, 3)

    return run


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="bench.lint_judge")
    parser.add_argument("folder", nargs="?", type=Path, default=Path("/tmp/xl"))
    parser.add_argument("--in-process", action="store_true")
    args = parser.parse_args(argv)
    if args.in_process:
        engine.ASIDE_FROM = sys.maxsize
    seconds: dict[str, float] = {}
    evidence.gather = _timed(seconds, "gather", evidence.gather)
    engine._run = _timed(seconds, "rules", engine._run)
    run.judge = _timed(seconds, "judge", run.judge)
    result = analysis.lint([args.folder])
    print(json.dumps({"switches": len(result.devices), "findings": len(result.findings)} | seconds))


if __name__ == "__main__":
    main(sys.argv[1:])
