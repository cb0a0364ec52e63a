"""Undo forms come from the grammar (issue 33): every command's undo form, rendered from the
grammar with a real line's values, is accepted by the emulator and takes the line away; a
negation the grammar does not list (the whole line with its values, where the source prints
the form without them) is refused."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
import yaml

from roce_cfg.deploy.tree import Node, Tree, remediation
from roce_cfg.grammar import Grammar, load_grammar
from roce_cfg.intent.models import Vendor
from roce_cfg.lab.cli import Session, Switch
from roce_cfg.platforms.profile import load_profile
from tests.helpers import ROOT, golden_meta


@dataclass(frozen=True)
class Sample:
    vendor: Vendor
    model: str
    path: tuple[str, ...]  # view openers, then the lines that switch the view (undo portswitch)
    line: str
    command: str

    def __str__(self) -> str:
        return f"{self.vendor.value}:{self.command}"


# Commands with an undo form that no golden config carries: a line each, in its view.
EXTRA = [
    (Vendor.H3C, "S9855-32D", ("bgp 65101",), "peer 10.1.0.2 password simple s3cret"),
    (Vendor.H3C, "S9855-32D", (), "max-ecmp-num 64"),
    (Vendor.H3C, "S9855-32D", ("interface HundredGigE1/0/1",), "port link-mode route"),
    (
        Vendor.H3C,
        "S9855-32D",
        ("interface HundredGigE1/0/1", "port link-mode route"),
        "port link-mode bridge",
    ),
    (Vendor.H3C, "S9855-32D", ("interface HundredGigE1/0/1",), "shutdown"),
    # issue 26: read in brownfield configs, never generated
    (Vendor.H3C, "S9855-32D", (), "priority-flow-control poolid 0 headroom 9984"),
    (Vendor.H3C, "S9855-32D", ("interface HundredGigE1/0/1",), "port link-aggregation group 1"),
    (
        Vendor.H3C,
        "S9855-32D",
        ("interface Route-Aggregation1",),
        "link-aggregation selected-port minimum 2",
    ),
    (Vendor.H3C, "S9855-32D", ("interface Bridge-Aggregation1",), "port m-lag peer-link 1"),
    (Vendor.H3C, "S9855-32D", ("interface Bridge-Aggregation2",), "port m-lag group 2"),
    (Vendor.H3C, "S9855-32D", ("interface HundredGigE1/0/1",), "qos wrr cs6 group sp"),
    # read in brownfield configs (QoS policies, DRNI/M-LAG, trunks, peer groups), never generated
    (Vendor.H3C, "S9855-32D", ("traffic classifier roce",), "if-match dscp 26"),
    (Vendor.H3C, "S9855-32D", ("traffic classifier roce",), "if-match service-dot1p 3"),
    (Vendor.H3C, "S9855-32D", ("traffic classifier roce",), "if-match any"),
    (Vendor.H3C, "S9855-32D", ("traffic classifier roce",), "if-match acl 3000"),
    (Vendor.H3C, "S9855-32D", ("traffic behavior cnp",), "car cir 1000000"),
    (Vendor.H3C, "S9855-32D", ("traffic behavior cnp",), "gts cir 1000000"),
    (Vendor.H3C, "S9855-32D", ("traffic behavior cnp",), "remark dscp 48"),
    (Vendor.H3C, "S9855-32D", ("traffic behavior cnp",), "remark dot1p 6"),
    (Vendor.H3C, "S9855-32D", ("traffic behavior cnp",), "filter deny"),
    (Vendor.H3C, "S9855-32D", ("qos policy fabric",), "classifier roce behavior cnp"),
    (Vendor.H3C, "S9855-32D", (), "qos apply policy fabric global inbound"),
    (Vendor.H3C, "S9855-32D", (), "qos vlan-policy fabric vlan 10 inbound"),
    (Vendor.H3C, "S9855-32D", (), "buffer egress cell queue 3 shared ratio 80"),
    (Vendor.H3C, "S9855-32D", (), "buffer apply"),
    (Vendor.H3C, "S9855-32D", ("interface Bridge-Aggregation1",), "link-aggregation mode dynamic"),
    (Vendor.H3C, "S9855-32D", ("interface HundredGigE1/0/1",), "port drni intra-portal-port 1"),
    (Vendor.H3C, "S9855-32D", ("interface Bridge-Aggregation2",), "port drni group 2"),
    (Vendor.H3C, "S9855-32D", (), "m-lag system-mac 0001-0002-0003"),
    (Vendor.H3C, "S9855-32D", (), "m-lag system-number 1"),
    (Vendor.H3C, "S9855-32D", (), "m-lag system-priority 123"),
    (Vendor.H3C, "S9855-32D", (), "m-lag role priority 50"),
    (Vendor.H3C, "S9855-32D", (), "m-lag keepalive ip destination 10.0.0.2 source 10.0.0.1"),
    (Vendor.H3C, "S9855-32D", (), "m-lag mad exclude interface HundredGigE1/0/32"),
    (Vendor.H3C, "S9855-32D", (), "m-lag restore-delay 300"),
    (
        Vendor.H3C,
        "S9855-32D",
        ("interface Vlan-interface10",),
        "port m-lag virtual-ip 10.10.0.1 24",
    ),
    (Vendor.H3C, "S9855-32D", ("interface Vlan-interface10",), "mac-address 0001-0002-0004"),
    (Vendor.H3C, "S9855-32D", ("interface HundredGigE1/0/1",), "using hundredgige"),
    (Vendor.H3C, "S9855-32D", ("interface HundredGigE1/0/1",), "port link-type trunk"),
    (Vendor.H3C, "S9855-32D", ("interface HundredGigE1/0/1",), "port trunk permit vlan 10 20"),
    (Vendor.H3C, "S9855-32D", ("interface LoopBack0",), "ip binding vpn-instance tenant"),
    (Vendor.H3C, "S9855-32D", ("interface HundredGigE1/0/1",), "qos wrr byte-count"),
    (Vendor.H3C, "S9855-32D", ("interface HundredGigE1/0/1",), "qos wrr af1 group 1 byte-count 10"),
    (Vendor.H3C, "S9855-32D", ("interface HundredGigE1/0/1",), "qos wfq af2 group 2 weight 20"),
    (Vendor.H3C, "S9855-32D", ("interface HundredGigE1/0/1",), "qos apply policy fabric inbound"),
    (Vendor.H3C, "S9855-32D", ("bgp 65101",), "group spines external"),
    (Vendor.H3C, "S9855-32D", ("bgp 65101",), "peer spines as-number 65000"),
    (Vendor.H3C, "S9855-32D", ("bgp 65101",), "peer 10.1.0.2 group spines"),
    (Vendor.H3C, "S9855-32D", ("bgp 65101", "address-family ipv4 unicast"), "peer spines enable"),
    (Vendor.HUAWEI, "CE6885-48YS8CQ", ("bgp 65000",), "peer 10.1.0.3 password simple s3cret"),
    (Vendor.HUAWEI, "CE6885-48YS8CQ", ("interface 25GE1/0/1",), "shutdown"),
    # issue 26: VRP forms read in brownfield configs, never generated
    (Vendor.HUAWEI, "CE6885-48YS8CQ", ("interface 100GE1/0/1",), "eth-trunk 1"),
    (Vendor.HUAWEI, "CE6885-48YS8CQ", ("interface Eth-Trunk1",), "least active-linknumber 2"),
    (Vendor.HUAWEI, "CE6885-48YS8CQ", ("interface Eth-Trunk0",), "peer-link 1"),
    (Vendor.HUAWEI, "CE6885-48YS8CQ", ("interface Eth-Trunk10",), "dfs-group 1 m-lag 1"),
    (
        Vendor.HUAWEI,
        "CE6885-48YS8CQ",
        ("drop-profile roce",),
        "color green low-limit 10 high-limit 90 discard-percentage 20",
    ),
    (
        Vendor.HUAWEI,
        "CE6885-48YS8CQ",
        ("drop-profile roce",),
        "color green buffer-size low-limit 153600 high-limit 1536000 discard-percentage 20",
    ),
    (Vendor.HUAWEI, "CE6885-48YS8CQ", ("interface 100GE1/0/1",), "speed 40000"),
    (Vendor.HUAWEI, "CE6885-48YS8CQ", ("interface 25GE1/0/1",), "port mode 10G"),
    (Vendor.HUAWEI, "CE6885-48YS8CQ", ("interface 25GE1/0/1",), "qos queue 3 drr weight 80"),
    (Vendor.HUAWEI, "CE6885-48YS8CQ", ("interface 25GE1/0/1",), "undo portswitch"),
    (Vendor.HUAWEI, "CE8851-32CQ8DQ-P", (), "dcb pfc deadlock-detect timer 100"),
    (Vendor.HUAWEI, "CE8851-32CQ8DQ-P", (), "dcb pfc deadlock-recovery timer 100"),
    (Vendor.HUAWEI, "CE6885-48YS8CQ", ("vlan 10",), "name servers"),
    (Vendor.HUAWEI, "CE6885-48YS8CQ", (), "vlan 10"),
    (Vendor.HUAWEI, "CE6885-48YS8CQ", ("interface 25GE1/0/1",), "lldp tlv-enable dcbx"),
    # forms of the Huawei corpus and documentation examples, read, never generated
    (Vendor.HUAWEI, "CE6885-48YS8CQ", ("dcb pfc",), "priority 3 turn-off threshold 20"),
    (Vendor.HUAWEI, "CE6885-48YS8CQ", ("interface Eth-Trunk1",), "mode lacp-static"),
    (Vendor.HUAWEI, "CE6885-48YS8CQ", ("interface Eth-Trunk0",), "port vlan exclude 1"),
    (Vendor.HUAWEI, "CE6885-48YS8CQ", (), "stp v-stp enable"),
    (Vendor.HUAWEI, "CE6885-48YS8CQ", ("dfs-group 1",), "priority 150"),
    (
        Vendor.HUAWEI,
        "CE6885-48YS8CQ",
        ("dfs-group 1",),
        "dual-active detection source ip 192.168.10.11 vpn-instance mgmt peer 192.168.10.12",
    ),
    (
        Vendor.HUAWEI,
        "CE6885-48YS8CQ",
        ("interface Vlanif101",),
        "m-lag ip address 10.101.1.2 255.255.255.0",
    ),
    (Vendor.HUAWEI, "CE6885-48YS8CQ", ("interface Vlanif101",), "mac-address 0000-5e00-0165"),
    # antilocking PFC is the CE6885-SAN's, a model roce-cfg's profiles do not name
    (Vendor.HUAWEI, "CE9860-4C-EI", ("abs-pfc profile p",), "priority 3"),
    (Vendor.HUAWEI, "CE9860-4C-EI", ("interface 400GE1/1/1",), "abs-pfc enable p"),
    (
        Vendor.HUAWEI,
        "CE9860-4C-EI",
        (),
        "port split dimension interface 400GE1/1/7 split-type 4*100GE",
    ),
    (Vendor.HUAWEI, "CE6885-48YS8CQ", ("interface 100GE1/0/49.100",), "dot1q termination vid 100"),
    (
        Vendor.HUAWEI,
        "CE6885-48YS8CQ",
        ("interface 100GE1/0/49.100",),
        "ip binding vpn-instance tenant-b",
    ),
    (Vendor.HUAWEI, "CE8851-32CQ8DQ-P", ("ai-service", "ai-ecn"), "ai-ecn enable"),
    (Vendor.HUAWEI, "CE8851-32CQ8DQ-P", ("ai-service", "ai-ecn"), "assign queue 4"),
    (Vendor.HUAWEI, "CE8851-32CQ8DQ-P", ("ai-service", "iqcn"), "iqcn enable"),
    (Vendor.HUAWEI, "CE8851-32CQ8DQ-P", ("ai-service", "iqcn"), "assign queue 4"),
    (Vendor.HUAWEI, "CE8851-32CQ8DQ-P", ("ai-service", "iqcn"), "rpg-time-reset 400"),
    (Vendor.HUAWEI, "CE8851-32CQ8DQ-P", ("interface 100GE1/0/1",), "iqcn enable"),
    (Vendor.HUAWEI, "CE6885-48YS8CQ", ("interface 100GE1/0/49",), "long-distance mode level-100"),
    # QoS policies (MQC), queue buffer caps and PFC uplink groups: read, never generated
    (Vendor.HUAWEI, "CE6885-48YS8CQ", ("traffic classifier c1 type or",), "if-match dscp 10"),
    (Vendor.HUAWEI, "CE6885-48YS8CQ", ("traffic classifier c1 type or",), "if-match 8021p 1"),
    (Vendor.HUAWEI, "CE6885-48YS8CQ", ("traffic classifier c1 type or",), "if-match any"),
    (Vendor.HUAWEI, "CE6885-48YS8CQ", ("traffic classifier c1 type or",), "if-match acl 3000"),
    (Vendor.HUAWEI, "CE6885-48YS8CQ", ("traffic behavior b1",), "car cir 10 gbps"),
    (Vendor.HUAWEI, "CE6885-48YS8CQ", ("traffic behavior b1",), "remark dscp 16"),
    (Vendor.HUAWEI, "CE6885-48YS8CQ", ("traffic behavior b1",), "remark 8021p 2"),
    (Vendor.HUAWEI, "CE6885-48YS8CQ", ("traffic behavior b1",), "deny"),
    (
        Vendor.HUAWEI,
        "CE6885-48YS8CQ",
        ("traffic policy p1",),
        "classifier c1 behavior b1 precedence 5",
    ),
    (Vendor.HUAWEI, "CE6885-48YS8CQ", (), "traffic-policy p1 global inbound"),
    (Vendor.HUAWEI, "CE6885-48YS8CQ", ("vlan 10",), "traffic-policy p1 inbound"),
    (Vendor.HUAWEI, "CE6885-48YS8CQ", ("interface 25GE1/0/1",), "traffic-policy p1 outbound"),
    (
        Vendor.HUAWEI,
        "CE6885-48YS8CQ",
        ("interface 25GE1/0/1",),
        "qos buffer queue 3 shared-threshold dynamic 5",
    ),
    # the IPv6 underlay: read in brownfield configs, never generated
    *[
        (Vendor.HUAWEI, "CE6885-48YS8CQ", ("interface 100GE1/0/1", "undo portswitch"), line)
        for line in (
            "ipv6 enable",
            "ipv6 address 2001:DB8:0:11::1/127",
            "ipv6 address auto link-local",
            "ipv6 address FE80::1 link-local",
            "ipv6 mtu 9000",
        )
    ],
    (Vendor.HUAWEI, "CE6885-48YS8CQ", ("bgp 65000",), "peer 2001:DB8:0:11::1 as-number 65101"),
    (Vendor.HUAWEI, "CE6885-48YS8CQ", ("bgp 65000",), "peer 2001:DB8:0:11::1 description leaf"),
    *[
        (Vendor.HUAWEI, "CE6885-48YS8CQ", ("bgp 65000", "ipv6-family unicast"), line)
        for line in (
            "maximum load-balancing 8",
            "network 2001:DB8:103:: 64",
            "peer 2001:DB8:0:11::1 enable",
            "peer 2001:DB8:0:11::1 default-route-advertise",
        )
    ],
    *[
        (Vendor.H3C, "S9855-32D", ("interface HundredGigE1/0/1", "port link-mode route"), line)
        for line in (
            "ipv6 address 2001:DB8:0:11::1 127",
            "ipv6 address auto link-local",
            "ipv6 address FE80::1 link-local",
            "ipv6 mtu 9000",
        )
    ],
    (Vendor.HUAWEI, "CE6885-48YS8CQ", ("port-group pg1",), "group-member 100GE1/0/1 to 100GE1/0/4"),
    (Vendor.H3C, "S9855-32D", ("bgp 65101",), "peer 2001:DB8:0:11::1 as-number 65000"),
    (Vendor.H3C, "S9855-32D", ("bgp 65101",), "peer 2001:DB8:0:11::1 description spine"),
    *[
        (Vendor.H3C, "S9855-32D", ("bgp 65101", "address-family ipv6 unicast"), line)
        for line in (
            "balance 8",
            "network 2001:DB8:103:: 64",
            "peer 2001:DB8:0:11::1 enable",
            "peer 2001:DB8:0:11::1 default-route-advertise",
        )
    ],
    (
        Vendor.HUAWEI,
        "CE8851-32CQ8DQ-P",
        ("dcb pfc uplink group g1",),
        "adjust original-dscp 24 to priority 4 dscp 32",
    ),
    (
        Vendor.HUAWEI,
        "CE8851-32CQ8DQ-P",
        ("dcb pfc uplink group g1",),
        "group-member interface 100GE1/0/1",
    ),
    (Vendor.RUIJIE, "generic-32x400G", ("vlan 10",), "name servers"),
    (
        Vendor.RUIJIE,
        "generic-32x400G",
        ("interface FourHundredGigabitEthernet 0/1",),
        "no switchport",
    ),
    (
        Vendor.RUIJIE,
        "generic-32x400G",
        ("interface FourHundredGigabitEthernet 0/1",),
        "priority-flow-control mode on",
    ),
    (
        Vendor.RUIJIE,
        "generic-32x400G",
        ("interface FourHundredGigabitEthernet 0/1",),
        "port-group 1 mode active",
    ),
    (
        Vendor.RUIJIE,
        "generic-32x400G",
        ("router bgp 65101", "address-family ipv4 unicast"),
        "maximum-paths ebgp 8",
    ),
    *[
        (
            Vendor.RUIJIE,
            "generic-32x400G",
            ("interface FourHundredGigabitEthernet 0/1", "no switchport"),
            line,
        )
        for line in (
            "ipv6 enable",
            "ipv6 address 2001:DB8:0:11::1/127",
            "ipv6 address FE80::1 link-local",
        )
    ],
    (
        Vendor.RUIJIE,
        "generic-32x400G",
        ("router bgp 65101",),
        "neighbor 2001:DB8:0:11::1 remote-as 65000",
    ),
    (
        Vendor.RUIJIE,
        "generic-32x400G",
        ("router bgp 65101",),
        "neighbor 2001:DB8:0:11::1 description spine",
    ),
    *[
        (
            Vendor.RUIJIE,
            "generic-32x400G",
            ("router bgp 65101", "address-family ipv6 unicast"),
            line,
        )
        for line in (
            "maximum-paths ebgp 8",
            "network 2001:DB8:103::/64",
            "neighbor 2001:DB8:0:11::1 activate",
            "neighbor 2001:DB8:0:11::1 default-originate",
        )
    ],
    *[
        (Vendor.ZTE, "generic-32x400G", ("interface cgei-0/1/0/1",), line)
        for line in (
            "ipv6 enable",
            "ipv6 address 2001:DB8:0:11::1/127",
            "ipv6 address FE80::1 link-local",
        )
    ],
    (
        Vendor.ZTE,
        "generic-32x400G",
        ("router bgp 65101",),
        "neighbor 2001:DB8:0:11::1 remote-as 65000",
    ),
    (
        Vendor.ZTE,
        "generic-32x400G",
        ("router bgp 65101",),
        "neighbor 2001:DB8:0:11::1 description spine",
    ),
    *[
        (Vendor.ZTE, "generic-32x400G", ("router bgp 65101", "address-family ipv6 unicast"), line)
        for line in (
            "maximum-paths ebgp 8",
            "network 2001:DB8:103::/64",
            "neighbor 2001:DB8:0:11::1 activate",
            "neighbor 2001:DB8:0:11::1 default-originate",
        )
    ],
    (Vendor.ZTE, "generic-32x400G", (), "hostname sw"),
    (Vendor.ZTE, "generic-32x400G", ("lacp", "interface smartgroup1"), "lacp mode 802.3ad"),
    (Vendor.ZTE, "generic-32x400G", ("lacp", "interface smartgroup1"), "lacp minimum-member 2"),
    (Vendor.ZTE, "generic-32x400G", ("lacp", "interface smartgroup1"), "lacp load-balance dst-ip"),
    (Vendor.ZTE, "generic-32x400G", ("lacp", "interface cgei-0/1/0/1"), "smartgroup 1 mode active"),
    (Vendor.ZTE, "generic-32x400G", ("lacp", "interface cgei-0/1/0/1"), "lacp timeout short"),
    (Vendor.ZTE, "generic-32x400G", ("dcb",), "pfc enable"),
    (Vendor.ZTE, "generic-32x400G", ("dcb",), "pfc priority 3 no-drop"),
    (Vendor.ZTE, "generic-32x400G", ("dcb", "interface cgei-0/1/0/1"), "pfc enable"),
    (Vendor.ZTE, "generic-32x400G", ("dcb", "interface cgei-0/1/0/1"), "pfc priority 3 no-drop"),
    (Vendor.ZTE, "generic-32x400G", ("qos", "interface cgei-0/1/0/1"), "trust dscp"),
    (Vendor.ZTE, "generic-32x400G", (), "qos queue-number 8"),
    (Vendor.ZTE, "generic-32x400G", (), "eth-switch max-frame-length 9216"),
]


def _walk(
    grammar: Grammar, node: Node, path: tuple[str, ...], switched: tuple[str, ...]
) -> list[tuple[tuple[str, ...], str, str]]:
    """(path, line, command) of every leaf line of a saved config tree."""
    opened = grammar.view_of(path, [])
    sets = tuple(
        c.line for c in node.children if (m := grammar.match(opened, c.line)[0]) and m.sets
    )
    view = grammar.view_of(path, [c.line for c in node.children])
    out = []
    for c in node.children:
        cmd, _ = grammar.match(view, c.line)
        if c.children:
            out += _walk(grammar, c, (*path, c.line), ())
        elif cmd is not None:
            out.append(((*switched, *path, *sets), c.line, cmd.name))
    return out


def _golden_trees() -> Iterator[tuple[Vendor, str, Grammar, Node]]:
    """(vendor, model, grammar, saved-config tree) of every golden config."""
    for cfg in sorted((ROOT / "golden").glob("*/*.cfg")):
        vendor_name, model, _ = golden_meta(cfg)
        vendor = Vendor(vendor_name)
        tree = Tree.from_text(cfg.read_text(), load_profile(vendor))
        yield vendor, model, load_grammar(vendor.value), tree.root


def samples() -> list[Sample]:
    found: dict[tuple[Vendor, str], Sample] = {}
    for vendor, model, grammar, root in _golden_trees():
        for path, line, name in _walk(grammar, root, (), ()):
            key = (vendor, name)
            if key not in found and not (set(path) & {line}):
                found[key] = Sample(vendor, model, path, line, name)
    for vendor, model, path, line in EXTRA:
        grammar = load_grammar(vendor.value)
        view = grammar.root
        for step in path:
            opener, _ = grammar.match(view, step)
            assert opener is not None, step
            view = opener.opens or opener.sets or view
        cmd, _ = grammar.match(view, line)
        assert cmd is not None, line
        found.setdefault((vendor, cmd.name), Sample(vendor, model, path, line, cmd.name))
    return sorted(found.values(), key=str)


SAMPLES = samples()


def _session(sample: Sample, unsourced: bool = True) -> tuple[Session, str]:
    """An emulator with the sample line typed, and the grammar view it was typed in."""
    profile = load_profile(sample.vendor)
    s = Session(Switch.start("sw", profile, model=sample.model, unsourced=unsourced))
    for line in (*profile.dialect.enter, *sample.path):
        answer = s.feed(line)
        assert "rror" not in answer and "%" not in answer, (line, answer)
    view = s.gviews[-1] if s.gviews else s.sw.grammar.root
    answer = s.feed(sample.line)
    assert "rror" not in answer and "%" not in answer, (sample.line, answer)
    opened, _ = s.sw.grammar.match(view, sample.line)
    if opened is not None and opened.opens:
        s.feed(profile.dialect.view_exit)  # undo a view from where it was typed
    return s, view


def _holds(s: Session, line: str) -> bool:
    tree = s.candidate if s.candidate is not None else s.sw.running
    node: Node | None = tree.root
    for opener in s.views:
        node = node.find(opener) if node is not None else None
    return node is not None and node.find(line) is not None


def test_an_undo_form_graded_above_unsourced_cites_its_page() -> None:
    """The grade is the citation's: a sourced or partial undo form names a tag in its
    undo_source, or (Huawei: each [HW-CR] page prints the undo beside the command) in the
    command's own source where the grammar says the undo forms are in it."""
    tag = re.compile(r"\[[A-Z][A-Z0-9]*(?:-[A-Za-z0-9]+)+\]")
    for vendor in Vendor:
        raw = yaml.safe_load((ROOT / "vendors" / f"{vendor.value}.grammar.yaml").read_text())
        for c in load_grammar(vendor.value).commands:
            if c.undo is None or c.undo.status == "unsourced":
                continue
            cited = c.undo.source or (c.source if raw.get("undo_in_source") else "")
            assert tag.search(cited), f"{vendor.value}: {c.name} undo {c.undo.status}, no tag"


