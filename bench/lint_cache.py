"""lint of a folder with the parse cache, as a user runs it again and again.

``python -m bench.lint_cache [FOLDER] [--rounds N]`` (default /tmp/xl, ``roce-cfg generate
bench/fabric-xl.yaml -o /tmp/xl``) runs ``roce-cfg lint FOLDER -q`` in its own process, round
after round, four ways in turn: ``--no-cache`` (as before the cache), cold (the cache folder
removed: every config parsed and stored), warm after one config changed (a word added to the
first description line of the folder's first config, another word each round) and warm with
nothing changed. Each run prints one JSON line: its wall seconds, the CPU seconds of the process
and its workers, the peak MB of the process tree (sampled as ``python -m bench`` samples it)
and the load average before it; then the median of each way as Markdown rows. The changed
config is put back at the end; the cache folder stays (safe to delete).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import sys
from pathlib import Path

from bench.__main__ import HERE, measure

KINDS = ("no cache", "cold", "one config changed", "nothing changed")
CACHE_DIR = ".roce-cfg-cache"
NO_CACHE_ENV = "ROCE_CFG_NO_CACHE"


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def _edited(config: Path, original: str, n: int) -> None:
    """``original`` with a word added to its first description line (the n-th edit)."""
    lines = original.splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if line.lstrip().startswith("description "))
    body = lines[at].rstrip("\r\n")
    lines[at] = f"{body} bench-edit-{n}{lines[at][len(body) :]}"
    config.write_text("".join(lines), encoding="utf-8")


def _run(folder: Path, kind: str) -> dict[str, object]:
    cmd = [sys.executable, "-m", "roce_cfg", "lint", str(folder), "-q"]
    cmd += ["--no-cache"] if kind == "no cache" else []
    load = os.getloadavg()[0]
    cpu = _children_cpu()
    wall, peak, _ = measure(cmd, HERE.parent)
    return {
        "kind": kind,
        "wall_s": round(wall, 2),
        "cpu_s": round(_children_cpu() - cpu, 2),
        "peak_mb": round(peak),
        "load": round(load, 1),
    }


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.lint_cache", description=__doc__)
    parser.add_argument("folder", nargs="?", type=Path, default=Path("/tmp/xl"))
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args(argv)
    folder: Path = args.folder
    os.environ.pop(NO_CACHE_ENV, None)  # the cached runs must have it
    config = next(p for p in sorted(folder.glob("*.cfg")) if "\n description " in p.read_text())
    original = config.read_text(encoding="utf-8")
    rows: list[dict[str, object]] = []
    try:
        for n in range(args.rounds):
            for kind in KINDS:
                if kind == "cold":
                    shutil.rmtree(folder / CACHE_DIR, ignore_errors=True)
                elif kind == "one config changed":
                    _edited(config, original, n)
                rows.append(_run(folder, kind))
                print(json.dumps(rows[-1]), flush=True)
    finally:
        config.write_text(original, encoding="utf-8")
    print(f"\n{folder}: {len(list(folder.glob('*.cfg'))):,} configs, {config.name} changed")
    print("| lint | wall s (each run) | CPU s | peak MB |\n|---|---:|---:|---:|")
    for kind in KINDS:
        mine = [r for r in rows if r["kind"] == kind]
        walls = " / ".join(str(r["wall_s"]) for r in mine)
        cpu = statistics.median(float(str(r["cpu_s"])) for r in mine)
        peak = statistics.median(int(str(r["peak_mb"])) for r in mine)
        print(f"| {kind} | {walls} | {cpu:.1f} | {peak:,.0f} |")


if __name__ == "__main__":
    main(sys.argv[1:])
