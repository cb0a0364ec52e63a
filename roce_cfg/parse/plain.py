"""A ttp template of the plain shape read without ttp's general result machinery.

ttp builds its results match by match through a general engine (path tracing, dynamic paths,
defaults, validation, tail matches): about 6 us a match, 1,500 matches an xl port list, most of
the templates' cost. Every bundled template but a few is of one plain shape: top groups that
start on a line and take value lines, each with list groups of one line under it, the values
converted by ``to_int`` or set by ``set``, defaults set on a line of their own. For such a
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

import importlib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

Result = dict[str, Any]
# What a line is to a group: a start, value or child line, or ttp must read the template: at
# once (a start line ttp reads otherwise), or if the group has started by then
_START, _LINE, _CHILD, _ASK, _ASK_LATE = range(5)
_NAME = re.compile(r"[A-Za-z_][\w-]*")


# How one variable's matched text becomes its value: (result key, to_int, set's value and
# the exact line it needs, or None)
_Value = tuple[str, bool, tuple[Any, str] | None]
_Scalar = str | int | float | bool | None


@dataclass(frozen=True, eq=False)  # one per template line: known by identity
class _Regex:
    regex: re.Pattern[str]
    start: bool
    values: dict[str, _Value]  # per regex group name (ttp's variable name), in ttp's order
    owner: int  # 0: the top group; n: its n-th child
    kind: int  # _START, _LINE or _CHILD
    name: str  # a child's list name
    prefix: str | None  # the text a match has after its newline; None: may read other lines
    need: str  # other text every match has (its longest), or ""
    # (index in match.groups(), value) per regex group, in ttp's order; None: no such groups,
    # or one that is no variable (an overlay's own named group)
    fields: tuple[tuple[int, _Value], ...] | None


@dataclass(frozen=True)
class _Group:
    key: str  # the top group's name (its path without the list mark)
    listed: bool
    starts: tuple[_Regex, ...]
    lines: tuple[_Regex, ...]
    children: tuple[str, ...]  # the list name of each child group (owner index - 1)
    child_regexes: tuple[_Regex, ...]
    # values each result has unless a line gives them ('{{ table | set("x") }}' on its own)
    defaults: tuple[tuple[str, _Scalar], ...]


class Plain:
    """One template of the plain shape; ``read`` gives its result or None (ask ttp)."""

    def __init__(self, groups: tuple[_Group, ...]) -> None:
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
        return _results(self.groups, [_searched(g, text) for g in self.groups])


def plain(template: Any) -> Plain | None:
    """The template as a ``Plain`` reader, or None when it is not of the plain shape."""
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
    groups = [_group(g, template.vars) for g in template.groups]
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


def _group(group: Any, variables: dict[str, Any]) -> _Group | None:
    defaults = _defaults(group, variables)
    if defaults is None or len(group.path) != 1 or not group.start_re:
        return None
    key, listed = _path_item(group.path[0])
    if key is None:
        return None
    starts = [_regex(r, True, 0, "") for r in group.start_re]
    lines = [_regex(r, False, 0, "") for r in group.re]
    children: list[str] = []
    child_regexes: list[_Regex | None] = []
    for index, child in enumerate(group.children, 1):
        name, child_listed = _path_item(child.path[-1]) if len(child.path) == 2 else (None, False)
        if (
            name is None
            or not child_listed
            or child.path[0] != group.path[0]
            or _defaults(child, variables) != ()
            or child.children
            or child.re
            or len(child.start_re) != 1
        ):
            return None
        children.append(name)
        child_regexes.append(_regex(child.start_re[0], True, index, name))
    found = [*starts, *lines, *child_regexes]
    if any(r is None for r in found):
        return None
    return _Group(
        key,
        listed,
        tuple(r for r in starts if r is not None),
        tuple(r for r in lines if r is not None),
        tuple(children),
        tuple(r for r in child_regexes if r is not None),
        defaults,
    )


def _defaults(group: Any, variables: dict[str, Any]) -> tuple[tuple[str, _Scalar], ...] | None:
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
        and all(isinstance(v, _Scalar) and v not in variables for v in defaults.values())
    )
    return tuple(defaults.items()) if bare else None


def _path_item(item: str) -> tuple[str | None, bool]:
    name = item.removesuffix("*")
    listed = item.endswith("*") and not name.endswith("*")
    # ttp names a group without a name '_anonymous_' and returns its results unnamed
    return (name if _NAME.fullmatch(name) and not name.startswith("_") else None), listed


def _regex(r: dict[str, Any], start: bool, owner: int, name: str) -> _Regex | None:
    if r["IS_LINE"] or r["ACTION"] != ("start" if start else "add") or not r["VARIABLES"]:
        return None
    values: dict[str, _Value] = {}
    for var_name, var in r["VARIABLES"].items():
        to_int, setting = False, None
        for fn in var.functions:
            if fn["name"] == "to_int" and not fn["args"] and not fn["kwargs"] and not to_int:
                to_int = True
            elif (
                fn["name"] == "set"
                and setting is None
                and len(fn["args"]) == 1
                and not isinstance(fn["args"][0], str)  # a string may name a template variable
                and set(fn["kwargs"]) == {"match_line"}
            ):
                setting = (fn["args"][0], fn["kwargs"]["match_line"])
            else:
                return None
        if to_int and setting is not None:
            return None
        values[var_name] = (var.var_name_original, to_int, setting)
    kind = _CHILD if owner else _START if start else _LINE
    regex = r["REGEX"]
    names = regex.groupindex
    fields = None
    if names and all(n in values for n in names):
        fields = tuple((index - 1, values[n]) for n, index in names.items())
    literals = _line_literals(regex)
    prefix, need = literals if literals else (None, "")
    return _Regex(regex, start, values, owner, kind, name, prefix, need, fields)


# The stdlib's own parse of a regex (what re.compile reads), to prove what a match can read;
# a private module: where a Python has none, or another shape of it, every regex is searched
# as ttp searches it (_line_literals).
try:
    _SRE: Any = importlib.import_module("re._parser")
except ImportError:  # pragma: no cover - CPython 3.11 to 3.13 have it
    _SRE = None


def _line_literals(regex: re.Pattern[str]) -> tuple[str, str] | None:
    """The literal text right after the newline a match starts with, and the longest other
    literal text it has, where the regex provably matches only from a newline and never reads
    past the line's end but for its newline; None where not."""
    if regex.flags & re.DOTALL or _SRE is None:  # '.' would read the newline
        return None
    try:
        items = list(_SRE.parse(regex.pattern, regex.flags))
        if not items or items[0] != (_SRE.LITERAL, 10) or not _in_line(items[1:]):
            return None
    except Exception:  # not provable: the regex is searched as ttp does
        return None
    if regex.flags & re.IGNORECASE:
        return "", ""
    # the regex's own literals, anything else a newline (which none of them is)
    text = "".join(chr(arg) if op is _SRE.LITERAL else "\n" for op, arg in items[1:])
    prefix, *others = text.split("\n")
    return prefix, max(others, key=len, default="")


