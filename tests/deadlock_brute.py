"""An independent brute-force deadlock checker for the differential tests: the fabric less the
failed links, path selection per destination by plain rounds until nothing changes, every
dependency edge listed, strongly connected components by a plain search. It shares nothing
with roce_cfg.deadlock.routing (no incremental state, no shortcut, no symmetry) but the Network
it reads and the routing model docs/deadlock.md states."""

from __future__ import annotations

from roce_cfg.deadlock.net import Network

Node = tuple[int, int]
Route = tuple[int, frozenset[int], tuple[int, ...]]  # length, ASNs on the path, next hops


def _routes(net: Network, d: int, up: list[dict[int, list[int]]]) -> dict[int, Route]:
    own_asn = net.asn
    table: dict[int, Route] = {d: (0, frozenset({own_asn[d]}) - {None}, ())}  # type: ignore[arg-type]
    changed = True
    while changed:
        changed = False
        for s in range(len(net.names)):
            if s == d or own_asn[s] is None:
                continue
            offers = []
            for n in net.sessions[s]:
                r = table.get(n)
                if r is None or n not in up[s] or own_asn[n] == own_asn[s] or own_asn[s] in r[1]:
                    continue
                offers.append((r[0] + 1, net.router_id[n], n))
            new: Route | None = None
            if offers:
                best = min(o[0] for o in offers)
                nh = tuple(n for _, _, n in sorted(o for o in offers if o[0] == best))
                nh = nh[: net.max_paths[s]]
                via = table[nh[0]]
                new = (best, via[1] | {own_asn[s]}, nh)  # type: ignore[arg-type]
            if table.get(s) != new:
                changed = True
                if new is None:
                    del table[s]
                else:
                    table[s] = new
    return table


def _edges(net: Network, failed: set[int]) -> dict[Node, set[Node]]:
    up = [{n: [x for x in lids if x not in failed] for n, lids in nbrs.items()} for nbrs in net.adj]
    up = [{n: lids for n, lids in nbrs.items() if lids} for nbrs in up]
    edges: dict[Node, set[Node]] = {}
    for d, prefixes in enumerate(net.originated):
        if not prefixes or net.asn[d] is None:
            continue
        table = _routes(net, d, up)
        ins: dict[int, set[int]] = {}
        # Next hops are one hop nearer: farthest first sees every sender before its receiver.
        for s in sorted(table, key=lambda x: -table[x][0]):
            if not (net.hosts[s] or ins.get(s)):
                continue
            outs = [(n, lid) for n in table[s][2] for lid in up[s][n]]
            for y, lid in outs:
                ins.setdefault(y, set()).add(lid)
                for lin in ins.get(s, ()):
                    edges.setdefault((s, lin), set()).add((y, lid))
    ok, prio = net.lossless, net.prio
    # A pause holds back only the priority it names: an edge only within one priority.
    return {
        u: {v for v in vs if v in ok and prio[v] == prio[u]} for u, vs in edges.items() if u in ok
    }


def components(net: Network, failed: set[int]) -> list[frozenset[Node]]:
    """The buffer sets of the dependency cycles (components with a cycle) after ``failed``."""
    edges = _edges(net, failed)
    reach: dict[Node, set[Node]] = {}
    for u in edges:
        seen: set[Node] = set()
        todo = list(edges[u])
        while todo:
            v = todo.pop()
            if v not in seen:
                seen.add(v)
                todo.extend(edges.get(v, ()))
        reach[u] = seen
    comps = {
        frozenset(v for v in reach[u] if u in reach.get(v, ())) for u in edges if u in reach[u]
    }
    return sorted(comps, key=sorted)


def has_edge(net: Network, failed: set[int], u: Node, v: Node) -> bool:
    return v in _edges(net, failed).get(u, set())
