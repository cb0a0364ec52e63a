"""The one redactor: secrets become ``<redacted>`` in everything roce-cfg prints or stores.

What is a secret is data: ``vendors/<vendor>.secrets.yaml`` lists each vendor's secret-bearing
commands (local users, super/enable passwords, SNMP communities and v3 keys, trap hosts,
RADIUS/TACACS keys, NTP keys, BGP peer passwords) with a pattern whose capturing groups are the
secret arguments. A keyword fallback catches the usual shapes no table names yet.

``redact(text, vendor)`` works on plain text, line by line; ``redact_tree`` on decoded JSON/YAML
data; ``redact_markup`` on HTML/XML/SVG text (only between tags, so a secret never swallows
markup). roce_cfg/output.py applies them to every byte that leaves the process.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from roce_cfg.errors import InputError

REDACTED = "<redacted>"
SUFFIX = ".secrets.yaml"


@dataclass(frozen=True)
class SecretRule:
    vendor: str
    name: str
    pattern: re.Pattern[str]
    source: str | None


# keyword [qualifier] secret: 'password hash $h$..', 'password cipher %^%#..', 'secret 5 $1$..',
# 'snmp-agent community read cipher ..', 'community public', 'key 7 0822..', 'authentication-key ..'
_QUALIFIERS = (
    r"(?:\d|cipher|simple|hash|plain|encrypted|irreversible-cipher|read|write|ro|rw"
    r"|authentication|accounting|authorization)"
)
# A quoted secret holds spaces: up to the closing quote, or to the end of the line without one.
_QUOTED = r'"[^"]*"?'
_FALLBACK = [
    re.compile(
        r"(?P<kw>\b(?:password|passwd|secret|cipher|community|key-string|authentication-key"
        r"|pre-shared-key|shared-key|irreversible-cipher|encrypted)\b)"
        rf"(?P<sp>\s+(?:{_QUALIFIERS}\s+)*)"
        rf"(?P<secret>{_QUOTED}|\S+)",
        re.IGNORECASE,
    ),
    # A bare 'key' is a word of prose too ('unknown key ...'): only with a qualifier after it.
    re.compile(
        rf"(?P<kw>\bkey)(?P<sp>(?:\s+{_QUALIFIERS})+\s+)(?P<secret>{_QUOTED}|\S+)",
        re.IGNORECASE,
    ),
    # SNMPv1/v2c trap hosts carry the community as a bare word after the version.
    re.compile(
        r"(?P<kw>\bversion\s+(?:1|2c|v1|v2c))(?P<sp>\s+)(?P<secret>(?!encrypted\b|cipher\b|v\d)\S+)"
    ),
]


# Every secret-bearing line holds one of these words (each table pattern must name one, checked
# when it loads): a line without any is passed over at the cost of a few substring tests.
HINTS = (
    "pass",
    "secret",
    "cipher",
    "communit",
    "key",
    "auth",
    "securityname",
    "version",
    "encrypted",
    "privacy",
    "priv ",
    "priv\t",
    "priv\\s",
    # SNMPv1/v2c trap hosts without 'version' carry the community as a bare word
    "snmp-server",
)


def _hinted(text: str) -> bool:
    lower = text.lower()  # substring tests in C: ten of them cost less than one regex scan
    return any(h in lower for h in HINTS)


def may_hold_secrets(text: str) -> bool:
    """False when ``redact`` leaves ``text`` as it is, and every line and part of it too (no
    hint is split by a line break): many strings are cleared at once, joined."""
    return _hinted(text)


_OVERLAYS: list[Path] = []


def use_overlay(folder: Path) -> None:
    """Also apply ``folder/vendors/<vendor>.secrets.yaml`` (--vendor-dir): an overlay adds
    secret forms to a vendor's table, it never removes the bundled ones."""
    if folder not in _OVERLAYS:
        # Read now: a malformed table found at the first redaction failed after the output
        # was written, with a traceback.
        for path in sorted((folder / "vendors").glob(f"*{SUFFIX}")):
            load_table(path, root=folder)
        _OVERLAYS.append(folder)
        rules.cache_clear()


