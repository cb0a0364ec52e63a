"""Push throughput against the SSH emulators: one full leaf config per vendor, and 50 switches
in parallel (10 workers), each from an empty config to the intended one, verified.

``--compare``: the 50 switches pushed with lines typed ahead (push's default), line by line
(``--type-ahead 1``) and as the streaming push that came before (25 lines at a time, a view's
answer not awaited: unsafe, for comparison only), alternating, each run against a fresh
emulator process; wall time, push's CPU and the emulators' CPU apart."""

from __future__ import annotations

import contextlib
import cProfile
import json
import multiprocessing
import os
import pstats
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path

from roce_cfg.deploy import fanout, session
from roce_cfg.deploy.inventory import Target
from roce_cfg.deploy.push import Credentials, push
from roce_cfg.deploy.session import TYPE_AHEAD
from roce_cfg.generate import generate
from roce_cfg.lab.cli import Faults, Switch
from roce_cfg.lab.server import Lab
from roce_cfg.platforms.profile import load_profile
from roce_cfg.vendor import Vendor

ROOT = Path(__file__).resolve().parent.parent
CREDS = Credentials("bench", "bench-only-password")


@dataclass
class Row:
    what: str
    switches: int
    commands: int
    seconds: float
    ok: int


def _leaf(vendor: Vendor) -> str:
    return generate(ROOT / f"tests/scenarios/pod-small-{vendor.value}.yaml").configs["leaf-1"]


def run() -> list[Row]:
    rows = []
    for vendor in Vendor:
        profile = load_profile(vendor)
        sw = Switch.start("leaf-1", profile)
        with Lab([sw], CREDS.username, CREDS.password) as lab:
            target = Target("leaf-1", "127.0.0.1", lab.endpoints["leaf-1"].port, profile)
            out = push(target, _leaf(vendor), CREDS, apply=True)
        rows.append(Row(f"one leaf, {vendor.value}", 1, len(out.commands), out.seconds,
                        int(out.status == "changed")))  # fmt: skip
    rows.append(fifty())
    return rows


def fifty() -> Row:
    """50 emulated leaves of all four vendors, from empty to intended, 10 workers."""
    vendors = [list(Vendor)[i % 4] for i in range(50)]
    texts = {v: _leaf(v) for v in Vendor}
    with tempfile.TemporaryDirectory() as tmp:
        configs = Path(tmp)
        switches, targets = [], []
        for i, v in enumerate(vendors):
            name = f"leaf-{i + 1:02d}"
            (configs / f"{name}.cfg").write_text(texts[v])
            switches.append(Switch.start(name, load_profile(v)))
        with Lab(switches, CREDS.username, CREDS.password) as lab:
            targets = [
                Target(s.hostname, "127.0.0.1", lab.endpoints[s.hostname].port, s.profile)
                for s in switches
            ]
            start = time.perf_counter()
            outcomes = fanout.run(targets, configs, CREDS, apply=True, workers=10)
            seconds = time.perf_counter() - start
    return Row("50 leaves, 10 workers", 50, sum(len(o.commands) for o in outcomes), seconds,
               sum(o.status == "changed" for o in outcomes))  # fmt: skip


# -- pipelined against line by line -------------------------------------------------------------
# The emulators run in a process of their own, so that push's CPU and theirs are measured apart
# (and neither waits for the other's interpreter lock).


def _serve(vendors: list[str], latency: float, conn: Connection) -> None:
    """The emulator process: 50 (or N) empty leaves, their ports sent back, then the CPU time
    it has used whenever asked, until told to stop. ``latency``: each answer that much later
    (a network's round trip; 127.0.0.1 has none to speak of)."""
    switches = [
        Switch.start(f"leaf-{i + 1:03d}", load_profile(Vendor(v))) for i, v in enumerate(vendors)
    ]
    for s in switches:
        s.faults = Faults(latency_s=latency)
    with Lab(switches, CREDS.username, CREDS.password) as lab:
        conn.send({s.hostname: lab.endpoints[s.hostname].port for s in switches})
        while conn.recv() == "cpu":
            conn.send(time.process_time())
    conn.close()


