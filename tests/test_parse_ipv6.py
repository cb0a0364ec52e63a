"""The IPv6 underlay as VRP prints it (and, at the end, as Comware, RGOS and ZXROS print it):
interface addresses in both printed shapes, the IPv6 MTU apart from the IP MTU, BGP IPv6 peers,
networks and defaults, IPv6 statics, and links paired by their IPv6 subnets; a line that is no
IPv6 address is unread, never a traceback. The forms and their sources: the IPv6 underlay
entries of vendors/<vendor>.grammar.yaml."""

from __future__ import annotations

from ipaddress import IPv6Address, IPv6Interface, IPv6Network, ip_address

import pytest
import yaml

from roce_cfg import evidence
from roce_cfg.links import infer
from roce_cfg.model import addresses
from roce_cfg.model.device import DeviceConfig
from roce_cfg.parse import ParsedConfig, parse_file, parse_text
from roce_cfg.vendor import Vendor
from tests.helpers import ROOT

FABRIC = ROOT / "tests/brownfield/fabrics/hw-v300-ipv6"


def huawei(body: str, host: str = "sw-1") -> ParsedConfig:
    text = f"#\nsysname {host}\n#\n{body}\n#\nreturn\n"
    return parse_text(text, file=f"{host}.cfg", vendor=Vendor.HUAWEI).config


PORTS = """interface 100GE1/0/1
 undo portswitch
 mtu 9216
 ipv6 enable
 ipv6 address 2001:DB8:0:11::1/127
 ipv6 mtu 9000
#
interface 100GE1/0/2
 undo portswitch
 ipv6 enable
 ipv6 address 2001:DB8:0:12::1 64
 ipv6 address FE80::1 link-local
#
interface 100GE1/0/3
 undo portswitch
 mtu 9216
 ipv6 enable
 ipv6 address auto link-local
 ipv6 address 2001:DB8:0:13::1/127
#
interface 100GE1/0/4
 undo portswitch
 mtu 9216
 ip address 10.1.0.1 255.255.255.254
 ipv6 enable
 ipv6 address 2001:DB8:0:14::1/127
 ipv6 mtu 9000
#
interface Vlanif10
 mtu 9216
 ipv6 enable
 ipv6 address 2001:DB8:10::1/64
#
interface LoopBack0
 ipv6 enable
 ipv6 address 2001:DB8:FFFF::1/128"""


def test_interface_addresses_in_both_printed_shapes() -> None:
    """'X/LEN' (the HW-CG BGP4+ script) and 'X LEN' ([HW-CR] ipv6 address); a link-local
    address, typed or automatic, is no subnet of the switch's."""
    config = huawei(PORTS)
    device = config.device
    assert not config.unread, config.unread
    assert {e.port: e.address for e in device.ipv6_ports} == {
        "100GE1/0/1": IPv6Interface("2001:db8:0:11::1/127"),
        "100GE1/0/2": IPv6Interface("2001:db8:0:12::1/64"),
        "100GE1/0/3": IPv6Interface("2001:db8:0:13::1/127"),
        "100GE1/0/4": IPv6Interface("2001:db8:0:14::1/127"),
    }
    (svi,) = device.vlan_interfaces
    assert svi.ipv4 is None and svi.ipv6 == IPv6Interface("2001:db8:10::1/64")
    assert device.loopback is not None and device.loopback.ipv4 is None
    assert device.loopback.ipv6 == IPv6Interface("2001:db8:ffff::1/128")


def test_the_ipv6_mtu_is_its_own_setting() -> None:
    """VRP keeps 'ipv6 mtu' apart from 'mtu' (1500 when not set, [HW-WEB-IPV6MTU]): a port with
    IPv6 only meets its IPv6 MTU, a dual-stack one the smaller of the two."""
    mtu = {p.name: p.mtu for p in huawei(PORTS).device.interfaces}
    assert mtu["100GE1/0/1"] == 9000  # 'ipv6 mtu 9000' under 'mtu 9216'
    assert mtu["100GE1/0/3"] == 1500  # 'mtu 9216' and no 'ipv6 mtu': IPv6 packets meet 1500
    assert mtu["100GE1/0/4"] == 9000  # IPv4 9216, IPv6 9000
    (svi,) = huawei(PORTS).device.vlan_interfaces
    assert svi.mtu == 1500


def test_an_ipv4_port_is_read_as_before() -> None:
    """No IPv6 line: no IPv6 record, the IP MTU untouched (goldens unchanged)."""
    config = huawei("interface 100GE1/0/1\n undo portswitch\n mtu 9216\n ip address 10.1.0.1 31")
    assert config.device.ipv6_ports == ()
    assert config.device.interfaces[0].mtu == 9216
    assert "ipv6_ports" not in config.device.model_dump()