def _table_files() -> list[Path]:
    from roce_cfg.resources import vendors_dir

    bundled = sorted(vendors_dir().glob(f"*{SUFFIX}"))
    extra = [p for o in _OVERLAYS for p in sorted((o / "vendors").glob(f"*{SUFFIX}"))]
    return bundled + extra if bundled else []


def load_table(path: Path, root: Path | None = None) -> list[SecretRule]:
    """One vendor's table; a malformed one is a one-line error naming the file and entry
    (``root``: the overlay folder the file must not leave)."""
    from roce_cfg.yamlsrc import load_yaml, read_text

    doc, _ = load_yaml(read_text(path, "secrets table", root=root), str(path))
    entries = doc.get("secrets") if isinstance(doc, dict) else None
    if not isinstance(entries, list):
        raise InputError("a secrets table is a mapping with a 'secrets' list", file=str(path))
    vendor = str(doc.get("vendor") or path.name[: -len(SUFFIX)])
    rules = []
    for n, entry in enumerate(entries):
        where = f"secrets[{n}]"
        if not isinstance(entry, dict) or not isinstance(entry.get("match"), str):
            raise InputError("needs 'name' and 'match'", file=str(path), path=where)
        try:
            pattern = re.compile(entry["match"])
        except re.error as exc:
            raise InputError(f"match: {exc}", file=str(path), path=where) from None
        if not _hinted(entry["match"]):
            raise InputError(
                f"match: names none of the words a secret-bearing line holds ({', '.join(HINTS)})",
                file=str(path),
                path=where,
            )
        if pattern.groups == 0:
            raise InputError(
                "match: no capturing group, so no secret to redact", file=str(path), path=where
            )
        source = entry.get("source")
        rules.append(
            SecretRule(
                vendor, str(entry.get("name", where)), pattern, str(source) if source else None
            )
        )
    return rules


@cache
def rules(vendor: str | None = None) -> tuple[SecretRule, ...]:
    """The table of one vendor, or of every vendor when the vendor is not known."""
    files = _table_files()
    if not files:  # a broken install must not quietly print secrets
        from roce_cfg.resources import vendors_dir

        raise InputError(f"no *{SUFFIX} secrets tables (broken install?)", file=str(vendors_dir()))
    found: list[SecretRule] = []
    for path in files:
        if vendor is None or path.name == f"{vendor}{SUFFIX}":
            found.extend(load_table(path))
    return tuple(found)


def _whole_quote(line: str, start: int, end: int) -> tuple[int, int]:
    """A table's ``(\\S+)`` stops at the first space of a quoted secret: widen it to the
    closing quote (the end of the line when there is none)."""
    if line.startswith('"', start) and (end - start < 2 or line[end - 1] != '"'):
        close = line.find('"', end)
        return start, len(line) if close < 0 else close + 1
    return start, end


def _spans(line: str, table: Iterable[SecretRule], fallback: bool = True) -> list[tuple[int, int]]:
    """Where the secrets of ``line`` are."""
    if not _hinted(line):
        return []
    # Every rule reads the line as the switch wrote it: were a rule to read another's output,
    # a key-id one rule took for a secret would hide the real secret from the rule that knows.
    spans: list[tuple[int, int]] = []
    for rule in table:
        for m in rule.pattern.finditer(line):
            spans.extend(m.span(g) for g in range(1, rule.pattern.groups + 1) if m.start(g) >= 0)
    for keyword in _FALLBACK if fallback else ():
        spans.extend(m.span("secret") for m in keyword.finditer(line))
    return spans


def _line(line: str, table: Iterable[SecretRule], fallback: bool = True) -> str:
    return _apply(line, _spans(line, table, fallback))


def _apply(line: str, spans: list[tuple[int, int]]) -> str:
    if not spans:
        return line
    parts, at = [], 0
    for start, end in _merged(line, spans):
        parts += [line[at:start], REDACTED]
        at = end
    return "".join(parts) + line[at:]