def _unsampled(samples: list[Sample], *, opens: bool) -> list[tuple[Vendor, list[str]]]:
    """Per vendor, the commands with an undo form (view openers or not) no sample exercises."""
    have = {(s.vendor, s.command) for s in samples}
    return [
        (vendor, [
            c.name
            for c in load_grammar(vendor.value).commands
            if c.undo is not None and bool(c.opens) == opens and (vendor, c.name) not in have
        ])
        for vendor in Vendor
    ]  # fmt: skip


def test_every_negatable_command_has_a_sample() -> None:
    """So the next two tests see every undo form the remediation can type."""
    for vendor, missing in _unsampled(SAMPLES, opens=False):
        assert not missing, f"{vendor.value}: no sample line for {missing}"


@pytest.mark.parametrize("sample", SAMPLES, ids=str)
def test_the_grammar_undo_form_is_accepted_and_takes_the_line(sample: Sample) -> None:
    grammar = load_grammar(sample.vendor.value)
    profile = load_profile(sample.vendor)
    s, view = _session(sample)
    undo = grammar.undo_for(view, sample.line, profile.negation)
    if undo is None:
        return  # no undo form: the command is never negated ('return')
    answer = s.feed(undo)
    assert "rror" not in answer and "%" not in answer, (undo, answer)
    assert not _holds(s, sample.line), f"{undo!r} left {sample.line!r}"
    cmd, _ = grammar.match(view, sample.line)
    assert cmd is not None
    # the strict emulator takes exactly the undo forms a source documents (a command whose own
    # syntax takes the negation word, '[ undo ] shutdown', has none of its own; nor has a line
    # whose negation is a printed command in its own right, Comware's 'undo port trunk permit
    # vlan 1')
    own = grammar.match(view, undo)[0] is not None
    if cmd.undo is not None and cmd.status != "unsourced" and not own:
        answer = _session(sample, unsourced=False)[0].feed(undo)
        refused = "rror" in answer or "%" in answer
        assert refused == (cmd.undo.status == "unsourced"), (undo, answer)


