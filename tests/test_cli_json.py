"""Issue 32: '--format json' on every command that prints a result, and '--quiet'.

For each command: the JSON parses, carries its ``format`` (roce-cfg/<command>/v1), and the same
facts as the text (counts compared with what the text prints, so a document that drops or
miscounts something fails); stdout holds only the document; '--quiet' prints nothing on stdout
on success and one line on stderr on a failing exit."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from roce_cfg.cli import app
from tests.helpers import ROOT, SCENARIOS, run

POD = ROOT / "examples/pod-small.yaml"
VALLEY = ("deadlock", str(ROOT / "examples/deadlock/valley.yaml"),
          "--fail-links", "leaf-1:spine-1,leaf-2:spine-2")  # fmt: skip
USER, PASSWORD = "netops", "Lab-Pa55-never-printed"
CREDS = {"ROCE_CFG_USERNAME": USER, "ROCE_CFG_PASSWORD": PASSWORD}
# every command that prints a result takes --format json; schema prints a JSON Schema already
NO_JSON = {"schema"}
# --quiet where a command's point is not its printout (a listing is: rules, models, vendors)
QUIET = {"generate", "parse", "lint", "deadlock", "docs", "report", "push", "verify", "plan",
         "pipeline"}  # fmt: skip


def doc_of(res: Any, command: str) -> dict[str, Any]:
    """stdout as one JSON document (json.loads refuses anything after it), with its format."""
    assert res.exit_code in (0, 1), res.output
    doc: dict[str, Any] = json.loads(res.stdout)
    assert doc["format"] == f"roce-cfg/{command}/v1"
    return doc


def rows(text: str) -> list[list[str]]:
    """A table printed into a pipe (output.print_table): '# title', the column names, rows."""
    lines = text.splitlines()
    assert lines[0].startswith("# ")
    return [line.split("\t") for line in lines[2:]]


@pytest.fixture(scope="module")
def gen(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("gen") / "out"
    assert run("generate", str(POD), "-o", str(out)).exit_code == 0
    return out


@pytest.fixture(scope="module")
def damaged(gen: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The pod's configs with leaf-2's unreadable (a line past the per-line cap: RC001)."""
    folder = tmp_path_factory.mktemp("damaged") / "cfgs"
    shutil.copytree(gen, folder)
    lines = (folder / "leaf-2.cfg").read_text("utf-8").split("\n")
    lines.insert(20, " description " + "x" * 20000)
    (folder / "leaf-2.cfg").write_text("\n".join(lines), "utf-8")
    return folder


def test_every_result_command_takes_format_json_and_quiet_where_it_should() -> None:
    import typer

    group = typer.main.get_command(app)
    assert isinstance(group, typer.core.TyperGroup) and len(group.commands) == 16
    for name in group.commands:
        shown = run(name, "--help").stdout
        if name not in NO_JSON:
            assert re.search(r"--format <[^>]*\bjson\b", shown), name
        assert ("--quiet" in shown) == (name in QUIET), name


def test_generate(gen: Path, tmp_path: Path) -> None:
    text = run("generate", str(POD), "-o", str(tmp_path / "t"))
    table = rows(text.stdout)
    res = run("generate", str(POD), "-o", str(tmp_path / "j"), "--format", "json")
    doc = doc_of(res, "generate")
    assert (
        f"{doc['configs']} switch configs" in text.stdout.splitlines()[0] and doc["configs"] == 12
    )
    assert [[str(v) for v in kind.values()] for kind in doc["kinds"]] == table
    # --format is stdout's, as on every command: the files are still configs
    assert doc["files_format"] == "cfg" and (tmp_path / "j/leaf-1.cfg").is_file()
    assert not (tmp_path / "j/leaf-1.json").exists()
    assert "--files model" in res.stderr  # where the models went (--format json wrote them)
    models = run("generate", str(POD), "-o", str(tmp_path / "m"), "--files", "model")
    assert (tmp_path / "m/leaf-1.json").is_file() and not (tmp_path / "m/leaf-1.cfg").exists()
    assert rows(models.stdout) == table and models.stderr == ""
    both = run(
        "generate", str(POD), "-o", str(tmp_path / "b"), "--files", "model", "--format", "json"
    )
    assert doc_of(both, "generate")["files_format"] == "json" and both.stderr == ""
    legacy = run("generate", str(POD), "-o", str(tmp_path / "c"), "--format", "cfg")
    assert rows(legacy.stdout) == table and (tmp_path / "c/leaf-1.cfg").is_file()
    quiet = run("generate", str(POD), "-o", str(tmp_path / "q"), "--quiet")
    assert quiet.exit_code == 0 and quiet.stdout == ""
    assert (tmp_path / "q/leaf-1.cfg").is_file()


