"""Issue 29's closing property: a random fabric switch, a random pre-push state (bare, an older
lossless config with lines lost and unmanaged extras, or the intended config with extras), a
random fault at a random command, pushed through SSH to the lab. Afterwards the switch is
either at the intended config and saved ('changed'), or at its pre-push running and saved
config (order within a view aside: 'rolled back', 'failed' before any change, 'no changes'),
or the outcome is 'rollback-failed' and says exactly what is left. Never 'rolled back' with a
difference. The outcome counts are printed at the end (pytest -s)."""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from roce_cfg.deploy.inventory import Target
from roce_cfg.deploy.push import Credentials, changes, push
from roce_cfg.deploy.restore import differences
from roce_cfg.deploy.tree import Tree, remediation
from roce_cfg.lab.cli import Faults, Switch
from roce_cfg.lab.server import Lab
from roce_cfg.platforms.profile import load_profile
from roce_cfg.vendor import Vendor
from tests.helpers import examples
from tests.test_push_scope import DEVICES, Case, _case, _paths

USER, PASSWORD = "netops", "Lab-Pa55-never-printed"
CREDS = Credentials(USER, PASSWORD)
# 40 per CI run (--full; about 2 minutes), a tenth in the quick suite; ROCE_CFG_PUSH_EXAMPLES=500
# with --full for a long run.
EXAMPLES = int(os.environ.get("ROCE_CFG_PUSH_EXAMPLES", "40"))
KINDS = ("none", "reject", "drop-after", "hang-on", "not-applied", "save-error", "commit-error",
         "drop-on-save", "rollback-rejected", "slow")  # fmt: skip
COUNTS: Counter[str] = Counter()


@pytest.fixture(scope="module", autouse=True)
def _report() -> Iterator[None]:
    yield
    total = sum(COUNTS.values())
    print(f"\nissue 29 property: {total} examples; " + ", ".join(
        f"{k}: {n}" for k, n in sorted(COUNTS.items())))  # fmt: skip


def _fault(kind: str, commands: list[str], at: float, profile_restore: tuple[str, ...]) -> Faults:
    lines = [c for c in commands if c.strip() not in ("quit", "exit", "return", "end")]
    line = lines[min(len(lines) - 1, int(at * len(lines)))] if lines else "never"
    exact = "^" + re.escape(line.strip()) + "$"
    restore = "|".join(re.escape(c.split("{")[0].strip()) for c in profile_restore) or "^$never"
    return {
        "none": Faults(),
        "reject": Faults(reject=exact),
        "drop-after": Faults(drop_after=int(at * len(commands))),
        "hang-on": Faults(hang_on=exact),
        "not-applied": Faults(not_applied=exact),
        "save-error": Faults(save_error=True),
        "commit-error": Faults(commit_error=True),
        "drop-on-save": Faults(drop_on=r"^save"),
        "rollback-rejected": Faults(not_applied=exact, reject=f"^({restore})"),
        "slow": Faults(delay_s=0.001),
    }[kind]


def _start(vendor: Vendor, device: str, state: str, seed: int, picks: list[int]) -> Case:
    """bare: nothing but a hostname; older+extras: an older lossless policy of the same fabric
    with lines lost and unmanaged blocks added (tests/test_push_scope.py); intended: nothing to
    do."""
    case = _case(vendor, device, seed, picks, [seed % 97, seed % 31])
    if state == "bare":
        return Case(case.profile, "", case.intended, Counter())
    if state == "intended":
        return Case(case.profile, case.intended, case.intended, Counter())
    return case


@settings(max_examples=examples(EXAMPLES), deadline=None)
@given(
    vendor=st.sampled_from(list(Vendor)),
    device=st.sampled_from(DEVICES),
    state=st.sampled_from(["bare", "older+extras", "older+extras", "intended"]),
    seed=st.integers(0, 10**6),
    picks=st.lists(st.integers(0, 100), max_size=6),
    kind=st.sampled_from(KINDS),
    at=st.floats(0, 1),
)
def test_every_switch_ends_intended_and_saved_or_exactly_as_before(
    vendor: Vendor, device: str, state: str, seed: int, picks: list[int], kind: str, at: float
) -> None:
    profile = load_profile(vendor)
    case = _start(vendor, device, state, seed, picks)
    sw = Switch.start(device, profile, case.running or None, lenient=True)
    before = (sw.running.render(), sw.saved)
    target_text = case.intended
    commands = remediation(Tree.from_text(before[0], profile), Tree.from_text(target_text, profile))
    sw.faults = _fault(kind, commands, at, profile.dialect.restore.commands)
    with Lab([sw], USER, PASSWORD) as lab:
        target = Target(device, "127.0.0.1", lab.endpoints[device].port, profile)
        outcome = push(target, target_text, CREDS, apply=True, timeout=2)
    after = (sw.running.render(), sw.saved)
    COUNTS[outcome.status] += 1
    same = differences(before[0], after[0], profile), differences(before[1], after[1], profile)
    if outcome.status == "changed":
        assert changes(target, after[0], target_text)[0] == [], "changed, but not at the intent"
        assert differences(after[0], after[1], profile) == [], "changed, but not saved"
        kept = Counter(_paths(Tree.from_text(after[0], profile).root))
        assert not case.unmanaged - kept, "an unmanaged line was lost"
    elif outcome.status == "rollback-failed":
        assert outcome.left, outcome.error
        assert outcome.left == same[0] or outcome.left[0].startswith(("?", "saved:")), (
            outcome.left, same[0])  # fmt: skip
    else:  # rolled back, failed before changing anything, no changes
        assert same == ([], []), (outcome.status, outcome.error, same)
