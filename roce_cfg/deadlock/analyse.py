"""Deadlock analysis: the buffer dependency graph per failure scenario and its cycles."""

from __future__ import annotations

import multiprocessing as mp
import random
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import partial
from itertools import combinations
from math import isqrt

from roce_cfg.deadlock import forward
from roce_cfg.deadlock.cycles import sccs, witness
from roce_cfg.deadlock.net import Network
from roce_cfg.deadlock.quick import acyclic
from roce_cfg.deadlock.routing import Edge, Node, State, baseline, fail, restore
from roce_cfg.heap import bulk_objects
from roce_cfg.parse.many import workers


@dataclass(frozen=True)
class Cycle:
    nodes: tuple[Node, ...]  # witness cycle, in order
    causes: tuple[str, ...]  # why each edge exists
    scenario: tuple[int, ...]  # failed links

    def key(self) -> frozenset[Node]:
        return frozenset(self.nodes)


@dataclass
class PairClass:
    """Pairs of link failures that are images of one another (deadlock/sweep.py)."""

    scenario: tuple[int, ...]  # the representative pair analysed
    pairs: int  # unordered pairs in the class
    cycles: list[Cycle]


@dataclass
class Report:
    net: Network
    scenarios: int = 0
    baseline: list[Cycle] = field(default_factory=list)
    # scenario (failed link ids) -> cycles it opens that the healthy fabric does not have
    opened: dict[tuple[int, ...], list[Cycle]] = field(default_factory=dict)
    # scenario -> indexes of the healthy fabric's cycles still closed after it (when it has any)
    survived: dict[tuple[int, ...], tuple[int, ...]] = field(default_factory=dict)
    # With the sweep by symmetry: every pair's class, and a line saying what was analysed
    classes: list[PairClass] = field(default_factory=list)
    symmetry: str = ""
    # Options the run could not use, and why (said on stderr, never dropped in silence)
    notes: list[str] = field(default_factory=list)

    def node_name(self, node: Node) -> str:
        s, lid = node
        far = self.net.links[lid].far(s)
        return f"{self.net.names[s]}[{self.net.names[far]}]"

    def chain(self, cycle: Cycle) -> str:
        names = [self.node_name(n) for n in cycle.nodes]
        return " -> ".join([*names, names[0]])

    def scenario_name(self, links: Iterable[int]) -> str:
        parts = [self.net.links[lid].name(self.net.names) for lid in links]
        return ", ".join(parts) if parts else "no failure"

    def always_closed(self) -> int:
        """How many healthy-fabric cycles survive every failure checked: a failure can break
        such a cycle as well as open new ones."""
        every = set(range(len(self.baseline)))
        for kept in self.survived.values():
            every &= set(kept)
        return len(every)

    def breaking(self) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
        """The failures that break some healthy-fabric cycle, each with the cycles it keeps."""
        whole = len(self.baseline)
        return [(sc, kept) for sc, kept in self.survived.items() if len(kept) < whole]


def _extra(st: State) -> dict[Node, set[Node]]:
    """Edges routing does not explain: flooding within VLANs."""
    net = st.net
    extra: dict[Node, set[Node]] = {}
    for s, vlans in enumerate(net.vlan_links):
        for links in vlans.values():
            up = [lid for lid in links if lid not in st.failed]
            for l_in in up:
                for l_out in up:
                    if l_in != l_out:
                        extra.setdefault((s, l_in), set()).add((net.links[l_out].far(s), l_out))
    prio = net.prio
    # Only within one lossless priority: a pause holds back only the priority it names.
    return {
        u: {v for v in vs if prio.get(v) is not None and prio.get(v) == prio[u]}
        for u, vs in extra.items()
        if prio.get(u) is not None
    }


def _cause(st: State, u: Node, v: Node, extra: dict[Node, set[Node]]) -> str:
    net = st.net
    x, lin = u
    w = net.links[lin].far(x)
    y = v[0]
    for vlan, links in net.vlan_links[x].items():
        if lin in links and v[1] in links:
            return f"flooding in VLAN {vlan} at {net.names[x]}"
    for d in sorted(st.outs):
        if v in st.outs[d].get(x, ()) and lin in st.ins[d].get(x, ()):
            prefixes = ", ".join(str(p) for p in net.originated[d])
            roles = [net.devices[i].role for i in (w, x, y)]
            kind = "valley route" if roles == ["spine", "leaf", "spine"] else "route"
            return f"{kind} to {net.names[d]} ({prefixes}) at {net.names[x]}"
    for i in sorted(st.gouts):
        if v in st.gouts[i].get(x, ()) and lin in st.gins[i].get(x, ()):
            return forward.explain(st, i, x, v)
    return "edge of unknown origin" if u not in extra else "flooding edge"


