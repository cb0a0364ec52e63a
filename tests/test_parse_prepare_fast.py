"""The fast paths of the parse's prepare and accounting phases (issue 30) against the slow
reading each stands for: the same lines, the same vendor, the same count for any input."""

from __future__ import annotations

import re
from pathlib import Path
from unittest.mock import patch

from hypothesis import example, given, settings
from hypothesis import strategies as st

from roce_cfg.errors import InputError
from roce_cfg.parse import _accounted, _after_newline, _patterns, _without_prompts, prepare
from roce_cfg.parse.accounting import Judge, judge
from roce_cfg.parse.text import Line, clean
from roce_cfg.platforms.profile import load_profiles
from roce_cfg.vendor import Vendor
from tests.helpers import ROOT, examples

# what the four vendors' signature patterns look for, and near misses of it
_WORDS = [
    "sysname",
    "hostname",
    "return",
    "end",
    "interface",
    "HundredGigE1/0/1",
    "FourHundredGigabitEthernet",
    "0/1",
    "400GE1/0/1",
    "gei-0/1/0/1",
    "vlan",
    "batch",
    "mls",
    "qos",
    "!<if-intf>",
    "!</if-intf>",
    "$",
    "#",
    "Building",
    "configuration",
    "priority-flow-control",
    "port",
    "link-mode",
    "route",
    "<leaf-1>",
    "[leaf]",
    "leaf-1#",
]
_LINE = st.tuples(
    st.sampled_from(["", " ", "  ", "\t"]),
    st.lists(st.sampled_from(_WORDS), max_size=4).map(" ".join),
    st.sampled_from(["", " ", "\r"]),
)
_TEXT = st.lists(_LINE.map("".join), max_size=12).map("\n".join)


@given(_TEXT)
@example("sysname x\nreturn")
@example("\n interface HundredGigE1/0/1")
def test_a_signature_after_a_newline_is_found_where_the_pattern_is(text: str) -> None:
    for vendor, profile in load_profiles().items():
        for pattern in profile.parse.detect:
            fast = _after_newline(pattern)
            if fast is None:
                continue
            slow = re.compile(pattern, re.MULTILINE)
            assert bool(fast.search("\n" + text)) == bool(slow.search(text)), (vendor, pattern)
        assert len(_patterns(profile)[0]) == len(profile.parse.detect)


def _prompts_slow(lines: list[Line]) -> list[Line]:
    prompt = re.compile(r"^(?:<[^<>\s]+>|\[[^\[\]\s]+\]|[\w.-]+(?:\([\w-]+\))?[#>])(?:\s.*|\S.*)?$")
    return [ln for ln in lines if not prompt.match(ln.text)]


@given(_TEXT)
@example("<leaf-1>display current-configuration\nsysname x\n<leaf-1>")
def test_prompt_lines_are_dropped_as_the_regex_on_every_line_drops_them(text: str) -> None:
    lines = clean(text)
    assert _without_prompts(lines, text) == _prompts_slow(lines)


def _clean_slow(text: str) -> list[Line]:
    return [Line(no, ln.rstrip()) for no, ln in enumerate(text.split("\n"), 1) if ln.rstrip()]


@given(st.text(alphabet=" \n!#abc1\u3000\u2028\x85", max_size=40) | _TEXT)
@example("a\n b \n\n  \nc")
@example("x\n")
def test_a_saved_file_is_cleaned_into_its_numbered_non_blank_lines(text: str) -> None:
    if any(c in text for c in "\x1b\b\r\t"):
        text = text.translate(str.maketrans("", "", "\x1b\b\r\t"))
    lines = clean(text)
    assert lines == _clean_slow(text)
    assert all(type(ln) is Line for ln in lines)


_GOLDEN = [ROOT / f"golden/pod-small-{v}/leaf-1.cfg" for v in ("h3c", "huawei", "ruijie", "zte")]
_EXTRA = [
    " lacp port-priority 100",
    " address-family ipv6 unicast",
    " address-family ipv5 unicast",
    " ipv6 address 2001:DB8::1/127",
    " ipv6 mtu 9000",
    " priority-flow-control nodrop 9",
    "vlan 4095",
    " undo shutdown",
    "snmp-agent community read x",
]


