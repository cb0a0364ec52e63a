"""Huawei CloudEngine forms real fabrics print, read into the model (each from its source in
vendors/huawei.grammar.yaml and templates/huawei/parse): named and antilocking PFC profiles,
M-LAG and Eth-Trunk lines, dot1q sub-interfaces, 'port split' legs, the AI-service family."""

from __future__ import annotations

from pathlib import Path

from roce_cfg.analysis import lint
from roce_cfg.model.device import DeviceConfig, Interface
from roce_cfg.parse import ParsedConfig, parse_text
from roce_cfg.vendor import Vendor
from tests.helpers import ROOT


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


def _plant(files: dict[str, str]) -> dict[str, str]:
    """PFC off on leaf-1's first uplink, the IPv4 MTU of leaf-2's first uplink at 1500."""
    out = dict(files)
    head = "interface 400GE1/4/1\n"
    leaf1 = out["leaf-1.cfg"]
    at = leaf1.index(head)
    out["leaf-1.cfg"] = leaf1[:at] + leaf1[at:].replace(" dcb pfc enable mode manual\n", "", 1)
    leaf2 = out["leaf-2.cfg"]
    at = leaf2.index(head)
    out["leaf-2.cfg"] = leaf2[:at] + leaf2[at:].replace(" mtu 9216\n", " mtu 1500\n", 1)
    return out


def test_faults_under_a_sub_interface_are_found_as_on_the_routed_port(tmp_path: Path) -> None:
    """The same planted faults in the routed form and in the parent + dot1q sub-interface form
    (tests/metamorphic.py) give the same findings, the sub-interface named as its port: PFC
    and no-drop on the parent's link (RC102, RC301, RC306). The IPv4 'mtu 1500' is in neither
    (RC113, RC304): the chip does not check it on forwarded packets ([HW-CR] mtu, vendors/
    huawei.yaml ip_mtu_bounds_forwarding; the IPv6 MTU of a sub-interface is judged: the
    brownfield fabric hw-v300-ipv6, V3). The sub-interface is not a port of its own for PFC, nor
    its parent a port without a link."""
    from tests.metamorphic import FORMS
    from tests.test_metamorphic import _golden, _same, _verdict, _write

    form = next(f for f in FORMS if f.name.startswith("routed port vs parent"))
    routed = _plant(_golden("pod-small-huawei"))
    sub = {n: form.rewrite(t, "huawei") or t for n, t in routed.items()}
    assert any(".3999" in t for t in sub.values())
    before = _verdict(_write(tmp_path / "a", routed), form, rewritten=False)
    after = _verdict(_write(tmp_path / "b", sub), form, rewritten=True)
    _same(after, before, form)
    rules = {key[0] for key in before[0]}
    assert {"RC102", "RC301", "RC306"} <= rules, rules
    assert not rules & {"RC113", "RC304"}
    assert not rules & {"RC310", "RC311", "RC312", "RC313"}


SUB = """
interface 400GE1/1/1
 undo portswitch
 description to_spine-1
 ip address 10.1.0.1 255.255.255.254
 trust upstream ds1
 dcb pfc enable mode manual
 qos drr 0 to 5
 jumboframe enable 9238
#
interface 400GE1/1/1.100
 description tenant-b_to_spine-1
 dot1q termination vid 100
 ip binding vpn-instance tenant-b
 ip address 10.100.0.1 255.255.255.254
 mtu 9000
#
interface 400GE1/1/2
 undo portswitch
 shutdown
#
interface 400GE1/1/2.7
 dot1q termination vid 7
 ip address 10.100.0.3 255.255.255.254
"""


def test_a_sub_interface_rides_its_port() -> None:
    """[HW-CR] dot1q termination vid, ip binding vpn-instance: a Layer 3 sub-interface whose
    PFC, scheduling, speed and frame limit are its parent's (those commands exist in the
    physical views only), its address, VRF and MTU its own; the model is still known by its
    port layout."""
    cfg = _parsed(SUB)
    assert _unread(cfg) == []
    assert not [n for n in cfg.notes if "no model in vendors" in n]
    d = cfg.device
    parent, sub = _port(d, "400GE1/1/1"), _port(d, "400GE1/1/1.100")
    assert (d.parent_of(sub.name), d.vrf_of(sub.name)) == ("400GE1/1/1", "tenant-b")
    assert (sub.mode, sub.mtu) == ("routed", 9000)
    assert str(sub.ipv4) == "10.100.0.1/31" and sub.description == "tenant-b_to_spine-1"
    assert (sub.speed_gbps, sub.frame_bytes) == (parent.speed_gbps, 9238)
    assert (sub.qos.pfc, sub.qos.no_drop, sub.qos.strict_queues) == (True, (3,), (6, 7))
    assert sub.qos.trust_dscp  # a Layer 3 interface trusts DSCP ([HW-CR] trust)
    assert (d.parent_of(parent.name), d.vrf_of(parent.name)) == (None, "")
    # a sub-interface of a port that is shut is down with it
    assert _port(d, "400GE1/1/2.7").shutdown


