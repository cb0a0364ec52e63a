"""Push changes only what roce-cfg owns: the managed scope (vendors/<vendor>.yaml 'managed').

A switch roce-cfg did not configure carries ACLs, SNMP, AAA, a management VRF and interface,
BGP peers to firewalls, VLANs of other tenants. None of that may be negated by a push; the part
roce-cfg manages must end up equal to the intent; and a second push must change nothing.
"""

from __future__ import annotations

import copy
import random
import tempfile
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from roce_cfg.deploy.inventory import Target
from roce_cfg.deploy.push import Credentials, push
from roce_cfg.deploy.tree import Node, Tree, remediation
from roce_cfg.generate import generate
from roce_cfg.lab.cli import Session, Switch
from roce_cfg.lab.server import Lab
from roce_cfg.platforms.profile import VendorProfile, load_profile
from roce_cfg.vendor import Vendor
from tests.helpers import SCENARIOS, examples, lab_inventory, run

USER, PASSWORD = "netops", "Lab-Pa55-never-printed"
CREDS = Credentials(USER, PASSWORD)
VENDORS = list(Vendor)
DEVICES = ("leaf-1", "spine-1")
FIREWALL = {
    Vendor.H3C: (" peer 192.0.2.1 as-number 64512\n", " peer 10.1.0.14 description spine-4\n"),
    Vendor.HUAWEI: (" peer 192.0.2.1 as-number 64512\n", " peer 10.1.0.14 description spine-4\n"),
    Vendor.RUIJIE: (
        " neighbor 192.0.2.1 remote-as 64512\n",
        " neighbor 10.1.0.14 description spine-4\n",
    ),
    Vendor.ZTE: (
        "  neighbor 192.0.2.1 remote-as 64512\n",
        "  neighbor 10.1.0.14 description spine-4\n",
    ),
}


# -- the intent, and an older policy the switch still runs ------------------------------------
@cache
def _configs(vendor: Vendor, variant: str) -> dict[str, str]:
    """Configs of pod-small-<vendor>; 'old' is the same fabric with another lossless policy
    (RoCE DSCP 24, other ECN thresholds and watchdog timers, MTU 9000), as a previous
    generation or a hand configuration would have left it."""
    path = SCENARIOS[f"pod-small-{vendor.value}"]
    if variant == "new":
        return generate(path).configs
    intent = yaml.safe_load(path.read_text())
    intent["lossless"]["roce"]["dscp"] = 24
    intent["lossless"]["ecn"] = {"min_kb": 200, "max_kb": 2000, "probability": 50}
    intent["lossless"]["pfc"]["watchdog"] = {"detect_ms": 500, "restore_ms": 5000, "action": "drop"}
    intent["fabric"]["mtu"] = 9000
    with tempfile.TemporaryDirectory() as tmp:
        old = Path(tmp) / "old.yaml"
        old.write_text(yaml.safe_dump(intent))
        return generate(old).configs


# -- unmanaged lines, per vendor ----------------------------------------------------------------
def _n(line: str, *children: Node | str) -> Node:
    return Node(line, [c if isinstance(c, Node) else Node(c) for c in children])


@dataclass(frozen=True)
class Place:
    """Where an unmanaged block goes: the root, the BGP view, its address family, an intended
    port, or ZXROS's VLAN section."""

    where: str
    node: Node