def _in_line(items: Sequence[tuple[Any, Any]]) -> bool:
    """Nothing of ``items`` consumes a newline or looks before the match (a whitelist)."""
    for op, arg in items:
        if op is _SRE.LITERAL:
            ok = arg != 10
        elif op is _SRE.ANY:  # without DOTALL (checked)
            ok = True
        elif op is _SRE.IN:
            ok = all(_no_newline(*item) for item in arg)
        elif op is _SRE.MAX_REPEAT or op is _SRE.MIN_REPEAT:
            ok = _in_line(arg[2])
        elif op is _SRE.SUBPATTERN:  # no flags of its own: (?s:.) would read newlines
            ok = not arg[1] and not arg[2] and _in_line(arg[3])
        elif op is _SRE.BRANCH:
            ok = all(_in_line(alt) for alt in arg[1])
        elif op is _SRE.ASSERT:  # a lookahead that reads up to the line's newline at most
            ok = arg[0] == 1 and _to_newline(arg[1])
        else:  # lookbehind, anchors, atomic groups, conditionals...
            ok = op is _SRE.GROUPREF  # the same text again: no newline in it
        if not ok:
            return False
    return True


def _no_newline(op: Any, arg: Any) -> bool:
    """A character class item that cannot be a newline."""
    if op is _SRE.LITERAL:
        return bool(arg != 10)
    if op is _SRE.RANGE:
        return not arg[0] <= 10 <= arg[1]
    return op is _SRE.CATEGORY and arg in (
        _SRE.CATEGORY_DIGIT,
        _SRE.CATEGORY_NOT_SPACE,
        _SRE.CATEGORY_WORD,
    )


