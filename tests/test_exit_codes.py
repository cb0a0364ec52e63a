"""The exit codes docs/cli.md documents are the ones the commands return: for each command, a
success, a finding and a bad input (and push's failures), run and compared with the table."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from roce_cfg.cli import app
from tests.helpers import ROOT, SCENARIOS, run

POD = str(ROOT / "examples/pod-small.yaml")
H3C = SCENARIOS["pod-small-h3c"]
USER, PASSWORD = "netops", "Lab-Pa55-never-printed"
CREDS = {"ROCE_CFG_USERNAME": USER, "ROCE_CFG_PASSWORD": PASSWORD}
COLUMNS = ("success", "finding", "bad input", "other")


def documented() -> dict[str, dict[str, set[int]]]:
    """docs/cli.md's table: per command and column, the codes named in the cell ('-': none)."""
    text = (ROOT / "docs/cli.md").read_text(encoding="utf-8")
    table = text[text.index("| command | success | finding | bad input | other |") :]
    codes: dict[str, dict[str, set[int]]] = {}
    for line in table.splitlines()[2:]:
        if not line.startswith("|"):
            break
        name, *cells = [c.strip() for c in line.strip("|").split("|")]
        codes[name] = {
            col: {int(n) for n in re.findall(r"^\d+|(?<=, )\d+", cell.split(":")[0])}
            for col, cell in zip(COLUMNS, cells, strict=True)
        }
    return codes


def cli(*args: str | Path) -> int:
    res = run(*(str(a) for a in args), env=CREDS)
    assert "Traceback" not in res.output, res.output
    return int(res.exit_code)


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The pod's configs (out/), the same with leaf-2 unreadable (damaged/), an inventory of a
    switch nobody listens for (dead.yaml)."""
    here = tmp_path_factory.mktemp("codes")
    assert cli("generate", POD, "-o", here / "out") == 0
    shutil.copytree(here / "out", here / "damaged")
    cfg = here / "damaged/leaf-2.cfg"
    lines = cfg.read_text("utf-8").split("\n")
    lines.insert(20, " description " + "x" * 20000)  # past the per-line cap: RC001
    cfg.write_text("\n".join(lines), "utf-8")
    (here / "dead.yaml").write_text(
        "hosts:\n  leaf-1: {hostname: 127.0.0.1, port: 9, data: {vendor: h3c}}\n"
    )
    return here


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Path, Any]]:
    """The h3c pod's emulators with its intended configs: (inventory, configs, world)."""
    from roce_cfg.lab.run import inventory, switches
    from roce_cfg.lab.server import Lab

    here = tmp_path_factory.mktemp("lab")
    assert cli("generate", H3C, "-o", here / "out") == 0
    sws = switches(H3C, "intended")
    with Lab(sws, USER, PASSWORD) as running:
        (here / "inv.yaml").write_text(inventory(running))
        yield here / "inv.yaml", here / "out", sws[0].display


