"""Link failures by symmetry: which failures are images of each other under an automorphism of
the fabric, and the automorphism that maps one onto another.

An automorphism here is a permutation of switches and links that keeps everything the routing
model reads (routing.py): which switches are linked and over how many links, each link end's
lossless priority, BGP sessions, which switches share an ASN, max-paths, servers and
destinations. Under such a permutation the routing of a failure scenario is the routing of its
image, relabelled, so the same buffer dependency cycles open, relabelled (docs/deadlock.md says
why, and where router ids come in). Traffic classes that are not plain eBGP (statics, defaults:
dests.py) and VLAN flooding are not covered: a fabric with either is checked scenario by
scenario.

How the group is found, without listing its (astronomically many) elements:

1. **Twins.** Switches with the same colour and the same neighbours over the same kind of links
   (quick.py's twin destinations, generalised to every switch) are exchanged by a transposition
   that is plainly an automorphism; parallel links of one kind are exchanged the same way.
2. **The quotient.** One vertex per twin class, one per kind of link bundle between classes and
   one per shared ASN, coloured by what must be kept; BLISS (python-igraph) gives generators
   of its automorphism group. Each lifts to the fabric by mapping the i-th member of a class to
   the i-th member of its image (twin classes are joined completely, so any bijection works).

A link's *type* (its two ends' twin classes and its kind) is one orbit of the twins alone; the
orbits of the whole group are unions of types under the quotient's generators.
"""

from __future__ import annotations

from collections import Counter, deque
from dataclasses import dataclass, field

from roce_cfg.deadlock.net import Network
from roce_cfg.deadlock.routing import Node, destinations

Kind = tuple[int, int, bool]  # lossless priority at this end (-1: lossy), the far end; fixed
LinkType = tuple[int, int, Kind]  # (class of this end, class of the far end, kind)


def applies(net: Network) -> bool:
    """Whether the symmetry argument covers this fabric: every traffic class plain eBGP to one
    switch (statics, defaults and flooding are not symmetric per destination, as in quick.py)."""
    return net.simple and not any(net.vlan_links)


def _kind(net: Network, s: int, lid: int, fixed: frozenset[int]) -> Kind:
    # The lossless priority of each end (-1: lossy): a pause holds back only its priority.
    far = net.links[lid].far(s)
    here, there = net.prio[(s, lid)], net.prio[(far, lid)]
    return (-1 if here is None else here, -1 if there is None else there, lid in fixed)


