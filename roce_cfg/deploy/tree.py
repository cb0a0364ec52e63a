"""Configs as trees of views and statements, the common ground of the push diff and the lab
emulators: read a saved config, apply CLI commands to it, print it in the vendor's layout, and
compute the commands that turn one tree into another.

Only what the vendor data says is needed (the profile's negation and its dialect,
platforms/dialect.py): which commands open a view, which settings a new value replaces, the
negation prefix, the command that leaves a view and the saved layout's framing.
"""

from __future__ import annotations

import copy
import functools
import re
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from roce_cfg.deploy import scope
from roce_cfg.deploy.node import Node
from roce_cfg.deploy.staged import Sides, around_edits
from roce_cfg.grammar import Command, Grammar, load_grammar
from roce_cfg.parse.blocks import split
from roce_cfg.parse.text import clean, fold_tails_redacted
from roce_cfg.platforms.profile import VendorProfile

# Node lives in deploy/node.py (deploy/scope.py reads trees too); it is still this module's
__all__ = ["Node", "Tree", "remediation", "undo"]


class Tree:
    def __init__(self, profile: VendorProfile) -> None:
        self.profile = profile
        self.root = Node("")
        self._views = [re.compile(p) for p in profile.dialect.views]
        # one pattern for the question asked of every line (a push's diff asks it 25,000 times)
        self._any_view = re.compile("|".join(f"(?:{p})" for p in profile.dialect.views))
        self._layout = [re.compile(p) for p in profile.parse.layout_lines]
        self._resets: frozenset[str] | None = None  # the grammar's, asked of every line applied

    def __deepcopy__(self, memo: dict[int, object]) -> Tree:
        twin = Tree.__new__(Tree)  # the profile and the compiled patterns are shared, not copied
        vars(twin).update(vars(self), root=copy.deepcopy(self.root, memo))
        return twin

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
        return self._any_view.match(line) is not None

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
            if self._reset(view, stack, line):
                continue
            if self.is_view(line):
                node = view.find(line)
                if node is None:
                    node = Node(line)
                    view.children.append(node)
                stack.append(node)
                continue
            self.set(view, line, tuple(n.line for n in stack[1:]))

    def _reset(self, view: Node, stack: list[Node], line: str) -> bool:
        """A line that returns a view below to its defaults ('default interface <port>': the
        grammar's ``resets``): the view is emptied and stays. False for any other line."""
        if self._resets is None:
            self._resets = _words(self.profile).resets
        if _first(line) not in self._resets:
            return False  # most lines: the view's walk below is not needed
        here = view_of(self.profile, tuple(n.line for n in stack[1:]), view)
        target = self.profile.grammar().reset_target(here, line)
        if target is None:
            return False
        node = view.find(target)
        if node is not None:
            node.children = []
        return True

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
            negated = neg + line
            replaced = [c for c in view.children if c.line == negated]
        single = self.profile.dialect.single_valued
        prefix = (
            next((p for p in single if line.startswith(p)), None)
            if line.startswith(single)
            else None
        )
        if prefix is not None:
            replaced += [c for c in view.children if c.line.startswith(prefix) and not c.children]
        if not replaced:  # most lines: new, or there already (no copy of the view's lines)
            if view.find(line) is None:
                view.children.append(Node(line))
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


