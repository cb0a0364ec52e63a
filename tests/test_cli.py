"""The CLI end to end, as an operator runs it."""

from __future__ import annotations

import json
import os
import re
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import ROOT, run

POD = ROOT / "examples" / "pod-small.yaml"
ACCEPTANCE = ROOT / "tests/data/acceptance/pod-small.yaml"
SHARED = ROOT.parent / "shared/acceptance/pod-small.yaml"  # the original, when beside the checkout


@pytest.fixture(scope="module")
def pod_out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("pod") / "out"
    result = subprocess.run(
        [sys.executable, "-m", "roce_cfg", "generate", str(POD), "-o", str(out)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return out


def _blocks(text: str) -> dict[str, list[str]]:
    """Interface name -> its sub-command lines, from Comware / VRP '#'-separated text."""
    blocks: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in text.splitlines():
        if line.startswith("interface "):
            current = blocks.setdefault(line.removeprefix("interface "), [])
        elif line == "#":
            current = None
        elif current is not None:
            current.append(line.strip())
    return blocks


def test_pod_writes_8_leaves_4_spines(pod_out: Path) -> None:
    names = sorted(p.name for p in pod_out.iterdir())
    assert names == sorted(
        [".roce-cfg-manifest.json", "fabric.json"]
        + [f"leaf-{i}.cfg" for i in range(1, 9)]
        + [f"spine-{i}.cfg" for i in range(1, 5)]
    )


@pytest.mark.parametrize("leaf", [f"leaf-{i}" for i in range(1, 9)])
def test_leaf_has_rail_vlan_ports_uplinks_and_lossless(pod_out: Path, leaf: str) -> None:
    text = (pod_out / f"{leaf}.cfg").read_text()
    rail_vlan = 100 + int(leaf.split("-")[1])
    assert f"\nvlan {rail_vlan}\n" in text
    ports = _blocks(text)
    access = {n: b for n, b in ports.items() if f"port access vlan {rail_vlan}" in b}
    routed = {n: b for n, b in ports.items() if "port link-mode route" in b}
    assert len(access) == 16
    assert len(routed) == 8 and all(n.startswith("FourHundredGigE") for n in routed)
    for body in [*access.values(), *routed.values()]:
        assert "priority-flow-control enable" in body
        assert "priority-flow-control no-drop dot1p 3" in body
        assert "qos trust dscp" in body
        assert "qos wred apply ROCE" in body
        assert "qos wfq cs6 group sp" in body
        assert "priority-flow-control deadlock enable" in body
        assert any(re.fullmatch(r"priority-flow-control dot1p 3 headroom \d+", x) for x in body)
    assert " queue 3 ecn\n" in text
    assert "priority-flow-control deadlock cos 3 interval" in text


@pytest.mark.parametrize("spine", [f"spine-{i}" for i in range(1, 5)])
def test_spine_has_16_downlinks_and_bgp_to_8_leaves(pod_out: Path, spine: str) -> None:
    text = (pod_out / f"{spine}.cfg").read_text()
    routed = {n: b for n, b in _blocks(text).items() if "undo portswitch" in b}
    assert len(routed) == 16
    for body in routed.values():
        assert "dcb pfc enable mode manual" in body and "qos queue 3 ecn" in body
    peers = re.findall(r"^ peer (\S+) as-number (\d+)$", text, re.MULTILINE)
    assert len(peers) == 16
    assert {asn for _, asn in peers} == {str(65101 + i) for i in range(8)}


def test_fabric_json_is_the_plan(pod_out: Path) -> None:
    plan = json.loads((pod_out / "fabric.json").read_text())
    assert len(plan["switches"]) == 12
    assert len(plan["links"]) == 64
    assert len(plan["nics"]) == 128
    assert {r["vlan"] for r in plan["rails"]} == set(range(101, 109))
    assert all(h["required_bytes"] > 0 for h in plan["headroom"])


def test_acceptance_intent_is_accepted_as_is(tmp_path: Path) -> None:
    assert ACCEPTANCE.read_text() == POD.read_text(), "examples/pod-small.yaml drifted"
    if SHARED.exists():
        assert SHARED.read_text() == ACCEPTANCE.read_text(), "the acceptance copy drifted"
    result = run("generate", str(ACCEPTANCE), "-o", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output


def test_failed_run_leaves_existing_output_untouched(tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert run("generate", str(POD), "-o", str(out)).exit_code == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    bad = tmp_path / "bad.yaml"
    bad.write_text(POD.read_text().replace("min_kb: 150", "min_kb: 2000"))
    result = run("generate", str(bad), "-o", str(out))
    assert result.exit_code == 2
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".out.")] == []


def test_only_and_model_files(tmp_path: Path) -> None:
    result = run(
        "generate", str(POD), "-o", str(tmp_path / "o"), "--only", "spine-2", "--files", "model"
    )
    assert result.exit_code == 0, result.output
    names = sorted(p.name for p in (tmp_path / "o").iterdir())
    assert names == [".roce-cfg-manifest.json", "fabric.json", "spine-2.json"]
    model = json.loads((tmp_path / "o" / "spine-2.json").read_text())
    assert model["hostname"] == "spine-2" and model["bgp"]["asn"] == 65000


def test_only_unknown_switch(tmp_path: Path) -> None:
    result = run("generate", str(POD), "-o", str(tmp_path / "o"), "--only", "leaf-99")
    assert result.exit_code == 2
    assert "no switch named 'leaf-99'" in result.stderr


def test_schema_is_json_schema() -> None:
    result = run("schema")
    schema = json.loads(result.stdout)
    assert schema["title"] == "Intent"
    assert {"servers", "fabric", "addressing", "routing", "lossless"} <= set(schema["properties"])


def test_vendors_matrix() -> None:
    result = run("vendors", "--format", "json")
    assert result.exit_code == 0
    rows = json.loads(result.stdout)["sections"]
    h3c_pfc = next(r for r in rows if r["vendor"] == "h3c" and r["section"] == "pfc")
    assert h3c_pfc["status"] in ("verified", "partial") and "[H3C-PFC-CG]" in h3c_pfc["source"]


def test_usage_error_exits_2() -> None:
    assert run("generate").exit_code == 2


def test_written_files_and_directories_follow_the_umask(tmp_path: Path) -> None:
    """Atomic writes go through temporary names that are owner-only; what lands must not be."""
    out = tmp_path / "fresh" / "out"
    assert run("generate", str(POD), "-o", str(out)).exit_code == 0
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(out.stat().st_mode) == 0o777 & ~umask
    assert stat.S_IMODE((out / "leaf-1.cfg").stat().st_mode) == 0o666 & ~umask
    page = tmp_path / "report.html"
    assert run("report", str(POD), "-o", str(page)).exit_code == 0
    assert stat.S_IMODE(page.stat().st_mode) == 0o666 & ~umask


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["deadlock", "x", "--max-failures", "abc"], "Invalid value for '--max-failures'"),
        (["lint"], "Missing argument 'paths'"),
        (["nosuch"], "No such command 'nosuch'"),
        (["generate", str(POD), "-o", "x", "--format", "yaml"], "Invalid value for '--format'"),
    ],
)
def test_a_bad_option_is_one_line_and_exit_2(args: list[str], says: str) -> None:
    """click prints usage, a hint, a blank line and the error; every other bad input is one
    line naming the field, so options are too (in a real process: the entry point does it)."""
    done = subprocess.run(
        [sys.executable, "-m", "roce_cfg", *args], capture_output=True, text=True, check=False
    )
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("roce-cfg: error: "), done.stderr
    assert says in lines[0] and "--help" in lines[0]


def test_exit_codes_survive_the_entry_point(tmp_path: Path) -> None:
    """The entry point runs click outside its standalone mode: findings still exit 1, help and
    a clean lint 0."""

    def code(*args: str) -> int:
        return subprocess.run(
            [sys.executable, "-m", "roce_cfg", *args], capture_output=True, check=False
        ).returncode

    valley = str(ROOT / "examples/deadlock/valley.yaml")
    assert code("deadlock", valley, "--fail-links", "leaf-1:spine-1,leaf-2:spine-2") == 1
    assert code("--help") == 0 and code("--version") == 0
    assert code("lint", str(ROOT / "golden/pod-small-h3c")) == 0
