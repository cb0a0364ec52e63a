"""Issue 29, item 4: set-valued and renamed settings reach the intended state over the lab, with
exit 0 and a clean lint on the result: Huawei 'priority 3 4' -> 'priority 3' (one setting
whose value is a list), and the rail VLAN 101 -> 201 with its VLAN interface and gateway
(the old one removed after the new is in place), with and without --prune."""

from __future__ import annotations

from pathlib import Path

import pytest

from roce_cfg.analysis import lint
from roce_cfg.deploy.inventory import Target
from roce_cfg.deploy.push import Credentials, push
from roce_cfg.deploy.restore import differences
from roce_cfg.generate import generate
from roce_cfg.lab.cli import Switch
from roce_cfg.lab.server import Lab
from roce_cfg.platforms.profile import load_profile
from roce_cfg.vendor import Vendor
from tests.helpers import SCENARIOS

USER, PASSWORD = "netops", "Lab-Pa55-never-printed"
CREDS = Credentials(USER, PASSWORD)


def _push(vendor: Vendor, host: str, running: str, intended: str, prune: bool) -> Switch:
    profile = load_profile(vendor)
    sw = Switch.start(host, profile, running)
    with Lab([sw], USER, PASSWORD) as lab:
        target = Target(host, "127.0.0.1", lab.endpoints[host].port, profile)
        outcome = push(target, intended, CREDS, apply=True, prune=prune)
        assert outcome.status == "changed", outcome.error
        again = push(target, intended, CREDS, apply=True, prune=prune)
        assert again.status == "no changes", again.commands
    assert differences(intended, sw.running.render(), profile) == []
    return sw


def _lint_clean(text: str, host: str, intent: Path, tmp_path: Path) -> None:
    """The pushed switch's config, beside the rest of the fabric as generated, lints clean."""
    folder = tmp_path / "result"
    folder.mkdir()
    for name, config in generate(intent).configs.items():
        (folder / f"{name}.cfg").write_text(config)
    (folder / f"{host}.cfg").write_text(text)
    # RC126 (RGOS/ZXROS syntax no source confirms) and RC204 (Comware headroom in cells of a
    # size no source gives) are said of roce-cfg's own output too (test_lint)
    found = lint([folder], intent=intent).findings
    bad = [f for f in found if f.severity != "info" and f.rule not in ("RC126", "RC204")]
    assert bad == [], bad[:3]


@pytest.mark.parametrize("prune", [False, True], ids=["plain", "prune"])
def test_removing_a_no_drop_priority_replaces_the_list(prune: bool, tmp_path: Path) -> None:
    two = generate(SCENARIOS["island-ce6885-two-lossless"]).configs["switch-1"]
    intent = SCENARIOS["island-ce6885"]
    one = generate(intent).configs["switch-1"]
    assert " priority 3 4\n" in two and " priority 3\n" in one
    sw = _push(Vendor.HUAWEI, "switch-1", two, one, prune)
    after = sw.running.render()
    assert " priority 3 4\n" not in after and "priority 4" not in after
    _lint_clean(after, "switch-1", intent, tmp_path)


@pytest.mark.sample(2)
@pytest.mark.parametrize("prune", [False, True], ids=["plain", "prune"])
@pytest.mark.parametrize("vendor", list(Vendor), ids=[v.value for v in Vendor])
def test_moving_the_rail_vlan_removes_the_old_vlan_and_gateway(
    vendor: Vendor, prune: bool, tmp_path: Path
) -> None:
    old_intent = SCENARIOS[f"pod-small-{vendor.value}"]
    text = old_intent.read_text()
    assert "rail_vlan_base: 101" in text
    new_intent = tmp_path / "rail201.yaml"
    new_intent.write_text(text.replace("rail_vlan_base: 101", "rail_vlan_base: 201"))
    old = generate(old_intent).configs["leaf-1"]
    new = generate(new_intent).configs["leaf-1"]
    sw = _push(vendor, "leaf-1", old, new, prune)
    after = sw.running.render()
    profile = load_profile(vendor)
    assert f"{profile.vlan_interface}101" not in after and f"{profile.vlan_interface}201" in after
    _lint_clean(after, "leaf-1", new_intent, tmp_path)


@pytest.mark.parametrize("vendor", [Vendor.H3C, Vendor.HUAWEI, Vendor.RUIJIE], ids=str)
def test_prune_removes_a_peers_address_family_line_before_the_peer(vendor: Vendor) -> None:
    from roce_cfg.deploy.tree import Tree, remediation

    profile = load_profile(vendor)
    text = generate(SCENARIOS[f"pod-small-{vendor.value}"]).configs["leaf-1"]
    lines = []
    for line in text.splitlines():
        lines.append(line)
        if line.strip().startswith(("peer 10.1.0.0 as-number", "neighbor 10.1.0.0 remote-as")):
            lines.append(line.replace("10.1.0.0", "10.1.0.99"))
        if line.strip() in ("peer 10.1.0.0 enable", "neighbor 10.1.0.0 activate"):
            lines.append(line.replace("10.1.0.0", "10.1.0.99"))
    running = "\n".join(lines) + "\n"
    commands = remediation(Tree.from_text(running, profile), Tree.from_text(text, profile), True)
    gone = [i for i, c in enumerate(commands) if "10.1.0.99" in c]
    assert len(gone) == 2, commands
    assert commands[gone[0]].endswith(("enable", "activate"))  # the dependent first
