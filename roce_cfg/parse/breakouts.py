"""Breakout: a port split into legs by a line in its own view (Comware 'using
twenty-fivegige' makes HundredGigE1/0/20 the legs Twenty-FiveGigE1/0/20:1-4 [CMW-ETH-CR]).

A leg is named by its parent's number and a lane ('<type><parent number>:<lane>'); the model
layout names most parents already (ports._breakout_parent), the split line names the rest,
on a model the profiles do not list. The split port carries no frames of its own: its legs do.
"""

from __future__ import annotations

from typing import Protocol

from roce_cfg.model.device import Interface
from roce_cfg.parse.names import Namer


class Context(Protocol):
    """What this module needs of the normaliser's context (parse/context.Context)."""

    @property
    def namer(self) -> Namer: ...

    def unreadable(self, reason: str, word: str, scope: str | None = None) -> None: ...


def split(ctx: Context, ports: list[Interface], words: dict[str, str]) -> list[Interface]:
    """``ports`` with each split port (``words``: port -> the leg type its line names) out of
    service and its legs knowing their parent."""
    if not words:
        return ports
    parents: dict[str, str] = {}
    for name in words:
        number = ctx.namer.name(name).number
        if ":" in number:
            # on a leg, the line joins the legs back: a command, not a state a config keeps
            ctx.unreadable(f"'using {words[name]}' on the breakout leg {name}", words[name], name)
            continue
        parents[number] = name
    out = []
    for port in ports:
        if port.name in parents.values():
            port = port.model_copy(update={"shutdown": True})
        elif port.breakout_of is None:
            base = ctx.namer.name(port.name).number.partition(":")
            if base[1] and base[0] in parents:
                port = port.model_copy(update={"breakout_of": parents[base[0]]})
        out.append(port)
    return out