def test_a_line_that_is_no_global_address_is_unread() -> None:
    """A prefix length past 128, a word that is no address, the unspecified address, and a
    second global address (the model holds one per interface): that line unread (its port's
    addresses then 'cannot verify'), the rest of the file read."""
    for line in (
        "ipv6 address 2001:DB8::1/129",
        "ipv6 address 2001:DB8::G 64",
        "ipv6 address :: 64",
        "ipv6 address 2001:DB8:1::1 64",
    ):
        first = " ipv6 address 2001:DB8::1/127\n" if "DB8:1::" in line else ""
        body = f"interface 100GE1/0/9\n undo portswitch\n{first} {line}\n#\n{PORTS}"
        config = huawei(body)
        assert [u.text for u in config.unread] == [line], line
        assert [f.port for f in config.accounting.unread_facts] == ["100GE1/0/9"]
        assert len(config.device.ipv6_ports) == 4 + bool(first)


def test_forms_not_read_are_unread() -> None:
    """'eui-64' and 'tag' forms of [HW-CR] ipv6 address are not read: unread, not dropped."""
    for line in ("ipv6 address 2001:DB8::/64 eui-64", "ipv6 address 2001:DB8::1/64 tag 5"):
        config = huawei(f"interface 100GE1/0/9\n undo portswitch\n {line}")
        assert [f.lines for f in config.accounting.unread_facts] == [(6,)], line
        assert config.device.ipv6_ports == ()


BGP = """bgp 65101
 router-id 10.0.0.11
 peer 2001:DB8:0:11:: as-number 65000
 peer 2001:DB8:0:11:: description spine-1
 peer 10.1.0.0 as-number 65000
 #
 ipv4-family unicast
  peer 10.1.0.0 enable
 #
 ipv6-family unicast
  network 2001:DB8:10:: 64
  maximum load-balancing 8
  peer 2001:DB8:0:11:: enable
  peer 2001:DB8:0:11:: default-route-advertise"""


def test_bgp_ipv6_peers_networks_and_defaults() -> None:
    """[HW-CR] peer as-number (BGP view) (IPv6), network (BGP-IPv6 unicast address family
    view), peer default-route-advertise (BGP-IPv6 ...): read beside the IPv4 ones."""
    config = huawei(BGP)
    bgp = config.device.bgp
    assert bgp is not None and not config.unread
    assert {(n.address, n.remote_as, n.description) for n in bgp.neighbors} == {
        (IPv6Address("2001:db8:0:11::"), 65000, "spine-1"),
        (ip_address("10.1.0.0"), 65000, ""),
    }
    assert bgp.networks == (IPv6Network("2001:db8:10::/64"),)
    assert bgp.default_to == (IPv6Address("2001:db8:0:11::"),)
    assert bgp.max_paths == 8


def test_ipv6_statics_with_options() -> None:
    """[HW-CR] ipv6 route-static / ipv6 route-static vpn-instance: the options of the IPv4
    form after an IPv6 destination, prefix length and next hop."""
    config = huawei(
        "ipv6 route-static 2001:DB8:5000:: 48 2001:DB8:105::10 preference 70 description nas\n"
        "ipv6 route-static vpn-instance mgmt :: 0 2001:DB8:FFF0::FFFF description oob\n"
        "ipv6 route-static 2001:DB8:6000:: 48 NULL0"
    )
    assert not config.unread, config.unread
    got = [
        (r.prefix, r.next_hop, r.interface, r.vrf, r.preference, r.description)
        for r in config.device.static_routes
    ]
    assert got == [
        (IPv6Network("2001:db8:5000::/48"), IPv6Address("2001:db8:105::10"), "", "", 70, "nas"),
        (IPv6Network("::/0"), IPv6Address("2001:db8:fff0::ffff"), "", "mgmt", None, "oob"),
        (IPv6Network("2001:db8:6000::/48"), None, "NULL0", "", None, ""),
    ]


def test_an_ipv6_static_not_understood_is_unread() -> None:
    config = huawei("ipv6 route-static 10.0.0.0 8 2001:DB8::1")
    assert config.device.static_routes == ()
    assert [u.text for u in config.unread] == ["ipv6 route-static 10.0.0.0 8 2001:DB8::1"]


def _pair(a: str, b: str) -> list[DeviceConfig]:
    port = "interface 100GE1/0/1\n undo portswitch\n ipv6 enable\n ipv6 address {}"
    return [
        huawei(port.format(a), "sw-a").device,
        huawei(port.format(b), "sw-b").device,
    ]