def test_parse(gen: Path) -> None:
    res = run("parse", str(gen))
    doc = json.loads(res.stdout)
    assert doc["format"] == "roce-cfg/parse/v2"  # v2 since its shape changed (docs/parse.md)
    summaries = [s for s in res.stderr.splitlines() if s.endswith("opaque blocks")]
    assert len(doc["configs"]) == len(summaries) == 12
    quiet = run("parse", str(gen), "--quiet")
    assert quiet.exit_code == 0 and quiet.stdout == "" and quiet.stderr == ""
    # parse's document is the model: quiet checks the files whatever the format (docs/cli.md)
    asked = run("parse", str(gen), "--quiet", "--format", "json")
    assert asked.exit_code == 0 and asked.stdout == "" and asked.stderr == ""


def test_lint(gen: Path, damaged: Path) -> None:
    text = run("lint", str(damaged))
    doc = doc_of(run("lint", str(damaged), "--format", "json"), "lint")
    s = doc["summary"]
    plural = lambda n, word: f"{n} {word}{'s' * (n != 1)}"  # noqa: E731
    counts = (f"{plural(s['error'], 'error')}, {plural(s['warning'], 'warning')}, {s['info']} "
              f"info ({s['suppressed']} suppressed) in {s['devices']} configs")  # fmt: skip
    assert text.stdout.splitlines()[-1] == counts and s["error"] >= 1
    assert run("lint", str(gen), "-q").stdout == ""
    quiet = run("lint", str(damaged), "--quiet")
    assert quiet.exit_code == 1 and quiet.stdout == ""
    assert quiet.stderr.splitlines() == [f"roce-cfg: lint: {counts}"]


def test_deadlock() -> None:
    text = run(*VALLEY)
    doc = doc_of(run(*VALLEY, "--format", "json"), "deadlock")
    s = doc["summary"]
    head = f"{s['switches']} switches, {s['links']} links; checked {s['scenarios']} scenarios"
    assert text.stdout.startswith(head)
    assert text.stdout.splitlines()[-1] == f"{s['cycles']} cycles; exit 1" and s["cycles"] == 2
    assert all(c["chain"] in text.stdout for c in doc["cycles"])
    assert run("deadlock", str(POD), "-q").stdout == ""


def test_docs_and_report(tmp_path: Path, damaged: Path) -> None:
    text = run("docs", str(POD), "-o", str(tmp_path / "t"))
    doc = doc_of(run("docs", str(POD), "-o", str(tmp_path / "j"), "--format", "json"), "docs")
    assert text.stdout.startswith(f"{len(doc['files'])} files in ")
    assert sorted(p.name for p in (tmp_path / "j").iterdir()) == doc["files"]
    assert run("docs", str(POD), "-o", str(tmp_path / "q"), "-q").stdout == ""
    page = tmp_path / "r.html"
    text = run("report", str(POD), "-o", str(page))
    doc = doc_of(run("report", str(POD), "-o", str(page), "--format", "json"), "report")
    assert doc["bytes"] == page.stat().st_size
    assert f"({doc['bytes'] / 1024:.0f} KB)" in text.stdout
    assert (doc["switches"], doc["links"], doc["cycles"]) == (12, 64, 0)
    bad = run("report", str(damaged), "-o", str(tmp_path / "d.html"), "--format", "json")
    assert bad.exit_code == 1 and [Path(u["file"]).name for u in doc_of(bad, "report")["unread"]] \
        == ["leaf-2.cfg"]  # fmt: skip
    quiet = run("report", str(POD), "-o", str(page), "-q")
    assert quiet.exit_code == 0 and quiet.stdout == ""


def test_rules_explain_models_vendors() -> None:
    doc = doc_of(run("rules", "--format", "json"), "rules")
    assert [r["id"] for r in doc["rules"]] == [r[0] for r in rows(run("rules").stdout)]
    doc = doc_of(run("explain", "RC201", "--format", "json"), "explain")
    assert doc["rule"]["id"] == "RC201" and doc["rule"]["fix"] in run("explain", "RC201").stdout
    doc = doc_of(run("models", "--format", "json"), "models")
    assert [m["vendor"] for m in doc["models"]] == [r[0] for r in rows(run("models").stdout)]
    doc = doc_of(run("vendors", "--format", "json"), "vendors")
    first = run("vendors").stdout.split("\n# ")[0]
    assert [(r["vendor"], r["section"]) for r in doc["sections"]] == [
        (r[0], r[1]) for r in rows(first)
    ]
    assert set(doc["grammar"]) == {"h3c", "huawei", "ruijie", "zte"}