def _switch(name: str, asn: int, me: int, peer: int, asn_peer: int, pfc: bool) -> str:
    """A switch of two, joined by 400GE1/1/1 (public /31) and its dot1q sub-interface .100 in
    the VRF tenant-b (another /31): hw-v300-ipv6's leaf-3 uplink, in IPv4."""
    enable = " dcb pfc enable mode manual\n" if pfc else ""
    return (
        f"#\nsysname {name}\n#\ndcb pfc\n priority 3\n#\ndiffserv domain ds1\n"
        " ip-dscp-inbound 26 phb af3 green\n ip-dscp-inbound 48 phb cs6 green\n#\n"
        f"interface 400GE1/1/1\n undo portswitch\n description to_{'b' if me == 0 else 'a'}\n"
        f" mtu 9000\n ip address 10.0.0.{me} 255.255.255.254\n trust upstream ds1\n{enable}"
        " qos drr 0 to 5\n#\n"
        f"interface 400GE1/1/1.100\n description tenant-b_to_{'b' if me == 0 else 'a'}\n"
        " dot1q termination vid 100\n ip binding vpn-instance tenant-b\n"
        f" ip address 10.100.0.{me} 255.255.255.254\n mtu 9000\n#\n"
        f"interface LoopBack0\n ip address 10.255.0.{me + 1} 255.255.255.255\n#\n"
        f"bgp {asn}\n router-id 10.255.0.{me + 1}\n peer 10.0.0.{peer} as-number {asn_peer}\n"
        f" #\n ipv4-family unicast\n  peer 10.0.0.{peer} enable\n#\nreturn\n"
    )


def test_a_vrf_sub_interface_pair_is_no_extra_fabric_link(tmp_path: Path) -> None:
    """Its ports' own link carries the lossless judgement once (RC306 on the port without
    PFC, not again on the sub-interface), it is no link without BGP (its sessions are the
    VRF's), no port is left without a link, and the deadlock analysis (the public table)
    does not route over it."""
    import json

    from roce_cfg import evidence
    from roce_cfg.parse import parse_file
    from tests.helpers import run

    (tmp_path / "a.cfg").write_text(_switch("a", 65000, 0, 1, 65001, pfc=True))
    (tmp_path / "b.cfg").write_text(_switch("b", 65001, 1, 0, 65000, pfc=False))
    devices = [parse_file(tmp_path / f"{n}.cfg").config.device for n in "ab"]
    links = {(k.a.port, k.b.port, k.kind, k.vrf) for k in evidence.gather(devices).links}
    assert links == {
        ("400GE1/1/1", "400GE1/1/1", "l3-port", ""),
        ("400GE1/1/1.100", "400GE1/1/1.100", "l3-sub", "tenant-b"),
    }
    res = run("lint", str(tmp_path), "--format", "json")
    found = [(f["rule"], f["device"], f.get("port")) for f in json.loads(res.stdout)["findings"]]
    assert ("RC306", "b", "400GE1/1/1") in found
    assert not [f for f in found if (f[2] or "").endswith(".100")], found
    assert not [f for f in found if f[0] in ("RC310", "RC311", "RC312", "RC313")], found
    dead = json.loads(run("deadlock", str(tmp_path), "--format", "json").stdout)["summary"]
    assert (dead["links"], dead["verdict"]) == (1, "no cycle")


AI = """
dcb pfc
 priority 4
#
interface 100GE1/0/1
 iqcn enable
 long-distance mode level-10
 dcb pfc enable mode manual
#
interface 100GE1/0/2
 long-distance mode level-100
 dcb pfc enable mode manual
#
ai-service
 #
 ai-ecn
  ai-ecn enable
  assign queue 4
 #
 iqcn
  iqcn enable
  assign queue 3
  rpg-time-reset 400
"""


