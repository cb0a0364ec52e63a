"""The emulators answer as the vendor does: a line the grammar refuses gets the vendor's error
text, views are tracked as the switch tracks them, unsourced commands need the named mode."""

from __future__ import annotations

from pathlib import Path

import pytest

from roce_cfg.lab.cli import Session, Switch
from roce_cfg.platforms.profile import load_profile
from roce_cfg.vendor import Vendor
from tests.helpers import golden_meta


def _session(vendor: Vendor, model: str = "", unsourced: bool = True) -> Session:
    profile = load_profile(vendor)
    s = Session(Switch.start("sw", profile, model=model, unsourced=unsourced))
    for line in profile.dialect.enter:
        s.feed(line)
    return s


# (vendor, model, lines to reach the view, the broken line, the vendor's error text)
BROKEN = [
    (
        Vendor.HUAWEI,
        "CE8851-32CQ8DQ-P",
        ["dcb pfc"],
        "priority 3 deadlok-detect time 1",
        "Error: Wrong parameter found at '^' position.",
    ),
    (
        Vendor.HUAWEI,
        "CE8851-32CQ8DQ-P",
        [],
        "dcb pfc deadlock-detect interval 100",
        "Error: Unrecognized command found at '^' position.",
    ),
    (
        Vendor.HUAWEI,
        "CE8851-32CQ8DQ-P",
        ["dcb pfc"],
        "priority 6",
        "Error: Wrong parameter found at '^' position.",
    ),
    (
        Vendor.HUAWEI,
        "CE8851-32CQ8DQ-P",
        ["interface 100GE1/0/1", "undo portswitch"],
        "trust dscp",
        "Error: Unrecognized command found at '^' position.",
    ),
    (
        Vendor.H3C,
        "S9855-32D",
        ["qos map-table dot1p-lp"],
        "priority-flow-control deadlock precision normal",
        "% Unrecognized command found at '^' position.",
    ),
    (
        Vendor.H3C,
        "S9855-32D",
        ["qos wred queue table ROCE"],
        "queue 9 ecn",
        "% Wrong parameter found at '^' position.",
    ),
    (
        Vendor.RUIJIE,
        "",
        [],
        "mls qos map dscp-cos 26 48 to 3 6",
        "% Invalid input detected at '^' marker.",
    ),
    (
        Vendor.ZTE,
        "",
        ["router bgp 65001", "address-family ipv4"],
        "maximum-paths 8",
        "%Error 20200: Invalid input detected.",
    ),
]


@pytest.mark.parametrize(("vendor", "model", "path", "line", "error"), BROKEN)
def test_broken_line_gets_the_vendors_error(
    vendor: Vendor, model: str, path: list[str], line: str, error: str
) -> None:
    s = _session(vendor, model)
    for step in path:
        answer = s.feed(step)
        assert "Error" not in answer and "%" not in answer, answer
    answer = s.feed(line)
    assert error in answer, answer
    assert line not in s.sw.running.render()


def test_a_huawei_port_stays_layer3_when_entered_again() -> None:
    s = _session(Vendor.HUAWEI, "CE6885-48YS8CQ")
    for line in ["interface 25GE1/0/1", "undo portswitch", "quit", "interface 25GE1/0/1"]:
        assert "Error" not in s.feed(line)
    assert "Error: Unrecognized command" in s.feed("trust dscp")
    assert "Error" not in s.feed("trust upstream ROCE")
    assert "Error" not in s.feed("portswitch")
    assert "Error" not in s.feed("trust dscp")  # Layer 2 again


def test_unsourced_commands_need_the_unsourced_mode() -> None:
    line = "mls qos map dscp-cos 26 to 3"
    assert "%" not in _session(Vendor.RUIJIE).feed(line)
    strict = _session(Vendor.RUIJIE, unsourced=False)
    assert "% Unknown command." in strict.feed(line)
    # a sourced Ruijie command is accepted either way
    assert "%" not in strict.feed("vlan 10")


