"""Which ports share a port section's text: the ``iface`` attributes a section reads, and from
them a key telling one port's input to the section from another's. A 128-port switch renders
each port section 128 times with two or three distinct inputs; the text of each distinct input
is rendered once."""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter

import jinja2
from jinja2 import nodes
from pydantic import BaseModel

from roce_cfg.model.device import Interface


def section_reads(source: str, env: jinja2.Environment) -> tuple[str, ...] | None:
    """The ``iface`` attributes a port section reads, or None when it uses ``iface`` otherwise
    (bare, subscripted, passed on), so that its output can be reused for every port that agrees
    on those attributes."""
    if source in _READS:
        return _READS[source]
    tree = env.parse(source)
    attrs = [
        g.attr
        for g in tree.find_all(nodes.Getattr)
        if isinstance(g.node, nodes.Name) and g.node.name == "iface"
    ]
    names = sum(1 for n in tree.find_all(nodes.Name) if n.name == "iface")
    found = _READS[source] = tuple(sorted(set(attrs))) if names == len(attrs) else None
    return found


# source -> what it reads: the same sections are parsed again by every Renderer of a process
_READS: dict[str, tuple[str, ...] | None] = {}


SectionKey = Callable[[Interface], object]
# Interface fields holding a frozen model (PortQos): ports of one kind share one object, so a
# port section's input is told by the object's identity, not by hashing every field of it.
_BY_IDENTITY = frozenset(
    name
    for name, f in Interface.model_fields.items()
    if isinstance(f.annotation, type) and issubclass(f.annotation, BaseModel)
)


def section_key(reads: tuple[str, ...] | None) -> SectionKey | None:
    """What tells one port's input to a section from another's: the attributes it reads."""
    if reads is None:
        return None
    if not reads:
        return lambda iface: ()
    if not _BY_IDENTITY.intersection(reads):
        return attrgetter(*reads)
    if len(reads) == 1:
        (attr,) = reads
        return lambda iface: id(getattr(iface, attr))
    kinds = [(a, a in _BY_IDENTITY) for a in reads]
    return lambda iface: tuple(
        id(getattr(iface, a)) if by_id else getattr(iface, a) for a, by_id in kinds
    )
