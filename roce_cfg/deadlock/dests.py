"""The destinations the configs carry, which of them carry RoCE, and the traffic classes routed
to them.

A destination is any subnet a switch holds (routed ports, VLAN interfaces), any static route's
prefix and any prefix advertised into BGP. An address carries RoCE when the subnet it sits in is
reached through a port lossless for the analysed priority (servers, storage); a subnet behind a
lossy port (a firewall, management) carries none; loopbacks and link subnets carry control
traffic. An address no subnet of the fabric holds follows the route that leads it out: a static
to a next hop outside (RoCE when that port is lossless), a discard route (none), or routes that
only point at other switches (RoCE assumed: nothing read says otherwise).

The RoCE address space is cut wherever a route's prefix starts or ends, so that every switch
routes each piece alike; pieces with the same routes everywhere are one traffic class. A class
whose only routes are one switch's own subnet and that switch's eBGP advertisement is *plain*
(routing.py's incremental engine, quick.py, orbits.py); any other is a Flow, forwarded by the
longest prefix, then the route preference, at every switch (forward.py).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Iterator
from ipaddress import IPv4Address, IPv4Network, IPv6Address, IPv6Network, collapse_addresses
from itertools import groupby, pairwise
from typing import NamedTuple

from roce_cfg.deadlock.network import AddressKey, Cand, Flow, Network, address_key
from roce_cfg.links import ends
from roce_cfg.model import addresses, numbers
from roce_cfg.model.device import DeviceConfig, Interface
from roce_cfg.platforms.profile import load_profile
from roce_cfg.vendor import Vendor

ROCE = frozenset({"roce", "assumed"})  # the kinds of destination RoCE is simulated to
LISTED = 12  # destinations named per kind in the verdict; the rest are counted
# (first address, prefix length); an IPv6 prefix's address is tagged above every IPv4 one
# (addresses.V6_TAG), so that the two families share one number line and never overlap
Key = tuple[int, int]
Routes = dict[Key, list[tuple[int, Cand]]]  # prefix -> (switch, route) for subnets and statics
Net = IPv4Network | IPv6Network
Address = IPv4Address | IPv6Address


class Dest(NamedTuple):  # a tuple: every link end of a large fabric makes one
    key: Key  # the prefix as numbers, looked up far more often than read
    prefix: Net
    kind: str  # roce, lossy (reached by a port without PFC), control, discard, summary, assumed
    switch: int  # where it is attached or routed out; -1: advertised into BGP only
    port: str = ""
    attached: bool = True  # one of a switch's subnets; else reached by a route only


def _key(p: Net) -> Key:
    return addresses.key(p.network_address), p.prefixlen


def _net(key: Key) -> Net:
    address, plen = key
    if address >= V6:
        return IPv6Network((address - V6, plen))
    return IPv4Network(key)


def gather(net: Network, ports: list[dict[str, Interface]], owner: dict[AddressKey, int]) -> None:
    """net.origins, net.adverts, net.originated, net.hosts, net.flows and the verdict's notes."""
    bgp = _groups(net, owner)
    local: Routes = {}
    found = list(_connected(net, local))
    found += _routed(net, ports, bgp, local)
    chosen = _summaries(_merge(found))
    _say(net, chosen)
    net.hosts = [
        any(p.mode == "access" and not p.shutdown for p in d.interfaces) for d in net.devices
    ]
    for dest in (*chosen[0].values(), *chosen[1].values()):
        if dest.kind == "roce" and dest.switch >= 0:
            net.hosts[dest.switch] = True  # RoCE traffic starts where RoCE hosts sit
    net.senders = net.hosts if any(net.hosts) else [True] * len(net.names)
    classes: dict[object, Flow] = {}
    for start, label in _atoms(chosen, [*local, *bgp]):
        flow = _flow(net, start, label, local, bgp)
        plain = _plain(net, flow)
        if plain is not None:
            if label not in net.originated[plain]:
                net.originated[plain].append(label)
            continue
        sig = (flow.bgp, tuple(sorted(flow.at.items(), key=lambda kv: kv[0])))
        seen = classes.setdefault(sig, flow)
        if seen is not flow and label not in seen.prefixes:
            classes[sig] = Flow((*seen.prefixes, label), seen.bgp, seen.at, seen.deps)
    net.flows = list(classes.values())
    _unsure(net)


