"""Every single and every pair of link failures, exactly, by symmetry (orbits.py): one
representative scenario per orbit is analysed and its answer mapped onto the orbit's members.

A representative is first put to the biclique shortcut on the damaged fabric (quick.py, no
per-edge bookkeeping, linear in links); only where that finds a cycle does the full engine
(routing.py) build its state, to name the cycle's every hop and cause.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from roce_cfg.deadlock.analyse import Cycle, PairClass, _check
from roce_cfg.deadlock.net import Network
from roce_cfg.deadlock.orbits import Mapping, Symmetry
from roce_cfg.deadlock.quick import TRUNCATED, acyclic
from roce_cfg.deadlock.routing import State, baseline
from roce_cfg.heap import bulk_objects

Scenario = tuple[int, ...]
# Concrete pair scenarios listed at most; past that a pair class is reported by its
# representative and its size (2 billion pairs of an xl fabric are counted, not listed).
LIST_PAIRS = 20_000


class Unsymmetric(Exception):
    """A representative's routing was decided by router ids (equal paths left out past
    max-paths) and even keeping every equal path opens a cycle: its orbit's members need not
    agree, so the sweep by symmetry gives up."""


@dataclass
class Engine:
    """Answers for one scenario: the shortcut first, the full engine only for cycles."""

    net: Network
    st: State | None = None
    analysed: int = 0

    @bulk_objects()  # the damaged fabric's routes and groups: millions of small objects on xl
    def opens(self, scenario: Scenario) -> list[Cycle]:
        self.analysed += 1
        failed = frozenset(scenario)
        clear = acyclic(self.net, {}, failed)
        if failed in TRUNCATED:
            # Router ids chose which equal paths to keep, differently for each member: only
            # a bound that keeps them all answers for the whole orbit (docs/deadlock.md).
            if acyclic(self.net, {}, failed, every_path=True):
                return []
            raise Unsymmetric(scenario)
        if clear:
            return []
        if self.st is None:
            self.st = baseline(self.net)
        return _check(self.st, scenario, set(), set())[0]


@dataclass
class Sweep:
    singles: dict[Scenario, list[Cycle]] = field(default_factory=dict)  # opened, concrete
    pairs: dict[Scenario, list[Cycle]] = field(default_factory=dict)  # opened, when listed
    classes: list[PairClass] = field(default_factory=list)
    single_orbits: int = 0
    pair_total: int = 0
    analysed: int = 0


class Relabel:
    """A cycle mapped by an automorphism, its causes' switch names and prefixes with it."""

    def __init__(self, net: Network) -> None:
        self.net = net
        self.index = {n: i for i, n in enumerate(net.names)}
        self.origin = {
            str(p): (s, k) for s, ps in enumerate(net.originated) for k, p in enumerate(ps)
        }
        self.token = re.compile(r"[\w./:-]+")

    def cycle(self, c: Cycle, maps: list[Mapping], scenario: Scenario) -> Cycle:
        nodes = c.nodes
        for m in maps:
            nodes = tuple(m.node(n) for n in nodes)
        causes = tuple(self.token.sub(lambda t: self._word(t.group(0), maps), x) for x in c.causes)
        return Cycle(nodes, causes, scenario)

    def _word(self, word: str, maps: list[Mapping]) -> str:
        s = self.index.get(word)
        if s is not None:
            for m in maps:
                s = m.switch(s)
            return self.net.names[s]
        hit = self.origin.get(word.rstrip(",)"))
        if hit is None:
            return word
        s, k = hit
        for m in maps:
            s = m.switch(s)
        return str(self.net.originated[s][k]) + word[len(word.rstrip(",)")) :]


Tick = Callable[[int, int], None]
Answers = dict[Scenario, list[Cycle]]
Runner = Callable[[Network, list[Scenario], Tick], Answers]
PairRep = tuple[Scenario, int, Symmetry, list[int]]


