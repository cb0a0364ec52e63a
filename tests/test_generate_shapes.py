"""generate's shortcuts for ports of one shape (design/devices.py ``_Ports``: a port assembled
from the first validated port of its shape; a BGP peer assembled from its planned values; the
topology's links and NIC attachments assembled from their planned values, design/topology.py
``Trusted``) write what validating every one writes: the same configs, models and given
fields, for every scenario and for random intents of every vendor."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from roce_cfg.design import devices, topology
from roce_cfg.generate import generate, output_files
from tests.helpers import ROOT, SCENARIOS, examples

BOXES = [
    {"vendor": "h3c", "model": "S9855-32D"},
    {"vendor": "huawei", "model": "CE9860-4C-EI"},
    {"vendor": "ruijie", "model": "generic-32x400G"},
    {"vendor": "zte", "model": "generic-32x400G"},
]


def _written(path: Path) -> tuple[dict[str, str], list[Any]]:
    """Every file generate writes (configs and fabric.json), every port's model and given fields."""
    result = generate(path)
    ports = [
        (p.model_dump(mode="json"), sorted(p.model_fields_set))
        for d in result.fabric.devices
        for p in d.interfaces
    ]
    peers = [
        (n.model_dump(mode="json"), sorted(n.model_fields_set))
        for d in result.fabric.devices
        for n in (d.bgp.neighbors if d.bgp else ())
    ]
    models = [d.model_dump_json() for d in result.fabric.devices]
    planned = [
        (repr(m.model_dump()), sorted(m.model_fields_set))
        for m in (*result.fabric.links, *result.fabric.nics)
    ]
    return output_files(result), [ports, peers, models, planned]


def _both_ways(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shaped = _written(path)
    with monkeypatch.context() as m:
        m.setattr(devices._Ports, "validate_all", True)
        m.setattr(topology.Trusted, "validate_all", True)
        plain = _written(path)
    assert shaped == plain


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_every_scenario_is_the_same_with_ports_by_shape(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    _both_ways(SCENARIOS[name], monkeypatch)


@st.composite
def _intents(draw: st.DrawFn) -> dict[str, Any]:
    """A leaf-spine pod or a single switch (every rail's VLAN on one box) of any vendor, with
    server and fabric links that may share a speed and cable length (one PortQos)."""
    single = draw(st.booleans())
    name = "single-switch" if single else "pod-small"
    doc: dict[str, Any] = yaml.safe_load((ROOT / f"examples/{name}.yaml").read_text("utf-8"))
    rails = draw(st.integers(1, 4))
    speed = draw(st.sampled_from(["100G", "200G", "400G"]))
    doc["servers"].update(count=draw(st.integers(1, 4)), nics=rails, nic_speed=speed)
    fab = doc["fabric"]
    fab["rails"] = rails
    fab["links"]["server_leaf"] = {"speed": speed, "cable_m": draw(st.sampled_from([1, 3, 30]))}
    if single:
        fab["switch"] = draw(st.sampled_from(BOXES))
        return doc
    fab.update(spines=draw(st.integers(1, 3)), uplinks_per_spine=draw(st.integers(1, 2)))
    fab.update(leaf=draw(st.sampled_from(BOXES)), spine=draw(st.sampled_from(BOXES)))
    fab["links"]["leaf_spine"]["cable_m"] = draw(st.sampled_from([3, 30, 100]))
    return doc


@settings(
    max_examples=examples(40),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(doc=_intents())
def test_random_intents_are_the_same_with_ports_by_shape(
    doc: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "intent.yaml"
        path.write_text(yaml.safe_dump(doc), encoding="utf-8")
        _both_ways(path, monkeypatch)
