"""The device rules' findings kept per switch (roce_cfg/analysis/device_cache.py): a folder
linted again runs the device rules only on the switches whose config changed, and says exactly
what a cold run says; another option, another rule list, a corrupt or foreign entry means the
rules run."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zlib
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from roce_cfg import memo, output
from roce_cfg.analysis import device_cache, engine
from roce_cfg.analysis.context import DeviceView, Options, concludes
from roce_cfg.analysis.findings import Finding
from roce_cfg.analysis.registry import Hit, Rule
from tests import cachepod
from tests.cachepod import lint, reseal, unsealed
from tests.helpers import examples

CACHE = output.CACHE_DIR
generated, pod = cachepod.generated, cachepod.pod  # the fixtures this module uses
Said = tuple[int, str, str]


def outputs(folder: Path, *more: str) -> tuple[Said, Said]:
    """lint's text and JSON of ``folder``: exit code, stdout and stderr of each."""
    text = lint(str(folder), *more)
    doc = lint(str(folder), "--format", "json", *more)
    return (text.exit_code, text.stdout, text.stderr), (doc.exit_code, doc.stdout, doc.stderr)


def kept(folder: Path) -> dict[str, Any]:
    """The switches of the one entry of the device findings (its JSON), by key."""
    (entry,) = (folder / CACHE).glob(f"{device_cache.PREFIX}*")
    switches: dict[str, Any] = json.loads(unsealed(entry))["switches"]
    return switches


def forget_runs(folder: Path) -> None:
    """The run memo's entries removed: it would print the output without running a rule."""
    for entry in (folder / CACHE).glob(f"{memo.PREFIX}*"):
        entry.unlink()


