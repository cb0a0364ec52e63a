"""Undo forms push types, and their sources (issue 33): ``push --strict-syntax`` sends nothing
when a change would type a negation no source documents; push, remediation and rollback use
the grammar merged with the operator's overlay (--vendor-dir); every negation a restore types
is either an undo form with a citation or named by the plan."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from roce_cfg.deploy.inventory import Target
from roce_cfg.deploy.push import Credentials, changes, push, unsourced_undos
from roce_cfg.deploy.tree import Tree, remediation
from roce_cfg.lab.cli import Session, Switch
from roce_cfg.lab.server import Lab
from roce_cfg.platforms.profile import load_profile
from roce_cfg.vendor import Vendor
from tests.helpers import ROOT, golden_meta, lab_inventory, run

USER, PASSWORD = "netops", "Lab-Pa55-never-printed"
CREDS = Credentials(USER, PASSWORD)
LEAF = (ROOT / "golden" / "pod-small-h3c" / "leaf-1.cfg").read_text()
HEADROOM = "priority-flow-control dot1p 3 headroom 383"
# The running switch holds another headroom on one port: the change negates the old line with
# 'undo priority-flow-control dot1p 3 headroom', an undo form graded unsourced (no page read).
RUNNING = LEAF.replace(HEADROOM, "priority-flow-control dot1p 3 headroom 240", 1)
UNSOURCED = "undo priority-flow-control dot1p 3 headroom"
CITED_TAG = re.compile(r"\[[A-Z0-9-]+\]")


def _overlay(tmp_path: Path, undo: str) -> Path:
    """An operator's overlay that cites its own undo form for the per-priority headroom."""
    folder = tmp_path / "overlay"
    (folder / "vendors").mkdir(parents=True)
    grammar = {
        "sources": {"MY-CMW-CR": "our S9855 PFC command reference, R9xxx (a test's stand-in)"},
        "commands": [
            {
                "name": "priority-flow-control dot1p headroom",
                "view": ["interface-l2", "interface-l3"],
                "syntax": "priority-flow-control dot1p <p:int 0-7> headroom <cells:int>",
                "undo": undo,
                "undo_source": "[MY-CMW-CR] priority-flow-control dot1p headroom",
                "section": "pfc",
                "source": "[MY-CMW-CR] priority-flow-control dot1p headroom",
            }
        ],
    }
    (folder / "vendors" / "h3c.grammar.yaml").write_text(yaml.safe_dump(grammar))
    return folder


def test_strict_syntax_sends_nothing_when_a_negation_is_unsourced() -> None:
    """The same change goes through without --strict-syntax: the gate is what stops it."""
    profile = load_profile(Vendor.H3C)
    sw = Switch.start("leaf-1", profile, RUNNING)
    before = sw.running.render()
    with Lab([sw], USER, PASSWORD) as lab:
        target = Target("leaf-1", "127.0.0.1", lab.endpoints["leaf-1"].port, profile)
        strict = push(target, LEAF, CREDS, apply=True, strict=True)
        assert (strict.status, strict.kind) == ("failed", "unsourced-undo"), strict.error
        assert strict.unsourced == [f"priority-flow-control dot1p headroom: {UNSOURCED}"]
        assert "nothing sent" in strict.error
        assert sw.running.render() == before
        assert UNSOURCED in strict.commands  # the plan still says what it would have typed
        lenient = push(target, LEAF, CREDS, apply=True)
        assert lenient.status == "changed", lenient.error
        assert HEADROOM in sw.running.render()


def test_strict_syntax_lets_a_change_with_sourced_negations_through() -> None:
    """A changed description is negated by the sourced 'undo description' only: no refusal."""
    profile = load_profile(Vendor.H3C)
    running = re.sub(r" description far:server-1:nic0[^\n]*", " description spare", LEAF, count=1)
    sw = Switch.start("leaf-1", profile, running)
    with Lab([sw], USER, PASSWORD) as lab:
        target = Target("leaf-1", "127.0.0.1", lab.endpoints["leaf-1"].port, profile)
        outcome = push(target, LEAF, CREDS, apply=True, strict=True)
    assert outcome.status == "changed", outcome.error
    assert outcome.unsourced == []


def test_push_cli_strict_syntax_exits_3_and_names_each_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    configs = tmp_path / "out"
    configs.mkdir()
    (configs / "leaf-1.cfg").write_text(LEAF)
    sw = Switch.start("leaf-1", load_profile(Vendor.H3C), RUNNING)
    before = sw.running.render()
    monkeypatch.setenv("ROCE_CFG_USERNAME", USER)
    monkeypatch.setenv("ROCE_CFG_PASSWORD", PASSWORD)
    with Lab([sw], USER, PASSWORD) as lab:
        port = lab.endpoints["leaf-1"].port
        inventory = lab_inventory(tmp_path / "inv.yaml", port, "h3c")
        text = run("push", str(configs), "-i", str(inventory), "--apply", "--strict-syntax")
        doc = run(
            "push", str(configs), "-i", str(inventory), "--apply", "--strict-syntax",
            "--format", "json",
        )  # fmt: skip
    assert text.exit_code == 3, text.output
    assert "(unsourced-undo)" in text.stdout and f": {UNSOURCED}\n" in text.stdout
    assert doc.exit_code == 3, doc.output
    (host,) = json.loads(doc.stdout)["switches"]
    assert (host["status"], host["kind"]) == ("failed", "unsourced-undo")
    assert host["unsourced_undos"] == [f"priority-flow-control dot1p headroom: {UNSOURCED}"]
    assert sw.running.render() == before