def test_links_pair_by_their_ipv6_subnets() -> None:
    """A /127 or /126 is a link's two ends; a /64 is one where its two addresses are the only
    two read in it (RFC 6164 5.1: the inter-switch /64 operators use); a /128 is none."""
    for a, b in (("2001:DB8::/127", "2001:DB8::1/127"), ("2001:DB8::1/126", "2001:DB8::2/126")):
        (link,) = infer.infer_links(_pair(a, b))
        assert (link.a.device, link.b.device) == ("sw-a", "sw-b")
    (link,) = infer.infer_links(_pair("2001:DB8:1::1/64", "2001:DB8:1::2/64"))
    assert (link.a.port, link.b.port) == ("100GE1/0/1", "100GE1/0/1")
    assert infer.infer_links(_pair("2001:DB8::1/128", "2001:DB8::2/128")) == []
    assert infer.infer_links(_pair("2001:DB8::1/127", "2001:DB8:1::/127")) == []


def test_a_shared_slash_64_is_no_link() -> None:
    """A third address in the /64 (a VLAN interface of a third switch) makes it a segment."""
    devices = _pair("2001:DB8:1::1/64", "2001:DB8:1::2/64")
    devices.append(
        huawei("interface Vlanif10\n ipv6 enable\n ipv6 address 2001:DB8:1::3/64", "c").device
    )
    assert infer.infer_links(devices) == []


def test_the_ipv6_fabric_is_read_whole() -> None:
    """tests/brownfield/fabrics/hw-v300-ipv6: every /127 of expected.yaml is a link (the .100
    pairs too), every BGP session of the global table and the VRF rides one of them."""
    expected = yaml.safe_load((FABRIC / "expected.yaml").read_text())
    devices = [parse_file(FABRIC / f"{name}.cfg").config.device for name in expected["switches"]]
    facts = evidence.gather(devices)
    found = {
        frozenset({f"{k.a.device}:{k.a.port}", f"{k.b.device}:{k.b.port}"}) for k in facts.links
    }
    want = set()
    for link in expected["links"]:
        want.add(frozenset({link["a"], link["b"]}))
        want |= {frozenset({s["a"], s["b"]}) for s in link.get("sub_interfaces", ())}
    assert found == want
    assert len(facts.sessions) == 2 * len(expected["bgp_sessions"])
    assert all(s.link is not None for s in facts.sessions)
    assert all(addresses.key(s.peer) > addresses.V6_TAG for s in facts.sessions)


def test_an_ipv6_only_switch_without_a_router_id_is_read() -> None:
    """No 'router-id' line and no IPv4 loopback to take one from: the file is read (it was
    refused whole), its peers with it, and a note says the router ID is not known; a garbled
    'router-id' line is an unread line of the BGP section (the gate's to act on)."""
    body = "interface LoopBack0\n ipv6 enable\n ipv6 address 2001:DB8::1/128\n#\nbgp 65101\n"
    config = huawei(body + " peer 2001:DB8::2 as-number 65000")
    assert not config.unread
    bgp = config.device.bgp
    assert bgp is not None and [n.remote_as for n in bgp.neighbors] == [65000]
    assert any("router ID is not known" in n for n in config.notes)
    garbled = huawei(body + " router-id 10.0.0.1 x\n peer 2001:DB8::2 as-number 65000")
    assert [(f.section, f.lines) for f in garbled.accounting.unread_facts] == [("bgp", (9,))]


