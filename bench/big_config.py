"""Issue 27's budget at the config caps: ``python -m bench.big_config``.

Builds, per vendor, one running-config of 99,990 bare interfaces (a header line, one
``interface X`` line per port, the closing line the vendor saves: 99,992 lines, under the
100,000-line and 16 MiB caps of parse/text.py), and one config whose every port is a finding
(``FINDINGS``: 49,990 ports, 99,982 findings), and runs ``roce-cfg parse`` (JSON), ``lint``
(text) and ``lint --format json`` on it, each as its own process writing to a file. Per run:
CPU seconds (user + system, from the kernel's accounting of the child), wall seconds, the
child's peak resident set (max RSS, the interpreter's own ~70 MB included) and the peak the
bench's sampler saw (proportional set size every 0.2 s, as ``python -m bench`` reports it).

The budget (issue 27): 5 s of CPU and 256 MB for any input under the caps. Figures depend on
the machine and its load: the load average is printed with them. Not a test (no timed tests).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from bench.__main__ import _memory_kb, _tree

PORTS = 99_990
PER_SLOT = 64
BUDGET_CPU_S = 5.0
BUDGET_MB = 256.0

# (header, port name from slot and port, closing line) as each vendor saves them; the closing
# lines are the profiles' ``last_line`` (vendors/*.yaml), the names the fixtures' (tests/parse/).
VENDORS: dict[str, tuple[str, Callable[[int, int], str], str]] = {
    "h3c": ("sysname big", lambda s, p: f"interface HundredGigE{s}/0/{p}", "return"),
    "huawei": ("sysname big", lambda s, p: f"interface 100GE{s}/0/{p}", "return"),
    "ruijie": ("hostname big", lambda s, p: f"interface HundredGigabitEthernet {s}/{p}", "end"),
    "zte": ("hostname big", lambda s, p: f"interface cdgei-0/{s}/0/{p}", "!</if-intf>"),
}


# The worst case for lint's output: a model the config names (its buffer figures are known,
# so every port is judged) and PFC enabled on every port with nothing else (two findings a
# port, RC107 and RC108). Two lines a port: 49,990 ports, 99,982 findings. Huawei because a
# CE config names its model ('device board', tests/parse/huawei/leaf-ce6885.cfg).
FINDINGS = ("huawei", "device board 1 board-type CE6885-48YS8CQ", " dcb pfc enable")


def config_text(vendor: str, ports: int = PORTS, shape: str = "bare") -> str:
    """``bare``: one line a port; ``findings``: FINDINGS' vendor, half the ports, two lines each."""
    head, name, tail = VENDORS[vendor]
    lines = [head]
    if shape == "findings":
        lines.append(FINDINGS[1])
        for i in range(ports // 2):
            lines += [name(1 + i // PER_SLOT, 1 + i % PER_SLOT), FINDINGS[2]]
    else:
        lines += [name(1 + i // PER_SLOT, 1 + i % PER_SLOT) for i in range(ports)]
    lines.append(tail)
    return "\n".join(lines) + "\n"


@dataclass
class Run:
    cpu_s: float
    wall_s: float
    max_rss_mb: float
    sampled_mb: float
    out_mb: float
    exit: int


def run(cmd: list[str], out: Path) -> Run:
    """One process: its CPU and max RSS from wait4, its PSS sampled every 0.2 s."""
    peak = 0
    done = threading.Event()
    with out.open("wb") as fh:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=fh, stderr=subprocess.DEVNULL)

        def sample() -> None:
            nonlocal peak
            while not done.is_set():
                peak = max(peak, sum(_memory_kb(p) for p in _tree(proc.pid)))
                done.wait(0.2)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)  # reaped here, not by Popen
        done.set()
        sampler.join()
    return Run(
        cpu_s=usage.ru_utime + usage.ru_stime,
        wall_s=wall,
        max_rss_mb=usage.ru_maxrss / 1024,
        sampled_mb=peak / 1024,
        out_mb=out.stat().st_size / 2**20,
        exit=proc.returncode,
    )


def _cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "roce_cfg", *args]


STAGES: dict[str, Callable[[str, Path], list[str]]] = {
    "parse": lambda v, f: _cli("parse", "--vendor", v, str(f)),
    "lint text": lambda v, f: _cli("lint", "--vendor", v, str(f)),
    "lint json": lambda v, f: _cli("lint", "--vendor", v, "--format", "json", str(f)),
}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m bench.big_config", description=__doc__)
    ap.add_argument("--vendors", default=",".join(VENDORS), help="comma-separated")
    ap.add_argument(
        "--stages", default=",".join(STAGES), help="comma-separated: " + ",".join(STAGES)
    )
    ap.add_argument("--repeats", type=int, default=1, help="runs per stage (median, max peak)")
    ap.add_argument("--ports", type=int, default=PORTS, help="interfaces per config")
    args = ap.parse_args(argv)
    cases = [(v, "bare") for v in args.vendors.split(",") if v]
    if FINDINGS[0] in args.vendors.split(","):
        cases.append((FINDINGS[0], "findings"))
    stages = [s for s in args.stages.split(",") if s]
    print(f"# load average {os.getloadavg()[0]:.1f} at the start; {args.ports:,} ports")
    head = (
        "vendor | shape | stage | exit | CPU s | wall s | max RSS MB | sampled PSS MB | output MB"
    )
    print(f"| {head} |")
    print("|---|---|---|---:|---:|---:|---:|---:|---:|")
    over = False
    with tempfile.TemporaryDirectory(prefix="roce-cfg-big-") as tmp:
        for vendor, shape in cases:
            cfg = Path(tmp) / f"{vendor}-{shape}.cfg"
            cfg.write_text(config_text(vendor, args.ports, shape), encoding="utf-8")
            for stage in stages:
                runs = [
                    run(STAGES[stage](vendor, cfg), Path(tmp) / "out") for _ in range(args.repeats)
                ]
                cpu = statistics.median(r.cpu_s for r in runs)
                rss = max(r.max_rss_mb for r in runs)
                over |= cpu > BUDGET_CPU_S or rss > BUDGET_MB
                r = runs[-1]
                print(
                    f"| {vendor} | {shape} | {stage} | {r.exit} | {cpu:.2f} | "
                    f"{statistics.median(x.wall_s for x in runs):.2f} | {rss:.0f} | "
                    f"{max(x.sampled_mb for x in runs):.0f} | {r.out_mb:.1f} |",
                    flush=True,
                )
    print(
        f"# load average {os.getloadavg()[0]:.1f} at the end; budget {BUDGET_CPU_S} s CPU, "
        f"{BUDGET_MB:.0f} MB: {'exceeded' if over else 'held'}"
    )


if __name__ == "__main__":
    main()
