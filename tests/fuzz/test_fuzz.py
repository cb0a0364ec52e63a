"""A short, deterministic fuzzing pass of every entry point, and every input that ever failed.

The long mode (``python -m bench fuzz --cases N``) and its figures: docs/reliability.md.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.fuzz import TARGETS, Case, Measured, explore, regression_cases, run_case


@pytest.mark.sample(3)
@pytest.mark.parametrize("name", list(TARGETS))
def test_short_fuzz_run(name: str) -> None:
    def each(m: Measured) -> None:
        assert m.problem is None, f"{name}: {m.problem}"

    explore(name, TARGETS[name].short, each, shrink=True)


REGRESSIONS = regression_cases()


@pytest.mark.parametrize(
    ("name", "case", "path"),
    REGRESSIONS,
    ids=[str(p.relative_to(p.parents[1])) for *_, p in REGRESSIONS],
)
def test_every_input_that_ever_failed(name: str, case: Case, path: Path) -> None:
    m = run_case(name, case)
    assert m.problem is None, f"{path}: {m.problem}"


def test_the_harness_can_fail() -> None:
    """An escaping exception, a wrong exit code or a case over a bound is a problem, not a pass;
    a hostile input that ends in one line and exit 2 is a pass."""
    from bench import fuzz

    m = run_case("intent", ("intent", b"name: [\x01"))
    assert m.problem is None and m.outcome.code == 2
    case: Case = ("intent", b"")
    crashed = fuzz.Outcome(None, "Traceback (most recent call last): ...")
    assert "unhandled exception" in (fuzz.Measured("intent", case, crashed, 0, 0, 0).problem or "")
    assert "exit code 3" in (fuzz.Measured("intent", case, fuzz.Outcome(3), 0, 0, 0).problem or "")
    assert "CPU" in (fuzz.Measured("intent", case, fuzz.Outcome(0), 9, 9, 1).problem or "")
    assert "memory" in (fuzz.Measured("intent", case, fuzz.Outcome(0), 1, 1, 300).problem or "")


def test_long_run_outlives_the_harness_running_out_of_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A MemoryError while hypothesis builds a case cuts one round short, not the whole run;
    the json says which round."""
    import json

    from bench import fuzz

    calls: list[int] = []

    def explore_once_oom(
        name: str, n: int, each: object, *, rng_seed: int | None = None, targets: object = None
    ) -> None:
        calls.append(n)
        if len(calls) == 1:
            raise MemoryError
        explore(name, n, each, rng_seed=rng_seed)  # type: ignore[arg-type]

    monkeypatch.setattr(fuzz, "explore", explore_once_oom)
    out = tmp_path / "fuzz.json"
    # --memory-limit-mb 0: no address-space cap on the test process itself
    fuzz._long(["--cases", "2", "--chunk", "1", "--target", "intent", "--memory-limit-mb", "0",
                "--json", str(out)])  # fmt: skip
    doc = json.loads(out.read_text())
    assert doc["harness_out_of_memory"] == ["round 1 intent"]
    assert doc["rounds"] == 2 and doc["targets"][0]["cases"] == 1 and calls == [1, 1]
    assert "round 1: intent: out of memory building a case" in capsys.readouterr().err
