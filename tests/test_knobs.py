"""Every knob has a bound (issue 27, causes 6, 7 and 8): the intent's fixed headroom, the
deadlock sample count and the pair space it is drawn from, cable lengths read from port
descriptions, canary batch sizes."""

from __future__ import annotations

from itertools import combinations, islice
from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from roce_cfg.deadlock.analyse import MAX_SAMPLES, pair_failures, unrank_pair
from tests.helpers import ROOT, examples, run

POD = (ROOT / "examples" / "pod-small.yaml").read_text()


def _intent(tmp_path: Path, headroom: str) -> Path:
    path = tmp_path / "pod.yaml"
    path.write_text(POD.replace("  headroom: auto", f"  headroom: {headroom}"))
    return path


@pytest.mark.parametrize("command", ["generate", "deadlock", "docs", "report"])
@pytest.mark.parametrize("headroom", ["1000000000000", str(2**40 + 1), "-1"])
def test_a_headroom_past_any_buffer_is_refused_on_its_line(
    tmp_path: Path, command: str, headroom: str
) -> None:
    """Above 2^40 bytes it was a traceback in generate, deadlock, docs and report; 10^12 was
    rendered into every config."""
    intent = _intent(tmp_path, headroom)
    out = {"generate": ["-o", "g"], "docs": ["-o", "d"], "report": ["-o", "r.html"]}
    result = run(command, str(intent), *out.get(command, []))
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(f"roce-cfg: error: {intent}:47 lossless.headroom: 'auto', or 1")
    assert len(result.stderr.strip().splitlines()) == 1


def test_the_largest_headroom_still_renders(tmp_path: Path) -> None:
    result = run("generate", str(_intent(tmp_path, str(2**30))), "-o", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output


def test_a_headroom_over_the_models_buffer_is_refused(tmp_path: Path) -> None:
    """Where the profile knows the buffer (an overlay here: no vendor publishes one), a fixed
    headroom over all lossless ports must fit it."""
    overlay = tmp_path / "overlay"
    (overlay / "vendors").mkdir(parents=True)
    (overlay / "vendors" / "h3c.yaml").write_text(
        "models:\n  S9855-32D:\n    buffer_bytes: 1000000\n"
    )
    intent = _intent(tmp_path, "100000")
    args = ["generate", str(intent), "--vendor-dir", str(overlay)]
    result = run(*args, "-o", str(tmp_path / "out"))
    assert result.exit_code == 2, result.output
    assert "lossless.headroom: 100,000 bytes per port and priority is" in result.stderr
    assert "more than the packet buffer of h3c S9855-32D (1,000,000 bytes)" in result.stderr
    small = _intent(tmp_path, "20000")
    ok = run("generate", str(small), "--vendor-dir", str(overlay), "-o", str(tmp_path / "ok"))
    assert ok.exit_code == 0, ok.output


# -- deadlock pairs ----------------------------------------------------------------------------


def test_samples_past_the_bound_are_refused_before_any_work() -> None:
    """--max-failures 2 --samples 100000000 on the large bench fabric built all 33.5 million
    pairs and hit MemoryError at 2 GB."""
    large = str(ROOT / "bench" / "fabric-large.yaml")
    result = run("deadlock", large, "--max-failures", "2", "--samples", "100000000")
    assert result.exit_code == 2
    assert "Invalid value for '--samples'" in result.stderr and "100000" in result.stderr


def _net(links: int) -> SimpleNamespace:
    return SimpleNamespace(links=[None] * links)


def test_pairs_are_streamed_never_built() -> None:
    """65,536 links (xl) have 2.1 billion pairs: the sample is drawn from the index space."""
    pairs = pair_failures(_net(65_536), 1000)  # type: ignore[arg-type]
    drawn = list(pairs)
    assert len(drawn) == len(set(drawn)) == 1000 and drawn == sorted(drawn)
    assert all(0 <= a < b < 65_536 for a, b in drawn)
    assert drawn == list(pair_failures(_net(65_536), 1000))  # type: ignore[arg-type]
    # every pair, when there are fewer than the samples: lazily too
    first = list(islice(pair_failures(_net(8192), MAX_SAMPLES * 1000), 3))  # type: ignore[arg-type]
    assert first == [(0, 1), (0, 2), (0, 3)]


@settings(max_examples=examples(200), deadline=None)
@given(st.integers(2, 400), st.data())
def test_unranking_gives_the_pair_combinations_gives(n: int, data: st.DataObject) -> None:
    total = n * (n - 1) // 2
    k = data.draw(st.integers(0, total - 1))
    assert unrank_pair(k, n) == next(islice(combinations(range(n), 2), k, None))


# -- figures read from free text ----------------------------------------------------------------


@pytest.mark.parametrize("figure", ["9" * 4301, "1" + "0" * 400, "99999"])
def test_a_cable_length_no_cable_has_is_passed_over(tmp_path: Path, figure: str) -> None:
    """'cable=<4,301 digits>m' in a description was an OverflowError in the headroom rules."""
    text = (ROOT / "golden" / "pod-small-h3c" / "leaf-1.cfg").read_text()
    cfg = tmp_path / "leaf-1.cfg"
    cfg.write_text(text.replace("cable=3m", f"cable={figure}m", 1))
    assert f"cable={figure}m" in cfg.read_text()
    result = run("lint", str(cfg), "--format", "json")
    assert result.exit_code in (0, 1) and "Traceback" not in result.output, result.output


def test_an_interface_number_of_4301_digits_is_no_port(tmp_path: Path) -> None:
    """_fits converted the number with int(): a ValueError traceback in parse, lint, deadlock."""
    text = (ROOT / "golden" / "pod-small-h3c" / "leaf-1.cfg").read_text()
    cfg = tmp_path / "leaf-1.cfg"
    cfg.write_text(text.replace("FourHundredGigE1/0/1\n", f"FourHundredGigE1/0/{'4' * 4301}\n"))
    for command in ("parse", "lint", "deadlock"):
        result = run(command, str(cfg))
        assert result.exit_code in (0, 1) and "Traceback" not in result.output, command


@pytest.mark.parametrize("spec", ["1e999%", "9" * 4400, "nan%"])
def test_a_batch_size_no_rollout_has_is_refused(spec: str) -> None:
    from roce_cfg.deploy.fanout import batches
    from roce_cfg.errors import InputError

    with pytest.raises(InputError, match="--batch"):
        batches(spec, 10)
