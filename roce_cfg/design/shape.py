"""The fabric's shape, derived once from the intent: its tiers top first (role, switches per pod,
uplinks and their speed, ASN rule), pods, the servers each leaf serves, and the pools it needs.

``FabricShape.of`` is the one place that checks an intent can be built at all: the intent's own
rules (roce_cfg.intent.checks, for an Intent built in code that no loader checked), the plan
ceilings (roce_cfg.model.ceilings) and the ASN plan (ranges within 32 bits, no two tiers
sharing an ASN). ``topology.build`` lays the shape out, ``Size`` counts it for the ceilings and
``advise.intent_for`` sizes an intent's pools from it.

One shape covers the three topologies: a single switch is one tier that serves every rail; two
tiers are one pod of spines over rail leaves; three tiers add super-spines over the pods.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property
from typing import Literal, TypeVar

from roce_cfg.errors import PlanError
from roce_cfg.intent.checks import check
from roce_cfg.intent.models import Intent, LinkSpec, SwitchRole
from roce_cfg.model.ceilings import Size
from roce_cfg.model.device import Role

Loc = tuple[str | int, ...]
LinkKind = Literal["leaf-spine", "spine-superspine"]
MAX_ASN = 4294967295
T = TypeVar("T")

# How a tier or link kind is named in messages: one, many.
NAMES: dict[str, tuple[str, str]] = {
    "superspine": ("super-spine", "super-spines"),
    "spine": ("spine", "spines"),
    "leaf": ("leaf", "leaves"),
    "switch": ("switch", "switches"),
    "leaf-spine": ("leaf-spine", "leaf-spine"),
    "spine-superspine": ("spine-super-spine", "spine-super-spine"),
}


def rail_prefix(servers_per_switch: int) -> int:
    """Prefix length of one rail subnet: a /24 unless more hosts (plus gateway) need a larger one.

    >>> rail_prefix(16), rail_prefix(253), rail_prefix(254)
    (24, 24, 23)
    """
    return min(24, 32 - math.ceil(math.log2(servers_per_switch + 3)))


@dataclass(frozen=True)
class Asn:
    """A tier's ASN rule (RFC 7938): ``first``, plus the switch's index when each switch has
    its own, plus the pod when each pod has its own; ``field`` is the routing key that sets it."""

    first: int
    field: str
    per_switch: bool = False
    per_pod: bool = False

    def of(self, index: int, pod: int) -> int:
        return self.first + (index if self.per_switch else 0) + (pod if self.per_pod else 0)

    def span(self, switches: int, pods: int) -> tuple[int, int]:
        """The lowest and highest ASN of the tier's ``switches`` over ``pods``."""
        return self.first, self.of(switches - 1, pods - 1)


@dataclass(frozen=True)
class Uplinks:
    """How each switch of a tier joins the tier above: ``per_parent`` links to each of
    ``parents`` switches; with ``planes``, switch j of every pod joins plane j only."""

    kind: LinkKind
    link: LinkSpec
    per_parent: int
    parents: int
    planes: bool = False

    @property
    def count(self) -> int:
        return self.per_parent * self.parents


@dataclass(frozen=True)
class Tier:
    role: Role
    where: Loc  # the intent field naming the tier's vendor and model
    switch: SwitchRole
    count: int  # switches per pod when ``per_pod``, else in all
    per_pod: bool
    down: tuple[int, int]  # ports towards the tier below, per switch, and their speed
    up: Uplinks | None
    asn: Asn | None
    blame: Loc  # what a port layout that does not fit on the model is blamed on
    serves: bool = False  # the server-facing tier
    per_rail: bool = False  # each switch serves one rail (a rail leaf)

    def total(self, pods: int) -> int:
        return self.count * pods if self.per_pod else self.count


@dataclass(frozen=True)
class Pools:
    """What the addressing must hold: loopback addresses (one per switch, after the network
    address), point-to-point addresses (two per link), and rail subnets of one prefix."""

    loopbacks: int
    p2p: int
    rail_subnets: int
    rail_prefix: int


