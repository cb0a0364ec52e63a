"""The state the deadlock engines share: a scenario's routes, traffic and reference-counted
buffer dependency edges, with the undo log that rolls a failure back (routing.py keeps the plain
destinations in it, forward.py the other traffic classes)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from roce_cfg.deadlock.network import Network

Node = tuple[int, int]  # (switch, ingress link): that switch's ingress buffer on that link
Edge = tuple[Node, Node]
Out = tuple[int, int]  # (next-hop switch, link)


@dataclass(frozen=True)
class Route:
    length: int  # AS hops to the origin; -1 at the origin itself
    asns: frozenset[int]  # ASNs on the advertised path, for loop prevention
    path: tuple[int, ...]  # the advertised path as switch ids, for reports
    nh: tuple[int, ...]  # next-hop switches (ECMP)
    truncated: bool = False  # more equal paths than max-paths: some were left out


class _Missing:
    pass


MISSING: Any = _Missing()


@dataclass
class State:
    net: Network
    failed: set[int] = field(default_factory=set)
    # (switch, neighbour) pairs with every link between them failed: the hottest question in
    # path selection is "still linked?", asked per neighbour offer.
    cut: set[tuple[int, int]] = field(default_factory=set)
    dead: dict[int, frozenset[Out]] = field(default_factory=dict)  # out-edges over failed links
    memo: dict[tuple[int, tuple[int, ...]], frozenset[Out]] = field(default_factory=dict)
    routes: dict[int, dict[int, Route]] = field(default_factory=dict)  # [dest][switch]
    outs: dict[int, dict[int, frozenset[Out]]] = field(default_factory=dict)  # [dest][switch]
    ins: dict[int, dict[int, set[int]]] = field(default_factory=dict)  # [dest][switch]
    # the same for the classes of net.flows (forward.py), by their index
    gouts: dict[int, dict[int, frozenset[Out]]] = field(default_factory=dict)
    gins: dict[int, dict[int, set[int]]] = field(default_factory=dict)
    loopy: dict[int, bool] = field(default_factory=dict)  # the class's forwarding may loop
    # during a failure: the switches whose route each BGP group moved (forward.py re-decides
    # the classes that follow it there)
    moved: dict[int, set[int]] | None = None
    edges: dict[Node, dict[Node, int]] = field(default_factory=dict)  # refcount per edge
    extra: list[Edge] = field(default_factory=list)  # edges not from BGP (statics, flooding)
    undo: list[tuple[Any, Any, Any]] | None = None
    added: list[Edge] = field(default_factory=list)
    # during a failure: each edge's count before it, for the edges the failure touched (one
    # that went and came back within the failure is no new edge)
    before: dict[Edge, int] = field(default_factory=dict)
    # Keep every equal path, max-paths aside: the bound the sweep uses where router ids
    # truncate (docs/deadlock.md, "Left out past max-paths").
    every_path: bool = False

    def put(self, container: dict[Any, Any], key: Any, value: Any) -> None:
        if self.undo is not None:
            self.undo.append((container, key, container.get(key, MISSING)))
        if value is MISSING:
            container.pop(key, None)
        else:
            container[key] = value

    def toggle(self, members: set[int], value: int, add: bool) -> None:
        if self.undo is not None:
            self.undo.append((members, value, add))
        if add:
            members.add(value)
        else:
            members.discard(value)

    def rollback(self) -> None:
        assert self.undo is not None
        while self.undo:
            container, key, old = self.undo.pop()
            if isinstance(container, set):
                if old:  # undo an add
                    container.discard(key)
                else:
                    container.add(key)
            elif old is MISSING:
                container.pop(key, None)
            else:
                container[key] = old
        self.undo = None

    def up_links(self, s: int, n: int) -> list[int]:
        links = self.net.adj[s].get(n, [])
        if not self.failed:
            return links
        return [lid for lid in links if lid not in self.failed]

    def alive(self, node: Node) -> bool:
        """A buffer on a failed link holds nothing (edges into or out of it are stale)."""
        return node[1] not in self.failed

    def linked(self, s: int, n: int) -> bool:
        return n in self.net.adj[s] and (s, n) not in self.cut

    def recut(self, link_ids: list[int]) -> None:
        """Keep ``cut`` (neighbour pairs whose every link is down) in step with ``failed``."""
        for lid in link_ids:
            ln = self.net.links[lid]
            if all(x in self.failed for x in self.net.adj[ln.a][ln.b]):
                self.cut.update(((ln.a, ln.b), (ln.b, ln.a)))
            else:
                self.cut.difference_update(((ln.a, ln.b), (ln.b, ln.a)))

    def active(self, d: int, x: int) -> bool:
        """x has traffic for d: its own servers send some, or a neighbour forwards some to it."""
        return self.net.hosts[x] or bool(self.ins[d].get(x))

    def count(self, u: Node, v: Node, delta: int) -> None:
        net = self.net
        lossless = net.lossless
        if u not in lossless or v not in lossless:
            return  # a lossy hop: the packet can be dropped, no dependency
        if not net.one_priority and net.prio[u] != net.prio[v]:
            return  # the far end pauses another priority than the one this packet is queued in
        outs = self.edges.get(u)
        if outs is None:
            outs = {}
            self.put(self.edges, u, outs)
        old = outs.get(v, 0)
        self.put(outs, v, old + delta if old + delta else MISSING)
        if self.undo is not None:
            self.before.setdefault((u, v), old)  # its count when the scenario began
        if old == 0 and delta > 0:
            self.added.append((u, v))


_NONE: frozenset[Out] = frozenset()


def outs_of(st: State, s: int, route: Route | None) -> frozenset[Out]:
    """The (next hop, link) pairs ``route`` sends over from ``s``, failed links left out."""
    if route is None or not route.nh:
        return _NONE
    key = (s, route.nh)
    hit = st.memo.get(key)
    if hit is None:
        pairs = st.net.pairs[s]
        if 2 * len(route.nh) > len(pairs):
            # Most neighbours are next hops (a leaf's spines): subtract the few that are not.
            missing = pairs.keys() - set(route.nh)
            hit = st.net.all_outs[s].difference(*[pairs[n] for n in missing])
        else:
            hit = frozenset().union(*[pairs[n] for n in route.nh])
        dead = st.dead.get(s)
        if dead:
            hit -= dead
        st.memo[key] = hit
    return hit
