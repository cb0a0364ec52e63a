"""A ttp template of the plain shape read without ttp's general result machinery.

ttp builds its results match by match through a general engine (path tracing, dynamic paths,
defaults, validation, tail matches): about 6 us a match, 1,500 matches an xl port list, most of
the templates' cost. Every bundled template is of one plain shape: top groups that start on a
line and take value lines, each with list groups of one line under it, the values converted by
``to_int``, set by ``set`` or renamed by ``replaceall`` (texts that name no variable ttp would
look them up among), defaults set on a line of their own. For such a
template this module finds the matches with ttp's own compiled regexes, in ttp's order, and
builds the very result ttp builds (the same dicts, keys in the same order) with the few of
ttp's rules that apply to that shape:

* a group's value lines and its children are read from its first start line on;
* a value repeated in a group keeps the first one, except after a child line, where ttp
  merges the lines that follow into the group's last result (their values win);
* a non-list group of several starts becomes a list; an empty result is not kept;
* a group's defaults go into each result it saves that lacks them (ttp's processgrp).

Anything else — a template of another shape (an overlay may use any of ttp), a line two of a
template's regexes match, a start line that fails its ``set`` — and ``None`` is returned: the
caller runs ttp itself on that template. tests/test_parse_plain.py holds both to one result.

ttp finds a regex's matches with ``finditer`` over the whole input. Where a regex provably
matches only from a line's newline and reads nothing past the line's own end (each bundled
one: the stdlib's parse of it says so), its match at a line depends on that line alone: the
lines are then read once for every template of a parser, each line tried only against the
regexes whose literal words it has, and what a line is to each group kept (from its second
time on) for the next config, which repeats most of its lines (``Readers``). Any other
regex: ``finditer``.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from roce_cfg.parse.line_regex import line_literals
from roce_cfg.parse.plain_results import Unplain, converted, outcome_of, read_results, searched
from roce_cfg.parse.plain_shape import (
    ASKED,
    ASKED_LATE,
    CHILD,
    LINE,
    NAME,
    START,
    Group,
    Outcome,
    Regex,
    Result,
    Scalar,
    Value,
)


class Plain:
    """One template of the plain shape; ``read`` gives its result or None (ask ttp)."""

    def __init__(self, groups: tuple[Group, ...]) -> None:
        self.groups = groups
        regexes = [r for g in groups for r in (*g.starts, *g.lines, *g.child_regexes)]
        self.local = all(r.prefix is not None for r in regexes)
        self._alone: Readers | None = None

    def read(self, feed: str) -> Result | None:
        if self._alone is None:
            self._alone = Readers([self])
        return self._alone.read(feed)[0]

    def search(self, feed: str) -> Result | None:
        """The result read as ttp finds matches: each regex searched over the whole text."""
        text = "\n" + feed + "\n\n"  # as ttp frames its input
        return read_results(self.groups, [searched(g, text) for g in self.groups])


@dataclass(frozen=True)
class Names:
    """What ttp may take a string argument of a template's function for instead of itself."""

    variables: Collection[str]  # the template's variables (ttp's own among them)
    # whether no template of the parser saves variables at run time (``record``, ``count``, a
    # macro's code) that ttp would look ``set``'s string up among
    unsaved: bool = True

    def literal(self, text: str) -> bool:
        return self.unsaved and text not in self.variables


def plains(templates: Sequence[Any]) -> list[Plain | None]:
    """Each template of one ttp parser as a ``Plain`` reader, or None (ttp reads it)."""
    unsaved = not any(_saves(t) for t in templates)
    return [plain(t, unsaved) for t in templates]


def _saves(template: Any) -> bool:
    """Whether the template may save ttp's global variables while it runs."""
    return (
        bool(template.macro)
        or any(_saves(t) for t in template.templates)
        or any(_group_saves(g) for g in template.groups)
    )


def _group_saves(group: Any) -> bool:
    regexes = (*group.start_re, *group.re, *group.end_re)
    functions = [
        *group.funcs,
        *(fn for r in regexes for var in r["VARIABLES"].values() for fn in var.functions),
    ]
    return any(fn["name"] in SAVING for fn in functions) or any(
        _group_saves(child) for child in group.children
    )


# ttp's functions that save a variable where another template's ``set`` looks it up
SAVING = frozenset({"record", "count"})


def plain(template: Any, unsaved: bool = True) -> Plain | None:
    """The template as a ``Plain`` reader, or None when it is not of the plain shape;
    ``unsaved``: no template of its parser saves ttp's global variables (``plains``)."""
    if (
        template.templates
        or template.inputs
        or template.outputs
        or template.lookups
        or template.macro
        or template.results_method != "per_input"
        or any(template.vars.get(k) for k in template.vars)
    ):
        return None
    names = Names(frozenset(template.vars), unsaved)
    groups = [_group(g, names) for g in template.groups]
    read = tuple(g for g in groups if g is not None)
    if len(read) != len(groups):
        return None
    for group in read:
        # groups of one name: all lists (their results join one list, in group order)
        if not group.listed and sum(g.key == group.key for g in read) > 1:
            return None
        if group.listed and any(g.key == group.key and not g.listed for g in read):
            return None
    return Plain(read)


