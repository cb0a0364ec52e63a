"""Ruijie RGOS and ZTE ZXROS forms real fabrics print (issue 42): TFGigabitEthernet ports,
AggregatePort and smartgroup members, the ZXROS 'lacp', 'dcb' and 'qos' views, a ZXROS file
closed by 'end' or by a tag in upper case or with a space, and captures that go on after the
config. No vendor document prints the lossless forms: they are the corpus's
(tests/brownfield/fabrics/rj-zte-lag, tests/wild), marked unsourced in the grammar data."""

from __future__ import annotations

from pathlib import Path

import pytest

from roce_cfg.errors import InputError
from roce_cfg.model.device import DeviceConfig, Interface
from roce_cfg.parse import parse_file, parse_text
from tests.helpers import ROOT

RJZ = ROOT / "tests/brownfield/fabrics/rj-zte-lag"
WILD = ROOT / "tests/wild"


def _ports(device: DeviceConfig) -> dict[str, Interface]:
    return {p.name: p for p in device.interfaces}


def _device(path: Path) -> DeviceConfig:
    return parse_file(path).config.device


def test_ruijie_tf_ports_are_25g_and_keep_their_name() -> None:
    device = _device(RJZ / "leaf-1.cfg")
    tf = {p.name: p for p in device.interfaces if p.name.startswith("TF")}
    assert len(tf) == 48 and {p.speed_gbps for p in tf.values()} == {25}
    port = tf["TFGigabitEthernet 0/1"]
    assert port.mode == "access" and port.access_vlan == 101
    assert port.qos.trust_dscp and port.qos.pfc and port.qos.no_drop == (3,)
    assert not tf["TFGigabitEthernet 0/7"].qos.trust_dscp  # R5: the one that does not trust
    # the short form operators type names the same port
    text = (RJZ / "leaf-1.cfg").read_text().replace("TFGigabitEthernet 0/2\n", "TF0/2\n", 1)
    renamed = {p.name for p in parse_text(text, file="leaf-1.cfg").config.device.interfaces}
    assert "TFGigabitEthernet 0/2" in renamed


def test_ruijie_port_group_mode_active_makes_members() -> None:
    device = _device(RJZ / "leaf-2.cfg")
    agg = device.aggregate("AggregatePort 1")
    assert agg is not None
    assert agg.members == ("HundredGigabitEthernet 0/49", "HundredGigabitEthernet 0/50")
    ports = {p.name: p for p in device.interfaces}
    ap = ports["AggregatePort 1"]
    assert not ap.shutdown and ap.speed_gbps == 200 and ap.mtu == 9216
    # trust is printed on the members only: the aggregate has what all of them share
    assert ap.qos.trust_dscp
    # 'priority-flow-control mode on' is PFC on; 0/50 lists no no-drop priority (R2)
    assert ports["HundredGigabitEthernet 0/50"].qos.pfc
    assert ports["HundredGigabitEthernet 0/50"].qos.no_drop == ()
    assert ports["HundredGigabitEthernet 0/49"].qos.no_drop == (3,)
    assert device.bgp is not None and device.bgp.max_paths == 4  # 'maximum-paths ebgp 4'
    assert parse_file(RJZ / "leaf-2.cfg").config.accounting.unread == 0


def test_a_member_that_does_not_trust_leaves_its_aggregate_untrusted() -> None:
    text = (RJZ / "leaf-2.cfg").read_text()
    member = " description to_spine-1_cgei-0/3/0/4_3m_DAC\n mls qos trust dscp\n"
    assert member in text
    cut = text.replace(member, " description to_spine-1_cgei-0/3/0/4_3m_DAC\n", 1)
    ap = _ports(parse_text(cut, file="leaf-2.cfg").config.device)["AggregatePort 1"]
    assert not ap.qos.trust_dscp


def test_zte_lacp_view_makes_members_and_dcb_view_sets_pfc() -> None:
    parsed = parse_file(RJZ / "spine-1.cfg").config
    device = parsed.device
    assert parsed.accounting.unread == 0 and parsed.accounting.out_of_domain == 0
    aggs = {a.name: a for a in device.aggregates}
    assert aggs["smartgroup4"].members == ("cgei-0/3/0/7", "cgei-0/3/0/8")
    assert aggs["smartgroup4"].min_active == 1
    ports = {p.name: p for p in device.interfaces}
    member = ports["cgei-0/3/0/7"]
    # 'dcb' / '  interface X' / '    pfc enable' and the view's own 'pfc priority 3 no-drop';
    # 'qos' / '  interface X' / '    trust dscp'
    assert member.qos.pfc and member.qos.no_drop == (3,) and member.qos.trust_dscp
    assert device.qos.no_drop == (3,)
    assert not ports["smartgroup4"].shutdown and ports["smartgroup4"].qos.trust_dscp
    # the view's own lines join no port: the loopback before the view is no PFC port, and a
    # port the view does not list has no PFC
    assert not ports["cgei-0/3/0/9"].qos.pfc and not ports["cgei-0/3/0/9"].qos.trust_dscp


