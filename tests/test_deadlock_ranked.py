"""The rank proof of quick.py (a rank that rises along every dependency edge: no cycle) against
the brute-force checker, on random damaged Clos fabrics with random failures."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from roce_cfg.deadlock import load
from roce_cfg.deadlock.net import Network, build
from roce_cfg.deadlock.quick import _ranked, acyclic, bicliques, levels
from tests import deadlock_brute as brute
from tests.helpers import ROOT, examples
from tests.test_deadlock import _clos, _net

clos = st.builds(
    _clos,
    st.integers(1, 4),
    st.integers(2, 5),
    st.integers(1, 2),
    st.booleans(),
    st.sampled_from([1, 2, 64]),
)


def _without(net: Network, gone: set[int]) -> Network:
    names = net.names
    kept = [(names[k.a], k.a_port, names[k.b], k.b_port) for k in net.links if k.id not in gone]
    return build(net.devices, kept, 26)


def _proven(net: Network, failed: frozenset[int]) -> bool:
    groups = bicliques(net, failed)
    assert groups is not None
    return _ranked(net, groups, {})


@settings(max_examples=examples(80), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(clos, st.data())
def test_the_rank_proof_and_the_search_give_the_brute_forces_verdict(
    spec: dict[str, Any], data: st.DataObject
) -> None:
    whole = _net(spec)
    assert _proven(whole, frozenset())  # an undamaged up-down Clos: the proof alone suffices
    links = range(len(whole.links))
    net = _without(whole, data.draw(st.sets(st.sampled_from(links), max_size=3)))
    if not net.links:
        return
    failed = data.draw(st.frozensets(st.sampled_from(range(len(net.links))), max_size=2))
    cycles = brute.components(net, set(failed))
    if _proven(net, failed):
        assert cycles == []
    assert acyclic(net, {}, failed) == (cycles == [])


def test_a_valley_route_without_a_cycle_is_left_to_the_search() -> None:
    # Two spines, one ASN each, three leaves; leaf-1 has lost spine-1 and leaf-2 spine-2: their
    # traffic goes down to leaf-3 and up again, which no rank explains, yet nothing waits back.
    net = _net(_clos(2, 3, 1, False, 64))
    names = {ln.id: (net.names[ln.a], net.names[ln.b]) for ln in net.links}
    failed = frozenset(
        lid for lid, pair in names.items() if pair in {("leaf-1", "spine-1"), ("leaf-2", "spine-2")}
    )
    assert len(failed) == 2
    assert not _proven(net, failed)
    assert acyclic(net, {}, failed)
    assert brute.components(net, set(failed)) == []


@pytest.mark.parametrize(
    "source", ["tests/scenarios/three-tier.yaml", "tests/scenarios/three-tier-planes.yaml"]
)
def test_three_tiers_rank_by_level_and_every_single_failure_agrees(source: str) -> None:
    src = load(ROOT / source)
    net = build(src.devices, src.links, src.dscp)
    roles = {net.devices[s].role: lv for s, lv in enumerate(levels(net))}
    assert roles == {"leaf": 0, "spine": 1, "superspine": 2}
    assert _proven(net, frozenset())
    for lid in range(len(net.links)):
        failed = frozenset([lid])
        assert acyclic(net, {}, failed) == (brute.components(net, {lid}) == [])