def _merged(line: str, spans: list[tuple[int, int]]) -> list[list[int]]:
    """``spans`` widened to whole quotes, sorted, those that overlap or touch made one."""
    merged: list[list[int]] = []
    for start, end in sorted(_whole_quote(line, s, e) for s, e in spans if e > s):
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return merged


def redact(text: str, vendor: str | None = None, fallback: bool = True) -> str:
    """Every secret of ``text`` replaced, line by line; ``vendor`` None: every vendor's table.

    >>> redact(" password hash $h$6$abc==")
    ' password hash <redacted>'
    >>> redact("snmp-agent community read cipher %^%#x")
    'snmp-agent community read cipher <redacted>'
    >>> redact("snmp-server community public ro")
    'snmp-server community <redacted> ro'
    >>> redact("snmp-server host 10.0.0.1 version 2c public")
    'snmp-server host 10.0.0.1 version 2c <redacted>'
    >>> redact("snmp-server host 10.0.0.1 version 2c encrypted 5f4e")
    'snmp-server host 10.0.0.1 version 2c encrypted <redacted>'
    >>> redact("snmp-agent sys-info version v2c v3")
    'snmp-agent sys-info version v2c v3'
    >>> redact(" description uplink to spine-1")
    ' description uplink to spine-1'
    >>> redact("fabric.x: unknown key 'x'; did you mean 'y'?")
    "fabric.x: unknown key 'x'; did you mean 'y'?"
    >>> redact("radius-server key 7 0822455D0A16")
    'radius-server key 7 <redacted>'
    >>> redact(" key authentication simple Rad1us", "h3c")
    ' key authentication simple <redacted>'
    >>> redact("snmp-agent usm-user v3 u g authentication-mode sha A1 privacy-mode aes128 P1")
    'snmp-agent usm-user v3 u g authentication-mode sha <redacted> privacy-mode aes128 <redacted>'
    >>> redact(' ospf authentication-mode md5 1 plain Ospf1', "huawei")
    ' ospf authentication-mode md5 1 plain <redacted>'
    >>> redact('username ops password 0 "two words" privilege 15', "ruijie")
    'username ops password 0 <redacted> privilege 15'
    >>> redact('snmp-server host 10.0.0.1 traps public udp-port 162', "zte")
    'snmp-server host 10.0.0.1 traps <redacted> udp-port 162'
    """
    if not text or not _hinted(text):
        return text
    table = rules(vendor) or rules()
    lines = text.split("\n")
    out = [_line(line, table, fallback) for line in lines]
    for at, redacted in fold_tails(lines, vendor, fallback=fallback).items():
        out[at] = redacted
    return "\n".join(out)


# Terminals fold a long line at their width, a capture keeps the fold: ZTE's CLI folds its own
# output at 80 columns [ZTE-OLT, shared/vendor-reference.md 4.3], and a config copied from an
# 80-column terminal window is folded the same way, whichever the vendor.
FOLD_WIDTH = 80
# The longest line a config may hold (roce_cfg/parse/text.py MAX_LINE_CHARS): a run of full
# lines longer than that is many lines, not one folded.
MAX_FOLDED = 16_384
# Lines of one folded line a secret and its command can span: Huawei's longest cipher (268
# characters) with its command is five 80-column lines.
FOLD_SPAN = 5


def _chunk(line: str, width: int) -> bool:
    """Whether ``line`` can be a folded line's first part: it filled the terminal (the blanks
    it ended with, where the fold fell after a word, stripped by the reader)."""
    return width - 3 <= len(line.rstrip()) <= width


