"""A rollback that fails is its own outcome (rollback-failed, exit 4) and says what is left."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from roce_cfg.deploy.inventory import Target
from roce_cfg.deploy.push import Credentials, push
from roce_cfg.generate import generate
from roce_cfg.lab.cli import Faults, Switch
from roce_cfg.lab.server import Lab
from roce_cfg.platforms.profile import load_profile
from roce_cfg.vendor import Vendor
from tests.helpers import SCENARIOS, lab_inventory, run

USER, PASSWORD = "netops", "Lab-Pa55-never-printed"
CREDS = Credentials(USER, PASSWORD)
# Ruijie and ZTE have no sourced restore point: their rollback is a full-config restore typed
# line by line, which a refused line can break. H3C and Huawei restore by the switch's own
# command (tests/test_push_cases.py refuses that command).
FULL = [v for v in Vendor if not load_profile(v).dialect.restore.commands]


def _start(vendor: Vendor) -> tuple[str, str]:
    """The intended leaf and a running one whose first two server ports have old descriptions."""
    text = generate(SCENARIOS[f"pod-small-{vendor.value}"]).configs["leaf-1"]
    running = re.sub(r" description far:server-1:nic0[^\n]*", " description spare", text, count=1)
    running = re.sub(
        r" description far:server-2:nic0[^\n]*", " description spare too", running, count=1
    )
    return text, running


@pytest.mark.parametrize("vendor", FULL, ids=[v.value for v in FULL])
def test_a_rollback_that_is_rejected_too_is_rollback_failed_with_the_lines_left(
    vendor: Vendor,
) -> None:
    profile = load_profile(vendor)
    text, running = _start(vendor)
    sw = Switch.start("leaf-1", profile, running)
    # The push fails at port 2; putting port 1's old description back is refused as well.
    sw.faults = Faults(reject=r"description (far:server-2:nic0|spare$)")
    with Lab([sw], USER, PASSWORD) as lab:
        target = Target("leaf-1", "127.0.0.1", lab.endpoints["leaf-1"].port, profile)
        outcome = push(target, text, CREDS, apply=True)
    assert outcome.status == "rollback-failed"
    assert "description far:server-2:nic0" in outcome.error  # the push's own error is kept
    assert "rollback failed: rejected at command: description spare" in outcome.error
    port = next(ln for ln in outcome.left if "far:server-1" in ln).split(" > ")[0][2:]
    assert f"+ {port} > description far:server-1:nic0 speed=200G cable=3m" in outcome.left
    assert f"- {port} > description spare" in outcome.left
    assert all(line[:2] in ("+ ", "- ") for line in outcome.left)
    assert "description far:server-1:nic0" in sw.running.render()  # and that is the truth


def test_a_switch_that_drops_every_session_during_rollback_is_rollback_failed() -> None:
    profile = load_profile(Vendor.RUIJIE)
    text, running = _start(Vendor.RUIJIE)
    sw = Switch.start("leaf-1", profile, running)
    with Lab([sw], USER, PASSWORD) as lab:
        target = Target("leaf-1", "127.0.0.1", lab.endpoints["leaf-1"].port, profile)
        sw.faults = Faults(drop_after=sw.commands + 2)  # every later config command hangs up
        outcome = push(target, text, CREDS, apply=True, timeout=3)
    assert outcome.status == "rollback-failed", outcome.error
    assert "rollback failed" in outcome.error
    # Read again on a new session: the first description went through, the second did not.
    assert [ln.split(" > ")[-1] for ln in outcome.left] == [
        "description spare",
        "description far:server-1:nic0 speed=200G cable=3m",
    ]


def test_push_exits_4_and_prints_what_is_left(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    profile = load_profile(Vendor.ZTE)
    text, running = _start(Vendor.ZTE)
    configs = tmp_path / "out"
    configs.mkdir()
    (configs / "leaf-1.cfg").write_text(text)
    sw = Switch.start("leaf-1", profile, running)
    sw.faults = Faults(reject=r"description (far:server-2:nic0|spare$)")
    with Lab([sw], USER, PASSWORD) as lab:
        port = lab.endpoints["leaf-1"].port
        inventory = lab_inventory(tmp_path / "inv.yaml", port, "zte")
        monkeypatch.setenv("ROCE_CFG_USERNAME", USER)
        monkeypatch.setenv("ROCE_CFG_PASSWORD", PASSWORD)
        result = run("push", str(configs), "-i", str(inventory), "--apply")
    assert result.exit_code == 4, result.output
    assert "rollback-failed" in result.stdout
    assert "# leaf-1: rollback failed; left on the switch:" in result.stdout
    assert "> description far:server-1:nic0" in result.stdout
    assert PASSWORD not in result.output