@dataclass(frozen=True)
class FabricShape:
    tiers: tuple[Tier, ...]  # top first; the last one faces the servers
    pods: int
    servers: int
    nics: int
    rails_per_switch: int  # rails on one server-facing switch: 1, or every rail on one box
    groups: int  # server-facing switches per rail and pod (leaves per rail)

    @classmethod
    def of(cls, intent: Intent) -> FabricShape:
        """The shape of ``intent``, refused with a located PlanError if it cannot be built."""
        problems = check(intent)
        if problems:
            raise PlanError(*problems[0])
        shape = cls(
            _tiers(intent),
            intent.fabric.pods,
            intent.servers.count,
            intent.servers.nics,
            *_serving(intent),
        )
        shape.size.check()  # before any work proportional to the plan
        shape.check_asns()
        return shape

    @property
    def pod_servers(self) -> int:
        return self.servers // self.pods

    @property
    def servers_per_switch(self) -> int:
        """Servers one server-facing switch serves on one rail (the last group may have fewer)."""
        return math.ceil(self.pod_servers / self.groups)

    def above(self, tier: int) -> int:
        """Switches in the tiers above ``tier`` (their loopbacks come first)."""
        return sum(t.total(self.pods) for t in self.tiers[:tier])

    def blocks(self) -> Iterator[tuple[int, int]]:
        """(tier, pod) in the order switches, addresses and links are allocated: tiers above the
        pods first, then each pod top down."""
        tops = [i for i, t in enumerate(self.tiers) if not t.per_pod]
        yield from ((i, 0) for i in tops)
        for pod in range(self.pods):
            yield from ((i, pod) for i, t in enumerate(self.tiers) if t.per_pod)

    def served(self, j: int, pod: int) -> tuple[range, range]:
        """The rails and the servers the server-facing switch ``j`` of ``pod`` serves."""
        first_rail = j // self.groups * self.rails_per_switch
        start = pod * self.pod_servers + j % self.groups * self.servers_per_switch
        stop = min(start + self.servers_per_switch, (pod + 1) * self.pod_servers)
        return range(first_rail, first_rail + self.rails_per_switch), range(start, stop)

    def parents(self, tier: int, pod: int, j: int) -> tuple[int, int]:
        """Where switch ``j`` (of ``pod``) of ``tier`` joins the tier above: the index there of
        the first switch it links to, and its own seat among each one's down ports."""
        here, above = self.tiers[tier], self.tiers[tier - 1]
        assert here.up is not None
        if above.per_pod:
            return pod * above.count, j
        if here.up.planes:
            return j * here.up.parents, pod
        return 0, pod * here.count + j

    @cached_property
    def size(self) -> Size:
        """GPUs, switches and links, each with how it was counted (tiers bottom up)."""
        low_first = self.tiers[::-1]
        switches = [(t.total(self.pods), NAMES[t.role][1]) for t in low_first]
        links = [
            (t.total(self.pods) * t.up.count, NAMES[t.up.kind][1])
            for t in low_first
            if t.up is not None
        ]
        return Size(
            gpus=self.servers * self.nics,
            switches=sum(n for n, _ in switches),
            links=sum(n for n, _ in links),
            gpus_how=f"{self.servers:,} servers x {self.nics} NICs",
            switches_how=" + ".join(f"{n:,} {what}" for n, what in switches),
            links_how=" + ".join(f"{n:,} {what}" for n, what in links) or "none",
        )

    @cached_property
    def pools(self) -> Pools:
        size = self.size
        served = self.tiers[-1].total(self.pods) * self.rails_per_switch
        return Pools(
            size.switches + 1, 2 * size.links, served, rail_prefix(self.servers_per_switch)
        )

    def check_asns(self) -> None:
        """Every ASN fits in 32 bits, and no two tiers share one (the one home of this rule)."""
        spans = [
            (t, t.asn, t.asn.span(t.total(self.pods), self.pods))
            for t in self.tiers
            if t.asn is not None
        ]
        for _, asn, (_, last) in spans:
            if last > MAX_ASN:
                raise PlanError(("routing", asn.field), f"ASN plan runs past {MAX_ASN}")
        for i, (high, _, (h_lo, h_hi)) in enumerate(spans):
            for low, asn, (lo, hi) in spans[i + 1 :]:
                if lo <= h_hi and h_lo <= hi:
                    raise PlanError(
                        ("routing", asn.field), _collision(low, (lo, hi), high, max(lo, h_lo))
                    )


