"""Issue 29's cases against the lab, in H3C and Huawei: a fault at some point of a push, and
afterwards the switch is either at the intended config and saved ('changed'), or exactly at
its running and saved config from before the push ('rolled back'), or the outcome says what is
left ('rollback-failed', which must then be true). Never 'rolled back' with a difference."""

from __future__ import annotations

import re

import pytest

from roce_cfg.deploy.restore import differences
from roce_cfg.lab.cli import Faults, Switch
from roce_cfg.lab.commit import expire
from roce_cfg.platforms.profile import load_profile
from roce_cfg.vendor import Vendor
from tests.pushlab import Result, intended, push_to

NATIVE = [Vendor.H3C, Vendor.HUAWEI]  # vendors with a sourced restore point and confirm timer

# Lines that are no business of roce-cfg's: they must survive whatever happens.
UNMANAGED = {
    Vendor.H3C: "#\n snmp-agent sys-info location rack-7\n"
    "#\nacl advanced 3001\n rule 5 permit ip\n",
    Vendor.HUAWEI: "#\nsnmp-agent sys-info location rack-7\n"
    "#\nacl number 3001\n rule 5 permit ip\n",
}


def _start(vendor: Vendor, state: str) -> Switch:
    profile = load_profile(vendor)
    if state == "bare":
        return Switch.start("leaf-1", profile, lenient=True)
    text = intended(vendor)
    if state == "older":  # an older lossless policy: other descriptions, a port without PFC
        text = re.sub(r"description far:server-1:nic0[^\n]*", "description old", text)
    body = text.rsplit("#\nreturn", 1)[0]
    return Switch.start("leaf-1", profile, body + UNMANAGED[vendor] + "#\nreturn\n", lenient=True)


def _push(vendor: Vendor, state: str, faults: Faults, **kw: object) -> Result:
    return push_to(_start(vendor, state), faults, **kw)


def _rolled_back(r: Result) -> None:
    """'rolled back' and true: running and saved exactly as before (order within a view aside)."""
    assert r.outcome.status == "rolled back", r.outcome.error
    profile = r.sw.profile
    assert differences(r.before[0], r.after[0], profile) == []
    assert differences(r.before[1], r.after[1], profile) == []
    assert r.outcome.left == []


def _changed(r: Result, vendor: Vendor) -> None:
    assert r.outcome.status == "changed", r.outcome.error
    assert r.outcome.saved
    profile = r.sw.profile
    assert differences(r.after[0], r.after[1], profile) == []  # saved is the running config
    want = intended(vendor)
    extra = set(UNMANAGED[vendor].splitlines()) - {"#"}
    left = [d for d in differences(want, r.after[0], profile) if d[2:].strip() not in extra]
    assert all(d.startswith("+") for d in left) and len(left) <= len(extra), left


V = pytest.mark.parametrize("vendor", NATIVE, ids=[v.value for v in NATIVE])
# the quick suite pushes each case into one of the two vendors (a test's own sample(k) aside)
pytestmark = pytest.mark.sample(1)


@pytest.mark.sample(2)
@V
@pytest.mark.parametrize("state", ["bare", "older"])
def test_reject_of_a_late_line_rolls_back_exactly(vendor: Vendor, state: str) -> None:
    # bare: the lossless config's late BGP line; older: the one port description that differs
    late = r"^peer .* enable" if state == "bare" else r"^description far:server-1"
    r = _push(vendor, state, Faults(reject=late))
    _rolled_back(r)
    assert (
        "rejected at command: "
        + ("peer 10.1.0.0 enable" if state == "bare" else "description far:server-1")
        in r.outcome.error
    )
    assert r.outcome.kind == "rejected"


@pytest.mark.sample(2)
@V
@pytest.mark.parametrize("after", [3, 150, 300])
def test_a_drop_at_several_points_rolls_back_exactly(vendor: Vendor, after: int) -> None:
    r = _push(vendor, "bare", Faults(drop_after=after), timeout=5)
    _rolled_back(r)
    assert r.outcome.kind == "dropped"