@pytest.mark.parametrize("sample", SAMPLES, ids=str)
def test_a_negation_the_grammar_does_not_list_is_refused(sample: Sample) -> None:
    """The whole line with the negation word before it is accepted only where an undo form of
    the command says so (Huawei 'undo jumboframe enable [ <value> ]'), refused elsewhere."""
    grammar = load_grammar(sample.vendor.value)
    negation = load_profile(sample.vendor).negation
    s, view = _session(sample)
    cmd, _ = grammar.match(view, sample.line)
    assert cmd is not None
    whole = negation + sample.line
    listed = cmd.undo is not None and any(
        u.regex.match(" " + " ".join(whole.split())) for u in cmd.undo.commands
    )
    own = cmd.regex.match(" " + " ".join(whole.split()))  # '[ undo ] shutdown'
    answer = s.feed(whole)
    refused = "rror" in answer or "%" in answer
    assert refused != bool(listed or own), (whole, answer)


@pytest.mark.parametrize(
    ("vendor", "model", "path", "line", "wrong", "right"),
    [
        (
            Vendor.H3C,
            "S9855-32D",
            ("interface HundredGigE1/0/1",),
            "priority-flow-control dot1p 3 headroom 232",
            "undo priority-flow-control dot1p 3 headroom 232",
            "undo priority-flow-control dot1p 3 headroom",
        ),
        (
            Vendor.H3C,
            "S9855-32D",
            ("qos wred queue table ROCE",),
            "queue 3 drop-level 0 low-limit 3000 high-limit 30000 discard-probability 20",
            "undo queue 3 drop-level 0 low-limit 3000 high-limit 30000 discard-probability 20",
            "undo queue 3",
        ),
        (
            Vendor.H3C,
            "S9855-32D",
            ("interface HundredGigE1/0/1",),
            "priority-flow-control no-drop dot1p 3",
            "undo priority-flow-control no-drop dot1p 3",
            "undo priority-flow-control no-drop dot1p",
        ),
        # the Comware V7 command references [H3C-CR-CN] print these undo forms without values
        (
            Vendor.H3C,
            "S9855-32D",
            ("interface HundredGigE1/0/1",),
            "qos wred apply ROCE",
            "undo qos wred apply ROCE",
            "undo qos wred apply",
        ),
        (
            Vendor.H3C,
            "S9855-32D",
            ("interface HundredGigE1/0/1",),
            "qos wfq cs6 group sp",
            "undo qos wfq cs6 group sp",
            "undo qos wfq cs6",
        ),
        (
            Vendor.H3C,
            "S9855-32D",
            ("interface HundredGigE1/0/1",),
            "qos trust dscp",
            "undo qos trust dscp",
            "undo qos trust",
        ),
        (
            Vendor.H3C,
            "S9855-32D",
            ("interface HundredGigE1/0/1",),
            "port access vlan 10",
            "undo port access vlan 10",
            "undo port access vlan",
        ),
        (
            Vendor.H3C,
            "S9855-32D",
            ("qos map-table dscp-dot1p",),
            "import 26 export 3",
            "undo import 26 export 3",
            "undo import 26",
        ),
        (
            Vendor.H3C,
            "S9855-32D",
            ("interface HundredGigE1/0/1",),
            "port link-aggregation group 1",
            "undo port link-aggregation group 1",
            "undo port link-aggregation group",
        ),
        # issue 33, second reading: the BGP view page of [H3C-CR-CN] and [H3C-MLAG-CG]
        (
            Vendor.H3C,
            "S9855-32D",
            ("bgp 65101",),
            "router-id 10.0.0.1",
            "undo router-id 10.0.0.1",
            "undo router-id",
        ),
        (
            Vendor.H3C,
            "S9855-32D",
            ("interface Bridge-Aggregation2",),
            "port m-lag group 2",
            "undo port m-lag group 2",
            "undo port m-lag group",
        ),
        (
            Vendor.HUAWEI,
            "CE6885-48YS8CQ",
            ("drop-profile ROCE",),
            "ecn buffer-size low-limit 153600 high-limit 1536000 discard-percentage 100",
            "undo ecn buffer-size low-limit 153600 high-limit 1536000 discard-percentage 100",
            "undo ecn",
        ),
    ],
)
def test_the_issue_cases(
    vendor: Vendor, model: str, path: tuple[str, ...], line: str, wrong: str, right: str
) -> None:
    sample = Sample(vendor, model, path, line, "")
    grammar = load_grammar(vendor.value)
    s, view = _session(sample)
    assert grammar.undo_for(view, line, load_profile(vendor).negation) == right
    answer = s.feed(wrong)
    assert "Wrong parameter" in answer and "not an undo form" in answer, answer
    assert _holds(s, line)
    assert "rror" not in s.feed(right) and not _holds(s, line)


