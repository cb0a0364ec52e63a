"""The parse cache (roce_cfg/parse/cache.py): a folder linted again parses only the configs that
changed, and says exactly what a cold run says. Whatever makes an entry doubtful (another
version, another overlay, other hints, a corrupt or foreign entry) means a parse; --no-cache
and a linked cache folder mean no cache at all; the folder stays under its size bound."""

from __future__ import annotations

import json
import os
import shutil
import stat
import zlib
from collections.abc import Iterator
from ipaddress import IPv4Interface
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import roce_cfg
from roce_cfg import cache_key, memo, output, seal
from roce_cfg.analysis import device_cache
from roce_cfg.cli.main import app
from roce_cfg.cli.options import NO_CACHE_ENV
from roce_cfg.inputs import discover, reading
from roce_cfg.parse import Hints, many, plan_cache
from roce_cfg.parse import cache as parse_cache
from roce_cfg.seal import MAC_BYTES, Seal
from tests import cachepod
from tests.cachepod import POD, lint
from tests.helpers import ROOT, examples

CACHE = output.CACHE_DIR
generated, pod = cachepod.generated, cachepod.pod  # the fixtures this module uses


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The files parsed (not taken from the cache), in order."""
    done: list[str] = []
    real = many.parse_text

    def counting(text: str, **kwargs: object) -> object:
        done.append(Path(str(kwargs["file"])).name)
        return real(text, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(many, "parse_text", counting)
    yield done


def document(entry: Path) -> bytes:
    """The JSON document a parse cache entry holds, after its seal, inflated."""
    return zlib.decompress(entry.read_bytes()[MAC_BYTES:])


def sealed(
    folder: Path, entry: Path, doc: bytes, cache: parse_cache.ParseCache | None = None
) -> None:
    """``doc`` written to ``entry`` compressed and sealed with the user's key (``cache``'s,
    or the folder's cache's): what only roce-cfg (or someone holding the key) can write, so
    that what lies behind the MAC is tested too."""
    if cache is None:
        cache, _ = parse_cache.open_cache([folder], None)
    assert cache is not None
    packed = zlib.compress(doc)
    entry.write_bytes(cache.seal.mac(entry.name, packed) + packed)


def entries(folder: Path) -> list[Path]:
    """The parse cache's entries (the run memo's, the device findings' and the plan's beside
    them aside)."""
    found = (folder / CACHE).glob(f"*{parse_cache.SUFFIX}")
    others = (memo.PREFIX, device_cache.PREFIX, plan_cache.PREFIX)
    return sorted(p for p in found if not p.name.startswith(others))


Said = tuple[int, str, str]


def outputs(folder: Path, *more: str) -> tuple[Said, Said]:
    """lint's text and JSON of ``folder``: exit code, stdout and stderr of each."""
    text = lint(str(folder), *more)
    doc = lint(str(folder), "--format", "json", *more)
    return (text.exit_code, text.stdout, text.stderr), (doc.exit_code, doc.stdout, doc.stderr)


# -- warm is cold ------------------------------------------------------------------------------


def _edited(line: str, kind: int, noise: str) -> list[str]:
    """One line of a config after an edit of ``kind``: gone, doubled, a digit changed, a line
    of noise in its place or after it."""
    if kind == 0:
        return []
    if kind == 1:
        return [line, line]
    if kind == 2:
        digits = [i for i, c in enumerate(line) if c.isdigit()]
        if digits:
            i = digits[len(noise) % len(digits)]
            return [line[:i] + str((int(line[i]) + 1 + len(noise)) % 10) + line[i + 1 :]]
        return [line + " " + noise]
    if kind == 3:
        return [noise]
    return [line, " " + noise]


