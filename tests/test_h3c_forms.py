"""H3C Comware forms real fabrics print: aggregates and members giving each other
their settings, M-LAG and its DRNI names, interface ranges, breakout splits, WRR weights, trunk
VLANs removed, VRF-bound ports, BGP peer groups and a capture's status line after 'return'.
Each form's source is cited beside its grammar entry (vendors/h3c.grammar.yaml)."""

from __future__ import annotations

from pathlib import Path

import pytest

from roce_cfg.analysis import lint
from roce_cfg.errors import InputError
from roce_cfg.model.device import DeviceConfig, Interface
from roce_cfg.parse import Parsed, parse_file, parse_text
from roce_cfg.vendor import Vendor
from tests.helpers import ROOT

FABRICS = ROOT / "tests/brownfield/fabrics"


def _h3c(body: str) -> str:
    return f"#\n sysname sw\n#\n lldp global enable\n#\n{body.strip()}\n#\nreturn\n"


def _parsed(body: str) -> Parsed:
    return parse_text(_h3c(body), vendor=Vendor.H3C)


def _ports(device: DeviceConfig) -> dict[str, Interface]:
    return {p.name: p for p in device.interfaces}


def test_drni_names_read_as_their_m_lag_commands() -> None:
    device = parse_file(FABRICS / "h3c-drni/leaf-1.cfg").config.device
    ipp = device.aggregate("Bridge-Aggregation100")
    assert ipp is not None and ipp.peer_link
    assert [device.aggregate(f"Bridge-Aggregation{n}").mlag_group for n in (1, 8, 24)] == [  # type: ignore[union-attr]
        1,
        8,
        24,
    ]
    assert device.mlag is not None
    assert (device.mlag.system_mac, device.mlag.system_number, device.mlag.system_priority) == (
        "00e0-fc0d-0a01",
        1,
        123,
    )
    assert str(device.mlag.keepalive_destination) == "10.254.10.2"
    assert device.mlag.keepalive_vrf == "drni-keepalive"
    assert device.vrf_of("Route-Aggregation1024") == "drni-keepalive"


def test_members_keep_their_own_settings_and_the_aggregate_takes_them() -> None:
    device = parse_file(FABRICS / "h3c-drni/leaf-4.cfg").config.device
    ports = _ports(device)
    # the member's own 'jumboframe enable 9416' stands: the aggregate prints no frame limit
    member = ports["HundredGigE1/0/1"]
    assert (member.frame_bytes, member.mtu, member.qos.trust_dscp) == (9416, 9394, True)
    bond = device.aggregate("Bridge-Aggregation1")
    assert bond is not None
    assert set(bond.member_settings) == {"trust_dscp", "strict_queues", "ecn_queues", "frame_bytes"}
    assert (ports["Bridge-Aggregation1"].frame_bytes, ports["Bridge-Aggregation1"].mtu) == (
        9416,
        9394,
    )
    assert ports["Bridge-Aggregation1"].qos.trust_dscp
    # D3: the one member of Bridge-Aggregation22 trusts 802.1p: so does its aggregate
    assert not ports["Twenty-FiveGigE1/0/20:2"].qos.trust_dscp
    assert not ports["Bridge-Aggregation22"].qos.trust_dscp
    # a Route-Aggregation prints the IP MTU: its members carry it, and their own frame limit
    assert (ports["HundredGigE1/0/29"].mtu, ports["HundredGigE1/0/29"].frame_bytes) == (9000, 9416)


def test_an_aggregates_printed_settings_are_its_members() -> None:
    ports = _ports(parse_file(FABRICS / "h3c-lag/leaf-1.cfg").config.device)
    # the peer-link prints 'jumboframe enable 9216': its members' frames and packets follow
    for name in ("Bridge-Aggregation100", "HundredGigE1/0/55", "HundredGigE1/0/56"):
        assert (ports[name].frame_bytes, ports[name].mtu) == (9216, 9194), name
    assert ports["Twenty-FiveGigE1/0/1"].qos.trust_dscp
    assert ports["Twenty-FiveGigE1/0/1"].qos.strict_queues == (6,)


def test_d3_is_reported_on_the_member_that_trusts_dot1p() -> None:
    found = lint([FABRICS / "h3c-drni"]).findings
    rc108 = [(f.device, f.port) for f in found if f.rule == "RC108"]
    assert rc108 == [("leaf-4", "Twenty-FiveGigE1/0/20:2")]


