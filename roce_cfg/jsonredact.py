"""JSON text redacted as ``redact_tree`` would redact its document, without decoding more of
it than may hold a secret (roce_cfg/output.py writes large documents through it)."""

from __future__ import annotations

import json
import re

from roce_cfg.redact import HINTS, may_hold_secrets, redact

_JSON_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')


def redact_json(text: str, vendor: str | None = None) -> str:
    """JSON text (ASCII, as ``json.dumps`` writes it) with every string redacted as
    ``redact_tree`` would (keys too), every other byte as it was. Only lines that may hold a
    secret are decoded: those with a hint word in any case, or an escape (behind which a hint
    may hide: ``\\u212aey`` lower-cases to 'key'). Finding them is a few substring searches in
    C, so a document of millions of strings costs about what writing it does.

    >>> redact_json('{"a": "snmp-server community public ro", "b": "x"}')
    '{"a": "snmp-server community <redacted> ro", "b": "x"}'
    """
    if not text.isascii():
        raise ValueError("redact_json reads ASCII JSON text (non-ASCII as \\u escapes)")
    suspect: set[int] = set()  # line starts
    step = 1 << 20  # lower-cased a MiB at a time: a 50 MB document is not copied whole
    for at in range(0, len(text), step):
        lower = text[at : at + step + 64].lower()  # 64: a word across the seam is seen
        for word in (*HINTS, "\\"):
            i = lower.find(word)
            while i >= 0:
                suspect.add(text.rfind("\n", 0, at + i) + 1)
                end = lower.find("\n", i)
                i = -1 if end < 0 else lower.find(word, end)
    if not suspect:
        return text
    out: list[str] = []
    at = 0
    for start in sorted(suspect):
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        out += [text[at:start], _json_line(text[start:end], vendor)]
        at = end
    return "".join(out) + text[at:]


def _json_line(line: str, vendor: str | None) -> str:
    fixed = _JSON_STRING.sub(lambda m: _literal(m[0], vendor), line)
    if may_hold_secrets(_JSON_STRING.sub('""', fixed)):
        # a hint outside every string: not JSON as read here, so redacted as text
        return redact(fixed, vendor)
    return fixed


def _literal(literal: str, vendor: str | None) -> str:
    try:
        value = json.loads(literal)
    except ValueError:  # not a JSON string after all: the text as text
        return redact(literal, vendor)
    clean = redact(value, vendor)
    return literal if clean == value else json.dumps(clean)
