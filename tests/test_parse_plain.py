"""parse/plain.py reads a plain-shaped template exactly as ttp does, or hands it back to ttp.

Each reader is held to ttp itself on the same text: the same result, keys in the same order,
over every config in the repository, over configs mangled at random (lines repeated, moved,
dropped, respaced, their words replaced), and on the cases where ttp's rules are subtle (a value
repeated around a child line, a set line that is not the exact line).
"""

from __future__ import annotations

import functools
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ttp import ttp

from roce_cfg.parse import line_regex, parse_text, prepare
from roce_cfg.parse import plain as plain_module
from roce_cfg.parse.plain import Readers, plain, plains
from roce_cfg.parse.templates import runner, template_files
from roce_cfg.vendor import Vendor
from tests.helpers import ROOT, examples

CONFIGS = sorted(
    [*(ROOT / "golden").glob("*/*.cfg"), *(ROOT / "tests/parse").glob("*/*.cfg")],
    key=str,
)


def _by_ttp(vendor: Vendor, name: str, feed: str) -> dict[str, Any]:
    """ttp's own result of one of the vendor's bundled templates over ``feed``."""
    parser = runner(vendor, None)._parser
    parser.clear_input()
    parser.clear_result()
    parser.add_input(feed, template_name=name)
    parser.parse(one=True)
    result = parser.result(structure="dictionary")
    parser.clear_input()
    merged: dict[str, Any] = {}
    for item in result.get(name, []):
        if isinstance(item, dict):
            merged.update(item)
    parser.clear_result()
    return merged


@functools.cache  # the readers hold no state between reads: built once a vendor, not a config
def _plain_templates(vendor: Vendor) -> list[tuple[str, Any]]:
    templates = runner(vendor, None)._parser._templates
    found = zip([t.name for t in templates], plains(templates), strict=True)
    return [(name, reader) for name, reader in found if reader is not None]


def _same(vendor: Vendor, feed: str) -> int:
    """How many templates read ``feed`` without ttp; fails where a reading differs."""
    read = 0
    for name, reader in _plain_templates(vendor):
        mine = reader.read(feed)
        # line by line or searched as ttp does: one result, or both ask ttp
        assert _json(mine) == _json(reader.search(feed)), f"{vendor.value} {name}"
        if mine is None:
            continue  # ttp reads it
        read += 1
        assert _json(mine) == _json(_by_ttp(vendor, name, feed)), f"{vendor.value} {name}"
    return read


def _json(result: Any) -> str:
    return json.dumps(result, default=repr)


def test_every_bundled_template_is_plain() -> None:
    # one engine reads the bundled templates (docs/architecture.md): a template that falls to
    # ttp is a slowdown of the whole parse and a second reading of it, no failure anywhere else
    for vendor in Vendor:
        names = [name for name, _ in _plain_templates(vendor)]
        assert names == list(template_files(vendor, None)), vendor


