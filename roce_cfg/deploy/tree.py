"""Configs as trees of views and statements, the common ground of the push diff and the lab
emulators: read a saved config, apply CLI commands to it, print it in the vendor's layout, and
compute the commands that turn one tree into another.

Only what the vendor data says is needed (the profile's negation and its dialect,
platforms/dialect.py): which commands open a view, which settings a new value replaces, the
negation prefix, the command that leaves a view and the saved layout's framing.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from roce_cfg.deploy.staged import Sides, around_edits
from roce_cfg.grammar import Command, Grammar
from roce_cfg.model import numbers
from roce_cfg.parse.blocks import split
from roce_cfg.parse.text import clean, fold_tails_redacted
from roce_cfg.platforms.profile import ManagedObject, VendorProfile


@dataclass
class Node:
    line: str
    children: list[Node] = field(default_factory=list)

    def find(self, line: str) -> Node | None:
        return next((c for c in self.children if c.line == line), None)


class Tree:
    def __init__(self, profile: VendorProfile) -> None:
        self.profile = profile
        self.root = Node("")
        self._views = [re.compile(p) for p in profile.dialect.views]
        self._layout = [re.compile(p) for p in profile.parse.layout_lines]

    # -- reading ---------------------------------------------------------------------------
    @classmethod
    def from_text(cls, text: str, profile: VendorProfile) -> Tree:
        tree = cls(profile)
        # Separators stay: '#' at column 0 ends a Comware view, and the global command after
        # it is indented one space like the view's own lines (split drops them itself).
        lines = [
            ln for ln in clean(text) if not any(p.match(ln.text.strip()) for p in tree._layout)
        ]
        # a folded secret's tail is never a statement of the tree (printed in push plans)
        known = [re.compile(p) for p in profile.parse.known_blocks]
        lines = fold_tails_redacted(
            lines, profile.vendor.value, profile.parse.wrap_width, known + tree._layout
        )
        tree._load(tree.root, lines)
        return tree

    def _load(self, parent: Node, lines: list) -> None:  # type: ignore[type-arg]
        for block in split(lines):
            node = Node(block.header.text.strip())
            parent.children.append(node)
            if block.body:
                depth = min(ln.indent for ln in block.body)
                body = [type(ln)(ln.no, ln.text[depth:]) for ln in block.body]
                self._load(node, body)

    # -- applying commands -----------------------------------------------------------------
    def is_view(self, line: str) -> bool:
        return any(p.match(line) for p in self._views)

    def view_kind(self, line: str) -> int | None:
        return next((i for i, p in enumerate(self._views) if p.match(line)), None)

    def apply(self, commands: list[str]) -> None:
        stack = [self.root]
        dialect = self.profile.dialect
        for raw in commands:
            line = raw.strip()
            if not line or line in dialect.enter:
                continue
            if line == dialect.view_exit:
                if len(stack) > 1:
                    stack.pop()
                continue
            if line in dialect.leave:
                stack = [self.root]
                continue
            view = stack[-1]
            if self.is_view(line):
                node = view.find(line)
                if node is None:
                    node = Node(line)
                    view.children.append(node)
                stack.append(node)
                continue
            self.set(view, line, tuple(n.line for n in stack[1:]))

    def set(self, view: Node, line: str, path: tuple[str, ...] = ()) -> None:
        """One statement in a view (at ``path``). A new value takes the place of the one it
        replaces, as a switch prints settings in its own fixed order, not in the order they
        were typed; an undo form removes what the grammar says it removes."""
        neg = self.profile.negation
        if line.startswith(neg) and undo(view, path, line, self.profile):
            return
        if line.startswith(neg):
            target = line[len(neg) :]
            # 'undo port default vlan' clears 'port default vlan 101' (values dropped)
            gone = [c for c in view.children if c.line == target or c.line.startswith(target + " ")]
            if gone:
                view.children = [c for c in view.children if c not in gone]
                return
            # 'undo shutdown' and the like are settings in their own right.
            replaced = [c for c in view.children if c.line == target]
        else:
            replaced = [c for c in view.children if c.line == neg + line]
        prefix = next((p for p in self.profile.dialect.single_valued if line.startswith(p)), None)
        if prefix is not None:
            replaced += [c for c in view.children if c.line.startswith(prefix) and not c.children]
        if view.find(line) is not None and not replaced:
            return
        at = min((view.children.index(c) for c in replaced), default=len(view.children))
        view.children = [c for c in view.children if c not in replaced and c.line != line]
        view.children.insert(min(at, len(view.children)), Node(line))

    # -- printing --------------------------------------------------------------------------
    def render(self) -> str:
        """The tree as the switch prints it, framed as the dialect says."""
        frame = self.profile.dialect.framing
        out = list(frame.head)
        for node in self.root.children:
            if frame.before_block is not None:
                out.append(frame.before_block)
            out.append(("" if node.children else frame.statement_indent) + node.line)
            out += self._children(node, 1, frame.indent, frame.view_end)
            if node.children and frame.view_end is not None:
                out.append(frame.view_end)
            if frame.after_block is not None:
                out.append(frame.after_block)
        out += frame.tail
        return "\n".join(out) + "\n"

    def _children(
        self, node: Node, depth: int, unit: str, terminator: str | None = None
    ) -> list[str]:
        out: list[str] = []
        for c in node.children:
            out.append(unit * depth + c.line)
            out += self._children(c, depth + 1, unit, terminator)
            if c.children and terminator:
                out.append(unit * depth + terminator)
        return out


# A value or a list of them ('3 4', '101 to 104', '101 102 to 110'): one setting's values.
_VALUES = re.compile(r"\d+(?:\s+(?:to\s+)?\d+)*(?![\w.:/-])|\d+")


def _key(line: str, neg: str) -> str:
    """What a line sets, without its values or negation: 'peer # as-number #', 'shutdown'.
    A list of values is one value, so a set-valued setting ('priority 3 4', a VLAN list) has
    the shape of its one-value form ('priority 3') and a new list replaces the old one."""
    return _VALUES.sub("#", line[len(neg) :] if line.startswith(neg) else line)


def remediation(
    running: Tree, intended: Tree, prune: bool = False, full: bool = False
) -> list[str]:
    """Commands that bring ``running`` to ``intended`` for everything roce-cfg manages.

    Which running lines are managed is the vendor's ``managed`` scope (see ``_owner``); other
    lines and views are left alone. Within a view, removals come first, then additions in the
    intended order (tables before their users, no-drop before the watchdog, as the templates
    order them). ``prune`` also removes objects of a managed kind the intent does not name.
    Each removal is the grammar's undo form of the line; what that form takes with it (a wider
    form, such as Huawei's 'undo peer <ip>') is typed again where the intent has it.

    ``full`` manages everything: the result is ``intended`` exactly, views included (a
    full-config restore to a snapshot).

    Staged settings the vendor locks once applied (``apply_steps``: Comware's data buffer) are
    changed the one way the switch takes: the apply lifted before the first edit, typed again
    after the last."""
    work = copy.deepcopy(running.root)  # the switch as the commands leave it, view by view
    out = _diff(work, intended.root, intended.profile, (), prune, full)
    profile = intended.profile
    sides = Sides(
        [c.line for c in running.root.children],
        [c.line for c in intended.root.children],
        intended.is_view,
        profile.dialect,
        profile.negation,
    )
    for step in profile.lint.apply_steps:
        if step.locked:
            out = around_edits(out, step, sides)
    return out


def undo(node: Node, path: tuple[str, ...], line: str, profile: VendorProfile) -> bool:
    """Apply an undo line typed in the view ``node`` (at ``path``): remove what the grammar's
    undo form removes there and in the views below. False when the grammar knows no undo form
    for the line (a setting in its own right such as 'undo shutdown', or an unknown line)."""
    grammar = profile.grammar()
    view = grammar.view_of(path, [c.line for c in node.children])
    taken = grammar.removes(view, line, profile.negation)
    if taken is None:
        return False
    _prune(node, path, view, taken, grammar)
    return True


def _prune(
    node: Node,
    path: tuple[str, ...],
    view: str,
    taken: list[tuple[Command, dict[str, str]]],
    grammar: Grammar,
) -> None:
    kept = []
    for c in node.children:
        if any(cmd.lives_in(view) and cmd.agrees(values, c.line) for cmd, values in taken):
            continue
        if c.children:
            sub = (*path, c.line)
            _prune(c, sub, grammar.view_of(sub, [x.line for x in c.children]), taken, grammar)
        kept.append(c)
    node.children = kept


def _negation(grammar: Grammar, view: str, line: str, neg: str) -> str:
    """The grammar's undo form of a running line; without one, the negation word before the
    whole line (a form the grammar cannot vouch for: the lab's strict mode refuses it)."""
    return grammar.undo_for(view, line, neg) or neg + line


def _diff(
    have: Node,
    want: Node,
    profile: VendorProfile,
    path: tuple[str, ...],
    prune: bool,
    full: bool = False,
) -> list[str]:
    """``have`` is the working copy of the running view: it is changed as the commands would
    change the switch, so the additions see what the removals took."""
    neg = profile.negation
    grammar = profile.grammar()
    view = grammar.view_of(path, [c.line for c in have.children])
    ours = _scope(want, profile, path, prune, full, view)
    wanted = {c.line for c in want.children}
    single = profile.dialect.single_valued
    replaced = {p for p in single for c in want.children if c.line.startswith(p)}
    renamed = [] if full else _renamed(have, want, profile, path)
    dropped, later = _dropped(have, want, profile, path), []
    out: list[str] = []
    flips: list[str] = []  # negated running lines, typed back positive ('switchport')
    for c in list(have.children):
        if c not in have.children or c.line in wanted or not ours(c.line) or c in renamed:
            continue  # gone with an earlier, wider undo line; wanted; not roce-cfg's
        if full and (c.children or _opens_view(c.line, profile)):  # an empty port view too
            out += _empty(have, c, grammar.undo_for(view, c.line, neg), profile, path)
            continue
        if c.children:
            continue  # a view of the same shape under another name (another VLAN): not ours
        if any(c.line.startswith(p) for p in replaced):
            continue  # the new value replaces it; 'undo mtu 9000' is not even valid Comware
        if not (prune or full) and _additive(c.line, profile) is not None:
            continue  # its other members (VLANs) may serve what roce-cfg does not manage
        if c.line.startswith(neg):
            positive = c.line[len(neg) :]
            flips.append(positive)
            have.children[have.children.index(c)] = Node(positive)
            continue
        if c in dropped:
            later.append(c)
        else:
            out += _remove(have, c, grammar, view, path, profile)
    out += flips  # after the removals: 'switchport' ends the Layer 3 view they are typed in
    for w in want.children:
        h = have.find(w.line)
        if not w.children:
            if h is None and not _covered(w.line, have, profile):
                out.append(w.line)
            continue
        inner = _diff(
            h if h is not None else Node(w.line), w, profile, (*path, w.line), prune, full
        )
        if inner or h is None:
            out += [w.line, *inner, profile.dialect.view_exit]
    for c in later:  # an object the intent drops goes after its dependents in the views below
        if c in have.children:
            out += _remove(have, c, grammar, view, path, profile)
    for c in renamed:  # the old one goes once the new one is in place
        out.append(_negation(grammar, view, c.line, neg))
    return out


def _scope(
    want: Node, profile: VendorProfile, path: tuple[str, ...], prune: bool, full: bool, view: str
) -> Callable[[str], bool]:
    """Which running lines of the view remediation may change: the managed scope; in a full
    restore every line but one the switch does unconfigured (LLDP on: nothing to type)."""
    if full:
        grammar = profile.grammar()
        return lambda line: not grammar.restates_default(view, line)
    return _owner(want, profile, path, prune)


def _opens_view(line: str, profile: VendorProfile) -> bool:
    return any(re.match(p, line) for p in profile.dialect.views)


# What an additive line lists (VLANs today); its own domain is the grammar's business.
_MEMBERS = numbers.Domain("member", 0, 4_294_967_295)


def _additive(line: str, profile: VendorProfile) -> str | None:
    """The additive prefix ('vlan batch ') a line starts with, if any."""
    return next((p for p in profile.dialect.additive if line.startswith(p)), None)


def _covered(line: str, have: Node, profile: VendorProfile) -> bool:
    """Whether the members an additive line adds are all in the view's lines of its kind
    already (Huawei prints every VLAN in one 'vlan batch' line, ours among them)."""
    prefix = _additive(line, profile)
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


def _remove(
    have: Node, c: Node, grammar: Grammar, view: str, path: tuple[str, ...], profile: VendorProfile
) -> list[str]:
    """The negation of one running line, applied to the working copy as the switch would."""
    line = _negation(grammar, view, c.line, profile.negation)
    if not undo(have, path, line, profile):
        have.children.remove(c)
    return [line]


def _dropped(have: Node, want: Node, profile: VendorProfile, path: tuple[str, ...]) -> list[Node]:
    """Statements naming an object the intended view does not name (a BGP peer --prune
    removes): removed after the views below, so a peer's address-family lines go first."""
    neg = profile.negation
    kinds = _kinds(profile, path)
    named = {_object(kinds, c.line, neg) for c in want.children}
    return [
        c
        for c in have.children
        if not c.children
        and not c.line.startswith(neg)
        and (name := _object(kinds, c.line, neg)) is not None
        and name not in named
    ]


def _empty(
    have: Node, view: Node, undo_line: str | None, profile: VendorProfile, path: tuple[str, ...]
) -> list[str]:
    """A whole view the target lacks: removed by its undo form when it has one (a VLAN
    interface), else emptied line by line (a physical port stays, with nothing set)."""
    if undo_line is not None:
        have.children.remove(view)
        return [undo_line]
    inner = _diff(view, Node(view.line), profile, (*path, view.line), True, True)
    return [view.line, *inner, profile.dialect.view_exit] if inner else []


# -- managed scope: which running lines are roce-cfg's ---------------------------------------
# Kept apart from the diff so that the scope rules (data: vendors/<vendor>.yaml 'managed') and
# the negation forms can change independently.


def _owner(
    want: Node, profile: VendorProfile, path: tuple[str, ...], prune: bool
) -> Callable[[str], bool]:
    """Whether a running line of the view at ``path``, absent from the intent, is roce-cfg's.

    A line is a candidate when the intended view has a line of the same shape (same words, any
    numbers). If it names an object (a managed kind: BGP peer, VLAN, interface), it is ours only
    when the intended view names the same object; ``prune`` also takes objects the intent does
    not name, where the kind allows it."""
    neg = profile.negation
    shapes = {_key(c.line, neg) for c in want.children}
    kinds = _kinds(profile, path)
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


def _renamed(have: Node, want: Node, profile: VendorProfile, path: tuple[str, ...]) -> list[Node]:
    """Running objects of a kind that renames (data: ``renames`` in managed.objects) that the
    intent no longer names, while it adds one of the same kind and shape: 'vlan 101' when the
    rail VLAN becomes 201, with its VLAN interface. An unrelated VLAN (another shape) stays."""
    neg = profile.negation
    kinds = _kinds(profile, path)
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


def _ours_to_rename(
    gone: list[Node], profile: VendorProfile, neg: str, kinds: list[ManagedObject]
) -> list[Node]:
    """An additive line ('vlan batch 200 201') renames only when every member it lists is the
    number of another object renamed with it (the VLAN interface of a moved rail VLAN): a list
    of VLANs nothing else of ours names serves what roce-cfg does not manage."""
    plain = [c for c in gone if _additive(c.line, profile) is None]
    named = {
        int(n)
        for c in plain
        if (name := _object(kinds, c.line, neg)) is not None
        for n in re.findall(r"\d+", name[1])
    }
    kept = []
    for c in gone:
        prefix = _additive(c.line, profile)
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


def _kinds(profile: VendorProfile, path: tuple[str, ...]) -> list[ManagedObject]:
    """The object kinds of the view at ``path`` (its enclosing view lines, outermost first)."""
    return [
        o
        for o in profile.managed.objects
        if len(o.within) == len(path)
        and all(re.match(w, p) for w, p in zip(o.within, path, strict=True))
    ]


def _object(kinds: list[ManagedObject], line: str, neg: str) -> tuple[int, str] | None:
    """(kind, key) of the object a line names, or None; a negated line names the same one."""
    text = line[len(neg) :] if line.startswith(neg) else line
    for i, kind in enumerate(kinds):
        m = re.match(kind.line, text)
        if m:
            return i, m.group("key")
    return None
