"""Failures by symmetry (deadlock/orbits.py, deadlock/sweep.py) against the brute-force
checker: every single and every pair of link failures of random damaged Clos fabrics."""

from __future__ import annotations

from itertools import combinations
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from roce_cfg.deadlock import load
from roce_cfg.deadlock.analyse import Cycle
from roce_cfg.deadlock.net import Network, build
from roce_cfg.deadlock.orbits import Symmetry
from roce_cfg.deadlock.quick import TRUNCATED
from roce_cfg.deadlock.sweep import Unsymmetric, sweep
from roce_cfg.design.designer import design
from roce_cfg.intent.models import Intent
from roce_cfg.platforms.profile import load_profile
from tests import deadlock_brute as brute
from tests.helpers import ROOT, examples
from tests.test_deadlock import _clos


def _damaged(spec: dict[str, Any], gone: set[int]) -> Network:
    intent = Intent.model_validate(spec)
    fabric = design(intent, {v: load_profile(v) for v in {intent.fabric.leaf.vendor}})
    links = [(k.a_device, k.a_port, k.b_device, k.b_port) for k in fabric.links]
    net = build(list(fabric.devices), links, 26)
    names = net.names
    kept = [(names[k.a], k.a_port, names[k.b], k.b_port) for k in net.links if k.id not in gone]
    return build(net.devices, kept, 26)


def _agrees(net: Network, failed: set[int], cycles: list[Cycle]) -> None:
    """The orbit answer for one scenario is the brute force's: as many cycles, each mapped
    witness a real cycle of the brute-force graph inside one of its components."""
    comps = brute.components(net, failed)
    assert len(cycles) == len(comps), (sorted(failed), len(cycles), len(comps))
    edges = brute._edges(net, failed)
    for c in cycles:
        ring = zip(c.nodes, (*c.nodes[1:], c.nodes[0]), strict=True)
        assert all(v in edges.get(u, set()) for u, v in ring), c
        assert any(set(c.nodes) <= comp for comp in comps)


clos = st.builds(
    _clos,
    st.integers(1, 3),
    st.integers(2, 4),
    st.integers(1, 2),
    st.booleans(),
    st.sampled_from([2, 64]),
)


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(clos, st.data())
def test_orbit_answers_equal_brute_force_for_every_single_and_pair(
    spec: dict[str, Any], data: st.DataObject
) -> None:
    probe = _damaged(spec, set())
    gone = data.draw(st.sets(st.sampled_from(range(len(probe.links))), max_size=2))
    net = _damaged(spec, gone)
    assume(not brute.components(net, set()))  # the sweep's premise: a healthy fabric acyclic
    try:
        out = sweep(net, True, True, lambda i, n: None)
    except Unsymmetric:
        # Router ids chose among equal paths (max-paths below them): the sweep gives up
        # rather than answer (run() then checks scenario by scenario).
        return
    n = len(net.links)
    assert out.pair_total == n * (n - 1) // 2
    for lid in range(n):
        _agrees(net, {lid}, out.singles.get((lid,), []))
    for pair in combinations(range(n), 2):
        _agrees(net, set(pair), out.pairs.get(pair, []))


def _is_automorphism(net: Network, image: list[int], link: list[int]) -> bool:
    for ln in net.links:
        there = net.links[link[ln.id]]
        ends = {
            (image[ln.a], (ln.a, ln.id) in net.lossless),
            (image[ln.b], (ln.b, ln.id) in net.lossless),
        }
        if ends != {
            (there.a, (there.a, there.id) in net.lossless),
            (there.b, (there.b, there.id) in net.lossless),
        }:
            return False
    same_asn = {
        (a, b) for a in range(len(net.asn)) for b in range(len(net.asn)) if net.asn[a] == net.asn[b]
    }
    return all((image[a], image[b]) in same_asn for a, b in same_asn)


def test_mappings_are_automorphisms_and_reach_every_member_on_three_tiers() -> None:
    src = load(ROOT / "tests/scenarios/three-tier-planes.yaml")
    net = build(src.devices, src.links, src.dscp)
    sym = Symmetry(net)
    orbits = sym.orbits()
    assert sorted(lid for o in orbits for lid in o) == list(range(len(net.links)))
    assert len(orbits) < len(net.links)  # the symmetry has work to save
    for orbit in orbits:
        for lid in orbit:
            m = sym.mapping(orbit[0], lid)
            assert m.link(orbit[0]) == lid
            image = [m.switch(s) for s in range(len(net.names))]
            links = [m.link(x) for x in range(len(net.links))]
            assert sorted(image) == list(range(len(net.names)))
            assert sorted(links) == list(range(len(net.links)))
            assert _is_automorphism(net, image, links)


