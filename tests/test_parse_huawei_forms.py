"""Huawei CloudEngine forms real fabrics print, read into the model (each from its source in
vendors/huawei.grammar.yaml and templates/huawei/parse): named and antilocking PFC profiles,
M-LAG and Eth-Trunk lines, dot1q sub-interfaces, 'port split' legs, the AI-service family."""

from __future__ import annotations

from roce_cfg.model.device import DeviceConfig, Interface
from roce_cfg.parse import ParsedConfig, parse_text
from roce_cfg.vendor import Vendor


def _parsed(body: str) -> ParsedConfig:
    text = f"#\nsysname sw\n#\n{body.strip()}\n#\nreturn\n"
    return parse_text(text, vendor=Vendor.HUAWEI).config


def _port(device: DeviceConfig, name: str) -> Interface:
    return next(p for p in device.interfaces if p.name == name)


def _unread(cfg: ParsedConfig) -> list[str]:
    return [u.text for u in cfg.accounting.unread_lines] + [u.text for u in cfg.unread]


PROFILES = """
dcb pfc
 priority 3
#
dcb pfc storage
 priority 4
 priority 2
#
dcb pfc quiet
#
interface 100GE1/0/1
 dcb pfc enable mode manual
#
interface 100GE1/0/2
 dcb pfc enable storage mode manual
#
interface 100GE1/0/3
 dcb pfc enable storage
#
interface 100GE1/0/4
 dcb pfc enable quiet mode auto
#
interface 100GE1/0/5
 description no PFC
"""


def test_each_port_pauses_the_priorities_of_the_profile_it_applies() -> None:
    cfg = _parsed(PROFILES)
    d = cfg.device
    assert _unread(cfg) == []
    assert (_port(d, "100GE1/0/1").qos.pfc, _port(d, "100GE1/0/1").qos.no_drop) == (True, (3,))
    # 'If the command is run more than once, all configurations take effect'
    assert _port(d, "100GE1/0/2").qos.no_drop == (2, 4)
    assert _port(d, "100GE1/0/3").qos.no_drop == (2, 4)
    # a profile without a priority line: 'By default, PFC is enabled for priority queue 3'
    assert _port(d, "100GE1/0/4").qos.no_drop == (3,)
    assert _port(d, "100GE1/0/4").qos.pfc_waits_for_dcbx
    assert not _port(d, "100GE1/0/5").qos.pfc
    assert d.qos.no_drop == (2, 3, 4)


def test_a_profile_priority_line_is_never_taken_for_another_blocks() -> None:
    """The lines reach the templates without their indentation: a later profile's lines, or
    a DFS group's 'priority', must not land in the profile before it."""
    body = "dcb pfc\n#\ndcb pfc roce\n priority 5\n#\ninterface 100GE1/0/1\n dcb pfc enable\n"
    d = _parsed(body).device
    assert _port(d, "100GE1/0/1").qos.no_drop == (3,)


def test_a_profile_the_config_does_not_define_leaves_its_line_unread() -> None:
    cfg = _parsed("dcb pfc roce\n priority 3\n#\ninterface 100GE1/0/1\n dcb pfc enable rcoe\n")
    assert not _port(cfg.device, "100GE1/0/1").qos.pfc
    assert [(u.line, u.text) for u in cfg.unread] == [(8, "dcb pfc enable rcoe")]
    facts = [(f.section, f.port) for f in cfg.accounting.unread_facts]
    assert ("pfc", "100GE1/0/1") in facts


def test_an_antilocking_pfc_profile_is_pfc_on_its_priorities() -> None:
    """[HW-CG] Example for Configuring Antilocking PFC (CE6885-SAN): the 90 km DCI port."""
    cfg = _parsed(
        "interface 100GE1/0/1\n abs-pfc enable myabspfc\n#\n"
        "abs-pfc profile myabspfc\n priority 3 5\n#\nabs-pfc profile none\n"
    )
    qos = _port(cfg.device, "100GE1/0/1").qos
    assert (qos.pfc, qos.no_drop) == (True, (3, 5))
    assert not [u for u in _unread(cfg) if "abs-pfc" in u or "priority" in u]