def _groups(net: Network, owner: dict[AddressKey, int]) -> dict[Key, int]:
    """BGP groups: prefixes with one set of originators route alike. A switch's own prefixes
    are group ``switch``; prefixes several switches originate, and a default some advertise to
    chosen peers only, get groups past the switches."""
    n = len(net.names)
    net.originated = [[] for _ in range(n)]
    net.origins = [() for _ in range(n)]
    origins: dict[Net, set[int]] = {}
    # per default route (of the family of the peers it is sent to): switch -> the peers
    adverts: dict[Net, dict[int, frozenset[int]]] = {}
    for s, d in enumerate(net.devices):
        if d.bgp is None or net.asn[s] is None:
            continue
        for p in d.bgp.networks:
            origins.setdefault(p, set()).add(s)
        for default in _DEFAULTS:
            to = frozenset(
                owner[address_key(a)]
                for a in d.bgp.default_to
                if a.version == default.version and owner.get(address_key(a), -1) in net.sessions[s]
            )
            if to:
                adverts.setdefault(default, {})[s] = to
    for default in adverts:
        origins.setdefault(default, set())
    keys: dict[object, int] = {}
    out: dict[Key, int] = {}
    for p, by in sorted(origins.items(), key=lambda kv: _key(kv[0])):
        sent = adverts.get(p, {})
        if len(by) == 1 and not sent:
            (g,) = by
            net.origins[g] = (g,)
        else:
            g = keys.setdefault((frozenset(by), frozenset(sent.items())), len(net.origins))
            if g == len(net.origins):
                net.origins.append(tuple(sorted(by)))
                net.originated.append([])
                if sent:
                    net.adverts[g] = dict(sent)
            net.originated[g].append(p)
        out[_key(p)] = g
    return out


def _connected(net: Network, local: Routes) -> Iterator[Dest]:
    """Each switch's subnets as destinations, and as routes delivered there (``local``)."""
    on_links: list[set[str]] = [set() for _ in net.names]
    for ln in net.links:
        on_links[ln.a].add(ln.a_port)
        on_links[ln.b].add(ln.b_port)
    for s, d in enumerate(net.devices):
        members = {m for a in d.aggregates for m in a.members}
        # A subnet the switch has a BGP peer on leads to a router (a link not found, a switch
        # not read), not to hosts.
        peers = [n.address for n in d.bgp.neighbors] if d.bgp else []
        subnets: list[tuple[Net, str, str]] = []
        for p in d.interfaces:
            if p.shutdown or p.name in members:
                continue
            for held in addresses.of_port(d, p):
                routed = p.name in on_links[s] or any(a in held.network for a in peers)
                kind = "control" if routed else _kind(d, p)
                subnets.append((held.network, kind, p.name))
        for svi in d.vlan_interfaces:
            kind, port = _vlan_kind(d, svi.vlan, on_links[s])
            subnets += [(held.network, kind, port) for held in addresses.of_vlan(svi)]
        loop = d.loopback
        if loop is not None:
            held_by = (x for x in (loop.ipv4, loop.ipv6) if x is not None)
            subnets += [(held.network, "control", loop.name) for held in held_by]
        for prefix, kind, port in subnets:
            key = _key(prefix)
            local.setdefault(key, []).append((s, _LOCAL[key[1]]))
            yield Dest(key, prefix, kind, s, port)


_LOCAL = [Cand(plen, 0) for plen in range(IPv6Network("::/0").max_prefixlen + 1)]
# the default route of each family, as a BGP speaker advertises it to a peer of that family
_DEFAULTS = (IPv4Network("0.0.0.0/0"), IPv6Network("::/0"))


def _kind(d: DeviceConfig, port: Interface) -> str:
    """'roce' when the port (an aggregate: one of its members) has PFC on, else 'lossy'. PFC
    on marks a port meant for RoCE: one whose priority is then mismatched is a fault lint
    reports (RC109, RC303), and RoCE still crosses the fabric toward it."""
    seen = ends.end_port(d, port.name) if d.aggregate(port.name) else port
    return "roce" if seen is not None and seen.qos.pfc else "lossy"


def _vlan_kind(d: DeviceConfig, vlan: int, on_links: set[str]) -> tuple[str, str]:
    """A VLAN interface's kind and the port that says so: RoCE when a port carrying its VLAN
    toward hosts has PFC on; control when it rides a link (an M-LAG peer-link) or has no port."""
    if any(ends.vlan_of(d, name) == vlan for name in on_links):
        return "control", ""
    members = {m for a in d.aggregates for m in a.members}
    kinds: list[tuple[str, str]] = []
    for p in d.interfaces:
        if p.mode != "access" or p.shutdown or p.name in members or p.name in on_links:
            continue
        trunk = p.trunk_vlans
        if numbers.contains(trunk, vlan) if trunk else p.access_vlan == vlan:
            kinds.append((_kind(d, p), p.name))
    if not kinds:
        return "control", ""
    return next((k for k in kinds if k[0] == "roce"), kinds[0])


