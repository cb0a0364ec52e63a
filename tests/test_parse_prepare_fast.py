"""The fast paths of the parse's prepare and accounting phases (issue 30) against the slow
reading each stands for: the same lines, the same vendor, the same count for any input."""

from __future__ import annotations

import re

from hypothesis import example, given
from hypothesis import strategies as st

from roce_cfg.parse import _after_newline, _patterns, _without_prompts
from roce_cfg.parse.text import Line, clean
from roce_cfg.platforms.profile import load_profiles

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
