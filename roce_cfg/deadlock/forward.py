"""Forwarding of the traffic classes that are not plain eBGP (net.Flow: statics, defaults,
subnets two switches hold): at every switch the longest prefix among its live routes, then the
lowest route preference; routes of one preference are all followed (ECMP, and inter-protocol
ECMP where the vendor has it; where no source says what a tie does, both are followed too and
the verdict says so). Every switch is taken to send some traffic of such a class: a static or a
default carries traffic from wherever it comes.

The edges are kept by the same reference counts and undo log as routing.py's, per switch: a
class's buffer dependencies at a switch are its ways in times its ways out, so a failure only
re-decides the switches at the failed links' ends and those whose BGP routes moved.

Also here: the BGP groups the incremental engine does not keep (a prefix several switches
originate, a default advertised to chosen peers), found by plain rounds in each scenario.
"""

from __future__ import annotations

from itertools import groupby

from roce_cfg.deadlock.net import Cand, Flow
from roce_cfg.deadlock.routing import MISSING, Out, Route, State, outs_of

_NONE: frozenset[Out] = frozenset()


def start(st: State) -> None:
    """The healthy routes of the groups past the switches, and every Flow's edges."""
    for g in range(len(st.net.names), len(st.net.origins)):
        st.routes[g] = rounds(st, g)
    everywhere = range(len(st.net.names))
    for i, flow in enumerate(st.net.flows):
        st.gouts[i], st.gins[i] = {}, {}
        sync(st, i, flow, everywhere)


def after_failure(st: State, ends: set[int]) -> None:
    """Bring the groups past the switches and every Flow in line with the failed links
    (``st.moved`` holds where the incremental engine moved routes)."""
    assert st.moved is not None
    for g in range(len(st.net.names), len(st.net.origins)):
        old, new = st.routes[g], rounds(st, g)
        moved = {s for s in old.keys() | new.keys() if old.get(s) != new.get(s)}
        if moved:
            st.put(st.routes, g, new)
            st.moved[g] = moved
    for i, flow in enumerate(st.net.flows):
        where = set(ends)
        for g in flow.deps:
            where |= st.moved.get(g, set())
        sync(st, i, flow, sorted(where))


def rounds(st: State, g: int) -> dict[int, Route]:
    """Path selection for group ``g`` by rounds until nothing changes: its originators offer
    the prefix to every session, a switch advertising a default to chosen peers offers it to
    those (and forwards by what it learns itself), others as routing.py's eBGP."""
    net = st.net
    table = {s: Route(-1, frozenset(), (s,), ()) for s in net.origins[g]}
    sent = net.adverts.get(g, {})
    others = [s for s in range(len(net.names)) if s not in table and net.asn[s] is not None]
    for _ in range(2 * len(net.names) + 2):  # a path grows one hop a round: a bound, not a hope
        changed = False
        for s in others:
            new = _best(st, g, s, table, sent)
            if table.get(s) != new:
                changed = True
                if new is None:
                    del table[s]
                else:
                    table[s] = new
        if not changed:
            break
    return table


def _best(
    st: State, g: int, s: int, table: dict[int, Route], sent: dict[int, frozenset[int]]
) -> Route | None:
    net = st.net
    own = net.asn[s]
    offers: list[tuple[int, int, Route]] = []
    for n in net.sessions[s]:
        r = Route(-1, frozenset(), (n,), ()) if s in sent.get(n, ()) else table.get(n)
        if r is None or own in r.asns or net.asn[n] == own or not st.linked(s, n):
            continue
        offers.append((r.length, net.router_id[n], r))
    if not offers:
        return None
    best = min(o[0] for o in offers)
    equal = sorted(((rid, r) for length, rid, r in offers if length == best), key=lambda o: o[0])
    limit = len(equal) if st.every_path else net.max_paths[s]
    via = equal[0][1]
    nh = tuple(r.path[0] for _, r in equal[:limit])
    asn = net.asn[nh[0]]
    asns = via.asns | {asn} if asn is not None else via.asns
    return Route(best + 1, asns, (s, *via.path), nh, len(equal) > limit)


def choose(st: State, flow: Flow, x: int) -> frozenset[Out]:
    """Where switch ``x`` sends the class: the live routes of the longest prefix, those of the
    lowest preference among them, all followed; nothing when it is delivered, leaves the fabric,
    is discarded or has no route."""
    return frozenset().union(*(outs for _, outs in _winners(st, flow, x)))


def _winners(st: State, flow: Flow, x: int) -> list[tuple[Cand, frozenset[Out]]]:
    net = st.net
    for _, level in groupby(flow.at.get(x, flow.bgp), key=lambda c: c.plen):
        live: list[tuple[int, Cand, frozenset[Out]]] = []
        for c in level:
            if c.local:
                return []  # delivered here
            r = c.static
            if r is not None:
                if r.via < 0:
                    live.append((r.preference, c, _NONE))  # leaves the fabric, or discarded
                elif r.link not in st.failed:
                    live.append((r.preference, c, frozenset({(r.via, r.link)})))
                continue
            route = st.routes[c.group].get(x)
            outs = outs_of(st, x, route)
            if outs:
                live.append((net.ebgp_pref[x], c, outs))
        if live:
            low = min(p for p, _, _ in live)
            return [(c, outs) for p, c, outs in live if p == low]
    return []


def sync(st: State, i: int, flow: Flow, where: range | list[int]) -> None:
    """Re-decide the class at the switches ``where``, moving its edges."""
    outs = st.gouts[i]
    for x in where:
        new = choose(st, flow, x)
        old = outs.get(x, _NONE)
        if new == old:
            continue
        st.put(outs, x, new if new else MISSING)
        for hop in old - new:
            _move(st, i, x, hop, -1)
        for hop in new - old:
            _move(st, i, x, hop, 1)


def _move(st: State, i: int, x: int, hop: Out, delta: int) -> None:
    """``x`` starts (+1) or stops (-1) sending the class over ``hop``: its ways in now wait on
    that buffer, and the far switch has one way in more (or fewer) for its own ways out."""
    outs, ins = st.gouts[i], st.gins[i]
    for lin in ins.get(x, ()):
        st.count((x, lin), hop, delta)
    y, lid = hop
    members = ins.get(y)
    if members is None:
        members = set()
        st.put(ins, y, members)
    st.toggle(members, lid, delta > 0)
    for out in outs.get(y, ()):
        st.count(hop, out, delta)


def explain(st: State, i: int, x: int, hop: Out) -> str:
    """Why switch ``x`` sends class ``i`` over ``hop`` (for the cause of a cycle's edge)."""
    net = st.net
    flow = net.flows[i]
    names = net.names
    label = flow.prefixes[0]
    winners = _winners(st, flow, x)
    both = len({c.static is None for c, _ in winners}) > 1
    for c, outs in winners:
        if hop not in outs:
            continue
        if c.static is not None:
            text = f"static route {c.static.prefix} at {names[x]} via {names[hop[0]]}"
        elif c.plen == 0:
            text = f"default route learned by eBGP at {names[x]}"
        else:
            text = f"eBGP route {label.supernet(new_prefix=c.plen)} at {names[x]}"
        if both:
            text += f" (as good as the {'eBGP' if c.static else 'static'} route: both followed)"
        return f"{text}, for {', '.join(str(p) for p in flow.prefixes)}"
    return f"forwarding of {label} at {names[x]}"
