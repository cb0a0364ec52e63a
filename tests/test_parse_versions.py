"""Software-version variants (issue 26 item 5): VRP V200 and V300 forms of the PFC watchdog,
ECN/WRED and scheduling, and the defaults a switch does not print, applied per release and
model from vendors/huawei.yaml (sources cited there)."""

from __future__ import annotations

import pytest

from roce_cfg.model.device import DeviceConfig
from roce_cfg.parse import parse_file, parse_text
from roce_cfg.vendor import Vendor
from tests.helpers import ROOT

FABRICS = ROOT / "tests/brownfield/fabrics"


def huawei(body: str, version: str | None = "V300R023C00SPC500", board: str = "CE6885-48YS8CQ"):
    head = f"!Software Version {version}\n" if version else ""
    text = (
        f"{head}#\nsysname sw-1\n#\ndevice board 1 board-type {board}\n#\n{body}\n"
        "interface 100GE1/0/1\n undo portswitch\n ip address 10.0.0.1 255.255.255.254\n"
        " dcb pfc enable mode manual\n#\nreturn\n"
    )
    return parse_text(text, file="sw-1.cfg", vendor=Vendor.HUAWEI)


def device(body: str, **kw: str | None) -> DeviceConfig:
    return huawei(body, **kw).config.device


def test_v300_watchdog_with_no_action_line_takes_the_models_default() -> None:
    """[HW-CR dcb pfc deadlock recovery-behavior]: CE6885/CE6863E forward by default,
    CE8851-32CQ8DQ-P discards; the parse no longer refuses the file."""
    body = "dcb pfc\n#\ndcb pfc deadlock-detect timer 200\ndcb pfc deadlock-recovery timer 300\n#"
    spine = device(body, board="CE8851-32CQ8DQ-P").qos.watchdog
    assert spine is not None
    assert (spine.detect_ms, spine.restore_ms, spine.action) == (200, 300, "drop")
    assert spine.action_printed is False
    leaf = huawei("dcb pfc\n priority 3 turn-off threshold 20\n#", board="CE6863E-48S8CQ")
    wd = leaf.config.device.qos.watchdog
    assert wd is not None and wd.action == "forward" and not wd.action_printed
    assert any("CE6863E-48S8CQ defaults to forward" in n for n in leaf.config.notes)


def test_printed_action_wins_over_the_default() -> None:
    body = "dcb pfc\n#\ndcb pfc deadlock recovery-behavior discard slot 1\n#"
    wd = device(body, board="CE6885-48YS8CQ").qos.watchdog
    assert wd is not None and wd.action == "drop" and wd.action_printed


def test_v300_prints_no_watchdog_line_at_its_100ms_defaults() -> None:
    """[HW-CG Configuring PFC Deadlock Detection]: detection and recovery 100 ms by default."""
    wd = device("dcb pfc\n#", board="CE8851-32CQ8DQ-P").qos.watchdog
    assert wd is not None
    assert (wd.detect_ms, wd.restore_ms, wd.action) == (100, 100, "drop")


def test_without_a_release_no_default_is_invented() -> None:
    parsed = huawei("dcb pfc\n#", version=None)
    assert parsed.config.device.qos.watchdog is None


def test_v200_default_watchdog_is_cannot_verify_not_a_guess() -> None:
    parsed = huawei(
        "dcb pfc\n priority 3\n#", version="V200R019C10SPC800", board="CE6865-48S8CQ-EI"
    )
    assert parsed.config.device.qos.watchdog is None
    assert any(n.startswith("cannot verify") and "V200R019" in n for n in parsed.config.notes)


def test_v200_one_line_watchdog_is_read_in_steps_of_the_default_unit() -> None:
    body = "dcb pfc\n priority 3\n priority 3 deadlock-detect time 15 deadlock-recovery time 12\n#"
    parsed = huawei(body, version="V200R020C10", board="CE8850-64CQ-EI")
    wd = parsed.config.device.qos.watchdog
    assert wd is not None and (wd.detect_ms, wd.restore_ms) == (150, 120)
    notes = " ".join(parsed.config.notes)
    assert "unit" in notes and "V200" in notes  # the assumed unit is said, not silent
    assert "cannot verify" in notes  # CE8850-64CQ-EI's default action has no source


