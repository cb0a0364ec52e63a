"""Configs roce-cfg did not write, or wrote without the plan beside them: the analysis reads each
switch's own policy and descriptions, never a default that contradicts them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from roce_cfg.analysis import lint
from roce_cfg.generate import generate
from roce_cfg.output import write_all
from tests.helpers import ROOT, SCENARIOS
from tests.helpers import run as cli

DEADLOCK = ROOT / "tests/deadlock"
FAIL = ["--fail-links", "leaf-1:spine-1,leaf-2:spine-2"]


def _configs_only(source: Path, folder: Path) -> Path:
    """The generated configs of an intent, without fabric.json: what a backup folder holds."""
    write_all(folder, {f"{h}.cfg": t for h, t in generate(source).configs.items()})
    return folder


@pytest.mark.parametrize("scenario", ["pod-small", "cluster-mixed", "pod-small-huawei"])
def test_generated_configs_alone_lint_clean(scenario: str, tmp_path: Path) -> None:
    # Without fabric.json: the speeds (200G NICs in 400G cages) and cable lengths come from the
    # port descriptions, the policy from the configs. Was 192 errors + a 2:1 warning on pod-small.
    result = lint([_configs_only(SCENARIOS[scenario], tmp_path)])
    # RC126: roce-cfg's own RGOS/ZXROS lines are in the syntax no source confirms; RC204: its
    # own Comware headroom counts cells of a size no source gives (test_lint)
    bad = [
        f"{f.rule} {f.device} {f.port}"
        for f in result.findings
        if f.severity != "info" and f.rule not in ("RC126", "RC204")
    ]
    assert bad == []


def _chains(result_stdout: str) -> list[str]:
    doc = json.loads(result_stdout)
    return sorted(f["message"].split("PFC deadlock cycle ", 1)[1] for f in doc["findings"])


def test_dscp34_configs_give_the_intents_cycles(tmp_path: Path) -> None:
    intent = DEADLOCK / "valley-dscp34.yaml"
    folder = _configs_only(intent, tmp_path / "pod")
    by_intent = cli("deadlock", str(intent), *FAIL, "--format", "json")
    by_configs = cli("deadlock", str(folder), *FAIL, "--format", "json")
    assert by_intent.exit_code == by_configs.exit_code == 1
    assert len(_chains(by_intent.stdout)) == 2
    assert _chains(by_configs.stdout) == _chains(by_intent.stdout)
    # Naming another class on the command line overrides what the configs say: 26 is lossy here.
    assert cli("deadlock", str(folder), *FAIL, "--roce-dscp", "26").exit_code == 0


def test_dscp34_configs_lint_clean_and_a_switch_with_another_policy_is_named(
    tmp_path: Path,
) -> None:
    folder = _configs_only(DEADLOCK / "valley-dscp34.yaml", tmp_path / "pod")
    # RC204: Comware's headroom counts cells of a size no source gives (test_lint)
    found = lint([folder]).findings
    assert [f for f in found if f.severity != "info" and f.rule != "RC204"] == []
    # leaf-3 keeps the default policy (26 -> 3 no-drop): it differs from its neighbours, whose
    # lossless class 34 is lossy on leaf-3 (RC109, RC306). Their maps agree once the DSCPs left
    # to the default map are counted (34 lands in priority 4 on both, 26 in 3): what differs is
    # the no-drop priority of the link's ends (RC301).
    cfg = folder / "leaf-3.cfg"
    text = cfg.read_text()
    assert " import 34 export 4" in text
    cfg.write_text(
        text.replace(" import 34 export 4", " import 26 export 3")
        .replace("no-drop dot1p 4", "no-drop dot1p 3")
        .replace("dot1p 4 headroom", "dot1p 3 headroom")
    )
    rules = {(f.rule, f.device) for f in lint([folder]).findings if f.severity == "error"}
    assert ("RC109", "leaf-3") in rules
    assert ("RC301", "leaf-3") in rules or ("RC301", "spine-1") in rules


# Hand-written running-configs shaped like real backups (tests/brownfield/<vendor>/): RoCE on
# DSCPs other than 26, no-drop priorities other than 3, omitted defaults, unmanaged sections
# (SNMP, NTP, ACLs, SSH, syslog), management interfaces and VRFs, a trunk, a spare shut port.
# Each vendor's expected findings, every one justified:
CORPUS: dict[str, tuple[dict[str, object], list[tuple[str, str, str | None]]]] = {
    # DSCP 24 -> 4 and 34 -> 3, both priorities no-drop; M-GigabitEthernet in VRF 'mgmt'.
    "h3c": (
        {"lossless": (24, 34), "no_drop": (3, 4)},
        [
            # unmanaged clutter (SNMP, NTP, ACLs, SSH, management port): counted, not read
            ("RC404", "info", None),
            # 0/2's description states neither cable nor speed: one note for the switch...
            ("RC206", "info", None),
            # ...and every headroom line counts cells of a size no source gives (the model is
            # not stated; the S9855-32D standing in has none sourced either): 383 cells on 0/2
            # (sized for 200G) would be short at 400G for cells below 406 B and enough from
            # there, so no shortfall is concluded; one note for the switch, at its largest need
            ("RC204", "warning", None),
            # 0/3 is a trunk to a storage switch carrying the RoCE VLAN 101 with no lossless
            # settings at all: no PFC, DSCP untrusted. (It is read as a switched port carrying
            # VLANs 101 and 200: test_trunk_ports_carry_...) It prints no jumboframe line and
            # no source gives the S9855-32D's default frame limit: its MTU is not judged (no
            # RC113); nor Comware's scheduling of a port with no 'qos wfq' line: whether its
            # CNP queue is strict cannot be verified (RC125, not RC107).
            ("RC102", "error", "FourHundredGigE1/0/3"),
            ("RC125", "warning", "FourHundredGigE1/0/3"),
            ("RC108", "error", "FourHundredGigE1/0/3"),
            # 'balance 8' with no 'max-ecmp-num' line: no source gives the S9855's default cap
            ("RC118", "info", None),
            # 'jumboframe enable 9216' bounds the frame: a 9216-byte packet of the uplink's
            # 'mtu 9216' or of gateway Vlan-interface101 is a 9234-byte frame (issue 33)
            ("RC116", "error", "FourHundredGigE1/0/1"),
            ("RC116", "error", "FourHundredGigE1/0/2"),
            ("RC116", "error", "FourHundredGigE1/0/31"),
        ],
    ),
    # 'dcb pfc' with no priority printed (the default profile: 3), one port in
    # 'dcb pfc enable mode auto', DSCP 24 -> af3; MEth0/0/0 in VRF 'mgmt'.
    "huawei": (
        {"lossless": (24,), "no_drop": (3,)},
        [
            # unmanaged clutter (SNMP, NTP, ACLs, SSH, management port): counted, not read
            ("RC404", "info", None),
            # no 'dcb pfc deadlock-detect' anywhere: on V300 (the header says V300R023C00) the
            # watchdog detects at 100 ms by default [HW-CG Configuring PFC Deadlock Detection],
            # so no RC110 (issue 26: defaults a switch does not print are applied per release)
            # the model guessed from the port layout (CE9860) sets headroom itself
            # 400GE1/1/1 'dcb pfc enable mode auto' with no 'lldp tlv-enable dcbx': PFC is left
            # to a negotiation the port never takes part in
            ("RC122", "error", "400GE1/1/1"),
            # the layout's CE9860-4C-EI stands in for a model the config does not state: whether
            # it sets headroom itself is not judged (RC123), and the headroom in force on the
            # three PFC ports, which print no headroom line, is that unstated model's default:
            # cannot verify, once for the switch at its largest need
            ("RC204", "warning", None),
            # 'jumboframe enable 9216' under 'mtu 9216' (the uplink, Vlanif102's access ports)
            ("RC116", "error", "400GE1/1/1"),
            ("RC116", "error", "400GE1/1/2"),
            ("RC116", "error", "400GE1/4/1"),
        ],
    ),
    # DSCP 34 -> CoS 4, no-drop 4; headroom sized for the described cables if RGOS counts it
    # in bytes: no source gives the unit, nor the generic layout's buffer (RC204, once)
    "ruijie": (
        {"lossless": (34,), "no_drop": (4,)},
        [
            ("RC404", "info", None),  # SNMP, SSH, password encryption: counted, not read
            ("RC204", "warning", None),
        ],
    ),
    # DSCP 24 -> 4 and 34 -> 3; the server port's headroom, read as bytes, is 656 B under the
    # need at the 5 m its description states (136292 B < 136948 B, with an assumed 256 B cell):
    # no source gives the unit ZXROS counts headroom in, so that is RC204's cannot-verify, not
    # an RC201 error per priority (as it was once)
    "zte": (
        {"lossless": (24, 34), "no_drop": (3, 4)},
        [
            ("RC404", "info", None),  # the SNMP location line: counted, not read
            ("RC204", "warning", None),
        ],
    ),
}


UPLINK = {"h3c": "FourHundredGigE1/0/31", "huawei": "400GE1/4/1",
          "ruijie": "FourHundredGigabitEthernet 0/25", "zte": "cdgei-0/1/0/25"}  # fmt: skip


@pytest.mark.parametrize("vendor", sorted(CORPUS))
def test_brownfield_corpus(vendor: str) -> None:
    from roce_cfg.policy import lossless_dscps

    policy, expected = CORPUS[vendor]
    # One switch's backup alone: its BGP peers and its lossless uplink face configs not read,
    # which is said (info: what the user left out), not passed over.
    expected = [*expected, ("RC311", "info", None), ("RC313", "info", UPLINK[vendor])]
    # none of the four backups states its model (RC123: the layout's model stands in)
    expected.append(("RC123", "info", None))
    if vendor in ("ruijie", "zte"):
        # their PFC, trust and map lines are read in a syntax no public source confirms
        expected.append(("RC126", "warning", None))
    result = lint([ROOT / "tests/brownfield" / vendor])
    (view,) = result.views.values()
    assert lossless_dscps(view.device) == policy["lossless"]
    assert view.device.qos.no_drop == policy["no_drop"]
    got = sorted((f.rule, f.severity, f.port) for f in result.findings)
    assert got == sorted(expected)


def test_huawei_default_pfc_profile_fills_what_the_config_omits() -> None:
    from roce_cfg.parse import parse_file

    device = parse_file(ROOT / "tests/brownfield/huawei/bf-leaf-2.cfg").config.device
    auto = next(p for p in device.interfaces if p.name == "400GE1/1/1")
    assert auto.qos.pfc and auto.qos.no_drop == (3,)  # 'dcb pfc enable mode auto', no priority


def test_per_role_cable_lengths_and_a_bad_one(tmp_path: Path) -> None:
    from roce_cfg.analysis.context import parse_cable_lengths

    assert parse_cable_lengths("server=3,fabric=30") == {"server": 3.0, "fabric": 30.0}
    assert parse_cable_lengths("10") == {"*": 10.0}
    for bad in ("rack=3", "server=x", "-1"):
        with pytest.raises(ValueError):
            parse_cable_lengths(bad)
    result = cli("lint", str(ROOT / "tests/brownfield/ruijie"), "--cable-length", "spine=3")
    assert result.exit_code == 2 and "--cable-length" in result.output
    # the H3C port with no cable in its description: a 3 m server cable clears RC206's cable part
    fixed = cli("lint", str(ROOT / "tests/brownfield/h3c"), "--cable-length", "server=3")
    assert "cable length unknown" not in fixed.stdout


@pytest.mark.parametrize(
    ("vendor", "old", "new", "port", "vlans"),
    [
        # [H3C-TPL-B] port link-type trunk / port trunk permit vlan <list> (the corpus as is)
        ("h3c", None, None, "FourHundredGigE1/0/3", (101, 200)),
        # [HW-CG] port link-type trunk / port trunk allow-pass vlan 2 5 to 6
        (
            "huawei",
            " port link-type access\n port default vlan 102\n",
            " port link-type trunk\n port trunk allow-pass vlan 2 5 to 6 102\n",
            "400GE1/1/1",
            (2, 5, 6, 102),
        ),
        # [ZTE-GUIDE] switchport mode trunk / switchport trunk vlan <list>
        (
            "zte",
            "  switchport mode access\n  switchport access vlan 104\n",
            "  switchport mode trunk\n  switchport trunk vlan 104-106,200\n",
            "cdgei-0/1/0/1",
            (104, 105, 106, 200),
        ),
    ],
)
def test_trunk_ports_carry_their_vlan_lists(
    tmp_path: Path, vendor: str, old: str | None, new: str | None, port: str, vlans: tuple[int, ...]
) -> None:
    """Trunks are parsed with the VLANs they permit, which the deadlock analysis floods over."""
    from roce_cfg.model import numbers
    from roce_cfg.parse import parse_file

    (src,) = sorted((ROOT / "tests/brownfield" / vendor).glob("*.cfg"))
    text = src.read_text()
    if old is not None and new is not None:
        assert old in text
        text = text.replace(old, new, 1)
    cfg = tmp_path / src.name
    cfg.write_text(text)
    device = parse_file(cfg).config.device
    (iface,) = [i for i in device.interfaces if i.name == port]
    assert iface.mode == "access"
    # kept as ranges (a trunk of 4,094 VLANs is one pair per port, not 4,094 numbers)
    assert numbers.expand(iface.trunk_vlans) == vlans
