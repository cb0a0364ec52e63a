"""A ttp template of the plain shape read without ttp's general result machinery.

ttp builds its results match by match through a general engine (path tracing, dynamic paths,
defaults, validation, tail matches): about 6 us a match, 1,500 matches an xl port list, most of
the templates' cost. Every bundled template but a few is of one plain shape: top groups that
start on a line and take value lines, each with list groups of one line under it, the values
converted by ``to_int`` or set by ``set``. For such a template this module finds the matches
with ttp's own compiled regexes, in ttp's order, and builds the very result ttp builds (the
same dicts, keys in the same order) with the few of ttp's rules that apply to that shape:

* a group's value lines and its children are read from its first start line on;
* a value repeated in a group keeps the first one, except after a child line, where ttp
  merges the lines that follow into the group's last result (their values win);
* a non-list group of several starts becomes a list; an empty result is not kept.

Anything else — a template of another shape (an overlay may use any of ttp), a line two of a
template's regexes match, a start line that fails its ``set`` — and ``None`` is returned: the
caller runs ttp itself on that template. tests/test_parse_plain.py holds both to one result.
"""

from __future__ import annotations

import contextlib
import re
from dataclasses import dataclass
from typing import Any

Result = dict[str, Any]
_NAME = re.compile(r"[A-Za-z_][\w-]*")


# How one variable's matched text becomes its value: (result key, to_int, set's value and
# the exact line it needs, or None)
_Value = tuple[str, bool, tuple[Any, str] | None]


@dataclass(frozen=True, eq=False)  # one per template line: known by identity
class _Regex:
    regex: re.Pattern[str]
    start: bool
    values: dict[str, _Value]  # per regex group name (ttp's variable name), in ttp's order
    owner: int  # 0: the top group; n: its n-th child


@dataclass(frozen=True)
class _Group:
    key: str  # the top group's name (its path without the list mark)
    listed: bool
    starts: tuple[_Regex, ...]
    lines: tuple[_Regex, ...]
    children: tuple[str, ...]  # the list name of each child group (owner index - 1)
    child_regexes: tuple[_Regex, ...]


class Plain:
    """One template of the plain shape; ``read`` gives its result or None (ask ttp)."""

    def __init__(self, groups: tuple[_Group, ...]) -> None:
        self._groups = groups

    def read(self, feed: str) -> Result | None:
        text = "\n" + feed + "\n\n"  # as ttp frames its input
        results: Result = {}
        try:
            for group in self._groups:
                if not _read_group(group, text, results):
                    return None
        except _Unplain:
            return None
        return results


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
    groups = [_group(g) for g in template.groups]
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


def _group(group: Any) -> _Group | None:
    if not _bare(group) or len(group.path) != 1 or not group.start_re:
        return None
    key, listed = _path_item(group.path[0])
    if key is None:
        return None
    starts = [_regex(r, True, 0) for r in group.start_re]
    lines = [_regex(r, False, 0) for r in group.re]
    children: list[str] = []
    child_regexes: list[_Regex | None] = []
    for index, child in enumerate(group.children, 1):
        name, child_listed = _path_item(child.path[-1]) if len(child.path) == 2 else (None, False)
        if (
            name is None
            or not child_listed
            or child.path[0] != group.path[0]
            or not _bare(child)
            or child.children
            or child.re
            or len(child.start_re) != 1
        ):
            return None
        children.append(name)
        child_regexes.append(_regex(child.start_re[0], True, index))
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
    )


def _bare(group: Any) -> bool:
    """A group with nothing but lines: no functions, defaults, outputs, end lines, inputs."""
    return (
        group.method == "group"
        and not group.funcs
        and not group.outputs
        and not group.defaults
        and not group.runs
        and not group.has_start_re_default
        and not group.end_re
        and not group.inputs
    )


def _path_item(item: str) -> tuple[str | None, bool]:
    name = item.removesuffix("*")
    listed = item.endswith("*") and not name.endswith("*")
    # ttp names a group without a name '_anonymous_' and returns its results unnamed
    return (name if _NAME.fullmatch(name) and not name.startswith("_") else None), listed


def _regex(r: dict[str, Any], start: bool, owner: int) -> _Regex | None:
    if r["IS_LINE"] or r["ACTION"] != ("start" if start else "add") or not r["VARIABLES"]:
        return None
    values: dict[str, _Value] = {}
    for name, var in r["VARIABLES"].items():
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
        values[name] = (var.var_name_original, to_int, setting)
    return _Regex(r["REGEX"], start, values, owner)