def _group(group: Any, names: Names) -> Group | None:
    defaults = _defaults(group, names.variables)
    if defaults is None or len(group.path) != 1 or not group.start_re:
        return None
    key, listed = _path_item(group.path[0])
    if key is None:
        return None
    starts = [_regex(r, True, 0, "", names) for r in group.start_re]
    lines = [_regex(r, False, 0, "", names) for r in group.re]
    children: list[str] = []
    child_regexes: list[Regex | None] = []
    for index, child in enumerate(group.children, 1):
        name, child_listed = _path_item(child.path[-1]) if len(child.path) == 2 else (None, False)
        if (
            name is None
            or not child_listed
            or child.path[0] != group.path[0]
            or _defaults(child, names.variables) != ()
            or child.children
            or child.re
            or len(child.start_re) != 1
        ):
            return None
        children.append(name)
        child_regexes.append(_regex(child.start_re[0], True, index, name, names))
    found = [*starts, *lines, *child_regexes]
    if any(r is None for r in found):
        return None
    return Group(
        key,
        listed,
        tuple(r for r in starts if r is not None),
        tuple(r for r in lines if r is not None),
        tuple(children),
        tuple(r for r in child_regexes if r is not None),
        defaults,
    )


def _defaults(group: Any, variables: Collection[str]) -> tuple[tuple[str, Scalar], ...] | None:
    """The defaults of a group with nothing else but lines (no functions, outputs, end lines,
    inputs); None for any other group."""
    defaults = group.defaults
    bare = (
        group.method == "group"
        and not group.funcs
        and not group.outputs
        and group.runs in ({}, defaults)  # ttp's copy of them for a run
        and not group.has_start_re_default
        and not group.end_re
        and not group.inputs
        # a value of a template variable's name ttp replaces by the variable's value
        and all(isinstance(v, Scalar) and v not in variables for v in defaults.values())
    )
    return tuple(defaults.items()) if bare else None


def _path_item(item: str) -> tuple[str | None, bool]:
    name = item.removesuffix("*")
    listed = item.endswith("*") and not name.endswith("*")
    # ttp names a group without a name '_anonymous_' and returns its results unnamed
    return (name if NAME.fullmatch(name) and not name.startswith("_") else None), listed


def _regex(r: dict[str, Any], start: bool, owner: int, name: str, names: Names) -> Regex | None:
    if r["IS_LINE"] or r["ACTION"] != ("start" if start else "add") or not r["VARIABLES"]:
        return None
    values: dict[str, Value] = {}
    for var_name, var in r["VARIABLES"].items():
        value = _value(var, names)
        if value is None:
            return None
        values[var_name] = value
    kind = CHILD if owner else START if start else LINE
    regex = r["REGEX"]
    groups = regex.groupindex
    fields = None
    if groups and all(n in values for n in groups):
        fields = tuple((index - 1, values[n]) for n, index in groups.items())
    literals = line_literals(regex)
    prefix, need = literals if literals else (None, "")
    return Regex(regex, start, values, owner, kind, name, prefix, need, fields)


def _value(var: Any, names: Names) -> Value | None:
    """How a variable's match becomes its value: ``to_int``, ``set`` (a value on the exact
    line) or ``replaceall`` (texts replaced), None for any other function or mix of them.

    ttp looks a string argument of ``set`` or ``replaceall`` up among the template's variables
    first (``set`` also among those a ``record`` or ``count`` of the parser saved at run time):
    a string is read as itself only where it names none of them (``Names``)."""
    to_int, setting = False, None
    replaced: list[tuple[str, str]] = []
    for fn in var.functions:
        args, kwargs = fn["args"], fn["kwargs"]
        if fn["name"] == "to_int" and not args and not kwargs and not to_int:
            to_int = True
        elif (
            fn["name"] == "set"
            and setting is None
            and len(args) == 1
            and (not isinstance(args[0], str) or names.literal(args[0]))
            and set(kwargs) == {"match_line"}
        ):
            setting = (args[0], kwargs["match_line"])
        elif (
            fn["name"] == "replaceall"
            and args
            and not kwargs
            and all(isinstance(a, str) and a not in names.variables for a in args)
        ):
            new, olds = (args[0], args[1:]) if len(args) > 1 else ("", args)
            replaced.extend((old, new) for old in olds)
        else:
            return None
    if to_int + (setting is not None) + bool(replaced) > 1:
        return None
    return (var.var_name_original, to_int, setting, tuple(replaced))