def test_undo_queue_keeps_the_queues_ecn_and_weighting_lines() -> None:
    """[HPE-WRED]: 'undo queue <q>' restores the queue's limits; 'queue <q> ecn' and
    'queue <q> weighting-constant' are commands of their own and stay."""
    profile = load_profile(Vendor.H3C)
    table = (
        "#\nqos wred queue table ROCE\n queue 3 low-limit 600 high-limit 6000 "
        "discard-probability 100\n queue 3 weighting-constant 0\n queue 3 ecn\n"
        " queue 4 low-limit 600 high-limit 6000 discard-probability 100\n#\nreturn\n"
    )
    running = Tree.from_text(table, profile)
    intended = Tree.from_text(table.replace("600 high-limit 6000", "700 high-limit 7000"), profile)
    commands = remediation(running, intended)
    assert commands == [
        "qos wred queue table ROCE",
        "undo queue 3",
        "undo queue 4",
        "queue 3 low-limit 700 high-limit 7000 discard-probability 100",
        "queue 4 low-limit 700 high-limit 7000 discard-probability 100",
        "quit",
    ]
    running.apply(commands)
    assert remediation(running, intended) == []
    assert running.render().count("queue 3 ") == 3  # limits, weighting-constant, ecn


def test_a_wider_undo_form_types_again_what_it_took() -> None:
    """Huawei 'undo peer <ip>' deletes the peer with its description and its 'peer <ip>
    enable' in the address family: a changed AS types them again."""
    profile = load_profile(Vendor.HUAWEI)
    bgp = (
        "#\nbgp 65101\n router-id 10.0.0.1\n peer 10.1.0.2 as-number {}\n"
        " peer 10.1.0.2 description spine-1\n #\n ipv4-family unicast\n"
        "  peer 10.1.0.2 enable\n#\nreturn\n"
    )
    running = Tree.from_text(bgp.format(65009), profile)
    intended = Tree.from_text(bgp.format(65000), profile)
    commands = remediation(running, intended)
    assert commands == [
        "bgp 65101",
        "undo peer 10.1.0.2",
        "peer 10.1.0.2 as-number 65000",
        "peer 10.1.0.2 description spine-1",
        "ipv4-family unicast",
        "peer 10.1.0.2 enable",
        "quit",
        "quit",
    ]
    running.apply(commands)  # the switch prints in its own order: compare what is there
    assert remediation(running, intended) == []
    assert "peer 10.1.0.2 enable" in running.render()


