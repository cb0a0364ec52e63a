"""Every rendered line is one the vendor's grammar accepts: goldens, made-up designs, and
hand-written configs carrying the defects the sources name."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from roce_cfg.grammar import compile_syntax, load_grammar
from roce_cfg.platforms.profile import load_profile
from roce_cfg.vendor import Vendor
from tests.helpers import ROOT, examples, golden_meta, run
from tests.test_parse_roundtrip import intents, rendered_per_vendor_and_role

GOLDEN_CFGS = sorted((ROOT / "golden").glob("*/*.cfg"))


def _meta(cfg: Path) -> tuple[str, str]:
    vendor, model, _ = golden_meta(cfg)
    return vendor, model


@pytest.mark.parametrize("cfg", GOLDEN_CFGS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_golden_line_is_accepted(cfg: Path) -> None:
    vendor, model = _meta(cfg)
    checked = load_grammar(vendor).check(cfg.read_text(), model)
    assert not checked.violations, "\n".join(str(v) for v in checked.violations[:10])


@settings(
    max_examples=examples(60),
    deadline=None,
    suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow],
)
@given(intents())
def test_any_designed_device_renders_only_accepted_lines(data: dict[str, Any]) -> None:
    for device, text in rendered_per_vendor_and_role(data):
        bad = load_grammar(device.vendor.value).check(text, device.model).violations
        # A value the intent asked for that the model's range refuses is generate's exit 2
        # (test_generate_refuses_out_of_range_line); anything else is a template defect.
        defects = [v for v in bad if not v.rule.startswith("out of range")]
        assert not defects, "\n".join(str(v) for v in defects[:10])


HUAWEI_ROUTED_TRUST = """\
#
sysname x
#
interface 400GE1/0/33
 undo portswitch
 ip address 10.1.0.1 255.255.255.254
 trust dscp
 undo shutdown
