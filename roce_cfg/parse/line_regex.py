"""Whether a regex reads one line only: it matches only from a newline and reads nothing past the
line's own end. Proved on the stdlib's own parse of the regex (what re.compile reads), so the
plain reader (parse/plain.py) may try a line against it alone instead of searching the whole
text; where that parse is missing or of another shape, nothing is proved and the regex is
searched as ttp searches it.

``re._parser`` is private to the standard library, so this module is fenced
(docs/architecture.md): nothing else in roce_cfg reads it, and tests/test_parse_plain.py holds
the line by line reading to ttp's search of the whole text, on every Python CI runs, and reads
every template without the proof too.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Sequence
from typing import Any

# The stdlib's own parse of a regex (what re.compile reads), to prove what a match can read;
# a private module: where a Python has none, or another shape of it, every regex is searched
# as ttp searches it (line_literals).
try:
    _SRE: Any = importlib.import_module("re._parser")
except ImportError:  # pragma: no cover - CPython 3.11 to 3.13 have it
    _SRE = None


def line_literals(regex: re.Pattern[str]) -> tuple[str, str] | None:
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
    return all(
        op is _SRE.LITERAL and (arg != 10 or i == len(items) - 1)
        for i, (op, arg) in enumerate(items)
    )
