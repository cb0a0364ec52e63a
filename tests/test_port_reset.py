"""RGOS returns a port's settings to the defaults with the default form of 'interface'
([RJ-CG-ETH] 1.4.1; grammar 'resets'): a full-config restore resets a port with that one sourced
line instead of negating each setting with an IOS-style 'no' no source prints, and types again
what the snapshot had on it. The emulator empties the port and keeps it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from roce_cfg.deploy.inventory import Target
from roce_cfg.deploy.push import rollback_unsourced
from roce_cfg.deploy.tree import Tree, remediation
from roce_cfg.grammar import load_grammar
from roce_cfg.grammar.syntax import GrammarError
from roce_cfg.lab.cli import Session, Switch
from roce_cfg.platforms.profile import load_profile
from roce_cfg.vendor import Vendor
from tests.helpers import ROOT

PROFILE = load_profile(Vendor.RUIJIE)
LEAF = (ROOT / "golden" / "pod-small-ruijie" / "leaf-1.cfg").read_text()
PORT = "interface FourHundredGigabitEthernet 0/1"


def _empty() -> str:
    return Switch.start("leaf-1", PROFILE).running.render()


def test_the_grammar_renders_and_reads_the_reset_of_a_port() -> None:
    grammar = load_grammar("ruijie")
    assert grammar.reset_for(grammar.root, PORT) == "default " + PORT
    assert grammar.reset_target(grammar.root, "default " + PORT) == PORT
    assert grammar.reset_for(grammar.root, "interface Vlan 101") is None  # 'no interface' it
    assert load_grammar("zte").reset_for("system", "interface cdgei-0/1/0/1") is None


def test_the_emulator_empties_the_port_and_keeps_it() -> None:
    s = Session(Switch.start("leaf-1", PROFILE, LEAF))
    s.feed("configure terminal")
    assert "%" not in s.feed("default " + PORT)
    after = s.sw.running.render()
    assert PORT + "\n" in after and "far:server-1:nic0" not in after
    assert "far:server-2:nic0" in after  # the next port is untouched


def test_a_restore_to_an_empty_switch_resets_each_port() -> None:
    back = remediation(Tree.from_text(LEAF, PROFILE), Tree.from_text(_empty(), PROFILE), True, True)
    ports = re.findall(r"^interface \S+GigabitEthernet \S+$", LEAF, re.M)
    assert ports and [c for c in back if c.startswith("default interface ")] == [
        "default " + p for p in reversed(ports)
    ]
    negated = [c for c in back if c.startswith("no ")]
    port_lines = (
        "no priority-queue",
        "no priority-flow-control nodrop",
        "no mtu",
        "no mls qos trust",
    )
    assert negated and not any(c.startswith(port_lines) for c in negated)
    vlan_if = next(i for i, c in enumerate(back) if c.startswith("no interface Vlan"))
    assert all(i > vlan_if for i, c in enumerate(back) if c.startswith("no vlan "))  # SVI first
    after = Tree.from_text(LEAF, PROFILE)
    after.apply(back)
    assert remediation(after, Tree.from_text(_empty(), PROFILE), True, True) == []


def test_a_port_both_have_is_reset_and_typed_again_when_it_loses_a_line() -> None:
    before = LEAF.replace(" description far:server-1:nic0 speed=200G cable=3m\n", "", 1)
    back = remediation(Tree.from_text(LEAF, PROFILE), Tree.from_text(before, PROFILE), True, True)
    i = back.index("default " + PORT)
    assert back[i + 1] == PORT and "no description" not in back
    assert " description far:server-1" not in " ".join(back)
    after = Tree.from_text(LEAF, PROFILE)
    after.apply(back)
    assert after.render() == Tree.from_text(before, PROFILE).render()


def test_the_rollback_of_a_first_push_types_few_unsourced_negations() -> None:
    """275 unsourced negations before the sourced removals and the port reset; what is left
    are global lossless and BGP lines no Ruijie source prints at all."""
    target = Target("leaf-1", "", 22, PROFILE)
    empty = _empty()
    commands = remediation(Tree.from_text(empty, PROFILE), Tree.from_text(LEAF, PROFILE))
    left = rollback_unsourced(target, empty, commands)
    assert 0 < len(left) <= 8, left
    names = {u.split(": ")[1] for u in left}
    assert names <= {
        "mls qos map dscp-cos",
        "mls qos map cos-queue",
        "priority-flow-control deadlock-detect (global)",
        "wred-profile",
        "router bgp",
    }, names


def test_a_reset_of_an_unknown_view_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "overlay"
    (folder / "vendors").mkdir(parents=True)
    grammar = {
        "commands": [
            {
                "name": "default interface (Ethernet)",
                "view": "system",
                "syntax": "default interface <port:word>",
                "resets": "interface (Eth)",
                "section": "interfaces",
            }
        ]
    }
    (folder / "vendors" / "ruijie.grammar.yaml").write_text(yaml.safe_dump(grammar))
    with pytest.raises(GrammarError, match="resets 'interface \\(Eth\\)', no such view"):
        load_grammar("ruijie", folder)