# Lines whose outcomes a reader keeps: a config repeats most of its port lines on every port,
# a fabric in every config. Bounded: a hostile config has as many lines as it likes.
MAX_SEEN = 4_096
# What one line is to the groups: nothing (), one (group number, outcome), or a list of them
_Found = tuple[()] | tuple[int, Outcome] | list[tuple[int, Outcome]]


class Readers:
    """The plain templates of one parser, read together (None: not plain, ttp reads it)."""

    def __init__(self, plains: Sequence[Plain | None]) -> None:
        self._plains = list(plains)
        self._groups = [g for p in plains if p is not None and p.local for g in p.groups]
        entries: list[tuple[str, str, int, Regex]] = []  # per group, in ttp's order
        for number, group in enumerate(self._groups):
            for r in (*group.starts, *group.lines, *group.child_regexes):
                entries.append((r.prefix or "", r.need, number, r))
        self._entries = tuple(entries)
        self._by_word: dict[str, tuple[tuple[str, str, int, Regex], ...]] = {}
        self._seen: dict[str, _Found] = {}
        self._once = bytearray(1 << 16)
        self._marked = 0

    def read(self, feed: str) -> list[Result | None]:
        """Each template's result over ``feed``, or None where ttp must read it."""
        outcomes = self._outcomes(feed) if self._groups else []
        read: list[Result | None] = []
        at = 0
        for p in self._plains:
            if p is None:
                read.append(None)
            elif p.local:
                read.append(read_results(p.groups, outcomes[at : at + len(p.groups)]))
                at += len(p.groups)
            else:
                read.append(p.search(feed))
        return read

    def _outcomes(self, feed: str) -> list[list[Outcome]]:
        """Per group, its outcomes line by line: as ``searched`` finds them (the regexes
        read one line each), the line after the last one the end of ttp's text."""
        per_group: list[list[Outcome]] = [[] for _ in self._groups]
        add = [outcomes.append for outcomes in per_group]
        seen = self._seen
        get = seen.get
        for line in feed.split("\n"):
            found = get(line)
            if found is None:
                found = self._found(line)
                if self._again(line):
                    if len(seen) >= MAX_SEEN:
                        seen.clear()
                    seen[line] = found
            if isinstance(found, list):
                for number, outcome in found:
                    add[number](outcome)
            elif len(found) == 2:  # most lines: one group's (a tuple less to read)
                add[found[0]](found[1])
        end = self._found("", end=True)
        for number, outcome in end if isinstance(end, list) else [end] if len(end) == 2 else []:
            add[number](outcome)
        return per_group

    def _again(self, line: str) -> bool:
        """Whether the line was read before (or one of the same hash), marking it read.

        A line is kept from its second time on: most lines a config has once (its
        neighbours, descriptions, addresses) no other config has, and freeing thousands of
        kept results at once cost more than reading them."""
        once = self._once
        at = hash(line) % len(once)
        if once[at]:
            return True
        once[at] = 1
        self._marked += 1
        if self._marked > len(once) // 4:  # the marks of the last configs only
            self._marked = 0
            once[:] = bytes(len(once))
        return False

    def _tried(self, word: str) -> tuple[tuple[str, str, int, Regex], ...]:
        """The regexes a line of this first word (before a space) may start with the literal
        text of: those of any prefix of the word, and of longer text that starts with it."""
        tried = self._by_word.get(word)
        if tried is None:
            tried = tuple(
                e for e in self._entries if word.startswith(e[0]) or e[0].startswith(word)
            )
            if len(self._by_word) >= MAX_SEEN:
                self._by_word.clear()
            self._by_word[word] = tried
        return tried

    def _found(self, line: str, end: bool = False) -> _Found:
        """What the line (followed by a newline, but at the ``end``) is to each group."""
        framed = "\n" if end else "\n" + line + "\n"
        word = line.partition(" ")[0]
        tried = self._by_word.get(word)
        matched: list[tuple[int, Regex, re.Match[str]]] = []
        for prefix, need, number, r in self._tried(word) if tried is None else tried:
            if line.startswith(prefix) and need in line:
                m = r.regex.match(framed)
                if m is not None:
                    matched.append((number, r, m))
        if not matched:
            return ()
        if len(matched) == 1:  # most lines: one regex of one group (outcome_of's one-match case)
            number, r, m = matched[0]
            try:
                result = converted(r, m)
            except Unplain:
                return (number, ASKED if r.kind == START else ASKED_LATE)
            if result is not None:
                return (number, (r.kind, r.name, result))
            return (number, ASKED) if r.kind == START else ()
        found: list[tuple[int, Outcome]] = []
        for number in dict.fromkeys(n for n, _, _ in matched):  # each group once, in order
            outcome = outcome_of([(r, m) for n, r, m in matched if n == number])
            if outcome is not None:
                found.append((number, outcome))
        return found
