"""The fabric's shape: tiers top first, derived once from the intent and read by the designer."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from roce_cfg.design.shape import FabricShape
from roce_cfg.design.topology import build
from roce_cfg.errors import PlanError
from roce_cfg.intent.models import Intent
from roce_cfg.platforms.profile import load_profile
from roce_cfg.vendor import Vendor
from tests.helpers import ROOT, examples, run

THREE_TIER = ROOT / "tests" / "scenarios" / "three-tier.yaml"


def _three_tier(tmp_path: Path, **fabric: object) -> Path:
    doc = yaml.safe_load(THREE_TIER.read_text(encoding="utf-8"))
    doc["fabric"].update(fabric)
    doc["lossless"]["pfc"]["watchdog"]["restore_ms"] = 1000  # within every vendor's range
    path = tmp_path / "tiers.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    return path


def test_super_spines_of_another_vendor_than_the_pods(tmp_path: Path) -> None:
    """The profile of every tier's vendor is loaded (a Huawei super-spine above H3C pods was
    a KeyError traceback: only leaf, spine and single-switch vendors were)."""
    path = _three_tier(tmp_path, super_spine={"vendor": "huawei"})
    out = tmp_path / "out"
    result = run("generate", str(path), "-o", str(out))
    assert result.exit_code == 0, result.output
    assert "sysname superspine-1" in (out / "superspine-1.cfg").read_text(encoding="utf-8")
    assert "#\n sysname leaf-1" in (out / "leaf-1.cfg").read_text(encoding="utf-8")


def test_a_three_tier_asn_collision_is_located_and_named(tmp_path: Path) -> None:
    """The one ASN rule covers every pair of tiers (three tiers used to say only 'collides with a
    pod spine or leaf ASN', two tiers named the ranges)."""
    doc = yaml.safe_load(THREE_TIER.read_text(encoding="utf-8"))
    doc["routing"]["super_spine_asn"] = 65102
    path = tmp_path / "clash.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    result = run("generate", str(path), "-o", str(tmp_path / "out"))
    assert result.exit_code == 2
    line = next(n for n, t in enumerate(path.read_text().splitlines(), 1) if "leaf_asn_base" in t)
    assert (
        f"clash.yaml:{line} routing.leaf_asn_base: leaf ASNs 65101-65104 collide with "
        "super-spine ASN 65102" in result.stderr
    )


def test_a_three_tier_asn_plan_past_32_bits_is_refused(tmp_path: Path) -> None:
    """It was a pydantic ValidationError traceback: only two tiers checked the range."""
    doc = yaml.safe_load(THREE_TIER.read_text(encoding="utf-8"))
    doc["routing"]["leaf_asn_base"] = 4294967294
    path = tmp_path / "wide.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    result = run("generate", str(path), "-o", str(tmp_path / "out"))
    assert result.exit_code == 2, result.output
    assert "routing.leaf_asn_base: ASN plan runs past 4294967295" in result.stderr
    assert "Traceback" not in result.output


def test_an_intent_built_in_code_is_checked_like_a_loaded_one() -> None:
    """The shape runs the intent's own checks: a missing spine role is a PlanError naming the
    field, not an AttributeError deep in the layout."""
    doc = yaml.safe_load(THREE_TIER.read_text(encoding="utf-8"))
    del doc["fabric"]["spine"]
    with pytest.raises(PlanError) as exc:
        FabricShape.of(Intent.model_validate(doc))
    assert exc.value.loc == ("fabric", "topology")
    assert "needs fabric.spine" in exc.value.reason


RUIJIE = load_profile(Vendor.RUIJIE)
BOX = {"vendor": "ruijie", "model": "generic-128x400G"}


@st.composite
def _intents(draw: st.DrawFn) -> Intent:
    pods, rails = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    spines = draw(st.integers(1, 3))
    fabric: dict[str, object] = {
        "topology": "leaf-spine", "rails": rails, "pods": pods, "spines": spines,
        "leaves_per_rail": draw(st.integers(1, 2)), "uplinks_per_spine": draw(st.integers(1, 2)),
        "leaf": BOX, "spine": BOX,
        "links": {"server_leaf": {"speed": "200G", "cable_m": 3},
                  "leaf_spine": {"speed": "400G", "cable_m": 30}},
    }  # fmt: skip
    routing: dict[str, object] = {"spine_asn": 65000, "leaf_asn_base": 65100}
    if pods > 1:
        planes = draw(st.booleans())
        supers = spines * draw(st.integers(1, 2)) if planes else draw(st.integers(1, 3))
        fabric.update(super_spines=supers, super_spine_planes=planes, super_spine=BOX,
                      uplinks_per_super_spine=draw(st.integers(1, 2)))  # fmt: skip
        fabric["links"]["spine_superspine"] = {"speed": "400G", "cable_m": 100}  # type: ignore[index]
        routing["super_spine_asn"] = 64900
    return Intent.model_validate({
        "name": "prop",
        "servers": {"count": pods * draw(st.integers(1, 5)), "nics": rails, "nic_speed": "200G"},
        "fabric": fabric,
        "addressing": {"loopbacks": "10.0.0.0/24", "fabric_p2p": "10.1.0.0/20",
                       "rail_subnets": "172.16.0.0/16", "rail_vlan_base": 101},
        "routing": routing,
    })  # fmt: skip


@settings(max_examples=examples(60), deadline=None)
@given(_intents())
def test_the_shape_is_what_the_designer_lays_out(intent: Intent) -> None:
    """Counts, addresses, ASNs and wiring of the layout follow the shape, for every number of
    pods, rails, leaves per rail, spines, super-spines and planes."""
    shape = FabricShape.of(intent)
    topo = build(intent, {Vendor.RUIJIE: RUIJIE}, shape)
    size, plans = shape.size, {s.plan.hostname: s.plan for s in topo.switches}
    assert (len(plans), len(topo.links), len(topo.nics)) == (size.switches, size.links, size.gpus)
    assert len({p.loopback for p in plans.values()}) == len(plans)
    assert len({k.a_ip.network for k in topo.links}) == len(topo.links)
    assert all(k.a_ip.network == k.b_ip.network for k in topo.links)
    fab, per_pod = intent.fabric, intent.fabric.spines
    for k in topo.links:
        low, high = plans[k.a_device], plans[k.b_device]
        if k.kind == "leaf-spine":
            assert (low.role, high.role, low.pod) == ("leaf", "spine", high.pod)
        else:
            assert (low.role, high.role) == ("spine", "superspine")
            if fab.super_spine_planes:  # spine j of every pod joins plane j only
                plane = (int(high.hostname.split("-")[1]) - 1) // (fab.super_spines // per_pod)
                assert plane == (int(low.hostname.split("-")[1]) - 1) % per_pod
    spine_asns = {(p.pod, p.asn) for p in plans.values() if p.role == "spine"}
    assert len(spine_asns) == fab.pods
    leaf_asns = [p.asn for p in plans.values() if p.role == "leaf"]
    assert len(set(leaf_asns)) == len(leaf_asns)
    assert sorted((n.server, n.rail) for n in topo.nics) == sorted(
        (f"server-{s + 1}", r) for s in range(intent.servers.count) for r in range(fab.rails)
    )