def test_push_names_the_negations_no_source_documents() -> None:
    """A changed headroom negates 'priority-flow-control dot1p 3 headroom': no Comware page for
    that undo form was read, so the plan says so; the sourced 'undo import 26' (the QoS command
    reference: the undo names the input values only) is not listed."""
    from roce_cfg.deploy.inventory import Target
    from roce_cfg.deploy.push import changes, unsourced_undos

    profile = load_profile(Vendor.H3C)
    text = "#\nqos map-table dscp-dot1p\n import 26 export {}\n#\ninterface HundredGigE1/0/1\n"
    text += " priority-flow-control dot1p 3 headroom {}\n#\nreturn\n"
    target = Target("leaf-1", "127.0.0.1", 22, profile)
    commands, _ = changes(target, text.format(3, 232), text.format(4, 240))
    assert "undo import 26" in commands and "undo import 26 export 3" not in commands
    assert "undo priority-flow-control dot1p 3 headroom" in commands
    assert unsourced_undos(target, commands) == [
        "priority-flow-control dot1p headroom: undo priority-flow-control dot1p 3 headroom"
    ]


def test_a_full_restore_empties_the_views_comware_does_not_delete() -> None:
    """The Comware V7 references print no undo form for 'qos map-table' [H3C-CR-CN] or for a
    physical port's 'interface' [H3C-ETH-CR-CN]: a restore that drops them empties them line by
    line with the lines' own undo forms; a VLAN, which 'undo vlan' deletes, goes whole. The
    lines go last first (Comware prints a VLAN before the ports in it): the port leaves the
    VLAN before the VLAN goes."""
    profile = load_profile(Vendor.H3C)
    running = Tree.from_text(
        "#\nvlan 10\n name servers\n#\nqos map-table dscp-dot1p\n import 26 export 3\n#\n"
        "interface HundredGigE1/0/1\n port access vlan 10\n stp edged-port\n#\nreturn\n",
        profile,
    )
    intended = Tree.from_text("#\nreturn\n", profile)
    commands = remediation(running, intended, prune=True, full=True)
    assert commands == [
        "interface HundredGigE1/0/1",
        "undo stp edged-port",
        "undo port access vlan",
        "quit",
        "qos map-table dscp-dot1p",
        "undo import 26",
        "quit",
        "undo vlan 10",
    ]
    grammar = load_grammar(Vendor.H3C.value)
    for line in ("interface HundredGigE1/0/1", "qos map-table dscp-dot1p"):
        assert grammar.undo_for(grammar.root, line, profile.negation) is None, line