def _to_newline(items: Sequence[tuple[Any, Any]]) -> bool:
    """Literals (or alternatives of them) with a newline only last: ttp's (?=\\n|\\r\\n)."""
    if len(items) == 1 and items[0][0] is _SRE.BRANCH:
        return all(_to_newline(alt) for alt in items[0][1][1])
    return all(op is _SRE.LITERAL and (arg != 10 or i == len(items) - 1)
               for i, (op, arg) in enumerate(items))  # fmt: skip


class _Unplain(Exception):
    """A match this module does not read as ttp would: the template goes to ttp."""


def _converted(r: _Regex, match: re.Match[str]) -> Result | None:
    """What ttp's check_matches makes of a match; None where a set line is not the exact line
    (ttp's result False). Never changed once made: results are made of copies of it."""
    fields: Sequence[tuple[int, _Value | None]]
    if r.fields is None:
        found: dict[str, Any] = match.groupdict() or dict.fromkeys(r.values, match.group())
        texts: Sequence[str | None] = list(found.values())
        fields = [(index, r.values.get(name)) for index, name in enumerate(found)]
    else:  # as groupdict() gives them, without the dict
        texts, fields = match.groups(), r.fields
    result: Result = {}
    for index, how in fields:
        data = texts[index]
        if how is None or data is None:
            raise _Unplain(data)
        original, to_int, setting = how
        if setting is None:
            result[original] = _to_int(data) if to_int else data
        elif data.rstrip() == setting[1]:
            result[original] = setting[0]
        else:
            return None
    return result


def _to_int(text: str) -> int | str:
    try:
        return int(text)
    except ValueError:  # ttp keeps the text (normalise reports it)
        return text


# What one line is to one group: (kind, a child's list name, the match's result)
_Outcome = tuple[int, str, Result]
# ttp must read the template: at once (on a start line), or once the group has started
_ASKED: _Outcome = (_ASK, "", {})
_ASKED_LATE: _Outcome = (_ASK_LATE, "", {})


def _outcome(matched: Sequence[tuple[_Regex, re.Match[str]]]) -> _Outcome | None:
    """What a line (position) the regexes of one group ``matched``, in ttp's order, is to it.

    ttp's rules of one position: every start line counts, and a second regex on it or its
    failed set ends the plain reading; a value or child line counts from the group's first
    start on, a second regex on it too, and a failed set drops it."""
    hit: _Outcome | None = None
    for r, match in matched:
        if hit is not None:
            return _ASKED if hit[0] == _START else _ASKED_LATE
        try:
            result = _converted(r, match)
        except _Unplain:
            return _ASKED if r.kind == _START else _ASKED_LATE
        if result is not None:
            hit = (r.kind, r.name, result)
        elif r.kind == _START:
            return _ASKED
    return hit


def _searched(group: _Group, text: str) -> list[_Outcome]:
    """The group's outcomes, position by position, as ttp finds them (``finditer``)."""
    found: dict[int, list[tuple[_Regex, re.Match[str]]]] = {}
    for r in group.starts:
        for m in r.regex.finditer(text, 0, len(text) - 1):
            found.setdefault(m.start(), []).append((r, m))
    if not found:
        return []
    first = min(found)
    body = text[first:-1]  # ttp reads a group's other lines from its first start on
    for r in (*group.lines, *group.child_regexes):
        for m in r.regex.finditer(body):
            found.setdefault(first + m.start(), []).append((r, m))
    outcomes = (_outcome(found[at]) for at in sorted(found))
    return [o for o in outcomes if o is not None]


# Lines whose outcomes a reader keeps: a config repeats most of its port lines on every port,
# a fabric in every config. Bounded: a hostile config has as many lines as it likes.
MAX_SEEN = 4_096
# What one line is to the groups: nothing (), one (group number, outcome), or a list of them
_Found = tuple[()] | tuple[int, _Outcome] | list[tuple[int, _Outcome]]


