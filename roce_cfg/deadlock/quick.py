"""A fast proof that a healthy fabric has no PFC deadlock cycle, for thousands of switches.

The full engine (``routing.State``) keeps a reference count on every buffer dependency edge for
every destination, so that failures can be applied and rolled back. Without failures that is
wasted work: on 1,280 switches and 65,536 links it is about a billion edge updates. Two exact
reductions make the healthy question cheap:

1. **Twin destinations route alike.** Destinations with the same neighbours over the same
   number of links with the same lossless ports, the same max-paths and hosts, each with an
   ASN no other switch has, are images of each other under swapping the two (and their links).
   Routes are computed for one of them; the others' traffic is the first one's, relabelled.
   Router ids cannot break the symmetry: every switch next to one twin is next to all of them
   and has a direct route to it, shorter than any through another twin, so no switch ever
   weighs two twins against each other as next hops.
2. **Edges are kept as bicliques.** At a switch, traffic for a destination arriving on any of
   the links in ``ins`` leaves on every (next hop, link) in ``outs``: ``ins x outs`` edges. All
   destinations with the same ``outs`` at a switch share one virtual node that every ``ins``
   link points to and that points to every ``outs`` hop. A path ``u -> virtual -> v`` exists
   exactly when the full engine has the edge ``u -> v``, so the cycles are the same.

3. **A rank proves most answers without a search.** Ranking each buffer by its switch's level,
   up-going buffers below down-going ones, up*/down* routing only ever waits on a higher rank,
   so where the rank rises along every biclique there is no cycle (a check of each group's
   highest way in against its lowest way out, no graph built). Only where it does not rise
   (valley routes, links within one level, flooding) is the compressed graph searched.

If the compressed graph has any cycle, or some traffic class is not plain eBGP to one switch
(a static route, a default, a subnet two switches hold: not symmetric per destination), the
answer is "ask the full engine", which also explains the cycle hop by hop.
"""

from __future__ import annotations

from collections import Counter, deque
from itertools import repeat

from roce_cfg.deadlock.cycles import sccs
from roce_cfg.deadlock.net import Network
from roce_cfg.deadlock.routing import Node, Out, State, converge, destinations, outs_of

Flows = dict[int, tuple[set[int], frozenset[Out]]]  # switch -> (ingress links, out hops)


def _up(net: Network, s: int, failed: frozenset[int]) -> list[tuple[int, list[int]]]:
    """``s``'s neighbours over links still up, with those links."""
    out = [
        (n, [lid for lid in lids if lid not in failed]) for n, lids in sorted(net.adj[s].items())
    ]
    return [(n, lids) for n, lids in out if lids]


def _signature(
    net: Network, d: int, asn_count: Counter[int | None], failed: frozenset[int]
) -> object | None:
    asn = net.asn[d]
    if asn is None or asn_count[asn] != 1:
        return None
    prio = net.prio  # a lossless end's priority (None: lossy), which a swap must keep
    up = _up(net, d, failed)
    return (
        tuple((n, tuple((prio[(d, lid)], prio[(n, lid)]) for lid in lids)) for n, lids in up),
        frozenset(net.sessions[d].intersection([m for m, _ in up])),
        net.max_paths[d],
        net.hosts[d],
    )


def twin_classes(net: Network, failed: frozenset[int] = frozenset()) -> list[list[int]]:
    """Destinations grouped by twin signature (a destination without one is alone), in the
    fabric less the ``failed`` links."""
    asn_count = Counter(net.asn)
    classes: dict[object, list[int]] = {}
    alone: list[list[int]] = []
    for d in destinations(net):
        sig = _signature(net, d, asn_count, failed)
        if sig is None:
            alone.append([d])
        else:
            classes.setdefault(sig, []).append(d)
    return [*classes.values(), *alone]


def _flows(st: State, d: int) -> Flows:
    """Where traffic for ``d`` arrives at each switch and where it goes next.

    Next hops are one AS hop nearer the origin, so visiting switches farthest first sees every
    sender of a switch before the switch itself."""
    net = st.net
    table = st.routes[d]
    arriving: dict[int, set[int]] = {}
    flows: Flows = {}
    for s in sorted(table, key=lambda x: -table[x].length):
        ins = arriving.get(s)
        if not (net.hosts[s] or ins):
            continue  # no traffic for d here
        outs = outs_of(st, s, table[s])
        if ins and outs:
            flows[s] = (ins, outs)
        for y, lid in outs:
            arriving.setdefault(y, set()).add(lid)
    return flows


