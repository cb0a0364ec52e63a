"""Secrets never leave the parser: password hashes, SNMP communities and keys become
``<redacted>`` in everything roce-cfg prints or stores (opaque blocks, descriptions, findings)."""

from __future__ import annotations

import re

REDACTED = "<redacted>"

# keyword [qualifier] secret: 'password hash $h$..', 'password cipher %^%#..', 'secret 5 $1$..',
# 'snmp-agent community read cipher ..', 'community public', 'key 7 0822..', 'authentication-key ..'
_RULES = [
    re.compile(
        r"(?P<kw>\b(?:password|passwd|secret|cipher|community|key-string|authentication-key"
        r"|pre-shared-key|key|irreversible-cipher)\b)"
        r"(?P<sp>\s+(?:(?:\d|cipher|simple|hash|plain|encrypted|irreversible-cipher|read|write"
        r"|ro|rw|0|5|7)\s+)*)"
        r"(?P<secret>\S+)",
        re.IGNORECASE,
    ),
]


def redact(text: str) -> str:
    """
    >>> redact(" password hash $h$6$abc==")
    ' password hash <redacted>'
    >>> redact("snmp-agent community read cipher %^%#x")
    'snmp-agent community read cipher <redacted>'
    >>> redact("snmp-server community public ro")
    'snmp-server community <redacted> ro'
    >>> redact(" description uplink to spine-1")
    ' description uplink to spine-1'
    """
    for rule in _RULES:
        text = rule.sub(lambda m: f"{m['kw']}{m['sp']}{REDACTED}", text)
    return text