class Readers:
    """The plain templates of one parser, read together (None: not plain, ttp reads it)."""

    def __init__(self, plains: Sequence[Plain | None]) -> None:
        self._plains = list(plains)
        self._groups = [g for p in plains if p is not None and p.local for g in p.groups]
        entries: list[tuple[str, str, int, _Regex]] = []  # per group, in ttp's order
        for number, group in enumerate(self._groups):
            for r in (*group.starts, *group.lines, *group.child_regexes):
                entries.append((r.prefix or "", r.need, number, r))
        self._entries = tuple(entries)
        self._by_word: dict[str, tuple[tuple[str, str, int, _Regex], ...]] = {}
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
                read.append(_results(p.groups, outcomes[at : at + len(p.groups)]))
                at += len(p.groups)
            else:
                read.append(p.search(feed))
        return read

    def _outcomes(self, feed: str) -> list[list[_Outcome]]:
        """Per group, its outcomes line by line: as ``_searched`` finds them (the regexes
        read one line each), the line after the last one the end of ttp's text."""
        per_group: list[list[_Outcome]] = [[] for _ in self._groups]
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

    def _tried(self, word: str) -> tuple[tuple[str, str, int, _Regex], ...]:
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
        matched: list[tuple[int, _Regex, re.Match[str]]] = []
        for prefix, need, number, r in self._tried(word) if tried is None else tried:
            if line.startswith(prefix) and need in line:
                m = r.regex.match(framed)
                if m is not None:
                    matched.append((number, r, m))
        if not matched:
            return ()
        if len(matched) == 1:  # most lines: one regex of one group (_outcome's one-match case)
            number, r, m = matched[0]
            try:
                result = _converted(r, m)
            except _Unplain:
                return (number, _ASKED if r.kind == _START else _ASKED_LATE)
            if result is not None:
                return (number, (r.kind, r.name, result))
            return (number, _ASKED) if r.kind == _START else ()
        found: list[tuple[int, _Outcome]] = []
        for number in dict.fromkeys(n for n, _, _ in matched):  # each group once, in order
            outcome = _outcome([(r, m) for n, r, m in matched if n == number])
            if outcome is not None:
                found.append((number, outcome))
        return found


def _results(groups: Sequence[_Group], outcomes: Sequence[list[_Outcome]]) -> Result | None:
    results: Result = {}
    for group, found in zip(groups, outcomes, strict=True):
        if not _read_group(group, found, results):
            return None
    return results


def _read_group(group: _Group, outcomes: list[_Outcome], results: Result) -> bool:
    """The group's results into ``results`` as ttp saves them; False: ask ttp.

    ttp merges each value line's result under the ones before: a value keeps its first line,
    the keys go in the order of their last line. A child line goes to the last result saved,
    and the value lines after it are merged into that result (their values win)."""
    started = False
    top: list[Result] | None = None  # the lines of a result not saved yet
    merging: list[Result] | None = None
    last: Result = {}  # the result saved last
    for kind, name, result in outcomes:
        if kind == _LINE:
            if not started:
                continue  # ttp reads a group's lines from its first start line on
            if top is not None:
                top.append(result)
            elif merging is not None:
                merging.append(result)
            else:
                merging = [result]
        elif kind == _CHILD:
            if not started:
                continue
            if top is not None:
                last, top = _save(group, results, top), None
            elif merging is not None:
                _merge(last, merging)
                merging = None
            if result:
                last.setdefault(name, []).append(dict(result))
        elif kind == _START:
            if top is not None:
                _save(group, results, top)
            elif merging is not None:
                _merge(last, merging)
                merging = None
            top, started = [result], True
        elif kind == _ASK or started:
            return False
    if top is not None:
        _save(group, results, top)
    elif merging is not None:
        _merge(last, merging)
    return True


def _save(group: _Group, results: Result, lines: list[Result]) -> Result:
    """A new result saved, made of its lines; the dict that holds it."""
    top: Result = {}
    for part in reversed(lines):
        top.update(part)
    for key, value in group.defaults:  # as ttp's processgrp adds them
        top.setdefault(key, value)
    current = results.get(group.key)
    if group.listed:
        results.setdefault(group.key, []).append(top)
    elif current is None or current == {}:
        results[group.key] = top
    elif isinstance(current, list):
        current.append(top)
    else:
        results[group.key] = [current, top]
    return top


def _merge(last: Result, lines: list[Result]) -> None:
    for part in reversed(lines):
        last.update(part)
