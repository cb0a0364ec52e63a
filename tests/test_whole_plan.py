"""fabric.json as report and deadlock read it, kept in the cache folder once the whole plan has
validated (roce_cfg/parse/whole_plan.py): a folder read again with fabric.json unchanged reads
the entry, not fabric.json, and report and deadlock say byte for byte what they say without
the cache; a doubtful entry means fabric.json is read; a fabric.json that lint takes but that
is no whole plan stops them as before."""

from __future__ import annotations

import json
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from roce_cfg.cli.main import app
from roce_cfg.cli.options import NO_CACHE_ENV
from roce_cfg.model.ceilings import MAX_SWITCHES
from roce_cfg.parse import hints, whole_plan
from roce_cfg.parse.cache import ParseCache, open_cache
from roce_cfg.parse.hints import EarlyPlan, load_fabric, load_lint_plan, validated_fabric
from roce_cfg.parse.whole_plan import EarlyWhole, KeptPlan, kept_of
from tests import cachepod
from tests.cachepod import reseal

CACHE = ".roce-cfg-cache"
generated, pod = cachepod.generated, cachepod.pod  # the fixtures this module uses
Said = tuple[int, str, str]


def roce_cfg(*args: str) -> Said:
    """A command as a user runs it: the cache on (the suite turns it off)."""
    done = CliRunner().invoke(app, list(args), env={NO_CACHE_ENV: None})
    return done.exit_code, done.stdout, done.stderr


def outputs(folder: Path, out: Path, *more: str) -> list[Said | bytes]:
    """report's page and JSON, and deadlock's text and JSON, of ``folder``."""
    page = out / "report.html"
    said: list[Said | bytes] = [roce_cfg("report", str(folder), "-o", str(page), *more)]
    said.append(page.read_bytes())
    said.append(roce_cfg("report", str(folder), "-o", str(page), "--format", "json", *more))
    said.append(roce_cfg("deadlock", str(folder), *more))
    said.append(roce_cfg("deadlock", str(folder), "--format", "json", *more))
    return said


def entries(folder: Path) -> list[Path]:
    return sorted((folder / CACHE).glob(f"{whole_plan.PREFIX}*"))


def _cache(folder: Path) -> ParseCache:
    cache, _ = open_cache([folder], None)
    assert cache is not None
    return cache


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Path]]:
    """The fabric.json files read and decoded (an entry used instead reads none)."""
    done: list[Path] = []
    real = hints.plan_data

    def counting(path: Path, raw: bytes | None = None) -> Any:
        done.append(path)
        return real(path, raw)

    monkeypatch.setattr(hints, "plan_data", counting)
    monkeypatch.setattr(whole_plan, "plan_data", counting)
    yield done


def test_the_kept_plan_is_the_whole_plans_rows(pod: Path, reads: list[Path]) -> None:
    fabric = pod / "fabric.json"
    first = whole_plan.whole_plan(fabric, _cache(pod))
    assert reads == [fabric] and len(entries(pod)) == 1
    kept = whole_plan.whole_plan(fabric, _cache(pod))
    assert reads == [fabric]  # the second from the entry
    truth = load_fabric(fabric)
    assert first == truth and isinstance(kept, KeptPlan)
    # repr: the types too (a Vendor, an IPv4Address, a float cable length); lint's rows
    assert repr(kept) == repr(kept_of(truth))
    assert repr(kept.plan) == repr(load_lint_plan(fabric))
    assert kept.rails == tuple(s.rail for s in truth.switches)
    reads.clear()
    early = EarlyWhole(fabric, _cache(pod))
    assert reads == []
    assert early.hints == EarlyPlan(fabric, validated_fabric).hints
    assert repr(early.validated()) == repr(kept.plan)


def test_deadlock_keeps_the_plan_it_validated(pod: Path, reads: list[Path]) -> None:
    fabric = pod / "fabric.json"
    early = EarlyWhole(fabric, _cache(pod))
    assert entries(pod) == []  # kept once validated, not before
    assert repr(early.validated()) == repr(load_lint_plan(fabric))
    assert len(entries(pod)) == 1
    reads.clear()
    assert repr(EarlyWhole(fabric, _cache(pod)).validated()) == repr(load_lint_plan(fabric))
    assert reads == [fabric]  # load_lint_plan's alone