# --- H3C Comware 7, Ruijie RGOS, ZTE ZXROS: the same underlay as each prints it. Comware's
# forms are cited in vendors/h3c.grammar.yaml ([CMW-IPV6-CR], [CMW-BGP6], [CMW-STATIC6]); RGOS
# and ZXROS print the IOS shape, graded unsourced there (RGOS's 'ipv6 address X/LEN' partial).
OTHERS = {
    "h3c": """#
 sysname sw-1
#
interface FourHundredGigE1/0/1
 port link-mode route
 mtu 9216
 ipv6 address 2001:DB8:0:11::1/127
 ipv6 mtu 9000
#
interface FourHundredGigE1/0/2
 port link-mode route
 mtu 9216
 ipv6 address 2001:DB8:0:12::1 64
 ipv6 address FE80::1 link-local
#
interface Vlan-interface10
 mtu 9216
 ipv6 address auto link-local
 ipv6 address 2001:DB8:10::1/64
#
interface LoopBack0
 ipv6 address 2001:DB8:FFFF::1/128
#
bgp 65101
 router-id 10.0.0.11
 peer 2001:DB8:0:11:: as-number 65000
 peer 2001:DB8:0:11:: description spine-1
 #
 address-family ipv6 unicast
  balance 8
  network 2001:DB8:10:: 64
  peer 2001:DB8:0:11:: enable
  peer 2001:DB8:0:11:: default-route-advertise
#
 ipv6 route-static 2001:DB8:5000:: 48 2001:DB8:105::10 preference 70 description nas
 ipv6 route-static vpn-instance mgmt :: 0 2001:DB8:FFF0::FFFF description oob
#
return
""",
    "ruijie": """hostname sw-1
!
interface FourHundredGigabitEthernet 0/1
 no switchport
 mtu 9216
 ipv6 enable
 ipv6 address 2001:DB8:0:11::1/127
!
interface FourHundredGigabitEthernet 0/2
 no switchport
 mtu 9216
 ipv6 address 2001:DB8:0:12::1/64
 ipv6 address FE80::1 link-local
!
interface Vlan 10
 mtu 9216
 ipv6 address 2001:DB8:10::1/64
!
interface Loopback 0
 ipv6 address 2001:DB8:FFFF::1/128
!
router bgp 65101
 bgp router-id 10.0.0.11
 neighbor 2001:DB8:0:11:: remote-as 65000
 neighbor 2001:DB8:0:11:: description spine-1
 address-family ipv6 unicast
  maximum-paths 8
  network 2001:DB8:10::/64
  neighbor 2001:DB8:0:11:: activate
  neighbor 2001:DB8:0:11:: default-originate
 exit-address-family
!
ipv6 route 2001:DB8:5000::/48 2001:DB8:105::10 70 description nas
ipv6 route vrf mgmt ::/0 2001:DB8:FFF0::FFFF description oob
!
end
""",
    "zte": """!<system-config>
hostname sw-1
!</system-config>
!<if-intf>
interface cdgei-0/1/0/1
  mtu 9216
  ipv6 enable
  ipv6 address 2001:DB8:0:11::1/127
  no shutdown
$
interface cdgei-0/1/0/2
  mtu 9216
  ipv6 address 2001:DB8:0:12::1/64
  ipv6 address FE80::1 link-local
  no shutdown
$
interface vlan10
  mtu 9216
  ipv6 address 2001:DB8:10::1/64
$
interface loopback1
  ipv6 address 2001:DB8:FFFF::1/128
$
!</if-intf>
!<bgp>
router bgp 65101
  bgp router-id 10.0.0.11
  neighbor 2001:DB8:0:11:: remote-as 65000
  neighbor 2001:DB8:0:11:: description spine-1
  address-family ipv6
    maximum-paths 8
    network 2001:DB8:10::/64
    neighbor 2001:DB8:0:11:: activate
    neighbor 2001:DB8:0:11:: default-originate
  $
$
!</bgp>
!<static>
ipv6 route 2001:DB8:5000::/48 2001:DB8:105::10 70 description nas
ipv6 route vrf mgmt ::/0 2001:DB8:FFF0::FFFF description oob
!</static>
""",
}
PORTS6 = {
    "h3c": ("FourHundredGigE1/0/1", "FourHundredGigE1/0/2"),
    "ruijie": ("FourHundredGigabitEthernet 0/1", "FourHundredGigabitEthernet 0/2"),
    "zte": ("cdgei-0/1/0/1", "cdgei-0/1/0/2"),
}


def _other(vendor: str, text: str, host: str = "sw-1") -> ParsedConfig:
    return parse_text(text, file=f"{host}.cfg", vendor=Vendor(vendor)).config