@pytest.mark.parametrize("path", CONFIGS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_config_reads_as_ttp_reads_it(path: Path) -> None:
    prep = prepare(path.read_text(encoding="utf-8"), file=str(path))
    assert _same(prep.vendor, prep.feed) >= 1


_WORDS = ["3", "x", "-1", "007", "10.0.0.1", "enable", "  ", "\t", "9" * 30, "a b", ""]


def _mangled(lines: list[str], rng: random.Random) -> list[str]:
    lines = list(lines)
    for _ in range(rng.randint(1, 12)):
        i, op = rng.randrange(len(lines)), rng.random()
        if op < 0.2:
            lines.insert(rng.randrange(len(lines) + 1), lines[i])
        elif op < 0.35:
            lines.insert(i + 1, lines[i])
        elif op < 0.5 and len(lines) > 1:
            del lines[i]
        elif op < 0.6:
            lines[i] = lines[i].replace(" ", "  ", 1)
        elif op < 0.7:
            lines[i] += rng.choice(["", " ", "\t", " x"])
        elif op < 0.8:
            words = lines[i].split(" ")
            words[rng.randrange(len(words))] = rng.choice(_WORDS)
            lines[i] = " ".join(words)
        elif op < 0.9:
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        else:
            lines.insert(0, lines[i])
    return lines


@pytest.mark.sample(4)
@pytest.mark.parametrize("seed", range(12))
def test_mangled_configs_read_as_ttp_reads_them(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(10):
        path = rng.choice(CONFIGS)
        lines = [ln.strip() for ln in path.read_text(encoding="utf-8").splitlines()]
        feed = "\n".join(_mangled([ln for ln in lines if ln], rng))
        for vendor in Vendor:  # each vendor's templates over any vendor's lines
            _same(vendor, feed)


_PORT = """interface FourHundredGigabitEthernet 0/1
mtu 9216
priority-queue 6
mtu 1500
description after a child line
mtu 4000
interface FourHundredGigabitEthernet 0/2
mtu 9000
mtu 1500
priority-queue 7
queue 3 wred-profile ROCE-Q3
"""


def test_values_repeated_around_child_lines_read_as_ttp_reads_them() -> None:
    # before a child line the first value stays; after one the later lines are merged into
    # the port and win (ttp's tail matches)
    reader = dict(_plain_templates(Vendor.RUIJIE))["interfaces"]
    mine = reader.read(_PORT)
    assert mine is not None and json.dumps(mine) == json.dumps(
        _by_ttp(Vendor.RUIJIE, "interfaces", _PORT)
    )
    assert [p["mtu"] for p in mine["interfaces"]] == [1500, 9000]


def test_a_start_line_whose_set_fails_is_left_to_ttp() -> None:
    reader = dict(_plain_templates(Vendor.RUIJIE))["pfc"]
    assert reader.read("priority-flow-control enable") is not None
    # the regex takes two spaces, ttp's set does not: ttp ends the group, read by ttp
    assert reader.read("priority-flow-control  enable") is None


def test_a_template_of_another_shape_is_read_by_ttp() -> None:
    parser = ttp()
    for name, text in (
        ("nameless", "<group>\nhostname {{ hostname }}\n</group>"),  # results come unnamed
        ("lines", "hostname {{ hostname }}"),  # lines outside any group
        ("joined", '<group name="g">\nx {{ a | _start_ }}\ny {{ b | joinmatches }}\n</group>'),
        ("macro", '<macro>\ndef m(d):\n    return d\n</macro>\n'
         '<group name="g" macro="m">\nx {{ a }}\n</group>'),
    ):  # fmt: skip
        parser.add_template(text, template_name=name)
    assert [plain(t) for t in parser._templates] == [None] * 4


def test_an_overlay_may_put_a_group_in_any_area_file(tmp_path: Path) -> None:
    """The port group moved into the system area file (and the port area file holding
    something else) reads the ports as the bundled files do."""
    bundled = ROOT / "templates" / "ruijie" / "parse"
    own = tmp_path / "templates" / "ruijie" / "parse"
    own.mkdir(parents=True)
    ports = (bundled / "interfaces.ttp").read_text(encoding="utf-8")
    system = (bundled / "system.ttp").read_text(encoding="utf-8")
    (own / "system.ttp").write_text(system + "\n" + ports, encoding="utf-8")
    (own / "interfaces.ttp").write_text(
        '<group name="unused">\nnever printed {{ word }}\n</group>\n', encoding="utf-8"
    )
    text = (ROOT / "golden" / "pod-small-ruijie" / "leaf-1.cfg").read_text(encoding="utf-8")
    moved = parse_text(text, file="leaf-1.cfg", overlay=tmp_path).config.device
    assert moved == parse_text(text, file="leaf-1.cfg").config.device
    assert len(moved.interfaces) > 1


def test_every_bundled_regex_is_read_line_by_line() -> None:
    # the line by line reading is proven for each regex (parse/line_regex.py _line_literals); one it
    # cannot prove is searched over the whole text, a slowdown, not a failure anywhere else
    for vendor in Vendor:
        for name, reader in _plain_templates(vendor):
            assert reader.local, f"{vendor.value} {name}"


def _shapes() -> list[str]:
    """Every value line of every bundled parse template, its variables left as '{}'."""
    found: list[str] = []
    for path in sorted((ROOT / "templates").glob("*/parse/*.ttp")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if "{{" in line and not line.lstrip().startswith("<"):
                found.append(re.sub(r"\{\{.*?\}\}", "{}", line.strip()))
    return found


_SHAPES = _shapes()
_VALUES = ["3", "007", "-1", "x", "a b", "10.0.0.1", "9" * 25, "0/1 0/2", "", "enable", "True"]
_ENDS = ["", " ", "\t", "\r", " \r", " x", "  "]


@st.composite
def _lines(draw: st.DrawFn) -> str:
    """A line of a template's own shape: its words, values, spacing and end drawn."""
    shape = draw(st.sampled_from(_SHAPES))
    values = iter(draw(st.lists(st.sampled_from(_VALUES), min_size=8, max_size=8)))
    words = shape.replace("{}", "\0").split(" ")
    line = draw(st.sampled_from([" ", "  ", "\t"])).join(
        w.replace("\0", next(values, "1")) for w in words
    )
    return draw(st.sampled_from(["", " "])) + line + draw(st.sampled_from(_ENDS))


@st.composite
def _feeds(draw: st.DrawFn) -> str:
    pool = draw(st.lists(_lines(), min_size=1, max_size=12))
    # repeated lines: the kept outcomes of a line read again, values repeated in one result
    picks = draw(st.lists(st.integers(0, len(pool) - 1), min_size=1, max_size=40))
    return "\n".join(pool[i] for i in picks)


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_feeds())
def test_lines_of_the_templates_own_shapes_read_as_ttp_reads_them(feed: str) -> None:
    for vendor in Vendor:
        _same(vendor, feed)


# Regexes two of which match one line (a start and a value line, two value lines), a set
# line, a child, defaults (one a line may give); and two templates whose regexes may read
# past a line (a lookbehind, a class with the newline): searched with finditer, as ttp does.
_OWN = {
    "two": """<group name="g*">
s {{ s | _start_ }}
x {{ a | DIGIT | _start_ }}
x {{ b }}
y {{ c }}
y {{ d | DIGIT | to_int }}
w {{ w }}
v {{ v | to_int }}
on {{ on | set(True) }}
<group name="k*">
z {{ e | to_int }}
</group>
</group>
<group name="h">
h {{ h | ORPHRASE | _start_ }}
w {{ w }}
{{ w | set("none") }}
{{ kind | set("h") }}
</group>""",
    # values renamed (replaceall: a new text for one or more old ones, or an old one
    # dropped) and start lines that set a text (a view of no name), under a child
    "renamed": """<group name="m*">
t {{ t | replaceall("dp", "dscp-dot1p", "dscp") | replaceall("-lp") | _start_ }}
view {{ view | set("bare") | _start_ }}
view {{ view | _start_ }}
on {{ on | set("yes") }}
<group name="e*">
i {{ i | ORPHRASE }} o {{ o }}
</group>
</group>""",
    "behind": r"""<group name="q*">
x {{ v | _start_ }}
y {{ u | re("(?&lt;=\\ny )\\S+") }}
</group>""",
    "across": r"""<group name="w*">
x {{ a | _start_ }}
z {{ w | re("[\\s\\S]+?") }}
</group>""",
}


@pytest.fixture(scope="module")
def own_parser() -> Any:
    parser = ttp()
    for name, text in _OWN.items():
        parser.add_template(text, template_name=name)
    return parser


def test_only_regexes_proven_to_read_one_line_are_read_line_by_line(own_parser: Any) -> None:
    local = {t.name: plain(t).local for t in own_parser._templates}  # type: ignore[union-attr]
    assert local == {"two": True, "renamed": True, "behind": False, "across": False}


_OWN_LINES = ["s 1", "s a", "x 1", "x a", "x a b", "y 3", "y a", "w 1", "w 2", "v 5",
              "v q", "on", "on ", "on\r", "z 4", "z q", "z ", "z  9\r", "", "\tx 2",
              "h a b", "h 1", "t dscp-dot1p", "t dot1p-lp", "t dscp-lp-x", "t x", "view",
              "view ", "view 2", "on", "i 1 2 o 3", "i 4 o 5"]  # fmt: skip


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(_OWN_LINES), min_size=1, max_size=14))
def test_lines_two_regexes_match_read_as_ttp_reads_them(own_parser: Any, lines: list[str]) -> None:
    feed = "\n".join(lines)
    readers = Readers([plain(t) for t in own_parser._templates])
    for template, mine in zip(own_parser._templates, readers.read(feed), strict=True):
        reader = plain(template)
        assert reader is not None
        assert _json(mine) == _json(reader.search(feed)) == _json(reader.read(feed))
        if mine is not None:
            assert _json(mine) == _json(_ttp_of(own_parser, template.name, feed)), template.name


