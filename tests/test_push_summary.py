"""The push dry run a person reads: by default the config lines each switch gains and loses per
section (the bundled pod's full diff was 9,266 lines); the unified diff and the commands in
full with ``--diff full`` or in a file (``--diff-file``); ``--format json`` holds both."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from roce_cfg.deploy.summary import SectionChange, section_changes
from roce_cfg.deploy.tree import Tree
from roce_cfg.lab.cli import Switch
from roce_cfg.lab.server import Lab
from roce_cfg.platforms.profile import load_profile
from roce_cfg.vendor import Vendor
from tests.helpers import ROOT, lab_inventory, run

USER, PASSWORD = "netops", "Lab-Pa55-summary"
LEAF = ROOT / "golden/pod-small-h3c/leaf-1.cfg"


def _tree(text: str, vendor: Vendor = Vendor.H3C) -> Tree:
    return Tree.from_text(text, load_profile(vendor))


@pytest.mark.parametrize("vendor", list(Vendor), ids=lambda v: v.value)
def test_an_empty_switch_gains_every_line_of_its_config_once(vendor: Vendor) -> None:
    profile = load_profile(vendor)
    intended = _tree((ROOT / f"golden/pod-small-{vendor.value}/leaf-1.cfg").read_text(), vendor)
    empty = _tree(Switch.start("leaf-1", profile).running.render(), vendor)
    found = section_changes(empty, intended)
    lines = sum(len(_lines(n)) for n in intended.root.children)
    before = sum(len(_lines(n)) for n in empty.root.children)
    assert sum(s.added for s in found) - sum(s.removed for s in found) == lines - before
    ports = [n for n in intended.root.children if n.line.startswith("interface ")]
    port = next(s for s in found if s.section.startswith("interface"))
    assert port.views == len(ports) and port.removed == 0
    assert [s.section for s in found].count("global") <= 1


def _lines(node) -> list[str]:  # type: ignore[no-untyped-def]
    return [node.line, *(ln for c in node.children for ln in _lines(c))]


def test_a_changed_setting_is_one_line_out_and_one_in_in_its_section() -> None:
    text = LEAF.read_text()
    before, after = _tree(text), _tree(text)
    changed = text.replace(" description far:server-1:nic0", " description far:server-one", 1)
    assert changed != text
    assert section_changes(before, after) == []
    found = section_changes(before, _tree(changed))
    assert found == [SectionChange("interface FourHundredGigE1/0/1", 1, 1, 1)]
    removed = "\n".join(ln for ln in text.splitlines() if not ln.startswith("vlan 101"))
    assert any(s.section.startswith("vlan") for s in section_changes(before, _tree(removed)))


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Path, Switch]]:
    folder = tmp_path_factory.mktemp("summary")
    (folder / "out").mkdir()
    (folder / "out" / "leaf-1.cfg").write_text(LEAF.read_text())
    switch = Switch.start("leaf-1", load_profile(Vendor.H3C))
    with Lab([switch], USER, PASSWORD) as running:
        port = running.endpoints["leaf-1"].port
        yield folder / "out", lab_inventory(folder / "inv.yaml", port, "h3c"), switch


@pytest.fixture
def creds(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ROCE_CFG_USERNAME", USER)
    monkeypatch.setenv("ROCE_CFG_PASSWORD", PASSWORD)


def _rows(stdout: str, title: str) -> list[list[str]]:
    block = stdout.split(f"# {title}", 1)[1].split("\n# ", 1)[0]
    return [line.split("\t") for line in block.splitlines()[2:]]


def test_the_dry_run_says_per_section_what_changes_and_where_the_rest_is(
    lab: tuple[Path, Path, Switch], creds: None, tmp_path: Path
) -> None:
    out, inventory, _ = lab
    args = ("push", str(out), "-i", str(inventory))
    summary = run(*args)
    assert summary.exit_code == 0, summary.output
    assert "+++ " not in summary.stdout and "@@" not in summary.stdout
    assert not re.search(r"[\u2500-\u257f]", summary.stdout)  # every table plain in a pipe
    rows = _rows(summary.stdout, "changes by section")
    assert rows[0][:2] == ["leaf-1", "global"] and all(r[0] == "leaf-1" for r in rows)
    ports = LEAF.read_text().count("\ninterface ")
    assert ["leaf-1", "interface", str(ports)] == next(r for r in rows if r[1] == "interface")[:3]
    assert "--diff full, or --diff-file FILE" in summary.stdout
    assert len(summary.stdout.splitlines()) < 20

    full = run(*args, "--diff", "full")
    assert full.exit_code == 0
    diff = full.stdout.split("\n", 1)[1].split("# leaf-1: ", 1)[0]
    assert diff.startswith("--- leaf-1 (running)\n+++ leaf-1 (after push)\n")
    added = [ln for ln in diff.splitlines()[2:] if ln.startswith("+") and ln[1:] != "#"]
    assert len(added) == sum(int(r[3]) for r in rows)  # framing ('#') is no config line
    assert "changes by section" not in full.stdout

    plan = tmp_path / "plan.diff"
    written = run(*args, "--diff-file", str(plan))
    assert f"(the diff and commands in full: {plan})" in written.stdout
    assert plan.read_text().startswith(diff)
    assert re.search(r"^# leaf-1: \d+ commands\n  ", plan.read_text(), re.M)

    doc = json.loads(run(*args, "--format", "json").stdout)
    leaf = doc["switches"][0]
    assert leaf["diff"] == diff and leaf["commands"]
    shown = [[r[1], r[2], r[3], r[4]] for r in rows]
    assert [
        [s["section"], str(s["views"] or "-"), str(s["added"]), str(s["removed"])]
        for s in leaf["sections"]
    ] == shown


def test_a_diff_file_push_cannot_write_stops_it_before_any_switch(
    lab: tuple[Path, Path, Switch], creds: None, tmp_path: Path
) -> None:
    out, inventory, switch = lab
    before = switch.running.render()
    (tmp_path / "elsewhere.txt").write_text("kept\n")
    (tmp_path / "link").symlink_to(tmp_path / "elsewhere.txt")
    res = run("push", str(out), "-i", str(inventory), "--apply", "--diff-file", f"{tmp_path}/link")
    assert res.exit_code == 2 and res.stderr.startswith("roce-cfg: error: "), res.output
    assert "not a regular file" in res.stderr and switch.running.render() == before
    assert (tmp_path / "elsewhere.txt").read_text() == "kept\n"