@pytest.fixture
def judged(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The switches the device rules ran on, in order (the pod's 12 run in this process)."""
    done: list[str] = []
    real = engine._device_findings

    def counting(device: list[Rule], view: DeviceView) -> list[list[Finding]]:
        done.append(view.name)
        return real(device, view)

    monkeypatch.setattr(engine, "_device_findings", counting)
    yield done


# -- warm is cold ------------------------------------------------------------------------------

# What the edits aim at: a description, an MTU, an ASN, a peer, a no-drop priority and its
# headroom, a link's address (the parse reads each into the model the rules judge).
AIMS = ("description", "mtu", "as-number", "bgp ", "no-drop", "headroom", "ip address")


def _edited(line: str, kind: int, noise: str) -> list[str]:
    """``line`` with a word added, a digit changed, or gone."""
    if kind == 0:
        return [f"{line} {noise}"]
    digits = [i for i, c in enumerate(line) if c.isdigit()]
    if kind == 1 and digits:
        i = digits[len(noise) % len(digits)]
        return [line[:i] + str((int(line[i]) + 1 + len(noise)) % 10) + line[i + 1 :]]
    return []


@pytest.fixture(scope="module")
def warmed(generated: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The pod linted once with the cache: every switch's device findings are in it."""
    folder = cachepod.linted_copy(generated, tmp_path_factory)
    assert len(kept(folder)) == 12
    return folder


@settings(
    max_examples=examples(30),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_a_warm_lint_after_an_edit_says_what_a_cold_one_says(
    warmed: Path, judged: list[str], data: st.DataObject
) -> None:
    """A line of a random config that the rules stand on edited (a word added, a digit
    changed, the line gone): lint with the cache runs the device rules on that switch alone and
    prints byte for byte what lint without it prints, as text and JSON, exit code and all;
    run again, it runs them on none."""
    configs = sorted(warmed.glob("*.cfg"))
    target = data.draw(st.sampled_from(configs), label="config")
    original = target.read_text(encoding="utf-8")
    lines = original.splitlines()
    aimed = [i for i, line in enumerate(lines) if any(a in line for a in AIMS)]
    at = data.draw(st.sampled_from(aimed), label="line")
    kind = data.draw(st.integers(0, 2), label="edit")
    noise = data.draw(st.text("abcdefghij0123456789 ./-", min_size=1, max_size=20), label="noise")
    edited = [*lines[:at], *_edited(lines[at], kind, noise), *lines[at + 1 :]]
    # the entry holds the last run's switches: one edited by the last example, put back since,
    # is judged again by the next run
    assert lint(str(warmed)).exit_code in (0, 1)
    target.write_text("\n".join(edited) + "\n", encoding="utf-8")
    try:
        judged.clear()
        first_warm = outputs(warmed)
        assert set(judged) <= {target.stem}
        cold = outputs(warmed, "--no-cache")
        judged.clear()
        forget_runs(warmed)
        second_warm = outputs(warmed)
        assert judged == []
    finally:
        target.write_text(original, encoding="utf-8")
    assert first_warm == cold
    assert second_warm == cold


def test_an_edit_runs_the_device_rules_on_that_switch_alone(pod: Path, judged: list[str]) -> None:
    cold = outputs(pod, "--no-cache")
    assert len(judged) == 24  # text and JSON, 12 switches each
    judged.clear()
    assert outputs(pod) == cold
    assert len(judged) == 12  # the text's lint keeps them; the JSON's reads them
    leaf = pod / "leaf-3.cfg"
    leaf.write_text(leaf.read_text(encoding="utf-8").replace("mtu 9216", "mtu 9000"), "utf-8")
    judged.clear()
    warm = outputs(pod)
    assert judged == ["leaf-3"]
    assert warm == outputs(pod, "--no-cache")


@pytest.mark.parametrize(
    "option", [["--cable-length", "300"], ["--roce-dscp", "24"], ["--cnp-dscp", "40"]]
)
def test_other_options_run_every_switch_again(
    pod: Path, judged: list[str], option: list[str]
) -> None:
    """The options are in every key: what the rules were told differs, so they run."""
    assert lint(str(pod)).exit_code in (0, 1)
    judged.clear()
    warm = outputs(pod, *option)
    assert len(judged) == 12
    judged.clear()
    assert warm == outputs(pod, *option, "--no-cache")


_DIGEST = (
    "from roce_cfg.analysis.context import Options\n"
    "from roce_cfg.analysis.device_cache import options_digest\n"
    "names = frozenset(f'leaf-{n}' for n in range(50))\n"
    "print(options_digest(Options(vlan_switches={10: names}, cables={('a', 'p1'): 3.0})))\n"
)


def test_the_options_digest_is_the_same_in_every_process() -> None:
    """A set iterates in the order of its strings' hashes, another in each process."""
    found = set()
    for seed in ("1", "2", "3"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        run = subprocess.run(
            [sys.executable, "-c", _DIGEST], env=env, capture_output=True, text=True, check=True
        )
        found.add(run.stdout)
    assert len(found) == 1


def test_the_options_digest_sees_every_field() -> None:
    others = [
        Options(cable_m={"*": 1.0}),
        Options(roce_dscp=24),
        Options(cnp_dscp=40),
        Options(deadlock=True),
        Options(vlan_switches={10: frozenset({"leaf-1"})}),
        Options(cables={("a", "p1"): 3.5}),
        Options(speeds={("a", "p1"): 100}),
    ]
    digests = {device_cache.options_digest(o) for o in [Options(), *others]}
    assert len(digests) == len(others) + 1


# -- a far end judged again ------------------------------------------------------------------


class _Gate:
    """A switch's gate where ``port`` (None: every port) was not read."""

    def __init__(self, unread: str | bool | None) -> None:
        self.at = unread

    def unread(self, sections: object, port: str | None = None) -> tuple[int, ...] | None:
        return (1,) if self.at is True or (self.at is not False and port == self.at) else None


@pytest.mark.parametrize("own", [False, True, "p1"])
@pytest.mark.parametrize("far", [False, True, "p2", "p9"])
@pytest.mark.parametrize("of_switch", [False, True])
def test_the_two_halves_conclude_as_the_whole(own: object, far: object, of_switch: bool) -> None:
    """A device rule's hit concludes when both its ends were read (``concludes``); kept, its own
    end is judged when its switch is, its far end on every run (engine._far_end_concludes):
    together, what ``concludes`` says."""
    rule = Rule("RC999", "x", "warning", "device", "s", "r", "f", reads=("pfc",))
    views = {"a": SimpleNamespace(gate=_Gate(own)), "b": SimpleNamespace(gate=_Gate(far))}
    hit = Hit("m", port="p1", related_device="b", related_port="p2", of_switch=of_switch)
    whole = concludes(rule, hit, views, "a")  # type: ignore[arg-type]  # gates alone are read
    own_end = concludes(rule, replace(hit, related_device=None), views, "a")  # type: ignore[arg-type]
    found = Finding(
        rule="RC999",
        severity="warning",
        device="a",
        port="p1",
        message="m",
        related_device="b",
        related_port="p2",
    )
    assert whole == (own_end and engine._far_end_concludes(rule, found, views))  # type: ignore[arg-type]


# -- entries not trusted -----------------------------------------------------------------------


def _corrupted(packed: bytes, how: int) -> bytes:
    doc = zlib.decompress(packed).decode("utf-8")
    if how == 0:
        return b"not zlib at all"
    if how == 1:
        return packed[: len(packed) // 2]  # cut short
    if how == 2:
        return zlib.compress(b'{"format": "%s"}' % device_cache.FORMAT.encode())
    if how == 3:
        return zlib.compress(doc.replace('"rules":["', '"rules":["RC000","').encode())
    return zlib.compress(doc.replace('"shared":"', '"shared":"0').encode())


@pytest.mark.parametrize("how", range(5))
def test_a_corrupt_or_foreign_entry_runs_the_rules_again(
    pod: Path, judged: list[str], how: int
) -> None:
    cold = outputs(pod, "--no-cache")
    assert lint(str(pod)).exit_code == cold[0][0]
    (entry,) = (pod / CACHE).glob(f"{device_cache.PREFIX}*")
    reseal(entry, device_cache._USE, lambda packed: _corrupted(packed, how))  # past the MAC
    forget_runs(pod)
    judged.clear()
    result = lint(str(pod))
    assert (result.exit_code, result.stdout, result.stderr) == cold[0]
    assert len(judged) == 12  # every switch, and the entry is written again
    judged.clear()
    forget_runs(pod)
    assert outputs(pod) == cold
    assert judged == []


def _moved(doc: dict[str, Any], how: int) -> dict[str, Any]:
    """The entry with one switch's findings under another's key, or a list of them missing."""
    keys = sorted(doc["switches"])
    first, other = doc["switches"][keys[0]], doc["switches"][keys[1]]
    with_findings = next(k for k in keys if any(doc["switches"][k]))
    if how == 0:
        doc["switches"][keys[0]] = other
    else:
        doc["switches"][with_findings] = doc["switches"][with_findings][1:]
    assert first is not None
    return doc


@pytest.mark.parametrize("how", range(2))
def test_another_switchs_findings_under_a_key_are_refused(
    pod: Path, judged: list[str], how: int
) -> None:
    cold = outputs(pod, "--no-cache")
    assert lint(str(pod)).exit_code == cold[0][0]
    (entry,) = (pod / CACHE).glob(f"{device_cache.PREFIX}*")
    doc = _moved(json.loads(unsealed(entry)), how)
    moved = json.dumps(doc, separators=(",", ":")).encode()
    reseal(entry, device_cache._USE, lambda _: zlib.compress(moved))  # past the MAC
    forget_runs(pod)
    judged.clear()
    result = lint(str(pod))
    assert (result.exit_code, result.stdout, result.stderr) == cold[0]
    assert len(judged) == 1  # that switch alone, and the entry is written again
    judged.clear()
    forget_runs(pod)
    assert outputs(pod) == cold
    assert judged == []


def test_the_entry_holds_the_last_runs_switches_alone(pod: Path, tmp_path: Path) -> None:
    """A config removed from the folder leaves the entry with it (bounded by the fabric)."""
    assert lint(str(pod)).exit_code in (0, 1)
    assert len(kept(pod)) == 12
    (pod / "leaf-8.cfg").rename(tmp_path / "leaf-8.cfg")
    assert lint(str(pod)).exit_code in (0, 1)
    assert len(kept(pod)) == 11


def test_no_cache_keeps_none(pod: Path, judged: list[str]) -> None:
    for _ in range(2):
        assert lint(str(pod), "--no-cache").exit_code in (0, 1)
    assert len(judged) == 24
    assert not (pod / CACHE).exists()
