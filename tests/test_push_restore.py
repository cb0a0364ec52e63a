"""The restore of a failed push, to the byte: a port's state put back as the switch had it (not
a guessed opposite), the saved config restored or named, a restore step done again after a
dropped session, drops told apart from silence, and the outcome saying what was done (the
JSON ``restore``) and what the switch's own confirm timer will still do."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest

from roce_cfg.deploy.restore import differences
from roce_cfg.lab.cli import Faults, Switch
from roce_cfg.lab.server import Lab
from roce_cfg.platforms.profile import load_profile
from roce_cfg.vendor import Vendor
from tests.helpers import lab_inventory, run
from tests.pushlab import PASSWORD, USER, Result, intended, push_to

# the BGP activation comes late in every vendor's config: refusing it fails a push that has
# changed most of the switch
LATE = r"^(peer \S+ enable|neighbor \S+ activate)$"


def _bare(vendor: Vendor) -> Switch:
    return Switch.start("leaf-1", load_profile(vendor), lenient=True)


def _back(r: Result) -> None:
    """'rolled back', and true to the byte: running and saved config as they were, but for a
    line that restates a default the push typed ('lldp enable': LLDP is on either way, and the
    restore types nothing for it)."""
    assert r.outcome.status == "rolled back", r.outcome.error
    grammar = r.sw.profile.grammar()

    def stated(text: str) -> str:
        lines = text.splitlines(True)
        kept = [ln for ln in lines if not grammar.restates_default(grammar.root, ln.strip())]
        # the separator that closed the dropped line's block goes with it
        return "".join(ln for i, ln in enumerate(kept) if not (i and ln == kept[i - 1] == "!\n"))

    assert tuple(map(stated, r.after)) == tuple(map(stated, r.before))
    assert r.outcome.left == [] and r.outcome.running_back and r.outcome.saved_back


# -- a port's state as the switch had it ----------------------------------------------------
def test_a_bare_ruijie_switch_is_restored_to_the_byte() -> None:
    # the push makes uplinks routed ports ('no switchport'); the restore puts them back to what
    # an unset port is ([RJ-CG-ETH]: a Layer 2 switch port), which the switch does not print
    r = push_to(_bare(Vendor.RUIJIE), Faults(reject=LATE))
    _back(r)
    assert "switchport" not in r.after[0]
    assert r.outcome.restore.startswith("full-config restore from the snapshot")


def test_a_bare_zte_port_state_is_not_guessed_and_what_is_left_is_said() -> None:
    # No source says which state an unset ZXROS port is in: the restore types no 'shutdown'
    # (which would take down a port that may have been up) and names each 'no shutdown' left.
    r = push_to(_bare(Vendor.ZTE), Faults(reject=LATE))
    assert r.outcome.status == "rollback-failed"
    assert "shutdown" not in r.after[0].replace("no shutdown", "")
    left = differences(r.before[0], r.after[0], r.sw.profile)
    assert r.outcome.left == left and left
    assert all(x.startswith("+ interface ") and x.endswith(" > no shutdown") for x in left)
    assert "no source says which state an unset zte port is in" in r.outcome.error
    assert r.outcome.running_back is False


def test_a_zte_port_state_the_switch_printed_is_put_back() -> None:
    # read before, restored after: ports the running config prints as shut are shut again,
    # by the state the snapshot shows
    text = re.sub(r"(?m)^ *neighbor \S+ activate\n", "", intended(Vendor.ZTE))
    running = text.replace("  no shutdown\n", "  shutdown\n")
    sw = Switch.start("leaf-1", load_profile(Vendor.ZTE), running, lenient=True)
    r = push_to(sw, Faults(reject=LATE))
    _back(r)
    assert r.after[0].count("  shutdown\n") == text.count("  no shutdown\n") > 0


# -- a restore step done again after a dropped session ---------------------------------------
@pytest.mark.sample(1)
@pytest.mark.parametrize(
    ("vendor", "line"),
    [
        (Vendor.H3C, r"^configuration replace file"),
        (Vendor.HUAWEI, r"^rollback configuration"),
        (Vendor.RUIJIE, r"^default interface"),  # a port reset by the restore
    ],
    ids=["h3c", "huawei", "ruijie"],
)
def test_a_restore_step_is_done_again_after_one_dropped_session(vendor: Vendor, line: str) -> None:
    fail = r"^description far:spine" if vendor == Vendor.HUAWEI else LATE
    faults = Faults(not_applied=fail) if vendor == Vendor.HUAWEI else Faults(reject=fail)
    faults.drop_on, faults.drops = line, 1
    r = push_to(_bare(vendor), faults, timeout=10)
    _back(r)
    assert "the session was lost (the switch closed the connection" in r.outcome.restore
    assert "done again on a new one" in r.outcome.restore


def test_a_restore_dropped_twice_at_one_step_is_rollback_failed_with_what_is_left() -> None:
    faults = Faults(reject=LATE, drop_on=r"^configuration replace file", drops=2)
    r = push_to(_bare(Vendor.H3C), faults, timeout=10)
    assert r.outcome.status == "rollback-failed"
    assert r.outcome.left == differences(r.before[0], r.after[0], r.sw.profile) != []
    assert "closed the connection" in r.outcome.error


# -- the saved config ------------------------------------------------------------------------
def test_an_unreadable_saved_config_is_saved_back_and_said_with_running_back() -> None:
    # every read of the saved config hangs up: the push's own check of its save, and the
    # restore's, on each new session
    r = push_to(_bare(Vendor.H3C), Faults(drop_on=r"^display saved"), timeout=10)
    assert r.outcome.status == "rollback-failed" and r.outcome.kind == "dropped"
    assert r.outcome.running_back is True and r.outcome.saved_back is None
    assert "running config back as before the push" in r.outcome.error
    assert r.after == r.before  # the push had saved: the restored running config saved again
    assert len(r.outcome.left) == 1
    assert r.outcome.left[0].startswith("saved: ? saved again, not read back")


def test_an_unreadable_saved_config_that_was_not_the_running_one_is_named() -> None:
    sw = _bare(Vendor.H3C)
    sw.saved = sw.saved.replace("sysname leaf-1", "sysname leaf-1\n#\n ntp-service enable")
    r = push_to(sw, Faults(drop_on=r"^display saved"), timeout=10)
    assert r.outcome.status == "rollback-failed" and r.outcome.running_back is True
    assert (
        r.outcome.left == [r.outcome.left[0]] and "may hold the pushed config" in r.outcome.left[0]
    )
    assert "saving again cannot restore it" in r.outcome.error
    assert r.after[0] == r.before[0]
    assert differences(r.before[1], r.after[1], sw.profile)  # it does hold the push: said so


# -- precise messages for a drop while a display is read ------------------------------------
def test_a_drop_while_reading_a_display_is_a_drop_said_at_once() -> None:
    faults = Faults(drop_on=r"^display current", drops=1)  # the push's read-back after applying
    r = push_to(_bare(Vendor.H3C), faults)  # 60 s per answer: a drop must not wait for it
    assert r.outcome.kind == "dropped"
    said = re.search(
        r"the switch closed the connection while 'display current-configuration' was read "
        r"\((\d+\.\d) s in\)",
        r.outcome.error,
    )
    assert said and float(said.group(1)) < 5
    assert "waited" not in r.outcome.error
    assert r.seconds < 30
    _back(r)


# -- the JSON 'restore' ----------------------------------------------------------------------
def test_the_restore_names_what_was_done() -> None:
    # refused before the commit: nothing was committed, nothing was rolled back
    r = push_to(_bare(Vendor.HUAWEI), Faults(reject=LATE))
    _back(r)
    assert r.outcome.restore == (
        "nothing was committed: the uncommitted changes were discarded "
        "(clear configuration candidate)"
    )
    # wrong after the commit: the commit history's restore point
    r = push_to(_bare(Vendor.HUAWEI), Faults(not_applied=r"^description far:spine"))
    _back(r)
    assert r.outcome.restore == "vendor restore point: rollback configuration last 1"


# -- the switch's own confirm timer ----------------------------------------------------------
@pytest.mark.sample(1)
@pytest.mark.parametrize("vendor", [Vendor.H3C, Vendor.HUAWEI], ids=["h3c", "huawei"])
def test_a_confirm_timer_left_running_is_named_with_when_it_reverts(
    vendor: Vendor, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    restore = (
        r"^(configuration replace file|rollback configuration|abort trial|configuration commit$)"
    )
    sw = _bare(vendor)
    sw.faults = Faults(not_applied=r"^description far:spine", reject=restore)
    configs = tmp_path / "out"
    configs.mkdir()
    (configs / "leaf-1.cfg").write_text(intended(vendor))
    monkeypatch.setenv("ROCE_CFG_USERNAME", USER)
    monkeypatch.setenv("ROCE_CFG_PASSWORD", PASSWORD)
    with Lab([sw], USER, PASSWORD) as lab:
        inventory = lab_inventory(tmp_path / "inv.yaml", lab.endpoints["leaf-1"].port, vendor.value)
        start = time.time()
        args = ["push", str(configs), "-i", str(inventory), "--apply", "--confirm-timeout", "300"]
        result = run(*args, "--format", "json")
    assert result.exit_code == 4, result.output
    (switch,) = json.loads(result.stdout)["switches"]
    arm = "commit trial 300" if vendor == Vendor.HUAWEI else "configuration commit delay 5"
    assert f"the switch's own confirm timer ('{arm}') still runs" in switch["timer"]
    at = re.search(r"at about (\d\d):(\d\d):(\d\d) UTC", switch["timer"])
    assert at is not None
    fires = time.gmtime(start + 300)
    assert (int(at.group(1)), int(at.group(2))) in {
        (fires.tm_hour, fires.tm_min),
        time.gmtime(start + 360)[3:5],
    }
    assert switch["timer"] in switch["error"]
    assert sw.points.pending is not None  # and it does run


def test_the_lab_prints_a_port_emptied_by_undoing_as_never_configured() -> None:
    from roce_cfg.lab.cli import Session

    sw = _bare(Vendor.RUIJIE)
    session = Session(sw)
    port = "interface FourHundredGigabitEthernet 0/5"
    lines = ["configure terminal", port, "exit", "interface FourHundredGigabitEthernet 0/6"]
    lines += ["no switchport", "no shutdown", "description x", "no description", "switchport"]
    for line in [*lines, "end"]:
        session.feed(line)
    text = sw.running.render()
    assert f"{port}\n" in text  # typed with nothing in it: there, as typed
    assert "0/6" not in text  # its lines undone, its state at the default: as before
