"""An independent brute-force deadlock checker for the differential tests: the fabric less the
failed links, path selection per BGP group by plain rounds until nothing changes, forwarding of
every traffic class decided afresh at every switch, every dependency edge listed, strongly
connected components by a plain search. It shares nothing with roce_cfg.deadlock.routing or
forward (no incremental state, no shortcut, no symmetry) but the Network it reads (its traffic
classes and the routes each switch holds for them) and the routing model docs/deadlock.md
states."""

from __future__ import annotations

from roce_cfg.deadlock.net import Flow, Network

Node = tuple[int, int]
Route = tuple[int, frozenset[int], tuple[int, ...]]  # length, ASNs on the path, next hops
Up = list[dict[int, list[int]]]


def _routes(net: Network, g: int, up: Up) -> dict[int, Route]:
    """Group ``g``'s routes: its originators hold it; one advertising a default to chosen
    peers offers it to them, and otherwise routes as any other switch."""
    own_asn = net.asn
    origins = net.origins[g] if g < len(net.origins) else ()
    sent = net.adverts.get(g, {})
    table: dict[int, Route] = {o: (0, frozenset({own_asn[o]}) - {None}, ()) for o in origins}  # type: ignore[misc]
    changed = True
    while changed:
        changed = False
        for s in range(len(net.names)):
            if s in origins or own_asn[s] is None:
                continue
            offers = []
            for n in net.sessions[s]:
                r = (0, frozenset({own_asn[n]}), ()) if s in sent.get(n, ()) else table.get(n)
                if r is None or n not in up[s] or own_asn[n] == own_asn[s] or own_asn[s] in r[1]:
                    continue
                offers.append((r[0] + 1, net.router_id[n], n, r))
            new: Route | None = None
            if offers:
                best = min(o[0] for o in offers)
                equal = sorted((o for o in offers if o[0] == best), key=lambda o: (o[1], o[2]))
                nh = tuple(o[2] for o in equal)[: net.max_paths[s]]
                new = (best, equal[0][3][1] | {own_asn[s]}, nh)  # type: ignore[operator]
            if table.get(s) != new:
                changed = True
                if new is None:
                    del table[s]
                else:
                    table[s] = new
    return table


def _plain(net: Network, up: Up, edges: dict[Node, set[Node]]) -> None:
    """Plain destinations: servers send, a switch forwards what reaches it by eBGP."""
    for d, prefixes in enumerate(net.originated[: len(net.names)]):
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


def _decide(
    net: Network, flow: Flow, x: int, tables: dict[int, dict[int, Route]], up: Up
) -> set[Node]:
    """Switch ``x``'s hops for the class: among its live routes the longest, then the lowest
    preference, all of those followed."""
    routes = flow.at.get(x, flow.bgp)
    for plen in sorted({c.plen for c in routes}, reverse=True):
        live: list[tuple[int, set[Node]]] = []
        for c in (c for c in routes if c.plen == plen):
            if c.static is None and c.group < 0:
                return set()  # a subnet of x: delivered
            if c.static is not None:
                r = c.static
                if r.via < 0:
                    live.append((r.preference, set()))
                elif r.link in up[x].get(r.via, ()):
                    live.append((r.preference, {(r.via, r.link)}))
                continue
            route = tables[c.group].get(x)
            hops = {(n, lid) for n in (route[2] if route else ()) for lid in up[x].get(n, ())}
            if hops:
                live.append((net.ebgp_pref[x], hops))
        if live:
            low = min(p for p, _ in live)
            return set().union(*(h for p, h in live if p == low))
    return set()


def _flows(net: Network, up: Up, edges: dict[Node, set[Node]]) -> None:
    """The other classes: traffic starts at the senders, each switch forwards by its own routes;
    a switch carries the class when a sender reaches it."""
    groups = {g for f in net.flows for g in f.deps}
    tables = {g: _routes(net, g, up) for g in groups}
    for flow in net.flows:
        hops = {x: _decide(net, flow, x, tables, up) for x in range(len(net.names))}
        reached = {x for x, sends in enumerate(net.senders) if sends}
        todo = list(reached)
        while todo:
            for y, _ in hops[todo.pop()]:
                if y not in reached:
                    reached.add(y)
                    todo.append(y)
        for x in reached:
            for y, lid in hops[x]:
                for out in hops[y]:
                    edges.setdefault((y, lid), set()).add(out)


def _edges(net: Network, failed: set[int]) -> dict[Node, set[Node]]:
    up = [{n: [x for x in lids if x not in failed] for n, lids in nbrs.items()} for nbrs in net.adj]
    up = [{n: lids for n, lids in nbrs.items() if lids} for nbrs in up]
    edges: dict[Node, set[Node]] = {}
    _plain(net, up, edges)
    _flows(net, up, edges)
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
