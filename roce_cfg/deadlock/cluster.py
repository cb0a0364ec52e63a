"""The representative scenarios of a sweep (sweep.py) as Dask tasks: on a local cluster of this
machine by default, on an existing one with ``--scheduler tcp://host:8786``. The fabric is
scattered to the workers once; answers stream back as they finish (the progress bar follows
them) and, with ``--state FILE``, are appended to a file a later run resumes from.

Dask is the optional extra ``roce-cfg[dask]``; without it the scenarios run one after the other
in this process (no home-made process pool on this path).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from roce_cfg.deadlock.analyse import Cycle
from roce_cfg.deadlock.net import Network
from roce_cfg.deadlock.sweep import Answers, Engine, Scenario
from roce_cfg.errors import InputError
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
    done = _load(path, net) if path else {}
    rest = [sc for sc in todo if sc not in done]
    # asked last: importing dask.distributed costs half a second a sweep in this process skips
    use_dask = (bool(scheduler) or local_pays(net, len(rest))) and have_dask()
    stream = _dask(net, rest, scheduler) if use_dask and rest else _serial(net, rest)
    with path.open("a", encoding="utf-8") if path else _Null() as fh:
        for i, (scenario, cycles) in enumerate(stream, 1):
            done[scenario] = cycles
            fh.write(json.dumps(_record(scenario, cycles)) + "\n")
            fh.flush()
            tick(len(todo) - len(rest) + i, len(todo))
    return {sc: done[sc] for sc in todo}


def local_pays(net: Network, scenarios: int) -> bool:
    """Whether starting a local cluster for ``scenarios`` saves time: the xl single sweep's two
    representatives run faster in this process than a cluster starts."""
    return len(net.links) >= DASK_FROM_LINKS and scenarios >= LOCAL_FROM_SCENARIOS


class _Null:
    def __enter__(self) -> _Null:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def write(self, text: str) -> None:
        return None

    def flush(self) -> None:
        return None


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
        with Client(scheduler or cluster) as client:  # type: ignore[no-untyped-call]
            # hash=False: Dask would otherwise tokenize the whole fabric to name it.
            [shared] = client.scatter([slim(net)], broadcast=True, hash=False)
            futures = [client.submit(_opens, shared, sc, pure=False) for sc in todo]
            for future in as_completed(futures):  # type: ignore[no-untyped-call]
                yield future.result()
    except OSError as exc:
        raise InputError(f"--scheduler: cannot reach {scheduler}: {exc}") from exc
    finally:
        if cluster is not None:
            cluster.close()


@dataclasses.dataclass(frozen=True)
class _Role:
    role: str


def slim(net: Network) -> Network:
    """The fabric as the workers need it: the parsed switch configs stay behind (a cause
    names a hop by the switches' roles only), which is most of the memory on xl."""
    roles: Any = [_Role(d.role) for d in net.devices]
    return dataclasses.replace(net, devices=roles)


def fingerprint(net: Network) -> str:
    """The fabric a state file belongs to: its switches and links."""
    text = json.dumps([net.names, [(ln.a, ln.a_port, ln.b, ln.b_port) for ln in net.links]])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _record(scenario: Scenario, cycles: list[Cycle]) -> dict[str, object]:
    return {
        "scenario": list(scenario),
        "cycles": [{"nodes": [list(n) for n in c.nodes], "causes": list(c.causes)} for c in cycles],
    }


def _load(path: Path, net: Network) -> Answers:
    """The answers a state file holds; a new file starts with the fabric's fingerprint."""
    mark = fingerprint(net)
    if not path.exists():
        path.write_text(json.dumps({"fabric": mark}) + "\n", encoding="utf-8")
        return {}
    done: Answers = {}
    with path.open(encoding="utf-8") as fh:
        for no, line in enumerate(fh, 1):
            try:
                item = json.loads(line)
                if no == 1:
                    if item.get("fabric") != mark:
                        raise InputError("--state: the file is another fabric's", file=str(path))
                    continue
                scenario = tuple(int(x) for x in item["scenario"])
                done[scenario] = [_cycle(c, scenario) for c in item["cycles"]]
            except (ValueError, KeyError, TypeError, AttributeError) as exc:
                raise InputError(f"--state: unreadable line {no}: {exc}", file=str(path)) from exc
    return done


def _cycle(item: dict[str, list[list[int]] | list[str]], scenario: Scenario) -> Cycle:
    nodes = tuple((int(n[0]), int(n[1])) for n in item["nodes"])
    return Cycle(nodes, tuple(str(c) for c in item["causes"]), scenario)