def remediation(
    running: Tree, intended: Tree, prune: bool = False, full: bool = False, spent: bool = False
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
    after the last.

    ``spent``: the caller has no more use for ``running``, which is then changed in place (the
    working copy) instead of copied first."""
    had = [c.line for c in running.root.children]
    work = running.root if spent else copy.deepcopy(running.root)
    out = _diff(work, intended.root, intended.profile, (), prune, full)  # ``work`` as the switch
    profile = intended.profile
    sides = Sides(
        had,
        [c.line for c in intended.root.children],
        intended.is_view,
        profile.dialect,
        profile.negation,
    )
    for step in profile.lint.apply_steps:
        if step.locked:
            out = around_edits(out, step, sides)
    return out


class _Words(NamedTuple):
    """First words of grammar commands that a walk of a view's lines looks for."""

    sets: frozenset[str]  # a line that switches the view it is in ('port link-mode route')
    resets: frozenset[str]  # a line that returns a view to its defaults ('default interface')


def _words(profile: VendorProfile) -> _Words:
    return _grammar_words(profile.vendor.value, profile.overlay)


@functools.cache
def _grammar_words(vendor: str, overlay: Path | None) -> _Words:
    """``_words`` of the grammar ``VendorProfile.grammar`` loads for these."""
    commands = load_grammar(vendor, overlay).commands
    return _Words(
        frozenset(w for c in commands if c.sets for w in c.first),
        frozenset(w for c in commands if c.resets for w in c.first),
    )


def _first(line: str) -> str:
    """A line's first word, as the grammar indexes its commands."""
    words = line.split(maxsplit=1)
    return words[0] if words else ""


def view_of(profile: VendorProfile, path: tuple[str, ...], node: Node) -> str:
    """The grammar's view of ``node``, the view at ``path``: ``Grammar.view_of`` given only
    the lines that could switch it (it matches every line it is given against the grammar,
    for each view of each tree a push diffs, applies or prunes)."""
    sets = _words(profile).sets
    return profile.grammar().view_of(
        path, [c.line for c in node.children if _first(c.line) in sets]
    )


def undo(node: Node, path: tuple[str, ...], line: str, profile: VendorProfile) -> bool:
    """Apply an undo line typed in the view ``node`` (at ``path``): remove what the grammar's
    undo form removes there and in the views below. False when the grammar knows no undo form
    for the line (a setting in its own right such as 'undo shutdown', or an unknown line)."""
    grammar = profile.grammar()
    view = view_of(profile, path, node)
    taken = grammar.removes(view, line, profile.negation)
    if taken is None:
        return False
    _prune(node, path, view, taken, profile)
    return True


def _prune(
    node: Node,
    path: tuple[str, ...],
    view: str,
    taken: list[tuple[Command, dict[str, str]]],
    profile: VendorProfile,
) -> None:
    kept = []
    for c in node.children:
        if any(cmd.lives_in(view) and cmd.agrees(values, c.line) for cmd, values in taken):
            continue
        if c.children:
            sub = (*path, c.line)
            _prune(c, sub, view_of(profile, sub, c), taken, profile)
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
    wanted = {c.line for c in want.children}
    if all(c.line in wanted for c in have.children):
        # nothing to take away (a view typed from empty, or one as intended already, as in
        # the check after a push): what follows judges only running lines the intent lacks
        return _additions(have, want, profile, path, prune, full)
    neg = profile.negation
    grammar = profile.grammar()
    view = view_of(profile, path, have)
    kinds = scope.kinds(profile, path)
    ours = _scope(want, profile, kinds, prune, full, view)
    replaced = _replaced(want, profile.dialect.single_valued)
    renamed = [] if full else scope.renamed(have, want, profile, kinds)
    dropped, later = scope.dropped(have, want, profile, kinds), []
    out: list[str] = []
    flips: list[str] = []  # negated running lines, typed back positive ('switchport')
    # a full restore takes the running lines away last first: what a line depends on (a VLAN,
    # a WRED profile) is printed before it (its SVI, the ports using it)
    for c in list(reversed(have.children) if full else have.children):
        if c not in have.children or c.line in wanted or not ours(c.line) or c in renamed:
            continue  # gone with an earlier, wider undo line; wanted; not roce-cfg's
        if full and (c.children or _opens_view(c.line, profile)):  # an empty port view too
            out += _empty(have, c, grammar.undo_for(view, c.line, neg), profile, path)
            continue
        if c.children:
            continue  # a view of the same shape under another name (another VLAN): not ours
        if c.line.startswith(replaced):
            continue  # the new value replaces it; 'undo mtu 9000' is not even valid Comware
        if not (prune or full) and scope.additive(c.line, profile) is not None:
            continue  # its other members (VLANs) may serve what roce-cfg does not manage
        if _flip(have, c, want, flips, grammar, view, neg, full):
            continue
        if c in dropped:
            later.append(c)
        else:
            out += _remove(have, c, grammar, view, path, profile)
    out += flips  # after the removals: 'switchport' ends the Layer 3 view they are typed in
    out += _additions(have, want, profile, path, prune, full)
    for c in later:  # an object the intent drops goes after its dependents in the views below
        if c in have.children:
            out += _remove(have, c, grammar, view, path, profile)
    for c in renamed:  # the old one goes once the new one is in place
        out.append(_negation(grammar, view, c.line, neg))
    return out


def _replaced(want: Node, single: tuple[str, ...]) -> tuple[str, ...]:
    """The single-valued settings (``mtu ``) the intended view sets: a new value replaces the
    running one, which is not removed first."""
    return tuple(
        {
            p
            for c in want.children
            if c.line.startswith(single)
            for p in single
            if c.line.startswith(p)
        }
    )


def _flip(
    have: Node,
    c: Node,
    want: Node,
    flips: list[str],
    grammar: Grammar,
    view: str,
    neg: str,
    full: bool,
) -> bool:
    """Whether ``c`` is a state set back rather than removed: a negated line typed positive,
    or (full) a port state returned to what the snapshot has; the line to type goes to
    ``flips`` (none when the port is at that state already, or no source says it)."""
    settled, back = _unset(c, want, grammar, view, neg) if full else (False, None)
    if not (settled or c.line.startswith(neg)):
        return False
    positive = back if settled else c.line[len(neg) :]
    if positive is not None:
        flips.append(positive)
        have.children[have.children.index(c)] = Node(positive)
    return True


def _unset(c: Node, want: Node, grammar: Grammar, view: str, neg: str) -> tuple[bool, str | None]:
    """For a full-config restore: whether ``c`` is a port state ('no shutdown', 'no
    switchport') that the snapshot's view prints no form of, and the line that puts the port
    back to the state it has unset (the grammar's default: 'switchport'). Its opposite would be
    a guess ('shutdown' takes down a port that was up): None when the port is at that state
    already, or when no source says what it is (the restore then lists the line as left)."""
    two_state, rest = grammar.resting(view, c.line, neg)
    positive = c.line.removeprefix(neg)
    if not two_state or any(w.line.removeprefix(neg) == positive for w in want.children):
        return False, None
    return True, rest if rest != c.line else None


def _additions(
    have: Node, want: Node, profile: VendorProfile, path: tuple[str, ...], prune: bool, full: bool
) -> list[str]:
    """The intended lines the view lacks, in the intended order, and the changes inside each
    view below (in a full restore, a view that loses something is reset and typed again where
    the grammar can reset it)."""
    out: list[str] = []
    for w in want.children:
        h = have.find(w.line)
        if not w.children:
            if h is None and not scope.covered(w.line, have, profile):
                out.append(w.line)
            continue
        if h is not None and h.children == w.children:
            continue  # the same view, line for line: nothing to type (the check after a push)
        inner = _diff(
            h if h is not None else Node(w.line), w, profile, (*path, w.line), prune, full
        )
        again = _retyped(have, h, w, inner, profile, path) if full and h is not None else None
        if again is not None:
            out += again
        elif inner or h is None:
            out += [w.line, *inner, profile.dialect.view_exit]
    return out


def _scope(
    want: Node, profile: VendorProfile, kinds: scope.Kinds, prune: bool, full: bool, view: str
) -> Callable[[str], bool]:
    """Which running lines of the view remediation may change: the managed scope; in a full
    restore every line but one the switch does unconfigured (LLDP on: nothing to type)."""
    if full:
        grammar = profile.grammar()
        return lambda line: not grammar.restates_default(view, line)
    return scope.owner(want, profile, kinds, prune)


def _opens_view(line: str, profile: VendorProfile) -> bool:
    return any(re.match(p, line) for p in profile.dialect.views)


def _remove(
    have: Node, c: Node, grammar: Grammar, view: str, path: tuple[str, ...], profile: VendorProfile
) -> list[str]:
    """The negation of one running line, applied to the working copy as the switch would."""
    line = _negation(grammar, view, c.line, profile.negation)
    if not undo(have, path, line, profile):
        have.children.remove(c)
    return [line]


def _empty(
    have: Node, view: Node, undo_line: str | None, profile: VendorProfile, path: tuple[str, ...]
) -> list[str]:
    """A whole view the target lacks: removed by its undo form when it has one (a VLAN
    interface), else emptied line by line (a physical port stays, with nothing set)."""
    if undo_line is not None:
        have.children.remove(view)
        return [undo_line]
    reset = _reset_line(have, view, profile, path)
    if reset is not None:  # one sourced line instead of a negation per setting
        had, view.children = view.children, []
        return [reset] if had else []
    inner = _diff(view, Node(view.line), profile, (*path, view.line), True, True)
    return [view.line, *inner, profile.dialect.view_exit] if inner else []


def _reset_line(
    have: Node, view: Node, profile: VendorProfile, path: tuple[str, ...]
) -> str | None:
    """The grammar's line that returns ``view`` to its defaults, the view staying (RGOS
    'default interface <port>'), or None."""
    return profile.grammar().reset_for(view_of(profile, path, have), view.line)


def _retyped(
    have: Node, h: Node, w: Node, inner: list[str], profile: VendorProfile, path: tuple[str, ...]
) -> list[str] | None:
    """In a full restore, a view both configs have whose change takes something away: reset
    and typed again from the target where the grammar can reset it (one sourced line instead of
    a negation per setting); None keeps the change line by line."""
    exit_word, kept = profile.dialect.view_exit, {c.line for c in w.children}
    takes = [ln for ln in inner if ln != exit_word and ln not in kept]
    reset = _reset_line(have, h, profile, path) if takes else None
    if reset is None:
        return None
    fresh = _diff(Node(w.line), w, profile, (*path, w.line), False, True)
    h.children = copy.deepcopy(w.children)
    return [reset, w.line, *fresh, exit_word]