class _Unplain(Exception):
    """A match this module does not read as ttp would: the template goes to ttp."""


# (regex, matched line) -> its result: a config repeats most of its port lines on every port,
# a fabric in every config. Bounded: a hostile config has as many lines as it likes.
_SEEN: dict[tuple[_Regex, str], Result | None] = {}
_UNSEEN: Result = {}
MAX_SEEN = 1_000  # 20,000 held 20 MB through the model of a 100,000-port config


def _result(r: _Regex, match: re.Match[str]) -> Result | None:
    """What ttp's check_matches makes of a match (a fresh dict: results are merged into);
    None where a set line is not the exact line (ttp's result False)."""
    key = (r, match.group())
    hit = _SEEN.get(key, _UNSEEN)  # one lookup: another thread's runner may clear it meanwhile
    if hit is _UNSEEN:
        hit = _converted(r, match)
        if len(_SEEN) >= MAX_SEEN:
            _SEEN.clear()
        _SEEN[key] = hit
    return None if hit is None else dict(hit)


def _converted(r: _Regex, match: re.Match[str]) -> Result | None:
    found: dict[str, Any] = match.groupdict() or dict.fromkeys(r.values, match.group())
    result: Result = {}
    for name, data in found.items():
        how = r.values.get(name)
        if how is None or data is None:
            raise _Unplain(name)
        original, to_int, setting = how
        if setting is not None:
            if data.rstrip() != setting[1]:
                return None
            data = setting[0]
        elif to_int:
            with contextlib.suppress(ValueError):  # ttp keeps the text (normalise reports it)
                data = int(data)
        result[original] = data
    return result


def _matches(group: _Group, text: str) -> list[tuple[int, _Regex, Result | None]] | None:
    """Every match of the group's regexes in ttp's order; None on a line two of them match."""
    found: dict[int, tuple[_Regex, Result | None]] = {}
    head = text[0:-1]
    first = -1
    for r in group.starts:
        for m in r.regex.finditer(head):
            at = m.start()
            if at in found:
                return None
            found[at] = (r, _result(r, m))
            first = at if first < 0 else min(first, at)
    if first < 0:
        return []
    body = text[first:-1]
    for r in (*group.lines, *group.child_regexes):
        for m in r.regex.finditer(body):
            at = first + m.start()
            if at in found:
                return None
            result = _result(r, m)
            if result is not None:  # ttp drops a value line whose set failed
                found[at] = (r, result)
    return [(at, *found[at]) for at in sorted(found)]


def _read_group(group: _Group, text: str, results: Result) -> bool:
    """The group's results into ``results`` as ttp saves them; False: ask ttp."""
    matches = _matches(group, text)
    if matches is None:
        return False
    if not matches:
        return True
    top: Result | None = None  # the group's result being read
    merging: Result | None = None  # lines after a child line: merged into the last result
    child: tuple[int, Result] | None = None
    for _at, r, result in matches:
        if result is None:  # a start line whose set failed: ttp ends the group
            return False
        if r.owner == 0 and r.start:
            _close(group, results, top, merging, child)
            top, merging, child = result, None, None
        elif r.owner == 0:
            if child is not None or merging is not None:
                _close(group, results, None, None, child)
                child = None
                merging = {**result, **(merging or {})}
            else:
                top = {**result, **(top or {})}
        else:
            _close(group, results, top, merging, child)
            top, merging, child = None, None, (r.owner, result)
    _close(group, results, top, merging, child)
    return True


def _close(
    group: _Group,
    results: Result,
    top: Result | None,
    merging: Result | None,
    child: tuple[int, Result] | None,
) -> None:
    """Save what is being read: a new result, lines merged into the last, or a child."""
    if top:
        current = results.get(group.key)
        if group.listed:
            results.setdefault(group.key, []).append(top)
        elif current is None or current == {}:
            results.setdefault(group.key, {}).update(top)
        elif isinstance(current, list):
            current.append(top)
        else:
            results[group.key] = [current, top]
    if merging:
        last = _last(results, group.key)
        for key, value in {**last, **merging}.items():
            last[key] = value
    if child is not None and child[1]:
        name = group.children[child[0] - 1]
        _last(results, group.key).setdefault(name, []).append(child[1])


def _last(results: Result, key: str) -> Result:
    current = results[key]
    last: Result = current[-1] if isinstance(current, list) else current
    return last
