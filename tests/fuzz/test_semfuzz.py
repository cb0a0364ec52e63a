"""A short, deterministic pass of the semantic fuzzer (bench/semfuzz.py) over every entry point,
and every semantic input that ever failed. The long mode and its figures: docs/reliability.md."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from bench import semfuzz
from bench.fuzz import Case, Measured, explore, regression_cases, run_case


@pytest.mark.sample(6)
@pytest.mark.parametrize("name", list(semfuzz.TARGETS))
def test_short_semantic_run(name: str) -> None:
    def each(m: Measured) -> None:
        assert m.problem is None, f"{name}: {m.problem}"

    explore(name, semfuzz.TARGETS[name].short, each, shrink=True, targets=semfuzz.TARGETS)


REGRESSIONS = regression_cases(semfuzz.REGRESSIONS)


@pytest.fixture(autouse=True)
def _budget_under_a_tracer(monkeypatch: pytest.MonkeyPatch) -> None:
    """The per-case CPU budget is the product's; a tracer (CI's coverage run) multiplies the
    CPU a large case takes (2.3 s alone, over 5 s traced), so the budget scales with it there."""
    if sys.gettrace() is not None:
        from bench import fuzz

        monkeypatch.setattr(fuzz, "MAX_SECONDS", fuzz.MAX_SECONDS * 3)


@pytest.mark.parametrize(
    ("name", "case", "path"),
    REGRESSIONS,
    ids=[str(p.relative_to(p.parents[1])) for *_, p in REGRESSIONS],
)
def test_every_semantic_input_that_ever_failed(name: str, case: Case, path: Path) -> None:
    m = run_case(name, case, semfuzz.TARGETS)
    assert m.problem is None, f"{path}: {m.problem}"


def test_the_verdicts_can_fail(monkeypatch: pytest.MonkeyPatch) -> None:
    """An out-of-range value read without a report, and a config taken from outside the
    configs folder, are failures, not passes."""
    import roce_cfg.deploy.fanout as fanout
    import roce_cfg.parse as parse
    import roce_cfg.parse.prepared as prepared

    lines = (semfuzz.GOLDEN["huawei"] / "leaf-1.cfg").read_text().split("\n")
    at = lines.index("vlan batch 101")
    lines[at] = "vlan batch 2 to 1000000"
    case: Case = ("config", semfuzz._pack("huawei", "\n".join(lines).encode(), [at + 1]))
    assert run_case("parse", case, semfuzz.TARGETS).problem is None
    monkeypatch.setattr(prepared, "refused", lambda grammar, blocks: {})
    monkeypatch.setattr(parse.Context, "skip", lambda self, *args: None)
    assert "were read, not reported" in (run_case("parse", case, semfuzz.TARGETS).problem or "")

    names: Case = ("names", semfuzz._pack("h3c", b"", [], {"names": ["../../esc", "x"]}))
    assert run_case("push", names, semfuzz.TARGETS).problem is None
    monkeypatch.setattr(
        fanout, "file_names", lambda names, suffix, what="": {n: n + suffix for n in names}
    )
    monkeypatch.setattr(fanout, "inside", lambda folder, name: folder / name)
    assert "from outside" in (run_case("push", names, semfuzz.TARGETS).problem or "")