def _doubt(mutate: Callable[[dict[str, Any]], object]) -> Callable[[bytes], bytes]:
    def spoil(packed: bytes) -> bytes:
        doc = json.loads(zlib.decompress(packed))
        mutate(doc)
        return zlib.compress(json.dumps(doc).encode())

    return spoil


SPOILS: dict[str, Callable[[bytes], bytes]] = {
    "cut short": lambda packed: packed[: len(packed) // 2],
    "not compressed": lambda packed: zlib.decompress(packed),
    "another stamp": _doubt(lambda d: d.update(stamp="0" * 40)),
    "another key": _doubt(lambda d: d.update(key="0" * 40)),
    "another format": _doubt(lambda d: d.update(format="roce-cfg/lint-plan/v1")),
    "a string index past the table": _doubt(lambda d: d["links"][0].__setitem__(0, 10**6)),
    "a column short": _doubt(lambda d: d["switches"][5].pop()),
    "a rail as text": _doubt(lambda d: d["switches"][4].__setitem__(0, "1")),
    "a pod as a figure": _doubt(lambda d: d["switches"][5].__setitem__(0, 1.5)),
    "a speed out of bounds": _doubt(lambda d: d["links"][6].__setitem__(0, 0)),
    "an address out of bounds": _doubt(lambda d: d["links"][2].__setitem__(0, 1 << 32)),
    "an unknown role": _doubt(lambda d: d["strings"].__setitem__(d["switches"][1][0], "core")),
    "an unknown vendor": _doubt(lambda d: d["strings"].__setitem__(d["switches"][2][0], "acme")),
    "switches past the ceiling": _doubt(
        lambda d: d.update(switches=[[c[0]] * (MAX_SWITCHES + 1) for c in d["switches"]])
    ),
}


@pytest.mark.parametrize("spoil", list(SPOILS.values()), ids=list(SPOILS))
@pytest.mark.sample(5)
def test_a_doubtful_entry_means_fabric_json_is_read(
    pod: Path, reads: list[Path], spoil: Callable[[bytes], bytes]
) -> None:
    fabric = pod / "fabric.json"
    whole_plan.whole_plan(fabric, _cache(pod))
    (entry,) = entries(pod)
    reseal(entry, whole_plan._USE, spoil)  # past the MAC: the validation is tested
    reads.clear()
    assert whole_plan.whole_plan(fabric, _cache(pod)) == load_fabric(fabric)
    assert reads[0] == fabric
    assert entries(pod) == [entry]  # written again, whole
    reads.clear()
    assert isinstance(whole_plan.whole_plan(fabric, _cache(pod)), KeptPlan)
    assert reads == []


def test_warm_report_and_deadlock_read_the_entry_and_say_what_they_say_without_it(
    pod: Path, reads: list[Path], tmp_path: Path
) -> None:
    leaf = pod / "leaf-3.cfg"
    leaf.write_text(leaf.read_text(encoding="utf-8").replace("mtu 9216", "mtu 9000"), "utf-8")
    cold = outputs(pod, tmp_path, "--no-cache")
    assert entries(pod) == []  # --no-cache writes none
    first = outputs(pod, tmp_path)
    assert len(entries(pod)) == 1
    reads.clear()
    warm = outputs(pod, tmp_path)
    assert pod / "fabric.json" not in reads  # the whole plan from the entry
    assert first == warm == cold


def test_a_fabric_json_lint_takes_but_no_whole_plan_stops_report_and_deadlock(
    pod: Path, tmp_path: Path
) -> None:
    """An entry kept for the good fabric.json does not stand for one whose NIC gateway is no
    address (lint does not read it): one line naming the file and the field, exit 2, as
    without the cache, and no entry kept for it."""
    assert roce_cfg("deadlock", str(pod))[0] in (0, 1)
    (good,) = entries(pod)
    fabric = pod / "fabric.json"
    doc = json.loads(fabric.read_text(encoding="utf-8"))
    doc["nics"][0]["gateway"] = "not an address"
    fabric.write_text(json.dumps(doc), encoding="utf-8")
    assert roce_cfg("lint", str(pod))[0] in (0, 1)
    page = str(tmp_path / "report.html")
    for command in (["deadlock", str(pod)], ["report", str(pod), "-o", page]):
        for more in ([], ["--no-cache"]):
            code, _, stderr = roce_cfg(*command, *more)
            assert code == 2
            (line,) = stderr.strip().splitlines()
            assert str(fabric) in line and "not a roce-cfg fabric.json: nics.0.gateway" in line
    assert entries(pod) == [good]