def _slow_judge(vendor: Vendor) -> Judge:
    """The vendor's judge without its memos: every line judged by its own text."""
    fast = judge(vendor)
    slow = Judge(fast.grammar, fast.templates, fast.unmanaged, fast.areas)
    slow._by_shape = False
    return slow


@settings(max_examples=examples(40), deadline=None)
@given(
    st.sampled_from(_GOLDEN),
    st.lists(
        st.tuples(st.integers(0, 10_000), st.integers(0, 70_000), st.sampled_from(_EXTRA)),
        max_size=6,
    ),
)
def test_the_accounting_memos_count_as_judging_each_line_afresh(
    path: Path, edits: list[tuple[int, int, str]]
) -> None:
    """Lines whose digits changed (a value in or out of its range) and lines nothing reads, in
    a config whose blocks the memos have seen: the same accounting as a judge with no memo."""
    text = path.read_text("utf-8")
    _accounted(prepare(text, file=str(path)), None)  # the memos learn the config as it is
    lines = text.split("\n")
    for at, number, extra in edits:
        n = at % len(lines)
        if at % 3 == 0:
            lines.insert(n + 1, extra)
        else:
            lines[n] = re.sub(r"\d+", str(number), lines[n], count=1 + at % 2)
    try:
        prep = prepare("\n".join(lines), file=str(path))
    except InputError:
        return  # no longer a config (its vendor or its last line changed)
    fast = _accounted(prep, None)
    with patch("roce_cfg.parse.accounting.judge", lambda vendor, overlay=None: _slow_judge(vendor)):
        slow = _accounted(prep, None)
    assert fast == slow


def test_a_large_block_of_one_shape_is_tallied_by_the_text_of_its_lines_the_shape_hides() -> None:
    """A block past the grammar's REPLAY_CHARS (a BGP block of many peers) is tallied by its
    shape, and by the text of its lines whose shape does not say what they are: 'address-family
    ipv4 unicast' is read, 'ipv5' (no such family) is not. Each time, as a judge with no memo
    counts it."""
    path = ROOT / "golden/pod-small-ruijie/leaf-1.cfg"
    head = "interface FourHundredGigabitEthernet 0/1\n"
    big = "".join(f" priority-queue {n % 8}\n" for n in range(600))
    for family in ("ipv4", "ipv5", "ipv4", "ipv5"):
        text = path.read_text("utf-8").replace(
            head, f"{head}{big} address-family {family} unicast\n{big}", 1
        )
        prep = prepare(text, file=str(path))
        fast = _accounted(prep, None)
        with patch("roce_cfg.parse.accounting.judge", lambda v, overlay=None: _slow_judge(v)):
            assert fast == _accounted(prep, None)
        assert fast.unread == (family == "ipv5")


@settings(max_examples=examples(30), deadline=None)
@given(st.lists(st.integers(0, 5_000_000_000), min_size=1, max_size=4))
def test_a_block_replayed_by_shape_refuses_the_values_a_line_walk_refuses(asns: list[int]) -> None:
    """A BGP block of many peers (past 4,096 characters) whose shape was accepted before, with
    its ASNs changed in and out of range: its values are checked one by one as its lines' shapes
    check them, and the out-of-range check finds what a line-by-line walk finds."""
    from roce_cfg.grammar import line_by_line, load_grammar

    fast = load_grammar("ruijie")
    ref = line_by_line("ruijie")
    peers = "".join(f" neighbor 10.1.{n}.1 remote-as 65000\n" for n in range(120))
    block = f"router bgp 65101\n{peers} address-family ipv4 unicast\n  maximum-paths 64\n"
    block += " exit-address-family"
    assert len(block) > 4_096
    variants = [block] + [
        block.replace(f"remote-as 65000\n neighbor 10.1.{n % 120}.1", f"remote-as {a}\n x", 1)
        .replace(" x", f" neighbor 10.1.{n % 120}.1", 1)
        .replace("router bgp 65101", f"router bgp {asns[0]}")
        for n, a in enumerate(asns)
    ]
    for text in variants:
        got = fast.check_blocks([text], "")
        want = ref.check_lines(text.split("\n"), "")
        assert [str(v) for v in got.violations] == [str(v) for v in want.violations]
