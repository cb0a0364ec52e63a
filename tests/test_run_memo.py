"""The run memo (roce_cfg/memo.py): lint run again over unchanged inputs prints the output it
kept, byte for byte what a cold run prints; any change to what the run read (a config, fabric.json's
links and roles, a file added or removed, an option, the lint config, the overlay) means a run.
A file rewritten within the clock tick of the run that recorded it is judged by its content."""

from __future__ import annotations

import json
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from roce_cfg import memo
from roce_cfg.analysis import device_cache
from roce_cfg.output import CACHE_DIR, LINT_CONFIG
from roce_cfg.seal import MAC_BYTES, Seal, unpacked, write_cached
from tests import cachepod
from tests.cachepod import reseal, unsealed
from tests.helpers import ROOT, examples

FORMATS = ("text", "json", "sarif", "junit")

Said = tuple[int, str, str]
generated, pod = cachepod.generated, cachepod.pod  # the fixtures this module uses


def lint(*args: str) -> Said:
    """``roce-cfg lint`` as a user runs it: the cache on (the suite turns it off)."""
    done = cachepod.lint(*args)
    return done.exit_code, done.stdout, done.stderr


@pytest.fixture
def replays(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[bool]]:
    """Whether each memoised run was replayed from its memo (True) or ran (False)."""
    seen: list[bool] = []
    real = memo.RunMemo.replay

    def counting(self: memo.RunMemo) -> object:
        kept = real(self)
        seen.append(kept is not None)
        return kept

    monkeypatch.setattr(memo.RunMemo, "replay", counting)
    yield seen


# -- edits of every input a lint reads ---------------------------------------------------------


def _fabric(folder: Path, change: int) -> None:
    """fabric.json with one link's far port moved, one switch's role changed or one link gone."""
    path = folder / "fabric.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    if change == 0:
        doc["links"][0]["b_port"] = doc["links"][1]["b_port"]
    elif change == 1:
        doc["switches"][-1]["role"] = "spine" if doc["switches"][-1]["role"] != "spine" else "leaf"
    else:
        del doc["links"][-1]
    path.write_text(json.dumps(doc, indent=2), encoding="utf-8")


def _bgp(folder: Path, n: int) -> None:
    """One BGP session's peer address or AS changed in one config."""
    for cfg in sorted(folder.glob("*.cfg")):
        lines = cfg.read_text(encoding="utf-8").splitlines()
        peers = [i for i, line in enumerate(lines) if "as-number" in line or "remote-as" in line]
        if peers:
            at = peers[n % len(peers)]
            lines[at] = lines[at].replace("650", "651", 1).replace(".0.", ".9.", 1)
            cfg.write_text("\n".join(lines) + "\n", encoding="utf-8")
            return
    raise AssertionError("no BGP peer in the pod")


def _files(folder: Path, n: int) -> None:
    """A config removed, or a copy of one added under another name, or a README added."""
    configs = sorted(folder.glob("*.cfg"))
    if n == 0:
        configs[-1].unlink()
    elif n == 1:
        shutil.copy(configs[0], folder / "zz-copy.cfg")
    else:
        (folder / "README.txt").write_text("backups of the pod\n", encoding="utf-8")


EDITS = ("none", "fabric link", "fabric role", "fabric link gone", "bgp", "files", "suppress")


def _edit(folder: Path, kind: str, n: int, cwd: Path) -> None:
    if kind.startswith("fabric"):
        _fabric(folder, EDITS.index(kind) - 1)
    elif kind == "bgp":
        _bgp(folder, n)
    elif kind == "files":
        _files(folder, n % 3)
    elif kind == "suppress":  # the lint config read from the working folder
        rule = ("RC9", "RC5", "RC1")[n % 3]
        text = f"ignore:\n  - rule: {rule}0{n % 10}\n    device: '*'\n    reason: accepted\n"
        (cwd / LINT_CONFIG).write_text(text, encoding="utf-8")


