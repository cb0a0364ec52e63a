"""A push plan in a few lines per switch: the config lines it adds and removes, section by
section, where a section is a kind of view (every port's interface view is one section) or the
global statements. The dry run prints this by default; the unified diff stays for reading in
full (push --diff full, --diff-file)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from roce_cfg.deploy.tree import Node, Tree

GLOBAL = "global"


@dataclass(frozen=True)
class SectionChange:
    """``section``: ``global`` (statements outside any view), or the words the changed views'
    first lines share (``interface`` for every port, ``bgp 65001`` for the one BGP view);
    ``views``: how many views of it the push changes; ``added``/``removed``: config lines,
    the view's own first line included, the layout's framing (``#``, ``!``) not."""

    section: str
    views: int
    added: int
    removed: int


def section_changes(before: Tree, after: Tree) -> list[SectionChange]:
    """What turns ``before`` into ``after``, per section, in the order the sections first
    appear (``after`` first, then what only ``before`` had); unchanged sections left out."""
    groups: dict[tuple[str, ...], dict[str, tuple[list[Node], list[Node]]]] = {}
    for side, tree in enumerate((after, before)):
        for node in tree.root.children:
            views = groups.setdefault(_kind(tree, node), {})
            views.setdefault(node.line, ([], []))[side].append(node)
    found = []
    for kind, views in groups.items():
        # counted view by view: a view's lines all begin with its own first line, so the
        # section's lines added and removed are the sums of its views'
        touched, added, removed = [], 0, 0
        for line, (now, then) in views.items():
            if now == then:
                continue  # the same lines in the same order (most views, after a push)
            if not (now and then):  # a view new or gone: every line of it
                more, less = _size(now), _size(then)
            else:
                a, b = _counted(now), _counted(then)
                if a == b:
                    continue  # the same lines, in another order
                more, less = sum((a - b).values()), sum((b - a).values())
            touched.append(line)
            added, removed = added + more, removed + less
        if touched:
            views_changed = 0 if kind == (GLOBAL,) else len(touched)
            found.append(SectionChange(_label(kind, touched), views_changed, added, removed))
    return found


def _counted(nodes: list[Node]) -> Counter[tuple[str, ...]]:
    lines: Counter[tuple[str, ...]] = Counter()
    for node in nodes:
        lines.update(_paths(node, ()))
    return lines


def _size(nodes: list[Node]) -> int:
    """How many lines ``nodes`` hold, theirs and those below them."""
    return sum(1 + _size(n.children) for n in nodes)


def _kind(tree: Tree, node: Node) -> tuple[str, ...]:
    """Which section a top-level line opens: its view kind (the dialect's view patterns), a
    block of its own, or the global statements."""
    kind = tree.view_kind(node.line)
    if kind is not None:
        return ("view", str(kind))
    return ("block", node.line) if node.children else (GLOBAL,)


def _paths(node: Node, at: tuple[str, ...]) -> list[tuple[str, ...]]:
    """Each line of ``node`` with the views above it: a view's lines are its own."""
    here = (*at, node.line)
    return [here, *(p for child in node.children for p in _paths(child, here))]


def _label(kind: tuple[str, ...], headers: list[str]) -> str:
    """``global``, or the words every changed view's first line begins with (the whole line
    when one view changed): ``interface`` for ports 1/0/1 and 1/0/2."""
    if kind == (GLOBAL,):
        return GLOBAL
    shared = []
    for words in zip(*(h.split() for h in headers), strict=False):
        if len(set(words)) > 1:
            break
        shared.append(words[0])
    return " ".join(shared) or headers[0]
