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
from itertools import filterfalse

from roce_cfg.deadlock import forward
from roce_cfg.deadlock.net import Network
from roce_cfg.deadlock.state import MISSING, Edge, Node, Out, Route, State, outs_of

# The state's names, as the engines and tests have long imported them from here.
__all__ = ["MISSING", "Edge", "Node", "Out", "Route", "State", "baseline", "converge"]
__all__ += ["destinations", "fail", "outs_of", "restore"]


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
