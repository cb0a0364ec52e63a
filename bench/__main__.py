"""``python -m bench``: every stage on the small, large and xl fabrics, one table of medians.

Each run of each stage is its own process (a fresh interpreter, as a user's command would be),
sampled every 0.2 s for the memory of it and its worker processes together (proportional set
size, so pages shared by forked workers count once). Stages marked "CLI" are the ``roce-cfg``
command itself, interpreter start-up included; the others time the stage's own work.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
FABRICS = {
    "small": HERE / "fabric-small.yaml",
    "large": HERE / "fabric-large.yaml",
    "xl": HERE / "fabric-xl.yaml",
}


@dataclass
class Row:
    stage: str
    fabric: str
    switches: int
    lines: int | None
    seconds: float
    peak_mb: float
    rate: bool  # whether lines/s means something for this stage

    def cells(self) -> list[str]:
        per_s = f"{self.lines / self.seconds:,.0f}" if self.rate and self.lines else ""
        return [
            self.stage,
            self.fabric,
            f"{self.switches:,}" if self.switches else "",
            f"{self.lines:,}" if self.lines else "",
            f"{self.seconds:.3f}" if self.seconds < 1 else f"{self.seconds:.2f}",
            f"{self.peak_mb:,.0f}",
            per_s,
        ]


def _tree(root: int) -> list[int]:
    """``root`` and every process below it."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as fh:
                ppid = int(fh.read().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(ppid, []).append(int(entry))
    out, todo = [], [root]
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo.extend(children.get(pid, ()))
    return out


def _memory_kb(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/smaps_rollup") as fh:
            for line in fh:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except OSError:
        pass
    try:
        with open(f"/proc/{pid}/statm") as fh:
            return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024
    except OSError:
        return 0


def measure(cmd: list[str], cwd: Path) -> tuple[float, float, str]:
    """Wall seconds, peak MB of the process tree, and stdout of one run of ``cmd``."""
    peak = 0
    with tempfile.TemporaryFile("w+") as out:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, cwd=cwd, stdout=out, stderr=subprocess.PIPE, text=True)
        done = threading.Event()

        def sample() -> None:
            nonlocal peak
            while not done.is_set():
                if os.path.isdir("/proc"):
                    peak = max(peak, sum(_memory_kb(p) for p in _tree(proc.pid)))
                done.wait(0.2)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        _, err = proc.communicate()
        wall = time.perf_counter() - start
        done.set()
        sampler.join()
        if proc.returncode not in (0, 1):  # lint and deadlock exit 1 on findings
            raise SystemExit(f"bench: {' '.join(cmd)} failed ({proc.returncode}): {err[-2000:]}")
        out.seek(0)
        return wall, peak / 1024, out.read()


def _stage(name: str, intent: Path, work: Path) -> list[str]:
    return [sys.executable, "-m", "bench.stage", name, str(intent), str(work)]


def _cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "roce_cfg", *args]


def _report(intent: Path, work: Path) -> list[str]:
    return _cli("report", str(intent), "-o", str(work / "report.html"))


def run_fabric(
    name: str,
    intent: Path,
    repeats: int,
    work: Path,
    only: list[str] | None = None,
    known: dict[str, int] | None = None,
) -> list[Row]:
    """Every stage (or those naming a word of ``only``) on one fabric; ``known``: the switch
    and line counts of the fabric when the stages that report them are not run."""
    root = HERE.parent
    out = work / "out"
    plans: list[tuple[str, list[str], bool, bool]] = [
        # (stage, command, command reports its own seconds, lines/s meaningful)
        ("load + validate", _stage("load", intent, work), True, False),
        ("design", _stage("design", intent, work), True, False),
        ("render (all, written)", _stage("render", intent, work), True, True),
        ("generate (CLI)", _cli("generate", str(intent), "-o", str(work / "cli")), False, True),
        ("parse (all configs)", _stage("parse", intent, work), True, True),
        ("lint (CLI, fabric-wide)", _cli("lint", str(out)), False, True),
        ("deadlock, no failure (CLI)", _cli("deadlock", str(intent)), False, False),
        ("report (CLI; page size: bench.report_bench)", _report(intent, work), False, False),
    ]
    intent_s = str(intent)
    plans += [
        ("parse (CLI)", _cli("parse", str(out), "--fabric", str(out / "fabric.json")), False, True),
        (
            "deadlock, all single-link failures (CLI)",
            _cli("deadlock", intent_s, "--fail-links", "all-single"),
            False,
            False,
        ),
    ]
    if name != "small":
        # Every pair exactly, by symmetry (docs/deadlock.md): 33.5 million pairs on large,
        # 2.1 billion on xl, on a local Dask cluster where the extra is installed.
        pair_sweep = _cli("deadlock", intent_s, "--fail-links", "all-single", "--max-failures", "2")
        plans.append(("deadlock, every link pair (CLI)", pair_sweep, False, False))
    plans = [p for p in plans if not only or any(o in p[0] for o in only)]
    rows: list[Row] = []
    switches, lines = (known or {}).get("switches", 0), (known or {}).get("lines", 0)
    for stage, cmd, reports, rate in plans:
        times, peaks = [], []
        for _ in range(repeats):
            wall, peak, stdout = measure(cmd, root)
            if reports:
                doc = json.loads(stdout.strip().splitlines()[-1])
                times.append(float(doc["seconds"]))
                switches = int(doc.get("switches", switches))
                lines = int(doc.get("lines", lines))
            else:
                times.append(wall)
            peaks.append(peak)
        rows.append(
            Row(stage, name, switches, lines or None, statistics.median(times), max(peaks), rate)
        )
        print("  " + " | ".join(rows[-1].cells()), file=sys.stderr, flush=True)
    for r in rows:
        r.switches = r.switches or switches
        r.lines = r.lines or lines
    return rows