def fold_tails(
    lines: list[str],
    vendor: str | None = None,
    width: int = FOLD_WIDTH,
    never: Callable[[str], bool] | None = None,
    fallback: bool = True,
) -> dict[int, str]:
    """{index: that line redacted} for each line that may continue a line folded at ``width``
    columns and holds part of a secret only the whole line shows: ``snmp-server community``
    at the end of one line and the community at the start of the next, or a key cut in two.
    ``never(line)``: a line that is never a continuation (a block opener, a separator).

    >>> line = "snmp-server user nms-ops grp v3 encrypted auth sha Auth1 priv aes128 " + "K" * 14
    >>> line[80:], fold_tails([line[:80], line[80:]])  # alone, 'KKK' is no secret's line
    ('KKK', {1: '<redacted>'})
    >>> fold_tails(["snmp-server community public view " + "v" * 46, "iew AllView ro"])
    {}
    """
    table = rules(vendor) or rules()
    out: dict[int, str] = {}
    for k, extra in fold_spans(lines, vendor, width, never, fallback).items():
        own = _spans(lines[k], table, fallback)
        if any(span not in own for span in extra):
            out[k] = _apply(lines[k], own + extra)
    return out


def fold_spans(
    lines: list[str],
    vendor: str | None = None,
    width: int = FOLD_WIDTH,
    never: Callable[[str], bool] | None = None,
    fallback: bool = True,
) -> dict[int, list[tuple[int, int]]]:
    """{index: spans} of the secrets each line that may continue a folded line holds part of,
    read as ``fold_tails`` reads them (spans the line shows on its own among them)."""
    table = rules(vendor) or rules()
    found: dict[int, list[tuple[int, int]]] = {}
    i = 0
    longest = MAX_FOLDED // width + 1  # pieces of the longest line a config may hold
    while i < len(lines) - 1:
        j = i
        while (
            j + 1 < len(lines)
            and j - i < longest
            and _chunk(lines[j], width)
            and not (never and never(lines[j + 1]))
            and not _apart(lines, i, j, width)
        ):
            j += 1
        if j > i and _hot(lines, i, j):
            _folded(lines[i : j + 1], i, table, width, fallback, found)
            _restarts(lines, i, j, table, width, fallback, found)
        i = j + 1
    return found


def secret_spans(line: str, vendor: str | None = None) -> list[tuple[int, int]]:
    """Where ``redact`` finds the secrets of ``line`` read on its own."""
    return _spans(line, rules(vendor) or rules())


def uncovered_redacted(
    line: str, spans: list[tuple[int, int]], vendor: str | None = None, fallback: bool = True
) -> str:
    """``line`` as it is when its own secrets cover ``spans`` (a folded line's pieces joined
    again: the whole secret beside its keyword, redacted where it is printed); else with
    ``spans`` and its own secrets redacted (a piece joined to another line's words, its
    keyword apart from it).

    >>> uncovered_redacted("neighbor 10.1.0.0 password PLANTEDQQ extra", [(34, 36)])
    'neighbor 10.1.0.0 password PLANTEDQQ extra'
    >>> uncovered_redacted("PLANTEDQQsnmp-server host 10.9.9.9", [(0, 20)])
    '<redacted> host 10.9.9.9'
    """
    own = _spans(line, rules(vendor) or rules(), fallback)
    covers = _merged(line, own)
    if all(any(s <= a and b <= e for s, e in covers) for a, b in spans):
        return line
    return _apply(line, own + spans)


def _restarts(
    lines: list[str],
    i: int,
    j: int,
    table: tuple[SecretRule, ...],
    width: int,
    fallback: bool,
    found: dict[int, list[tuple[int, int]]],
) -> None:
    """A line that fills the width to a last non-blank may be whole, and the next a line of
    its own: joined, its last word would run on into the next line's first (a command's,
    'rwsnmp-server', no longer seen by its rule). Each such next line holding a hint is also
    read as the start of a folded line, over the next such breaks too (a fold inside a word
    is one: 'user nms grp v3 en' / 'crypted auth ...'; stopped there, the priv key's last
    piece on the line after was no rule's), up to ``FOLD_SPAN`` lines."""
    glued = [
        k
        for k in range(i + 1, j + 1)
        if len(lines[k - 1]) == width
        and not lines[k - 1][-1:].isspace()
        and not lines[k][:1].isspace()
    ]
    for k in glued:
        end = min(j, k + FOLD_SPAN)
        # joined as the terminal cut them: a hint word may be the one the fold fell inside
        # ('ke' / 'y PLANTED...'), which no line holds whole
        if end > k and _hinted("".join(lines[k : end + 1])):
            _folded(lines[k : end + 1], k, table, width, fallback, found)