@pytest.fixture(scope="module")
def warmed(generated: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The pod linted once with the cache: every config's parse is in it."""
    folder = cachepod.linted_copy(generated, tmp_path_factory)
    assert len(entries(folder)) == 12
    return folder


@settings(
    max_examples=examples(40),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_a_warm_lint_after_a_random_edit_says_what_a_cold_one_says(
    warmed: Path, data: st.DataObject
) -> None:
    """A random line of a random config edited: lint with the cache (the other configs from
    it; the edited one parsed, then from the cache too) prints byte for byte what lint without
    it prints, as text and as JSON, with the same exit code."""
    configs = sorted(warmed.glob("*.cfg"))
    target = data.draw(st.sampled_from(configs), label="config")
    original = target.read_text(encoding="utf-8")
    lines = original.splitlines()
    at = data.draw(st.integers(0, len(lines) - 1), label="line")
    kind = data.draw(st.integers(0, 4), label="edit")
    noise = data.draw(st.text("abcdefghij0123456789 ./-", min_size=1, max_size=30), label="noise")
    edited = [*lines[:at], *_edited(lines[at], kind, noise), *lines[at + 1 :]]
    target.write_text("\n".join(edited) + "\n", encoding="utf-8")
    try:
        first_warm = outputs(warmed)  # the edited config parsed and stored, then read back
        cold = outputs(warmed, "--no-cache")
        second_warm = outputs(warmed)  # every config from the cache
    finally:
        target.write_text(original, encoding="utf-8")
    assert first_warm == cold
    assert second_warm == cold


# -- what is parsed again ----------------------------------------------------------------------


def test_a_second_lint_parses_nothing_and_an_edit_parses_that_config(
    pod: Path, parses: list[str]
) -> None:
    cold = outputs(pod, "--no-cache")
    parses.clear()
    assert outputs(pod) == cold
    assert len(parses) == 12  # by the text's lint, which stores them; the JSON's has them
    parses.clear()
    assert outputs(pod) == cold
    assert parses == []
    leaf = pod / "leaf-3.cfg"
    leaf.write_text(leaf.read_text(encoding="utf-8").replace("mtu 9216", "mtu 9000"), "utf-8")
    parses.clear()
    outputs(pod)
    assert parses == ["leaf-3.cfg"]


def test_a_warm_lint_reads_and_hashes_each_config_once(
    pod: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The files whose entries are there are found by their bytes' hash, then loaded from
    those bytes and that hash: not read and hashed again (0.1 s of a warm xl lint)."""
    assert lint(str(pod)).exit_code == 0
    leaf = pod / "leaf-3.cfg"
    leaf.write_text(leaf.read_text(encoding="utf-8").replace("mtu 9216", "mtu 9000"), "utf-8")
    hashed: list[str] = []
    real = parse_cache.ParseCache.key

    def counting(self: parse_cache.ParseCache, path: Path, *args: Any) -> str:
        hashed.append(path.name)
        return real(self, path, *args)

    monkeypatch.setattr(parse_cache.ParseCache, "key", counting)
    assert lint(str(pod)).exit_code == 0
    assert sorted(hashed) == sorted([p.name for p in pod.glob("*.cfg")] + ["leaf-3.cfg"])


def test_a_trunk_port_s_vlans_are_kept(pod: Path, parses: list[str]) -> None:
    """A trunk's VLAN ranges as a parse makes them pass the load's check of their shape."""
    leaf = pod / "leaf-3.cfg"
    trunk = " port link-type trunk\n port trunk permit vlan 5 to 9 300\n"
    leaf.write_text(leaf.read_text("utf-8").replace(" port access vlan 103\n", trunk, 1), "utf-8")
    cold = outputs(pod, "--no-cache")
    outputs(pod)
    kept = [e for e in entries(pod) if b'"trunk_vlans":[[5,9],[300,300]]' in document(e)]
    assert len(kept) == 1  # the parse made the ranges this test means
    for run in (pod / CACHE).glob(f"{memo.PREFIX}*"):
        run.unlink()  # the run memo would print the output without reading a config
    parses.clear()
    assert outputs(pod) == cold
    assert parses == []


def test_another_version_parses_again(
    pod: Path, parses: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert lint(str(pod)).exit_code == 0
    parses.clear()
    assert lint(str(pod)).exit_code == 0
    assert parses == []
    monkeypatch.setattr(roce_cfg, "__version__", roce_cfg.__version__ + ".post1")
    assert lint(str(pod)).exit_code == 0
    assert len(parses) == 12


def test_an_overlay_changed_parses_again(pod: Path, parses: list[str], tmp_path: Path) -> None:
    overlay = tmp_path / "overlay"
    shutil.copytree(ROOT / "tests/overlay", overlay)
    before = lint(str(pod), "--vendor-dir", str(overlay))
    assert before.exit_code == 0, before.output
    assert len(parses) == 12
    parses.clear()
    assert lint(str(pod), "--vendor-dir", str(overlay)).stdout == before.stdout
    assert parses == []
    profile = overlay / "vendors/ruijie.yaml"
    profile.write_text(profile.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
    assert lint(str(pod), "--vendor-dir", str(overlay)).stdout == before.stdout
    assert len(parses) == 12
    parses.clear()
    assert lint(str(pod)).stdout == lint(str(pod), "--no-cache").stdout  # no overlay: others
    assert len(parses) == 24


def test_other_hints_for_a_switch_parse_it_again(pod: Path, parses: list[str]) -> None:
    """An entry names the hints fabric.json gave its switch: other hints, another parse."""
    cache, warning = parse_cache.open_cache([pod], None)
    assert cache is not None and warning is None
    leaf = pod / "leaf-1.cfg"

    def parsed_with(hints: Hints) -> str:
        found = discover([leaf], None, None)
        with reading(found, None, {"leaf-1": hints}, None, cache=cache) as outcomes:
            (_, one), *_ = outcomes
        assert not isinstance(one, Exception)
        return one.config.model_dump_json()

    plain, faster = Hints(), Hints(speeds={"HundredGigE1/0/1": 100})
    first = parsed_with(plain)
    assert parsed_with(plain) == first
    assert parses == ["leaf-1.cfg"]
    parsed_with(faster)
    assert parses == ["leaf-1.cfg", "leaf-1.cfg"]
    assert parsed_with(plain) == first  # one entry per file: the last hints' replaced it
    assert len(parses) == 3


# -- entries not trusted -----------------------------------------------------------------------


def _parts(entry: Path) -> tuple[Any, Any, Any]:
    """The shared part, the own part and the columns of an entry, as JSON values."""
    doc = document(entry)
    head = parse_cache._HEAD.match(doc)
    assert head is not None
    first, second = int(head[1]), int(head[2])
    rest = doc[head.end() :]
    own_end = first + 1 + second
    return (
        json.loads(rest[:first]),
        json.loads(rest[first + 1 : own_end]),
        json.loads(rest[own_end + 1 : -1]),
    )


def _resealed(
    folder: Path,
    entry: Path,
    parts: tuple[Any, Any, Any],
    cache: parse_cache.ParseCache | None = None,
) -> None:
    """``entry`` written again with these parts (shared, own, columns), sealed (``sealed``)."""
    texts = [json.dumps(p, separators=(",", ":")) for p in parts]
    doc = f"[{len(texts[0])},{len(texts[1])},{texts[0]},{texts[1]},{texts[2]}]"
    sealed(folder, entry, doc.encode(), cache)


def _port_edit(how: int, shared: Any, columns: Any) -> None:
    """A value behind the MAC made one its field's validation refuses (or one that validation
    lets through and lint's ``numbers.expand`` refuses: overlapping trunk VLANs)."""
    shape = shared["shapes"][columns["port_shapes"][0]]
    routed = next(i for i, a in enumerate(columns["port_addresses"]) if a is not None)
    if how == 7:
        shape["qos"] = len(shared["port_qos"])  # past the table
    elif how == 8:
        shape["speed_gbps"] = 9 * 10**6  # past its bound
    elif how == 9:
        columns["port_addresses"][routed] = 2**32 + 1  # past IPv4's
    elif how in (10, 11):
        shape["trunk_vlans"] = [[1, 4094]] * 17 if how == 10 else [[4094, 1]]
    elif how == 12:
        shared["port_names"][0] = 7  # not a string
    elif how == 13:
        columns["port_descriptions"].pop()  # a column short
    elif how == 14:
        columns["port_prefixlens"][routed] = 33
    elif how == 15:
        columns["peer_asns"][0] = 0  # AS 0 is reserved (RFC 7607), outside the domain
    elif how == 16:
        columns["peer_addresses"][0] = "not an address"
    elif how == 18:
        columns["hint"]["speeds"] = [[[0], 400]]  # a port no index or name
    else:
        columns["port_shapes"][0] = -1  # would index from the end


def _corrupt(folder: Path, entry: Path, how: int, other: Path) -> None:
    packed = entry.read_bytes()
    doc = document(entry).decode("ascii")
    if how == 0:
        entry.write_bytes(b"not zlib at all")
    elif how == 1:
        entry.write_bytes(packed[: len(packed) // 2])  # cut short
    elif how == 2:
        entry.write_bytes(zlib.compress(b'{"format": "roce-cfg/parse-cache/v1"}'))
    elif how == 3:  # a value edited, the seal left as it was: what anyone can do
        assert '"port_descriptions":["' in doc  # else this case could not fail
        edited = doc.replace('"port_descriptions":["', '"port_descriptions":["x', 1)
        entry.write_bytes(packed[:MAC_BYTES] + zlib.compress(edited.encode()))
    elif how == 4:
        entry.write_bytes(other.read_bytes())  # another config's entry under this one's key
    elif how == 5:
        sealed(folder, entry, b"[" * 100_000)
    elif how == 6:
        sealed(folder, entry, doc.encode() + b" " * 4096)  # past MAX_JSON_BYTES
    else:
        shared, own, columns = _parts(entry)
        _port_edit(how, shared, columns)
        _resealed(folder, entry, (shared, own, columns))


@pytest.mark.sample(6)
@pytest.mark.parametrize("how", range(19))
def test_a_corrupt_or_foreign_entry_is_parsed_again(
    pod: Path, parses: list[str], how: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whatever was done to an entry, lint says what a cold run says, without a traceback,
    and parses that config again: edited without the user's key (the MAC fails), or with it
    (a value its field refuses)."""
    cold = outputs(pod, "--no-cache")
    assert lint(str(pod)).exit_code == cold[0][0]
    stored = entries(pod)
    assert len(stored) == 12
    # a leaf's entry first: its server ports are the access ports lint expands, its uplinks
    # routed, its peers there
    stored.sort(key=lambda e: b'"mode":"access"' not in document(e))
    if how == 6:
        largest = max(len(document(e)) for e in stored)
        monkeypatch.setattr(parse_cache, "MAX_JSON_BYTES", largest)
    _corrupt(pod, stored[0], how, stored[1])
    for kept in (pod / CACHE).glob(f"{memo.PREFIX}*"):
        kept.unlink()  # the run memo would print the output without reading a config
    parses.clear()
    result = lint(str(pod))
    assert (result.exit_code, result.stdout, result.stderr) == cold[0]
    assert len(parses) == 1  # that one, and it is stored again
    parses.clear()
    assert outputs(pod) == cold
    assert parses == []


def test_an_entry_resealed_as_it_was_is_read(pod: Path, parses: list[str]) -> None:
    """The resealing the cases above use writes what roce-cfg reads: their entries are
    refused for the value each changed, not for the resealing."""
    cold = outputs(pod, "--no-cache")
    assert lint(str(pod)).exit_code == cold[0][0]
    for entry in entries(pod):
        _resealed(pod, entry, _parts(entry))
    for kept in (pod / CACHE).glob(f"{memo.PREFIX}*"):
        kept.unlink()
    parses.clear()
    assert outputs(pod) == cold
    assert parses == []


def test_an_entry_sealed_with_another_key_is_refused(tmp_path: Path) -> None:
    """The MAC is made with the user's key: the same entry under the same name, written by
    someone holding another key (another user, a forger), is not read."""
    path = ROOT / "golden" / "pod-small" / "leaf-1.cfg"
    data = path.read_bytes()
    mine = parse_cache.ParseCache(tmp_path / CACHE, "stamp", Seal(b"k" * 32))
    theirs = parse_cache.ParseCache(tmp_path / CACHE, "stamp", Seal(b"j" * 32))
    key = mine.key(path, data, None)
    parsed = many.parse_text(data.decode(), file=str(path), vendor=None, hints=None)
    theirs.store(key, parsed, None)
    assert theirs.load(key, path, data, None, None) is not None
    assert mine.load(key, path, data, None, None) is None
    mine.store(key, parsed, None)
    assert mine.load(key, path, data, None, None) is not None


def _one_stored(tmp_path: Path) -> tuple[parse_cache.ParseCache, Path, bytes, str]:
    """A cache under ``tmp_path`` holding pod-small's leaf-1 alone: the cache, the config's
    path and bytes, its entry's name."""
    path = ROOT / "golden" / "pod-small" / "leaf-1.cfg"
    data = path.read_bytes()
    cache = parse_cache.ParseCache(tmp_path / CACHE, "stamp", Seal(b"k" * 32))
    key = cache.key(path, data, None)
    cache.store(key, many.parse_text(data.decode(), file=str(path), vendor=None, hints=None), None)
    return cache, path, data, key


def test_an_entry_is_authenticated_before_it_is_inflated(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The MAC covers the compressed bytes: a forged entry (a stream that inflates to a
    megabyte here, to ``MAX_JSON_BYTES`` at worst) is refused before anything is inflated."""
    cache, path, data, key = _one_stored(tmp_path)
    entry = tmp_path / CACHE / key
    genuine = entry.read_bytes()
    inflating: list[int] = []
    real = seal._inflated

    def counting(packed: bytes, most: int) -> bytes | None:
        inflating.append(len(packed))
        return real(packed, most)

    monkeypatch.setattr(seal, "_inflated", counting)
    entry.write_bytes(genuine[:MAC_BYTES] + zlib.compress(b"[" * 2**20))
    assert cache.load(key, path, data, None, None) is None
    assert inflating == []
    entry.write_bytes(genuine)
    assert cache.load(key, path, data, None, None) is not None
    assert inflating == [len(genuine) - MAC_BYTES]


# -- no cache ----------------------------------------------------------------------------------


def test_no_cache_reads_and_writes_none(pod: Path, parses: list[str]) -> None:
    for _ in range(2):
        result = lint(str(pod), "--no-cache")
        assert result.exit_code == 0
    assert len(parses) == 24
    assert not (pod / CACHE).exists()


def test_the_environment_turns_it_off_as_the_suite_does(pod: Path) -> None:
    result = CliRunner().invoke(app, ["lint", str(pod)], env={NO_CACHE_ENV: "1"})
    assert result.exit_code == 0
    assert not (pod / CACHE).exists()


def test_a_linked_cache_folder_is_refused(pod: Path, tmp_path: Path, parses: list[str]) -> None:
    """As an output folder that is a link: nothing is read or written through it, and the
    command still answers (a warning says the cache is off)."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (pod / CACHE).symlink_to(elsewhere, target_is_directory=True)
    cold = lint(str(pod), "--no-cache")
    for _ in range(2):
        result = lint(str(pod))
        assert (result.exit_code, result.stdout) == (cold.exit_code, cold.stdout)
        assert "symlink" in result.stderr and "cache is off" in result.stderr
    assert list(elsewhere.iterdir()) == []
    assert len(parses) == 36


# -- the user's key ----------------------------------------------------------------------------


def test_entries_are_read_only_under_the_key_that_wrote_them(
    pod: Path, parses: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An entry in the folder (committed to a repository, say) named from public things alone
    would be read by anyone: the name is made with the user's key, so another user's entries,
    or forged ones, are parsed again, and the run memo prints nothing it did not record."""
    cold = outputs(pod, "--no-cache")
    assert outputs(pod) == cold
    key = cache_key.key_file()
    assert key.read_text().strip() and stat.S_IMODE(key.stat().st_mode) == 0o600
    monkeypatch.setenv(cache_key.KEY_ENV, str(tmp_path / "another-user"))
    parses.clear()
    assert outputs(pod) == cold
    assert len(parses) == 12  # every config: none of the first key's entries was read
    assert cache_key.key_file().read_text() != key.read_text()
    monkeypatch.setenv(cache_key.KEY_ENV, str(key.parent.parent))
    parses.clear()
    assert outputs(pod) == cold
    assert parses == []  # the first key's entries are still there, and still read


def test_no_place_for_a_key_turns_the_cache_off(
    pod: Path, parses: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "a-file").write_text("")
    monkeypatch.setenv(cache_key.KEY_ENV, str(tmp_path / "a-file"))  # no folder can be made there
    cold = lint(str(pod), "--no-cache")
    result = lint(str(pod))
    assert (result.exit_code, result.stdout) == (cold.exit_code, cold.stdout)
    assert "cache is off" in result.stderr and "a-file" in result.stderr
    assert not (pod / CACHE).exists() or entries(pod) == []


def test_a_file_in_place_of_the_cache_folder_is_no_error(pod: Path) -> None:
    (pod / CACHE).write_text("not a folder")
    cold = lint(str(pod), "--no-cache")
    result = lint(str(pod))
    assert (result.exit_code, result.stdout) == (cold.exit_code, cold.stdout)
    assert (pod / CACHE).read_text() == "not a folder"


# -- bounded, safe to delete -------------------------------------------------------------------


def test_the_cache_stays_under_its_bound(
    pod: Path, monkeypatch: pytest.MonkeyPatch, parses: list[str]
) -> None:
    assert lint(str(pod)).exit_code == 0
    sizes = [e.stat().st_size for e in entries(pod)]
    bound = sum(sorted(sizes)[:5])
    monkeypatch.setattr(parse_cache, "MAX_BYTES", bound)
    shutil.rmtree(pod / CACHE)
    assert lint(str(pod)).exit_code == 0
    kept = entries(pod)
    assert 0 < len(kept) < 12
    assert sum(e.stat().st_size for e in kept) <= bound


def test_the_least_recently_used_entries_go_first(tmp_path: Path) -> None:
    folder = tmp_path / CACHE
    folder.mkdir()
    for n, name in enumerate(["old", "newer", "newest"]):
        path = folder / f"{name}{parse_cache.SUFFIX}"
        path.write_bytes(b"x" * 10)
        os.utime(path, (1_000_000 + n, 1_000_000 + n))
    (folder / "CACHEDIR.TAG").write_bytes(b"y" * 100)  # not an entry: never counted, never gone
    memo.touch(folder / f"old{parse_cache.SUFFIX}")  # used just now
    parse_cache.trim(folder, 20)
    left = sorted(p.name for p in folder.iterdir())
    assert left == ["CACHEDIR.TAG", f"newest{parse_cache.SUFFIX}", f"old{parse_cache.SUFFIX}"]


def test_the_cache_folder_says_what_it_is_and_git_ignores_it(pod: Path) -> None:
    assert lint(str(pod)).exit_code == 0
    assert (pod / CACHE / ".gitignore").read_text().splitlines()[-1] == "*"
    assert (pod / CACHE / "CACHEDIR.TAG").read_text().startswith("Signature: 8a477f597d28d172")


def test_generate_replaces_a_folder_holding_a_cache(pod: Path) -> None:
    """The folder generate owns may hold the cache lint left there (and loses it)."""
    assert lint(str(pod)).exit_code == 0
    again = CliRunner().invoke(app, ["generate", str(POD), "-o", str(pod), "-q"])
    assert again.exit_code == 0, again.output
    assert lint(str(pod)).exit_code == 0


def test_report_deadlock_and_docs_take_the_cache(
    pod: Path, parses: list[str], tmp_path: Path
) -> None:
    runner = CliRunner()
    env = {NO_CACHE_ENV: None}
    commands = [
        ["deadlock", str(pod)],
        ["report", str(pod), "-o", str(tmp_path / "r.html")],
        ["docs", str(pod), "-o", str(tmp_path / "docs")],
    ]
    assert lint(str(pod)).exit_code == 0  # every config's parse stored
    for command in commands:
        cold = runner.invoke(app, [*command, "--no-cache"], env=env)
        parses.clear()
        warm = runner.invoke(app, command, env=env)
        assert (warm.exit_code, warm.stdout) == (cold.exit_code, cold.stdout), command
        assert parses == [], command  # the first command stored them all


@pytest.mark.parametrize("vendor", ["h3c", "huawei", "ruijie", "zte"])
def test_an_entry_loads_the_model_its_parse_gave(vendor: str, tmp_path: Path) -> None:
    """Field for field, addresses and shared QoS included, whatever the vendor: the entry
    keeps a port's QoS in a table and its address as a number, and rebuilds both."""
    cache = parse_cache.ParseCache(tmp_path / CACHE, "stamp", Seal(b"k" * 32))
    for path in sorted((ROOT / "golden" / f"pod-small-{vendor}").glob("*.cfg"))[:3]:
        data = path.read_bytes()
        key = cache.key(path, data, None)
        parsed = many.parse_text(data.decode(), file=str(path), vendor=None, hints=None)
        cache.store(key, parsed, None)
        loaded = cache.load(key, path, data, None, None)
        assert loaded is not None
        assert loaded.config == parsed.config
        assert loaded.config.model_dump_json() == parsed.config.model_dump_json()
        ports = loaded.config.device.interfaces
        assert [p.ipv4 for p in ports] == [p.ipv4 for p in parsed.config.device.interfaces]
        assert any(p.ipv4 for p in ports)
        assert all(type(p.ipv4) is IPv4Interface for p in ports if p.ipv4)
        assert len({id(p.qos) for p in ports}) < len(ports)  # one object per shape


def test_the_same_hints_in_another_order_are_the_same(tmp_path: Path) -> None:
    """An entry keeps a port's speed under the port's index among its names (or its name,
    for a port the config lacks): the same speeds listed in another order load the entry,
    another speed does not."""
    path = ROOT / "golden" / "pod-small" / "leaf-1.cfg"
    data = path.read_bytes()
    cache = parse_cache.ParseCache(tmp_path / CACHE, "stamp", Seal(b"k" * 32))
    key = cache.key(path, data, None)
    parsed = many.parse_text(data.decode(), file=str(path), vendor=None, hints=None)
    ports = [p.name for p in parsed.config.device.interfaces][:3]
    speeds = {**dict.fromkeys(ports, 400), "NoSuchPort1/0/1": 100}
    cache.store(key, parsed, {"leaf-1": Hints(speeds=speeds)})
    again = dict(reversed(speeds.items()))
    assert list(again) != list(speeds)
    assert cache.load(key, path, data, {"leaf-1": Hints(speeds=again)}, None) is not None
    other = {**speeds, ports[0]: 200}
    assert cache.load(key, path, data, {"leaf-1": Hints(speeds=other)}, None) is None
    fewer = dict(list(speeds.items())[1:])
    assert cache.load(key, path, data, {"leaf-1": Hints(speeds=fewer)}, None) is None


def _with_description(cache: parse_cache.ParseCache, entry: Path, description: str) -> None:
    """``entry`` resealed with ``description`` as its first port's."""
    parts = _parts(entry)
    parts[2]["port_descriptions"][0] = description
    _resealed(entry.parent, entry, parts, cache)


def test_a_string_that_is_no_text_is_refused(tmp_path: Path) -> None:
    """JSON reads a lone surrogate's escape into a string no parse makes, which an output
    cannot encode (``docs`` stopped on one, UnicodeEncodeError): such an entry is refused; a
    character escaped as a surrogate pair is text, and read."""
    cache, path, data, key = _one_stored(tmp_path)
    entry = tmp_path / CACHE / key
    _with_description(cache, entry, "smile \U0001f600")
    assert b"\\ud83d\\ude00" in document(entry)  # escaped as a pair, as json writes it
    loaded = cache.load(key, path, data, None, None)
    assert loaded is not None
    assert loaded.config.device.interfaces[0].description == "smile \U0001f600"
    for lone in ("\ud800", "a\udc00b", "\udfff\ud800"):
        _with_description(cache, entry, lone)
        assert cache.load(key, path, data, None, None) is None, repr(lone)
