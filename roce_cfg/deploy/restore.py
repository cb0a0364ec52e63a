"""Back to the snapshot after a failed push, and the check that it is true.

A switch returns to its state before the push by the vendor's own restore point where a source
documents one (``restore`` in the dialect: Huawei's ``rollback configuration last 1``, Comware's
``configuration replace file`` of the file saved before the push), else by a full-config
restore: every line the push left, objects and views included, is undone from the snapshot
(Ruijie, ZTE; said so in the outcome). Either way the whole running config is then compared
with the snapshot, so "rolled back" is only said when it is true.

The comparison is order-insensitive within a view (a switch prints its settings in its own
order, not as typed), and a view with nothing in it is the same as none where the grammar
knows no undo form for it (a physical port is always there); a view with an undo form (a VLAN,
a VLAN interface) exists when it is printed.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from roce_cfg.deploy.node import Node
from roce_cfg.deploy.tree import Tree
from roce_cfg.grammar import Grammar
from roce_cfg.platforms.profile import VendorProfile


@dataclass
class Snapshot:
    """The switch before the push: its running config, and its saved one when readable."""

    running: str
    saved: str | None = None


def _paths(
    node: Node, path: tuple[str, ...], keep: set[tuple[str, ...]], grammar: Grammar
) -> list[tuple[str, ...]]:
    """Every statement under ``node`` with its views; a line that only restates the switch's
    default (LLDP on) is left out, printed or not it is the same."""
    view = grammar.view_of(path, [c.line for c in node.children])
    out: list[tuple[str, ...]] = []
    for c in node.children:
        here = (*path, c.line)
        if c.children:
            out += _paths(c, here, keep, grammar)
        elif grammar.restates_default(view, c.line):
            continue
        if not c.children or here in keep:
            out.append(here)
    return out


def _objects(tree: Tree) -> set[tuple[str, ...]]:
    """Views whose presence matters on their own: those the grammar can remove (undo form)."""
    profile = tree.profile
    grammar = profile.grammar()
    out: set[tuple[str, ...]] = set()

    def walk(node: Node, path: tuple[str, ...]) -> None:
        view = grammar.view_of(path, [c.line for c in node.children])
        for c in node.children:
            if c.children or tree.is_view(c.line):
                if grammar.undo_for(view, c.line, profile.negation) is not None:
                    out.add((*path, c.line))
                walk(c, (*path, c.line))

    walk(tree.root, ())
    return out


def lines(text: str, profile: VendorProfile) -> Counter[tuple[str, ...]]:
    """A config as a multiset of statements, each with the views it is in."""
    tree = Tree.from_text(text, profile)
    keep = _objects(tree)
    counted: Counter[tuple[str, ...]] = Counter()
    for p in _paths(tree.root, (), keep, profile.grammar()):
        if tree.is_view(p[-1]) and p not in keep:
            continue  # an empty physical port: printed or not, the same
        if _at_default(tree, p):
            continue  # a port state at its default ('switchport'): printed or not, the same
        counted[p] += 1
    return counted


def _at_default(tree: Tree, path: tuple[str, ...]) -> bool:
    if len(path) < 2 or tree.is_view(path[-1]):
        return False
    grammar = tree.profile.grammar()
    node = tree.root
    for line in path[:-1]:
        found = node.find(line)
        if found is None:
            return False
        node = found
    view = grammar.view_of(path[:-1], [c.line for c in node.children])
    return grammar.resting(view, path[-1], tree.profile.negation) == (True, path[-1])


def differences(before: str, now: str, profile: VendorProfile) -> list[str]:
    """How ``now`` differs from ``before``: '+ view > line' added since, '- ...' gone since;
    empty when they are the same config (order within a view aside)."""
    a, b = lines(before, profile), lines(now, profile)
    added = sorted((b - a).elements())
    removed = sorted((a - b).elements())
    return [f"- {' > '.join(p)}" for p in removed] + [f"+ {' > '.join(p)}" for p in added]
