"""Staged settings a switch locks once applied (Comware's data buffer, [H3C-CMDHELP]): an
applied buffer configuration cannot be changed, so a change is 'undo buffer apply', the edits,
'buffer apply'. Remediation types that order, the lab emulator refuses an edit while applied,
and a push of a buffer change goes through the emulator."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from roce_cfg.deploy.inventory import Target
from roce_cfg.deploy.push import Credentials, push
from roce_cfg.deploy.tree import Tree, remediation
from roce_cfg.lab.cli import Session, Switch
from roce_cfg.lab.server import Lab
from roce_cfg.platforms.profile import load_profile
from roce_cfg.platforms.steps import ApplyStep
from roce_cfg.vendor import Vendor
from tests.helpers import ROOT

PROFILE = load_profile(Vendor.H3C)
LEAF = (ROOT / "golden" / "pod-small-h3c" / "leaf-1.cfg").read_text()
USER, PASSWORD = "netops", "Lab-Pa55-never-printed"


def _leaf(ratio: int | None, applied: bool = True) -> str:
    """The golden leaf with a buffer cap on queue 3 (and 'buffer apply') before 'return'."""
    if ratio is None:
        return LEAF
    extra = f"#\n buffer egress cell queue 3 shared ratio {ratio}\n"
    extra += " buffer apply\n" if applied else ""
    assert LEAF.endswith("#\nreturn\n")
    return LEAF.removesuffix("#\nreturn\n") + extra + "#\nreturn\n"


def _plan(running: str, intended: str) -> list[str]:
    return remediation(Tree.from_text(running, PROFILE), Tree.from_text(intended, PROFILE))


def test_a_change_to_an_applied_buffer_is_lifted_edited_and_applied_again() -> None:
    assert _plan(_leaf(80), _leaf(60)) == [
        "undo buffer apply",
        "undo buffer egress cell queue 3 shared",
        "buffer egress cell queue 3 shared ratio 60",
        "buffer apply",
    ]


def test_an_unapplied_buffer_is_edited_then_applied() -> None:
    assert _plan(_leaf(80, applied=False), _leaf(60)) == [
        "undo buffer egress cell queue 3 shared",
        "buffer egress cell queue 3 shared ratio 60",
        "buffer apply",
    ]
    assert _plan(_leaf(None), _leaf(60)) == [
        "buffer egress cell queue 3 shared ratio 60",
        "buffer apply",
    ]


def test_no_buffer_change_types_no_apply() -> None:
    assert _plan(_leaf(80), _leaf(80)) == []
    assert "buffer apply" not in " ".join(_plan(_leaf(80), LEAF.replace("stp edged-port", "")))


def test_the_emulator_refuses_an_edit_while_applied() -> None:
    session = Session(Switch.start("sw", PROFILE, _leaf(80)))
    session.feed("system-view")
    refused = session.feed("buffer egress cell queue 3 shared ratio 60")
    assert "Unrecognized command" in refused and "'undo buffer apply' first" in refused
    assert "Unrecognized" in session.feed("undo buffer egress cell queue 3 shared")
    for line in _plan(_leaf(80), _leaf(60)):
        answer = session.feed(line)
        assert "%" not in answer, (line, answer)
    assert session.sw.running.render() == Tree.from_text(_leaf(60), PROFILE).render()


def test_a_push_changes_an_applied_buffer() -> None:
    sw = Switch.start("leaf-1", PROFILE, _leaf(80))
    with Lab([sw], USER, PASSWORD) as lab:
        target = Target("leaf-1", "127.0.0.1", lab.endpoints["leaf-1"].port, PROFILE)
        outcome = push(target, _leaf(60), Credentials(USER, PASSWORD), apply=True)
    assert outcome.status == "changed", outcome.error
    assert outcome.commands[0] == "undo buffer apply" and outcome.commands[-1] == "buffer apply"
    assert sw.running.render() == Tree.from_text(_leaf(60), PROFILE).render()


def test_a_locked_step_names_its_apply_and_lift_lines() -> None:
    with pytest.raises(ValidationError, match="needs its apply command"):
        ApplyStep(edits="^buffer ", apply="^buffer apply$", locked=True)