@pytest.mark.parametrize("vendor", sorted(OTHERS))
def test_each_vendor_reads_its_ipv6_underlay(vendor: str) -> None:
    """Port, VLAN interface and loopback addresses (a link-local one is no subnet), IPv6 peers
    with their AS and description, the family's network, maximum paths and default sent, and
    IPv6 statics with their options, a VRF's '::/0' among them: every line read."""
    config = _other(vendor, OTHERS[vendor])
    device = config.device
    assert not config.unread and not config.accounting.unread_facts, config.unread
    one, two = PORTS6[vendor]
    assert {e.port: e.address for e in device.ipv6_ports} == {
        one: IPv6Interface("2001:db8:0:11::1/127"),
        two: IPv6Interface("2001:db8:0:12::1/64"),
    }
    (svi,) = device.vlan_interfaces
    assert svi.ipv4 is None and svi.ipv6 == IPv6Interface("2001:db8:10::1/64")
    assert device.loopback is not None
    assert device.loopback.ipv6 == IPv6Interface("2001:db8:ffff::1/128")
    bgp = device.bgp
    assert bgp is not None
    assert [(n.address, n.remote_as, n.description) for n in bgp.neighbors] == [
        (IPv6Address("2001:db8:0:11::"), 65000, "spine-1")
    ]
    assert bgp.networks == (IPv6Network("2001:db8:10::/64"),)
    assert bgp.default_to == (IPv6Address("2001:db8:0:11::"),)
    assert bgp.max_paths == 8
    got = [(r.prefix, r.next_hop, r.vrf, r.preference, r.description) for r in device.static_routes]
    assert got == [
        (IPv6Network("2001:db8:5000::/48"), IPv6Address("2001:db8:105::10"), "", 70, "nas"),
        (IPv6Network("::/0"), IPv6Address("2001:db8:fff0::ffff"), "mgmt", None, "oob"),
    ]


def test_the_ipv6_mtu_of_each_vendor() -> None:
    """Comware's 'ipv6 mtu' [CMW-IPV6-CR] is read (9000 under 'mtu 9216'); without one, as on
    every RGOS and ZXROS port (no source for their 'ipv6 mtu'), IPv6 meets the interface's MTU."""
    mtu = {v: {p.name: p.mtu for p in _other(v, OTHERS[v]).device.interfaces} for v in OTHERS}
    assert mtu["h3c"] == {"FourHundredGigE1/0/1": 9000, "FourHundredGigE1/0/2": 9216}
    assert set(mtu["ruijie"].values()) == set(mtu["zte"].values()) == {9216}


@pytest.mark.parametrize(
    ("vendor", "line"),
    [
        # forms no reader takes: EUI-64, Comware's prefix-number and DHCP forms
        ("h3c", " ipv6 address 2001:DB8:0:13::/64 eui-64"),
        ("h3c", " ipv6 address 1 0:0:0:1::/64"),
        ("h3c", " ipv6 address dhcp-alloc"),
        ("ruijie", " ipv6 address 2001:DB8:0:13::/64 eui-64"),
        ("ruijie", " ipv6 address 2001:DB8:0:13::1 64"),  # the VRP/Comware shape: not RGOS's
        ("ruijie", " ipv6 mtu 9000"),  # no RGOS source: not read, never assumed
        ("zte", "  ipv6 address 2001:DB8:0:13::/64 eui-64"),
        ("zte", "  ipv6 mtu 9000"),
    ],
)
def test_an_ipv6_form_not_read_stays_unread(vendor: str, line: str) -> None:
    """The line is unread (the port's facts then 'cannot verify'), the rest of the file read."""
    one = PORTS6[vendor][0]
    text = OTHERS[vendor]
    anchor = next(ln for ln in text.splitlines() if "ipv6 address 2001:DB8:0:11::1/127" in ln)
    config = _other(vendor, text.replace(anchor, f"{anchor}\n{line}", 1))
    unread = [(f.port, f.lines) for f in config.accounting.unread_facts]
    unread += [(one, (u.line,)) for u in config.unread]
    assert len(unread) == 1 and unread[0][0] == one, unread
    assert len(config.device.ipv6_ports) == 2


def _pair_of(vendor: str, a: str, b: str) -> list[DeviceConfig]:
    """Two switches of ``vendor`` whose first ports hold ``a`` and ``b`` (no description: the
    link can only come from the addresses)."""
    out = []
    for host, addr in (("sw-a", a), ("sw-b", b)):
        text = (
            OTHERS[vendor]
            .replace("2001:DB8:0:11::1/127", addr)
            .replace("2001:DB8:0:12::1", f"2001:DB8:9:{host[-1]}::1")
        )
        out.append(_other(vendor, text.replace("sw-1", host), host).device)
    return out


@pytest.mark.parametrize("vendor", sorted(OTHERS))
def test_each_vendors_links_pair_by_their_ipv6_subnets(vendor: str) -> None:
    """A /127's two ends are a link whatever the vendor; two /128s are none."""
    one = PORTS6[vendor][0]
    (link,) = [
        k
        for k in infer.infer_links(_pair_of(vendor, "2001:DB8::/127", "2001:DB8::1/127"))
        if k.a.port == one
    ]
    assert {link.a.device, link.b.device} == {"sw-a", "sw-b"} and link.b.port == one
    assert not [
        k
        for k in infer.infer_links(_pair_of(vendor, "2001:DB8::/128", "2001:DB8::1/128"))
        if k.a.port == one
    ]
