"""The representative scenarios of a sweep (sweep.py) as Dask tasks: on a local cluster of this
machine by default, on an existing one with ``--scheduler tcp://host:8786``. The fabric is
scattered to the workers once; answers stream back as they finish (the progress bar follows
them) and, with ``--state FILE``, are appended to a file a later run resumes from.

Dask is the optional extra ``roce-cfg[dask]``; without it the scenarios run one after the other
in this process (no home-made process pool on this path).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from roce_cfg.deadlock.analyse import Cycle
from roce_cfg.deadlock.net import Network
from roce_cfg.deadlock.statefile import header, record
from roce_cfg.deadlock.statefile import load as load_state
from roce_cfg.deadlock.sweep import Answers, Engine, Scenario
from roce_cfg.errors import InputError
from roce_cfg.output import appended
from roce_cfg.parse.many import workers

Tick = Callable[[int, int], None]
# A local cluster takes seconds to start and to receive the fabric, about what one xl
# scenario takes to analyse: worth it from this many links and this many scenarios (an
# explicit --scheduler is always used).
DASK_FROM_LINKS = 2048
LOCAL_FROM_SCENARIOS = 8


def have_dask() -> bool:
    try:
        import dask.distributed  # noqa: F401
    except ImportError:
        return False
    return True


def answers(
    net: Network, todo: list[Scenario], tick: Tick, scheduler: str | None, state: str | None
) -> Answers:
    """Each scenario's opened cycles: from the state file where it has them, else analysed."""
    if scheduler and not have_dask():
        raise InputError("--scheduler needs the Dask extra: pip install 'roce-cfg[dask]'")
    path = Path(state) if state else None
    kept = load_state(path, net) if path else None
    done = kept or {}
    rest = [sc for sc in todo if sc not in done]
    # reached only with work to hand it: a complete state file answers without any cluster
    address = checked_scheduler(scheduler) if scheduler and rest else None
    # asked last: importing dask.distributed costs half a second a sweep in this process skips
    use_dask = (bool(address) or local_pays(net, len(rest))) and have_dask()
    stream = _dask(net, rest, address) if use_dask and rest else _serial(net, rest)
    with appended(path) if path else _null() as add:
        if kept is None:
            add(header(net))
        for i, (scenario, cycles) in enumerate(stream, 1):
            done[scenario] = cycles
            add(record(scenario, cycles))
            tick(len(todo) - len(rest) + i, len(todo))
    return {sc: done[sc] for sc in todo}


def checked_scheduler(scheduler: str) -> str:
    """--scheduler's address, validated and answered by a Dask scheduler
    (roce_cfg/deadlock/scheduler.py)."""
    from roce_cfg.deadlock.scheduler import reach

    return reach(scheduler)


def local_pays(net: Network, scenarios: int) -> bool:
    """Whether starting a local cluster for ``scenarios`` saves time: the xl single sweep's two
    representatives run faster in this process than a cluster starts."""
    return len(net.links) >= DASK_FROM_LINKS and scenarios >= LOCAL_FROM_SCENARIOS


@contextmanager
def _null() -> Iterator[Callable[[str], None]]:
    yield lambda text: None


def _serial(net: Network, todo: list[Scenario]) -> Iterator[tuple[Scenario, list[Cycle]]]:
    engine = Engine(net)
    for scenario in todo:
        yield scenario, engine.opens(scenario)


_engines: dict[int, Engine] = {}  # per worker process: the scattered fabric's engine


def _opens(net: Network, scenario: Scenario) -> tuple[Scenario, list[Cycle]]:
    """One task: a worker keeps one engine per scattered fabric (the full engine's state is
    built at most once, and only if some scenario has a cycle)."""
    engine = _engines.get(id(net))
    if engine is None or engine.net is not net:
        _engines.clear()
        engine = _engines[id(net)] = Engine(net)
    return scenario, engine.opens(scenario)


def _dask(
    net: Network, todo: list[Scenario], scheduler: str | None
) -> Iterator[tuple[Scenario, list[Cycle]]]:
    from dask.distributed import Client, LocalCluster, as_completed

    cluster = None
    if scheduler is None:
        cluster = LocalCluster(  # type: ignore[no-untyped-call]
            n_workers=workers(),
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=None,
        )
    try:
        with _client(Client, scheduler, cluster) as client:
            # hash=False: Dask would otherwise tokenize the whole fabric to name it.
            [shared] = client.scatter([slim(net)], broadcast=True, hash=False)
            futures = [client.submit(_opens, shared, sc, pure=False) for sc in todo]
            for future in as_completed(futures):  # type: ignore[no-untyped-call]
                yield future.result()
    except OSError as exc:
        raise InputError(f"--scheduler {scheduler}: the connection failed: {exc}") from exc
    finally:
        if cluster is not None:
            cluster.close()


def _client(client: Any, scheduler: str | None, cluster: Any) -> Any:
    """A Client of the local cluster, or of the scheduler ``reach`` checked, connected within
    a bounded time (Dask's own default waits 30 s)."""
    if scheduler is None:
        return client(cluster)
    from roce_cfg.deadlock.scheduler import CONNECT_S, HELLO_S

    try:
        return client(scheduler, timeout=CONNECT_S + HELLO_S)
    except (OSError, ValueError, TypeError) as exc:  # TimeoutError is an OSError
        raise InputError(
            f"--scheduler {scheduler}: no Dask scheduler answered "
            f"({type(exc).__name__}: {str(exc).splitlines()[0][:120] if str(exc) else ''})"
        ) from None


@dataclasses.dataclass(frozen=True)
class _Role:
    role: str


def slim(net: Network) -> Network:
    """The fabric as the workers need it: the parsed switch configs stay behind (a cause
    names a hop by the switches' roles only), which is most of the memory on xl."""
    roles: Any = [_Role(d.role) for d in net.devices]
    return dataclasses.replace(net, devices=roles)
