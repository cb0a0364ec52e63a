"""The order people read switch names in: numbers as numbers (leaf-9 before leaf-21)."""

from __future__ import annotations

import re

_DIGITS = re.compile(r"([0-9]+)")


def natural(name: str) -> tuple[tuple[int, int, str], ...]:
    """Sort key that orders numbers as numbers: leaf-2 before leaf-10. A run of ASCII digits
    compares by length, then text (numeric order without converting: a hostname may hold
    4,301 digits, or '¹', which is a digit to isdigit() and none to int()).

    >>> sorted(["leaf-10", "leaf-2", "leaf-1", "spine-1", "leaf-¹"], key=natural)
    ['leaf-1', 'leaf-2', 'leaf-10', 'leaf-¹', 'spine-1']
    """
    return tuple(
        (0, len(p.lstrip("0")), p.lstrip("0")) if p[0] in "0123456789" else (1, 0, p)
        for p in _DIGITS.split(name)
        if p
    )
