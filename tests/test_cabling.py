"""lint --cabling FILE (issue 26 item 9): the cabling plan CSV 'docs' writes gives each port
the length of its own cable; a bad plan is a one-line error naming file and line, exit 2."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from roce_cfg.errors import InputError
from roce_cfg.parse.cabling import read_cabling
from tests.helpers import ROOT, run

FABRIC = ROOT / "tests/brownfield/fabrics/hw-v300-mlag"
HEADER = "kind,a_device,a_port,b_device,b_port,speed_gbps,cable_m,rail,vlan,a_ip,b_ip\n"


def test_both_ends_of_each_row(tmp_path: Path) -> None:
    plan = tmp_path / "cabling.csv"
    plan.write_text(
        HEADER
        + "fabric,leaf-1,100GE1/0/1,spine-1,100GE1/0/1,100,2000,,,,\n"
        + "server,gpu-01:nic0,nic0,leaf-1,25GE1/0/1,25,3,0,101,,\n"
        + "fabric,leaf-1,100GE1/0/2,spine-1,100GE1/0/2,100,,,,,\n"
    )
    assert read_cabling(plan) == {
        ("leaf-1", "100GE1/0/1"): 2000.0,
        ("spine-1", "100GE1/0/1"): 2000.0,
        ("gpu-01:nic0", "nic0"): 3.0,
        ("leaf-1", "25GE1/0/1"): 3.0,
    }


def test_lint_judges_the_port_at_the_plans_length(tmp_path: Path) -> None:
    shutil.copy(FABRIC / "leaf-1.cfg", tmp_path / "leaf-1.cfg")
    plan = tmp_path / "plan.csv"
    plan.write_text(HEADER + "fabric,leaf-1,100GE1/0/1,spine-1,100GE1/0/1,100,2000,,,,\n")
    without = run("lint", str(tmp_path / "leaf-1.cfg"), "--format", "json")
    assert "RC201" not in without.stdout
    result = run("lint", str(tmp_path / "leaf-1.cfg"), "--cabling", str(plan), "--format", "json")
    assert result.exit_code == 1, result.output
    assert '"RC201"' in result.stdout and "2000 m cable (from the plan)" in result.stdout


@pytest.mark.parametrize(
    "row, reason",
    [
        ("fabric,a,p,b,q,100,-1,,,,", "is not a length"),
        ("fabric,a,p,b,q,100,nan,,,,", "is not a length"),
        ("fabric,a,p,b,q,100,inf,,,,", "is not a length"),
        ("fabric,a,p,b,q,100,20000,,,,", "is not a length"),
        ("fabric,a,p,b,q,100,thirty,,,,", "is not a length"),
        ("fabric,a,p,b,q,100," + "9" * 5000 + ",,,,", "is not a length"),
    ],
)
def test_a_bad_length_names_its_line(tmp_path: Path, row: str, reason: str) -> None:
    plan = tmp_path / "plan.csv"
    plan.write_text(HEADER + "fabric,a,p,b,q,100,3,,,,\n" + row + "\n")
    with pytest.raises(InputError, match=reason) as err:
        read_cabling(plan)
    assert (err.value.file, err.value.line) == (str(plan), 3)


def test_a_file_that_is_no_plan_exits_2(tmp_path: Path) -> None:
    shutil.copy(FABRIC / "leaf-1.cfg", tmp_path / "leaf-1.cfg")
    plan = tmp_path / "plan.csv"
    plan.write_text("device,port\nleaf-1,100GE1/0/1\n")
    result = run("lint", str(tmp_path / "leaf-1.cfg"), "--cabling", str(plan))
    assert result.exit_code == 2
    assert "plan.csv:1" in result.output and "no column" in result.output
    assert "Traceback" not in result.output


def test_docs_fills_the_plan_for_parsed_configs_and_lint_reads_it(tmp_path: Path) -> None:
    """docs on backups writes speed, length (from the descriptions) and both addresses; the
    same file given back to lint is the plan (issue 26 item 9)."""
    fabric = tmp_path / "fabric"
    fabric.mkdir()
    for name in ("spine-1", "leaf-1", "leaf-3"):
        shutil.copy(ROOT / f"tests/brownfield/fabrics/hw-v200/{name}.cfg", fabric)
    result = run("docs", str(fabric), "-o", str(tmp_path / "docs"))
    assert result.exit_code == 0, result.output
    rows = (tmp_path / "docs/cabling.csv").read_text().splitlines()
    assert "fabric,leaf-1,100GE1/0/1,spine-1,100GE1/0/1,100,100,,,10.11.1.1,10.11.1.0" in rows
    assert "fabric,leaf-3,100GE1/0/1,spine-1,100GE1/0/3,100,30,,,10.11.1.5,10.11.1.4" in rows
    plan = read_cabling(tmp_path / "docs/cabling.csv")
    assert plan[("spine-1", "100GE1/0/3")] == 30.0
