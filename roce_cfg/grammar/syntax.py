"""The syntax notation of the grammars: typed parameters and their ranges, a syntax
compiled to the regex that matches a line of it, a line rendered from it."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from roce_cfg.errors import InputError
from roce_cfg.model import numbers

TYPES = {
    "int": r"\d+",
    "word": r"\S+",
    "text": r".+",
    "ipv4": r"\d{1,3}(?:\.\d{1,3}){3}",
    "mask": r"\d{1,3}(?:\.\d{1,3}){3}",
    "vlans": r"\d+(?: to \d+)?(?: \d+(?: to \d+)?)*",
}
TOKEN = re.compile(r"<[^>]+>\+?|[{}\[\]|]|[^\s{}\[\]|<]+")


class GrammarError(InputError):
    """A grammar file that cannot be read as one."""


@dataclass(frozen=True)
class Param:
    name: str
    kind: str
    allowed: tuple[tuple[int, int], ...] = ()  # inclusive ranges; empty = any
    many: bool = False
    by_model: tuple[tuple[tuple[str, ...], tuple[tuple[int, int], ...]], ...] = ()

    def bad(self, raw: str, model: str | None = None) -> str | None:
        """Why ``raw`` is not a value of this parameter (None when it is)."""
        allowed = self.allowed
        for models, rng in self.by_model:
            if model in models:
                allowed = rng
        if not allowed or self.kind not in ("int", "vlans"):
            return None
        envelope = _envelope(self.name, allowed)
        for token in raw.split():
            if token == "to":
                continue
            try:  # bounded by length first: a 4,301-digit token is out of range, not a crash
                n = numbers.number(token, envelope)
            except numbers.OutOfDomain as exc:
                return f"{self.name} {exc.shown} out of range {_show(allowed)}"
            if not any(lo <= n <= hi for lo, hi in allowed):
                return f"{self.name} {n} out of range {_show(allowed)}"
        return None


@cache
def _envelope(name: str, allowed: tuple[tuple[int, int], ...]) -> numbers.Domain:
    """The domain spanning ``allowed``: one per parameter and range, not one per value checked."""
    return numbers.Domain(name, min(lo for lo, _ in allowed), max(hi for _, hi in allowed))


def _show(allowed: tuple[tuple[int, int], ...]) -> str:
    return "|".join(str(lo) if lo == hi else f"{lo}-{hi}" for lo, hi in allowed)


def param_of(spec: str) -> Param:
    many = spec.endswith("+")
    name, _, kind = spec.strip("<>+").partition(":")
    kind = kind.strip() or "word"
    if kind.startswith("/") and kind.endswith("/"):
        return Param(name.replace("-", "_"), kind, (), many)
    base, _, rng = kind.partition(" ")
    if base not in TYPES:
        raise ValueError(f"unknown parameter type '{base}' in <{spec}>")
    return Param(name.replace("-", "_"), base, ranges_of(rng), many)


def ranges_of(text: str) -> tuple[tuple[int, int], ...]:
    """``'0-7'`` / ``'10|100|500'`` / ``'1-8|16'`` -> inclusive ranges."""
    allowed: list[tuple[int, int]] = []
    for part in filter(None, text.strip().split("|")):
        lo, _, hi = part.partition("-")
        allowed.append((int(lo), int(hi or lo)))
    return tuple(allowed)


def compile_syntax(syntax: str) -> tuple[re.Pattern[str], dict[str, Param]]:
    """The regex matching ``' ' + normalised line`` for ``syntax``, and its parameters."""
    tokens = TOKEN.findall(syntax)
    params: dict[str, Param] = {}
    pos = 0

    def seq(stop: tuple[str, ...]) -> str:
        nonlocal pos
        parts: list[str] = []
        while pos < len(tokens) and tokens[pos] not in stop:
            tok = tokens[pos]
            pos += 1
            if tok == "{":
                alts = [seq(("|", "}"))]
                while tokens[pos] == "|":
                    pos += 1
                    alts.append(seq(("|", "}")))
                pos += 1
                parts.append("(?:" + "|".join(alts) + ")")
            elif tok == "[":
                inner = seq(("]",))
                pos += 1
                parts.append(f"(?:{inner})?")
            elif tok.startswith("<"):
                p = param_of(tok)
                params[p.name] = p
                one = p.kind[1:-1] if p.kind.startswith("/") else TYPES[p.kind]
                body = f"(?: (?:{one}))+" if p.many else f" (?:{one})"
                parts.append(f"(?P<{p.name}>{body})")
            else:
                parts.append(" " + re.escape(tok))
        return "".join(parts)

    pattern = seq(())
    return re.compile(pattern + "$"), params


def render_syntax(syntax: str, values: dict[str, str]) -> str | None:
    """A line of ``syntax`` filled with ``values`` (None: a required parameter has none).

    An alternative ``{ a | b }`` is the first that can be filled; an optional part is kept
    only when it names a parameter that has a value (literal-only options are left out).

    >>> render_syntax("undo queue { <q:int 0-7> | all }", {"q": "3"})
    'undo queue 3'
    >>> render_syntax("undo jumboframe enable [ <bytes:int> ]", {"bytes": "9238"})
    'undo jumboframe enable 9238'
    >>> render_syntax("undo peer <peer:ipv4> password", {}) is None
    True
    """
    tokens = TOKEN.findall(syntax)
    pos = 0

    def seq(stop: tuple[str, ...]) -> tuple[list[str] | None, bool]:
        """(words or None when unfillable, whether a parameter was filled)."""
        nonlocal pos
        words: list[str] | None = []
        used = False
        while pos < len(tokens) and tokens[pos] not in stop:
            tok = tokens[pos]
            pos += 1
            part: list[str] | None
            if tok in ("{", "["):
                close = "}" if tok == "{" else "]"
                alts = [seq(("|", close))]
                while tokens[pos] == "|":
                    pos += 1
                    alts.append(seq(("|", close)))
                pos += 1
                ok = [(a, u) for a, u in alts if a is not None and (u or tok == "{")]
                part, filled = ok[0] if ok else (None if tok == "{" else [], False)
                used = used or filled
            elif tok.startswith("<"):
                key = param_of(tok).name
                part = [values[key]] if key in values else None
                used = True
            else:
                part = [tok]
            if part is None or words is None:
                words = None
            else:
                words += part
        return words, used

    words, _ = seq(())
    return " ".join(words) if words is not None else None


def rule_kind(rule: str) -> str:
    """'unknown', 'view', 'parameter', 'range' or 'model': which error text a switch answers."""
    for prefix, kind in (
        ("wrong view", "view"),
        ("wrong parameter", "parameter"),
        ("out of range", "range"),
        ("unsupported on model", "model"),
    ):
        if rule.startswith(prefix):
            return kind
    return "unknown"


def first_words(tokens: list[str]) -> set[str]:
    """Literal words a syntax can begin with (through a leading ``[ ... ]`` or ``{ a | b }``)."""
    if not tokens:
        return set()
    tok = tokens[0]
    if tok in ("[", "{"):
        close = "]" if tok == "[" else "}"
        depth, i, alts, start = 0, 0, [], 1
        for i, t in enumerate(tokens):
            if t in ("[", "{"):
                depth += 1
            elif t in ("]", "}"):
                depth -= 1
                if depth == 0:
                    break
            elif t == "|" and depth == 1:
                alts.append(tokens[start:i])
                start = i + 1
        alts.append(tokens[start:i])
        out = set().union(*(first_words(a) for a in alts))
        if close == "]":
            out |= first_words(tokens[i + 1 :])
        return out
    return {tok}
