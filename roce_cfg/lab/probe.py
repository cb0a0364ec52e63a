"""What an emulated switch answers to the capture kit's probes: the ``?`` help of the command
line typed so far, from the vendor grammar (the commands of the current view and their undo
forms, each syntax walked word by word), and ``show version`` as the grammar's capture data
says the vendor prints it.

The help format is the emulator's own: no source read prints an RGOS or ZXROS help listing.
It follows the behaviour Ruijie-family CLI guides describe for ``?`` (after a space: the
keywords or the parameter's type and range that may come next, ``<cr>`` when the command is
complete; right after a word: the keywords beginning with it), laid out IOS-style: one
``  <token>  <what>`` line each. The session reader (platforms/session.py) reads that and the
other common layouts."""

from __future__ import annotations

import re
from typing import Protocol

from roce_cfg import __version__
from roce_cfg.grammar import Command, Grammar, Param
from roce_cfg.grammar.load import capture_data
from roce_cfg.grammar.syntax import TOKEN, TYPES, param_of


class Asked(Protocol):
    """What the probes read of the emulated switch (lab/cli.py's Switch)."""

    model: str
    unsourced: bool

    @property
    def grammar(self) -> Grammar: ...


SHOWN = {"word": "WORD", "text": "LINE", "ipv4": "A.B.C.D", "mask": "A.B.C.D"}
SHOWN |= {"ipv6": "X:X::X:X", "ipv6net": "X:X::X:X/M", "vlans": "VLAN-LIST"}
MAX_EXPANSIONS = 256


def answer(text: str, sw: Asked, vendor: str, view: str | None, error: str) -> str | None:
    """The probe's answer, or None when ``text`` is no probe (the CLI goes on with it).
    ``view``: the grammar view the line is typed in, None outside configuration mode;
    ``error``: what the CLI answers a line it does not know."""
    if text.endswith("?"):
        return help_text(sw, view, text[:-1]) or sw.grammar.errors.get("unknown") or error
    data = capture_data(vendor)
    if view is None and data.get("show_version") == " ".join(text.split()):
        model = sw.model or "LAB"
        version = f"roce-cfg lab {__version__}"
        return "\r\n".join(str(t).format(model=model, version=version) for t in data["emulated"])
    return None


def help_text(sw: Asked, view: str | None, typed: str) -> str:
    """The help listing after ``typed`` in ``view`` ('' when nothing may follow)."""
    words = typed.split()
    partial = words.pop() if words and not typed.endswith(" ") else None
    items: dict[str, str] = {}
    for cmd in offered(sw, view):
        for tokens in expand(TOKEN.findall(cmd.syntax)):
            for tok in following(tokens, words):
                if partial is None or (not tok.startswith("<") and tok.startswith(partial)):
                    items.setdefault(shown(tok), cmd.name)
    if not items:
        return ""
    width = max(len(k) for k in items) + 2
    return "\r\n".join(f"  {k:<{width}}{v}".rstrip() for k, v in sorted(items.items()))


def offered(sw: Asked, view: str | None) -> list[Command]:
    """The commands ``view`` takes, with their undo forms; a strict emulator leaves out what
    it would refuse as unknown."""
    if view is None:
        return []
    out = []
    for cmd in sw.grammar.commands:
        if not cmd.lives_in(view) or (cmd.status == "unsourced" and not sw.unsourced):
            continue
        out.append(cmd)
        undo = cmd.undo
        if undo is not None and (undo.status != "unsourced" or sw.unsourced):
            out += [u for u in undo.commands if view in u.views]
    return out


def expand(tokens: list[str]) -> list[list[str]]:
    """Every token sequence a syntax allows (``{ a | b }`` each way, ``[ x ]`` with and
    without), at most MAX_EXPANSIONS of them."""
    seqs, _ = _seq(tokens, 0, ())
    return seqs[:MAX_EXPANSIONS]


def _seq(tokens: list[str], pos: int, stop: tuple[str, ...]) -> tuple[list[list[str]], int]:
    seqs: list[list[str]] = [[]]
    while pos < len(tokens) and tokens[pos] not in stop:
        tok = tokens[pos]
        if tok in ("{", "["):
            close = "}" if tok == "{" else "]"
            alts: list[list[str]] = [] if tok == "{" else [[]]
            while tokens[pos] != close:
                branch, pos = _seq(tokens, pos + 1, ("|", close))
                alts += branch
            pos += 1
        else:
            alts, pos = [[tok]], pos + 1
        seqs = [s + a for s in seqs for a in alts][:MAX_EXPANSIONS]
    return seqs, pos


def following(tokens: list[str], words: list[str]) -> list[str]:
    """The tokens that may come after ``words`` in the sequence ``tokens`` ('<cr>' when it
    may end there); empty when the words leave it."""
    i = 0
    for w in words:
        prev = param_of(tokens[i - 1]) if i and tokens[i - 1].startswith("<") else None
        if i < len(tokens) and _fits(tokens[i], w):
            if tokens[i].startswith("<") and param_of(tokens[i]).kind == "text":
                return ["<cr>"]
            i += 1
        elif not (prev is not None and prev.many and _fits(tokens[i - 1], w)):
            return []
    out = [tokens[i]] if i < len(tokens) else ["<cr>"]
    if i and tokens[i - 1].startswith("<") and param_of(tokens[i - 1]).many:
        out.append(tokens[i - 1])
    return out


def _fits(tok: str, word: str) -> bool:
    if not tok.startswith("<"):
        return tok == word
    p = param_of(tok)
    pattern = p.kind[1:-1] if p.kind.startswith("/") else TYPES[p.kind]
    return re.fullmatch(pattern, word) is not None and p.bad(word) is None


def shown(tok: str) -> str:
    """A token as the listing shows it: a keyword as it is, a parameter by its range or type."""
    if tok == "<cr>" or not tok.startswith("<"):
        return tok
    p: Param = param_of(tok)
    if p.allowed:
        return "<" + ",".join(f"{lo}-{hi}" if lo != hi else str(lo) for lo, hi in p.allowed) + ">"
    return SHOWN.get(p.kind, f"<{p.name}>")