def _find(
    st: State,
    starts: Iterable[Node],
    scenario: tuple[int, ...],
    new: set[Edge],
    extra: dict[Node, set[Node]] | None = None,
    known: set[frozenset[Node]] | None = None,
) -> list[Cycle]:
    extra = _extra(st) if extra is None else extra

    def succ(n: Node) -> Iterator[Node]:
        for v in st.edges.get(n, {}):
            if st.alive(v):
                yield v
        yield from extra.get(n, ())

    cycles: list[Cycle] = []
    for comp in sccs(sorted(n for n in starts if st.alive(n)), succ):
        members = set(comp)
        inside = [(u, v) for u, v in sorted(new) if u in members and v in members]
        nodes = _through(members, inside, succ, known or set()) or witness(members, comp[0], succ)
        causes = tuple(
            _cause(st, nodes[i], nodes[(i + 1) % len(nodes)], extra) for i in range(len(nodes))
        )
        cycles.append(Cycle(tuple(nodes), causes, scenario))
    return cycles


def _only_to(u: Node, v: Node, succ: Callable[[Node], Iterable[Node]], n: Node) -> Iterable[Node]:
    """``succ`` with ``u``'s only way out ``v``: a BFS from ``u`` then finds a ring through the
    edge (u, v)."""
    return (v,) if n == u else succ(n)


TRIED = 8  # new edges of one component tried for a witness that is no healthy cycle


def _through(
    members: set[Node],
    inside: list[Edge],
    succ: Callable[[Node], Iterable[Node]],
    known: set[frozenset[Node]],
) -> list[Node] | None:
    """A shortest cycle through one of the failure's new edges, so the witness shows what the
    failure added: through an edge that reaches a buffer no healthy cycle holds where there is
    one (a ring through only the old buffers would be taken for the healthy cycle and the
    grown component reported as opening nothing)."""
    old: set[Node] = set().union(*known)
    first: list[Node] | None = None
    # edges reaching a new buffer first (stable: in order otherwise); a few tried for a ring
    # that is no healthy cycle's, each one BFS
    for u, v in sorted(inside, key=lambda e: e[0] in old and e[1] in old)[:TRIED]:
        nodes = witness(members, u, partial(_only_to, u, v, succ))
        if frozenset(nodes) not in known:
            return nodes
        first = first or nodes
    return first


PARALLEL_FROM = 256
_shared: tuple[State, list[Cycle], set[Edge]] | None = None


def _check(
    st: State,
    scenario: tuple[int, ...],
    known: set[frozenset[Node]],
    base_extra: set[Edge],
    base: list[Cycle] | None = None,
) -> tuple[list[Cycle], tuple[int, ...]]:
    """The cycles ``scenario`` opens, and which of the healthy fabric's (``base``) survive it."""
    fail(st, list(scenario))
    try:
        extra = _extra(st)

        def closed(c: Cycle) -> bool:
            ring = list(zip(c.nodes, (*c.nodes[1:], c.nodes[0]), strict=True))
            return all(
                st.alive(u) and st.alive(v) and (v in st.edges.get(u, {}) or v in extra.get(u, ()))
                for u, v in ring
            )

        survived = tuple(i for i, c in enumerate(base or ()) if closed(c))
        new = set(st.added) | ({(u, v) for u, vs in extra.items() for v in vs} - base_extra)
        new = {
            (u, v)
            for u, v in new
            if st.alive(u) and st.alive(v) and (v in st.edges.get(u, {}) or v in extra.get(u, ()))
        }
        if not new:
            return [], survived
        found = _find(st, {v for _, v in new}, scenario, new, extra, known)
        return [c for c in found if c.key() not in known], survived
    finally:
        restore(st, list(scenario))


