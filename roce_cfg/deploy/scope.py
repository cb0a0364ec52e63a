"""The managed scope of a remediation: which running lines are roce-cfg's to change.

Kept apart from the diff (deploy/tree.py) so that the scope rules (data: vendors/<vendor>.yaml
'managed') and the negation forms can change independently. A line that names an object (a
BGP peer, a VLAN, an interface) is roce-cfg's only when the intended view names the same
object; an additive line ('vlan batch 200 201') adds members beside others roce-cfg does not
manage."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

from roce_cfg.deploy.node import Node
from roce_cfg.model import numbers
from roce_cfg.platforms.profile import ManagedObject, VendorProfile

# A value or a list of them ('3 4', '101 to 104', '101 102 to 110'): one setting's values.
_VALUES = re.compile(r"\d+(?:\s+(?:to\s+)?\d+)*(?![\w.:/-])|\d+")
# the vendor data's patterns, compiled once (re's own cache is a lookup too, per line and kind)
_pattern = functools.cache(re.compile)
# The object kinds of one view: ``kinds``, found once per view a remediation diffs.
Kinds = list[ManagedObject]


@functools.lru_cache(maxsize=1 << 16)  # asked of every line of every view twice a push
def _key(line: str, neg: str) -> str:
    """What a line sets, without its values or negation: 'peer # as-number #', 'shutdown'.
    A list of values is one value, so a set-valued setting ('priority 3 4', a VLAN list) has
    the shape of its one-value form ('priority 3') and a new list replaces the old one."""
    return _VALUES.sub("#", line[len(neg) :] if line.startswith(neg) else line)


# What an additive line lists (VLANs today); its own domain is the grammar's business.
_MEMBERS = numbers.Domain("member", 0, 4_294_967_295)


def additive(line: str, profile: VendorProfile) -> str | None:
    """The additive prefix ('vlan batch ') a line starts with, if any."""
    return next((p for p in profile.dialect.additive if line.startswith(p)), None)


def covered(line: str, have: Node, profile: VendorProfile) -> bool:
    """Whether the members an additive line adds are all in the view's lines of its kind
    already (Huawei prints every VLAN in one 'vlan batch' line, ours among them)."""
    prefix = additive(line, profile)
    if prefix is None:
        return False
    try:
        there = numbers.merge(
            r
            for c in have.children
            if c.line.startswith(prefix) and not c.children
            for r in numbers.parse(c.line[len(prefix) :], _MEMBERS)
        )
        wanted = numbers.parse(line[len(prefix) :], _MEMBERS)
    except numbers.NumberError:
        return False  # a list we cannot read: type the line (adding a member twice is harmless)
    return all(any(lo <= a and b <= hi for lo, hi in there) for a, b in wanted)


def dropped(have: Node, want: Node, profile: VendorProfile, kinds: Kinds) -> list[Node]:
    """Statements naming an object the intended view does not name (a BGP peer --prune
    removes): removed after the views below, so a peer's address-family lines go first.
    ``kinds``: the object kinds of the view (``kinds``)."""
    if not kinds:
        return []
    neg = profile.negation
    named = {_object(kinds, c.line, neg) for c in want.children}
    return [
        c
        for c in have.children
        if not c.children
        and not c.line.startswith(neg)
        and (name := _object(kinds, c.line, neg)) is not None
        and name not in named
    ]


def owner(want: Node, profile: VendorProfile, kinds: Kinds, prune: bool) -> Callable[[str], bool]:
    """Whether a running line of the view at ``path``, absent from the intent, is roce-cfg's.

    A line is a candidate when the intended view has a line of the same shape (same words, any
    numbers). If it names an object (a managed kind: BGP peer, VLAN, interface), it is ours only
    when the intended view names the same object; ``prune`` also takes objects the intent does
    not name, where the kind allows it."""
    neg = profile.negation
    shapes = {_key(c.line, neg) for c in want.children}
    named = {n for c in want.children if (n := _object(kinds, c.line, neg)) is not None}

    def ours(line: str) -> bool:
        if _key(line, neg) not in shapes:
            return False
        name = _object(kinds, line, neg)
        if name is None or name in named:
            return True
        return prune and kinds[name[0]].prune

    return ours


def _shape(node: Node, neg: str) -> tuple[str, frozenset[str]]:
    return _key(node.line, neg), frozenset(_key(c.line, neg) for c in node.children)


def renamed(have: Node, want: Node, profile: VendorProfile, kinds: Kinds) -> list[Node]:
    """Running objects of a kind that renames (data: ``renames`` in managed.objects) that the
    intent no longer names, while it adds one of the same kind and shape: 'vlan 101' when the
    rail VLAN becomes 201, with its VLAN interface. An unrelated VLAN (another shape) stays."""
    if not any(k.renames for k in kinds):
        return []
    neg = profile.negation
    have_names = {_object(kinds, c.line, neg) for c in have.children}
    want_names = {_object(kinds, c.line, neg) for c in want.children}
    new = {
        _shape(w, neg)
        for w in want.children
        if (name := _object(kinds, w.line, neg)) is not None
        and kinds[name[0]].renames
        and name not in have_names
    }
    gone = [
        c
        for c in have.children
        if (name := _object(kinds, c.line, neg)) is not None
        and kinds[name[0]].renames
        and name not in want_names
        and _shape(c, neg) in new
    ]
    return _ours_to_rename(gone, profile, neg, kinds)


def _ours_to_rename(gone: list[Node], profile: VendorProfile, neg: str, kinds: Kinds) -> list[Node]:
    """An additive line ('vlan batch 200 201') renames only when every member it lists is the
    number of another object renamed with it (the VLAN interface of a moved rail VLAN): a list
    of VLANs nothing else of ours names serves what roce-cfg does not manage."""
    plain = [c for c in gone if additive(c.line, profile) is None]
    named = {
        int(n)
        for c in plain
        if (name := _object(kinds, c.line, neg)) is not None
        for n in re.findall(r"\d+", name[1])
    }
    kept = []
    for c in gone:
        prefix = additive(c.line, profile)
        if prefix is None or _within(c.line[len(prefix) :], named):
            kept.append(c)
    return kept


def _within(listed: str, named: set[int]) -> bool:
    try:
        ranges = numbers.parse(listed, _MEMBERS)
    except numbers.NumberError:
        return False
    if sum(b - a + 1 for a, b in ranges) > len(named):
        return False  # more members than objects renamed: some are not ours
    return all(n in named for a, b in ranges for n in range(a, b + 1))


def kinds(profile: VendorProfile, path: tuple[str, ...]) -> Kinds:
    """The object kinds of the view at ``path`` (its enclosing view lines, outermost first)."""
    return [
        o
        for o in profile.managed.objects
        if len(o.within) == len(path)
        and all(_pattern(w).match(p) for w, p in zip(o.within, path, strict=True))
    ]


def _object(kinds: Kinds, line: str, neg: str) -> tuple[int, str] | None:
    """(kind, key) of the object a line names, or None; a negated line names the same one."""
    text = line[len(neg) :] if line.startswith(neg) else line
    for i, kind in enumerate(kinds):
        m = _pattern(kind.line).match(text)
        if m:
            return i, m.group("key")
    return None