def _routed(
    net: Network, ports: list[dict[str, Interface]], bgp: dict[Key, int], local: Routes
) -> Iterator[Dest]:
    """Static routes (also as routes, in ``local``) and BGP prefixes as destinations: where no
    subnet holds their addresses, the route that leads them out says what they carry."""
    for s, statics in enumerate(net.statics):
        d = net.devices[s]
        for r in statics:
            local.setdefault(_key(r.prefix), []).append(
                (s, Cand(r.prefix.prefixlen, r.preference, static=r))
            )
            if r.prefix.prefixlen == 0:
                continue  # a default route is no destination
            if r.exits:
                kind = _exit_kind(d, ports[s], r.port)
            else:
                kind = "discard" if r.discards else "assumed"
            yield Dest(_key(r.prefix), r.prefix, kind, s, r.port, attached=False)
    for address, plen in bgp:
        if plen:
            yield Dest((address, plen), _net((address, plen)), "assumed", -1, attached=False)


def _exit_kind(d: DeviceConfig, ports: dict[str, Interface], port: str) -> str:
    found = ports.get(port)
    if found is not None:
        return _kind(d, found)
    vlan = ends.vlan_of(d, port)
    return _vlan_kind(d, vlan, set())[0] if vlan is not None else "lossy"


_RANK = {"roce": 0, "lossy": 1, "control": 2, "discard": 3, "summary": 4, "assumed": 5}
Chosen = tuple[dict[Key, Dest], dict[Key, Dest]]  # subnets of switches; reached by routes


def _merge(found: Iterable[Dest]) -> Chosen:
    """One destination per prefix and tier: RoCE where any switch says so (both switches of an
    M-LAG pair hold the servers' subnet), else the first reason there is none."""
    tiers: Chosen = ({}, {})
    for dest in found:
        tier = tiers[0] if dest.attached else tiers[1]
        key = dest.key
        old = tier.get(key)
        if old is None or _RANK[dest.kind] < _RANK[old.kind]:
            tier[key] = dest
    return tiers


def _summaries(chosen: Chosen) -> Chosen:
    """A prefix only routes lead to that holds subnets of switches is a summary of them (a
    rack's aggregate): its other addresses lead nowhere, and are no destination."""
    starts = sorted(chosen[0])
    for key, dest in list(chosen[1].items()):
        if dest.kind != "assumed":
            continue
        end = key[0] + (1 << (_width(key[0]) - key[1]))
        k = bisect_right(starts, (key[0], key[1]))
        if k < len(starts) and starts[k][0] < end:
            chosen[1][key] = dest._replace(kind="summary")
    return chosen


def _say(net: Network, chosen: Chosen) -> None:
    """The destinations the verdict names: those taken to carry no RoCE (reached by a port
    without PFC), and those assumed to carry it (no subnet of a switch read holds them)."""
    names = net.names
    lossy = [d for d in chosen[0].values() if d.kind == "lossy"]
    lossy += [d for d in chosen[1].values() if d.kind == "lossy" and not _held(chosen, d)]
    for d in sorted(lossy, key=lambda d: d.key):
        net.not_roce.append(f"{d.prefix} ({names[d.switch]} {d.port})")
    for d in sorted(chosen[1].values(), key=lambda d: d.key):
        if d.kind == "assumed" and not _held(chosen, d):
            how = f"a static route at {names[d.switch]}" if d.switch >= 0 else "BGP only"
            net.assumed.append(f"{d.prefix} (routed by {how})")


def _held(chosen: Chosen, d: Dest) -> bool:
    """A subnet of a switch holds all of ``d`` (its routes then only lead there)."""
    address, plen = d.key
    return any((_mask(address, p), p) in chosen[0] for p in range(plen, -1, -1))


WIDTH = IPv4Network("0.0.0.0/0").max_prefixlen
V6 = addresses.V6_TAG


def _width(address: int) -> int:
    """The address width of a number of either family (an IPv6 one is tagged, V6)."""
    return 128 if address >= V6 else WIDTH


def _mask(address: int, plen: int) -> int:
    return address & ~((1 << (_width(address) - plen)) - 1)


def _atoms(chosen: Chosen, routes: list[Key]) -> Iterator[tuple[int, Net]]:
    """The pieces of the RoCE address space every route holds whole: (first address, the
    longest prefix holding it, for reports)."""
    roce = [d.prefix for tier in chosen for d in tier.values() if d.kind in ROCE]
    blocks: list[Net] = list(collapse_addresses(p for p in roce if p.version == 4))
    blocks += collapse_addresses(p for p in roce if p.version == 6)
    starts = [addresses.key(b.network_address) for b in blocks]
    ends = [addresses.key(b.broadcast_address) + 1 for b in blocks]

    def inside(x: int) -> bool:
        k = bisect_right(starts, x) - 1
        return k >= 0 and x < ends[k]

    points = {*starts, *ends}
    for address, plen in (*chosen[0], *chosen[1], *routes):
        for x in (address, address + (1 << (_width(address) - plen))):
            if inside(x):
                points.add(x)
    known = {*chosen[0], *chosen[1], *routes}
    ordered = sorted(points)
    for a, b in pairwise(ordered):
        if not inside(a) or b <= a:
            continue
        status = _status(chosen, a)
        if status is not None and status.kind in ROCE:
            plen = next(p for p in range(_width(a), -1, -1) if (_mask(a, p), p) in known)
            yield a, _net((_mask(a, plen), plen))