def _catalogue(vendor: Vendor, n: int, vlan: int) -> list[Place]:
    """Unmanaged blocks shaped like real backups; ``n`` and ``vlan`` vary the addresses and IDs
    (192.0.2.n / 198.51.100.n and VLAN 200-4000 are never in the intent)."""
    ip, net = f"192.0.2.{n}", f"198.51.{n}.0"
    if vendor is Vendor.H3C:
        return [
            Place("root", _n("acl advanced 3000", "rule 0 permit ip source 10.0.0.0 0.0.0.255")),
            Place("root", _n("snmp-agent community read cipher $c$3$Q2xvc2Vk")),
            Place(
                "root",
                _n(
                    f"snmp-agent target-host trap address udp-domain {ip} params "
                    "securityname netops v2c"
                ),
            ),
            Place(
                "root",
                _n(
                    "local-user admin class manage",
                    "service-type ssh",
                    "authorization-attribute user-role network-admin",
                ),
            ),
            Place("root", _n("ip vpn-instance mgmt", "route-distinguisher 65535:1")),
            Place(
                "root",
                _n(
                    "interface M-GigabitEthernet0/0/0",
                    "ip binding vpn-instance mgmt",
                    f"ip address 192.168.{n}.10 255.255.255.0",
                ),
            ),
            Place("root", _n(f"ip route-static vpn-instance mgmt 0.0.0.0 0 192.168.{n}.1")),
            Place("root", _n(f"vlan {vlan}", f"name tenant{vlan}")),
            Place("root", _n(f"vlan {vlan + 1}")),
            Place(
                "root",
                _n(f"interface Vlan-interface{vlan}", f"ip address 10.{n}.0.1 255.255.255.0"),
            ),
            Place("bgp", _n(f"peer {ip} as-number 64512")),
            Place("bgp", _n(f"peer {ip} description firewall-{n}")),
            Place("af", _n(f"peer {ip} enable")),
            Place("af", _n(f"network {net} 255.255.255.0")),
            Place("port", _n("flow-interval 5")),
            Place("port", _n("broadcast-suppression pps 1000")),
        ]
    if vendor is Vendor.HUAWEI:
        return [
            Place("root", _n("acl number 3000", "rule 5 permit ip source 10.0.0.0 0.0.0.255")),
            Place("root", _n("snmp-agent community read cipher %^%#Q2xvc2Vk%^%#")),
            Place("root", _n("snmp-agent sys-info version v3")),
            Place(
                "root",
                _n(
                    "aaa",
                    "local-user admin password irreversible-cipher $1c$Zm9v$",
                    "local-user admin service-type ssh",
                ),
            ),
            Place(
                "root", _n("ip vpn-instance mgmt", _n("ipv4-family", "route-distinguisher 65535:1"))
            ),
            Place(
                "root",
                _n(
                    "interface MEth0/0/0",
                    "ip binding vpn-instance mgmt",
                    f"ip address 192.168.{n}.10 255.255.255.0",
                ),
            ),
            Place("root", _n(f"ip route-static vpn-instance mgmt 0.0.0.0 0.0.0.0 192.168.{n}.1")),
            Place("root", _n(f"vlan batch {vlan} {vlan + 1}")),
            Place("root", _n(f"vlan {vlan}", f"name tenant{vlan}")),
            Place("root", _n(f"interface Vlanif{vlan}", f"ip address 10.{n}.0.1 255.255.255.0")),
            Place("bgp", _n(f"peer {ip} as-number 64512")),
            Place("bgp", _n(f"peer {ip} description firewall-{n}")),
            Place("af", _n(f"peer {ip} enable")),
            Place("af", _n(f"network {net} 255.255.255.0")),
            Place("port", _n("storm suppression broadcast packets 1000")),
            Place("port", _n("port-isolate enable group 1")),
        ]
    mgmt_if = "interface Mgmt 0" if vendor is Vendor.RUIJIE else "interface mng1"
    common = [
        Place("root", _n(f"snmp-server host {ip} traps version 2c netops")),
        Place("root", _n("snmp-server community 7 0822455D0A16 ro")),
        Place("root", _n("username admin privilege 15 secret 5 $1$Zm9v$YmFy")),
        Place(
            "root",
            _n(mgmt_if, "ip vrf forwarding mgmt", f"ip address 192.168.{n}.10 255.255.255.0"),
        ),
        Place("root", _n(f"ip route vrf mgmt 0.0.0.0 0.0.0.0 192.168.{n}.1")),
        Place("bgp", _n(f"neighbor {ip} remote-as 64512")),
        Place("bgp", _n(f"neighbor {ip} description firewall-{n}")),
        Place("af", _n(f"neighbor {ip} activate")),
        Place("port", _n("load-interval 30")),
    ]
    if vendor is Vendor.RUIJIE:
        return [
            *common,
            Place(
                "root", _n("ip access-list extended MGMT", "10 permit ip 10.0.0.0 0.0.0.255 any")
            ),
            Place("root", _n("aaa new-model")),
            Place("root", _n("ip vrf mgmt")),
            Place("root", _n(f"vlan {vlan}", f"name tenant{vlan}")),
            Place("root", _n(f"vlan {vlan + 1}")),
            Place("root", _n(f"interface Vlan {vlan}", f"ip address 10.{n}.0.1 255.255.255.0")),
            Place("af", _n(f"network {net} mask 255.255.255.0")),
            Place("port", _n("storm-control broadcast pps 1000")),
        ]
    return [
        *common,
        Place("root", _n("ipv4-access-list MGMT", "rule 10 permit 10.0.0.0 0.0.0.255")),
        Place("root", _n("ip vrf mgmt", "rd 65535:1")),
        Place("root", _n(f"interface vlan{vlan}", f"ip address 10.{n}.0.1 255.255.255.0")),
        Place("vlans", _n(f"vlan {vlan}", f"name tenant{vlan}")),
        Place("vlans", _n(f"vlan {vlan + 1}")),
        Place("af", _n(f"network {net} 255.255.255.0")),
    ]