def run_startup(repeats: int, work: Path) -> list[Row]:
    """Whole processes a user waits for on every call: help, version, the rule list, and the
    README's example pod (issue 17's targets: help and rules < 0.3 s, the pod < 0.8 s), and the
    sizing advisor's largest worked size (issue 16's target: < 1 s)."""
    pod = HERE.parent / "examples" / "pod-small.yaml"
    plans = [
        ("start-up: --help (CLI)", _cli("--help")),
        ("start-up: --version (CLI)", _cli("--version")),
        ("start-up: rules (CLI)", _cli("rules")),
        ("generate examples/pod-small.yaml (CLI)", _cli("generate", str(pod), "-o", str(work))),
        ("plan --gpus 32768 (CLI)", _cli("plan", "--gpus", "32768", "--format", "json")),
    ]
    rows = []
    for stage, cmd in plans:
        times, peaks = [], []
        for _ in range(repeats):
            if "generate" in cmd:
                shutil.rmtree(work, ignore_errors=True)
            wall, peak, _ = measure(cmd, HERE.parent)
            times.append(wall)
            peaks.append(peak)
        fabric = {"generate": "examples/pod-small", "plan": "32,768 GPUs"}.get(cmd[3], "-")
        rows.append(Row(stage, fabric, 0, None, statistics.median(times), max(peaks), False))
        print("  " + " | ".join(rows[-1].cells()), file=sys.stderr, flush=True)
    return rows


def run_push(repeats: int) -> Row:
    cmd = [sys.executable, "-m", "bench.push_bench", "--fifty"]
    times, peaks = [], []
    doc: dict[str, int] = {}
    for _ in range(repeats):
        _, peak, stdout = measure(cmd, HERE.parent)
        doc = json.loads(stdout.strip().splitlines()[-1])
        times.append(float(doc["seconds"]))
        peaks.append(peak)
    return Row(
        "push 50 emulated switches, 10 workers",
        "50 leaves",
        doc["switches"],
        doc["lines"],
        statistics.median(times),
        max(peaks),
        True,
    )


def main() -> None:
    if sys.argv[1:2] == ["fuzz"]:
        from bench.fuzz import main as fuzz

        fuzz(sys.argv[2:])
        return
    if sys.argv[1:2] == ["semfuzz"]:
        from bench.semfuzz import main as semfuzz

        semfuzz(sys.argv[2:])
        return
    ap = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    ap.add_argument("--fabrics", default="small,large,xl", help="comma-separated: small, large, xl")
    ap.add_argument("--repeats", type=int, default=3, help="runs per stage (median)")
    ap.add_argument("--no-push", action="store_true", help="skip the 50-switch push")
    ap.add_argument(
        "--only", default="", help="comma-separated words: only the stages naming one of them"
    )
    ap.add_argument(
        "--startup-only", action="store_true", help="only the start-up and example-pod rows"
    )
    args = ap.parse_args()
    names = [n.strip() for n in args.fabrics.split(",") if n.strip()]
    unknown = set(names) - FABRICS.keys()
    if unknown:
        ap.error(f"unknown fabric(s): {', '.join(sorted(unknown))}")
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    print(
        f"# {platform.python_implementation()} {platform.python_version()}, "
        f"{platform.machine()}, {cpus} CPUs; median of {args.repeats} run(s) per stage; "
        f"load average {os.getloadavg()[0]:.1f} at the start"
    )
    rows: list[Row] = []
    with tempfile.TemporaryDirectory(prefix="roce-cfg-bench-") as tmp:
        print("start-up:", file=sys.stderr, flush=True)
        rows += run_startup(args.repeats, Path(tmp) / "pod")
        if args.startup_only:
            names, args.no_push = [], True
        for name in names:
            print(f"{name}:", file=sys.stderr, flush=True)
            work = Path(tmp) / name
            work.mkdir()
            only = [w.strip() for w in args.only.split(",") if w.strip()]
            known: dict[str, int] = {}
            if only:
                # Parse and lint read the generated folder: make it without timing it (and
                # keep its counts, so that every row has its lines/s).
                made = subprocess.run(
                    _stage("render", FABRICS[name], work), check=True, capture_output=True
                )
                known = json.loads(made.stdout.decode().strip().splitlines()[-1])
            rows += run_fabric(name, FABRICS[name], args.repeats, work, only, known)
    if not args.no_push:
        rows.append(run_push(args.repeats))
    head = ["stage", "fabric", "switches", "config lines", "seconds", "peak MB", "lines/s"]
    print("| " + " | ".join(head) + " |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for r in rows:
        print("| " + " | ".join(r.cells()) + " |")


if __name__ == "__main__":
    main()