@pytest.mark.parametrize("granularity, expect", [("100", (1500, 1200)), ("1000", (15000, 12000))])
def test_v300_separate_lines_use_the_printed_interval(
    granularity: str, expect: tuple[int, int]
) -> None:
    body = (
        f"dcb pfc\n priority 3 deadlock-detect time 15\n priority 3 deadlock-recovery time 12\n#\n"
        f"dcb pfc deadlock-detect interval {granularity}\n#"
    )
    wd = device(body).qos.watchdog
    assert wd is not None and (wd.detect_ms, wd.restore_ms) == expect


def test_headroom_pool_in_mbytes() -> None:
    """'qos buffer headroom-pool size <n> { kbytes | mbytes }' [HW-CR]."""
    d = device("qos buffer headroom-pool size 4 mbytes slot 1\n#")
    assert d.qos.headroom_pool_bytes == 4 * 1024 * 1024


def _ecn_port(profile_line: str, flag: bool = True) -> DeviceConfig:
    body = f"drop-profile roce\n {profile_line}\n#\ndcb pfc\n#"
    text = (
        "!Software Version V200R019C10SPC800\n#\nsysname sw-1\n#\n" + body + "\n"
        "interface 25GE1/0/1\n port default vlan 10\n trust dscp\n dcb pfc enable mode manual\n"
        " qos pq 6 to 7\n qos drr 0 to 5\n qos queue 3 drr weight 80\n qos queue 3 wred roce\n"
        + (" qos queue 3 ecn\n" if flag else "")
        + "#\nreturn\n"
    )
    return parse_text(text, file="sw-1.cfg", vendor=Vendor.HUAWEI).config.device


def test_v200_colour_thresholds_in_percent_are_the_ecn_profile() -> None:
    d = _ecn_port("color green low-limit 20 high-limit 60 discard-percentage 20")
    (ecn,) = d.qos.ecn
    assert (ecn.queue, ecn.min_bytes, ecn.max_bytes, ecn.probability, ecn.unit) == (
        3,
        20,
        60,
        20,
        "percent",
    )
    assert d.interfaces[0].qos.ecn_queues == (3,)
    assert d.interfaces[0].qos.strict_queues == (6, 7)


def test_colour_thresholds_in_bytes() -> None:
    d = _ecn_port("color green buffer-size low-limit 7168 high-limit 512000 discard-percentage 30")
    (ecn,) = d.qos.ecn
    assert (ecn.min_bytes, ecn.max_bytes, ecn.unit) == (7168, 512000, "bytes")


def test_wred_without_the_ecn_flag_marks_nothing() -> None:
    """The hw-v200 G2 fault: 'qos queue 3 wred roce' without 'qos queue 3 ecn' drops."""
    d = _ecn_port("color green low-limit 20 high-limit 60 discard-percentage 20", flag=False)
    assert d.interfaces[0].qos.ecn_queues == ()


def test_percent_beyond_100_is_unread_not_taken() -> None:
    parsed = parse_text(
        "!Software Version V200R019C10SPC800\n#\nsysname sw-1\n#\ndrop-profile roce\n"
        " color green low-limit 20 high-limit 160 discard-percentage 20\n#\nreturn\n",
        file="sw-1.cfg",
        vendor=Vendor.HUAWEI,
    )
    assert parsed.config.device.qos.ecn == ()
    assert parsed.config.unread


@pytest.mark.parametrize("name", ["spine-1", "spine-2", "leaf-1", "leaf-2", "leaf-3", "leaf-4"])
def test_v300_corpus_files_parse_with_the_expected_watchdog(name: str) -> None:
    import yaml

    expected = yaml.safe_load((FABRICS / "hw-v300-mlag/expected.yaml").read_text())
    want = expected["lossless_policy"]["watchdog"][name]
    d = parse_file(FABRICS / f"hw-v300-mlag/{name}.cfg").config.device
    wd = d.qos.watchdog
    assert wd is not None
    action = {"discard": "drop", "forwarding": "forward"}[want["recovery_behavior"]]
    assert (wd.detect_ms, wd.restore_ms, wd.action) == (
        want["detect_ms"],
        want["recovery_ms"],
        action,
    )
    assert d.qos.no_drop == tuple(expected["lossless_policy"]["no_drop_priorities"]["all"])


def test_v200_corpus_files_parse() -> None:
    for name in ("spine-1", "spine-2", "leaf-1", "leaf-2", "leaf-3", "leaf-4"):
        d = parse_file(FABRICS / f"hw-v200/{name}.cfg").config.device
        assert d.qos.no_drop == (3,)
        assert {e.queue for e in d.qos.ecn} == {3}, name
        assert all(6 in p.qos.strict_queues for p in d.interfaces if p.qos.pfc), name


