"""The failure sweep's representatives as Dask tasks (deadlock/cluster.py): a local cluster, an
explicit scheduler address (a LocalCluster on 127.0.0.1), and resuming from a state file. The
Dask tests skip where the extra is not installed; the rest run either way."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from roce_cfg.deadlock import cluster, load, sweep
from roce_cfg.deadlock.analyse import Report
from roce_cfg.deadlock.net import build
from roce_cfg.deadlock.run import Failures, run
from roce_cfg.errors import InputError
from tests.helpers import ROOT

VALLEY = ROOT / "tests/deadlock/valley-per-spine-asn.yaml"
PLAN = Failures(fail_links="all-single", max_failures=2)


def _answer(report: Report) -> dict[tuple[int, ...], list[tuple[tuple[int, int], ...]]]:
    return {sc: sorted(c.nodes for c in cs) for sc, cs in report.opened.items()}


def _serial(monkeypatch: pytest.MonkeyPatch) -> Report:
    with monkeypatch.context() as m:
        m.setattr(cluster, "have_dask", lambda: False)
        return run(load(VALLEY), PLAN)


def test_without_dask_the_sweep_runs_in_turn_and_finds_the_valley_pairs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    report = _serial(monkeypatch)
    assert report.scenarios == 1 + 8 + 28
    assert len(report.opened) == 12 and all(len(sc) == 2 for sc in report.opened)
    with monkeypatch.context() as m:
        m.setattr(cluster, "have_dask", lambda: False)
        with pytest.raises(InputError, match="Dask extra"):
            run(load(VALLEY), Failures(fail_links="all-single", scheduler="tcp://127.0.0.1:8786"))


def test_a_local_cluster_gives_the_serial_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("dask.distributed")
    expected = _answer(_serial(monkeypatch))
    seen: list[int] = []
    monkeypatch.setattr(cluster, "DASK_FROM_LINKS", 0)  # this small fabric on a cluster too,
    monkeypatch.setattr(cluster, "LOCAL_FROM_SCENARIOS", 2)  # its four scenarios too
    monkeypatch.setattr(cluster, "_serial", None)  # and never in turn
    report = run(load(VALLEY), PLAN, lambda i, n: seen.append(i))
    assert _answer(report) == expected
    assert seen[-1] == 4  # one single orbit and three pair classes, each reported back


def test_a_local_cluster_starts_only_for_enough_scenarios_on_a_large_fabric(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pytest.importorskip("dask.distributed")
    expected = _answer(_serial(monkeypatch))
    monkeypatch.setattr(cluster, "DASK_FROM_LINKS", 0)
    monkeypatch.setattr(cluster, "_dask", None)  # a cluster would fail: four scenarios are few
    assert _answer(run(load(VALLEY), PLAN)) == expected
    src = load(VALLEY)
    net = build(src.devices, src.links, src.dscp)
    assert not cluster.local_pays(net, cluster.LOCAL_FROM_SCENARIOS - 1)
    assert cluster.local_pays(net, cluster.LOCAL_FROM_SCENARIOS)
    monkeypatch.setattr(cluster, "DASK_FROM_LINKS", len(net.links) + 1)
    assert not cluster.local_pays(net, 1000)  # a small fabric: in this process however many


def test_an_explicit_scheduler_address_gives_the_serial_answer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pytest.importorskip("dask.distributed")
    from dask.distributed import LocalCluster

    expected = _answer(_serial(monkeypatch))
    with LocalCluster(
        n_workers=1, threads_per_worker=1, host="127.0.0.1", dashboard_address=None
    ) as local:
        report = run(
            load(VALLEY), Failures("all-single", max_failures=2, scheduler=local.scheduler_address)
        )
    assert _answer(report) == expected


def test_a_rerun_resumes_from_the_state_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cluster, "have_dask", lambda: False)
    state = tmp_path / "sweep.jsonl"
    plan = Failures("all-single", max_failures=2, state=str(state))
    first = run(load(VALLEY), plan)
    lines = state.read_text().splitlines()
    assert len(lines) == 1 + 4  # the fabric's fingerprint, then one line per representative

    def never(self: sweep.Engine, scenario: tuple[int, ...]) -> list[object]:
        raise AssertionError(f"analysed {scenario} again")

    monkeypatch.setattr(sweep.Engine, "opens", never)
    assert _answer(run(load(VALLEY), plan)) == _answer(first)
    # An interrupted run: the answers kept so far are reused, the rest analysed.
    state.write_text("\n".join(lines[:3]) + "\n")
    monkeypatch.undo()
    monkeypatch.setattr(cluster, "have_dask", lambda: False)
    assert _answer(run(load(VALLEY), plan)) == _answer(first)
    assert len(state.read_text().splitlines()) == 5


def test_a_state_file_of_another_fabric_or_garbled_is_an_input_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cluster, "have_dask", lambda: False)
    state = tmp_path / "sweep.jsonl"
    state.write_text(json.dumps({"fabric": "0" * 16}) + "\n")
    with pytest.raises(InputError, match="another fabric"):
        run(load(VALLEY), Failures("all-single", state=str(state)))
    run(load(VALLEY), Failures("all-single", state=str(tmp_path / "ok.jsonl")))
    good = (tmp_path / "ok.jsonl").read_text().splitlines()[0]
    state.write_text(good + "\n{not json\n")
    with pytest.raises(InputError, match=r"\.jsonl:2 --state: unreadable line"):
        run(load(VALLEY), Failures("all-single", state=str(state)))