def test_comware_undo_peer_takes_the_peers_settings() -> None:
    """[H3C-CR-CN] BGP: 'undo peer <ip>' deletes the peer, and a repeated 'peer as-number' does
    not change its AS: a changed AS deletes the peer and types its description, password and
    address-family 'peer enable' again."""
    profile = load_profile(Vendor.H3C)
    bgp = (
        "#\nbgp 65101\n router-id 10.0.0.1\n peer 10.1.0.2 as-number {}\n"
        " peer 10.1.0.2 description spine-1\n #\n address-family ipv4 unicast\n"
        "  peer 10.1.0.2 enable\n#\nreturn\n"
    )
    running = Tree.from_text(bgp.format(65009), profile)
    intended = Tree.from_text(bgp.format(65000), profile)
    commands = remediation(running, intended)
    assert commands[:4] == [
        "bgp 65101",
        "undo peer 10.1.0.2",
        "peer 10.1.0.2 as-number 65000",
        "peer 10.1.0.2 description spine-1",
    ]
    assert "peer 10.1.0.2 enable" in commands
    running.apply(commands)
    assert remediation(running, intended) == []


# View openers with an undo form that no golden leaf opens: a line each, under its parent view.
EXTRA_OPENERS = [
    (Vendor.H3C, "S9855-32D", (), "interface Route-Aggregation1"),
    (Vendor.H3C, "S9855-32D", (), "interface Bridge-Aggregation1"),
    (Vendor.H3C, "S9855-32D", (), "traffic classifier roce"),
    (Vendor.H3C, "S9855-32D", (), "traffic behavior cnp"),
    (Vendor.H3C, "S9855-32D", (), "qos policy fabric"),
    (Vendor.H3C, "S9855-32D", (), "interface range HundredGigE1/0/1 to HundredGigE1/0/4"),
    (Vendor.HUAWEI, "CE6885-48YS8CQ", (), "interface Eth-Trunk1"),
    (Vendor.HUAWEI, "CE6885-48YS8CQ", (), "dcb pfc roce"),
    (Vendor.HUAWEI, "CE6885-48YS8CQ", (), "dfs-group 1"),
    (Vendor.HUAWEI, "CE9860-4C-EI", (), "abs-pfc profile p"),
    (Vendor.HUAWEI, "CE8851-32CQ8DQ-P", (), "ai-service"),
    (Vendor.HUAWEI, "CE6885-48YS8CQ", (), "interface 100GE1/0/49.100"),
    (Vendor.HUAWEI, "CE8851-32CQ8DQ-P", ("ai-service",), "ai-ecn"),
    (Vendor.HUAWEI, "CE8851-32CQ8DQ-P", ("ai-service",), "iqcn"),
    (Vendor.HUAWEI, "CE6885-48YS8CQ", (), "traffic classifier c1 type or"),
    (Vendor.HUAWEI, "CE6885-48YS8CQ", (), "traffic behavior b1"),
    (Vendor.HUAWEI, "CE6885-48YS8CQ", (), "traffic policy p1"),
    (Vendor.HUAWEI, "CE8851-32CQ8DQ-P", (), "dcb pfc uplink group g1"),
    (Vendor.HUAWEI, "CE6885-48YS8CQ", ("bgp 65000",), "ipv6-family unicast"),
    (Vendor.HUAWEI, "CE6885-48YS8CQ", ("bgp 65000",), "ipv6-family vpn-instance tenant"),
    (Vendor.H3C, "S9855-32D", ("bgp 65101",), "address-family ipv6 unicast"),
    (Vendor.HUAWEI, "CE6885-48YS8CQ", (), "port-group pg1"),
    (Vendor.RUIJIE, "generic-32x400G", ("router bgp 65101",), "address-family ipv6 unicast"),
    (Vendor.ZTE, "generic-32x400G", ("router bgp 65101",), "address-family ipv6 unicast"),
    (Vendor.ZTE, "generic-32x400G", ("router bgp 65101",), "address-family ipv4"),
    (Vendor.ZTE, "generic-32x400G", (), "lacp"),
    (Vendor.ZTE, "generic-32x400G", ("lacp",), "interface smartgroup1"),
    (Vendor.ZTE, "generic-32x400G", (), "dcb"),
    (Vendor.ZTE, "generic-32x400G", ("dcb",), "interface cgei-0/1/0/1"),
    (Vendor.ZTE, "generic-32x400G", (), "qos"),
    (Vendor.ZTE, "generic-32x400G", ("qos",), "interface cgei-0/1/0/1"),
]


