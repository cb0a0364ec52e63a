"""eBGP path selection per destination and the buffer dependency edges it implies, kept
incrementally so that a failed link only touches the destinations and switches it changes.

Routing model (what a "no cycle" answer covers): each switch that originates prefixes into BGP
is a group of routes; a switch's best routes are the shortest AS paths its eBGP neighbours
offer; a path holding the switch's own ASN is rejected (loop prevention, no allowas-in); ECMP
spans the equal-length best paths up to max-paths over every parallel link; a switch advertises
one best path (lowest neighbour router-id breaks ties). A plain destination (dests.py: a
switch's own subnets routed by its eBGP advertisement alone) is kept here, with its traffic:
servers send it, and a switch carries what its neighbours forward to it. Every other traffic
class is forward.py's, on the routes kept here.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import filterfalse
from typing import Any

from roce_cfg.deadlock.net import Network

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


def _evaluate(st: State, d: int, s: int) -> Route | None:
    net = st.net
    if s == d:
        return Route(-1, frozenset(), (s,), ())
    own = net.asn[s]
    table = st.routes[d]
    best = 1 << 30
    offers: list[tuple[int, int]] = []
    for n in net.sessions[s]:
        r = table.get(n)
        if r is None or own in r.asns or net.asn[n] == own or not st.linked(s, n):
            continue
        if r.length < best:
            best, offers = r.length, [(net.router_id[n], n)]
        elif r.length == best:
            offers.append((net.router_id[n], n))
    if not offers:
        return None
    offers.sort()
    limit = len(offers) if st.every_path else net.max_paths[s]
    nh = tuple(n for _, n in offers[:limit])
    return _route(st, d, s, best, nh, len(offers) > limit)


def _route(
    st: State, d: int, s: int, best: int, nh: tuple[int, ...], truncated: bool = False
) -> Route:
    via = st.routes[d][nh[0]]
    asn = st.net.asn[nh[0]]
    asns = via.asns | {asn} if asn is not None else via.asns
    return Route(best + 1, asns, (s, *via.path), nh, truncated)


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


def _sync(st: State, d: int, s: int, adding: bool) -> None:
    """Bring s's outgoing (next hop, link) set in line with its route and the link states,
    moving the edges and the downstream traffic that implies. Callers run every removal
    (``adding`` False) before any addition, so traffic that stops is not first re-routed."""
    route = st.routes[d].get(s)
    new = outs_of(st, s, route)
    table = st.outs[d]
    old = table.get(s, frozenset())
    change = new - old if adding else old - new
    if not change:
        return
    target = old | change if adding else old - change
    st.put(table, s, target if target else MISSING)
    if not st.active(d, s):
        return  # no traffic here: the routes matter only once some arrives
    delta = 1 if adding else -1
    my_ins = tuple(st.ins[d].get(s, ()))
    for y, lid in change:
        for lin in my_ins:
            st.count((s, lin), (y, lid), delta)
        _in(st, d, y, lid, delta)


def _in(st: State, d: int, y: int, lid: int, delta: int) -> None:
    """Traffic for d starts (+1) or stops (-1) arriving at y over link lid."""
    ins_d = st.ins[d]
    was = st.active(d, y)
    members = ins_d.get(y)
    if members is None:
        members = set()
        st.put(ins_d, y, members)
    st.toggle(members, lid, delta > 0)
    outs = st.outs[d].get(y, frozenset())
    for z, l2 in outs:
        st.count((y, lid), (z, l2), delta)
    if st.active(d, y) != was:
        for z, l2 in outs:
            _in(st, d, z, l2, delta)


def _offer(st: State, d: int, m: int, s: int) -> str:
    """How m must react to s's changed route: 'skip' (cannot matter), 'add' (one more equal
    next hop), 'drop' (one next hop fewer, others as good), 'head' (the next hop m advertises
    through changed its path) or 'full' (re-run path selection)."""
    table = st.routes[d]
    rm = table.get(m)
    if rm is None or m == d:
        return "full"
    rs = table.get(s)
    net = st.net
    valid = (
        rs is not None
        and net.asn[m] not in rs.asns
        and net.asn[s] != net.asn[m]
        and st.linked(m, s)
    )
    offer = rs.length + 1 if rs is not None and valid else 1 << 30
    if s in rm.nh:
        if offer == rm.length:
            return "head" if rm.nh[0] == s else "skip"
        if offer > rm.length and len(rm.nh) > 1 and not rm.truncated:
            return "drop"
        return "full"
    if offer > rm.length:
        return "skip"
    if offer == rm.length and len(rm.nh) < net.max_paths[m]:
        return "add"
    return "full"


def converge(
    st: State,
    d: int,
    start: list[int],
    quick: dict[int, Route | None] | None = None,
    edges: bool = True,
) -> None:
    """Path selection from ``start`` until stable (``quick`` gives routes already known);
    with ``edges`` False only the routes, not the traffic and dependency edges they imply.

    Switches are visited breadth-first from where the change is, and a neighbour offering one
    more equal-length path is added to the ECMP set without re-reading every neighbour."""
    table = st.routes[d]
    queue = deque(start)
    queued = set(start)
    full: set[int] = set(start) - set(quick or ())
    adds: dict[int, dict[int, str]] = {}
    touched: set[int] = set(start)
    while queue:
        s = queue.popleft()
        queued.discard(s)
        old = table.get(s)
        if quick and s in quick:
            new = quick.pop(s)
        elif s in full or old is None:
            new = _evaluate(st, d, s)
        else:
            changed, new = _revise(st, d, s, old, adds.pop(s, {}))
            if not changed:
                continue
        full.discard(s)
        adds.pop(s, None)
        if new == old:
            continue
        st.put(table, s, new if new is not None else MISSING)
        touched.add(s)
        same_offer = old is not None and new is not None
        if same_offer and (old.length, old.asns) == (new.length, new.asns):  # type: ignore[union-attr]
            continue  # neighbours see the same offer: nothing for them to re-decide
        for m in _tell(st, d, s, quick, full, adds):
            if m not in queued:
                queue.append(m)
                queued.add(m)
    if st.moved is not None:
        st.moved.setdefault(d, set()).update(touched)
    if not edges:
        return
    order = sorted(touched)
    for s in order:
        _sync(st, d, s, adding=False)
    for s in order:
        _sync(st, d, s, adding=True)


def _revise(
    st: State, d: int, s: int, old: Route, offers: dict[int, str]
) -> tuple[bool, Route | None]:
    """Switch ``s``'s route after some neighbours changed their offer: one path more or fewer
    in its ECMP set where that is all, else a full evaluation; (False, None) when nothing
    changes for it."""
    net = st.net
    kinds = {n: _offer(st, d, s, n) for n in offers}
    if "full" in kinds.values():
        return True, _evaluate(st, d, s)
    gone = {n for n, k in kinds.items() if k == "drop"}
    extra = [n for n, k in kinds.items() if k == "add"]
    if not gone and not extra and "head" not in kinds.values():
        return False, None
    members = [n for n in old.nh if n not in gone]
    if extra:
        members = sorted({*members, *extra}, key=lambda n: net.router_id[n])
    if not members or len(members) > net.max_paths[s]:
        return True, _evaluate(st, d, s)
    return True, _route(st, d, s, old.length - 1, tuple(members))


def _tell(
    st: State,
    d: int,
    s: int,
    quick: dict[int, Route | None] | None,
    full: set[int],
    adds: dict[int, dict[int, str]],
) -> Iterator[int]:
    """The BGP neighbours of ``s`` that must re-decide now that its offer changed, each noted
    as needing a full evaluation or one more (or fewer) path."""
    for m in st.net.sessions[s]:
        kind = _offer(st, d, m, s)
        if kind == "skip":
            continue
        if quick and m in quick:
            # m's shortcut assumed its next hops stay as they were; one just changed.
            del quick[m]
            kind = "full"
        if kind == "full":
            full.add(m)
        else:
            adds.setdefault(m, {})[s] = kind
        yield m


def destinations(net: Network) -> list[int]:
    """The plain destinations (a switch routing its own subnets by eBGP alone), by switch."""
    n = len(net.names)
    return [
        s for s, prefixes in enumerate(net.originated[:n]) if prefixes and net.asn[s] is not None
    ]


def baseline(net: Network) -> State:
    from roce_cfg.deadlock import forward  # the other classes, on the routes kept here

    st = State(net)
    for d in destinations(net):
        st.routes[d], st.outs[d], st.ins[d] = {}, {}, {}
        converge(st, d, [d])
    n = len(net.names)
    for g in sorted({g for f in net.flows for g in f.deps if g < n} - st.routes.keys()):
        if net.asn[g] is not None:
            st.routes[g] = {}
            converge(st, g, [g], edges=False)
    forward.start(st)
    st.added = []
    return st


def fail(st: State, link_ids: list[int]) -> None:
    """Fail links, keeping an undo log; ``st.added`` collects the edges that appear."""
    st.undo, st.added, st.moved, st.before = [], [], {}, {}
    st.memo = {}  # out-edge sets depend on the failed links
    ends: set[int] = set()
    for lid in link_ids:
        st.failed.add(lid)
        ln = st.net.links[lid]
        ends.update((ln.a, ln.b))
        for here, there in ((ln.a, ln.b), (ln.b, ln.a)):
            st.put(st.dead, here, st.dead.get(here, frozenset()) | {(there, lid)})
    st.recut(link_ids)
    order = sorted(ends)
    lost = {s: frozenset(n for n in st.net.adj[s] if not st.linked(s, n)) for s in order}
    for d, table in st.routes.items():
        if d >= len(st.net.names):
            continue  # a group forward.py keeps
        quick: dict[int, Route | None] = {}
        start: list[int] = []
        for s in order:
            r = table.get(s)
            if r is None or not ends.intersection(r.nh):
                continue  # s does not route d over a failed link
            start.append(s)
            gone = lost[s]
            keep = r.nh if gone.isdisjoint(r.nh) else tuple(filterfalse(gone.__contains__, r.nh))
            if keep and not r.truncated:
                # Losing one of several equal next hops: no new path, no rescan.
                quick[s] = r if keep == r.nh else _route(st, d, s, r.length - 1, keep, False)
        if not start:
            continue
        if len(quick) == len(start) and all(
            (n := quick[s]) is not None and (o := table[s]).length == n.length and o.asns == n.asns
            for s in start
        ):
            # The common case: a switch loses one of several equal paths and offers its
            # neighbours the same thing. The only edges that go are those through the failed
            # link's buffers, which the cycle search skips (State.alive), so no edge moves.
            for s in start:
                st.put(table, s, quick[s])
            st.moved.setdefault(d, set()).update(start)
            continue
        converge(st, d, start, quick, edges=d in st.outs)
    if st.net.flows or len(st.net.origins) > len(st.net.names):
        from roce_cfg.deadlock import forward

        forward.after_failure(st, ends)
    st.added = [e for e in st.added if not st.before.get(e)]


def restore(st: State, link_ids: list[int]) -> None:
    """Undo ``fail``: routes, edges and link states exactly as before."""
    st.rollback()
    for lid in link_ids:
        st.failed.discard(lid)
    st.recut(link_ids)
    st.added = []
    st.memo = {}
    st.moved = None
    st.before = {}
