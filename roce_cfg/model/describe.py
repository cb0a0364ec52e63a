"""The port-description codec: what a running-config cannot say about a port (its far end, the
speed it is meant to run at, its cable length), written by design into the description and read
back by parse, lint and deadlock, from roce-cfg's own descriptions and from an operator's.

roce-cfg writes ``far:<device>:<port> speed=<n>G cable=<n>m``; the readers also take the forms
operators write by hand: ``speed:100G``, ``cable 2.5 m``, ``cable:100m``, ``length 30 m``,
``len:30m``, a length token between separators (``_800m_SMF``, ``-100M-``, ``(30m)``), and a
description that is only the far end, ``leaf-1:HundredGigE1/0/1``. A value outside its domain
(speeds of 1-1600G, cables of up to 10 km, as the intent and fabric.json bound them) is not read.
"""

from __future__ import annotations

import re

# The shortest interface-description limit among the vendors: Ruijie's 80 characters
# (vendor-reference.md, RGOS 'description'); Huawei's is 242 ([HW-CR] description (interface
# view)), H3C's 255; ZTE's is unsourced, so 80 holds for it too.
DESCRIPTION_MAX = 80
MAX_SPEED_GBPS = 1600
MAX_CABLE_M = 10_000.0

# Digits bounded: a 5,000-digit 'speed=' must neither be converted nor match.
_SPEED = re.compile(r"\bspeed\s*[=:]\s*(\d{1,5})\s*G\b", re.IGNORECASE)
# A length after a word that names it ('cable=30m', 'cable 2.5 m', 'length 30 m', 'len:30m',
# 'cable_len=30m', 'uplink_cable 30 m'); the unit is the last letter ('30mm', '30min' are no
# metres).
_CABLE = re.compile(
    r"(?<![a-z0-9])(?:cable|len|length|dist|distance)(?:[_-]?(?:len|length))?\s*[=:]?\s*"
    r"(\d{1,6}(?:\.\d{1,6})?)\s*m(?![a-z0-9])",
    re.IGNORECASE,
)
_OWN_FAR = re.compile(r"^far:(?P<device>[^:\s]+):(?P<port>\S+)")
# The naming convention of cabling teams: a '<n>m' token between separators ('..._100m_OM4',
# 'gpu-101_eth0_3m_DAC', 'uplink 300m', 'TO-SPINE-100M-SMF', 'spine-1 (30m)'). Not a vendor
# form. A letter or digit on either side makes it another word ('ID100M', '5mm', '100Mbps'), as
# does a number it continues ('1.5m' is read whole, never as '5m'; '1,5m' not at all).
_LENGTH_TOKEN = re.compile(r"(?<![A-Za-z0-9.,])(\d{1,5}(?:\.\d{1,3})?)[mM](?![A-Za-z0-9])")


def encode(far: str, speed_gbps: int, cable_m: float) -> str:
    """A port's description: its far end (cut first when too long), speed and cable length.

    >>> encode("spine-1:HundredGigE1/0/25", 400, 30)
    'far:spine-1:HundredGigE1/0/25 speed=400G cable=30m'
    >>> len(encode("x" * 100, 200, 2.5))
    80
    """
    facts = f" speed={speed_gbps}G cable={cable_m:g}m"
    return f"far:{far}"[: DESCRIPTION_MAX - len(facts)] + facts


def speed(description: str) -> int | None:
    """The speed a description states, in Gb/s (what a port name only bounds: a 400G port may
    run a 200G NIC).

    >>> speed("far:server-1:nic0 speed=200G cable=3m"), speed("uplink, speed: 100 g")
    (200, 100)
    >>> speed("speed=0G"), speed("speed=99999G"), speed("no speed here")
    (None, None, None)
    """
    m = _SPEED.search(description)
    value = int(m[1]) if m else 0
    return value if 0 < value <= MAX_SPEED_GBPS else None


def cable(description: str) -> float | None:
    """The cable length a description states, in metres.

    >>> cable("far:spine-1:HGE1/0/1 speed=400G cable=30m"), cable("cable 2.5 m"), cable("x")
    (30.0, 2.5, None)
    >>> cable("cable=0m"), cable("cable=20000m")
    (None, None)
    """
    found = cable_stated(description)
    return found[0] if found else None


def cable_stated(description: str) -> tuple[float, str] | None:
    """The cable length a description states and the words that state it: a length after a word
    naming it (roce-cfg's ``cable=<n>m``, ``cable 2.5 m``, ``len:30m``), else the first
    ``<n>m`` token between separators.

    >>> cable_stated("to_spine-1_100GE1/0/1_100m_OM4"), cable_stated("gpu-101_eth0_3m_DAC")
    ((100.0, '100m'), (3.0, '3m'))
    >>> cable_stated("uplink 300m"), cable_stated("10.1.1.1 5mm"), cable_stated("x_0m_")
    ((300.0, '300m'), None, None)
    >>> cable_stated("TO-SPINE-100M-SMF"), cable_stated("spine-1 (30m)"), cable_stated("len:30m")
    ((100.0, '100M'), (30.0, '30m'), (30.0, 'len:30m'))
    >>> cable_stated("ID100M 400G"), cable_stated("1,5m"), cable_stated("x_0m_7m")
    (None, None, (7.0, '7m'))
    """
    for pattern in (_CABLE, _LENGTH_TOKEN):
        for m in pattern.finditer(description):
            value = float(m[1])
            if 0 < value <= MAX_CABLE_M:
                return value, m[0]
    return None


def far_end(description: str) -> tuple[str, str] | None:
    """The (device, port) a description names as the far end: roce-cfg's ``far:`` form, or a
    description that is ``device:port`` and nothing else.

    >>> far_end("far:spine-1:HundredGigE1/0/25 speed=400G cable=30m")
    ('spine-1', 'HundredGigE1/0/25')
    >>> far_end("leaf-2:Ethernet1/1"), far_end("to the storage rack")
    (('leaf-2', 'Ethernet1/1'), None)
    """
    own = _OWN_FAR.match(description)
    if own:
        return own["device"], own["port"]
    device, _, port = description.partition(":")
    return (device, port) if device and port else None
