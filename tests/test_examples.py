"""The shipped examples say what their READMEs promise: the backups' planted mistakes are found,
the failure what-if opens cycles, the inventory loads."""

from __future__ import annotations

from pathlib import Path

from roce_cfg.analysis import Options, lint
from roce_cfg.deploy.inventory import load as load_inventory
from tests.helpers import ROOT, run

BACKUPS = ROOT / "examples/backups"


def test_backups_planted_mistakes_are_found() -> None:
    files = sorted(BACKUPS.glob("*/*.cfg"))
    assert {f.parent.name for f in files} == {"h3c", "huawei", "ruijie", "zte"}
    result = lint(files, options=Options())
    found = {(f.device, f.rule, f.port) for f in result.findings}
    assert ("leaf-9", "RC102", "Twenty-FiveGigE1/0/2") in found  # port missing PFC
    assert ("leaf-9", "RC106", "Twenty-FiveGigE1/0/1") in found  # ECN above the PFC trigger
    assert ("leaf-9", "RC110", "HundredGigE1/0/49") in found  # watchdog off
    assert ("leaf-31", "RC113", "TwentyFiveGigabitEthernet 0/56:1") in found  # MTU 1500
    assert ("leaf-21", "RC103", None) in found
    # ZXROS headroom in a unit no source gives: cannot verify, no RC201 concluded from it
    assert ("spine-5", "RC204", None) in found
    assert not [f for f in found if f[1] == "RC201" and f[0] == "spine-5"]
    assert ("leaf-9", "RC116", "HundredGigE1/0/49") in found  # frame 9216 under mtu 9216
    assert ("leaf-21", "RC116", "25GE1/0/1") in found  # and under the gateway's 9216
    # every planted rule is in the table of examples/backups/README.md
    table = (BACKUPS / "README.md").read_text(encoding="utf-8")
    for _, rule, _ in found:
        assert rule in table, rule


def test_failure_what_if_opens_cycles() -> None:
    res = run(
        "deadlock",
        str(ROOT / "examples/deadlock/valley.yaml"),
        "--fail-links",
        "leaf-1:spine-1,leaf-2:spine-2",
    )
    assert res.exit_code == 1, res.output
    assert "2 cycles" in res.output


def test_inventory_loads_every_pod_switch() -> None:
    names = {t.name for t in load_inventory(Path(ROOT / "examples/inventory.yaml"))}
    assert names == {f"leaf-{i}" for i in range(1, 9)} | {f"spine-{i}" for i in range(1, 5)}


def test_parse_warns_when_vendor_given_is_clearly_wrong() -> None:
    """The H3C backup parsed as Ruijie's: a warning naming the vendor it reads as; the right
    vendor given: no warning."""
    import subprocess
    import sys

    def stderr(vendor: str) -> str:
        return subprocess.run(
            [sys.executable, "-m", "roce_cfg", "parse", "--vendor", vendor,
             str(BACKUPS / "h3c/leaf-9.cfg")],
            capture_output=True, text=True,
        ).stderr  # fmt: skip

    wrong = stderr("ruijie")
    assert "warning" in wrong and "--vendor ruijie given, but the file reads as h3c's" in wrong
    assert "warning" not in stderr("h3c")
