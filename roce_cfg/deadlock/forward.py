"""Forwarding of the traffic classes that are not plain eBGP (net.Flow: statics, defaults,
subnets two switches hold): at every switch the longest prefix among its live routes, then the
lowest route preference; routes of one preference are all followed (ECMP, and inter-protocol
ECMP where the vendor has it; where no source says what a tie does, both are followed too and
the verdict says so). Its traffic starts at the switches with RoCE hosts (at every switch where
the configs show none) and goes where each switch's routes send it.

The edges are kept by the same reference counts and undo log as routing.py's (state.py), per
switch: a class's buffer dependencies at a switch are its ways in times its ways out, so a
failure only re-decides the switches at the failed links' ends and those whose BGP routes moved.
Traffic that stops arriving stops what it fed, as in routing.py; only where forwarding may loop
(a static or default pointing back) is the class rebuilt from its senders, so that a loop cut
off from them carries nothing.

Also here: the BGP groups the incremental engine does not keep (a prefix several switches
originate, a default advertised to chosen peers), found by plain rounds in each scenario.
"""

from __future__ import annotations

from itertools import groupby

from roce_cfg.deadlock.network import Cand, Flow
from roce_cfg.deadlock.state import MISSING, Out, Route, State, outs_of

_NONE: frozenset[Out] = frozenset()


def start(st: State) -> None:
    """The healthy routes of the groups past the switches, and every Flow's edges."""
    for g in range(len(st.net.names), len(st.net.origins)):
        st.routes[g] = rounds(st, g)
    for i, flow in enumerate(st.net.flows):
        outs: dict[int, frozenset[Out]] = {}
        for x in range(len(st.net.names)):
            hops = choose(st, flow, x)
            if hops:
                outs[x] = hops
        st.gouts[i], st.gins[i], st.loopy[i] = outs, {}, _cyclic(outs)
        _send_from_senders(st, i)


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
        added = sync(st, i, flow, sorted(where))
        if st.loopy[i] or _loops(st.gouts[i], added):
            st.put(st.loopy, i, True)
            _rebuild(st, i)


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


def sync(st: State, i: int, flow: Flow, where: range | list[int]) -> list[tuple[int, Out]]:
    """Re-decide the class at the switches ``where``, moving its edges; the hops added.

    A switch's hops change one at a time, each counted as it goes: traffic stopping or starting
    can come round to the switch itself (a static pointing back), and must find its hops as
    they are counted then."""
    outs = st.gouts[i]
    added: list[tuple[int, Out]] = []
    for x in where:
        new = choose(st, flow, x)
        old = outs.get(x, _NONE)
        if new == old:
            continue
        for hop in old - new:
            now = outs.get(x, _NONE) - {hop}
            st.put(outs, x, now if now else MISSING)
            if _active(st, i, x):
                _send(st, i, x, hop, -1)
        for hop in new - old:
            st.put(outs, x, outs.get(x, _NONE) | {hop})
            if _active(st, i, x):
                _send(st, i, x, hop, 1)
            added.append((x, hop))
    return added


def _active(st: State, i: int, x: int) -> bool:
    """``x`` has traffic of the class: it sends some, or some arrives."""
    return st.net.senders[x] or bool(st.gins[i].get(x))


def _send(st: State, i: int, x: int, hop: Out, delta: int) -> None:
    """Active ``x`` starts (+1) or stops (-1) sending the class over ``hop``: its ways in now
    wait on that buffer, and traffic starts or stops arriving there."""
    for lin in st.gins[i].get(x, ()):
        st.count((x, lin), hop, delta)
    _arrive(st, i, hop, delta)


def _arrive(st: State, i: int, hop: Out, delta: int) -> None:
    """Traffic of the class starts (+1) or stops (-1) arriving over ``hop``'s link: that way in
    waits on the switch's ways out, which carry traffic once the switch has any."""
    y, lid = hop
    outs, ins = st.gouts[i], st.gins[i]
    was = _active(st, i, y)
    members = ins.get(y)
    if members is None:
        members = set()
        st.put(ins, y, members)
    st.toggle(members, lid, delta > 0)
    for out in outs.get(y, ()):
        st.count(hop, out, delta)
    if _active(st, i, y) != was:
        for out in outs.get(y, ()):
            _arrive(st, i, out, delta)


def _send_from_senders(st: State, i: int) -> None:
    outs = st.gouts[i]
    for x, sends in enumerate(st.net.senders):
        if sends:
            for hop in outs.get(x, ()):
                _arrive(st, i, hop, 1)


def _cyclic(outs: dict[int, frozenset[Out]]) -> bool:
    """Whether the class's forwarding has a loop (a depth-first search for a back edge)."""
    state: dict[int, int] = {}  # 1 on the path, 2 done
    for root in outs:
        if root in state:
            continue
        stack = [(root, iter(outs[root]))]
        state[root] = 1
        while stack:
            x, hops = stack[-1]
            for y, _ in hops:
                if state.get(y) == 1:
                    return True
                if y not in state:
                    state[y] = 1
                    stack.append((y, iter(outs.get(y, ()))))
                    break
            else:
                state[x] = 2
                stack.pop()
    return False


def _loops(outs: dict[int, frozenset[Out]], added: list[tuple[int, Out]]) -> bool:
    """Whether a forwarding loop may run through one of the hops ``added``: a switch that
    added one is reached again from where they lead. Traffic kept arriving round a loop would
    keep its switches active after what fed it stops, so such a class is rebuilt."""
    if not added:
        return False
    sources = {x for x, _ in added}
    seen: set[int] = set()
    todo = [hop[0] for _, hop in added]
    while todo:
        y = todo.pop()
        if y in sources:
            return True
        if y not in seen:
            seen.add(y)
            todo.extend(z for z, _ in outs.get(y, ()))
    return False


def _rebuild(st: State, i: int) -> None:
    """The class's traffic again from its senders: what no sender reaches any more (a loop
    that fed itself) carries none."""
    outs, ins = st.gouts[i], st.gins[i]
    for y in list(ins):
        for lid in list(ins[y]):
            for out in outs.get(y, ()):
                st.count((y, lid), out, -1)
            st.toggle(ins[y], lid, False)
    _send_from_senders(st, i)


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