def _swap_maps(
    net: Network, a: int, b: int, failed: frozenset[int]
) -> tuple[dict[int, int], dict[tuple[int, int], tuple[int, int]]]:
    """Link ids and (switch, link) hops exchanged by swapping twins ``a`` and ``b``."""
    links: dict[int, int] = {}
    for (_, la), (_, lb) in zip(_up(net, a, failed), _up(net, b, failed), strict=True):
        for x, y in zip(la, lb, strict=True):
            links[x], links[y] = y, x
    swap = {a: b, b: a}
    hops = {}
    for x, y in links.items():
        ln = net.links[x]
        for end in (ln.a, ln.b):
            hops[(end, x)] = (swap.get(end, end), y)
    return links, hops


# Damaged fabrics (failed links) whose routing left equal paths out past max-paths: there the
# router ids decided, which the symmetry of the failure sweep does not keep.
TRUNCATED: set[frozenset[int]] = set()
Bicliques = dict[tuple[int, frozenset[Out]], set[int]]  # (switch, out hops) -> ingress links


def acyclic(
    net: Network,
    extra: dict[Node, set[Node]],
    failed: frozenset[int] = frozenset(),
    every_path: bool = False,
) -> bool:
    """True when the fabric (less the ``failed`` links) provably has no buffer dependency
    cycle; False means the full engine must look (a cycle may exist, or the shortcut does not
    apply). ``extra`` are the edges routing does not explain (VLAN flooding). With
    ``every_path`` no equal path is left out past max-paths: routes carry a superset of the
    edges, so True holds for every choice router ids could make."""
    groups = bicliques(net, failed, every_path)
    if groups is None:
        return False
    return _ranked(net, groups, extra) or not _has_cycle(net, groups, extra)


def bicliques(
    net: Network, failed: frozenset[int] = frozenset(), every_path: bool = False
) -> Bicliques | None:
    """The routed dependency edges of the fabric less the ``failed`` links as bicliques, or
    None where some traffic class is not plain eBGP (net.simple). Twins are judged on the links
    still up: swapping two switches with the same live neighbourhood is a symmetry of the
    damaged fabric too."""
    if not net.simple:
        return None
    st = State(net, every_path=every_path)
    if failed:
        st.failed = set(failed)
        for lid in failed:
            ln = net.links[lid]
            for here, there in ((ln.a, ln.b), (ln.b, ln.a)):
                st.dead[here] = st.dead.get(here, frozenset()) | {(there, lid)}
        st.recut(sorted(failed))
    groups: Bicliques = {}

    def add(s: int, ins: set[int], outs: frozenset[Out]) -> None:
        groups.setdefault((s, outs), set()).update(ins)

    for cls in twin_classes(net, failed):
        rep = cls[0]
        st.routes[rep] = {}
        converge(st, rep, [rep], edges=False)
        if any(r is not None and r.truncated for r in st.routes[rep].values()):
            TRUNCATED.add(frozenset(failed))  # router ids chose among equal paths (sweep.py)
        flows = _flows(st, rep)
        del st.routes[rep]
        near = set(cls).union(*(net.adj[m] for m in cls))
        for s, (ins, outs) in flows.items():
            if s not in near:
                add(s, ins, outs)  # the same for every twin: no twin or twin link here
        for d in cls:
            if d == rep:
                for s in near & flows.keys():
                    add(s, *flows[s])
                continue
            links, hops = _swap_maps(net, rep, d, failed)
            for s in near:
                f = flows.get(rep if s == d else d if s == rep else s)
                if f is None:
                    continue
                ins, outs = f
                moved = ins & links.keys()
                if moved:
                    ins = (ins - moved) | {links[x] for x in moved}
                turned = outs & hops.keys()
                if turned:
                    outs = (outs - turned) | {hops[x] for x in turned}
                add(s, ins, outs)
    return groups