@pytest.mark.slow
@V
@pytest.mark.parametrize("line", ["^return$", "^save", "^display saved"])
def test_a_drop_at_leaving_saving_or_verifying_the_save_rolls_back(
    vendor: Vendor, line: str
) -> None:
    r = _push(vendor, "bare", Faults(drop_on=line), timeout=5)
    assert r.outcome.kind == "dropped", r.outcome.error
    if r.outcome.status == "rollback-failed":  # the rollback needs the same line again
        left = differences(r.before[0], r.after[0], r.sw.profile)
        if r.outcome.running_back:  # said so, and true; only the saved config is in doubt
            assert left == [] and "running config back as before the push" in r.outcome.error
            assert all(x.startswith("saved: ") for x in r.outcome.left), r.outcome.left
            return
        assert r.outcome.left == left or r.outcome.left[0].startswith("?"), r.outcome.error
        assert left or r.after[1] != r.before[1] or r.outcome.left[0].startswith("?")
        return
    _rolled_back(r)


@V
def test_a_slow_switch_is_still_changed(vendor: Vendor) -> None:
    r = _push(vendor, "older", Faults(delay_s=0.002))
    _changed(r, vendor)


# a CLI stuck on its save answers nothing typed after it: the restore waits out its timeouts on
# new sessions (17 s), so --full runs it
@pytest.mark.slow
@V
def test_a_save_that_hangs_is_no_false_rollback_failed(vendor: Vendor) -> None:
    r = _push(vendor, "older", Faults(hang_on=r"^save"), timeout=3)
    _rolled_back(r)
    assert "save" in r.outcome.error


@V
def test_a_failed_save_is_noticed_and_rolled_back(vendor: Vendor) -> None:
    r = _push(vendor, "bare", Faults(save_error=True))
    _rolled_back(r)
    assert "Failed to save" in r.outcome.error


@V
def test_a_verify_mismatch_after_commit_rolls_back_the_whole_change(vendor: Vendor) -> None:
    r = _push(vendor, "bare", Faults(not_applied=r"^description"))
    _rolled_back(r)
    assert "verify" in r.outcome.error


def test_a_commit_error_leaves_nothing_behind() -> None:
    r = _push(Vendor.HUAWEI, "bare", Faults(commit_error=True))
    _rolled_back(r)
    assert "Failed to generate committed config" in r.outcome.error
    assert "ReadTimeout" not in r.outcome.error


@V
def test_a_refused_login_changes_nothing(vendor: Vendor) -> None:
    r = _push(vendor, "older", Faults(refuse_login=True), timeout=5)
    assert r.outcome.status == "failed" and r.outcome.kind == "auth-failed"
    assert r.after == r.before


@V
def test_a_rejected_interface_line_stops_at_once_with_the_vendors_error(vendor: Vendor) -> None:
    r = _push(vendor, "bare", Faults(reject=r"^interface \S+1/\d/2$"), timeout=60)
    _rolled_back(r)
    assert re.search(
        r"rejected at command: interface \S+1/\d/2 \((%|Error:) Unrecognized", r.outcome.error
    )
    # nothing after the refused line went out: the port's own lines never landed anywhere
    sent = r.outcome.commands
    refused = next(i for i, c in enumerate(sent) if re.match(r"interface \S+1/\d/2$", c))
    assert sent[refused + 1] not in r.sw.running.render()


@V
def test_a_rejected_rollback_is_rollback_failed_and_says_what_is_left(vendor: Vendor) -> None:
    restore = r"^(configuration replace file|rollback configuration)"
    r = _push(vendor, "bare", Faults(not_applied=r"^description", reject=restore))
    assert r.outcome.status == "rollback-failed"
    left = differences(r.before[0], r.after[0], r.sw.profile)
    assert left and r.outcome.left == left  # what it says is left is what is left


@V
def test_unmanaged_lines_survive_a_failed_push(vendor: Vendor) -> None:
    r = _push(vendor, "older", Faults(reject=r"^description far:server-1"))
    _rolled_back(r)
    assert "rule 5 permit ip" in r.after[0] and "rack-7" in r.after[0]


@V
def test_a_confirmed_push_is_confirmed_once_verified(vendor: Vendor) -> None:
    r = _push(vendor, "older", Faults(), confirm=300)
    _changed(r, vendor)
    assert r.sw.points.pending is None  # the timer is stopped: nothing will revert later


@V
def test_a_confirmed_push_that_cannot_be_rolled_back_reverts_by_the_switchs_own_timer(
    vendor: Vendor,
) -> None:
    # The push is verified wrong and every way back by push is refused: the timer remains.
    restore = r"^(configuration replace file|rollback configuration|abort trial)"
    r = _push(vendor, "bare", Faults(not_applied=r"^description", reject=restore), confirm=300)
    assert r.outcome.status == "rollback-failed"
    assert r.sw.points.pending is not None
    expire(r.sw)  # the timer runs out (300 s in life)
    assert differences(r.before[0], r.sw.running.render(), r.sw.profile) == []