def _status(chosen: Chosen, address: int) -> Dest | None:
    """The destination an address belongs to: the most specific subnet holding it, else the
    most specific route leading to it."""
    for tier in chosen:
        for plen in range(_width(address), -1, -1):
            found = tier.get((_mask(address, plen), plen))
            if found is not None:
                return found
    return None


def _flow(net: Network, start: int, label: Net, local: Routes, bgp: dict[Key, int]) -> Flow:
    """The routes every switch holds for the piece starting at ``start``."""
    explicit: dict[int, list[Cand]] = {}
    learned: list[Cand] = []
    for plen in range(_width(start), -1, -1):
        key = (_mask(start, plen), plen)
        for s, cand in local.get(key, ()):
            explicit.setdefault(s, []).append(cand)
        g = bgp.get(key)
        if g is not None:
            learned.append(Cand(plen, -1, group=g))
    common = _normal(learned)
    at: dict[int, tuple[Cand, ...]] = {}
    for s in {*explicit, *(o for c in learned for o in net.origins[c.group])}:
        # An originator forwards by its own routes (the subnet, the static it advertises).
        mine = [c for c in learned if s not in net.origins[c.group]]
        routes = _normal([*explicit.get(s, ()), *mine])
        if routes != common:
            at[s] = routes
    deps = frozenset(c.group for c in learned)
    return Flow((label,), common, at, deps)


def _discards(c: Cand) -> bool:
    return c.static is not None and c.static.discards


def _normal(cands: Iterable[Cand]) -> tuple[Cand, ...]:
    """A switch's routes for a class as forwarding can use them: longest first; nothing after
    a prefix length holding a route that is always up (a subnet, a discard route); and no
    trailing discard routes, which drop what no route would carry either."""
    levels: list[list[Cand]] = []
    ordered = sorted(cands, key=lambda c: (-c.plen, c.pref, c.group))
    for _, level in groupby(ordered, key=lambda c: c.plen):
        levels.append(list(level))
        if any(c.local or _discards(c) for c in levels[-1]):
            break
    while levels and all(_discards(c) for c in levels[-1]):
        levels.pop()
    return tuple(c for level in levels for c in level)


def _plain(net: Network, flow: Flow) -> int | None:
    """The switch whose eBGP advertisement alone routes the class to its own subnet (a plain
    destination), or None."""
    if len(flow.bgp) != 1:
        return None
    g = flow.bgp[0].group
    if g >= len(net.names) or set(flow.at) != {g} or not all(c.local for c in flow.at[g]):
        return None
    return g


def _ties(net: Network, s: int, routes: tuple[Cand, ...]) -> Iterator[str]:
    """Statics as preferred as switch ``s``'s eBGP route of their length where the vendor
    documents no tie rule (or the static lacks its inter-protocol ECMP word): both are
    followed, which the verdict says."""
    rule = net.tie[s]
    for _, level in groupby(routes, key=lambda c: c.plen):
        got = list(level)
        if rule == "ecmp" or not any(c.group >= 0 for c in got):
            continue
        for c in got:
            r = c.static
            if r is not None and r.preference == net.ebgp_pref[s]:
                if rule == "flagged" and any(x.static and x.static.ecmp for x in got):
                    continue
                where = f"{net.names[s]}:{r.line}" if r.line is not None else net.names[s]
                yield (
                    f"{where} static route {r.prefix} ties eBGP at preference {r.preference}, "
                    "which no source settles: both followed"
                )


def _unsure(net: Network) -> None:
    """What the verdict rests on that no source confirms: a tie between a static and eBGP the
    vendor documents no rule for, and a vendor's unconfirmed preferences where they decide."""
    deciding: dict[str, set[str]] = {}
    for flow in net.flows:
        for s, routes in flow.at.items():
            for note in _ties(net, s, routes):
                if note not in net.unsure:
                    net.unsure.append(note)
            both = any(c.static for c in routes) and any(c.group >= 0 for c in routes)
            vendor = net.devices[s].vendor
            pref = load_profile(vendor).route_preference
            if both and pref is not None and pref.status == "unverified":
                deciding.setdefault(vendor.value, set()).add(net.names[s])
    for name, where in sorted(deciding.items()):
        pref = load_profile(Vendor(name)).route_preference
        assert pref is not None
        net.unsure.append(
            f"{name} route preference (static {pref.static}, eBGP {pref.ebgp}: {pref.note}) "
            f"decides between a static and eBGP at {', '.join(sorted(where))}"
        )