def _lab_stops_with_0(work: Path) -> int:
    cmd = [sys.executable, "-m", "roce_cfg", "lab", "--intent", str(H3C),
           "--inventory-out", str(work / "lab-inv.yaml")]  # fmt: skip
    proc = subprocess.Popen(cmd, cwd=ROOT, env={**os.environ, **CREDS},
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    deadline = time.monotonic() + 120
    while not (work / "lab-inv.yaml").is_file() and time.monotonic() < deadline:
        time.sleep(0.1)
    proc.send_signal(signal.SIGTERM)
    return proc.wait(timeout=30)


def _push_finding(lab: tuple[Path, Path, Any]) -> int:
    """A clean push whose --verify live finds a link down on the switch it changed."""
    from roce_cfg.lab.cli import Switch
    from roce_cfg.verify.run import load_plan

    inv, out, world = lab
    leaf = world.switches["leaf-1"]
    leaf.running = Switch.start("leaf-1", leaf.profile).running  # nothing configured yet
    port = next(k.a_port for k in load_plan(H3C).links if k.a_device == "leaf-1")
    world.fault("leaf-1").down.add(port)
    try:
        res = run(
            *("push", str(out), "-i", str(inv), "--apply", "--verify", "live", "--format", "json"),
            env=CREDS,
        )
    finally:
        world.faults.clear()
    doc = json.loads(res.stdout)  # verify's document inside push's, stdout one document
    assert doc["format"] == "roce-cfg/push/v1" and doc["verify"]["format"] == "roce-cfg/verify/v1"
    assert doc["counts"] == {"changed": 1, "no changes": 11}, doc["counts"]
    assert "RV111" in {f["rule"] for f in doc["verify"]["findings"]}
    return int(res.exit_code)


Case = Callable[[Path, tuple[Path, Path, Any]], int]
CASES: dict[str, dict[str, Case]] = {
    "generate": {
        "success": lambda w, lab: cli("generate", POD, "-o", w / "g"),
        "bad input": lambda w, lab: cli("generate", w / "nope.yaml", "-o", w / "g2"),
    },
    "parse": {
        "success": lambda w, lab: cli("parse", w / "out"),
        "finding": lambda w, lab: cli("parse", w / "damaged"),
        "bad input": lambda w, lab: cli("parse", w / "nope"),
    },
    "lint": {
        "success": lambda w, lab: cli("lint", w / "out"),
        "finding": lambda w, lab: cli("lint", w / "damaged"),
        "bad input": lambda w, lab: cli("lint", w / "nope"),
    },
    "deadlock": {
        "success": lambda w, lab: cli("deadlock", POD),
        "finding": lambda w, lab: cli(
            "deadlock",
            ROOT / "examples/deadlock/valley.yaml",
            "--fail-links",
            "leaf-1:spine-1,leaf-2:spine-2",
        ),
        "bad input": lambda w, lab: cli("deadlock", w / "nope.yaml"),
    },
    "docs": {
        "success": lambda w, lab: cli("docs", POD, "-o", w / "d"),
        "finding": lambda w, lab: cli("docs", w / "damaged", "-o", w / "d2"),
        "bad input": lambda w, lab: cli("docs", w / "nope.yaml", "-o", w / "d3"),
    },
    "report": {
        "success": lambda w, lab: cli("report", POD, "-o", w / "r.html"),
        "finding": lambda w, lab: cli("report", w / "damaged", "-o", w / "r2.html"),
        "bad input": lambda w, lab: cli("report", w / "nope.yaml", "-o", w / "r3.html"),
    },
    "push": {
        "success": lambda w, lab: cli("push", lab[1], "-i", lab[0]),
        "bad input": lambda w, lab: cli("push", lab[1], "-i", w / "nope.yaml"),
        "other": lambda w, lab: cli("push", lab[1], "-i", w / "dead.yaml"),
        "finding": lambda w, lab: _push_finding(lab),  # last: it changes leaf-1
    },
    "verify": {
        "success": lambda w, lab: cli("verify", H3C, "-i", lab[0], "--skip", "queue,watchdog"),
        "finding": lambda w, lab: cli("verify", H3C, "-i", w / "dead.yaml"),
        "bad input": lambda w, lab: cli("verify", H3C, "-i", w / "nope.yaml"),
    },
    "lab": {
        "success": lambda w, lab: _lab_stops_with_0(w),
        "bad input": lambda w, lab: cli(
            "lab", "--intent", w / "nope.yaml", "--inventory-out", w / "i.yaml"
        ),
    },
    "rules": {
        "success": lambda w, lab: cli("rules"),
        "bad input": lambda w, lab: cli("rules", "--format", "yaml"),
    },
    "explain": {
        "success": lambda w, lab: cli("explain", "RC201"),
        "bad input": lambda w, lab: cli("explain", "RC999"),
    },
    "schema": {
        "success": lambda w, lab: cli("schema"),
        "bad input": lambda w, lab: cli("schema", "--of", "nope"),
    },
    "vendors": {
        "success": lambda w, lab: cli("vendors"),
        "bad input": lambda w, lab: cli("vendors", "--format", "yaml"),
    },
    "models": {
        "success": lambda w, lab: cli("models"),
        "bad input": lambda w, lab: cli("models", "--vendor", "nokia"),
    },
    "plan": {
        "success": lambda w, lab: cli("plan", "--gpus", "64"),
        "finding": lambda w, lab: cli("plan", "--gpus", "100000000"),
        "bad input": lambda w, lab: cli("plan", "--gpus", "0"),
    },
    "pipeline": {
        "success": lambda w, lab: cli("pipeline", "generate", POD, w / "dead.yaml", w / "p"),
        "finding": lambda w, lab: _pipeline_lint(w),
        "bad input": lambda w, lab: cli(
            "pipeline", "generate", w / "nope.yaml", w / "dead.yaml", w / "p2"
        ),
        "other": lambda w, lab: cli("pipeline", "plan", POD, w / "dead.yaml", w / "p"),
    },
}


def _pipeline_lint(w: Path) -> int:
    shutil.copytree(w / "damaged", w / "p3/configs")
    return cli("pipeline", "lint", POD, w / "dead.yaml", w / "p3")


def test_the_table_names_every_command() -> None:
    from typer.main import get_command

    commands = set(get_command(app).commands)  # type: ignore[attr-defined]
    assert set(documented()) == commands == set(CASES)


@pytest.mark.parametrize("command", sorted(CASES))
def test_each_command_returns_what_the_table_documents(
    command: str, work: Path, lab: tuple[Path, Path, Any]
) -> None:
    table = documented()[command]
    cases = CASES[command]
    # every documented outcome has a case, and no case is of an outcome the table denies
    assert {c for c in COLUMNS if table[c]} == set(cases), command
    for column, case in cases.items():
        code = case(work, lab)
        assert code in table[column], f"{command} {column}: exit {code}, documented {table[column]}"
