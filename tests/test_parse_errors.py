"""Bad input to the parser: one clear error naming the file, exit 2, never a traceback."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from roce_cfg.errors import InputError
from roce_cfg.parse import parse_text
from roce_cfg.parse.text import decode
from roce_cfg.vendor import Vendor
from tests.helpers import ROOT, examples, run

GOLDEN = sorted((ROOT / "golden").glob("pod-small-*/leaf-1.cfg"))
H3C = ROOT / "golden/pod-small-h3c/leaf-1.cfg"
ZTE = ROOT / "golden/pod-small-zte/leaf-1.cfg"


def _write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


CASES = {
    "binary": (b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)) * 4, "binary file"),
    "garbled": (
        bytes(random.Random(1).randrange(128, 256) for _ in range(4000)),
        "binary or garbled",
    ),
    "empty": (b"\n\n  \n", "empty file"),
    "prose": (
        b"Dear team,\nplease find the switch notes below.\nThanks\n",
        "cannot tell which vendor",
    ),
    "truncated": (H3C.read_bytes()[: len(H3C.read_bytes()) // 2], "truncated"),
}


# A value that is no number, or outside its field's domain, makes its line unread (as if it
# were absent) and is reported on that line: a note here, RC119 in lint (issue 27). These were
# whole-file errors before: one bad line cost every other line of the file.
UNREAD = {
    # ttp leaves a word it cannot convert as text (and used to log it, once per template, on
    # stderr); the note names the line instead.
    "not-a-number": (
        H3C.read_bytes().replace(b"jumboframe enable 9238", b"jumboframe enable 92x16", 1),
        33,
        "'92x16' is not a number",
    ),
    # Two boards, one slot ttp could not convert: sorting them compared a number with text.
    "bad-slot": (
        (ROOT / "tests/parse/huawei/leaf-ce6885.cfg")
        .read_bytes()
        .replace(b"device board 1 ", b"device board 1x ")
        .replace(b"#\nsysname", b"#\ndevice board 2 board-type CE6885-48YS8CQ\n#\nsysname", 1),
        11,
        "'1x' is not a number",
    ),
    "huge-number": (
        H3C.read_bytes().replace(b"jumboframe enable 9238", b"jumboframe enable " + b"9" * 4400, 1),
        33,
        "frame size 999999999999...(4,400 digits) out of range 64-65535",
    ),
    # No switch takes it (every maximum-paths starts at 1); it once crashed the deadlock
    # analyser's route selection.
    # Words that cannot mean anything on one line (an address, a timer unit): that line is
    # unread, the rest of the file is read (degrade per line, never per file).
    "bad-address": (
        H3C.read_bytes().replace(b"ip address 10.1.0.1 ", b"ip address 10.1.0.300 ", 1),
        275,
        "'10.1.0.300 255.255.255.254' is not an IPv4 address and mask",
    ),
    "bad-precision": (
        H3C.read_bytes().replace(b"deadlock precision normal", b"deadlock precision turbo", 1),
        17,
        "unknown watchdog granularity 'turbo'",
    ),
    "zero-paths": (
        ZTE.read_bytes().replace(b"maximum-paths 64", b"maximum-paths 0"),
        444,
        "path count 0 out of range 1-1024",
    ),
}


@pytest.mark.parametrize("case", sorted(UNREAD))
def test_a_bad_value_leaves_its_line_unread_and_says_where(tmp_path: Path, case: str) -> None:
    data, line, reason = UNREAD[case]
    path = _write(tmp_path, f"{case}.cfg", data)
    result = run("parse", str(path))
    assert result.exit_code == 0, result.output
    (unread,) = json.loads(result.stdout)["configs"][0]["unread"]
    assert reason in unread["reason"] and (line is None or unread["line"] == line), unread
    where = f"{path}:{unread['line']}"
    assert f"roce-cfg: note: {where}: not read: {unread['reason']}" in result.stderr


@pytest.mark.parametrize("case", sorted(CASES))
def test_bad_config_gives_one_line_and_exit_2(tmp_path: Path, case: str) -> None:
    data, reason = CASES[case]
    path = _write(tmp_path, f"{case}.cfg", data)
    result = run("parse", str(path))
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(f"roce-cfg: error: {path}")
    assert reason in lines[0]


def test_missing_file_and_directory_of_nothing(tmp_path: Path) -> None:
    result = run("parse", str(tmp_path / "nope.cfg"))
    assert result.exit_code == 2 and "no such config file" in result.stderr
    result = run("parse", str(tmp_path))
    assert result.exit_code == 2 and "no config files" in result.stderr


def test_unknown_vendor_option_is_refused() -> None:
    result = run("parse", str(H3C), "--vendor", "cisco")
    assert result.exit_code == 2
    assert "cisco" in result.output


def test_wrong_vendor_given_is_caught_not_guessed() -> None:
    result = run("parse", str(H3C), "--vendor", "zte")
    assert result.exit_code == 2
    assert "truncated" in result.stderr or "cannot read" in result.stderr


def test_one_bad_file_is_reported_and_the_others_still_parsed(tmp_path: Path) -> None:
    # issue 26: degrade per file. The bad file is an error on stderr and fails the run (exit
    # 1); the good one is still printed. Nothing usable at all stays exit 2.
    bad = _write(tmp_path, "bad.cfg", b"\x00\x01")
    result = run("parse", str(H3C), str(bad))
    assert result.exit_code == 1
    assert "bad.cfg: binary file" in result.stderr
    assert len(json.loads(result.stdout)["configs"]) == 1
    assert run("parse", str(bad)).exit_code == 2


def _parse_or_refuse(text: str, vendor: Vendor | None = None) -> None:
    try:
        parse_text(text, file="fuzz.cfg", vendor=vendor)
    except InputError as exc:
        assert "fuzz.cfg" in str(exc)


@settings(max_examples=examples(150), deadline=None)
@given(st.binary(max_size=3000))
def test_random_bytes_never_raise_anything_but_input_error(data: bytes) -> None:
    try:
        text = decode(data, "fuzz.cfg")
    except InputError:
        return
    _parse_or_refuse(text)


@settings(max_examples=examples(60), deadline=None)
@given(st.sampled_from(GOLDEN), st.randoms(use_true_random=False), st.integers(0, 400))
def test_shuffled_and_cut_configs_parse_or_are_refused(
    cfg: Path, rnd: random.Random, cut: int
) -> None:
    lines = cfg.read_text(encoding="utf-8").splitlines()
    shuffled = lines[:]
    rnd.shuffle(shuffled)
    _parse_or_refuse("\n".join(shuffled))
    _parse_or_refuse("\n".join(lines[: max(1, cut)]))
    _parse_or_refuse("\n".join(lines[:cut] + lines[cut + 1 :]))


@settings(max_examples=examples(60), deadline=None)
@given(st.sampled_from(GOLDEN), st.text(max_size=200), st.integers(0, 400))
def test_junk_spliced_into_a_config_parses_or_is_refused(cfg: Path, junk: str, at: int) -> None:
    lines = cfg.read_text(encoding="utf-8").splitlines()
    lines.insert(min(at, len(lines)), junk)
    _parse_or_refuse("\n".join(lines))
    _parse_or_refuse("\n".join(lines), vendor=Vendor.ZTE)


def test_a_fabric_json_larger_than_an_intent_may_be_is_read(tmp_path: Path) -> None:
    """Thousands of switches write tens of MB of fabric.json; the 16 MB intent cap is not its."""
    from roce_cfg.generate import generate
    from roce_cfg.parse.hints import hints_from_fabric

    fabric = generate(ROOT / "examples/pod-small.yaml").fabric.model_dump_json(exclude={"devices"})
    big = tmp_path / "fabric.json"
    big.write_text(fabric[:-1] + " " * (17 * 1024 * 1024) + "}")
    assert len(hints_from_fabric(big)) == 12


def test_a_value_ttp_cannot_convert_is_one_line_in_a_real_process(tmp_path: Path) -> None:
    """In a real process (the in-process runner does not see logging's stderr), ttp's own
    'failed to convert' log lines once came out dozens at a time around our one line."""
    import subprocess
    import sys

    data, line, reason = UNREAD["not-a-number"]
    path = _write(tmp_path, "leaf.cfg", data)
    done = subprocess.run(
        [sys.executable, "-m", "roce_cfg", "parse", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0
    summary, *notes = done.stderr.strip().splitlines()
    assert summary.startswith(f"{path}: h3c (detected)")
    assert notes[-1] == f"roce-cfg: note: {path}:{line}: not read: {reason}"
    assert all(n.startswith(f"roce-cfg: note: {path}") for n in notes), notes
