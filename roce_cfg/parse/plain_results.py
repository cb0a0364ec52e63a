"""ttp's result of a plain template built from its matches, with the few of ttp's rules that apply
to the plain shape (parse/plain.py lists them): a match's values converted, what the matches at
one line are to a group, and the group's results saved and merged as ttp saves and merges them.
Where a match is not read as ttp would read it, the template goes to ttp.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from roce_cfg.parse.plain_shape import (
    ASK,
    ASKED,
    ASKED_LATE,
    CHILD,
    LINE,
    START,
    Group,
    Outcome,
    Regex,
    Result,
    Value,
)


class Unplain(Exception):
    """A match this module does not read as ttp would: the template goes to ttp."""


def converted(r: Regex, match: re.Match[str]) -> Result | None:
    """What ttp's check_matches makes of a match; None where a set line is not the exact line
    (ttp's result False). Never changed once made: results are made of copies of it."""
    fields: Sequence[tuple[int, Value | None]]
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
            raise Unplain(data)
        original, to_int, setting, replaced = how
        if setting is None:
            for old, new in replaced:
                data = data.replace(old, new)
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


def outcome_of(matched: Sequence[tuple[Regex, re.Match[str]]]) -> Outcome | None:
    """What a line (position) the regexes of one group ``matched``, in ttp's order, is to it.

    ttp's rules of one position: every start line counts, and a second regex on it or its
    failed set ends the plain reading; a value or child line counts from the group's first
    start on, a second regex on it too, and a failed set drops it."""
    hit: Outcome | None = None
    for r, match in matched:
        if hit is not None:
            return ASKED if hit[0] == START else ASKED_LATE
        try:
            result = converted(r, match)
        except Unplain:
            return ASKED if r.kind == START else ASKED_LATE
        if result is not None:
            hit = (r.kind, r.name, result)
        elif r.kind == START:
            return ASKED
    return hit


def searched(group: Group, text: str) -> list[Outcome]:
    """The group's outcomes, position by position, as ttp finds them (``finditer``)."""
    found: dict[int, list[tuple[Regex, re.Match[str]]]] = {}
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
    outcomes = (outcome_of(found[at]) for at in sorted(found))
    return [o for o in outcomes if o is not None]


def read_results(groups: Sequence[Group], outcomes: Sequence[list[Outcome]]) -> Result | None:
    results: Result = {}
    for group, found in zip(groups, outcomes, strict=True):
        if not _read_group(group, found, results):
            return None
    return results


def _read_group(group: Group, outcomes: list[Outcome], results: Result) -> bool:
    """The group's results into ``results`` as ttp saves them; False: ask ttp.

    ttp merges each value line's result under the ones before: a value keeps its first line,
    the keys go in the order of their last line. A child line goes to the last result saved,
    and the value lines after it are merged into that result (their values win)."""
    started = False
    top: list[Result] | None = None  # the lines of a result not saved yet
    merging: list[Result] | None = None
    last: Result = {}  # the result saved last
    for kind, name, result in outcomes:
        if kind == LINE:
            if not started:
                continue  # ttp reads a group's lines from its first start line on
            if top is not None:
                top.append(result)
            elif merging is not None:
                merging.append(result)
            else:
                merging = [result]
        elif kind == CHILD:
            if not started:
                continue
            if top is not None:
                last, top = _save(group, results, top), None
            elif merging is not None:
                _merge(last, merging)
                merging = None
            if result:
                last.setdefault(name, []).append(dict(result))
        elif kind == START:
            if top is not None:
                _save(group, results, top)
            elif merging is not None:
                _merge(last, merging)
                merging = None
            top, started = [result], True
        elif kind == ASK or started:
            return False
    if top is not None:
        _save(group, results, top)
    elif merging is not None:
        _merge(last, merging)
    return True


def _save(group: Group, results: Result, lines: list[Result]) -> Result:
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