def _openers(
    grammar: Grammar, node: Node, path: tuple[str, ...]
) -> list[tuple[tuple[str, ...], str, str]]:
    """(parent path, opener line, command) of every view a saved config tree opens."""
    view = grammar.view_of(path, [c.line for c in node.children])
    out = []
    for c in node.children:
        if not c.children:
            continue
        cmd, _ = grammar.match(view, c.line)
        if cmd is not None and cmd.opens:
            out.append((path, c.line, cmd.name))
        out += _openers(grammar, c, (*path, c.line))
    return out


def opener_samples() -> list[Sample]:
    found: dict[tuple[Vendor, str], Sample] = {}
    for vendor, model, grammar, root in _golden_trees():
        for path, line, name in _openers(grammar, root, ()):
            found.setdefault((vendor, name), Sample(vendor, model, path, line, name))
    for vendor, model, path, line in EXTRA_OPENERS:
        grammar = load_grammar(vendor.value)
        cmd, _ = grammar.match(grammar.view_of(path, []), line)
        assert cmd is not None and cmd.opens, line
        found.setdefault((vendor, cmd.name), Sample(vendor, model, path, line, cmd.name))
    return sorted(found.values(), key=str)


OPENERS = opener_samples()


def test_every_view_with_an_undo_form_has_a_sample() -> None:
    for vendor, missing in _unsampled(OPENERS, opens=True):
        assert not missing, f"{vendor.value}: no sample view for {missing}"


