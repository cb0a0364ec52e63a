"""lint's plan kept in the cache folder (roce_cfg/parse/plan_cache.py): a folder linted again
with fabric.json unchanged reads the entry, not fabric.json, and says exactly what lint without
the cache says; an edited fabric.json is read again; a doubtful entry means fabric.json is
read; a bad fabric.json stops lint as before; ``--no-cache`` neither reads nor writes one."""

from __future__ import annotations

import json
import re
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from roce_cfg import memo, output
from roce_cfg.errors import InputError
from roce_cfg.model.ceilings import MAX_GPUS, MAX_LINKS, MAX_SWITCHES
from roce_cfg.parse import hints, plan_cache
from roce_cfg.parse.cache import ParseCache, open_cache
from roce_cfg.parse.hints import PlanLink, PlanNic, PlanRail, PlanSwitch, load_lint_plan
from roce_cfg.yamlsrc import FABRIC_JSON
from tests import cachepod
from tests.cachepod import lint, reseal
from tests.helpers import examples

CACHE = output.CACHE_DIR
generated, pod = cachepod.generated, cachepod.pod  # the fixtures this module uses
Said = tuple[int, str, str]


def outputs(folder: Path, *more: str) -> tuple[Said, Said]:
    """lint's text and JSON of ``folder``: exit code, stdout and stderr of each; the run
    memo's entries removed first (it would print the output without reading the plan)."""
    for entry in (folder / CACHE).glob(f"{memo.PREFIX}*"):
        entry.unlink()
    text = lint(str(folder), *more)
    doc = lint(str(folder), "--format", "json", *more)
    return (text.exit_code, text.stdout, text.stderr), (doc.exit_code, doc.stdout, doc.stderr)


def plan_entries(folder: Path) -> list[Path]:
    return sorted((folder / CACHE).glob(f"{plan_cache.PREFIX}*"))


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Path]]:
    """The fabric.json files read and decoded (an entry used instead reads none)."""
    done: list[Path] = []
    real = hints.plan_data

    def counting(path: Path, raw: bytes | None = None) -> Any:
        done.append(path)
        return real(path, raw)

    monkeypatch.setattr(hints, "plan_data", counting)
    yield done


def test_the_row_models_validate_the_rows_fields_in_their_order() -> None:
    """``_rows`` makes each row from its model's fields in the order declared."""
    for row in (PlanSwitch, PlanLink, PlanNic, PlanRail):
        doc = getattr(hints._Doc, row.__name__)
        assert tuple(doc.model_fields) == row._fields


@pytest.mark.parametrize(
    ("doc", "said"),
    [
        ({"links": [5]}, ": links.0: Input should be a valid dictionary or instance of PlanLink"),
        ({"nics": ["x"]}, ": nics.0: Input should be a valid dictionary or instance of PlanNic"),
        ([], ": : Input should be a valid dictionary or instance of LintPlan"),
    ],
)
def test_a_row_that_is_no_object_is_named_as_before(
    pod: Path, doc: dict[str, Any] | list[Any], said: str
) -> None:
    """The models that validate the rows bear the names the rows had when they were models."""
    fabric = pod / "fabric.json"
    if isinstance(doc, dict):
        doc = {**json.loads(fabric.read_text(encoding="utf-8")), **doc}
    fabric.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(InputError, match=re.escape(f"not a roce-cfg fabric.json{said}")):
        load_lint_plan(fabric)


def _cache(folder: Path) -> ParseCache:
    cache, warning = open_cache([folder], None)
    assert cache is not None and warning is None
    return cache


def test_the_kept_plan_is_the_validated_plan(pod: Path, reads: list[Path]) -> None:
    fabric = pod / "fabric.json"
    first = plan_cache.lint_plan(fabric, _cache(pod)).validated()
    assert reads == [fabric] and len(plan_entries(pod)) == 1
    kept = plan_cache.lint_plan(fabric, _cache(pod))
    assert reads == [fabric]  # the second from the entry
    truth = load_lint_plan(fabric)
    # repr: the types too (a Vendor, an IPv4Address, a float cable length)
    assert repr(kept.validated()) == repr(first) == repr(truth)
    assert kept.hints == hints.hints_from_plan(truth)


def _doubt(mutate: Callable[[dict[str, Any]], object]) -> Callable[[bytes], bytes]:
    def spoil(packed: bytes) -> bytes:
        doc = json.loads(zlib.decompress(packed))
        mutate(doc)
        return zlib.compress(json.dumps(doc).encode())

    return spoil