def test_ai_ecn_marks_its_queue_on_every_pfc_port_at_thresholds_the_switch_sets() -> None:
    """[HW-CG] Configuring AI ECN for Lossless Queues; iQCN's own 'assign queue' is not AI
    ECN's; the long-distance level bounds the link's length ([HW-CR] long-distance mode)."""
    cfg = _parsed(AI)
    assert _unread(cfg) == []
    d = cfg.device
    assert [(e.queue, e.unit) for e in d.qos.ecn] == [(4, "device")]
    assert _port(d, "100GE1/0/1").qos.ecn_queues == (4,)
    assert (d.distance_of("100GE1/0/1"), d.distance_of("100GE1/0/2")) == (
        10_000,
        100_000,
    )


def test_ai_ecn_assigned_but_not_enabled_marks_nothing() -> None:
    cfg = _parsed(AI.replace("  ai-ecn enable\n", ""))
    assert cfg.device.qos.ecn == () and _port(cfg.device, "100GE1/0/1").qos.ecn_queues == ()


def test_lint_judges_headroom_for_the_long_distance_level(tmp_path: Path) -> None:
    """RC103 sees AI ECN's queue; headroom is judged for the level's longest link where
    nothing states the cable's length (the 90 km link of [HW-CG] Example for Configuring
    Antilocking PFC is 'level-100')."""
    import json

    from tests.helpers import run

    board = "device board 1 board-type CE8851-32CQ8DQ-P"  # RC204 names a stated model's need
    (tmp_path / "sw.cfg").write_text(f"#\nsysname sw\n#\n{board}\n#\n{AI.strip()}\n#\nreturn\n")
    found = json.loads(run("lint", str(tmp_path), "--format", "json").stdout)["findings"]
    assert not [f for f in found if f["rule"] == "RC103"]
    (room,) = [f["message"] for f in found if f["rule"] == "RC204"]  # one note for the switch
    assert "(100GE1/0/2, 100G, 100000 m cable (the port's long-distance mode" in room, room


def test_a_buffer_optimisation_leaves_the_headroom_budget_unverified() -> None:
    """'buffer optimization mode long-distance' re-partitions the buffer by rules in no source:
    the line is unread (buffers), so no rule judges the pool against the model's figures."""
    cfg = _parsed(AI + " #\n buffer optimization mode long-distance\n")
    assert "buffer optimization mode long-distance" in _unread(cfg)
    assert ("buffers", None) in [(f.section, f.port) for f in cfg.accounting.unread_facts]


def test_a_documentation_note_after_a_command_is_not_part_of_it() -> None:
    """CloudEngine guide scripts print '<command>    //<note>': no switch does."""
    note = "    //Supported only by the CE6855-48XS8CQ, CE6885."
    body = f"dcb pfc dscp-mapping enable slot 1{note}\n#\ninterface 100GE1/0/1\n"
    cfg = _parsed(body + " description see http://wiki/a //b\n")
    assert _unread(cfg) == []
    assert _port(cfg.device, "100GE1/0/1").description == "see http://wiki/a //b"


def test_a_port_group_is_membership_read_and_silences_no_rule() -> None:
    """[HW-CR] port-group, group-member: a command typed in the group applies to each member,
    which prints it; the group's own lines are membership, read (section interfaces)."""
    path = ROOT / "tests/wild/huawei/ce-doc-pfc-deadlock-leaf1.cfg"
    cfg = parse_text(path.read_text(), vendor=Vendor.HUAWEI).config
    assert cfg.accounting.unread == 0 and _unread(cfg) == []
    found = lint([path]).findings
    assert [f.line for f in found if f.rule == "RC131"] == [26]
    assert not [f for f in found if f.rule == "RC405"]


SCHEDULED = """
diffserv domain ds1
 ip-dscp-inbound 26 phb af3 green
 ip-dscp-inbound 48 phb cs6 green
#
interface 100GE1/0/1
 undo portswitch
 trust dscp
 dcb pfc enable mode manual
 qos drr 0 to 5
 qos queue 3 ecn
#
interface 100GE1/0/2
 description spare: no scheduling line, every queue PQ by default
"""


def test_the_strict_queues_of_the_switch_are_its_pfc_ports(tmp_path: Path) -> None:
    """A spare port at CloudEngine's default (every queue PQ) does not make every queue strict
    for the switch: the CNP DSCP found from the config stays the lossy DSCP whose queue the PFC
    ports run strict (48, queue 6), not the RoCE DSCP."""
    cfg = _parsed(SCHEDULED)
    d = cfg.device
    assert _port(d, "100GE1/0/2").qos.strict_queues == tuple(range(8))
    assert d.qos.strict_queues == (6, 7)
    path = tmp_path / "sw.cfg"
    path.write_text(f"#\nsysname sw\n#\n{SCHEDULED.strip()}\n#\nreturn\n")
    assert "RC107" not in {f.rule for f in lint([path]).findings}