def levels(net: Network) -> list[int]:
    """Each switch's hop distance from the nearest switch with servers (a Clos: leaf 0, spine
    1, super-spine 2); switches no such switch reaches are level 0."""
    level = [0 if h else -1 for h in net.hosts]
    todo = deque(s for s, h in enumerate(net.hosts) if h)
    while todo:
        s = todo.popleft()
        for n in net.adj[s]:
            if level[n] < 0:
                level[n] = level[s] + 1
                todo.append(n)
    return [max(x, 0) for x in level]


def ranks(net: Network) -> dict[Node, int]:
    """The rank of each lossless buffer (switch, ingress link).

    A buffer filled from below (the packet is going up) ranks by its switch's level; one
    filled from the same level or above (going down) ranks above every up-going buffer, the
    lower the switch the higher. Up*/down* routing only ever waits on a higher rank."""
    level = levels(net)
    top = 2 * max(level, default=0) + 1
    out: dict[Node, int] = {}
    for ln in net.links:
        for s in (ln.a, ln.b):
            if (s, ln.id) in net.lossless:
                up = level[ln.far(s)] < level[s]
                out[(s, ln.id)] = level[s] if up else top - level[s]
    return out


# A switch's lossless ingress links grouped by rank, highest first: a switch has few ranks (a
# Clos: one for up-going buffers, one for down-going), so the highest rank among a group's
# ways in is the first tier they meet, found by a few set probes instead of one per way in.
Tiers = list[tuple[int, frozenset[int]]]
# The last fabric's ranks, as a dict and as each switch's tiers: ranks do not depend on which
# links failed, and a sweep asks once per scenario.
_last: list[tuple[Network, dict[Node, int], list[Tiers]]] = []


def _ranks_of(net: Network) -> tuple[dict[Node, int], list[Tiers]]:
    if not _last or _last[0][0] is not net:
        rank = ranks(net)
        by_rank: list[dict[int, set[int]]] = [{} for _ in net.names]
        for (s, lid), r in rank.items():
            by_rank[s].setdefault(r, set()).add(lid)
        tiers = [[(r, frozenset(by[r])) for r in sorted(by, reverse=True)] for by in by_rank]
        _last[:] = [(net, rank, tiers)]
    return _last[0][1], _last[0][2]


def _ranked(net: Network, groups: Bicliques, extra: dict[Node, set[Node]]) -> bool:
    """True when the rank of ``ranks`` rises along every dependency edge: then there is no
    cycle and no graph search is needed. False proves nothing (a valley route, a link between
    switches of one level, a VLAN flooding back up: the search decides)."""
    rank, tiers = _ranks_of(net)
    lossy_in, lossy_out = -1, 1 << 30  # a lossy buffer is no node: it bounds nothing
    for (s, outs), ins in groups.items():
        # Max over the ways in (the highest tier they meet), min over the ways out (a C-level
        # map): the groups are many, their ways in a hundred or more at xl.
        here = next((r for r, lids in tiers[s] if not lids.isdisjoint(ins)), lossy_in)
        if (
            here > lossy_in
            and min(map(rank.get, outs, repeat(lossy_out)), default=lossy_out) <= here
        ):
            return False
    return all(
        rank.get(u, lossy_out) < rank.get(v, lossy_in) for u, vs in extra.items() for v in vs
    )


def _has_cycle(
    net: Network,
    groups: Bicliques,
    extra: dict[Node, set[Node]],
) -> bool:
    lossless = net.lossless
    # Each switch's lossless ingress links: the sources of a group are one set intersection.
    lossless_in: dict[int, set[int]] = {}
    for s, lid in lossless:
        lossless_in.setdefault(s, set()).add(lid)
    succ: dict[Node, list[Node]] = {}
    for k, ((s, outs), ins) in enumerate(groups.items()):
        targets = [o for o in outs if o in lossless]
        if not targets:
            continue
        sources = [(s, lid) for lid in ins & lossless_in.get(s, set())]
        # One virtual node per priority (negative ids never name a switch): a pause holds back
        # only the priority it names, so a buffer waits only on buffers of its own priority.
        for u in sources:
            hub = (-1 - k, 0 if net.one_priority else net.prio[u] or 0)
            if hub not in succ:
                succ[hub] = [o for o in targets if net.one_priority or net.prio[o] == hub[1]]
            succ.setdefault(u, []).append(hub)
    for u, vs in extra.items():
        succ.setdefault(u, []).extend(vs)
    return bool(sccs([n for n in succ if n[0] >= 0], lambda n: succ.get(n, ())))