def test_a_queue_in_a_weighted_group_is_not_strict() -> None:
    port = _ports(
        _parsed(
            "interface HundredGigE1/0/1\n qos wrr byte-count\n qos wrr be group 1 byte-count 10\n"
            " qos wrr cs6 group 1 byte-count 5\n qos wrr cs7 group sp"
        ).config.device
    )["HundredGigE1/0/1"]
    assert port.qos.strict_queues == (7,)


def test_a_weighted_line_naming_no_queue_is_unread() -> None:
    parsed = _parsed("interface HundredGigE1/0/1\n qos wfq nosuch group 1 byte-count 10")
    assert [u.text for u in parsed.config.unread] == ["qos wfq nosuch group 1 byte-count 10"]


def test_undo_permit_removes_vlans_from_the_trunk() -> None:
    ports = _ports(
        _parsed(
            "vlan 1\n#\nvlan 201\n#\nvlan 4000\n#\ninterface HundredGigE1/0/1\n"
            " port link-type trunk\n port trunk permit vlan all\n undo port trunk permit vlan 1"
        ).config.device
    )
    assert ports["HundredGigE1/0/1"].trunk_vlans == ((201, 201), (4000, 4000))


def test_interface_range_lines_apply_to_each_port() -> None:
    parsed = _parsed(
        "interface range HundredGigE1/0/1 to HundredGigE1/0/3 HundredGigE1/0/5\n"
        " qos trust dscp\n priority-flow-control enable\n priority-flow-control no-drop dot1p 3\n"
        "#\ninterface HundredGigE1/0/1\n qos wfq cs6 group sp\n#\ninterface HundredGigE1/0/4"
    )
    ports = _ports(parsed.config.device)
    for name in ("HundredGigE1/0/1", "HundredGigE1/0/2", "HundredGigE1/0/3", "HundredGigE1/0/5"):
        assert (
            ports[name].qos.pfc and ports[name].qos.trust_dscp and ports[name].qos.no_drop == (3,)
        )
    assert not ports["HundredGigE1/0/4"].qos.pfc
    assert ports["HundredGigE1/0/1"].qos.strict_queues == (6,)
    assert parsed.config.accounting.unread == 0


def test_a_saved_range_name_alone_sets_nothing() -> None:
    parsed = parse_file(FABRICS / "h3c-drni/leaf-1.cfg")
    assert parsed.config.accounting.unread == 0
    assert not [p for p in parsed.config.device.interfaces if "range" in p.name]


@pytest.mark.parametrize(
    "span",
    ["HundredGigE1/0/8 to HundredGigE1/0/1", "HundredGigE1/0/1 to FortyGigE1/0/4",
     "HundredGigE1/0/1 to HundredGigE1/0/99999", "Vlan-interface1"],
)  # fmt: skip
def test_a_range_naming_no_ports_is_one_unread_line(span: str) -> None:
    parsed = _parsed(f"interface range {span}\n priority-flow-control enable")
    assert [u.line for u in parsed.config.unread] == [6]
    assert not any(p.qos.pfc for p in parsed.config.device.interfaces)
    # its lines are every port's: the whole switch is not verified (the gate)
    facts = parsed.config.accounting.unread_facts
    assert facts and all(f.port is None for f in facts)


def test_a_split_port_carries_nothing_and_names_its_legs_parent() -> None:
    ports = _ports(
        _parsed(
            "interface HundredGigE1/0/20\n using twenty-fivegige\n#\n"
            "interface Twenty-FiveGigE1/0/20:1\n port access vlan 1\n#\n"
            "interface Twenty-FiveGigE1/0/20:2\n port access vlan 1"
        ).config.device
    )
    assert ports["HundredGigE1/0/20"].shutdown
    assert ports["Twenty-FiveGigE1/0/20:1"].breakout_of == "HundredGigE1/0/20"
    assert ports["Twenty-FiveGigE1/0/20:2"].speed_gbps == 25


