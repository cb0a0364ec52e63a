"""Split ports: the parents a config splits, the speed of their legs, and each leg's parent.

Huawei CloudEngine: 'port split dimension interface <ifs> split-type <n>*<speed>GE' [HW-CR port
split] ("A 400GE interface supports four 100GE or two 200GE interfaces"); <ifs> is a list of
interfaces, each as a name or a type and number, with 'to' ranges. The legs are numbered with
the dimension rule: they keep the parent's name and type with a lane, "after 100GE 1/0/1 is
split into four 25GE interfaces, the 25GE interfaces are still in the 100GE interface view and
are numbered 100GE 1/0/1:1 ..." — so a leg's name says its parent, not its speed: the split
line does. The templates give each line as ``port_splits`` (``ports``, ``split_type``).
"""

from __future__ import annotations

import re
from typing import Any

from roce_cfg.parse.reader import LineReader

_TYPE = re.compile(r"^(\d+)\*(\d+)GE$", re.IGNORECASE)
_NUMBERED = re.compile(r"^(.*?)(\d+)$")


def _entries(value: Any) -> list[dict[str, Any]]:
    if isinstance(value, dict):
        return [value]
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


def read(ctx: LineReader, raw: dict[str, Any]) -> dict[str, int]:
    """Split parent (canonical name) -> its legs' speed in Gb/s; a line whose split type or
    interfaces cannot be read is unread (its legs' speed is then not known)."""
    out: dict[str, int] = {}
    for entry in _entries(raw.get("port_splits")):
        kind = str(entry.get("split_type", ""))
        m = _TYPE.match(kind)
        parents = _parents(ctx, str(entry.get("ports", "")))
        if m is None or parents is None:
            ctx.unreadable(f"split type '{kind}' or its interfaces not read", kind, None)
            continue
        for parent in parents:
            out[parent] = int(m[2])
    return out


def _parents(ctx: LineReader, text: str) -> list[str] | None:
    """The interfaces a split line names ('400GE1/0/7', '100GE 1/0/1 to 100GE 1/0/4',
    '400GE1/0/1 400GE1/0/3'), canonical; None where a word is no port or a range is not one."""
    names: list[str] = []
    words = text.split()
    pending_to = False
    i = 0
    while i < len(words):
        word = words[i]
        if word == "to":
            pending_to = True
            i += 1
            continue
        # a type and a number ('100GE 1/0/1') or a whole name ('100GE1/0/1')
        joined = word + words[i + 1] if i + 1 < len(words) and words[i + 1][:1].isdigit() else ""
        name = ctx.namer.name(joined) if joined else ctx.namer.name(word)
        i += 2 if joined else 1
        if name.kind != "port":
            return None
        if pending_to:
            span = _span(names[-1] if names else "", name.canonical)
            if span is None:
                return None
            names.extend(span)
            pending_to = False
        else:
            names.append(name.canonical)
    return names if names and not pending_to else None


def _span(first: str, last: str) -> list[str] | None:
    """The interfaces from after ``first`` to ``last`` (their last number differs only)."""
    a, b = _NUMBERED.match(first), _NUMBERED.match(last)
    if a is None or b is None or a[1] != b[1] or int(b[2]) < int(a[2]) or len(b[2]) > 4:
        return None
    return [f"{a[1]}{n}" for n in range(int(a[2]) + 1, int(b[2]) + 1)]


def parent_of(name: str, splits: dict[str, int]) -> str | None:
    """The split parent of a leg named by the dimension rule ('400GE1/0/7:1' of '400GE1/0/7')."""
    base, sep, lane = name.rpartition(":")
    return base if sep and lane.isdigit() and base in splits else None
