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
        r"|pre-shared-key|key|irreversible-cipher|encrypted)\b)"
        r"(?P<sp>\s+(?:(?:\d|cipher|simple|hash|plain|encrypted|irreversible-cipher|read|write"
        r"|ro|rw|0|5|7)\s+)*)"
        r"(?P<secret>\S+)",
        re.IGNORECASE,
    ),
    # SNMPv1/v2c trap hosts carry the community as a bare word after the version.
    re.compile(
        r"(?P<kw>\bversion\s+(?:1|2c|v1|v2c))(?P<sp>\s+)(?P<secret>(?!encrypted\b|cipher\b|v\d)\S+)"
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
    >>> redact("snmp-server host 10.0.0.1 version 2c public")
    'snmp-server host 10.0.0.1 version 2c <redacted>'
    >>> redact("snmp-server host 10.0.0.1 version 2c encrypted 5f4e")
    'snmp-server host 10.0.0.1 version 2c encrypted <redacted>'
    >>> redact("snmp-agent sys-info version v2c v3")
    'snmp-agent sys-info version v2c v3'
    >>> redact(" description uplink to spine-1")
    ' description uplink to spine-1'
    """
    for rule in _RULES:
        text = rule.sub(lambda m: f"{m['kw']}{m['sp']}{REDACTED}", text)
    return text