MLAG = """
dcb pfc
 priority 3 turn-off threshold 20
#
vlan batch 101 to 103 4000
#
stp mode rstp
stp v-stp enable
#
dfs-group 1
 priority 5
 dual-active detection source ip 192.168.10.11 vpn-instance mgmt peer 192.168.10.12
 authentication-mode hmac-sha256 password %+%#Jz9900VJhtG6rcCap/EvAiTMDJVApY6Fb%+%#
#
interface Vlanif101
 ip address 10.101.1.1 255.255.255.0
 mac-address 0000-5e00-0165
 m-lag ip address 10.101.1.2 255.255.255.0
#
interface Eth-Trunk0
 trust dscp
 mode lacp-static
 peer-link 1
 port vlan exclude 1 102
#
interface 100GE1/0/7
 eth-trunk 0
 dcb pfc enable mode manual
"""


def test_mlag_lines_are_read_and_the_dfs_priority_is_no_pfc_priority() -> None:
    """[HW-CG] M-LAG in V-STP mode example; hw-v300-mlag SOURCES.md."""
    cfg = _parsed(MLAG)
    assert _unread(cfg) == []
    d = cfg.device
    # the DFS group's 'priority 5' never reaches the PFC profile: priority 3 by default
    assert _port(d, "100GE1/0/7").qos.no_drop == (3,)
    assert "%+%#" not in cfg.model_dump_json()


def test_a_peer_link_carries_every_vlan_but_those_it_excludes() -> None:
    """[HW-CR] port vlan exclude: a peer-link "is added to all VLANs by default"."""
    d = _parsed(MLAG).device
    assert _port(d, "Eth-Trunk0").trunk_vlans == ((101, 101), (103, 103), (4000, 4000))
    assert _port(d, "100GE1/0/7").trunk_vlans == _port(d, "Eth-Trunk0").trunk_vlans


SPLIT = """
port split dimension interface 400GE1/1/7 split-type 4*100GE
port split dimension interface 400GE 1/2/1 to 400GE 1/2/2 split-type 2*200GE
#
interface 400GE1/1/1
 undo portswitch
#
interface 400GE1/1/7:1
 undo portswitch
 description to_leaf-5
#
interface 400GE1/1/7:4
 shutdown
#
interface 400GE1/2/2:2
 undo portswitch
"""


def test_split_legs_run_at_the_split_speed_and_name_their_parent() -> None:
    """[HW-CR] port split: legs keep the parent's type ('400GE1/1/7:1') and run at the split
    type's speed; the model is still known by its port layout."""
    parsed = parse_text(f"#\nsysname sw\n#\n{SPLIT.strip()}\n#\nreturn\n", vendor=Vendor.HUAWEI)
    cfg = parsed.config
    assert _unread(cfg) == []
    # its ports fit a model of the profile: the first that fits when more than one does
    assert cfg.device.model.startswith("CE9860-4C-EI")
    assert not [n for n in cfg.notes if "no model in vendors" in n]
    d = cfg.device
    legs = {p.name: (p.speed_gbps, p.breakout_of) for p in d.interfaces if p.breakout_of}
    assert legs == {
        "400GE1/1/7:1": (100, "400GE1/1/7"),
        "400GE1/1/7:4": (100, "400GE1/1/7"),
        "400GE1/2/2:2": (200, "400GE1/2/2"),
    }
    assert _port(d, "400GE1/1/1").speed_gbps == 400


def test_a_split_line_without_its_type_is_unread() -> None:
    cfg = _parsed("port split dimension interface 400GE1/1/7\n#\ninterface 400GE1/1/7:1\n")
    assert "port split dimension interface 400GE1/1/7" in _unread(cfg)
    assert ("interfaces", None) in [(f.section, f.port) for f in cfg.accounting.unread_facts]
