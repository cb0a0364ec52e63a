"""The lines of the vendor's ttp parse templates as regexes over a config line (its spaces
collapsed): what the accounting counts as a line the templates read.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

_VAR = re.compile(r"\{\{(.*?)\}\}")
_COMMENT = re.compile(r"<!--.*?-->", re.S)
_TAG = re.compile(r"^\s*</?[A-Za-z_][^>]*>\s*$")
_KINDS = {
    "ORPHRASE": r"\S+(?: \S+)*",
    "PHRASE": r"\S+(?: \S+)+",
    "ROW": r"\S+(?: \S+)+",
    "DIGIT": r"\d+",
    "_line_": r".*",
}


def _var_regex(spec: str) -> str | None:
    """The text one ``{{ var | mods }}`` matches; None when it matches no text (``set``, a bare
    ``_start_``)."""
    parts = [p.strip() for p in spec.split("|")]
    mods = parts[1:] if parts and not parts[0].startswith("_") else parts
    if any(m.startswith("set(") for m in mods) or parts == ["_start_"]:
        return None
    for m in mods:
        found = re.fullmatch(r"""re\((["'])(.*)\1\)""", m)
        if found:
            return f"(?:{found[2]})"
        if m in _KINDS:
            return _KINDS[m]
    return r"\S+"


def _line_regex(line: str) -> str:
    """One template line as a regex over the line with its spaces collapsed."""
    out, pos = "", 0
    for m in _VAR.finditer(line):
        out += re.escape(line[pos : m.start()]) + (_var_regex(m[1]) or "")
        pos = m.end()
    out += re.escape(line[pos:])
    # a variable that matches no text ('{{ x | set(True) }}') leaves its spaces behind
    return re.sub(r"(?:\\ )+", r"\\ ", out).removeprefix("\\ ").removesuffix("\\ ")


def template_lines(texts: Iterable[str]) -> list[str]:
    """The line regexes of ttp templates (each matches a whole line, spaces collapsed)."""
    out: list[str] = []
    for text in texts:
        for raw in _COMMENT.sub("", text).splitlines():
            if raw.strip() and not _TAG.match(raw):
                out.append(_line_regex(" ".join(raw.split())))
    return out