def _collision(low: Tier, span: tuple[int, int], high: Tier, clash: int) -> str:
    name = NAMES[low.role][0]
    if span[0] == span[1]:
        return f"{name} ASN {span[0]} collides with {NAMES[high.role][0]} ASN {clash}"
    return f"{name} ASNs {span[0]}-{span[1]} collide with {NAMES[high.role][0]} ASN {clash}"


def _given(value: T | None) -> T:
    # intent.checks refused the intent when this is missing (FabricShape.of runs them first).
    assert value is not None
    return value


def _serving(intent: Intent) -> tuple[int, int]:
    """(rails per server-facing switch, such switches per rail and pod)."""
    fab = intent.fabric
    if fab.topology == "single-switch":
        return fab.rails, 1
    return 1, fab.leaves_per_rail


def _tiers(intent: Intent) -> tuple[Tier, ...]:
    fab = intent.fabric
    server = fab.links.server_leaf
    if fab.topology == "single-switch":
        per_switch = intent.servers.count * fab.rails
        return (
            Tier(
                "switch",
                ("fabric", "switch"),
                _given(fab.switch),
                1,
                True,
                (per_switch, server.speed),
                None,
                None,
                ("servers", "count"),
                serves=True,
            ),
        )
    leaves = fab.rails * fab.leaves_per_rail
    leaf = _leaf(intent, leaves)
    spine = _spine(intent, leaves, leaf.up)
    if fab.pods == 1:
        return spine, leaf
    return _super_spine(intent, spine), spine, leaf


def _leaf(intent: Intent, leaves: int) -> Tier:
    fab, routing = intent.fabric, _given(intent.routing)
    up = Uplinks("leaf-spine", _given(fab.links.leaf_spine), fab.uplinks_per_spine, fab.spines)
    down = (
        math.ceil(intent.servers.count // fab.pods / fab.leaves_per_rail),
        fab.links.server_leaf.speed,
    )
    asn = Asn(routing.leaf_asn_base, "leaf_asn_base", per_switch=True)
    return Tier(
        "leaf",
        ("fabric", "leaf"),
        _given(fab.leaf),
        leaves,
        True,
        down,
        up,
        asn,
        ("fabric", "leaf", "model"),
        serves=True,
        per_rail=True,
    )


def _spine(intent: Intent, leaves: int, below: Uplinks | None) -> Tier:
    fab, routing = intent.fabric, _given(intent.routing)
    leaf_link = _given(below).link
    up = None
    if fab.pods > 1:
        per_plane = fab.super_spines // fab.spines if fab.super_spine_planes else fab.super_spines
        up = Uplinks(
            "spine-superspine",
            _given(fab.links.spine_superspine),
            fab.uplinks_per_super_spine,
            per_plane,
            fab.super_spine_planes,
        )
        asn = Asn(_given(routing.spine_asn), "spine_asn", per_pod=True)
    elif routing.spine_asn is not None:
        asn = Asn(routing.spine_asn, "spine_asn")
    else:
        asn = Asn(_given(routing.spine_asn_base), "spine_asn_base", per_switch=True)
    down = (leaves * fab.uplinks_per_spine, leaf_link.speed)
    return Tier(
        "spine",
        ("fabric", "spine"),
        _given(fab.spine),
        fab.spines,
        True,
        down,
        up,
        asn,
        ("fabric", "spine", "model"),
    )


def _super_spine(intent: Intent, spine: Tier) -> Tier:
    fab, up = intent.fabric, _given(spine.up)
    seats = fab.pods if up.planes else fab.pods * spine.count  # spines one super-spine faces
    asn = Asn(_given(_given(intent.routing).super_spine_asn), "super_spine_asn")
    return Tier(
        "superspine",
        ("fabric", "super_spine"),
        _given(fab.super_spine),
        fab.super_spines,
        False,
        (seats * up.per_parent, up.link.speed),
        None,
        asn,
        ("fabric", "super_spine", "model"),
    )
