"""Fan-out over many switches with nornir's threaded runner, in canary batches."""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path

from nornir.core import Nornir
from nornir.core.inventory import Defaults, Groups, Host, Hosts, Inventory
from nornir.core.task import Result, Task
from nornir.plugins.runners import ThreadedRunner

from roce_cfg.deploy.inventory import Target
from roce_cfg.deploy.push import FAILED, Credentials, Outcome, push
from roce_cfg.deploy.session import TYPE_AHEAD
from roce_cfg.deploy.transport import Timeouts
from roce_cfg.errors import InputError
from roce_cfg.heap import bulk_objects
from roce_cfg.parse import read_config
from roce_cfg.safepath import file_names, inside


def batches(spec: str, total: int) -> list[int]:
    """Cumulative batch ends: '1,10%,100%' of 50 hosts -> [1, 5, 50].

    >>> batches("1,10%,100%", 50)
    [1, 5, 50]
    >>> batches("100%", 3)
    [3]
    >>> batches("1e999%", 3)
    Traceback (most recent call last):
    ...
    roce_cfg.errors.InputError: --batch: '1e999%' is not a count or a percentage
    """
    ends: list[int] = []
    for part in (p.strip() for p in spec.split(",") if p.strip()):
        try:
            n = math.ceil(total * float(part[:-1]) / 100) if part.endswith("%") else int(part)
        except (ValueError, OverflowError):  # OverflowError: '1e999%' is an infinite share
            raise InputError(f"--batch: '{part[:40]}' is not a count or a percentage") from None
        n = max(1, min(total, n))
        if not ends or n > ends[-1]:
            ends.append(n)
    if not ends or ends[-1] < total:
        ends.append(total)
    return ends


def _intended(targets: list[Target], configs: Path) -> dict[str, str]:
    """Each target's intended config, read before any switch is touched."""
    intended = {}
    # Host names come from the inventory: '../../x' or '/abs/x' must not pick the config.
    names = file_names([t.name for t in targets], ".cfg", what="inventory host")
    for t in targets:
        path = inside(configs, names[t.name])
        if not path.is_file():
            raise InputError(f"no intended config for {t.name}", file=str(path))
        # the parse side's reader: capped, and binary or mis-encoded text is a one-line error
        intended[t.name] = read_config(path)
    return intended


# Each switch's push makes tens of thousands of small objects (trees of its configs, parsed
# lines, SSH messages) and frees them by reference counting; at CPython's default thresholds
# the cyclic collector ran about 240 times for 50 leaves and rescanned every live session's,
# 0.13-0.21 s of push's 1.5 s of CPU (python -m bench.push_bench --compare).
@bulk_objects()
def run(
    targets: list[Target],
    configs: Path,
    creds: Credentials,
    *,
    apply: bool,
    workers: int = 10,
    batch: str = "100%",
    timeout: float = 60.0,
    prune: bool = False,
    progress: Callable[[int, int], None] | None = None,
    timeouts: Timeouts | None = None,
    on_batch: Callable[[int, int, list[Outcome]], None] | None = None,
    confirm: int | None = None,
    strict: bool = False,
    window: int | None = None,
) -> list[Outcome]:
    """Push every target's ``<name>.cfg`` from ``configs``; stop after a batch that failed.

    ``on_batch(number, of, outcomes)`` is told where each batch ends and how its switches went,
    so an operator watching a canary sees the boundary before the next batch starts.
    ``confirm`` (seconds): each switch is changed under its own confirm timer and confirmed
    once verified; a batch with a failure stops the rollout before the next batch. ``strict``:
    a switch whose change would type a negation no source documents is not touched.
    ``window``: configuration lines typed ahead of the answers read (session.Cli.send_all;
    None: push's default)."""
    ahead = window or TYPE_AHEAD
    intended = _intended(targets, configs)
    by_name = {t.name: t for t in targets}
    outcomes: list[Outcome] = []

    def task(task: Task) -> Result:
        t = by_name[task.host.name]
        outcome = push(
            t, intended[t.name], creds, apply, timeout, prune, timeouts, confirm, strict, ahead
        )
        outcomes.append(outcome)
        if progress is not None:
            progress(len(outcomes), len(targets))
        return Result(host=task.host, result=outcome, failed=outcome.status in FAILED)

    done = 0
    ends = batches(batch, len(targets))
    for number, end in enumerate(ends, 1):
        group = targets[done:end]
        hosts = Hosts({t.name: Host(name=t.name, hostname=t.address, port=t.port) for t in group})
        nr = Nornir(
            inventory=Inventory(hosts=hosts, groups=Groups(), defaults=Defaults()),
            runner=ThreadedRunner(num_workers=workers),
        )
        result = nr.run(task=task)
        if on_batch is not None:
            finished = {o.host: o for o in outcomes}  # threads finish in any order
            on_batch(number, len(ends), [finished[t.name] for t in group if t.name in finished])
        done = end
        if result.failed:
            break
    order = {t.name: i for i, t in enumerate(targets)}
    return sorted(outcomes, key=lambda o: order[o.host])
