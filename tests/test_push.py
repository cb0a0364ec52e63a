"""Push against SSH switch emulators on 127.0.0.1: diff, apply, verify, roll back, fan out."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from roce_cfg.deploy import fanout
from roce_cfg.deploy.inventory import Target
from roce_cfg.deploy.push import Credentials, push
from roce_cfg.deploy.tree import Tree, remediation
from roce_cfg.generate import generate
from roce_cfg.lab.cli import Faults, Switch
from roce_cfg.lab.server import Lab
from roce_cfg.parse import parse_text
from roce_cfg.platforms.profile import load_profile
from roce_cfg.vendor import Vendor
from tests.helpers import ROOT, SCENARIOS, run

USER, PASSWORD = "netops", "Lab-Pa55-never-printed"
CREDS = Credentials(USER, PASSWORD)
VENDORS = list(Vendor)


def _leaf(vendor: Vendor) -> str:
    return generate(SCENARIOS[f"pod-small-{vendor.value}"]).configs["leaf-1"]


@pytest.mark.parametrize("vendor", VENDORS, ids=[v.value for v in VENDORS])
def test_emulator_prints_a_config_the_parser_reads_back(vendor: Vendor) -> None:
    profile = load_profile(vendor)
    text = _leaf(vendor)
    tree = Tree.from_text(text, profile)
    assert remediation(tree, Tree.from_text(tree.render(), profile)) == []
    original = parse_text(text).config.device
    printed = parse_text(tree.render()).config.device
    assert printed == original


@pytest.mark.sample(2)
@pytest.mark.parametrize("vendor", VENDORS, ids=[v.value for v in VENDORS])
def test_dry_run_apply_and_a_second_run_that_changes_nothing(vendor: Vendor) -> None:
    profile = load_profile(vendor)
    text = _leaf(vendor)
    sw = Switch.start("leaf-1", profile)
    with Lab([sw], USER, PASSWORD) as lab:
        target = Target("leaf-1", "127.0.0.1", lab.endpoints["leaf-1"].port, profile)
        empty = sw.running.render()
        dry = push(target, text, CREDS, apply=False)
        assert dry.status == "planned" and len(dry.commands) > 300
        assert "+interface " in dry.diff
        assert sw.running.render() == empty  # a dry run sends nothing
        applied = push(target, text, CREDS, apply=True)
        assert applied.status == "changed", applied.error
        assert parse_text(sw.running.render()).config.device == parse_text(text).config.device
        assert sw.saved == sw.running.render()
        again = push(target, text, CREDS, apply=True)
        assert (again.status, again.commands) == ("no changes", [])


@pytest.mark.parametrize("vendor", VENDORS, ids=[v.value for v in VENDORS])
def test_a_rejected_command_rolls_back_to_exactly_where_it_started(vendor: Vendor) -> None:
    profile = load_profile(vendor)
    text = _leaf(vendor)
    start = re.sub(r" description far:server-1:nic0[^\n]*", " description spare", text, count=1)
    start = re.sub(
        r" description far:server-2:nic0[^\n]*", " description spare too", start, count=1
    )
    sw = Switch.start("leaf-1", profile, start)
    before = sw.running.render()
    sw.faults = Faults(reject=r"description far:server-2:nic0")
    with Lab([sw], USER, PASSWORD) as lab:
        target = Target("leaf-1", "127.0.0.1", lab.endpoints["leaf-1"].port, profile)
        outcome = push(target, text, CREDS, apply=True)
        assert outcome.status == "rolled back"
        assert "description far:server-2:nic0" in outcome.error
        assert sw.running.render() == before


def test_a_dropped_connection_is_reported_and_rolled_back_on_reconnect() -> None:
    profile = load_profile(Vendor.H3C)
    text = _leaf(Vendor.H3C)
    sw = Switch.start(
        "leaf-1", profile, text.replace(" description far:server-1:nic0", " description x")
    )
    before = sw.running.render()
    with Lab([sw], USER, PASSWORD) as lab:
        target = Target("leaf-1", "127.0.0.1", lab.endpoints["leaf-1"].port, profile)
        sw.faults = Faults(drop_after=sw.commands + 1)
        wanted = text.replace(" description far:server-2:nic0", " description y")
        outcome = push(target, wanted, CREDS, apply=True, timeout=3)
        assert outcome.status == "rolled back", outcome.error
        assert sw.running.render() == before


def test_wrong_password_is_a_clear_error() -> None:
    profile = load_profile(Vendor.HUAWEI)
    sw = Switch.start("spine-1", profile)
    with Lab([sw], USER, PASSWORD) as lab:
        target = Target("spine-1", "127.0.0.1", lab.endpoints["spine-1"].port, profile)
        outcome = push(
            target, "#\nsysname spine-1\n#\nreturn\n", Credentials(USER, "nope"), apply=False
        )
        assert outcome.status == "failed"
        assert outcome.error.startswith("authentication failed")
    assert PASSWORD not in repr(CREDS)


def _tiny(vendor: Vendor, name: str) -> str:
    p = load_profile(vendor)
    tree = Tree(p)
    cage = p.models[p.default_model].ports[0]
    port = p.interface_prefix[cage.speed] + cage.label.format(n=cage.first)
    sysname = p.dialect.hostname.format(host=name)
    tree.apply([sysname, f"interface {port}", f"description to {name}", p.dialect.view_exit])
    return tree.render()


@pytest.mark.slow
def test_fan_out_of_50_switches_with_one_faulty(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    names = [f"sw-{i:02d}" for i in range(50)]
    vendors = [VENDORS[i % 4] for i in range(50)]
    configs = tmp_path / "out"
    configs.mkdir()
    switches = []
    for name, vendor in zip(names, vendors, strict=True):
        (configs / f"{name}.cfg").write_text(_tiny(vendor, name))
        switches.append(Switch.start(name, load_profile(vendor)))
    switches[17].faults = Faults(reject="description")
    with Lab(switches, USER, PASSWORD) as lab:
        targets = [
            Target(n, "127.0.0.1", lab.endpoints[n].port, load_profile(v))
            for n, v in zip(names, vendors, strict=True)
        ]
        outcomes = fanout.run(targets, configs, CREDS, apply=True, workers=10)
        status = {o.host: o.status for o in outcomes}
        assert status.pop("sw-17") == "rolled back"
        assert set(status.values()) == {"changed"}
        inventory = tmp_path / "inv.yaml"
        lines = [
            f"  {t.name}: {{hostname: 127.0.0.1, port: {t.port}, "
            f"data: {{vendor: {t.profile.vendor.value}}}}}\n"
            for t in targets
        ]
        inventory.write_text("hosts:\n" + "".join(lines))
        monkeypatch.setenv("ROCE_CFG_USERNAME", USER)
        monkeypatch.setenv("ROCE_CFG_PASSWORD", PASSWORD)
        result = run("push", str(configs), "-i", str(inventory), "--apply", "--batch", "1,10%,100%")
        assert result.exit_code == 3  # sw-17 still fails; every other switch reports no changes
        assert "rolled back" in result.stdout and "no changes" in result.stdout
        assert "batch 1/3: 1 switch (sw-00): 1 no changes" in result.output
        assert "batch 2/3: 4 switches (sw-01, sw-02, sw-03, sw-04): 4 no changes" in result.output
        assert "batch 3/3: 45 switches (" in result.output and "1 rolled back" in result.output
        assert PASSWORD not in result.output


def test_a_failed_canary_batch_stops_the_rollout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    configs = tmp_path / "out"
    configs.mkdir()
    names = ["a-1", "a-2", "a-3"]
    switches = []
    for n in names:
        (configs / f"{n}.cfg").write_text(_tiny(Vendor.ZTE, n))
        switches.append(Switch.start(n, load_profile(Vendor.ZTE)))
    switches[0].faults = Faults(reject="description")
    with Lab(switches, USER, PASSWORD) as lab:
        inventory = tmp_path / "inv.yaml"
        lines = [f"  {n}: {{hostname: 127.0.0.1, port: {lab.endpoints[n].port}}}\n" for n in names]
        inventory.write_text("defaults: {data: {vendor: zte}}\nhosts:\n" + "".join(lines))
        monkeypatch.setenv("ROCE_CFG_USERNAME", USER)
        monkeypatch.setenv("ROCE_CFG_PASSWORD", PASSWORD)
        result = run("push", str(configs), "-i", str(inventory), "--apply", "--batch", "1,100%")
        assert result.exit_code == 3
        assert "2 switches not attempted" in result.stdout
        # the boundary and the canary's result are printed; no second batch ever starts
        assert "batch 1/2: 1 switch (a-1): 1 rolled back" in result.output
        assert "batch 2/2" not in result.output
        assert (
            switches[1].running.render()
            == Switch.start("a-2", load_profile(Vendor.ZTE)).running.render()
        )


def test_inventory_with_a_password_is_refused(tmp_path: Path) -> None:
    inventory = tmp_path / "inv.yaml"
    inventory.write_text(
        "hosts:\n  x: {hostname: 127.0.0.1, password: hunter2, data: {vendor: h3c}}\n"
    )
    result = run("push", str(ROOT / "golden/pod-small-h3c"), "-i", str(inventory))
    assert result.exit_code == 2
    assert "hosts.x.password" in result.stderr and "hunter2" not in result.output


def test_a_new_value_replaces_the_old_without_negating_it() -> None:
    profile = load_profile(Vendor.H3C)
    port = (
        "#\ninterface HundredGigE1/0/1\n mtu {}\n"
        " priority-flow-control no-drop dot1p {}\n#\nreturn\n"
    )
    have = Tree.from_text(port.format(9000, 4), profile)
    want = Tree.from_text(port.format(9216, 3), profile)
    assert remediation(have, want) == [
        "interface HundredGigE1/0/1",
        "undo priority-flow-control no-drop dot1p",  # [H3C-ETH-CR-CN]: the undo takes no list
        "mtu 9216",
        "priority-flow-control no-drop dot1p 3",
        "quit",
    ]
    have.apply(remediation(have, want))
    assert remediation(have, want) == []