def test_a_leg_of_another_speed_has_no_guessed_parent() -> None:
    # the leaves' model is unknown: no listed 400G cage splits into 25G legs
    ports = _ports(parse_file(FABRICS / "h3c-drni/leaf-1.cfg").config.device)
    assert ports["Twenty-FiveGigE1/0/20:1"].breakout_of is None
    spine = _ports(parse_file(FABRICS / "h3c-drni/spine-1.cfg").config.device)
    assert spine["HundredGigE1/0/1:1"].breakout_of == "FourHundredGigE1/0/1"


def test_peer_group_members_are_sessions() -> None:
    bgp = _parsed(
        "bgp 65001\n router-id 10.255.0.1\n group SPINES external\n"
        " peer SPINES as-number 65100\n group IBG internal\n group BARE\n"
        " peer 10.0.0.1 group SPINES\n peer 10.0.0.3 group IBG\n peer 10.0.0.7 group BARE\n"
        " peer 10.0.0.5 group SPINES as-number 65200\n peer 10.0.0.9 as-number 65300\n"
        " peer 10.0.0.9 group SPINES\n #\n address-family ipv4 unicast\n  peer SPINES enable"
    ).config.device.bgp
    assert bgp is not None
    assert {str(n.address): n.remote_as for n in bgp.neighbors} == {
        "10.0.0.1": 65100,
        "10.0.0.3": 65001,
        "10.0.0.5": 65200,
        "10.0.0.7": 65001,  # a group created without a type is IBGP
        "10.0.0.9": 65300,
    }


def test_an_external_group_without_an_as_leaves_its_peer_unread() -> None:
    parsed = _parsed("bgp 65001\n router-id 10.255.0.1\n group E external\n peer 10.0.0.1 group E")
    assert parsed.config.device.bgp is not None and not parsed.config.device.bgp.neighbors
    assert [u.text for u in parsed.config.unread] == ["peer 10.0.0.1 group E"]


def test_a_status_line_after_return_is_a_captures_residue() -> None:
    text = _h3c("interface HundredGigE1/0/1") + "<sw>\n✅ 1/1 done (5583ms)\n"
    parsed = parse_text(text, vendor=Vendor.H3C)
    assert any("after the config's closing line" in n for n in parsed.config.notes)


@pytest.mark.parametrize(
    "after",
    [" port link-mode route\n", "interface HundredGigE1/0/2\n", "a\nb\nc\nd\ne\nf\n"],
)
def test_configuration_after_return_is_still_a_file_not_whole(after: str) -> None:
    with pytest.raises(InputError, match="truncated"):
        parse_text(_h3c("interface HundredGigE1/0/1") + after, vendor=Vendor.H3C)


_VRF_FABRIC = """
interface Route-Aggregation1024
 ip binding vpn-instance keepalive
 ip address 10.254.10.1 255.255.255.252
#
interface HundredGigE1/0/1
 port link-mode route
 ip address 10.1.1.1 255.255.255.254
 qos trust dscp
#
interface HundredGigE1/0/2
 port link-mode route
 description to_border-fw-1
 ip address 10.9.1.0 255.255.255.254
#
interface HundredGigE1/0/3
 port link-mode route
 ip address 10.1.1.3 255.255.255.254
#
interface HundredGigE1/0/27
 port link-mode route
 port link-aggregation group 1024
#
interface HundredGigE1/0/5
 port access vlan 1
 qos trust dscp
 priority-flow-control enable
 priority-flow-control no-drop dot1p 3
#
bgp 65001
 router-id 10.255.0.1
 peer 10.1.1.2 as-number 65100
 peer 10.254.10.2 as-number 65001
"""


def test_ports_that_carry_no_roce_are_not_judged_as_roce_ports(tmp_path: Path) -> None:
    (tmp_path / "sw.cfg").write_text(_h3c(_VRF_FABRIC))
    found = {(f.rule, f.port) for f in lint([tmp_path / "sw.cfg"]).findings}
    # trust without PFC: a RoCE port missing PFC
    assert ("RC102", "HundredGigE1/0/1") in found
    # facing a BGP neighbour, no PFC or trust: a fabric link
    assert ("RC108", "HundredGigE1/0/3") in found
    # the keepalive in its own VPN instance (a session on its subnet notwithstanding) and the
    # firewall port (no BGP neighbour on its subnet): none
    quiet = ("Route-Aggregation1024", "HundredGigE1/0/27", "HundredGigE1/0/2")
    assert not [f for f in found if f[1] in quiet]
