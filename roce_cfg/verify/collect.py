"""Reading switches: one netmiko session per switch, read-only commands only (verify never enters a
configuration view: every command comes from display data whose commands start with a read-only
verb, 'display' or 'show'), fanned out with nornir's threaded runner."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from nornir.core import Nornir
from nornir.core.inventory import Defaults, Groups, Host, Hosts, Inventory
from nornir.core.task import Result, Task
from nornir.plugins.runners import ThreadedRunner

from roce_cfg.deploy.inventory import Target
from roce_cfg.deploy.push import Credentials
from roce_cfg.deploy.transport import Timeouts, Unusable, connect
from roce_cfg.verify.data import read_only


@dataclass
class Reading:
    """What one switch printed per check (raw text), or why it could not be read."""

    host: str
    outputs: dict[str, str] = field(default_factory=dict)
    failed: dict[str, str] = field(default_factory=dict)  # check -> why its command failed
    error: str = ""  # the switch could not be reached or logged into
    seconds: float = 0.0
    at: float = 0.0  # monotonic time the last command was answered (the counters come last)


def read(target: Target, creds: Credentials, commands: dict[str, str], steps: Timeouts) -> Reading:
    """Run ``commands`` (check -> display command) on one switch; never raises."""
    start = time.perf_counter()
    reading = Reading(target.name)
    try:
        conn = connect(
            target.profile,
            target.address,
            target.port,
            creds.username,
            creds.password,
            steps,
            target.extras,
            enable=False,
        )
    except Unusable as exc:
        reading.error = f"{exc.kind}: {exc}"
    except Exception as exc:
        reading.error = f"{type(exc).__name__}: {str(exc).strip()[:200]}"
    else:
        try:
            for check, command in commands.items():
                if not read_only(command):  # whatever the data says
                    raise ValueError(f"not a read-only command: {command!r}")
                try:
                    reading.outputs[check] = str(
                        conn.send_command(command, read_timeout=steps.command)
                    )
                except Exception as exc:
                    reading.failed[check] = f"{type(exc).__name__}: {str(exc).strip()[:200]}"
            reading.at = time.monotonic()
        finally:
            with contextlib.suppress(Exception):
                conn.disconnect()
    reading.seconds = time.perf_counter() - start
    return reading


def read_all(
    targets: list[Target],
    creds: Credentials,
    commands: Callable[[Target], dict[str, str]],
    *,
    workers: int = 10,
    steps: Timeouts | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Reading]:
    """Every target read in parallel; ``commands`` names what to run on each."""
    by_name = {t.name: t for t in targets}
    done: dict[str, Reading] = {}
    bounds = steps or Timeouts()

    def task(task: Task) -> Result:
        t = by_name[task.host.name]
        done[t.name] = read(t, creds, commands(t), bounds)
        if progress is not None:
            progress(len(done), len(targets))
        return Result(host=task.host, result=None)

    hosts = Hosts({t.name: Host(name=t.name, hostname=t.address, port=t.port) for t in targets})
    nr = Nornir(
        inventory=Inventory(hosts=hosts, groups=Groups(), defaults=Defaults()),
        runner=ThreadedRunner(num_workers=workers),
    )
    nr.run(task=task)
    return done