def test_a_set_text_another_template_may_save_is_left_to_ttp() -> None:
    """ttp looks a set's text up among the variables the parser's templates saved
    (``record``, ``count``, a macro) and among the template's own before taking it as is."""
    parser = ttp()
    saver = '<group name="a">\nx {{ v | record("default") }}\n</group>'
    setter = '<group name="b*">\ndcb pfc {{ profile | set("default") | _start_ }}\n</group>'
    parser.add_template(setter, template_name="setter")
    assert plains(parser._templates)[0] is not None
    parser.add_template(saver, template_name="saver")
    assert plains(parser._templates) == [None, None]
    # what ttp makes of it: the value saved, by an earlier config too, not the text
    assert _ttp_of(parser, "saver", "x 7") == {"a": {"v": "7"}}
    assert _ttp_of(parser, "setter", "dcb pfc") == {"b": [{"profile": "7"}]}
    own = ttp()
    # a text that names a template variable (of no value: the template is read otherwise)
    own.add_template(f'<vars>\ndefault = ""\n</vars>\n{setter}', template_name="v")
    renamed = '<group name="b*">\nq {{ t | replaceall("new", "old") | _start_ }}\n</group>'
    own.add_template(f'<vars>\nold = ""\n</vars>\n{renamed}', template_name="r")
    assert [plain(t) for t in own._templates] == [None] * 2