@dataclass
class Run:
    mode: str
    seconds: float
    push_cpu: float
    lab_cpu: float
    lines: int
    ok: int


# mode -> (lines typed ahead, whether a view opener is answered before the next line goes out)
MODES = {
    "pipelined": (TYPE_AHEAD, True),
    "line by line": (1, True),
    "streaming": (25, False),  # the unsafe push that came before: 25 lines, views not awaited
}


def _mode(name: str) -> tuple[int, bool]:
    """A mode's type-ahead and view rule; 'ahead N': N lines, views awaited."""
    if name.startswith("ahead "):
        return int(name.split()[1]), True
    return MODES[name]


def _once(
    mode: str, count: int, workers: int, configs: Path, latency: float, profile: str = ""
) -> Run:
    vendors = [list(Vendor)[i % 4].value for i in range(count)]
    ctx = multiprocessing.get_context("spawn")
    ours, theirs = ctx.Pipe()
    lab = ctx.Process(target=_serve, args=(vendors, latency, theirs), daemon=True)
    lab.start()
    try:
        ports = ours.recv()
        targets = [
            Target(name, "127.0.0.1", port, load_profile(Vendor(v)))
            for (name, port), v in zip(ports.items(), vendors, strict=True)
        ]
        window, await_views = _mode(mode)
        ours.send("cpu")
        lab_cpu = ours.recv()
        cpu, start = time.process_time(), time.perf_counter()
        with _views_awaited(await_views), _profiled(profile):
            outcomes = fanout.run(
                targets, configs, CREDS, apply=True, workers=workers, window=window
            )
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
        ours.send("cpu")
        lab_cpu = ours.recv() - lab_cpu
        ours.send("stop")
    finally:
        lab.join(timeout=30)
        if lab.is_alive():
            lab.kill()
    lines = sum(len(o.commands) for o in outcomes)
    return Run(mode, seconds, cpu, lab_cpu, lines, sum(o.status == "changed" for o in outcomes))


@contextlib.contextmanager
def _profiled(path: str) -> Iterator[None]:
    """cProfile of every thread of the push process (nornir's workers, paramiko's transport
    threads, the login watchers), merged into one stats file at ``path`` ('': none). A profile
    hook set for new threads turns itself into a thread's own profiler at its first event.
    Thread CPU, not waits; the call counts are exact, the times are not: cProfile's cost per
    call inflates call-heavy Python several times (it made paramiko's byte loop look a third of
    its reading thread, 4 % by the clock), so a sampling profiler (py-spy) gives the shares."""
    if not path:
        yield
        return
    profiles = [cProfile.Profile(time.thread_time)]
    lock = threading.Lock()

    def start(frame: object, event: str, arg: object) -> None:
        prof = cProfile.Profile(time.thread_time)  # CPU, not the waits
        with lock:
            profiles.append(prof)
        prof.enable()  # replaces this hook in this thread

    threading.setprofile(start)
    profiles[0].enable()
    try:
        yield
    finally:
        profiles[0].disable()
        threading.setprofile(None)  # type: ignore[arg-type]
        with lock:
            stats = pstats.Stats(profiles[0])
            for prof in profiles[1:]:
                with contextlib.suppress(TypeError):  # a thread that never returned a frame
                    stats.add(prof)
        stats.dump_stats(path)


@contextlib.contextmanager
def _views_awaited(yes: bool) -> Iterator[None]:
    """The streaming comparison only: no line is taken for a view opener."""
    if yes:
        yield
        return
    original = session.Tree.is_view
    session.Tree.is_view = lambda self, line: False  # type: ignore[method-assign]
    try:
        yield
    finally:
        session.Tree.is_view = original  # type: ignore[method-assign]


