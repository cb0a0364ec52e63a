"""The undo forms no source documents, listed per vendor (``roce-cfg vendors --undo-gaps``),
and the documented way to own them: ``--undo-overlay VENDOR`` writes an overlay grammar with
every gap, uncited (it changes nothing as written); an operator who confirms the forms cites
them, and ``push --strict-syntax`` then goes through on Ruijie and ZTE, a first push and the
rollback of a failed one alike."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from roce_cfg.deploy.inventory import Target
from roce_cfg.deploy.push import Credentials, push
from roce_cfg.grammar import load_grammar
from roce_cfg.grammar.gaps import gaps, skeleton
from roce_cfg.lab.cli import Faults, Switch
from roce_cfg.lab.server import Lab
from roce_cfg.platforms.profile import load_profile
from roce_cfg.vendor import Vendor
from tests.helpers import ROOT, run

USER, PASSWORD = "netops", "Lab-Pa55-never-printed"
OWNED = (Vendor.RUIJIE, Vendor.ZTE)


def _golden(vendor: Vendor) -> str:
    return (ROOT / "golden" / f"pod-small-{vendor.value}" / "leaf-1.cfg").read_text()


def _overlay(tmp_path: Path, vendor: Vendor, cite: bool) -> Path:
    """The skeleton in an overlay folder; with ``cite``, every form confirmed and cited, as an
    operator does after trying each one on the switch."""
    folder = tmp_path / f"overlay-{vendor.value}"
    (folder / "vendors").mkdir(parents=True)
    text = skeleton(vendor.value)
    if cite:
        doc = yaml.safe_load(text)
        doc["sources"] = {"LAB-CAPTURE": "captured from an emulated switch (a test's stand-in)"}
        for c in doc["commands"]:
            c["undo_source"] = f"[LAB-CAPTURE] {c['name']}"
        text = yaml.safe_dump(doc, sort_keys=False, allow_unicode=True)
    (folder / "vendors" / f"{vendor.value}.grammar.yaml").write_text(text, encoding="utf-8")
    return folder


def test_the_gaps_are_listed_per_vendor() -> None:
    text = run("vendors", "--undo-gaps")
    assert text.exit_code == 0, text.output
    doc = json.loads(run("vendors", "--format", "json").stdout)
    for vendor in Vendor:
        listed = [g for g in doc["undo_gaps"] if g["vendor"] == vendor.value]
        assert len(listed) == len(gaps(vendor.value))
        assert len(re.findall(rf"^{vendor.value}\t", text.stdout, re.M)) == len(listed)
    assert not gaps("huawei")  # every VRP undo form is the [HW-CR] page's
    assert {"pfc", "watchdog", "ecn"} <= {g.section for g in gaps("ruijie")}


@pytest.mark.parametrize("vendor", OWNED, ids=[v.value for v in OWNED])
def test_the_overlay_as_written_changes_nothing(tmp_path: Path, vendor: Vendor) -> None:
    printed = run("vendors", "--undo-overlay", vendor.value)
    assert printed.exit_code == 0 and printed.stdout == skeleton(vendor.value)
    folder = _overlay(tmp_path, vendor, cite=False)
    bundled, overlaid = load_grammar(vendor.value), load_grammar(vendor.value, folder)
    assert overlaid.undo_coverage() == bundled.undo_coverage()
    assert gaps(vendor.value, folder) == gaps(vendor.value)
    theirs = {c.name: c for c in overlaid.commands}
    for ours in bundled.commands:
        mine = theirs[ours.name]
        assert (ours.undo is None) == (mine.undo is None), ours.name
        if ours.undo is not None and mine.undo is not None:
            assert (ours.undo.forms, ours.undo.status) == (mine.undo.forms, mine.undo.status)


@pytest.mark.sample(1)
@pytest.mark.parametrize("vendor", OWNED, ids=[v.value for v in OWNED])
def test_cited_gaps_make_strict_pushes_usable(tmp_path: Path, vendor: Vendor) -> None:
    """Without the overlay, strict mode refuses a first push (its rollback would type forms no
    source documents); with the cited overlay it goes through, and a failed one rolls back."""
    folder = _overlay(tmp_path, vendor, cite=True)
    assert gaps(vendor.value, folder) == []
    creds = Credentials(USER, PASSWORD)
    for overlay, fault, status in (
        (None, None, "failed"),
        (folder, None, "changed"),
        (folder, r"description far:server-1:nic0", "rolled back"),
    ):
        profile = load_profile(vendor, overlay)
        sw = Switch.start("leaf-1", profile, overlay=overlay)
        sw.faults = Faults(reject=fault)
        before = sw.running.render()
        with Lab([sw], USER, PASSWORD) as lab:
            target = Target("leaf-1", "127.0.0.1", lab.endpoints["leaf-1"].port, profile)
            outcome = push(target, _golden(vendor), creds, apply=True, strict=True)
        assert outcome.status == status, (overlay, outcome.error)
        if overlay is None:
            assert outcome.kind == "unsourced-undo" and outcome.unsourced
            assert sw.running.render() == before  # nothing sent
        else:
            assert outcome.unsourced == []
