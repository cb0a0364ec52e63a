"""The fabric rules on what the configs point at that no link explains (RC311-RC314)."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterator

from roce_cfg import evidence
from roce_cfg.analysis.context import FabricView
from roce_cfg.analysis.registry import Hit, rule

# --- what the configs point at that no link explains (roce_cfg/evidence.py): 'cannot verify'
# findings. A neighbour the user did not give is info, a link roce-cfg could not find between
# configs it read is a warning; --require-verified fails on both, and 'deadlock' never says "no
# cycle" over them (its exit code is 1 while one stands).


# the rule of each kind of gap (lint's rules below; deadlock reports the same findings)
GAP_RULES = {
    "bgp-peer": "RC311",
    "description": "RC312",
    "lossless-port": "RC313",
    "peer-link": "RC314",
}


def gap_hits(
    gaps: list[evidence.Gap], kind: str, text_of: Callable[[str], str | None]
) -> Iterator[Hit]:
    """One 'cannot verify' hit per switch and kind of gap, however many ports or peers a
    missing neighbour leaves unexplained (linting one switch alone leaves all of them)."""
    per: dict[str, list[evidence.Gap]] = defaultdict(list)
    for g in gaps:
        if g.kind == kind:
            per[g.device].append(g)
    for device, mine in sorted(per.items()):
        more = f" (and {len(mine) - 1} more)" if len(mine) > 1 else ""
        text = text_of(device)
        line = _line_naming(text, mine[0].what.split()[2]) if kind == "bgp-peer" and text else None
        ports = [g.port for g in mine if g.port]
        listed = f"; ports: {', '.join(ports)}" if len(ports) > 1 else ""
        yield Hit(
            f"cannot verify: {mine[0].what}{more}{listed}",
            device=device,
            port=ports[0] if ports else None,
            line=line,
            detail=tuple(g.what for g in mine),
        )


def _fabric_gaps(f: FabricView, kind: str) -> Iterator[Hit]:
    gaps = list(f.facts.gaps) if f.facts is not None else []
    return gap_hits(gaps, kind, lambda d: f.devices[d].text if d in f.devices else None)


@rule(
    "RC311",
    "bgp-peer-on-no-link",
    "info",
    "fabric",
    summary="cannot verify: a BGP peer's address is on no link found in the configs read.",
    rationale="Traffic to that peer crosses a link whose far end, policy and losslessness no "
    "rule has seen; deadlock analysis routes without it. Reporting the rest as clean would be "
    "an all-clear about a fabric the analysis did not see whole.",
    fix="Add the far switch's config (or fabric.json); remove the session if the peer is gone.",
    limits="Sessions are matched by the far end's interface address (ports, aggregates, VLAN "
    "interfaces); multihop sessions to loopbacks are reported too.",
    verifies=False,
)
def bgp_peer_on_no_link(f: FabricView) -> Iterator[Hit]:
    yield from _fabric_gaps(f, "bgp-peer")


def _line_naming(text: str, address: str) -> int | None:
    """The first BGP line naming ``address`` (peer / neighbor)."""
    word = re.compile(rf"^\s*(peer|neighbor)\s+{re.escape(address)}(?![\d.])")
    return next((n for n, ln in enumerate(text.splitlines(), 1) if word.match(ln)), None)


@rule(
    "RC312",
    "described-far-end-unmatched",
    "warning",
    "fabric",
    summary="cannot verify: a port's description names a switch of the fabric, but no link to "
    "that switch was found.",
    rationale="The description says the port is cabled to a switch whose config was read, yet "
    "neither addresses nor descriptions join them: a link the analysis does not see.",
    fix="Correct the description, or the addressing of the two ends, or add fabric.json.",
    verifies=False,
)
def described_far_end_unmatched(f: FabricView) -> Iterator[Hit]:
    yield from _fabric_gaps(f, "description")


@rule(
    "RC313",
    "lossless-port-unknown-neighbour",
    "info",
    "fabric",
    summary="cannot verify: a lossless routed port faces a neighbour whose config was not read.",
    rationale="PFC and the no-drop class must agree at both ends of a lossless link; with the "
    "far end unread neither that nor the deadlock-freedom of the routes over it can be checked.",
    fix="Add the neighbour's config (or fabric.json), or turn PFC off on a port that is not "
    "part of the lossless fabric.",
    verifies=False,
)
def lossless_port_unknown_neighbour(f: FabricView) -> Iterator[Hit]:
    yield from _fabric_gaps(f, "lossless-port")


@rule(
    "RC314",
    "mlag-peer-link-unpaired",
    "info",
    "fabric",
    summary="cannot verify: an M-LAG peer-link whose other switch was not found.",
    rationale="Lossless traffic crosses the peer-link (single-homed hosts, a leaf that lost its "
    "uplinks); unpaired, its far end's PFC and its place in the buffer graph are unknown.",
    fix="Add the other M-LAG switch's config; its peer-link pairs by a shared dual-active "
    "gateway or a description naming this switch.",
    verifies=False,
)
def mlag_peer_link_unpaired(f: FabricView) -> Iterator[Hit]:
    yield from _fabric_gaps(f, "peer-link")