def _work(
    chunk: list[tuple[int, ...]],
) -> list[tuple[tuple[int, ...], list[Cycle], tuple[int, ...]]]:
    assert _shared is not None
    st, base, base_extra = _shared
    known = {c.key() for c in base}
    out = []
    for scenario in chunk:
        found, survived = _check(st, scenario, known, base_extra, base)
        if found or base:
            out.append((scenario, found, survived))
    return out


@bulk_objects()
def analyse(
    net: Network,
    scenarios: Iterable[tuple[int, ...]],
    progress: Callable[[int, int], None] | None = None,
) -> Report:
    """Cycles of the healthy fabric, and for each failure scenario the cycles it opens.

    Many scenarios are split over worker processes forked after the baseline is built (the
    routing state is shared copy-on-write); each worker rolls its scenarios back one by one."""
    global _shared
    todo = [sc for sc in scenarios if sc]
    if not todo and acyclic(net, _extra(State(net))):
        return Report(net, scenarios=1)  # proven without the per-edge bookkeeping
    st = baseline(net)
    report = Report(net)
    report.baseline = _find(st, set(st.edges) | set(_extra(st)), (), set())
    base_extra = {(u, v) for u, vs in _extra(st).items() for v in vs}
    report.scenarios = len(todo) + 1
    n = workers()
    if n > 1 and len(todo) >= PARALLEL_FROM and "fork" in mp.get_all_start_methods():
        _shared = (st, report.baseline, base_extra)
        try:
            chunks = [todo[i :: n * 8] for i in range(n * 8)]
            with mp.get_context("fork").Pool(n) as pool:
                for i, part in enumerate(pool.imap(_work, chunks), 1):
                    for scenario, found, survived in part:
                        if found:
                            report.opened[scenario] = found
                        if report.baseline:
                            report.survived[scenario] = survived
                    if progress is not None:
                        progress(i, len(chunks))
        finally:
            _shared = None
        report.opened = dict(sorted(report.opened.items()))
        report.survived = dict(sorted(report.survived.items()))
        return report
    known = {c.key() for c in report.baseline}
    for i, scenario in enumerate(todo, 1):
        found, survived = _check(st, scenario, known, base_extra, report.baseline)
        if found:
            report.opened[scenario] = found
        if report.baseline:
            report.survived[scenario] = survived
        if progress is not None:
            progress(i, len(todo))
    return report


def single_failures(net: Network) -> list[tuple[int, ...]]:
    return [(lid,) for lid in range(len(net.links))]


def device_failures(net: Network, names: list[str]) -> tuple[int, ...]:
    ids = {net.index(n) for n in names}
    return tuple(ln.id for ln in net.links if ln.a in ids or ln.b in ids)


# Pairs checked at most: a sample this size estimates any share of the pair space to within a
# third of a percent, and takes minutes on a large fabric; more is a typo, not a wish.
MAX_SAMPLES = 100_000


def pair_failures(net: Network, samples: int, seed: int = 1) -> Iterator[tuple[int, ...]]:
    """Every pair of link failures, or a fixed-seed sample of ``samples`` of them, streamed:
    the pair space is never built (8,192 links have 33.5 million pairs, 65,536 links 2 billion).
    """
    n = len(net.links)
    total = n * (n - 1) // 2
    if total <= samples:
        yield from combinations(range(n), 2)
        return
    if samples > MAX_SAMPLES:
        raise ValueError(f"at most {MAX_SAMPLES:,} samples")
    for k in sorted(random.Random(seed).sample(range(total), samples)):
        yield unrank_pair(k, n)


def unrank_pair(k: int, n: int) -> tuple[int, int]:
    """The ``k``-th pair ``(a, b)``, ``a < b < n``, in the order ``combinations`` gives.

    >>> from itertools import combinations
    >>> [unrank_pair(k, 5) for k in range(10)] == list(combinations(range(5), 2))
    True
    """
    # pairs before row a: a*n - a*(a+1)/2; the largest a whose rows start at or before k
    rest = n * (n - 1) // 2 - 1 - k  # index from the end, where rows are triangular numbers
    row = (isqrt(8 * rest + 1) - 1) // 2  # rows from the end fully before this one
    a = n - 2 - row
    b = k - (a * n - a * (a + 1) // 2) + a + 1
    return a, b
