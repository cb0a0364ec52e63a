"""What restore and confirm commands ask before they act (``questions`` in the dialect):
Comware's 'save <file>' asks to continue, and to overwrite a file already there, and
'configuration replace file' whether to save the current configuration first
([H3C-CMDHELP]); VRP's 'rollback configuration' and 'abort trial' ask to continue ([HW-CR]).
The emulators ask them, push answers them."""

from __future__ import annotations

import re

from roce_cfg.deploy.inventory import Target
from roce_cfg.deploy.push import Credentials, push
from roce_cfg.generate import generate
from roce_cfg.lab.cli import Faults, Session, Switch
from roce_cfg.lab.server import Lab
from roce_cfg.platforms.profile import load_profile
from roce_cfg.vendor import Vendor
from tests.helpers import SCENARIOS

USER, PASSWORD = "netops", "Lab-Pa55-never-printed"
FILE = "flash:/roce-cfg-before.cfg"


def _session(vendor: Vendor) -> Session:
    profile = load_profile(vendor)
    return Session(
        Switch.start(
            "sw", profile, generate(SCENARIOS[f"pod-small-{vendor.value}"]).configs["leaf-1"]
        )
    )


def test_comware_save_to_a_file_asks_and_asks_again_to_overwrite() -> None:
    s = _session(Vendor.H3C)
    assert s.feed(f"save {FILE}") == "Continue? [Y/N:y]"
    assert s.feed("y") == "<sw>" and FILE in s.sw.points.files
    s.sw.points.files[FILE] = "stale"
    assert s.feed(f"save {FILE}") == "Continue? [Y/N:y]"
    assert s.feed("y") == "overwrite? [Y/N:y]"
    assert s.feed("n") == "<sw>" and s.sw.points.files[FILE] == "stale"  # 'n' abandons it


def test_comware_replace_asks_whether_to_save_first_and_replaces_on_no() -> None:
    s = _session(Vendor.H3C)
    before = s.sw.running.render()
    s.feed(f"save {FILE}")
    s.feed("y")
    s.feed("system-view")
    s.feed("interface HundredGigE1/0/1")
    s.feed("description changed")
    s.feed("quit")
    asked = s.feed(f"configuration replace file {FILE}")
    assert asked == "save current configuration? [Y/N:n]"
    assert s.sw.running.render() != before  # nothing replaced while it asks
    assert s.feed("n") == "[sw]"
    assert s.sw.running.render() == before


def test_vrp_rollback_and_abort_trial_ask_to_continue() -> None:
    s = _session(Vendor.HUAWEI)
    before = s.sw.running.render()
    for line in ("system-view", "interface 100GE1/0/1", "description changed", "commit", "return"):
        s.feed(line)
    assert s.feed("rollback configuration last 1") == "Continue? [Y/N]:"
    assert s.feed("y") == "<sw>"
    assert s.sw.running.render() == before
    for line in ("system-view", "interface 100GE1/0/1", "description changed"):
        s.feed(line)
    s.feed("commit trial 120")
    assert s.feed("abort trial") == "Continue? [Y/N]:"
    assert s.feed("y").endswith("]")
    assert s.sw.running.render() == before


def _failing(vendor: Vendor) -> tuple[Switch, str]:
    """A leaf whose push changes its second server port's description, then fails at the
    third's: there is a change to undo (a push refused at its first change has none)."""
    text = generate(SCENARIOS[f"pod-small-{vendor.value}"]).configs["leaf-1"]
    running = text
    for server in (2, 3):
        running = re.sub(
            rf" description far:server-{server}:nic0[^\n]*", " description spare", running, count=1
        )
    sw = Switch.start("leaf-1", load_profile(vendor), running)
    # on VRP a line refused before the commit is discarded with the candidate: the restore
    # point (and its question) is used once a change was committed, so its save fails there
    sw.faults = (
        Faults(save_error=True)
        if vendor is Vendor.HUAWEI
        else Faults(reject=r"description far:server-3:nic0")
    )
    return sw, text


def test_push_answers_the_questions_of_its_restore_point() -> None:
    """Two failed pushes to one Comware switch (the second finds its checkpoint file there and
    is asked to overwrite it) and one to VRP: each is rolled back by the vendor's own command
    after its questions are answered."""
    for vendor, tries in ((Vendor.H3C, 2), (Vendor.HUAWEI, 1)):
        sw, text = _failing(vendor)
        before = sw.running.render()
        with Lab([sw], USER, PASSWORD) as lab:
            target = Target("leaf-1", "127.0.0.1", lab.endpoints["leaf-1"].port, sw.profile)
            for _ in range(tries):
                outcome = push(target, text, Credentials(USER, PASSWORD), apply=True, timeout=5)
                assert outcome.status == "rolled back", (vendor, outcome.error)
                # it got as far as the refused line (the failed save), and went back from there
                failed = "save" if vendor is Vendor.HUAWEI else "description far:server-3"
                assert failed in outcome.error, outcome.error
                assert outcome.restore.startswith("vendor restore point")
        assert sw.running.render() == before
        assert vendor is Vendor.HUAWEI or FILE in sw.points.files