def h3c(globals_: str, port: str = "") -> DeviceConfig:
    text = (
        "#\n version 7.1.070, Release 6715\n#\n sysname leaf-1\n#\n lldp global enable\n#\n"
        f"{globals_}\n#\ninterface HundredGigE1/0/49\n port link-mode route\n"
        " ip address 10.0.0.1 255.255.255.254\n priority-flow-control enable\n"
        f" priority-flow-control no-drop dot1p 3\n priority-flow-control deadlock enable\n{port}#\n"
        "return\n"
    )
    return parse_text(text, file="leaf-1.cfg", vendor=Vendor.H3C).config.device


@pytest.mark.parametrize("keyword", ["poolID", "poolid"])
def test_h3c_headroom_pool_in_either_spelling(keyword: str) -> None:
    """[H3C-PFC-CR]: 'poolID' (R671x) and 'poolid' (R913x); the pool is counted in cells."""
    d = h3c(f" priority-flow-control {keyword} 0 headroom 24576")
    assert d.model == "S6850-56HF"
    assert d.qos.headroom_pool_bytes == 24576 * 208  # S6850-56HF cell_bytes


def test_h3c_watchdog_without_an_action_line_forwards() -> None:
    """[H3C-PFC-CG]: "By default, the device forwards received data packets during the delay
    timer period"; precision defaults to normal (100 ms steps)."""
    globals_ = (
        " priority-flow-control deadlock cos 3 interval 10\n"
        " priority-flow-control deadlock auto-recover cos 3 delay 10"
    )
    wd = h3c(globals_).qos.watchdog
    assert wd is not None
    assert (wd.detect_ms, wd.restore_ms, wd.action, wd.action_printed) == (
        1000,
        1000,
        "forward",
        False,
    )
    wd = h3c(globals_ + "\n priority-flow-control deadlock precision high").qos.watchdog
    assert wd is not None and (wd.detect_ms, wd.restore_ms) == (100, 100)


def test_h3c_wrr_strict_group_is_read() -> None:
    d = h3c(
        "", port=" qos wrr byte-count\n qos wrr be group 1 byte-count 10\n qos wrr cs6 group sp\n"
    )
    assert d.interfaces[0].qos.strict_queues == (6,)


def test_h3c_breakout_ports_with_no_parent_block() -> None:
    """'HundredGigE1/0/1:1' with no 'FourHundredGigE1/0/1' printed (h3c-lag spines)."""
    d = parse_file(FABRICS / "h3c-lag/spine-1.cfg").config.device
    lanes = [p for p in d.interfaces if p.name.startswith("HundredGigE1/0/1:")]
    assert len(lanes) == 4
    assert {(p.speed_gbps, p.breakout_of) for p in lanes} == {(100, "FourHundredGigE1/0/1")}


@pytest.mark.parametrize("name", ["spine-1", "spine-2", "leaf-1", "leaf-2", "leaf-3"])
def test_h3c_corpus_files_parse(name: str) -> None:
    import yaml

    expected = yaml.safe_load((FABRICS / "h3c-lag/expected.yaml").read_text())
    pool = expected["lossless_policy"]["headroom"]["pool_0"][name]
    parsed = parse_file(FABRICS / f"h3c-lag/{name}.cfg")
    d = parsed.config.device
    wd = d.qos.watchdog
    assert wd is not None and wd.action == "forward" and not wd.action_printed
    assert d.qos.no_drop == (3,)
    cells = parsed.config.device.qos.headroom_pool_bytes
    assert cells is not None and cells % pool == 0  # pool cells x the model's cell size


def test_corpus_f3_leaf_4_forwards_beside_ce8851_spines() -> None:
    """hw-v300 F3: leaf-4 (CE6863E) leaves the recovery behaviour at its default, forwarding,
    while CE8851-32CQ8DQ-P spines are on the network [HW-CR dcb pfc deadlock
    recovery-behavior]; leaf-1..3 print 'discard'."""
    from roce_cfg.analysis import lint

    files = [FABRICS / f"hw-v300-mlag/{n}.cfg" for n in ("spine-1", "leaf-3", "leaf-4")]
    found = [f for f in lint(files).findings if f.rule == "RC121"]
    assert [(f.device, f.severity) for f in found] == [("leaf-4", "warning")]
    assert "not printed: the CE6863E-48S8CQ default" in found[0].message