def test_plan() -> None:
    doc = doc_of(run("plan", "--gpus", "512", "--format", "json"), "plan")
    table = [r for r in rows(run("plan", "--gpus", "512").stdout) if len(r) > 2]
    assert len(table) == doc["feasible"] == sum(p["feasible"] for p in doc["plans"])
    everything = [r for r in rows(run("plan", "--gpus", "512", "--all").stdout) if len(r) > 2]
    assert len(everything) == len(doc["plans"]) > doc["feasible"]
    assert doc["demand"]["servers"] == 64 and doc["wrote"] is None
    assert run("plan", "--gpus", "512", "-q").stdout == ""


def test_pipeline(tmp_path: Path) -> None:
    inv = tmp_path / "inv.yaml"
    inv.write_text("hosts: {}\n")
    work = tmp_path / "work"
    res = run("pipeline", "generate", str(POD), str(inv), str(work), "--format", "json")
    doc = doc_of(res, "pipeline")
    assert doc["stages"] == [{"stage": "generate", "exit": 0}] and doc["passed"]
    assert "pipeline: generate passed" in res.stderr  # beside the document: stderr
    assert (work / "configs/leaf-1.cfg").is_file()
    quiet = run("pipeline", "generate", str(POD), str(inv), str(work), "-q")
    assert quiet.exit_code == 0 and quiet.stdout == ""


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Path]]:
    """The h3c pod's emulators running its intended configs, an inventory, and the configs."""
    from roce_cfg.lab.run import inventory, switches
    from roce_cfg.lab.server import Lab

    intent = SCENARIOS["pod-small-h3c"]
    folder = tmp_path_factory.mktemp("lab")
    assert run("generate", str(intent), "-o", str(folder / "out")).exit_code == 0
    with Lab(switches(intent, "intended"), USER, PASSWORD) as running:
        (folder / "inv.yaml").write_text(inventory(running))
        yield folder / "inv.yaml", folder / "out"


def cli(*args: str) -> Any:
    return run(*args, env=CREDS)


@pytest.mark.slow
def test_push_and_verify(lab: tuple[Path, Path]) -> None:
    inv, out = lab
    text = cli("push", str(out), "-i", str(inv))
    doc = doc_of(cli("push", str(out), "-i", str(inv), "--format", "json"), "push")
    assert len(doc["switches"]) == 12 and doc["applied"] is False
    for s in doc["switches"]:
        assert re.search(rf"\b{s['host']}\s+\S*\s*{s['status']}", text.stdout), s["host"]
    assert cli("push", str(out), "-i", str(inv), "-q").stdout == ""
    intent = str(SCENARIOS["pod-small-h3c"])
    checks = ("--skip", "queue,watchdog")
    text = cli("verify", intent, "-i", str(inv), *checks)
    doc = doc_of(cli("verify", intent, "-i", str(inv), *checks, "--format", "json"), "verify")
    assert doc["summary"]["devices"] == 12 and f"{doc['summary']['error']} errors" in text.stdout
    quiet = cli("verify", intent, "-i", str(inv), *checks, "-q")
    assert quiet.exit_code == 0 and quiet.stdout == ""


def test_lab_says_it_is_ready_in_one_document(tmp_path: Path) -> None:
    inventory = tmp_path / "inv.yaml"
    cmd = [sys.executable, "-m", "roce_cfg", "lab", "--intent", str(SCENARIOS["pod-small-h3c"]),
           "--inventory-out", str(inventory), "--format", "json"]  # fmt: skip
    proc = subprocess.Popen(cmd, cwd=ROOT, env={**os.environ, **CREDS}, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)  # fmt: skip
    try:
        assert proc.stdout is not None
        lines = []
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:  # the document ends with a closing brace alone
            line = proc.stdout.readline()
            lines.append(line)
            if line in ("}\n", ""):
                break
        doc = json.loads("".join(lines))
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
    assert doc["format"] == "roce-cfg/lab/v1" and doc["inventory"] == str(inventory)
    hosts = yaml.safe_load(inventory.read_text())["hosts"]
    assert {s["name"]: s["port"] for s in doc["switches"]} == {
        name: h["port"] for name, h in hosts.items()
    }
