"""Every line of a running-config is read, known-unmanaged or unread (issue 26, item 7)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from roce_cfg.errors import InputError
from roce_cfg.grammar import GrammarError, load_grammar
from roce_cfg.grammar.load import _unmanaged
from roce_cfg.parse import parse_file, parse_text
from roce_cfg.parse.judge import Judge, Verdict, judge
from roce_cfg.parse.lossless import LOSSLESS_SECTIONS
from roce_cfg.parse.template_lines import template_lines
from roce_cfg.vendor import Vendor
from tests.helpers import ROOT, run

GOLDEN = sorted((ROOT / "golden").glob("*/*.cfg"))
BROWNFIELD = sorted((ROOT / "tests/brownfield").glob("[!f]*/*.cfg"))  # not fabrics/
FABRICS = ROOT / "tests/brownfield/fabrics"


@pytest.mark.parametrize("cfg", GOLDEN, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_generated_configs_have_no_line_unread(cfg: Path) -> None:
    """What roce-cfg writes, it reads: every line of every golden config is understood."""
    a = parse_file(cfg).config.accounting
    assert (a.unmanaged, a.unread, a.out_of_domain) == (0, 0, 0), a.unread_lines[:5]
    assert a.lines == a.understood > 0


@pytest.mark.parametrize("cfg", BROWNFIELD, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_hand_written_backups_are_fully_accounted(cfg: Path) -> None:
    """tests/brownfield/<vendor>: every line not read is in the known-unmanaged catalogue (SNMP,
    NTP, ACLs, SSH, management ports and VRF), so nothing is left unread."""
    a = parse_file(cfg).config.accounting
    assert a.unread == 0, [f"{u.line}: {u.text}" for u in a.unread_lines]
    assert a.unmanaged > 0 and a.lines == a.understood + a.unmanaged


def test_a_lag_is_read_with_its_lines() -> None:
    """hw-v300-mlag/spine-2: Eth-Trunk aggregates are read (i26-lag) with their LACP mode (the
    grammar's [HW-CR] mode (Eth-Trunk interface view)), AAA and SNMP are unmanaged, the secret
    on the local-user line never reaches the output."""
    a = parse_file(FABRICS / "hw-v300-mlag/spine-2.cfg").config.accounting
    by_line = {u.line: u for u in a.unread_lines}
    assert 42 not in by_line and 81 not in by_line  # 'interface Eth-Trunk11', 'eth-trunk 11'
    assert 48 not in by_line  # ' mode lacp-static'
    # 'qos queue 0 drr weight 20' (grammar: [HW-CR] qos queue drr) and a static route with
    # options (roce_cfg/parse/statics.py) are read since i26-parse
    assert 84 not in by_line and 287 not in by_line
    assert 286 not in by_line  # 'ip route-static bfd ...': a BFD session, known-unmanaged
    assert 27 not in by_line and 28 not in by_line  # 'aaa' and its local-user: unmanaged
    assert a.unmanaged_by_kind["AAA"] >= 1 and a.unmanaged_by_kind["SNMP"] >= 1
    assert a.lines == a.understood + a.unmanaged + a.unread + a.out_of_domain
    assert "aggregates" not in a.lossless_unread()
    assert "irreversible-cipher $1c$" not in json.dumps([u.text for u in a.unread_lines])


def test_an_out_of_range_line_is_counted_apart_from_the_unread() -> None:
    """A line refused for its value (RC119's) is not read, and not RC405's to warn about."""
    text = (ROOT / "golden/pod-small-huawei/leaf-1.cfg").read_text("utf-8")
    bad = text.replace("vlan batch ", "vlan batch 4095 ", 1)
    assert bad != text
    a = parse_text(bad, file="leaf-1.cfg").config.accounting
    assert a.out_of_domain >= 1 and a.unread == 0
    assert a.lines == a.understood + a.out_of_domain


def test_a_line_nothing_reads_is_unread_in_its_area() -> None:
    text = (ROOT / "golden/pod-small-h3c/leaf-1.cfg").read_text("utf-8")
    extra = (
        # a class is read (roce_cfg/parse/policies.py), a criterion it does not evaluate is not
        "#\ntraffic classifier ROCE operator and\n if-match ip-precedence 3\n"
        " if-match source-mac 0001-0002-0003\n"
        "#\n snmp-agent sys-info version v3\n"
    )
    cfg = parse_text(text.replace("#\nvlan 101", extra + "#\nvlan 101", 1), file="leaf-1.cfg")
    a = cfg.config.accounting
    assert a.unread_by_section == {"qos_maps": 2}
    assert a.unmanaged_by_kind == {"SNMP": 1}
    assert "qos_maps" in LOSSLESS_SECTIONS


def test_template_lines_become_whole_line_regexes() -> None:
    import re

    got = template_lines(
        [
            "<group name='x'>\n<!-- a comment\n over lines -->\n"
            'vlan {{ range | _start_ | re("[0-9]+ to [0-9]+") }}\n'
            "undo portswitch {{ routed | set(True) }}\n"
            "ip address {{ ip }} {{ mask }}\n</group>"
        ]
    )
    assert len(got) == 3
    rx = [re.compile(g) for g in got]
    assert rx[0].fullmatch("vlan 200 to 202") and not rx[0].fullmatch("vlan 200")
    assert rx[1].fullmatch("undo portswitch")
    assert rx[2].fullmatch("ip address 10.0.0.1 255.255.255.0")
    assert not rx[2].fullmatch("ip address 10.0.0.1 255.255.255.0 sub")


def test_every_catalogue_entry_says_what_and_where_from() -> None:
    from roce_cfg.grammar import load_grammar

    for vendor in Vendor:
        grammar = load_grammar(vendor.value)
        assert grammar.unmanaged and grammar.areas, vendor
        assert all(u.what and u.source for u in grammar.unmanaged)
    with pytest.raises(GrammarError, match="needs 'what' and 'source'"):
        list(_unmanaged([{"match": "^snmp"}], "x.grammar.yaml"))
    with pytest.raises(InputError, match="no regex"):
        list(_unmanaged([{"match": "^(snmp", "what": "SNMP", "source": "s"}], "x.grammar.yaml"))


def _with_unread_lag_line(tmp_path: Path) -> Path:
    """hw-v300-mlag/spine-2 with ' max active-linknumber 2' (an Eth-Trunk line no reader takes)
    after line 48 of each of its four Eth-Trunks: lines 49, 58, 67, 76."""
    lines = (FABRICS / "hw-v300-mlag/spine-2.cfg").read_text("utf-8").splitlines(keepends=True)
    out = []
    for line in lines:
        out.append(line)
        if line == " mode lacp-static\n":
            out.append(" max active-linknumber 2\n")
    path = tmp_path / "spine-2.cfg"
    path.write_text("".join(out), "utf-8")
    return path


def test_parse_lists_unread_lines_per_section(tmp_path: Path) -> None:
    cfg = _with_unread_lag_line(tmp_path)
    res = run("parse", str(cfg), "-v")
    assert res.exit_code == 0, res.output
    assert "not read, aggregates (bears on losslessness)" in res.stderr
    assert "49: max active-linknumber 2" in res.stderr
    doc = json.loads(res.stdout)
    acc = doc["configs"][0]["accounting"]
    assert acc["unread_by_section"]["aggregates"] == 4  # one line in each of four Eth-Trunks
    quiet = run("parse", str(cfg))
    assert "not read" in quiet.stderr and "49: max" not in quiet.stderr


def test_lint_counts_and_warns_per_lossless_section(tmp_path: Path) -> None:
    res = run("lint", str(_with_unread_lag_line(tmp_path)), "--format", "json")
    findings = json.loads(res.stdout)["findings"]
    counts = [f for f in findings if f["rule"] == "RC404"]
    assert len(counts) == 1 and "known-unmanaged" in counts[0]["message"]
    warned = {f["message"].split("'")[1]: f["line"] for f in findings if f["rule"] == "RC405"}
    assert warned["aggregates"] == 49
    assert set(warned) <= LOSSLESS_SECTIONS


RUIJIE_LEAF = ROOT / "golden/pod-small-ruijie/leaf-1.cfg"


def test_blocks_of_one_shape_list_their_own_unread_lines() -> None:
    """Port blocks that differ only in their digits are judged once (parse/judge.py
    ``Judge.tally``), yet each lists its own unread line, number and text."""
    text = RUIJIE_LEAF.read_text("utf-8")
    for port in (1, 2, 3):
        head = f"interface FourHundredGigabitEthernet 0/{port}\n"
        text = text.replace(head, f"{head} lacp port-priority {port}00\n", 1)
    a = parse_text(text, file="leaf-1.cfg").config.accounting
    assert [(u.line, u.text) for u in a.unread_lines] == [
        (22, "lacp port-priority 100"),
        (36, "lacp port-priority 200"),
        (50, "lacp port-priority 300"),
    ]
    assert a.unread == 3 and a.lines == a.understood + 3


def test_a_line_whose_digits_a_command_tells_apart_is_judged_by_its_text() -> None:
    """Ruijie 'address-family ipv4' is read and 'address-family ipv5' (no such family: no
    command takes it) is not, though the two lines share a shape: after the first, the second is
    still unread (and then the first is still read)."""
    text = RUIJIE_LEAF.read_text("utf-8")
    v5 = text.replace(" address-family ipv4 unicast", " address-family ipv5 unicast")
    assert v5 != text
    for source, unread in ((text, []), (v5, [(367, "address-family ipv5 unicast")]), (text, [])):
        a = parse_text(source, file="leaf-1.cfg").config.accounting
        assert [(u.line, u.text) for u in a.unread_lines][:1] == unread


def test_the_shape_memos_keep_no_huge_block() -> None:
    """A block past REPLAY_CHARS (the grammar's) or MEMO_BLOCK_CHARS (the accounting's) is
    walked line by line, not kept as a memo key for the process's life (a hostile file's block
    may be megabytes); it is checked and accounted all the same."""
    from roce_cfg.grammar import REPLAY_CHARS, load_grammar
    from roce_cfg.parse.judge import MEMO_BLOCK_CHARS, judge

    head = "interface FourHundredGigabitEthernet 0/1\n"
    text = RUIJIE_LEAF.read_text("utf-8")
    # valid lines with a ranged value: the out-of-range check would learn the block
    many = MEMO_BLOCK_CHARS // 10
    big = "".join(f" priority-queue {n % 8}\n" for n in range(many))
    before = parse_text(text, file="leaf-1.cfg").config.accounting
    a = parse_text(text.replace(head, head + big, 1), file="leaf-1.cfg").config.accounting
    assert a.understood == before.understood + many and a.all_read()
    judged = [k[3] for k in judge(Vendor.RUIJIE, None)._blocks]
    checked = list(load_grammar("ruijie").replay.blocks[""])
    assert judged and max(map(len, judged)) <= MEMO_BLOCK_CHARS
    assert checked and max(map(len, checked)) <= REPLAY_CHARS


def _judge_without(vendor: Vendor, line_regex: str | None) -> Judge:
    """The vendor's judge with one template line taken out (None: as bundled)."""
    whole = judge(vendor)
    kept = tuple(r for r in whole.template_lines if r != line_regex)
    assert line_regex is None or len(kept) == len(whole.template_lines) - 1
    pattern = re.compile("|".join(f"(?:{r})" for r in kept))
    return Judge(whole.grammar, pattern, whole.unmanaged, whole.areas, kept)


def test_a_lossless_command_no_template_reads_is_unread() -> None:
    """The grammar knowing a command is not reading its values: an 'if-match dscp' line whose
    template line is gone is unread (RC405 says so), not understood with nothing read."""
    line = "if-match dscp 48"
    whole = judge(Vendor.H3C)
    (regex,) = [r for r in whole.template_lines if re.fullmatch(r, line)]
    assert _judge_without(Vendor.H3C, None).line(line, "all").status == "understood"
    assert _judge_without(Vendor.H3C, regex).line(line, "all") == Verdict("unread", "qos_maps")


def test_an_unmodelled_command_says_why() -> None:
    """A lossless command that no template reads is understood only where its grammar entry
    says why its values change nothing judged ('peer X enable')."""
    cmd = load_grammar("h3c").match("bgp-ipv4", "peer 10.0.0.1 enable")[0]
    assert cmd is not None and cmd.section == "bgp" and "routing model" in cmd.unmodelled
    assert judge(Vendor.H3C).line("peer 10.0.0.1 enable", "all").status == "understood"
