"""Lines that restate the switch's default ('restates_default' in the grammar): LLDP is on by
default on Ruijie ([RJ-CG-LLDP]) and ZTE ([ZTE-NG-CR]), so 'lldp enable' needs no removal.
A full-config restore types nothing for it (Ruijie's sourced 'no lldp enable' and ZTE's 'lldp
disable' would turn LLDP off), and the restore check reads a config with it as the same as one
without."""

from __future__ import annotations

import pytest

from roce_cfg.deploy.inventory import Target
from roce_cfg.deploy.push import Credentials, push
from roce_cfg.deploy.restore import differences
from roce_cfg.deploy.tree import Tree, remediation
from roce_cfg.lab.cli import Faults, Switch
from roce_cfg.lab.server import Lab
from roce_cfg.platforms.profile import load_profile
from roce_cfg.vendor import Vendor
from tests.helpers import ROOT

USER, PASSWORD = "netops", "Lab-Pa55-never-printed"
LLDP = {
    Vendor.RUIJIE: "lldp enable\n!\n",
    Vendor.ZTE: "!<lldp>\nlldp\n  lldp enable\n$\n!</lldp>\n",
}


def _golden(vendor: Vendor) -> str:
    return (ROOT / "golden" / f"pod-small-{vendor.value}" / "leaf-1.cfg").read_text()


@pytest.mark.parametrize("vendor", list(LLDP), ids=[v.value for v in LLDP])
def test_a_full_restore_types_nothing_for_lldp_enable(vendor: Vendor) -> None:
    profile = load_profile(vendor)
    empty = Switch.start("leaf-1", profile).running.render()
    back = remediation(
        Tree.from_text(_golden(vendor), profile), Tree.from_text(empty, profile), True, True
    )
    assert back and not [c for c in back if "lldp" in c], back


@pytest.mark.parametrize("vendor", list(LLDP), ids=[v.value for v in LLDP])
def test_a_config_restating_the_default_is_the_same_as_one_without(vendor: Vendor) -> None:
    profile = load_profile(vendor)
    empty = Switch.start("leaf-1", profile).running.render()
    assert differences(empty, empty + LLDP[vendor], profile) == []
    renamed = empty.replace("hostname leaf-1", "hostname leaf-9")
    assert differences(empty, renamed + LLDP[vendor], profile) != []  # other lines still count


@pytest.mark.parametrize("vendor", list(LLDP), ids=[v.value for v in LLDP])
def test_a_failed_push_to_an_empty_switch_rolls_back_and_leaves_lldp_on(vendor: Vendor) -> None:
    profile = load_profile(vendor)
    sw = Switch.start("leaf-1", profile)
    # refused at the first port, before any 'no shutdown' (whose restore on an unconfigured ZTE
    # port is another question: its default admin state is in no source read)
    sw.faults = Faults(reject=r"description far:server-1:nic0")
    with Lab([sw], USER, PASSWORD) as lab:
        target = Target("leaf-1", "127.0.0.1", lab.endpoints["leaf-1"].port, profile)
        outcome = push(target, _golden(vendor), Credentials(USER, PASSWORD), apply=True)
    assert outcome.status == "rolled back", outcome.error
    assert "lldp enable" in sw.running.render()  # typed by the push, left by the restore