def _apart(lines: list[str], i: int, j: int, width: int) -> bool:
    """Whether line ``j + 1`` is a line of its own though line ``j`` fills the width: it
    starts with a blank, and joined to line ``j`` it would make two blanks in a row or more
    at the break (with those the reader stripped from line ``j``'s end). A switch prints one
    blank between words, and a fold keeps every character: so the break ends a line. Read
    as a fold, a description ending in a keyword ('... encrypted') took the next command's
    first word ('  mtu 9216') for its secret, and parse lost the command. Not where lines
    ``i`` to ``j`` leave a quote open: a quoted string's blanks are the user's.

    >>> _apart(["  description " + "y" * 56 + " encrypted", "  mtu 9216"], 0, 0, 80)
    True
    >>> _apart(["x" * 80, " secret"], 0, 0, 80), _apart(["x" * 79, "secret"], 0, 0, 80)
    (False, False)
    """
    after = lines[j + 1]
    lead = len(after) - len(after.lstrip(" "))
    if not lead or width - len(lines[j].rstrip()) + lead < 2:
        return False
    return "".join(lines[i : j + 1]).count('"') % 2 == 0


def _hot(lines: list[str], i: int, j: int) -> bool:
    """Whether lines ``i`` to ``j`` can hold a secret: a hint word in one of them or across a
    break (the ends of two lines joined), so most runs cost a few substring tests."""
    if any(_hinted(lines[k]) for k in range(i, j + 1)):
        return True
    return any(_hinted(lines[k][-16:] + lines[k + 1][:16]) for k in range(i, j))


def _folded(
    chain: list[str],
    first: int,
    table: tuple[SecretRule, ...],
    width: int,
    fallback: bool,
    found: dict[int, list[tuple[int, int]]],
) -> None:
    """Into ``found``: the spans of secrets the joined ``chain`` (read as one folded line)
    shows in each of its continuation lines."""
    parts = [chain[0].rstrip()]
    for prev, line in itertools.pairwise(chain):
        # a fold right after a blank lost that blank to the reader's rstrip: put back
        parts.append(" " * (width - len(prev.rstrip())) + line)
    spans = sorted(_spans("".join(parts), table, fallback))
    if not spans:
        return
    at, low = len(parts[0]), 0
    for k, part in enumerate(parts[1:], 1):
        start, end = at + len(part) - len(chain[k]), at + len(part)  # the line's own span
        while low < len(spans) and spans[low][1] <= start:
            low += 1  # spans ending before this line: done with (one pass over both)
        mine = []
        for s, e in spans[low:]:
            if s >= end:
                break
            if e > start:
                mine.append((max(s, start) - start, min(e, end) - start))
        if mine:
            found.setdefault(first + k, []).extend(mine)
        at += len(part)


def redact_tree(value: Any, vendor: str | None = None) -> Any:
    """The same data with every string redacted (JSON/YAML documents before they are dumped)."""
    if isinstance(value, str):
        return redact(value, vendor)
    if isinstance(value, dict):
        # keys too: a YAML mapping of config lines ('snmp-agent community read X': ...) is one
        return {redact_tree(k, vendor): redact_tree(v, vendor) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [redact_tree(v, vendor) for v in value]
    return value


_TAG = re.compile(r"(<[^<>]*>)")


def redact_markup(text: str, vendor: str | None = None) -> str:
    """HTML/XML/SVG: redact the text between tags, never the tags themselves.

    >>> redact_markup('<pre>snmp-server community public ro</pre><p class="x">')
    '<pre>snmp-server community &lt;redacted&gt; ro</pre><p class="x">'
    """
    parts = _TAG.split(text)
    for i in range(0, len(parts), 2):  # even indexes are text, odd ones tags
        if parts[i]:
            parts[i] = redact(parts[i], vendor).replace(REDACTED, "&lt;redacted&gt;")
    return "".join(parts)
