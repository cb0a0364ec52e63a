"""The fast proofs of deadlock/quick.py against the brute-force checker on irregular fabrics.

The Clos properties elsewhere never meet what the shortcuts must refuse: destinations whose ASN
another switch shares (leaves in one AS), a switch whose equal next hops sit at different levels
(a leaf linked to a spine and to another leaf: one group, ways out of mixed rank), links within a
level, a lossy port in the middle of a path, equal paths cut by max-paths, VLAN flooding edges,
and static routes. Networks are built directly (no configs), so any graph can be drawn.

ROCE_CFG_QUICK_EXAMPLES raises the number of examples under --full (a long run: 2000).
"""

from __future__ import annotations

import os
from dataclasses import replace
from ipaddress import IPv4Network
from itertools import product

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from roce_cfg.deadlock import quick
from roce_cfg.deadlock.analyse import analyse
from roce_cfg.deadlock.cycles import sccs
from roce_cfg.deadlock.net import Cand, Flow, Link, Network, Static
from roce_cfg.deadlock.quick import _ranked, acyclic, bicliques, levels, ranks, twin_classes
from roce_cfg.deadlock.routing import Node, destinations
from tests import deadlock_brute as brute
from tests.helpers import examples

EXAMPLES = int(os.environ.get("ROCE_CFG_QUICK_EXAMPLES", "150"))
SETTINGS = settings(
    max_examples=examples(EXAMPLES), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def network(
    links: list[tuple[int, int]],
    asn: list[int | None],
    *,
    hosts: list[bool],
    max_paths: list[int] | None = None,
    router_id: list[int] | None = None,
    lossy: frozenset[Node] = frozenset(),
    no_session: frozenset[int] = frozenset(),
) -> Network:
    """A Network over switches 0..n-1: ``links`` as (a, b) pairs (repeat a pair for parallel
    links), every switch with hosts originating one /24, every link end lossless but ``lossy``,
    eBGP on every link between two switches with an ASN but those in ``no_session``."""
    n = len(asn)
    net = Network(
        names=[f"s{i}" for i in range(n)],
        devices=[],
        links=[Link(k, a, f"p{k}", b, f"p{k}") for k, (a, b) in enumerate(links)],
        asn=asn,
        router_id=router_id or list(range(1, n + 1)),
        max_paths=max_paths or [64] * n,
    )
    net.adj = [{} for _ in range(n)]
    net.sessions = [set() for _ in range(n)]
    for ln in net.links:
        net.adj[ln.a].setdefault(ln.b, []).append(ln.id)
        net.adj[ln.b].setdefault(ln.a, []).append(ln.id)
        if asn[ln.a] is not None and asn[ln.b] is not None and ln.id not in no_session:
            net.sessions[ln.a].add(ln.b)
            net.sessions[ln.b].add(ln.a)
    net.pairs = [
        {m: frozenset((m, lid) for lid in lids) for m, lids in nbrs.items()} for nbrs in net.adj
    ]
    net.all_outs = [frozenset().union(*p.values()) for p in net.pairs]
    net.hosts = list(hosts)
    net.originated = [[IPv4Network(f"172.16.{s}.0/24")] if h else [] for s, h in enumerate(hosts)]
    # A switch's own prefixes are its BGP group, originated by it alone (dests.py's plain
    # destination): the brute force starts each group's routes at its origins.
    net.origins = [(s,) if h and asn[s] is not None else () for s, h in enumerate(hosts)]
    net.senders = list(hosts)
    net.ebgp_pref, net.tie = [255] * n, ["flagged"] * n  # VRP's (vendors/huawei.yaml)
    net.statics = [[] for _ in range(n)]
    net.vlan_links = [{} for _ in range(n)]
    ends = [(s, ln.id) for ln in net.links for s in (ln.a, ln.b)]
    net.prio = {e: None if e in lossy else 3 for e in ends}
    net.lossless = frozenset(e for e in ends if e not in lossy)
    return net


@st.composite
def fabrics(draw: st.DrawFn) -> tuple[Network, frozenset[int], bool, dict[Node, set[Node]]]:
    """A damaged two- or three-level fabric with links added anywhere, shared ASNs, lossy ends,
    missing sessions, ECMP limits, a failure set, the every-path bound and flooding edges."""
    leaves, spines, tops = draw(st.integers(2, 4)), draw(st.integers(1, 3)), draw(st.integers(0, 1))
    n = leaves + spines + tops
    spine_ids, top_ids = range(leaves, leaves + spines), range(leaves + spines, n)
    pairs = [(a, b) for a in range(leaves) for b in spine_ids]
    pairs += [(a, b) for a in spine_ids for b in top_ids]
    links = [p for p in pairs if draw(st.integers(0, 5))]  # mostly present
    links += draw(st.lists(st.sampled_from(pairs), max_size=2))  # parallel links
    anywhere = [(a, b) for a in range(n) for b in range(a + 1, n)]
    links += draw(st.lists(st.sampled_from(anywhere), max_size=3))
    if not links:
        links = [pairs[0]]
    # leaves in a few ASNs (a shared one is loop prevention between them), spines in one or each
    leaf_asn = [65100 + draw(st.integers(0, leaves - 1)) for _ in range(leaves)]
    shared_spine = draw(st.booleans())
    spine_asn = [65000 if shared_spine else 65001 + k for k in range(spines)]
    asn: list[int | None] = [*leaf_asn, *spine_asn, *[64900] * tops]
    hosts = [s < leaves or draw(st.integers(0, 7)) == 0 for s in range(n)]
    ends = [(s, k) for k, (a, b) in enumerate(links) for s in (a, b)]
    lossy = draw(st.frozensets(st.sampled_from(ends), max_size=2))
    net = network(
        links,
        asn,
        hosts=hosts,
        max_paths=[draw(st.sampled_from([1, 2, 64])) for _ in range(n)],
        router_id=draw(st.permutations(range(1, n + 1))),
        lossy=lossy,
        no_session=draw(st.frozensets(st.integers(0, len(links) - 1), max_size=1)),
    )
    failed = draw(st.frozensets(st.integers(0, len(links) - 1), max_size=2))
    nodes = sorted(net.lossless)
    extra: dict[Node, set[Node]] = {}
    pair = st.tuples(st.sampled_from(nodes), st.sampled_from(nodes))
    for u, v in draw(st.lists(pair, max_size=2)) if nodes else ():
        extra.setdefault(u, set()).add(v)
    return net, failed, draw(st.booleans()), extra


def _every_path(net: Network, every_path: bool) -> Network:
    """The brute force's fabric for the every-path bound: no ECMP limit anywhere."""
    return replace(net, max_paths=[1 << 20] * len(net.names)) if every_path else net


def _edges(net: Network, failed: frozenset[int], every_path: bool) -> dict[Node, set[Node]]:
    return brute._edges(_every_path(net, every_path), set(failed))


def _cyclic(edges: dict[Node, set[Node]], extra: dict[Node, set[Node]]) -> bool:
    graph = {u: set(vs) for u, vs in edges.items()}
    for u, vs in extra.items():
        graph.setdefault(u, set()).update(vs)
    return bool(sccs(list(graph), lambda u: graph.get(u, ())))


def _biclique_edges(
    net: Network, failed: frozenset[int], every_path: bool
) -> set[tuple[Node, Node]]:
    groups = bicliques(net, failed, every_path)
    assert groups is not None
    ok = net.lossless
    return {
        ((s, lid), o)
        for (s, outs), ins in groups.items()
        for lid in ins
        for o in outs
        if (s, lid) in ok and o in ok
    }


@SETTINGS
@given(fabrics())
def test_the_fast_answer_is_the_brute_forces_on_irregular_fabrics(
    case: tuple[Network, frozenset[int], bool, dict[Node, set[Node]]],
) -> None:
    net, failed, every_path, extra = case
    edges = _edges(net, failed, every_path)
    assert _biclique_edges(net, failed, every_path) == {
        (u, v) for u, vs in edges.items() for v in vs
    }
    cyclic = _cyclic(edges, extra)
    groups = bicliques(net, failed, every_path)
    assert groups is not None
    if _ranked(net, groups, extra):
        assert not cyclic  # the rank proof never clears a fabric with a cycle
    assert acyclic(net, extra, failed, every_path) == (not cyclic)


def _rises(net: Network, groups: quick.Bicliques, extra: dict[Node, set[Node]]) -> bool:
    """The rank proof's claim, edge by edge: every dependency edge between two lossless buffers
    (and every extra edge) goes to a higher rank."""
    rank = ranks(net)
    for (s, outs), ins in groups.items():
        for lid in ins:
            u = (s, lid)
            if u in rank and any(v in rank and rank[v] <= rank[u] for v in outs):
                return False
    return all(u in rank and v in rank and rank[u] < rank[v] for u, vs in extra.items() for v in vs)


@SETTINGS
@given(fabrics())
def test_the_rank_proof_holds_exactly_when_every_edge_rises(
    case: tuple[Network, frozenset[int], bool, dict[Node, set[Node]]],
) -> None:
    net, failed, every_path, extra = case
    groups = bicliques(net, failed, every_path)
    assert groups is not None
    assert _ranked(net, groups, extra) == _rises(net, groups, extra)
    for key, ins in groups.items():  # one group at a time: no other group hides its answer
        assert _ranked(net, {key: ins}, {}) == _rises(net, {key: ins}, {}), key


@SETTINGS
@given(fabrics())
def test_twins_have_an_asn_of_their_own_and_the_same_live_neighbourhood(
    case: tuple[Network, frozenset[int], bool, dict[Node, set[Node]]],
) -> None:
    net, failed, _, _ = case
    classes = twin_classes(net, failed)
    assert sorted(d for cls in classes for d in cls) == destinations(net)
    for cls in classes:
        if len(cls) > 1:
            assert all(net.asn.count(net.asn[d]) == 1 for d in cls)


# --- fixed fabrics, each the smallest a shortcut must get right ---------------------------


def test_leaves_in_one_as_are_no_twins_and_their_valley_cycle_is_found() -> None:
    # Two spines (each its own AS) over three leaves, leaves 0 and 1 in one AS. Leaf 0 has lost
    # spine 3, leaf 1 spine 4: traffic between them would go down through leaf 2 and up again,
    # but loop prevention stops leaf 0 taking leaf 1's routes, so only leaf 2's traffic and the
    # valley through it remain; the twin shortcut must not stand leaf 0 for leaf 1 (the same
    # neighbours, not the same routes).
    links = [(0, 4), (1, 3), (2, 3), (2, 4), (0, 4), (1, 3)]
    net = network(
        links, [65100, 65100, 65102, 65001, 65002], hosts=[True, True, True, False, False]
    )
    assert all(len(cls) == 1 for cls in twin_classes(net))
    cyclic = _cyclic(brute._edges(net, set()), {})
    assert acyclic(net, {}) == (not cyclic)


def test_a_shared_asn_is_not_a_twin_even_with_the_same_neighbours() -> None:
    # Leaves 0 and 1 (one AS) and leaf 2 hang off spines 3 and 4; leaf 0's routes are leaf 1's
    # relabelled only if they could not tell each other apart, and loop prevention lets them.
    net = network(
        [(0, 3), (0, 4), (1, 3), (1, 4), (2, 3), (2, 4)],
        [65100, 65100, 65102, 65001, 65002],
        hosts=[True, True, True, False, False],
    )
    classes = twin_classes(net)
    assert [0] in classes and [1] in classes


def test_a_group_is_judged_by_its_highest_way_in_and_its_lowest_way_out() -> None:
    # Leaves 0 and 1, spines 2 and 3 (joined by link 6), top 4. Ranks (top rank 5): spine 2
    # from leaf 0 is 1 (going up), from the top 4 (coming down), from spine 3 4 (same level);
    # leaf 1 from spine 2 is 5; the top from spine 2 is 2; spine 3 from spine 2 is 4.
    links = [(0, 2), (1, 2), (2, 4), (0, 3), (1, 3), (3, 4), (2, 3)]
    net = network(
        links, [65100, 65101, 65001, 65002, 64900], hosts=[True, True, False, False, False]
    )
    rank = ranks(net)
    assert [rank[(2, 0)], rank[(2, 2)], rank[(1, 1)], rank[(4, 2)], rank[(3, 6)]] == [1, 4, 5, 2, 4]

    def proven(s: int, ins: set[int], *outs: Node) -> bool:
        return _ranked(net, {(s, frozenset(outs)): ins}, {})

    # From the top (4) down to leaf 1 (5) and back up to the top (2): the way up does not rise.
    assert not proven(2, {2}, (1, 1), (4, 2))
    assert proven(2, {2}, (1, 1))
    # From leaf 0 (1) and from the top (4), both up (2): the top's way in does not rise.
    assert not proven(2, {0, 2}, (4, 2))
    assert proven(2, {0}, (4, 2))
    # From the top (4) across to spine 3 (4): an equal rank is no rise.
    assert not proven(2, {2}, (3, 6))
    # A lossy way in or out bounds nothing.
    net.lossless = net.lossless - {(2, 2), (3, 6)}
    quick._last.clear()
    assert proven(2, {2}, (1, 1), (4, 2)) and proven(2, {0, 2}, (4, 2))
    assert proven(2, {0}, (3, 6))


def test_mixed_rank_ways_out_are_judged_by_the_lowest() -> None:
    # Leaf 0 reaches leaf 2 over spine 3 and directly over a leaf-to-leaf link (level 0 to 0):
    # one group at leaf 0 has a way out up (spine) and one across (lower rank than the ingress
    # from the spine). Taking the highest way out would prove a rank rise that does not hold.
    links = [(0, 3), (1, 3), (2, 3), (0, 2), (1, 2), (0, 1)]
    net = network(links, [65100, 65101, 65102, 65000], hosts=[True, True, True, False])
    groups = bicliques(net)
    assert groups is not None
    cyclic = _cyclic(brute._edges(net, set()), {})
    if _ranked(net, groups, {}):
        assert not cyclic
    assert acyclic(net, {}) == (not cyclic)


def _static_class(net: Network, d: int, statics: dict[int, Static]) -> None:
    """Switch ``d``'s /24 with ``statics`` (switch -> route) beside eBGP, as dests.py builds
    it: no longer a plain destination but a traffic class (a Flow) that those switches forward
    by the longest prefix, then the lowest preference (docs/deadlock.md, route selection)."""
    (prefix,) = net.originated[d]
    own = Cand(prefix.prefixlen, -1, group=d)
    at = {d: (Cand(prefix.prefixlen, 0),)}  # the originator delivers to its subnet
    for s, r in statics.items():
        net.statics[s].append(r)
        at[s] = (own, Cand(prefix.prefixlen, r.preference, static=r))
    net.originated[d] = []
    net.flows.append(Flow((prefix,), (own,), at, frozenset({d})))


def test_static_routes_leave_the_answer_to_the_full_engine() -> None:
    # Switches 0 and 2 (servers) and 1 in a triangle: links 0 (0-1), 1 (1-2), 2 (0-2).
    def triangle() -> Network:
        return network([(0, 1), (1, 2), (0, 2)], [65100, 65000, 65101], hosts=[True, False, True])

    net = triangle()
    assert net.simple and acyclic(net, {})
    prefix = IPv4Network("172.16.0.0/24")
    # A static at 1 sending switch 0's subnet via 2 (preference 60 beats eBGP's 255): no sender
    # reaches 1 for it, so no cycle, but the class is not plain and the shortcut must refuse.
    _static_class(net, 0, {1: Static(prefix, 2, 1, 60)})
    assert not net.simple and bicliques(net) is None
    assert acyclic(net, {}) is False  # "ask the full engine", not a missing answer
    assert brute.components(net, set()) == [] and analyse(net, [()]).baseline == []
    # Statics at 1 and 2 sending it to each other: 2's servers' traffic loops between them.
    net = triangle()
    _static_class(net, 0, {1: Static(prefix, 2, 1, 60), 2: Static(prefix, 1, 1, 60)})
    assert bicliques(net) is None and not acyclic(net, {})
    assert brute.components(net, set()) == [frozenset({(1, 1), (2, 1)})]
    assert len(analyse(net, [()]).baseline) == 1


def test_levels_and_ranks_on_three_levels() -> None:
    # 0, 1 leaves; 2 spine; 3 super-spine; 4 hangs below the super-spine only (level 2 by
    # distance). Up-going buffers rank by level, down-going above every up-going one.
    net = network(
        [(0, 2), (1, 2), (2, 3), (3, 4)],
        [65100, 65101, 65000, 64900, 64901],
        hosts=[True, True, False, False, False],
    )
    assert levels(net) == [0, 0, 1, 2, 3]
    rank = ranks(net)
    top = 2 * 3 + 1
    assert rank[(2, 0)] == 1  # spine, from leaf 0 below: up, its level
    assert rank[(0, 0)] == top - 0  # leaf 0, from the spine above: down
    assert rank[(3, 2)] == 2 and rank[(2, 2)] == top - 1
    assert rank[(4, 3)] == 3 and rank[(3, 3)] == top - 2


def test_an_isolated_switch_is_level_zero() -> None:
    net = network([(0, 1)], [65100, 65000, 65200], hosts=[True, False, False])
    assert levels(net) == [0, 1, 0]


def test_a_flooding_edge_that_goes_down_then_up_is_not_proven() -> None:
    net = network([(0, 2), (1, 2)], [65100, 65101, 65000], hosts=[True, True, False])
    groups = bicliques(net)
    assert groups is not None and _ranked(net, groups, {})
    down, up = (0, 0), (2, 1)  # leaf 0 from the spine (down) -> the spine from leaf 1 (up)
    assert not _ranked(net, groups, {down: {up}})
    assert not _ranked(net, groups, {up: {up}})  # equal rank: no rise
    assert _ranked(net, groups, {up: {down}})


def test_a_lossy_buffer_bounds_nothing() -> None:
    # Every ingress at the spine lossy: its groups have no way in that ranks, so they prove.
    net = network(
        [(0, 2), (1, 2)],
        [65100, 65101, 65000],
        hosts=[True, True, False],
        lossy=frozenset({(2, 0), (2, 1)}),
    )
    groups = bicliques(net)
    assert groups is not None and _ranked(net, groups, {})
    net2 = network(
        [(0, 2), (1, 2), (0, 1)],
        [65100, 65101, 65000],
        hosts=[True, True, False],
        lossy=frozenset({(0, 0), (1, 1)}),
    )
    groups2 = bicliques(net2)
    assert groups2 is not None
    assert acyclic(net2, {}) == (not _cyclic(brute._edges(net2, set()), {}))


def test_where_max_paths_cuts_the_valley_only_every_path_sees_the_cycle() -> None:
    # Leaves 0-3, spines 4 and 5 (each its own AS). Leaf 0 hangs off spine 4 only, leaf 2 off
    # spine 5 only: traffic between them bounces through leaves 1 and 3. Spine 5 takes one path
    # (max-paths 1: leaf 3, the lower router id) where spine 4 takes both, so the bounces do not
    # close a cycle; with every equal path they do. The healthy answer is the routes' own.
    net = network(
        [(0, 4), (1, 4), (1, 5), (2, 5), (3, 4), (3, 5)],
        [65100, 65101, 65102, 65103, 65001, 65002],
        hosts=[True, True, True, True, False, False],
        max_paths=[2, 1, 1, 1, 2, 1],
        router_id=[4, 6, 3, 5, 2, 1],
    )
    assert not _cyclic(brute._edges(net, set()), {})
    assert _cyclic(_edges(net, frozenset(), True), {})
    assert acyclic(net, {})
    assert not acyclic(net, {}, every_path=True)
    groups = bicliques(net)  # by default, the routes' own next hops
    assert groups is not None
    edges = {((s, lid), o) for (s, outs), ins in groups.items() for lid in ins for o in outs}
    assert edges & set(product(net.lossless, net.lossless)) == {
        (u, v) for u, vs in brute._edges(net, set()).items() for v in vs
    }


@pytest.mark.parametrize("every_path", [False, True])
def test_truncated_ecmp_is_recorded(every_path: bool) -> None:
    # Leaf 0 sees leaf 1 over three spines with max-paths 2: router ids choose.
    quick.TRUNCATED.discard(frozenset({6}))
    links = [(0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (0, 2)]
    net = network(
        links,
        [65100, 65101, 65001, 65002, 65003],
        hosts=[True, True, False, False, False],
        max_paths=[2, 2, 64, 64, 64],
    )
    bicliques(net, frozenset({6}), every_path)
    assert (frozenset({6}) in quick.TRUNCATED) is not every_path
