"""Small fabrics that the fast proofs of deadlock/quick.py must get right and that the random
irregular fabrics of test_deadlock_quick_props.py seldom or never draw: a fabric where every
switch has servers (every buffer ranks 1), several lossless priorities (one of them 0), a
flooding cycle within one switch, a twin told apart by a session on its only live link, and a
sweep asking twice about one fabric. Each answer is checked against the brute force."""

from __future__ import annotations

import pytest

from roce_cfg.deadlock import quick
from roce_cfg.deadlock.net import Network
from roce_cfg.deadlock.quick import acyclic, bicliques, ranks, twin_classes
from roce_cfg.deadlock.routing import Node
from tests import deadlock_brute as brute
from tests.test_deadlock_quick_props import _biclique_edges, _cyclic, network

# Switch 0 hangs off switch 1 (link 0); switches 1..5 form a ring (links 1..5). Every switch
# has servers, so every switch is level 0 and every buffer ranks 1 (going "down": top - 0).
# Traffic two hops round the ring waits at the middle switch on the next link: the ring's
# buffers wait on each other all the way round, the classic ring deadlock.
RING = [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 1)]


def _ring(lossy: frozenset[Node] = frozenset()) -> Network:
    return network(RING, [65100 + s for s in range(6)], hosts=[True] * 6, lossy=lossy)


def _prioritised(net: Network, prio: dict[Node, int]) -> Network:
    """``net`` with the lossless ends in ``prio`` moved to another priority, as net.py's build
    leaves it (lossless set, one_priority)."""
    net.prio.update(prio)
    net.lossless = frozenset(e for e, p in net.prio.items() if p is not None)
    net.one_priority = len({p for p in net.prio.values() if p is not None}) <= 1
    return net


def _answer_is_the_brute_forces(net: Network, extra: dict[Node, set[Node]]) -> bool:
    cyclic = _cyclic(brute._edges(net, set()), extra)
    quick._last.clear()
    assert acyclic(net, extra) is (not cyclic)
    return cyclic


def test_where_every_switch_has_servers_every_buffer_ranks_one_and_the_ring_is_found() -> None:
    # The pendant's end of link 0 lossy: the group sending to switch 0 has no lossless way out,
    # and ring groups come after it (every ring group is on the cycle): the search must go on
    # past it.
    net = _ring(lossy=frozenset({(0, 0)}))
    assert set(ranks(net).values()) == {1}  # a rank of 1 is a real buffer, not "lossy"
    assert _answer_is_the_brute_forces(net, {})
    groups = bicliques(net)
    assert groups is not None
    order = list(groups)
    assert order.index((1, frozenset({(0, 0)}))) < len(order) - 1


@pytest.mark.parametrize("ring_priority", [0, 3])
def test_a_cycle_in_one_of_several_priorities_is_found(ring_priority: int) -> None:
    # The pendant link in priority 4, the ring in priority 0 or 3: the ring's cycle is in one
    # priority (a hub per priority must keep it, priority 0 too), and no edge joins the two.
    net = _ring()
    pendant = {(0, 0): 4, (1, 0): 4}
    ring = {e: ring_priority for e in net.lossless if e not in pendant}
    net = _prioritised(net, {**ring, **pendant})
    assert not net.one_priority
    assert _answer_is_the_brute_forces(net, {})


def test_a_ring_whose_links_alternate_priorities_has_no_cycle() -> None:
    # Link 1 in priority 4 breaks the ring in priority 3: a buffer waits only on its own.
    net = _prioritised(_ring(), {(1, 1): 4, (2, 1): 4})
    assert not _answer_is_the_brute_forces(net, {})


def test_a_flooding_cycle_within_switch_zero_is_found() -> None:
    # Two switches with servers over two parallel links: no transit traffic, so no routed edge;
    # a VLAN flooding between switch 0's two ports is the only cycle, and it is all switch 0's.
    net = network([(0, 1), (0, 1)], [65100, 65101], hosts=[True, True])
    assert _biclique_edges(net, frozenset(), False) == set()
    assert _answer_is_the_brute_forces(net, {(0, 0): {(0, 1)}, (0, 1): {(0, 0)}})


def test_a_session_on_the_only_live_link_tells_twins_apart() -> None:
    # Leaves 0 and 1 hang off spine 2 alone; leaf 1 has no session with it, so nothing reaches
    # leaf 1: its routes are not leaf 0's relabelled.
    net = network(
        [(0, 2), (1, 2)],
        [65100, 65101, 65000],
        hosts=[True, True, False],
        no_session=frozenset({1}),
    )
    assert sorted(twin_classes(net)) == [[0], [1]]
    edges = brute._edges(net, set())
    assert _biclique_edges(net, frozenset(), False) == {
        (u, v) for u, vs in edges.items() for v in vs
    }


def test_twins_are_judged_by_their_sessions_over_the_links_still_up() -> None:
    # Leaves 0 and 1 on spines 2 and 3; leaf 1 has no session with spine 3. With both links to
    # spine 3 failed the two leaves are alike again, and twins.
    links = [(0, 2), (1, 2), (0, 3), (1, 3)]
    asn: list[int | None] = [65100, 65101, 65001, 65002]
    net = network(links, asn, hosts=[True, True, False, False], no_session=frozenset({3}))
    assert sorted(twin_classes(net)) == [[0], [1]]
    assert [0, 1] in twin_classes(net, frozenset({2, 3}))


def test_a_sweep_ranks_a_fabric_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[Network] = []
    original = quick.ranks

    def counted(net: Network) -> dict[Node, int]:
        calls.append(net)
        return original(net)

    monkeypatch.setattr(quick, "ranks", counted)
    quick._last.clear()
    net, other = _ring(), _ring()
    for failed in (frozenset(), frozenset({1}), frozenset({1, 2})):
        acyclic(net, {}, failed)
    assert calls == [net]
    acyclic(other, {})
    acyclic(other, {}, frozenset({3}))
    assert calls == [net, other]