@dataclass
class Symmetry:
    """The automorphisms of ``net`` that fix every link of ``fixed`` (as a set)."""

    net: Network
    fixed: frozenset[int] = frozenset()
    cls: list[int] = field(default_factory=list)  # switch -> twin class
    members: list[list[int]] = field(default_factory=list)  # class -> its switches, sorted
    gens: list[list[int]] = field(default_factory=list)  # quotient generators on classes
    bundle: dict[tuple[int, int, Kind], list[int]] = field(default_factory=dict)
    pos: dict[int, int] = field(default_factory=dict)  # link -> index in its bundle
    tree: dict[LinkType, tuple[LinkType, int]] = field(default_factory=dict)
    orbit_of: dict[LinkType, LinkType] = field(default_factory=dict)  # type -> its orbit's root
    _end_vertex: dict[tuple[int, int], int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._bundles()
        self._twins()
        self._quotient()
        self._orbits()

    def _bundles(self) -> None:
        net = self.net
        for s, nbrs in enumerate(net.adj):
            for n, lids in nbrs.items():
                for lid in lids:
                    key = (s, n, _kind(net, s, lid, self.fixed))
                    self.bundle.setdefault(key, []).append(lid)
        for lids in self.bundle.values():
            for i, lid in enumerate(lids):
                self.pos[lid] = i

    def _colour(self, s: int, asn_count: Counter[int | None], dests: set[int]) -> object:
        net = self.net
        asn = net.asn[s]
        shared = asn if asn is not None and asn_count[asn] > 1 else None
        ends = sorted(i for i, lid in enumerate(sorted(self.fixed)) if s in _ends(net, lid))
        return (
            net.max_paths[s],
            net.hosts[s],
            s in dests,
            asn is None,
            shared is not None,  # which ASN is the quotient's ASN vertices' business
            tuple(ends),
            bool(net.originated[s]),
        )

    def _twins(self) -> None:
        net = self.net
        asn_count = Counter(net.asn)
        dests = set(destinations(net))
        groups: dict[object, list[int]] = {}
        for s, nbrs in enumerate(net.adj):
            shape = frozenset(
                (n, tuple(sorted(Counter(_kind(net, s, lid, self.fixed) for lid in lids).items())))
                for n, lids in nbrs.items()
            )
            sessions = frozenset(net.sessions[s])
            # Twins must share their ASN when it is shared (a swap keeps who shares with whom).
            shared = net.asn[s] if asn_count[net.asn[s]] > 1 else None
            key = (self._colour(s, asn_count, dests), shared, shape, sessions)
            groups.setdefault(key, []).append(s)
        self.cls = [0] * len(net.names)
        for k, group in enumerate(sorted(groups.values())):
            self.members.append(group)
            for s in group:
                self.cls[s] = k

    def _quotient(self) -> None:
        import igraph  # type: ignore[import-untyped]  # BLISS; imported where it is needed

        net = self.net
        asn_count = Counter(net.asn)
        dests = set(destinations(net))
        colours: list[object] = []
        for group in self.members:
            colours.append(("class", self._colour(group[0], asn_count, dests), len(group)))
        edges: list[tuple[int, int]] = []
        seen: set[tuple[int, int]] = set()
        for s, n, _ in self.bundle:
            a, b = self.cls[s], self.cls[n]
            if (a, b) in seen or (s, n) != (self.members[a][0], self.members[b][0]):
                continue  # one bundle vertex pair per class pair (twins are joined completely)
            seen.add((a, b))
            here = tuple(
                sorted(Counter(_kind(net, s, x, self.fixed) for x in net.adj[s][n]).items())
            )
            session = n in net.sessions[s]
            # Each class pair is met from both ends: one "end" vertex per direction, joined.
            v = len(colours)
            colours.append(("end", here, session))
            edges.append((a, v))
            if (b, a) in seen:
                edges.append((v, self._end_vertex[(b, a)]))
            self._end_vertex[(a, b)] = v
        for asn in {a for a, c in asn_count.items() if a is not None and c > 1}:
            v = len(colours)
            colours.append(("asn",))
            edges += [(v, k) for k, g in enumerate(self.members) if net.asn[g[0]] == asn]
        palette = {c: i for i, c in enumerate(sorted(set(map(repr, colours))))}
        graph = igraph.Graph(n=len(colours), edges=edges)
        found = graph.automorphism_group(sh="fl", color=[palette[repr(c)] for c in colours])
        k = len(self.members)
        self.gens = [list(g[:k]) for g in found if list(g[:k]) != list(range(k))]

    def link_type(self, lid: int) -> LinkType:
        """Canonical (smaller class first) type of a link."""
        ln = self.net.links[lid]
        one = (self.cls[ln.a], self.cls[ln.b], _kind(self.net, ln.a, lid, self.fixed))
        two = (self.cls[ln.b], self.cls[ln.a], _kind(self.net, ln.b, lid, self.fixed))
        return min(one, two)

    def _move(self, t: LinkType, g: list[int]) -> LinkType:
        a, b, (here, there, fx) = t
        one = (g[a], g[b], (here, there, fx))
        two = (g[b], g[a], (there, here, fx))
        return min(one, two)

    def _orbits(self) -> None:
        """Breadth-first over link types from each unseen type: a spanning tree per orbit
        whose edges name the generator, for mapping a representative onto any member."""
        for lid in range(len(self.net.links)):
            t = self.link_type(lid)
            if t in self.orbit_of:
                continue
            self.orbit_of[t] = t
            queue = deque([t])
            while queue:
                u = queue.popleft()
                for i, g in enumerate(self.gens):
                    v = self._move(u, g)
                    if v not in self.orbit_of:
                        self.orbit_of[v] = t
                        self.tree[v] = (u, i)
                        queue.append(v)

    def orbits(self) -> list[list[int]]:
        """The link orbits, each sorted, its first link the representative; by first link."""
        out: dict[LinkType, list[int]] = {}
        for lid in range(len(self.net.links)):
            out.setdefault(self.orbit_of[self.link_type(lid)], []).append(lid)
        return sorted(out.values())

    def mapping(self, rep: int, member: int) -> Mapping:
        """An automorphism taking link ``rep`` to link ``member`` (same orbit)."""
        chain: list[int] = []
        t = self.link_type(member)
        while t in self.tree:
            t, i = self.tree[t]
            chain.append(i)
        assert t == self.orbit_of[self.link_type(rep)], "not in the same orbit"
        m = Mapping(self)
        # From the orbit's root type to the member's type: the generators in tree order.
        root_to = chain[::-1]
        # The representative may sit at another type of the orbit: go to the root first.
        back: list[int] = []
        t = self.link_type(rep)
        while t in self.tree:
            t, i = self.tree[t]
            back.append(i)
        for i in back:
            m.steps.append(("inv", i, 0))
        for i in root_to:
            m.steps.append(("gen", i, 0))
        m.finish(rep, member)
        return m


def _ends(net: Network, lid: int) -> tuple[int, int]:
    ln = net.links[lid]
    return ln.a, ln.b


@dataclass
class Mapping:
    """A fabric automorphism as a chain of steps: quotient generators (lifted), their
    inverses, twin transpositions and parallel-link transpositions."""

    sym: Symmetry
    steps: list[tuple[str, int, int]] = field(default_factory=list)

    def switch(self, s: int) -> int:
        for step, x, y in self.steps:
            s = self._switch_step(step, x, y, s)
        return s

    def _switch_step(self, step: str, x: int, y: int, s: int) -> int:
        sym = self.sym
        if step in ("gen", "inv"):
            g = sym.gens[x]
            k = sym.cls[s]
            image = g[k] if step == "gen" else g.index(k)
            return sym.members[image][sym.members[k].index(s)]
        if step == "swap":
            return y if s == x else x if s == y else s
        return s

    def link(self, lid: int) -> int:
        net = self.sym.net
        for step, x, y in self.steps:
            if step == "links":
                lid = y if lid == x else x if lid == y else lid
                continue
            ln = net.links[lid]
            a = self._switch_step(step, x, y, ln.a)
            b = self._switch_step(step, x, y, ln.b)
            kind = _kind(net, ln.a, lid, self.sym.fixed)
            lid = self.sym.bundle[(a, b, kind)][self.sym.pos[lid]]
        return lid

    def node(self, node: Node) -> Node:
        return self.switch(node[0]), self.link(node[1])

    def finish(self, rep: int, member: int) -> None:
        """After the quotient steps ``rep`` lies on ``member``'s type: twin swaps bring its
        ends onto the member's ends, a parallel swap onto the member itself."""
        net = self.sym.net
        got = self.link(rep)
        g, m = net.links[got], net.links[member]
        kind_g = _kind(net, g.a, got, self.sym.fixed)
        pairs = [(g.a, m.a), (g.b, m.b)]
        if (self.sym.cls[g.a], kind_g) != (
            self.sym.cls[m.a],
            _kind(net, m.a, member, self.sym.fixed),
        ):
            pairs = [(g.a, m.b), (g.b, m.a)]
        for x, y in pairs:
            if x != y:
                self.steps.append(("swap", x, y))
        got = self.link(rep)
        if got != member:
            self.steps.append(("links", got, member))
