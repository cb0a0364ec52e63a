"""Issue 30: lint's serial head and its parse workers' collections, on a generated folder.

``python -m bench.plan_load FOLDER [--runs N]`` (FOLDER from ``roce-cfg generate``, e.g. of
bench/fabric-xl.yaml) prints:

- the CPU seconds of ``load_lint_plan`` of FOLDER/fabric.json (the best of N runs), which the
  parent spends alone before any parse worker starts;
- the CPU seconds of ``parse_many`` over FOLDER's configs in the parent and in its workers
  (RUSAGE_CHILDREN), the workers' peak RSS, and ``uptime``'s load beside them.

Compare two checkouts by running it from each. CPU time, not wall: the machine is shared.
"""

from __future__ import annotations

import argparse
import os
import resource
import time
from pathlib import Path

from roce_cfg.heap import bulk_objects
from roce_cfg.parse.hints import hints_from_plan, load_lint_plan
from roce_cfg.parse.many import parse_many


def main() -> None:
    args = argparse.ArgumentParser()
    args.add_argument("folder", type=Path)
    args.add_argument("--runs", type=int, default=5)
    ns = args.parse_args()
    fabric = ns.folder / "fabric.json"
    loads = []
    for _ in range(ns.runs):
        start = time.process_time()
        plan = load_lint_plan(fabric)
        loads.append(time.process_time() - start)
    print(f"load_lint_plan: {min(loads):.3f} s CPU (best of {ns.runs})")
    files = sorted(ns.folder.glob("*.cfg"))
    start = time.process_time()
    with bulk_objects():  # as lint runs it
        n = sum(1 for _ in parse_many(files, None, hints_from_plan(plan), None))
    parent = time.process_time() - start
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(
        f"parse_many of {n} files: parent {parent:.2f} s CPU, workers "
        f"{kids.ru_utime + kids.ru_stime:.2f} s CPU, worker peak RSS {kids.ru_maxrss // 1024} MB"
    )
    print(f"# load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
