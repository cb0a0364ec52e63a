"""Strongly connected components and witness cycles (deadlock/cycles.py) against a plain
reachability search on random directed graphs: self-loops, unreachable parts, many roots."""

from __future__ import annotations

from collections import deque

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from roce_cfg.deadlock.cycles import sccs, witness
from tests.helpers import examples

Graph = dict[int, list[int]]

graphs = st.integers(1, 9).flatmap(
    lambda n: st.dictionaries(
        st.integers(0, n - 1), st.lists(st.integers(0, n - 1), max_size=4), max_size=n
    )
)


def _reach(g: Graph, u: int) -> set[int]:
    seen: set[int] = set()
    todo = list(g.get(u, ()))
    while todo:
        v = todo.pop()
        if v not in seen:
            seen.add(v)
            todo.extend(g.get(v, ()))
    return seen


def _cyclic_components(g: Graph, starts: list[int]) -> list[list[int]]:
    """The components with a cycle that ``starts`` reach, by mutual reachability."""
    reachable = set(starts).union(*(_reach(g, s) for s in starts))
    comps = {
        frozenset(v for v in reachable if v in _reach(g, u) and u in _reach(g, v)) | {u}
        for u in reachable
        if u in _reach(g, u)
    }
    return sorted(sorted(c) for c in comps)


def _shortest_cycle(g: Graph, comp: set[int], start: int) -> int:
    dist = {start: 0}
    todo = deque([start])
    while todo:
        u = todo.popleft()
        for v in g.get(u, ()):
            if v == start:
                return dist[u] + 1
            if v in comp and v not in dist:
                dist[v] = dist[u] + 1
                todo.append(v)
    raise AssertionError("no cycle")


@settings(max_examples=examples(300), deadline=None)
@given(graphs, st.lists(st.integers(0, 8), min_size=1, max_size=3))
def test_components_are_those_of_mutual_reachability(g: Graph, starts: list[int]) -> None:
    got = sccs(starts, lambda n: g.get(n, ()))
    assert sorted(got) == _cyclic_components(g, starts)
    assert all(c == sorted(c, key=repr) for c in got)


@settings(max_examples=examples(300), deadline=None)
@given(graphs)
def test_a_witness_is_a_shortest_cycle_through_its_start(g: Graph) -> None:
    for comp in sccs(list(g), lambda n: g.get(n, ())):
        for start in comp:
            ring = witness(set(comp), start, lambda n: g.get(n, ()))
            assert ring[0] == start and len(set(ring)) == len(ring)
            assert all(b in g[a] for a, b in zip(ring, [*ring[1:], start], strict=True))
            assert len(ring) == _shortest_cycle(g, set(comp), start)


def test_a_self_loop_is_a_cycle_and_a_lone_node_is_not() -> None:
    g = {1: [1], 2: [], 3: [4], 4: []}
    assert sccs([1, 2, 3], lambda n: g[n]) == [[1]]
    assert witness({1}, 1, lambda n: g[n]) == [1]


def test_a_root_already_visited_is_not_searched_again() -> None:
    g = {1: [2], 2: [1], 3: [1]}
    assert sccs([1, 2, 3, 1], lambda n: g[n]) == [[1, 2]]


def test_two_cycles_through_one_node_are_one_component() -> None:
    g = {1: [2, 3], 2: [1], 3: [4], 4: [1], 5: [1]}
    assert sccs([5], lambda n: g[n]) == [[1, 2, 3, 4]]
    assert witness({1, 2, 3, 4}, 3, lambda n: g[n]) == [3, 4, 1]


def test_a_start_off_every_cycle_is_refused() -> None:
    g = {1: [2], 2: [3], 3: [2]}
    with pytest.raises(ValueError, match="not on a cycle"):
        witness({1, 2, 3}, 1, lambda n: g[n])


def test_the_witness_stays_inside_its_component() -> None:
    # 1 -> 2 -> 1 is the short way back, but 2 is outside the component given
    g = {1: [2, 3], 2: [1], 3: [4], 4: [1]}
    assert witness({1, 3, 4}, 1, lambda n: g[n]) == [1, 3, 4]