COMMENTS = ("# backup taken by netops before the change", "! owner: storage team, do not edit")


# -- trees as multisets of paths ----------------------------------------------------------------
def _paths(node: Node, above: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    for c in node.children:
        here = (*above, c.line)
        yield here
        yield from _paths(c, here)


def _view(tree: Tree, profile: VendorProfile, where: str, rng: random.Random) -> Node | None:
    root = tree.root
    bgp = next((c for c in root.children if c.line.split()[0] in ("bgp", "router")), None)
    if where == "root":
        return root
    if where == "bgp":
        return bgp
    if where == "af":
        fam = ("address-family", "ipv4-family")
        return next((c for c in bgp.children if c.line.startswith(fam)), None) if bgp else None
    if where == "vlans":
        return root.find("switchvlan-configuration")
    ports = [c for c in root.children if c.line.startswith("interface ") and c.children]
    return rng.choice(ports) if ports else None


@dataclass
class Case:
    profile: VendorProfile
    running: str  # what the switch runs: the old policy, some lines lost, unmanaged lines added
    intended: str
    unmanaged: Counter[tuple[str, ...]]


def _case(vendor: Vendor, device: str, seed: int, picks: list[int], drops: list[int]) -> Case:
    profile = load_profile(vendor)
    rng = random.Random(seed)
    intended = _configs(vendor, "new")[device]
    tree = Tree.from_text(_configs(vendor, "old")[device], profile)
    leaves = [(parent, c) for parent, c in _nodes(tree.root) if not c.children]
    for i in sorted({d % len(leaves) for d in drops}, reverse=True):
        parent, node = leaves[i]
        parent.children.remove(node)
    catalogue = _catalogue(vendor, 1 + seed % 250, 200 + seed % 3700)
    unmanaged: Counter[tuple[str, ...]] = Counter()
    for pick in picks:
        place = catalogue[pick % len(catalogue)]
        view = _view(tree, profile, place.where, rng)
        if view is None or view.find(place.node.line) is not None:
            continue
        view.children.insert(rng.randint(0, len(view.children)), copy.deepcopy(place.node))
        above = _path_to(tree.root, view)
        unmanaged.update((*above, *p) for p in [(place.node.line,)])
        unmanaged.update((*above, place.node.line, *p) for p in _paths(place.node))
    text = tree.render().splitlines()
    # A comment between blocks, where an operator's edited backup has them.
    at = rng.choice([i for i, line in enumerate(text) if i and not line.startswith(" ")])
    bang = profile.dialect.framing.after_block == "!"  # '!' lines are layout there (RGOS)
    text.insert(at, COMMENTS[rng.randint(0, 1)] if bang else COMMENTS[0])
    return Case(profile, "\n".join(text) + "\n", intended, unmanaged)


def _nodes(node: Node) -> Iterator[tuple[Node, Node]]:
    for c in node.children:
        yield node, c
        yield from _nodes(c)


def _path_to(root: Node, target: Node) -> tuple[str, ...]:
    if root is target:
        return ()
    for parent, c in _nodes(root):
        if c is target:
            return (*_path_to(root, parent), c.line)
    raise AssertionError("not in the tree")


def _emulate(profile: VendorProfile, running: str, commands: list[str]) -> Tree:
    """The commands typed into the lab emulator's CLI (no SSH), as push sends them."""
    sw = Switch.start("sw", profile, running)
    session = Session(sw)
    session.feed(profile.dialect.enter[0])
    for c in commands:
        answer = session.feed(c)
        assert profile.dialect.error not in answer, c
    for c in profile.dialect.commit.commands:
        session.feed(c)
    session.feed(profile.dialect.leave[0])
    return sw.running


def _check(case: Case, after: Tree) -> None:
    have = Counter(_paths(after.root))
    missing = case.unmanaged - have
    assert not missing, f"unmanaged lines removed: {sorted(missing)[:5]}"
    want = Counter(_paths(Tree.from_text(case.intended, case.profile).root))
    assert have - case.unmanaged == want, "the managed part differs from the intent"
    assert remediation(after, Tree.from_text(case.intended, case.profile)) == []


# -- properties -----------------------------------------------------------------------------
EXAMPLES = 100  # per vendor; 400 in all


@pytest.mark.parametrize("vendor", VENDORS, ids=[v.value for v in VENDORS])
@settings(max_examples=examples(EXAMPLES), deadline=None)
@given(
    device=st.sampled_from(DEVICES),
    seed=st.integers(0, 10**6),
    picks=st.lists(st.integers(0, 100), min_size=1, max_size=25),
    drops=st.lists(st.integers(0, 10**4), max_size=8),
)
def test_push_keeps_every_unmanaged_line_and_reaches_the_intent(
    vendor: Vendor, device: str, seed: int, picks: list[int], drops: list[int]
) -> None:
    case = _case(vendor, device, seed, picks, drops)
    running = Tree.from_text(case.running, case.profile)
    commands = remediation(running, Tree.from_text(case.intended, case.profile))
    assert not any(c.lstrip().startswith(("#", "!")) for c in commands)  # comments are no config
    _check(case, _emulate(case.profile, case.running, commands))


@pytest.mark.sample(1)
@pytest.mark.parametrize("vendor", VENDORS, ids=[v.value for v in VENDORS])
def test_through_ssh_the_switch_keeps_its_unmanaged_lines(vendor: Vendor) -> None:
    """A few cases of the property through the real push path: netmiko, SSH, the emulator."""
    cases = [_case(vendor, "leaf-1", 17, list(range(30)), [3, 50, 400]),
             _case(vendor, "spine-1", 2024, list(range(0, 60, 3)), [7])]  # fmt: skip
    switches = [Switch.start(f"sw-{i}", c.profile, c.running) for i, c in enumerate(cases)]
    with Lab(switches, USER, PASSWORD) as lab:
        for i, case in enumerate(cases):
            name = f"sw-{i}"
            target = Target(name, "127.0.0.1", lab.endpoints[name].port, case.profile)
            outcome = push(target, case.intended, CREDS, apply=True)
            assert outcome.status == "changed", outcome.error
            _check(case, switches[i].running)
            again = push(target, case.intended, CREDS, apply=True)
            assert (again.status, again.commands) == ("no changes", [])


# -- the firewall peer of the issue ---------------------------------------------------------
def _with_firewall(vendor: Vendor) -> tuple[VendorProfile, str, str]:
    profile = load_profile(vendor)
    intended = _configs(vendor, "new")["leaf-1"]
    peer, after = FIREWALL[vendor]
    assert after in intended
    return profile, intended.replace(after, after + peer), peer.strip()


@pytest.mark.parametrize("vendor", VENDORS, ids=[v.value for v in VENDORS])
def test_a_firewall_peer_not_in_the_intent_is_kept_unless_pruned(vendor: Vendor) -> None:
    profile, running, peer = _with_firewall(vendor)
    have = Tree.from_text(running, profile)
    want = Tree.from_text(_configs(vendor, "new")["leaf-1"], profile)
    assert remediation(have, want) == []
    pruned = remediation(have, want, prune=True)
    # the grammar's undo form: Huawei and Comware delete a peer by its address ([HW-CR],
    # [H3C-CR-CN] peer as-number)
    by_address = vendor in (Vendor.HUAWEI, Vendor.H3C)
    undo = "undo peer 192.0.2.1" if by_address else profile.negation + peer
    assert undo in pruned
    have.apply(pruned)
    assert peer not in have.render()
    assert remediation(have, want, prune=True) == []


def test_a_peer_of_the_intent_with_a_wrong_as_is_still_corrected() -> None:
    profile = load_profile(Vendor.H3C)
    intended = _configs(Vendor.H3C, "new")["leaf-1"]
    running = intended.replace("peer 10.1.0.2 as-number 65000", "peer 10.1.0.2 as-number 65009")
    commands = remediation(Tree.from_text(running, profile), Tree.from_text(intended, profile))
    # [H3C-CR-CN] peer as-number: the undo deletes the peer by its address
    assert "undo peer 10.1.0.2" in commands
    assert "peer 10.1.0.2 as-number 65000" in commands


def test_push_keeps_the_firewall_peer_and_prune_says_what_it_removes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    profile, running, peer = _with_firewall(Vendor.H3C)
    configs = tmp_path / "out"
    configs.mkdir()
    (configs / "leaf-1.cfg").write_text(_configs(Vendor.H3C, "new")["leaf-1"])
    sw = Switch.start("leaf-1", profile, running)
    with Lab([sw], USER, PASSWORD) as lab:
        port = lab.endpoints["leaf-1"].port
        inventory = lab_inventory(tmp_path / "inv.yaml", port, "h3c")
        monkeypatch.setenv("ROCE_CFG_USERNAME", USER)
        monkeypatch.setenv("ROCE_CFG_PASSWORD", PASSWORD)
        result = run("push", str(configs), "-i", str(inventory), "--apply")
        assert result.exit_code == 0, result.output
        assert "no changes" in result.stdout and "unmanaged lines are left alone" in result.stdout
        assert peer in sw.running.render()
        dry = run("push", str(configs), "-i", str(inventory), "--prune")
        assert dry.exit_code == 0, dry.output
        assert "--prune: peers, VLANs and networks" in dry.stdout
        # the grammar's undo form deletes the peer by its address [H3C-CR-CN]
        assert "1 removed by --prune\n  undo peer 192.0.2.1\n" in dry.stdout
        assert peer in sw.running.render()  # a dry run sends nothing
        applied = run("push", str(configs), "-i", str(inventory), "--apply", "--prune")
        assert applied.exit_code == 0, applied.output
        assert peer not in sw.running.render()


# -- additive lists: Huawei 'vlan batch' adds VLANs beside those there ---------------------------
def test_a_vlan_batch_line_roce_cfg_does_not_own_stays_and_ours_is_added() -> None:
    """Found by the property above (seed=0, picks=[7], drops=[2]): a running 'vlan batch 200
    201' was taken for the old form of the intent's 'vlan batch 101' and undone, deleting two
    VLANs roce-cfg does not manage. Huawei prints every VLAN in one line, so a list holding
    ours among others needs no command at all."""
    profile = load_profile(Vendor.HUAWEI)
    intended = _configs(Vendor.HUAWEI, "new")["leaf-1"]
    want = Tree.from_text(intended, profile)
    assert "\nvlan batch 101\n" in intended
    apart = intended.replace("\nvlan batch 101\n", "\nvlan batch 200 201\n")
    assert remediation(Tree.from_text(apart, profile), want) == ["vlan batch 101"]
    merged = intended.replace("\nvlan batch 101\n", "\nvlan batch 100 to 102 200\n")
    assert remediation(Tree.from_text(merged, profile), want) == []
    short = intended.replace("\nvlan batch 101\n", "\nvlan batch 100 102\n")
    assert remediation(Tree.from_text(short, profile), want) == ["vlan batch 101"]