def _ttp_of(parser: Any, name: str, feed: str) -> dict[str, Any]:
    parser.clear_input()
    parser.clear_result()
    parser.add_input(feed, template_name=name)
    parser.parse(one=True)
    merged: dict[str, Any] = {}
    for item in parser.result(structure="dictionary").get(name, []):
        if isinstance(item, dict):
            merged.update(item)
    parser.clear_input()
    parser.clear_result()
    return merged


def test_a_start_line_a_value_line_also_matches_is_left_to_ttp(own_parser: Any) -> None:
    reader = plain(own_parser._templates[0])
    assert reader is not None
    assert reader.read("s a\nx 1\nz 4") is None  # 'x 1': a start and a value line
    assert reader.read("s a\ny 3") is None  # 'y 3': two value lines
    # before a group's first start line, ttp reads none of its lines
    assert reader.read("y 3\nz 4") == {} == _ttp_of(own_parser, "two", "y 3\nz 4")


def test_the_lines_kept_are_bounded_and_change_no_result(monkeypatch: pytest.MonkeyPatch) -> None:
    prep = prepare(CONFIGS[0].read_text(encoding="utf-8"), file=str(CONFIGS[0]))
    plains = [plain(t) for t in runner(prep.vendor, None)._parser._templates]
    expected = Readers(plains).read(prep.feed)
    monkeypatch.setattr(plain_module, "MAX_SEEN", 3)
    readers = Readers(plains)
    for _ in range(2):  # read again: its lines kept, then dropped
        assert _json(readers.read(prep.feed)) == _json(expected)
        assert len(readers._seen) <= 3


@pytest.mark.parametrize(
    ("pattern", "flags", "literals"),
    [
        (r"\nvlan[ \t]+(?P<id>(?:\S+))[\t ]*(?=\n|\r\n)", 0, ("vlan", "")),
        (r"\nip[ \t]+route[ \t]+(?P<w>(?:.+))[\t ]*(?=\n|\r\n)", 0, ("ip", "route")),
        (r"\nab(?P<x>\d+)c", re.IGNORECASE, ("", "")),  # literals that match other text
        (r"\nx(?=y)", 0, ("x", "")),  # a lookahead reading one character, not a newline
        (r"\nx(?P<a>\s+)", 0, None),  # a class with the newline
        (r"\nx[^y]", 0, None),
        (r"\nx(?s:.)", 0, None),
        (r"\nx.", re.DOTALL, None),
        (r"\nx(?<=a)", 0, None),  # looks before the match
        (r"\nx\b", 0, None),
        (r"\nx$", 0, None),
        (r"\nx(?=\ny)", 0, None),  # reads the next line
        (r"\nx|y", 0, None),  # a match from anywhere
        (r"x\n", 0, None),
        (r"\nx[\x00-\x20]", 0, None),
    ],
)
def test_a_regex_is_read_line_by_line_only_where_proven(
    pattern: str, flags: int, literals: tuple[str, str] | None
) -> None:
    assert line_regex.line_literals(re.compile(pattern, flags)) == literals


def test_without_the_stdlib_regex_parser_every_regex_is_searched(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """re._parser is private: on a Python without it (or with another shape of it) no regex
    is read line by line, and the templates still read as ttp reads them."""
    assert line_regex.line_literals(re.compile(r"\ninterface (\S+)")) is not None
    monkeypatch.setattr(line_regex, "_SRE", None)
    assert line_regex.line_literals(re.compile(r"\ninterface (\S+)")) is None
    monkeypatch.setattr(line_regex, "_SRE", object())  # a module without the names used
    assert line_regex.line_literals(re.compile(r"\ninterface (\S+)")) is None