def test_lab_names_the_unsourced_mode() -> None:
    from roce_cfg.lab.run import unsourced_note

    switches = [
        Switch.start("a", load_profile(Vendor.RUIJIE)),
        Switch.start("b", load_profile(Vendor.HUAWEI)),
    ]
    note = unsourced_note(switches)
    assert note is not None and '"unsourced" mode' in note and "ruijie (" in note
    # Huawei's one unsourced command: VRP V200's one-line watchdog (read in backups, never sent)
    assert "huawei (1 commands)" in note
    assert unsourced_note([Switch.start("c", load_profile(Vendor.RUIJIE), unsourced=False)]) is None


GOLDEN = sorted((Path(__file__).parent.parent / "golden").glob("*/*.cfg"))


def _one_per_kind() -> list[Path]:
    seen: set[tuple[str, str, str]] = set()
    out = []
    for cfg in GOLDEN:
        vendor, _, role = golden_meta(cfg)
        key = (cfg.parent.name, vendor, role)
        if key not in seen:
            seen.add(key)
            out.append(cfg)
    return out


@pytest.mark.parametrize("cfg", _one_per_kind(), ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_golden_push_into_a_strict_emulator_converges(cfg: Path) -> None:
    """Every remediation line of a push from an empty switch is accepted in the view it is
    typed in, with the model's limits; the switch then holds the golden config."""
    from roce_cfg.deploy.tree import Tree, remediation

    vendor_name, model, _ = golden_meta(cfg)
    vendor = Vendor(vendor_name)
    s = _session(vendor, model)
    profile = s.sw.profile
    intended = Tree.from_text(cfg.read_text(), profile)
    for line in remediation(s.sw.running, intended):
        answer = s.feed(line)
        assert "Error" not in answer and "%" not in answer, (line, answer)
    for line in profile.dialect.commit.commands:  # VRP: the candidate becomes running
        s.feed(line)
    assert remediation(s.sw.running, intended) == []


def test_a_line_the_grammar_does_not_know_is_refused_with_the_reason() -> None:
    s = _session(Vendor.H3C, "S9855-32D")
    answer = s.feed("ntp-service unicast-server 10.0.0.1")
    assert "% Unrecognized command found at '^' position." in answer
    assert "roce-cfg lab: unknown command: no grammar entry accepts it; --lenient" in answer
    assert "ntp-service" not in s.sw.running.render()


def test_lenient_mode_takes_unknown_but_plausible_lines_only() -> None:
    """'roce-cfg lab --lenient': a valid line roce-cfg has no grammar for goes in; a line the
    grammar knows stays judged (a wrong parameter, a wrong undo form), and so does garbage."""
    profile = load_profile(Vendor.H3C)
    s = Session(Switch.start("sw", profile, model="S9855-32D", lenient=True))
    s.feed("system-view")
    assert "%" not in s.feed("ntp-service unicast-server 10.0.0.1")
    assert "ntp-service unicast-server 10.0.0.1" in s.sw.running.render()
    assert "%" not in s.feed("qos wred queue table ROCE")
    assert "% Wrong parameter" in s.feed("queue 9 ecn")
    assert "% Wrong parameter" in s.feed("undo queue 3 low-limit 1 high-limit 2")
    assert "%" not in s.feed("quit")
    assert "% Unrecognized" in s.feed("9999 not a command")  # implausible: refused
    assert "% Unrecognized" in s.feed("x" * 600)


def test_comware_peer_password_is_a_known_line_now() -> None:
    """[HPE-5710-L3] peer password (BGP instance view): accepted without --lenient."""
    s = _session(Vendor.H3C, "S9855-32D", unsourced=False)
    for line in ("bgp 65101", "peer 10.1.0.2 as-number 65000"):
        assert "%" not in s.feed(line)
    assert "%" not in s.feed("peer 10.1.0.2 password simple s3cret")
    assert "%" not in s.feed("peer 10.1.0.2 password cipher $c$3$abc==")
    assert "% Wrong parameter" in s.feed("peer 10.1.0.2 password plain s3cret")
    assert "%" not in s.feed("undo peer 10.1.0.2 password")
    assert "password" not in s.sw.running.render()