#
return
"""


def test_huawei_trust_on_a_routed_port_is_wrong_view() -> None:
    bad = load_grammar("huawei").check(HUAWEI_ROUTED_TRUST, "CE8851-32CQ8DQ-P").violations
    assert [(v.line.strip(), v.view) for v in bad] == [("trust dscp", "interface-l3")]
    assert "wrong view" in bad[0].rule


def test_huawei_model_limits_and_per_model_ranges() -> None:
    g = load_grammar("huawei")
    text = "dcb pfc\n priority 5\n#\ndcb pfc deadlock-detect interval 100\n#\n"
    bad = g.check(text, "CE8851-32CQ8DQ-P").violations
    assert len(bad) == 1 and bad[0].rule.startswith("unsupported on model CE8851-32CQ8DQ-P")
    assert not g.check(text, "CE6885-48YS8CQ").violations
    # priority 0-5 on CE8851-32CQ8DQ-P, 0-7 on CE6885 [HW-CR priority (DCB PFC view)]
    six = "dcb pfc\n priority 6\n#\n"
    assert g.check(six, "CE8851-32CQ8DQ-P").violations[0].rule.startswith("out of range")
    assert not g.check(six, "CE6885-48YS8CQ").violations
    # a model the reference does not name: accepted, never graded verified
    assert not g.check(text, "CE9860-4C-EI").violations


def test_h3c_global_command_inside_a_map_table_view_is_refused_without_separator() -> None:
    g = load_grammar("h3c")
    text = (
        "qos map-table dot1p-lp\n import 3 export 3\n"
        " priority-flow-control deadlock precision normal\n"
    )
    bad = g.check(text, "S9855-32D").violations
    assert bad and bad[0].view == "map-table" and "wrong view" in bad[0].rule
    assert not g.check(text.replace(" priority", "#\n priority"), "S9855-32D").violations


def test_ruijie_dscp_cos_takes_one_cos_and_zte_bgp_is_flat() -> None:
    rj = load_grammar("ruijie").check("mls qos map dscp-cos 26 48 to 3 6\n", "generic-32x400G")
    assert rj.violations and "wrong parameter" in rj.violations[0].rule
    zte = "router bgp 65001\n  address-family ipv4\n    maximum-paths 8\n  $\n$\n"
    bad = load_grammar("zte").check(zte, "generic-32x400G").violations
    assert [v.line.strip() for v in bad] == ["maximum-paths 8"]


@pytest.mark.parametrize(
    ("syntax", "line", "ok"),
    [
        ("qos { pq | drr } <a:int 0-7> [ to <b:int 0-7> ]", "qos drr 0 to 5", True),
        ("qos { pq | drr } <a:int 0-7> [ to <b:int 0-7> ]", "qos drr 0", True),
        ("qos { pq | drr } <a:int 0-7> [ to <b:int 0-7> ]", "qos wfq 0", False),
        ("priority <p:int 0-7>+", "priority 3 4", True),
        ("vlan batch <v:vlans 1-4094>", "vlan batch 10 to 20 30", True),
    ],
)
def test_syntax_notation(syntax: str, line: str, ok: bool) -> None:
    regex, _ = compile_syntax(syntax)
    assert bool(regex.match(" " + line)) is ok


def test_generate_refuses_out_of_range_value_at_the_intents_line(tmp_path: Path) -> None:
    """Refused at the intent's own line with the chosen model's range (issue 32), before a
    rendered line could be; the per-line grammar check stays behind it."""
    intent = (ROOT / "examples" / "single-switch.yaml").read_text()
    assert "restore_ms: 1000" in intent
    path = tmp_path / "i.yaml"
    path.write_text(intent.replace("restore_ms: 1000", "restore_ms: 3000"))
    out = tmp_path / "out"
    result = run("generate", str(path), "-o", str(out))
    assert result.exit_code == 2, result.output
    assert re.search(
        r"i\.yaml:\d+ lossless\.pfc\.watchdog\.restore_ms: huawei 3000 ms: "
        r"CE8851-32CQ8DQ-P takes 10-1500 ms",
        result.stderr,
    ), result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert not out.exists()


def test_every_vendor_grammar_loads_and_counts() -> None:
    for vendor in ("huawei", "h3c", "ruijie", "zte"):
        counts = load_grammar(vendor).coverage()
        assert sum(counts.values()) > 20
    assert load_grammar("huawei").defaults()["mtu (interface view)"] == "1500"


@pytest.mark.parametrize(
    "scenario", ["pod-small-huawei", "pod-small-h3c", "pod-small-ruijie", "pod-small-zte"]
)
def test_remediation_types_every_line_in_its_own_view(scenario: str) -> None:
    """A push from an empty switch leaves each view before a global command (H3C's map-table)."""
    from roce_cfg.deploy.tree import Tree, remediation

    cfg = ROOT / "golden" / scenario / "leaf-1.cfg"
    vendor, model = _meta(cfg)
    profile = load_profile(next(v for v in Vendor if v.value == vendor))
    commands = remediation(Tree(profile), Tree.from_text(cfg.read_text(), profile))
    assert len(commands) > 50
    bad = load_grammar(vendor).check_session(
        commands, model, profile.dialect.view_exit, profile.negation
    )
    assert not bad, "\n".join(str(v) for v in bad[:10])


def test_remediation_negates_with_the_grammar_undo_form() -> None:
    from roce_cfg.deploy.tree import Tree, remediation

    profile = load_profile(Vendor.HUAWEI)
    g = load_grammar("huawei")
    assert g.undo_for("interface-l2", "port default vlan 101", "undo ") == "undo port default vlan"
    running = Tree.from_text(
        "#\ninterface 25GE1/0/1\n port link-type access\n port default vlan 101\n"
        " jumboframe enable 9000\n#\nreturn\n",
        profile,
    )
    intended = Tree.from_text(
        "#\ninterface 25GE1/0/1\n port link-type access\n port default vlan 102\n#\nreturn\n",
        profile,
    )
    commands = remediation(running, intended)
    assert "port default vlan 102" in commands
    running.apply(commands)
    assert remediation(running, intended) == []
    assert "port default vlan 101" not in running.render()


def test_a_drop_profile_holds_one_ecn_line() -> None:
    """Issue 33: with two no-drop priorities the drop-profile carried its 'ecn' line twice; the
    grammar now refuses a second one in the same profile (another profile may have its own)."""
    line = " ecn buffer-size low-limit 153600 high-limit 1536000 discard-percentage 100\n"
    text = f"drop-profile ROCE\n{line}{line}#\ndrop-profile B\n{line}#\n"
    bad = load_grammar("huawei").check(text, "CE6885-48YS8CQ").violations
    assert [(v.line_no, v.rule.split(":")[0]) for v in bad] == [(3, "repeated")]
    golden = (ROOT / "golden/island-ce6885-two-lossless/switch-1.cfg").read_text()
    assert golden.count(line) == 1 and "qos queue 4 wred ROCE" in golden


def test_a_line_shaped_like_an_accepted_one_still_has_its_values_checked() -> None:
    """Lines that differ only in digits share one check (the shape cache); a value out of
    range is refused even after an in-range line of the same shape warmed the cache, both
    within one config and across configs checked with the same grammar."""
    g = load_grammar("ruijie")
    model = "generic-32x400G"
    ok = "vlan 1001\n name rail1\n!\nvlan 2002\n name rail2\n!\n"
    assert not g.check(ok, model).violations
    bad = g.check("vlan 4094\n!\nvlan 5000\n!\nvlan 0\n!\nvlan 1234\n!\n", model).violations
    assert [(v.line_no, v.rule.split(" (")[0]) for v in bad] == [
        (3, "out of range: id 5000 out of range 1-4094"),
        (5, "out of range: id 0 out of range 1-4094"),
    ]
    # two ranged values on one line: the second is checked though the first agrees
    line = "interface FourHundredGigabitEthernet 0/1\n mtu {}\n!\n"
    assert not g.check(line.format(9216), model).violations
    assert g.check(line.format(9217), model).violations[0].rule.startswith("out of range")
    # a digit in a command's own words is no placeholder: 'speed 40000' [HW-CR] is a command,
    # 'speed 50000' (the same shape) is not
    hw = load_grammar("huawei")
    port = "interface 100GE1/0/{}\n speed {}\n#\n"
    assert not hw.check(port.format(1, 40000), "CE8851-32CQ8DQ-P").violations
    assert hw.check(port.format(2, 50000), "CE8851-32CQ8DQ-P").violations


def test_a_block_shaped_like_an_accepted_one_is_replayed_only_with_its_values() -> None:
    """Blocks of the same shape (a drop profile with its ECN line) are checked once; another
    value in a ranged parameter, a per-model range, a repeated once-per-view line and the line
    numbers after replayed blocks are still those of a line-by-line walk."""
    g = load_grammar("huawei")
    block = (
        "drop-profile ROCE{n}\n ecn buffer-size low-limit {low} high-limit 1500000"
        " discard-percentage {pct}\n#\n"
    )
    lines = block.format(n=1, low=400, pct=100) + block.format(n=2, low=500, pct=90)
    for model in ("CE6885-48YS8CQ", "CE8851-32CQ8DQ-P"):
        assert not g.check(lines, model).violations
        assert not g.check(lines, model).violations  # now replayed
    bad = g.check(lines + block.format(n=3, low=400, pct=101), "CE6885-48YS8CQ").violations
    assert [(v.line_no, v.rule.split(" (")[0]) for v in bad] == [
        (8, "out of range: pct 101 out of range 1-100")
    ]
    # 200 bytes: within 128-16000000 on CE8851-32CQ8DQ-P, below 320 on CE6885 [HW-CR ecn]
    low = block.format(n=4, low=200, pct=100)
    assert not g.check(lines + low, "CE8851-32CQ8DQ-P").violations
    assert [v.line_no for v in g.check(lines + low, "CE6885-48YS8CQ").violations] == [8]
    twice = lines.replace(
        "#\n", " ecn buffer-size low-limit 400 high-limit 9 discard-percentage 1\n#\n", 1
    )
    assert [v.line_no for v in g.check(twice, "CE6885-48YS8CQ").violations] == [3]


def _line_by_line(vendor: str) -> Any:
    """The vendor's grammar read afresh, answering every line on its own (no shape answers)."""
    from roce_cfg.grammar import line_by_line

    return line_by_line(vendor)


@pytest.mark.sample(20)
@pytest.mark.parametrize("cfg", GOLDEN_CFGS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_answers_by_shape_agree_with_a_line_by_line_walk(cfg: Path) -> None:
    """Golden configs with digits changed at random (values out of range, lines of no command,
    and the originals before them to warm every cache): the checker that answers lines and
    blocks by shape finds exactly what a line-by-line walk finds."""
    import random

    vendor, model = _meta(cfg)
    text = cfg.read_text()
    fast, ref = load_grammar(vendor), _line_by_line(vendor)
    rng = random.Random(cfg.stem)
    for _ in range(3):
        mutated = "".join(
            rng.choice("0123456789") if ch.isdigit() and rng.random() < 0.05 else ch for ch in text
        )
        lines = mutated.split("\n")
        for _ in range(5):  # a line repeated, dropped, indented, emptied or tabbed in
            at = rng.randrange(len(lines))
            lines[at : at + 1] = rng.choice(
                [[lines[at]] * 2, [], [" " + lines[at]], [""], ["\t" + lines[at]]]
            )
        for config in (text, mutated, "\n".join(lines), "", "\n\n"):
            got, want = fast.check(config, model), ref.check(config, model)
            assert [str(v) for v in got.violations] == [str(v) for v in want.violations]
            assert got.used == want.used


def test_a_separator_line_is_checked_with_the_block_before_it() -> None:
    """A separator alone on its line ('#' closing a port) joins the block before it, so a
    config has half as many blocks to look up; what the checker finds is still what a
    line-by-line walk finds: with lines under a separator (H3C's ' sysname'), a second
    'once' line after one, an unknown line and a value out of range after separators."""
    from roce_cfg.grammar.replay import block_start

    split = block_start(("#", "!")).split
    assert split("a\n b\n#\nc\n!\n x\n#\n#x\n# \n") == ["a\n b\n#", "c\n!\n x\n#", "#x", "# \n"]
    cfg = ROOT / "golden" / "pod-small-h3c" / "leaf-1.cfg"
    vendor, model = _meta(cfg)
    text = cfg.read_text()
    fast, ref = load_grammar(vendor), _line_by_line(vendor)
    for config in (
        text,
        text.replace("#\n lldp global enable\n", "#\n lldp global enable\n sysname b\n", 1),
        text.replace("\n#\n", "\n#\n no such command 7\n", 3),
        text.replace(" import 26 export 3", " import 26 export 9"),
    ):
        got, want = fast.check(config, model), ref.check(config, model)
        assert [str(v) for v in got.violations] == [str(v) for v in want.violations]
        assert got.used == want.used
    unknown = fast.check(text.replace("\n#\n", "\n#\n no such command 7\n", 3), model)
    assert len(unknown.violations) == 3


def test_a_skip_pattern_that_tells_digits_apart_keeps_blocks_line_by_line() -> None:
    from roce_cfg.grammar import pattern_blind

    # ZTE's '!<tag>' lines: a class over the whole of 0-9 treats every digit alike
    assert pattern_blind(r"(?:^!</?[a-z0-9-]+>$)") and pattern_blind("[^0-9]")
    for pattern in ("[0-5]", "vlan 0-9", r"\d{1,3}", "[0-9]1", r"\x30", r"[\N{DIGIT FIVE}]"):
        assert not pattern_blind(pattern), pattern


@pytest.mark.parametrize("cfg", GOLDEN_CFGS[::2], ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_checking_top_level_blocks_agrees_with_a_line_by_line_walk(cfg: Path) -> None:
    """``check_blocks`` (the parse's out-of-range check, parse/domains.py) over a config's
    top-level blocks, digits changed at random after the original warmed every cache, finds
    what a line-by-line walk of the same lines finds."""
    import random

    from roce_cfg.parse.blocks import split
    from roce_cfg.parse.text import clean

    vendor, _ = _meta(cfg)
    text = cfg.read_text()
    fast, ref = load_grammar(vendor), _line_by_line(vendor)
    rng = random.Random(cfg.stem)
    mutated = "".join(
        rng.choice("0123456789") if ch.isdigit() and rng.random() < 0.05 else ch for ch in text
    )
    for config in (text, mutated):
        blocks = [[b.header.text, *(ln.text for ln in b.body)] for b in split(clean(config))]
        got = fast.check_blocks(("\n".join(b) for b in blocks), "")
        want = ref.check_lines((line for b in blocks for line in b), "")
        assert [str(v) for v in got.violations] == [str(v) for v in want.violations]


@settings(max_examples=examples(200), deadline=None)
@given(
    text=st.text(
        st.sampled_from(["a", " ", "\n", "1", "\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e"])
        | st.sampled_from(["\x85", "\u2028", "\u2029", "é", "\x7f"])
        | st.characters(),
        max_size=40,
    )
)
def test_odd_breaks_is_the_regex(text: str) -> None:
    """The checker's ASCII shortcut answers what the regex of line ends other than '\\n' does."""
    from roce_cfg.grammar.replay import ODD_BREAKS, odd_breaks

    assert odd_breaks(text) == (ODD_BREAKS.search(text) is not None)