def test_a_brownfield_fabric_falls_back_to_finer_orbits() -> None:
    spec = _clos(2, 4, 1, False, 64)
    whole = Symmetry(_damaged(spec, set())).orbits()
    assert len(whole) == 1
    broken = Symmetry(_damaged(spec, {0})).orbits()  # one cable missing: leaf-1 is unlike
    assert 1 < len(broken) < 7 and sum(map(len, broken)) == 7


def test_pair_classes_partition_every_pair_of_the_large_bench_fabric() -> None:
    src = load(ROOT / "bench/fabric-large.yaml")
    net = build(src.devices, src.links, src.dscp)
    sym = Symmetry(net)
    assert [len(o) for o in sym.orbits()] == [8192]
    from roce_cfg.deadlock.sweep import pair_classes

    sizes = sorted(size for _, size, _, _ in pair_classes(net, sym))
    # two links of one leaf, of one spine, or of neither
    assert sizes == [128 * 64 * 63 // 2, 64 * 128 * 127 // 2, 8192 * 8191 // 2 - 258048 - 520192]


def test_valley_pairs_open_cycles_and_the_mapped_cycles_are_the_brute_forces() -> None:
    """Four leaves on two spines with an ASN each: two failures on different leaves and
    spines open valley routes and cycles; every pair is checked against the brute force."""
    net = _damaged(_clos(2, 4, 1, False, 64), set())
    out = sweep(net, True, True, lambda i, n: None)
    assert out.single_orbits == 1 and not out.singles
    # same leaf 4, same spine 12, different leaf and spine 12: only the last opens cycles
    assert [(c.pairs, len(c.cycles)) for c in out.classes] == [(4, 0), (12, 0), (12, 2)]
    assert len(out.pairs) == 12
    for pair in combinations(range(len(net.links)), 2):
        _agrees(net, set(pair), out.pairs.get(pair, []))


def test_where_router_ids_decide_the_sweep_gives_up_and_run_checks_each_scenario() -> None:
    """Three spines with an ASN each, max-paths 2, one cable missing: failing links 1 and 3
    opens two cycles that failing 0 and 3 (its image without router ids) does not."""
    net = _damaged(_clos(3, 4, 1, False, 2), {0})
    with pytest.raises(Unsymmetric):
        sweep(net, True, True, lambda i, n: None)
    assert len(brute.components(net, {1, 3})) == 2


@pytest.mark.parametrize(("spines", "leaves", "paths"), [(3, 4, 2), (4, 5, 3)])
def test_where_router_ids_truncate_the_every_path_bound_answers_each_orbit(
    spines: int, leaves: int, paths: int
) -> None:
    """One ASN per spine and max-paths below the spines: every representative's routing
    leaves equal paths out, and the bound that keeps them all proves no cycle for every
    member, single and pair, as the brute force with the real router ids finds."""
    net = _damaged(_clos(spines, leaves, 1, False, paths), set())
    out = sweep(net, True, True, lambda i, n: None)
    assert TRUNCATED  # the bound, not the plain orbit argument, gave the answers
    for lid in range(len(net.links)):
        _agrees(net, {lid}, out.singles.get((lid,), []))
    for pair in combinations(range(len(net.links)), 2):
        _agrees(net, set(pair), out.pairs.get(pair, []))


def test_the_cli_says_what_the_symmetry_analysed() -> None:
    from tests.helpers import run as cli

    src = str(ROOT / "tests/deadlock/valley-per-spine-asn.yaml")
    result = cli("deadlock", src, "--fail-links", "all-single", "--max-failures", "2")
    assert result.exit_code == 1
    assert "checked 37 scenarios" in result.stdout
    assert (
        "by symmetry: 1 single-failure orbits, 3 pair classes (28 pairs); 4 scenarios analysed"
        in (result.stdout)
    )
    assert "12 pairs like leaf-1:" in result.stdout
    assert result.stdout.count("2 deadlock cycles after") == 12
