"""Progress feedback: a bar on stderr only when stderr is a terminal, for many items or a stage
that has run for a while; deadlock sweeps report every scenario."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from roce_cfg.cli import common as cli
from roce_cfg.deadlock import load
from roce_cfg.deadlock.run import Failures, run
from tests.helpers import ROOT


def _console(terminal: bool) -> tuple[Console, io.StringIO]:
    buf = io.StringIO()
    return Console(file=buf, force_terminal=terminal, width=100), buf


@pytest.mark.parametrize("terminal", [True, False])
def test_bar_only_on_a_terminal(monkeypatch: pytest.MonkeyPatch, terminal: bool) -> None:
    console, buf = _console(terminal)
    monkeypatch.setattr(cli, "err", console)
    with cli.progress("parsing") as tick:
        for i in range(1, 201):
            tick(i, 200)
    assert ("parsing" in buf.getvalue()) is terminal


def test_a_short_quick_stage_shows_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    console, buf = _console(True)
    monkeypatch.setattr(cli, "err", console)
    with cli.progress("parsing") as tick:
        tick(1, 3)
    assert "parsing" not in buf.getvalue()


def test_a_slow_stage_shows_a_bar_however_few_its_items(monkeypatch: pytest.MonkeyPatch) -> None:
    console, buf = _console(True)
    monkeypatch.setattr(cli, "err", console)
    monkeypatch.setattr(cli, "PROGRESS_AFTER_S", -1.0)  # as if a second had passed
    with cli.progress("failure scenarios") as tick:
        tick(1, 3)
    assert "failure scenarios" in buf.getvalue()


def test_deadlock_sweep_ticks_through_every_scenario() -> None:
    seen: list[tuple[int, int]] = []
    src = load(ROOT / "examples/pod-small.yaml")
    run(src, Failures(fail_links="all-single"), lambda d, t: seen.append((d, t)))
    assert seen, "no progress reported"
    done, total = seen[-1]
    assert done == total
    assert [d for d, _ in seen] == list(range(1, total + 1))