def _past(kind: str, most: int) -> Callable[[dict[str, Any]], object]:
    """The rows of ``kind`` repeated past ``most``, the ceiling fabric.json is held to."""

    def grow(doc: dict[str, Any]) -> None:
        doc[kind] = [[column[0]] * (most + 1) for column in doc[kind]]

    return grow


SPOILS: dict[str, Callable[[bytes], bytes]] = {
    "cut short": lambda packed: packed[: len(packed) // 2],
    "not compressed": lambda packed: zlib.decompress(packed),
    "empty": lambda packed: b"",
    "another stamp": _doubt(lambda d: d.update(stamp="0" * 40)),
    "another key": _doubt(lambda d: d.update(key="0" * 40)),
    "another format": _doubt(lambda d: d.update(format="roce-cfg/lint-plan/v0")),
    "a string index past the table": _doubt(lambda d: d["links"][0].__setitem__(0, 10**6)),
    "a negative string index": _doubt(lambda d: d["nics"][1].__setitem__(0, -1)),
    "a column short": _doubt(lambda d: d["links"][7].pop()),
    "a column too many": _doubt(lambda d: d["rails"].append([])),
    "a speed out of bounds": _doubt(lambda d: d["links"][6].__setitem__(0, 0)),
    "a speed as text": _doubt(lambda d: d["nics"][3].__setitem__(0, "400")),
    "a cable length out of bounds": _doubt(lambda d: d["links"][7].__setitem__(0, 1e9)),
    "an address out of bounds": _doubt(lambda d: d["links"][2].__setitem__(0, 1 << 32)),
    "a VLAN out of bounds": _doubt(lambda d: d["rails"][1].__setitem__(0, 4095)),
    "an unknown role": _doubt(lambda d: d["strings"].__setitem__(d["switches"][1][0], "core")),
    "an unknown vendor": _doubt(lambda d: d["strings"].__setitem__(d["switches"][2][0], "acme")),
    "a field more": _doubt(lambda d: d.update(more=1)),
    "switches past the ceiling": _doubt(_past("switches", MAX_SWITCHES)),
    "links past the ceiling": _doubt(_past("links", MAX_LINKS)),
    "NICs past the ceiling": _doubt(_past("nics", MAX_GPUS)),
    "rails past a list's items": _doubt(_past("rails", FABRIC_JSON.max_items)),
}


# 4 million rails take seconds to build: the full suite's
SLOW_SPOILS = {"rails past a list's items"}


@pytest.mark.parametrize(
    "spoil",
    [
        pytest.param(spoil, id=name, marks=[pytest.mark.slow] if name in SLOW_SPOILS else [])
        for name, spoil in SPOILS.items()
    ],
)
@pytest.mark.sample(8)
def test_a_doubtful_entry_means_fabric_json_is_read(
    pod: Path, reads: list[Path], spoil: Callable[[bytes], bytes]
) -> None:
    fabric = pod / "fabric.json"
    plan_cache.lint_plan(fabric, _cache(pod)).validated()
    (entry,) = plan_entries(pod)
    reseal(entry, plan_cache._USE, spoil)  # past the MAC: the validation is tested
    reads.clear()
    again = plan_cache.lint_plan(fabric, _cache(pod))
    assert reads == [fabric]
    assert repr(again.validated()) == repr(load_lint_plan(fabric))
    assert plan_entries(pod) == [entry]  # written again, whole
    reads.clear()
    plan_cache.lint_plan(fabric, _cache(pod))
    assert reads == []


def test_a_warm_lint_reads_the_entry_and_says_what_lint_without_it_says(
    pod: Path, reads: list[Path]
) -> None:
    leaf = pod / "leaf-3.cfg"
    leaf.write_text(leaf.read_text(encoding="utf-8").replace("mtu 9216", "mtu 9000"), "utf-8")
    cold = outputs(pod, "--no-cache")
    assert "(from the plan)" in cold[0][1]  # findings that stand on the plan's cables
    assert plan_entries(pod) == []  # --no-cache writes none
    first = outputs(pod)
    assert len(plan_entries(pod)) == 1
    reads.clear()
    warm = outputs(pod)
    assert reads == []  # the plan from the entry, twice
    assert first == warm == cold


def test_no_cache_reads_fabric_json_with_an_entry_there(pod: Path, reads: list[Path]) -> None:
    assert lint(str(pod)).exit_code in (0, 1)
    assert len(plan_entries(pod)) == 1
    reads.clear()
    assert lint(str(pod), "--no-cache").exit_code in (0, 1)
    assert reads == [pod / "fabric.json"]


def _set(section: str, field: str, value: object) -> Callable[[dict[str, Any], int], None]:
    def edit(doc: dict[str, Any], at: int) -> None:
        rows = doc[section]
        rows[at % len(rows)][field] = value

    return edit


# Edits of fabric.json that change what lint says or reads: cable lengths (headroom), speeds
# (the parse's hints), addresses (BGP peers), rail VLANs, roles.
EDITS = {
    "a link's cable": _set("links", "cable_m", 3000.0),
    "a link's speed": _set("links", "speed_gbps", 100),
    "a link's address": _set("links", "a_ip", "10.99.0.1/31"),
    "a NIC's cable": _set("nics", "cable_m", 250.0),
    "a rail's VLAN": _set("rails", "vlan", 4000),
    "a switch's role": _set("switches", "role", "switch"),
}


@pytest.fixture(scope="module")
def warmed(generated: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = cachepod.linted_copy(generated, tmp_path_factory)
    assert len(plan_entries(folder)) == 1
    return folder


@settings(
    max_examples=examples(20),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(edit=st.sampled_from(sorted(EDITS)), at=st.integers(0, 1000))
def test_a_warm_lint_after_fabric_json_changed_says_what_a_cold_one_says(
    warmed: Path, edit: str, at: int
) -> None:
    """fabric.json edited: lint with the cache reads it again (the entry is another's bytes),
    keeps it, and prints byte for byte what lint without the cache prints, then and again."""
    fabric = warmed / "fabric.json"
    original = fabric.read_text(encoding="utf-8")
    doc = json.loads(original)
    EDITS[edit](doc, at)
    fabric.write_text(json.dumps(doc, indent=2), encoding="utf-8")
    try:
        first_warm = outputs(warmed)
        cold = outputs(warmed, "--no-cache")
        second_warm = outputs(warmed)
    finally:
        fabric.write_text(original, encoding="utf-8")
    assert first_warm == cold
    assert second_warm == cold


@pytest.mark.parametrize(
    ("edit", "reason"),
    [
        (_set("links", "speed_gbps", 0), "links.0.speed_gbps"),
        (_set("nics", "vlan", 5000), "nics.0.vlan"),
        (_set("switches", "role", "core"), "switches.0.role"),
    ],
)
def test_a_bad_fabric_json_stops_lint_with_the_cache_on(
    pod: Path, edit: Callable[[dict[str, Any], int], None], reason: str
) -> None:
    """An entry kept for the good fabric.json does not stand for the bad one: one line naming
    the file and the field, exit 2, as without the cache."""
    assert lint(str(pod)).exit_code in (0, 1)
    fabric = pod / "fabric.json"
    doc = json.loads(fabric.read_text(encoding="utf-8"))
    edit(doc, 0)
    fabric.write_text(json.dumps(doc), encoding="utf-8")
    for more in ([], ["--no-cache"]):
        result = lint(str(pod), *more)
        assert result.exit_code == 2
        (line,) = result.stderr.strip().splitlines()
        assert str(fabric) in line and f"not a roce-cfg fabric.json: {reason}" in line
    assert len(plan_entries(pod)) == 1  # the good one's alone


def test_kept_addresses_are_what_ipaddress_makes_of_their_numbers() -> None:
    """A plan's addresses are built from their numbers without ipaddress's checks: the same
    rows as its constructor's; a value that is no number is refused, not built."""
    from ipaddress import IPv4Address

    from roce_cfg.parse.columns import read_rows

    numbers = [0, 0x0A000001, 0xC0A80A0B, 0xFFFFFFFF]
    rows = read_rows([], "links", [numbers], lambda a: a, "a")
    assert rows == [hints.IfAddress(IPv4Address(n)) for n in numbers]
    assert all(type(r) is hints.IfAddress and type(r.ip) is IPv4Address for r in rows)
    assert [hash(r) for r in rows] == [hash(hints.IfAddress(IPv4Address(n))) for n in numbers]
    for bad in ([1.0], [True], ["10.0.0.1"], [2**32], [-1]):
        with pytest.raises(ValueError):
            read_rows([], "links", [bad], lambda a: a, "a")