def pair_classes(net: Network, sym: Symmetry) -> Iterator[PairRep]:
    """Each class of unordered pairs: (representative pair, how many pairs, the stabiliser of
    the representative's first link, the stabiliser orbit of its second link). A class and
    its mirror ((a, b) and (b, a)) are given once."""
    orbits = sym.orbits()
    orbit_no = {lid: k for k, o in enumerate(orbits) for lid in o}
    for i, orbit in enumerate(orbits):
        r = orbit[0]
        stab = Symmetry(net, frozenset([r]))
        inner = [o for o in stab.orbits() if o != [r]]
        where = {lid: k for k, o in enumerate(inner) for lid in o}
        for k, so in enumerate(inner):
            b = so[0]
            j = orbit_no[b]
            if j < i:
                continue  # counted from b's orbit
            size = len(orbit) * len(so)
            if j == i:
                mirror = where[sym.mapping(b, r).link(r)]
                if mirror < k:
                    continue
                size = size // 2 if mirror == k else size
            yield (r, b), size, stab, so


@dataclass
class Representatives:
    """What a sweep analyses: one representative per single-failure orbit and per pair
    class, plus any scenarios named outright."""

    sym: Symmetry
    orbits: list[list[int]]
    classes: list[PairRep]
    named: list[Scenario]

    def todo(self) -> list[Scenario]:
        reps = [(o[0],) for o in self.orbits] + [tuple(sorted(c[0])) for c in self.classes]
        return list(dict.fromkeys([*reps, *self.named]))


def representatives(
    net: Network, singles: bool, pairs: bool, named: list[Scenario]
) -> Representatives:
    sym = Symmetry(net)
    orbits = sym.orbits() if singles else []
    classes = list(pair_classes(net, sym)) if pairs else []
    return Representatives(sym, orbits, classes, named)


def serial(net: Network, todo: list[Scenario], tick: Tick) -> Answers:
    engine = Engine(net)
    out: Answers = {}
    for i, scenario in enumerate(todo, 1):
        out[scenario] = engine.opens(scenario)
        tick(i, len(todo))
    return out


def assemble(net: Network, planned: Representatives, answers: Answers) -> Sweep:
    """The representatives' answers mapped onto every member."""
    out = Sweep(single_orbits=len(planned.orbits), analysed=len(answers))
    relabel = Relabel(net)
    for orbit in planned.orbits:
        rep = orbit[0]
        found = answers[(rep,)]
        for lid in orbit if found else ():
            m = planned.sym.mapping(rep, lid)
            out.singles[(lid,)] = [relabel.cycle(c, [m], (lid,)) for c in found]
    out.pair_total = sum(size for _, size, _, _ in planned.classes)
    listed = 0
    for (r, b), size, stab, so in planned.classes:
        scenario = (min(r, b), max(r, b))
        found = answers[scenario]
        cycles = [relabel.cycle(c, [], scenario) for c in found]
        out.classes.append(PairClass(scenario, size, cycles))
        if found and listed + size <= LIST_PAIRS:
            listed += size
            _list_class(planned.sym, stab, r, so, found, relabel, out)
    return out


def _list_class(
    sym: Symmetry,
    stab: Symmetry,
    r: int,
    so: list[int],
    found: list[Cycle],
    relabel: Relabel,
    out: Sweep,
) -> None:
    """Every concrete pair of a class that opens cycles, with its cycles relabelled: x ranges
    over the stabiliser orbit of the second link, a over the first link's orbit."""
    b = so[0]
    inner = [(x, stab.mapping(b, x)) for x in so]
    orbit = next(o for o in sym.orbits() if r in o)
    for a in orbit:
        outer = sym.mapping(r, a)
        for x, mx in inner:
            c = outer.link(x)
            key = (min(a, c), max(a, c))
            if key not in out.pairs:
                out.pairs[key] = [relabel.cycle(cy, [mx, outer], key) for cy in found]


def sweep(net: Network, with_singles: bool, with_pairs: bool, tick: Tick) -> Sweep:
    """The whole sweep in this process; raises Unsymmetric where router ids decide."""
    TRUNCATED.clear()
    planned = representatives(net, with_singles, with_pairs, [])
    return assemble(net, planned, serial(net, planned.todo(), tick))
