"""Plans larger than any real fabric are refused before design, with the figure."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
import yaml

from roce_cfg.design.shape import FabricShape
from roce_cfg.intent.loader import load_intent
from roce_cfg.model.ceilings import MAX_GPUS, MAX_LINKS, MAX_SWITCHES
from tests.helpers import ROOT, run

THREE_TIER = ROOT / "tests" / "scenarios" / "three-tier.yaml"


def _intent(tmp_path: Path, servers: dict[str, int], fabric: dict[str, int]) -> Path:
    doc = yaml.safe_load(THREE_TIER.read_text())
    doc["servers"].update(servers)
    doc["fabric"].update(fabric)
    path = tmp_path / "huge.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False))
    return path


CASES = {
    "gpus": (
        {"count": 65536, "nics": 4},
        {"rails": 4},
        f"servers.count: 262,144 GPUs (65,536 servers x 4 NICs) is more than the largest fabric "
        f"roce-cfg designs ({MAX_GPUS:,} GPUs)",
    ),
    "switches": (
        {"count": 4096, "nics": 16},
        {"rails": 16, "leaves_per_rail": 64, "pods": 64},
        "fabric: 65,666 switches (65,536 leaves + 128 spines + 2 super-spines) is more than the "
        f"largest fabric roce-cfg designs ({MAX_SWITCHES:,} switches)",
    ),
    "links": (
        {"count": 4096, "nics": 16},
        {"rails": 16, "leaves_per_rail": 64, "pods": 4, "spines": 256, "uplinks_per_spine": 16},
        "fabric: 16,779,264 switch-to-switch links (16,777,216 leaf-spine + 2,048 "
        "spine-super-spine) is more than the largest fabric roce-cfg designs "
        f"({MAX_LINKS:,} links)",
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_plan_past_a_ceiling_is_refused_before_design(tmp_path: Path, name: str) -> None:
    servers, fabric, message = CASES[name]
    path = _intent(tmp_path, servers, fabric)
    started = time.process_time()
    result = run("generate", str(path), "-o", str(tmp_path / "out"))
    assert result.exit_code == 2, result.output
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert time.process_time() - started < 2, "refused before any work proportional to the plan"
    assert not (tmp_path / "out").exists()


def test_the_counts_match_what_design_builds() -> None:
    """The ceilings count switches and links as the designer builds them."""
    from roce_cfg.design.designer import plan

    others = ["tests/scenarios/three-tier-planes.yaml", "examples/pod-small.yaml",
              "examples/single-switch.yaml"]  # fmt: skip
    for path in [THREE_TIER, *(ROOT / p for p in others)]:
        loaded = load_intent(path)
        fabric, _ = plan(loaded, None)
        s = FabricShape.of(loaded.intent).size
        assert (s.switches, s.links) == (len(fabric.switches), len(fabric.links)), path
        assert s.gpus == len(fabric.nics), path


def test_the_largest_bundled_plan_is_well_inside() -> None:
    s = FabricShape.of(load_intent(ROOT / "bench" / "fabric-xl.yaml").intent).size
    assert (s.gpus, s.switches, s.links) == (32_768, 1_280, 65_536)