def test_zte_dcb_out_of_range_priority_is_one_unread_line() -> None:
    parsed = parse_file(RJZ / "spine-2.cfg").config
    assert [(u.line, u.text) for u in parsed.unread] == [(218, "pfc priority 9 no-drop")]
    ports = {p.name: p for p in parsed.device.interfaces}
    assert ports["cgei-0/3/0/1"].qos.pfc and ports["cgei-0/3/0/1"].qos.no_drop == ()
    facts = {(f.section, f.port) for f in parsed.accounting.unread_facts}
    assert ("pfc", None) in facts  # the gate: PFC of the whole switch not verified


def test_zte_dcb_priority_that_a_port_names_wins() -> None:
    text = (RJZ / "spine-1.cfg").read_text()
    text = text.replace(
        "  interface cgei-0/3/0/1\n    pfc enable\n",
        "  interface cgei-0/3/0/1\n    pfc enable\n    pfc priority 4 no-drop\n",
        1,
    )
    ports = _ports(parse_text(text, file="spine-1.cfg").config.device)
    assert ports["cgei-0/3/0/1"].qos.no_drop == (4,)
    assert ports["cgei-0/3/0/2"].qos.no_drop == (3,)


@pytest.mark.parametrize(
    ("old", "new"),
    [("!</ssh>\n", "!</ssh>\nend\n"), ("!</ssh>\n", "! </SSH>\n"), ("!</ssh>\n", "!</SSH>\n")],
    ids=["end", "spaced", "upper"],
)
def test_zte_file_ends(old: str, new: str) -> None:
    text = (RJZ / "spine-2.cfg").read_text()
    assert text.endswith(old)
    closed = parse_text(text[: -len(old)] + new, file="spine-2.cfg").config
    assert closed.device == parse_text(text, file="spine-2.cfg").config.device
    assert closed.accounting.unread == 0


def test_zte_file_cut_inside_a_section_is_still_refused() -> None:
    text = (RJZ / "spine-2.cfg").read_text()
    with pytest.raises(InputError, match="truncated"):
        parse_text(text.split("!<bgp>")[0] + "!<bgp>\nrouter bgp 65000\n", file="spine-2.cfg")


def test_session_output_after_the_config_is_not_configuration() -> None:
    path = WILD / "ruijie/s2628g-e-rgos10-capture.cfg"
    parsed = parse_file(path).config
    # 'sh vl' and 'sh ver' after 'end' (lines 609-675, 65 of them not prompts or blank)
    assert any(n.startswith("65 line(s) after the config's closing line") for n in parsed.notes)
    assert parsed.device.hostname == "NO_1_3"
    # the same output without the prompt that starts it: no telling it from configuration
    text = path.read_bytes().decode("utf-8")
    cut = text.replace("NO_1_3#$", "", 1)
    with pytest.raises(InputError, match="truncated"):
        parse_text(cut, file="s2628g.cfg")


def test_ruijie_default_gateway_is_known_unmanaged() -> None:
    a = parse_file(WILD / "ruijie/s2628g-e-rgos10-capture.cfg").config.accounting
    assert 99 not in {u.line for u in a.unread_lines}
    assert a.unmanaged_by_kind["the switch's own default gateway"] == 1


def test_zxan_switch_frame_limit_and_queue_number() -> None:
    path = WILD / "zte/c620-olt.cfg"
    parsed = parse_file(path).config
    frames = {p.frame_bytes for p in parsed.device.interfaces}
    assert frames == {2000}
    assert not {347, 349} & {u.line for u in parsed.accounting.unread_lines}
    text = path.read_text("utf-8").replace("qos queue-number 8", "qos queue-number 4")
    refused = parse_text(text, file="c620.cfg").config.unread
    assert [(u.line, u.text) for u in refused] == [(347, "qos queue-number 4")]


def test_a_garbled_zxros_port_header_leaves_its_port_unverified(tmp_path: Path) -> None:
    """'interface cdgei-0/1/0/1 zqx' is not read, but ZXROS lists the port again under
    switchvlan-configuration: its unread lines must be that port's for the gate, or every rule
    judges a port with nothing but VLAN lines (PFC off, untrusted, MTU 1500)."""
    import tests.test_evidence_gate as gate

    lines = (ROOT / "golden/pod-small-zte/leaf-1.cfg").read_text().splitlines()
    assert lines[27] == "interface cdgei-0/1/0/1"
    for how in (0, 2):
        gate.test_a_changed_lossless_line_changes_only_what_it_must.hypothesis.inner_test(
            tmp_path, ("zte", "leaf-1.cfg", 28, how)
        )