def test_push_plans_with_the_overlay_grammar(tmp_path: Path) -> None:
    """--vendor-dir: the overlay's undo form is the one remediation types and the one the plan
    grades; the bundled grammar would type and report another."""
    bundled = Target("leaf-1", "127.0.0.1", 22, load_profile(Vendor.H3C))
    cited = _overlay(tmp_path, "undo priority-flow-control dot1p <p> headroom <cells>")
    overlaid = Target("leaf-1", "127.0.0.1", 22, load_profile(Vendor.H3C, cited))
    theirs, _ = changes(bundled, RUNNING, LEAF)
    ours, _ = changes(overlaid, RUNNING, LEAF)
    assert UNSOURCED in theirs and f"{UNSOURCED} 240" not in theirs
    assert f"{UNSOURCED} 240" in ours and UNSOURCED not in ours
    assert unsourced_undos(bundled, theirs) != []
    assert unsourced_undos(overlaid, ours) == []


def test_strict_push_with_the_overlay_goes_through(tmp_path: Path) -> None:
    """The overlay cites the value-less form: the strict push sends it and the switch, run with
    the same overlay, accepts it."""
    folder = _overlay(tmp_path, "undo priority-flow-control dot1p <p> headroom")
    profile = load_profile(Vendor.H3C, folder)
    sw = Switch.start("leaf-1", profile, RUNNING, overlay=folder)
    with Lab([sw], USER, PASSWORD) as lab:
        target = Target("leaf-1", "127.0.0.1", lab.endpoints["leaf-1"].port, profile)
        outcome = push(target, LEAF, CREDS, apply=True, strict=True)
    assert outcome.status == "changed", outcome.error
    assert UNSOURCED in outcome.commands and outcome.unsourced == []


GOLDEN = sorted((ROOT / "golden").glob("pod-small-*/leaf-1.cfg"))


@pytest.mark.parametrize("cfg", GOLDEN, ids=[p.parent.name for p in GOLDEN])
def test_every_negation_of_a_full_restore_is_cited_or_named(cfg: Path) -> None:
    """A full-config restore (Ruijie's and ZTE's rollback) from a whole leaf back to an empty
    switch: the strict emulator refuses exactly the negations the plan names as unsourced;
    every other negation is an undo form whose grammar entry cites a source."""
    vendor_name, model, _ = golden_meta(cfg)
    vendor = Vendor(vendor_name)
    profile = load_profile(vendor)
    grammar = profile.grammar()
    empty = Switch.start("sw", profile, model=model).running.render()
    commands = remediation(
        Tree.from_text(cfg.read_text(), profile), Tree.from_text(empty, profile), True, True
    )
    named = {u.split(": ", 1)[1] for u in unsourced_undos(Target("sw", "", 22, profile), commands)}
    strict = Switch.start("sw", profile, cfg.read_text(), model=model, unsourced=False)
    session = Session(strict)
    for line in profile.dialect.enter:
        session.feed(line)
    refused = set()
    negations = [c for c in commands if c.startswith(profile.negation)]
    assert negations, "a restore to an empty switch negates something"
    for c in commands:
        view = session.gviews[-1] if session.gviews else grammar.root
        answer = session.feed(c)
        if "rror" in answer or "%" in answer:
            refused.add(c)
            continue
        undo, _ = grammar.judge(view, c, model, profile.negation)
        owner = grammar.undone(undo) if undo is not None else None
        if owner is not None and owner.undo is not None:
            assert CITED_TAG.search(owner.undo.source or owner.source), (c, owner.name)
    # a positive line can be refused too (ZTE's unsourced 'hostname'): that is no undo form
    assert {c for c in refused if c.startswith(profile.negation)} == named


def test_strict_syntax_also_weighs_the_full_config_rollback() -> None:
    """Ruijie has no restore point of its own: a failed push would be undone line by line with
    'no ...' forms no source documents. A first push to an empty switch types no unsourced
    negation of its own ('no switchport' is a command of its own), yet --strict-syntax refuses
    it for its rollback; Comware, which goes back by its own restore
    point, takes the same kind of push."""
    for vendor, refused in ((Vendor.RUIJIE, True), (Vendor.H3C, False)):
        profile = load_profile(vendor)
        intended = (ROOT / "golden" / f"pod-small-{vendor.value}" / "leaf-1.cfg").read_text()
        sw = Switch.start("leaf-1", profile)
        before = sw.running.render()
        with Lab([sw], USER, PASSWORD) as lab:
            target = Target("leaf-1", "127.0.0.1", lab.endpoints["leaf-1"].port, profile)
            outcome = push(target, intended, CREDS, apply=True, strict=True)
        if refused:
            assert (outcome.status, outcome.kind) == ("failed", "unsourced-undo")
            assert outcome.unsourced and all(u.startswith("rollback: ") for u in outcome.unsourced)
            assert sw.running.render() == before
        else:
            assert outcome.status == "changed" and outcome.unsourced == [], outcome.error