def compare(
    count: int,
    workers: int,
    repeats: int,
    modes: list[str],
    latency: float = 0.0,
    profile: str = "",
) -> list[Run]:
    """Each mode ``repeats`` times, alternating (a fresh emulator process for each run);
    ``profile``: the first run's push process profiled into that file (cProfile stats)."""
    texts = {v: _leaf(v) for v in Vendor}
    runs = []
    with tempfile.TemporaryDirectory() as tmp:
        configs = Path(tmp)
        for i in range(count):
            (configs / f"leaf-{i + 1:03d}.cfg").write_text(texts[list(Vendor)[i % 4]])
        for r in range(repeats):
            for mode in modes:
                first = profile if not runs else ""
                run = _once(mode, count, workers, configs, latency, first)
                runs.append(run)
                print(f"  {r + 1}/{repeats} {mode}: {run.seconds:.2f} s, push CPU "
                      f"{run.push_cpu:.2f} s, emulators {run.lab_cpu:.2f} s, {run.ok}/{count} "
                      f"changed", file=sys.stderr, flush=True)  # fmt: skip
    return runs


def table(runs: list[Run], count: int, workers: int, latency: float) -> list[str]:
    rtt = f", answers {1000 * latency:g} ms late" if latency else ""
    out = [
        f"| push, {count} emulated switches, {workers} workers{rtt} | lines typed ahead | "
        "seconds (median; each run) | push CPU s | emulators CPU s | push / emulators CPU ms "
        "per line | changed |",
        "|---|---:|---|---:|---:|---|---:|",
    ]
    for mode in dict.fromkeys(r.mode for r in runs):
        mine = [r for r in runs if r.mode == mode]
        wall = statistics.median(r.seconds for r in mine)
        cpu = statistics.median(r.push_cpu for r in mine)
        lab = statistics.median(r.lab_cpu for r in mine)
        lines = mine[0].lines
        each = " / ".join(f"{r.seconds:.1f}" for r in mine)
        out.append(
            f"| {mode} | {_mode(mode)[0]} | {wall:.2f} ({each}) | {cpu:.1f} | {lab:.1f} | "
            f"{1000 * cpu / lines:.2f} / {1000 * lab / lines:.2f} | "
            f"{min(r.ok for r in mine)}/{count} |"
        )
    return out


def main(argv: list[str]) -> None:
    import argparse

    ap = argparse.ArgumentParser(prog="python -m bench.push_bench", description=__doc__)
    ap.add_argument("--fifty", action="store_true", help="one row as JSON, for python -m bench")
    ap.add_argument("--compare", action="store_true", help="pipelined vs line by line")
    ap.add_argument("--switches", type=int, default=50)
    ap.add_argument("--workers", type=int, default=10)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--latency", type=float, default=0.0, help="seconds each answer is late")
    ap.add_argument("--profile", default="", help="cProfile the first run's push into FILE")
    ap.add_argument(
        "--modes",
        default=",".join(MODES),
        help="comma-separated: " + ", ".join(MODES) + ", or 'ahead N' (N lines typed ahead)",
    )
    args = ap.parse_args(argv)
    if args.fifty:
        row = fifty()
        if row.ok != row.switches:
            raise SystemExit(f"bench: only {row.ok} of {row.switches} switches converged")
        print(json.dumps({"seconds": row.seconds, "switches": row.switches, "lines": row.commands}))
    elif args.compare:
        modes = [m.strip() for m in args.modes.split(",") if m.strip()]
        runs = compare(args.switches, args.workers, args.repeats, modes, args.latency, args.profile)
        print(f"# load average {os.getloadavg()[0]:.1f} at the end", file=sys.stderr)
        print("\n".join(table(runs, args.switches, args.workers, args.latency)))
    else:
        print("| push | switches | commands | seconds | converged |")
        print("|---|---:|---:|---:|---:|")
        for r in run():
            print(f"| {r.what} | {r.switches} | {r.commands:,} | {r.seconds:.2f} | {r.ok} |")


if __name__ == "__main__":
    main(sys.argv[1:])