@st.composite
def options(draw: st.DrawFn, overlay: Path) -> list[str]:
    """Options of lint that change what it prints, some at random."""
    out = ["--format", draw(st.sampled_from(FORMATS))]
    if draw(st.booleans()):
        out += ["--cnp-dscp", str(draw(st.sampled_from([46, 48, 56])))]
    if draw(st.booleans()):
        out += ["--cable-length", f"leaf-spine={draw(st.sampled_from([30, 100, 300]))}"]
    if draw(st.booleans()):
        out += ["--fail-on", draw(st.sampled_from(["error", "warning", "info"]))]
    if draw(st.booleans()):
        out += ["--vendor-dir", str(overlay)]
    return out


@pytest.fixture
def workspace(
    generated: Path, tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> tuple[Path, Path]:
    """A folder of the pod and a working folder (the lint config's), both reused by every
    example (their memo entries and parse cache with them)."""
    top = tmp_path_factory.mktemp("edits")
    cwd = top / "cwd"
    cwd.mkdir()
    monkeypatch.chdir(cwd)
    shutil.copytree(ROOT / "tests/overlay", top / "overlay")
    return top, cwd


@settings(
    max_examples=examples(40),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_a_memoised_lint_after_any_edit_says_what_a_cold_one_says(
    workspace: tuple[Path, Path], generated: Path, data: st.DataObject
) -> None:
    """An edit of one input (or none) and random options: lint with the memo (run, then
    replayed) prints byte for byte, exit code and stderr too, what lint without it prints."""
    top, cwd = workspace
    folder = top / "pod"
    if not folder.exists():
        shutil.copytree(generated, folder)
    overlay = top / "overlay"
    kind = data.draw(st.sampled_from(EDITS), label="edit")
    n = data.draw(st.integers(0, 30), label="n")
    args = data.draw(options(overlay), label="options")
    if data.draw(st.booleans(), label="overlay edited"):
        profile = overlay / "vendors/ruijie.yaml"
        profile.write_text(profile.read_text(encoding="utf-8") + f"# {n}\n", encoding="utf-8")
    before = {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}
    _edit(folder, kind, n, cwd)
    try:
        first = lint(str(folder), *args)  # the edited inputs: run and kept
        cold = lint(str(folder), *args, "--no-cache")
        again = lint(str(folder), *args)  # replayed
    finally:
        for p in folder.iterdir():
            if p.is_file() and p.name not in before:
                p.unlink()
        for name, content in before.items():
            path = folder / name
            if not path.exists() or path.read_bytes() != content:
                path.write_bytes(content)
        (cwd / LINT_CONFIG).unlink(missing_ok=True)
    assert first == cold
    assert again == cold


def test_nothing_changed_is_replayed_and_any_change_runs(pod: Path, replays: list[bool]) -> None:
    cold = lint(str(pod), "--no-cache")
    assert lint(str(pod)) == cold
    assert lint(str(pod)) == cold
    assert replays == [False, True]
    assert len(list((pod / CACHE_DIR).glob(f"{memo.PREFIX}*{memo.SUFFIX}"))) == 1
    leaf = pod / "leaf-2.cfg"
    leaf.write_text(leaf.read_text(encoding="utf-8").replace("mtu 9216", "mtu 9000"), "utf-8")
    changed = lint(str(pod))
    assert changed == lint(str(pod), "--no-cache") != cold
    assert replays[2:] == [False]
    assert lint(str(pod), "--format", "json") == lint(str(pod), "--format", "json", "--no-cache")
    assert replays[3:] == [False]  # another option, another memo


# -- what the stat alone does not settle -------------------------------------------------------


def test_a_rewrite_in_the_same_clock_tick_is_judged_by_its_content(
    pod: Path, replays: list[bool], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A coarse clock gives a file rewritten right after the run read it the stat it had: the
    memo hashes a file that new (racy) instead of trusting its stat. With no racy window the
    memo would replay the old output: the test sees it."""
    leaf = pod / "leaf-1.cfg"
    cold = lint(str(pod), "--no-cache")
    text = leaf.read_text(encoding="utf-8")
    leaf.write_text(text, encoding="utf-8")  # written just before the run, as an editor saves
    _, same_stat = memo._stat(leaf)
    real = memo._stat

    def frozen(path: Path) -> tuple[bool, memo.Stat]:
        return (True, same_stat) if path == leaf else real(path)

    monkeypatch.setattr(memo, "_stat", frozen)
    assert lint(str(pod)) == cold
    leaf.write_text(text.replace("mtu 9216", "mtu 9000"), encoding="utf-8")  # same size
    edited = lint(str(pod), "--no-cache")
    assert edited != cold
    assert lint(str(pod)) == edited
    assert replays == [False, False]
    monkeypatch.setattr(memo, "RACY_NS", -(10**18))  # nothing is ever racy: the stat is trusted
    leaf.write_text(text, encoding="utf-8")
    assert lint(str(pod)) == edited != cold  # what the racy check prevents


def test_a_file_changed_while_the_run_reads_it_is_not_kept(
    pod: Path, replays: list[bool], monkeypatch: pytest.MonkeyPatch
) -> None:
    from roce_cfg.analysis import engine

    leaf = pod / "leaf-1.cfg"
    real = engine.judge

    def judge_then_edit(*args: object, **kwargs: object) -> object:
        result = real(*args, **kwargs)  # type: ignore[arg-type]
        leaf.write_text(leaf.read_text(encoding="utf-8") + "\n", encoding="utf-8")
        return result

    monkeypatch.setattr("roce_cfg.analysis.run.judge", judge_then_edit)
    lint(str(pod))
    assert not list((pod / CACHE_DIR).glob(f"{memo.PREFIX}*"))


def test_a_write_past_the_streams_is_not_kept(pod: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What the memo cannot see it cannot replay: a run that reached for the stream's bytes
    underneath is not kept."""
    from roce_cfg.cli import lint as lint_cli

    real = lint_cli._lint_out

    def reaching(*args: object) -> None:
        assert sys.stdout.buffer is not None
        real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(lint_cli, "_lint_out", reaching)
    lint(str(pod))
    assert not list((pod / CACHE_DIR).glob(f"{memo.PREFIX}*"))


def test_no_memo_without_the_cache_or_through_a_link(pod: Path, tmp_path: Path) -> None:
    lint(str(pod), "--no-cache")
    assert not (pod / CACHE_DIR).exists()
    linked = tmp_path / "linked"
    linked.mkdir()
    (linked / "leaf-1.cfg").symlink_to(pod / "leaf-1.cfg")
    assert memo.inputs([linked], []) is None
    cold = lint(str(linked), "--no-cache")
    assert lint(str(linked)) == cold
    assert lint(str(linked)) == cold
    assert not list((linked / CACHE_DIR).glob(f"{memo.PREFIX}*"))


def _doc(entry: Path) -> Any:
    """The document of a memo entry (after its MAC: roce_cfg/seal.py)."""
    return json.loads(unsealed(entry))


def _sealed(entry: Path, doc: Any, use: str = memo._USE) -> None:
    """``doc`` written in ``entry`` with the MAC the user's roce-cfg would give it (an entry
    of ``use``): what only someone holding the user's key can do (the document's own checks
    are the next line of defence)."""
    import zlib

    body = json.dumps(doc, separators=(",", ":"))
    reseal(entry, use, lambda _: zlib.compress(body.encode()))


def _corrupt(entry: Path, how: int) -> None:
    doc = _doc(entry)
    name = next(iter(doc["files"]))
    if how == 0:
        entry.write_bytes(entry.read_bytes()[:40])  # cut short
    elif how == 1:
        doc["files"][name] = [5, None]
    elif how == 2:
        doc["files"][name] = [[1, 2, 3], "0" * 40]
    elif how == 3:
        doc["output"] = [[3, "printed where?\n"]]
    elif how == 4:
        doc["code"] = 2
    elif how == 5:
        doc["stamp"] = "0" * 40
    else:
        doc["started_ns"] = "later"
    if how:
        _sealed(entry, doc)


@pytest.mark.parametrize("how", range(7))
def test_a_corrupt_or_foreign_entry_means_a_run(pod: Path, replays: list[bool], how: int) -> None:
    cold = lint(str(pod), "--no-cache")
    assert lint(str(pod)) == cold
    (entry,) = (pod / CACHE_DIR).glob(f"{memo.PREFIX}*")
    _corrupt(entry, how)
    assert lint(str(pod)) == cold  # ran, and kept again
    assert lint(str(pod)) == cold
    assert replays == [False, False, True]


def test_a_planted_secret_in_an_entry_is_redacted_when_replayed(
    pod: Path, replays: list[bool]
) -> None:
    """An entry holds only output the redactor leaves as it is; one edited by hand to hold a
    secret still prints it redacted."""
    lint(str(pod))
    (entry,) = (pod / CACHE_DIR).glob(f"{memo.PREFIX}*")
    doc = _doc(entry)
    doc["output"].append([1, " snmp-server community public ro\n"])
    _sealed(entry, doc)
    _, stdout, _ = lint(str(pod))
    assert replays == [False, True]
    assert stdout.endswith(" snmp-server community <redacted> ro\n")


@pytest.mark.parametrize("how", ["edited", "another kind", "moved"])
def test_an_entry_the_users_roce_cfg_did_not_write_there_replays_nothing(
    pod: Path, replays: list[bool], how: str
) -> None:
    """Whoever can write the folder but has not the user's key: an entry edited in place (a
    failing lint made to replay as clean), one sealed for another kind of entry, or one moved
    from another memo's name is refused by its MAC, and the lint runs."""
    import zlib

    cold = lint(str(pod), "--no-cache")
    assert cold[0] == 0 and lint(str(pod)) == cold
    (entry,) = (pod / CACHE_DIR).glob(f"{memo.PREFIX}*")
    if how != "moved":
        doc = _doc(entry)
        doc["output"] = [[1, "all clear\n"]]
        if how == "edited":
            body = json.dumps(doc, separators=(",", ":")).encode()
            entry.write_bytes(entry.read_bytes()[:MAC_BYTES] + zlib.compress(body))
        else:
            _sealed(entry, doc, device_cache._USE)
    else:  # the entry of the same lint in JSON, under the text lint's name
        lint(str(pod), "--format", "json")
        (other,) = set((pod / CACHE_DIR).glob(f"{memo.PREFIX}*")) - {entry}
        entry.write_bytes(other.read_bytes())
    assert lint(str(pod)) == cold
    assert replays[-1] is False


def test_an_entry_is_never_read_through_a_link(tmp_path: Path) -> None:
    """Every cache's entries are read by ``unpacked`` or ``Seal.opened``: a link in an entry's
    place (to an entry elsewhere, which would read as one) is refused, the entry itself read."""
    import zlib

    folder, elsewhere = tmp_path / CACHE_DIR, tmp_path / "elsewhere"
    folder.mkdir()
    elsewhere.mkdir()
    (elsewhere / "x.json.z").write_bytes(zlib.compress(b"{}"))
    (folder / "own.json.z").write_bytes(zlib.compress(b"{}"))
    (folder / "linked.json.z").symlink_to(elsewhere / "x.json.z")
    assert unpacked(folder / "own.json.z", 100, 100) == b"{}"
    assert unpacked(folder / "linked.json.z", 100, 100) is None
    assert unpacked(folder / "missing.json.z", 100, 100) is None
    kept = Seal(b"k" * 32)
    assert write_cached(elsewhere / "s.json.z", "{}", kept)
    assert write_cached(folder / "own.json.z", "{}", kept)
    (folder / "s.json.z").symlink_to(elsewhere / "s.json.z")  # its MAC verifies under the name
    assert kept.opened(folder / "own.json.z", 100, 100) == b"{}"
    assert kept.opened(elsewhere / "s.json.z", 100, 100) == b"{}"
    assert kept.opened(folder / "s.json.z", 100, 100) is None
