"""A timeline of one lint: when each stage of the parent starts and ends, wall and CPU.

``python -m bench.lint_timeline [FOLDER] [--cache]`` (default /tmp/xl) calls
``roce_cfg.analysis.lint`` once (with the parse cache: ``--cache``) with the stage functions
wrapped, and prints one line per stage: its start and end in seconds since the call (wall),
its own wall and the parent's CPU in it. The stages after the parse workers finish
(``tail``: from the last parsed file to the result) are the parent's serial part (issue 30);
``fabric rules`` is the parent's share of ``_run``, the device rules running in a forked child
meanwhile. ``--in-process`` keeps the device rules in this process.
Note ``uptime`` beside it: the machine's load stretches every wall figure.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import roce_cfg.analysis as analysis
from roce_cfg import evidence

try:  # lint's work and its rule engine; an older checkout held both in the package
    from roce_cfg.analysis import engine, run
except ImportError:
    engine = run = analysis  # type: ignore[misc]
from roce_cfg.analysis.registry import RULES, Rule

_T0 = 0.0
_rows: list[tuple[str, float, float, float]] = []  # stage, start, end, cpu


def _timed(key: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    def run(*args: Any, **kwargs: Any) -> Any:
        cpu, start = time.process_time(), time.perf_counter()
        try:
            return fn(*args, **kwargs)
        finally:
            _rows.append((key, start - _T0, time.perf_counter() - _T0, time.process_time() - cpu))

    return run


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def _with_children(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` with the CPU of the children that ended in it (the device rules' child) noted."""

    def run(*args: Any, **kwargs: Any) -> Any:
        before = _children_cpu()
        try:
            return fn(*args, **kwargs)
        finally:
            _rows.append(
                ("device-rules child CPU (forked in judge)", 0.0, 0.0, _children_cpu() - before)
            )

    return run


def _timed_iter(key: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    """A generator check, timed over its whole iteration."""

    def run(*args: Any, **kwargs: Any) -> Iterator[Any]:
        cpu, start = time.process_time(), time.perf_counter()
        try:
            yield from fn(*args, **kwargs)
        finally:
            _rows.append((key, start - _T0, time.perf_counter() - _T0, time.process_time() - cpu))

    return run


def _parsed_marks(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``_views`` with the moment its last parsed file arrived marked: the tail starts there."""

    def run(parsed: Any, *args: Any, **kwargs: Any) -> Any:
        def marked() -> Iterator[Any]:
            yield from parsed
            _rows.append(("last parse in", time.perf_counter() - _T0, 0.0, 0.0))

        return fn(marked(), *args, **kwargs)

    return run


def _wrap_rules(in_process: bool) -> None:
    for rule_id, r in list(RULES.items()):
        if r.check is None or (r.scope == "device" and not in_process):
            continue
        RULES[rule_id] = Rule(
            **{**r.__dict__, "check": _timed_iter(f"  {rule_id} {r.name}", r.check)}
        )


def _merged(rows: list[tuple[str, float, float, float]]) -> list[tuple[str, float, float, float]]:
    """One row per stage: a device rule runs once per switch (first start, last end, all CPU)."""
    out: dict[str, tuple[str, float, float, float]] = {}
    for key, start, stop, used in rows:
        seen = out.get(key)
        out[key] = (
            (key, start, stop, used)
            if seen is None
            else (key, seen[1], max(seen[2], stop), seen[3] + used)
        )
    return sorted(out.values(), key=lambda r: r[1])


def _wrap_stages() -> None:
    """The parent's stages, those this checkout has (an older one, on PYTHONPATH, to compare:
    it gathered the evidence in one call, before the device rules)."""
    run._views = _timed("_views (parse)", _parsed_marks(run._views))
    judge = "judge" if hasattr(run, "judge") else "_judge"
    setattr(run, judge, _with_children(getattr(run, judge)))
    stages = (judge, "_topology_roles", "_agreed_dscp", "_run", "_fabric_view", "apply")
    # each where it is called: judge from lint's work, the others from the engine
    for home, name in [(run, judge), *((engine, n) for n in stages[1:])]:
        if hasattr(home, name):
            setattr(home, name, _timed(name, getattr(home, name)))
    topology = getattr(evidence, "Topology", None)
    if topology is None:
        evidence.gather = _timed("evidence.gather", evidence.gather)
        return
    topology.of = classmethod(_timed("evidence.Topology.of", topology.of.__func__))
    topology.gathered = _timed("evidence gathered", topology.gathered)


def main(argv: list[str]) -> None:
    global _T0
    parser = argparse.ArgumentParser(prog="bench.lint_timeline")
    parser.add_argument("folder", nargs="?", type=Path, default=Path("/tmp/xl"))
    parser.add_argument("--in-process", action="store_true")
    parser.add_argument("--cache", action="store_true", help="with the parse cache")
    args = parser.parse_args(argv)
    if args.in_process:
        engine.ASIDE_FROM = sys.maxsize
    _wrap_rules(args.in_process)
    _wrap_stages()
    _T0 = time.perf_counter()
    cpu0 = time.process_time()
    if args.cache:  # the configs the cache holds read from it (roce_cfg/parse/cache.py)
        from roce_cfg.parse.cache import open_cache

        cache, _ = open_cache([args.folder], None)
        result = analysis.lint([args.folder], cache=cache)
    else:
        result = analysis.lint([args.folder])
    end, cpu = time.perf_counter() - _T0, time.process_time() - cpu0
    rows = _merged(_rows)
    last = next((r[1] for r in rows if r[0] == "last parse in"), 0.0)
    print(f"{'stage':44} {'start':>7} {'end':>7} {'wall':>6} {'cpu':>6}")
    for key, start, stop, used in rows:
        if key == "last parse in":
            print(f"{key:44} {start:7.3f}")
        elif not start:
            print(f"{key:44} {'':7} {'':7} {'':6} {used:6.3f}")
        else:
            print(f"{key:44} {start:7.3f} {stop:7.3f} {stop - start:6.3f} {used:6.3f}")
    print(f"{'lint':44} {0:7.3f} {end:7.3f} {end:6.3f} {cpu:6.3f}")
    print(f"tail (last parse in -> result): {end - last:.3f} s wall; "
          f"{len(result.devices)} switches, {len(result.findings)} findings")  # fmt: skip


if __name__ == "__main__":
    main(sys.argv[1:])