@pytest.mark.parametrize("sample", OPENERS, ids=str)
def test_a_views_undo_form_is_accepted_and_removes_the_view(sample: Sample) -> None:
    """A view opener's undo form, rendered from the grammar with the opener's values, is typed
    where the opener was and takes the whole view away; a view with no undo form (a physical
    port, Comware's 'qos map-table') stays and is emptied line by line instead."""
    grammar = load_grammar(sample.vendor.value)
    s, view = _session(sample)
    assert _holds(s, sample.line)
    undo = grammar.undo_for(view, sample.line, load_profile(sample.vendor).negation)
    if undo is None:
        cmd, _ = grammar.match(view, sample.line)
        assert cmd is not None and cmd.undo is None
        return
    answer = s.feed(undo)
    assert "rror" not in answer and "%" not in answer, (undo, answer)
    assert not _holds(s, sample.line), f"{undo!r} left {sample.line!r}"


@pytest.mark.parametrize("sample", [*SAMPLES, *OPENERS], ids=str)
def test_an_undo_form_with_a_word_too_many_is_refused(sample: Sample) -> None:
    """The emulator takes the undo form as the grammar writes it, not with a word appended
    (Comware answers 'Too many parameters' to 'undo port link-aggregation group 1')."""
    grammar = load_grammar(sample.vendor.value)
    s, view = _session(sample)
    undo = grammar.undo_for(view, sample.line, load_profile(sample.vendor).negation)
    cmd, _ = grammar.match(view, sample.line)
    assert cmd is not None
    forms = cmd.undo.commands if cmd.undo is not None else ()
    if undo is None or any(f.syntax.endswith(":text>") for f in forms):
        return  # no undo form, or one that ends in free text
    longer = " " + " ".join((undo + " surplus-word").split())
    if any(f.regex.match(longer) for f in forms):
        return  # the source's own undo form takes one more word ('[ <pfcprofile> ]')
    answer = s.feed(undo + " surplus-word")
    assert "rror" in answer or "%" in answer, (undo, answer)
    assert _holds(s, sample.line)
