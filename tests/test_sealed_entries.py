"""The device findings', lint plan's and whole plan's entries are sealed (roce_cfg/seal.py): an
entry edited in place, one sealed under another entry's name or for another kind of entry, or
another kind's entry renamed, replays nothing: what it stood for is computed again and the
entry written again. Each forgery holds an edit that validation lets through (sealed as
roce-cfg seals, it is read: the last case), so the MAC alone refuses it."""

from __future__ import annotations

import json
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from roce_cfg.analysis import device_cache, engine
from roce_cfg.analysis.context import DeviceView
from roce_cfg.analysis.findings import Finding
from roce_cfg.analysis.registry import Rule
from roce_cfg.cache_key import subkey
from roce_cfg.output import CACHE_DIR
from roce_cfg.parse import hints, plan_cache, whole_plan
from roce_cfg.parse.cache import SUFFIX, ParseCache, open_cache
from roce_cfg.seal import MAC_BYTES, Seal
from tests import cachepod
from tests.cachepod import lint, reseal, unsealed

generated, pod = cachepod.generated, cachepod.pod  # the fixtures this module uses


def _cache(folder: Path) -> ParseCache:
    cache, _ = open_cache([folder], None)
    assert cache is not None
    return cache


def _lint(folder: Path) -> None:
    for entry in (folder / CACHE_DIR).glob("run-*"):  # the run memo would print it all
        entry.unlink()
    assert lint(str(folder)).exit_code in (0, 1)


def _cleared(doc: dict[str, Any]) -> None:
    """Every switch's findings gone: a failing fabric replayed as clean."""
    doc["switches"] = {k: [[] for _ in v] for k, v in doc["switches"].items()}


class Kind(NamedTuple):
    prefix: str
    use: str
    computed: str  # what ``counted`` records when the entry is not used
    run: Callable[[Path], object]  # a read through this kind's cache
    forge: Callable[[dict[str, Any]], object]  # an edit validation lets through


KINDS = {
    "device findings": Kind(device_cache.PREFIX, device_cache._USE, "rules", _lint, _cleared),
    "lint plan": Kind(
        plan_cache.PREFIX,
        plan_cache._USE,
        "plan",
        lambda p: plan_cache.lint_plan(p / "fabric.json", _cache(p)).validated(),
        lambda d: d.update(name="forged"),
    ),
    "whole plan": Kind(
        whole_plan.PREFIX,
        whole_plan._USE,
        "plan",
        lambda p: whole_plan.whole_plan(p / "fabric.json", _cache(p)),
        lambda d: d.update(name="forged"),
    ),
}


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """'plan' for each fabric.json read, 'rules' for each switch the device rules ran on."""
    done: list[str] = []
    read, judge = hints.plan_data, engine._device_findings

    def reading(path: Path, raw: bytes | None = None) -> Any:
        done.append("plan")
        return read(path, raw)

    def judging(device: list[Rule], view: DeviceView) -> list[list[Finding]]:
        done.append("rules")
        return judge(device, view)

    monkeypatch.setattr(hints, "plan_data", reading)
    monkeypatch.setattr(whole_plan, "plan_data", reading)
    monkeypatch.setattr(engine, "_device_findings", judging)
    yield done


def _entry(folder: Path, kind: Kind) -> Path:
    (entry,) = (folder / CACHE_DIR).glob(f"{kind.prefix}*")
    return entry


def _used(folder: Path, kind: Kind, counted: list[str]) -> bool:
    counted.clear()
    kind.run(folder)
    return kind.computed not in counted


def _sealed(use: str, name: str, doc: dict[str, Any]) -> bytes:
    packed = zlib.compress(json.dumps(doc, separators=(",", ":")).encode())
    return Seal(subkey(use)).mac(name, packed) + packed


def _other(kind: Kind) -> Kind:
    """The next kind of entry (the first after the last)."""
    kinds = list(KINDS.values())
    return kinds[(kinds.index(kind) + 1) % len(kinds)]


FORGERIES: dict[str, Callable[[Kind, Path, dict[str, Any]], bytes]] = {
    "edited in place": lambda kind, entry, doc: (
        entry.read_bytes()[:MAC_BYTES] + _sealed(kind.use, entry.name, doc)[MAC_BYTES:]
    ),
    "sealed under another name": lambda kind, entry, doc: _sealed(
        kind.use, f"{kind.prefix}{'0' * 40}{SUFFIX}", doc
    ),
    "sealed for another kind": lambda kind, entry, doc: _sealed(_other(kind).use, entry.name, doc),
}


@pytest.mark.parametrize("how", list(FORGERIES))
@pytest.mark.parametrize("name", list(KINDS))
def test_a_forged_entry_replays_nothing(pod: Path, counted: list[str], name: str, how: str) -> None:
    kind = KINDS[name]
    _lint(pod)  # every kind's entry kept (the whole plan's by its own run)
    kind.run(pod)
    entry = _entry(pod, kind)
    kept = entry.read_bytes()
    doc = json.loads(unsealed(entry))
    kind.forge(doc)
    entry.write_bytes(FORGERIES[how](kind, entry, doc))
    assert not _used(pod, kind, counted)
    assert entry.read_bytes() == kept  # written again as it was
    assert _used(pod, kind, counted)
    entry.write_bytes(_sealed(kind.use, entry.name, doc))  # what the MAC alone refused
    assert _used(pod, kind, counted)


@pytest.mark.parametrize("name", list(KINDS))
def test_another_kinds_entry_renamed_replays_nothing(
    pod: Path, counted: list[str], name: str
) -> None:
    kind, other = KINDS[name], _other(KINDS[name])
    _lint(pod)
    for k in (kind, other):
        k.run(pod)
    entry = _entry(pod, kind)
    kept = entry.read_bytes()
    entry.write_bytes(_entry(pod, other).read_bytes())
    assert not _used(pod, kind, counted)
    assert entry.read_bytes() == kept


@pytest.mark.parametrize("name", list(KINDS))
def test_an_entry_resealed_as_it_was_is_read(pod: Path, counted: list[str], name: str) -> None:
    """The resealing the validation tests use (cachepod.reseal) writes what roce-cfg reads:
    their entries are refused for the value each changed, not for the resealing."""
    kind = KINDS[name]
    _lint(pod)
    kind.run(pod)
    entry = _entry(pod, kind)
    kept = entry.read_bytes()
    reseal(entry, kind.use, lambda packed: zlib.compress(zlib.decompress(packed), 9))
    assert entry.read_bytes() != kept
    assert _used(pod, kind, counted)
