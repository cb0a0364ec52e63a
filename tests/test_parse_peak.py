"""The parse's peak-memory and CPU savers (issue 27, cause 9) change no result.

Shared name strings, the source indexes built on first use, the accounting before the
templates, the collection after them, the greedy name pattern, the sampled vendor check and the
ASCII fast path of the JSON writer: each is held here to what it replaced.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import roce_cfg.parse as parse_mod
import roce_cfg.parse.run as run_mod
from roce_cfg.jsontext import ascii_json
from roce_cfg.parse import (
    Parsed,
    finish,
    other_vendor,
    parse_text,
    prepare,
    read_templates,
)
from roce_cfg.parse.blocks import Block, split
from roce_cfg.parse.context import Context
from roce_cfg.parse.names import _NAME, Namer
from roce_cfg.parse.run import accounted
from roce_cfg.parse.text import Line, clean, count_lines, ends
from roce_cfg.platforms.profile import load_profile
from roce_cfg.vendor import Vendor
from tests.helpers import ROOT, examples, run

CONFIGS = sorted(
    [*(ROOT / "golden").glob("*/*.cfg"), *(ROOT / "tests/parse").glob("*/*.cfg")],
    key=lambda p: str(p),
)


def _eager_index(parsed: Parsed) -> dict[str, list[tuple[int, int]]]:
    """The per-interface index as prepare() built it before it was lazy (commit 22e20b3)."""
    namer = Namer(load_profile(parsed.config.vendor))
    index: dict[str, list[Block]] = {}
    for block in parsed.source.blocks:
        head = block.header.text
        if head.startswith("interface "):
            name = namer.name(head[len("interface ") :])
            if name.kind == "other":
                continue
            index.setdefault(name.canonical, []).append(block)
        for child in block.body:
            stripped = child.text.lstrip()
            if stripped.startswith("interface "):
                name = namer.name(stripped[len("interface ") :])
                index.setdefault(name.canonical, []).append(Block(Line(child.no, stripped)))
    return _shape(index)


def _shape(index: dict[str, list[Block]]) -> dict[str, list[tuple[int, int]]]:
    return {k: [(b.header.no, b.end) for b in v] for k, v in index.items()}


def test_the_configs_are_found() -> None:
    assert len(CONFIGS) > 100  # golden/ and tests/parse: a glob gone wrong would test nothing


@pytest.mark.parametrize("cfg", CONFIGS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_lazy_paths_give_what_the_eager_ones_gave(
    cfg: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = cfg.read_text(encoding="utf-8")
    lazy = parse_text(text, file=str(cfg))
    # eager: the index built before the templates run, the collection taken on any input
    monkeypatch.setattr(run_mod, "GC_AFTER_TEMPLATES", 0)
    prep = prepare(text, file=str(cfg))
    eager_index = _shape(prep.source.interfaces)
    eager = finish(prep, read_templates(prep), None, accounted(prep, None))
    assert lazy.config.model_dump_json() == eager.config.model_dump_json()
    assert _shape(lazy.source.interfaces) == eager_index == _eager_index(lazy)
    # every port's name is the index's own string, not an equal copy
    keys = {k: k for k in lazy.source.interfaces}
    for port in lazy.config.device.interfaces:
        assert port.name in keys
        assert port.name is keys[port.name]


def test_line_of_built_on_first_use_claims_lines_in_file_order() -> None:
    cfg = ROOT / "golden/pod-small-huawei/leaf-1.cfg"
    prep = prepare(cfg.read_text(encoding="utf-8"), file=str(cfg))
    profile = prep.profile
    ctx = Context(profile, "m", next(iter(profile.models.values())), prep.namer)
    ctx.blocks = prep.source.blocks
    every = [ln for b in prep.source.blocks for ln in b.lines]
    flat = [(" ".join(ln.text.split()), ln.no) for ln in every]
    repeated = next(t for t, _ in flat if sum(1 for u, _ in flat if u == t) > 1)
    expected = [no for t, no in flat if t == repeated]
    assert [ctx.line_of(repeated) for _ in expected] == expected
    assert ctx.line_of(repeated) is None  # each line is claimed once
    assert ctx.line_of("no such line") is None


_LAZY_NAME = re.compile(
    r"^(?P<type>\d*[A-Za-z][A-Za-z-]*?)[\s-]*(?P<num>\d+(?:/\d+)*(?::\d+)?(?:\.\d+)?)$"
)


@settings(max_examples=examples(2000), deadline=None)
@given(st.text(alphabet="aZgE-- \t019/:.", max_size=24))
def test_the_greedy_name_pattern_reads_what_the_lazy_one_read(raw: str) -> None:
    old, new = _LAZY_NAME.match(raw), _NAME.match(raw)
    assert (old and old.groupdict()) == (new and new.groupdict())


@pytest.mark.parametrize(
    ("vendor", "raw", "canonical"),
    [
        (Vendor.H3C, "HundredGigE1/0/1", "HundredGigE1/0/1"),
        (Vendor.H3C, "HGE1/0/1", "HundredGigE1/0/1"),
        (Vendor.RUIJIE, "HundredGigabitEthernet 0/1", "HundredGigabitEthernet 0/1"),
        (Vendor.RUIJIE, "Hu0/1", "HundredGigabitEthernet 0/1"),
        (Vendor.ZTE, "XXVGE-0/2/0/10", "xxvgei-0/2/0/10"),
        (Vendor.HUAWEI, "100GE1/0/1", "100GE1/0/1"),
    ],
)
def test_a_name_read_in_canonical_form_is_that_string(
    vendor: Vendor, raw: str, canonical: str
) -> None:
    name = Namer(load_profile(vendor)).name(raw)
    assert name.canonical == canonical
    assert (name.canonical is raw) == (raw == canonical)
    assert name.kind == "port" and canonical.endswith(name.number)


def _old_split(lines: list[Line]) -> list[tuple[Line, list[Line], int]]:
    """blocks.split as it was before headers and empty bodies were shared (commit 22e20b3)."""
    out: list[tuple[Line, list[Line], int]] = []
    current: tuple[Line, list[Line], int] | None = None
    for line in lines:
        if re.match(r"^\s*(?:#.*|!.*|\$)\s*$", line.text):
            if line.indent == 0:
                current = None
            continue
        if current is None or line.indent <= current[2]:
            current = (Line(line.no, line.text.lstrip(" ")), [], line.indent)
            out.append(current)
        else:
            current[1].append(line)
    return out


_LINES = ["interface X1", " mtu 9000", "  a", "#", " #", "b", "!", "$", " $1", "\u3000# x", "!<t>"]


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.sampled_from(_LINES)))
def test_split_shares_headers_and_gives_the_old_blocks(texts: list[str]) -> None:
    lines = [Line(n, t) for n, t in enumerate(texts, 1)]
    blocks = split(lines)
    assert [(b.header, list(b.body), b.indent) for b in blocks] == _old_split(lines)
    by_no = {ln.no: ln for ln in lines}
    for b in blocks:
        assert (b.header is by_no[b.header.no]) == (b.indent == 0)


@settings(max_examples=examples(500), deadline=None)
@given(st.text(alphabet="ab\n\r\x0b\x0c\x1c\x85\u2028 ", max_size=40))
def test_count_lines_is_the_length_of_splitlines(text: str) -> None:
    assert count_lines(text) == len(text.splitlines())


@settings(max_examples=examples(500), deadline=None)
@given(
    st.lists(st.text(alphabet="ab ", max_size=3), max_size=30),
    st.booleans(),
    st.integers(0, 12),
    st.integers(0, 12),
)
def test_ends_keeps_the_first_and_last_lines(
    lines: list[str], closed: bool, head: int, tail: int
) -> None:
    text = "\n".join(lines) + ("\n" if closed and lines else "")
    got = ends(text, head, tail)
    rows = text.splitlines(keepends=True)
    if len(rows) <= head + tail:
        assert got == text
    else:
        assert got == "".join(rows[:head]) + "".join(rows[len(rows) - tail :])


_HUAWEI_TAIL = "sysname leaf\nvlan batch 10\ndcb pfc\ninterface 100GE1/0/1\nreturn\n"


def test_the_vendor_check_reads_the_end_of_a_large_file() -> None:
    # nothing in the first 5,000 lines tells the vendor; the end says Huawei
    text = "#\n" * 5000 + _HUAWEI_TAIL
    assert len(clean(ends(text, parse_mod.SAMPLE_HEAD, 0))) == parse_mod.SAMPLE_HEAD
    assert other_vendor(text, Vendor.ZTE) is Vendor.HUAWEI
    assert other_vendor(text, Vendor.HUAWEI) is None


def test_parse_with_the_wrong_vendor_warns_from_the_end_sample(tmp_path: Path) -> None:
    cfg = tmp_path / "leaf.cfg"
    cfg.write_text("#\n" * 5000 + _HUAWEI_TAIL, encoding="utf-8")
    result = run("parse", "--vendor", "zte", str(cfg))
    assert "--vendor zte given, but the file reads as huawei's" in result.stderr


@settings(max_examples=examples(500), deadline=None)
@given(st.text(alphabet=st.characters(max_codepoint=0x1F700), max_size=20))
def test_ascii_json_writes_what_json_dumps_writes(value: str) -> None:
    assert ascii_json(json.dumps(value, ensure_ascii=False)) == json.dumps(value)
