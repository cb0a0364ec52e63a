"""Numbers and number lists as switches print them, bounded to the domain of their field.

The one codec for number lists: ``parse`` reads every vendor's printed forms (``2 5 to 7``,
``101-104,200``, ``all``) into sorted, disjoint, inclusive ranges, ``render`` writes ranges
back, ``number`` reads one number. Nothing is expanded while reading: the work is linear in the
text whatever the values say (``vlan batch 2 to 1000000`` is two numbers, one of them out of
the VLAN domain), and no number is converted past its domain's digits (a 4,301-digit
interface number is refused by length, not by Python's conversion limit).

A value outside its domain is an ``OutOfDomain`` error naming the field and the domain; text
that is no number list at all is a ``NumberError``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from ipaddress import IPv4Address, IPv4Interface
from socket import inet_aton

# an interface built from numbers: the shortcut lives with the model's others (model/fast.py)
from roce_cfg.model.fast import interface as interface

Ranges = tuple[tuple[int, int], ...]  # sorted, disjoint, not adjacent, inclusive


@dataclass(frozen=True)
class Domain:
    """The values a field can hold: ``low`` to ``high`` inclusive."""

    what: str
    low: int
    high: int

    def __contains__(self, n: object) -> bool:
        return isinstance(n, int) and self.low <= n <= self.high

    def __str__(self) -> str:
        return f"{self.low}-{self.high}"


# IEEE 802.1Q (0 and 4095 are reserved), the DiffServ field (6 bits), 802.1p (3 bits), eight
# egress queues on every supported model, 4-byte ASNs (RFC 6793; 0 is reserved, RFC 7607).
VLAN = Domain("VLAN", 1, 4094)
DSCP = Domain("DSCP", 0, 63)
PRIORITY = Domain("priority", 0, 7)
QUEUE = Domain("queue", 0, 7)
ASN = Domain("AS number", 1, 4_294_967_295)
PERCENT = Domain("percentage", 0, 100)
# Envelopes where the vendor grammars give the exact range per command: an IPv4 packet is at
# most 65,535 bytes; no switch buffer holds 1 TiB; a watchdog timer past an hour means nothing.
MTU = Domain("MTU", 46, 65_535)
# An Ethernet frame limit (jumboframe enable), FCS included: at least a minimum frame.
FRAME = Domain("frame size", 64, 65_535)
BYTES = Domain("byte count", 0, 2**40)
MILLISECONDS = Domain("time in ms", 0, 3_600_000)
PATHS = Domain("path count", 1, 1024)
# aggregate (Eth-Trunk 0-1023 on CE [HW-CR] eth-trunk), M-LAG and peer-link ids
GROUP = Domain("group id", 0, 65_535)
SPEED = Domain("speed in Gb/s", 1, 1600)
SPEED_MBPS = Domain("speed in Mb/s", 10, 1_600_000)
# Slot, port and lane numbers in an interface name (HundredGigE1/0/49:2).
PORT_NUMBER = Domain("port number", 0, 99_999)
# A static route's preference (VRP, Comware: 1-255; IOS distance 1-255) and its tag (a 32-bit
# value: [HW-CR] ip route-static tag 1-4294967295; Comware and IOS accept 0).
ROUTE_PREFERENCE = Domain("route preference", 1, 255)
ROUTE_TAG = Domain("route tag", 0, 4_294_967_295)


class NumberError(ValueError):
    """Text that is not a number (list) at all; ``text`` is the word that is not."""

    def __init__(self, message: str, text: str = "") -> None:
        self.text = text
        super().__init__(message)


class OutOfDomain(NumberError):
    """A number outside its field's domain."""

    def __init__(self, text: str, domain: Domain) -> None:
        self.domain = domain
        # the number as a message shows it: a 4,301-digit one by its length
        self.shown = text if len(text) <= 24 else f"{text[:12]}...({len(text):,} digits)"
        super().__init__(f"{domain.what} {self.shown} out of range {domain}", text)


def number(text: str, domain: Domain) -> int:
    """One decimal number of ``domain``, converted only when its length allows it.

    Args:
        text: the number as printed (leading zeros and a minus sign allowed).
        domain: the field's domain.

    Returns:
        The number.

    Raises:
        OutOfDomain: it is a number, outside the domain.
        NumberError: it is not a decimal number.

    >>> number("4094", VLAN)
    4094
    >>> number("9" * 4301, VLAN)
    Traceback (most recent call last):
    ...
    roce_cfg.model.numbers.OutOfDomain: VLAN 999999999999...(4,301 digits) out of range 1-4094
    >>> number("-1", MTU)
    Traceback (most recent call last):
    ...
    roce_cfg.model.numbers.OutOfDomain: MTU -1 out of range 46-65535
    """
    digits = text[1:] if text.startswith("-") else text
    if not (digits.isascii() and digits.isdigit()):
        raise NumberError(f"'{text[:40]}' is not a number", text)
    if len(digits.lstrip("0")) > len(str(max(abs(domain.low), abs(domain.high)))):
        raise OutOfDomain(text, domain)
    n = int(text)
    if n not in domain:
        raise OutOfDomain(text, domain)
    return n


def parse(text: str, domain: Domain, every: Ranges | None = None) -> Ranges:
    """A printed number list as ranges: numbers and ranges (``a to b``, ``a-b``) separated by
    blanks or commas, or ``all`` (``every``, by default the whole domain).

    Args:
        text: the list as printed.
        domain: the domain every number must be in.
        every: what ``all`` stands for (a trunk's ``all`` is every VLAN the switch has).

    Returns:
        Sorted, disjoint, inclusive ranges; adjacent and overlapping ones are merged.

    Raises:
        OutOfDomain: a number outside the domain.
        NumberError: a word that is not a number, or a range that runs backwards.

    >>> parse("2 5 to 7", VLAN)
    ((2, 2), (5, 7))
    >>> parse("101-104,200 103", VLAN)
    ((101, 104), (200, 200))
    >>> parse("all", PRIORITY)
    ((0, 7),)
    >>> parse("2 to 1000000", VLAN)
    Traceback (most recent call last):
    ...
    roce_cfg.model.numbers.OutOfDomain: VLAN 1000000 out of range 1-4094
    """
    words = text.replace(",", " ").split()
    if words == ["all"]:
        return ((domain.low, domain.high),) if every is None else every
    found: list[tuple[int, int]] = []
    i = 0
    while i < len(words):
        start = i
        low, high, i = _one(words, i, domain)
        if high < low:  # its text: the words as printed, which locate the line holding them
            raise NumberError(f"range {low} to {high} runs backwards", " ".join(words[start:i]))
        found.append((low, high))
    return merge(found)


def _one(words: list[str], i: int, domain: Domain) -> tuple[int, int, int]:
    """The range or number at ``words[i]``: (low, high, the index after it).

    A range has two ends, each a number of the domain, the low one first:

    >>> parse("5 to", VLAN)
    Traceback (most recent call last):
    ...
    roce_cfg.model.numbers.NumberError: range '5 to' has no upper end
    >>> parse("1 to 3 to 7", VLAN)
    Traceback (most recent call last):
    ...
    roce_cfg.model.numbers.NumberError: range '1 to 3 to 7' has more than two ends
    >>> parse("to 5", VLAN)
    Traceback (most recent call last):
    ...
    roce_cfg.model.numbers.NumberError: range 'to 5' has no lower end
    >>> parse("5-", VLAN)
    Traceback (most recent call last):
    ...
    roce_cfg.model.numbers.NumberError: range '5-' has no upper end
    >>> parse("7 to 3", VLAN)
    Traceback (most recent call last):
    ...
    roce_cfg.model.numbers.NumberError: range 7 to 3 runs backwards
    """
    word = words[i]
    # the error's text is the words as printed: what locates the line that holds them
    if word == "to":
        shown = " ".join(words[i : i + 2])[:40]
        raise NumberError(f"range '{shown}' has no lower end", shown)
    if i + 1 < len(words) and words[i + 1] == "to":
        if i + 2 >= len(words) or words[i + 2] == "to":
            shown = f"{word[:24]} to"
            raise NumberError(f"range '{shown}' has no upper end", shown)
        if i + 3 < len(words) and words[i + 3] == "to":
            shown = " ".join(w[:24] for w in words[i : i + 5])
            raise NumberError(f"range '{shown}' has more than two ends", shown)
        return number(word, domain), number(words[i + 2], domain), i + 3
    if "-" in word[1:]:  # '-1' is a (negative) number, '1-3' a range
        a, _, b = word.partition("-")
        why = "no lower end" if not a else "no upper end" if not b else None
        why = why or ("more than two ends" if "-" in b else None)
        if why:
            raise NumberError(f"range '{word[:40]}' has {why}", word)
        return number(a, domain), number(b, domain), i + 1
    n = number(word, domain)
    return n, n, i + 1


def merge(ranges: Iterable[tuple[int, int]]) -> Ranges:
    """Ranges sorted, with overlapping and adjacent ones joined.

    >>> merge([(5, 7), (1, 2), (3, 3), (6, 9)])
    ((1, 3), (5, 9))
    """
    out: list[tuple[int, int]] = []
    for low, high in sorted(ranges):
        if out and low <= out[-1][1] + 1:
            if high > out[-1][1]:
                out[-1] = (out[-1][0], high)
        else:
            out.append((low, high))
    return tuple(out)


def canonical(ranges: Ranges) -> bool:
    """Whether ``ranges`` are as this module builds them (``Ranges``): what ranges read from
    outside a parse (the parse cache's) must be before ``expand`` or ``contains`` meet them.

    >>> canonical(((1, 3), (5, 9))), canonical(((1, 3), (4, 9))), canonical(((9, 1),))
    (True, False, False)
    """
    return all(low <= high for low, high in ranges) and merge(ranges) == ranges


def without(ranges: Ranges, removed: Ranges) -> Ranges:
    """``ranges`` less every value of ``removed``.

    >>> without(((1, 10),), ((1, 1), (4, 5)))
    ((2, 3), (6, 10))
    """
    out: list[tuple[int, int]] = []
    for low, high in ranges:
        for cut_low, cut_high in merge(removed):
            if cut_high < low or cut_low > high:
                continue
            if cut_low > low:
                out.append((low, cut_low - 1))
            low = cut_high + 1
        if low <= high:
            out.append((low, high))
    return tuple(out)


def of(values: Iterable[int]) -> Ranges:
    """The ranges holding exactly ``values``.

    >>> of([0, 1, 2, 5])
    ((0, 2), (5, 5))
    """
    return merge((v, v) for v in values)


@lru_cache(maxsize=256)
def expand(ranges: Ranges) -> tuple[int, ...]:
    """Every value of ``ranges``, for fields whose domain is small (a VLAN set is at most 4,094
    values); the same ranges give the same tuple object, so a list that repeats costs once.

    >>> expand(((1, 3), (7, 7)))
    (1, 2, 3, 7)
    """
    if sum(high - low + 1 for low, high in ranges) > 65_536:
        raise ValueError("expand is for small domains (at most 65,536 values)")
    return tuple(v for low, high in ranges for v in range(low, high + 1))


def contains(ranges: Ranges, n: int) -> bool:
    """Whether ``n`` is in ``ranges``.

    >>> contains(((1, 3), (7, 9)), 8), contains(((1, 3), (7, 9)), 5)
    (True, False)
    """
    return any(low <= n <= high for low, high in ranges)


def render(ranges: Ranges, joiner: str = " to ") -> list[str]:
    """Ranges as a switch prints a list: a range as its ends joined by ``joiner``, a single
    value alone.

    >>> render(of([0, 1, 2, 5]))
    ['0 to 2', '5']
    >>> render(((101, 104), (200, 200)), "-")
    ['101-104', '200']
    """
    return [str(lo) if lo == hi else f"{lo}{joiner}{hi}" for lo, hi in ranges]


# The dotted quads ipaddress accepts (ASCII digits, no leading zeros): one home for the fast
# read of an address that fabric.json's links and a config's ports and peers share; the C
# resolver reads one in a fraction of ipaddress's own parse.
QUAD = r"\.".join(["(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])"] * 4)
_QUAD = re.compile(QUAD)


def quad(text: str) -> int:
    """The number of ``text``, a dotted quad ``QUAD`` matched."""
    return int.from_bytes(inet_aton(text))


def quad_number(text: object) -> int | None:
    """The number of ``text`` when it is a dotted quad as ipaddress reads it, else None."""
    return quad(text) if isinstance(text, str) and _QUAD.fullmatch(text) else None


_OCTETS = [str(n) for n in range(256)]


def quad_text(n: int) -> str:
    """The dotted quad of an IPv4 address's number, as ipaddress prints it, at a fifth of its
    cost (1.5 us a print: the large fabric's configs print 70,000 addresses, its fabric.json
    33,000).

    >>> quad_text(0x0A000001), quad_text(0xFFFFFFFF), quad_text(0)
    ('10.0.0.1', '255.255.255.255', '0.0.0.0')
    """
    o = _OCTETS
    return f"{o[n >> 24]}.{o[n >> 16 & 255]}.{o[n >> 8 & 255]}.{o[n & 255]}"


def interface_json(value: object) -> str:
    """An IPv4Interface field's JSON text, ``str(value)`` as pydantic writes it, printed by
    ``quad_text`` (anything but an IPv4Interface by ``str``).

    >>> interface_json(IPv4Interface("10.0.0.1/31")), interface_json(IPv4Interface("1.2.3.4"))
    ('10.0.0.1/31', '1.2.3.4/32')
    """
    if type(value) is IPv4Interface:
        return f"{quad_text(int(value))}/{value.network.prefixlen}"
    return str(value)


def address_json(value: object) -> str:
    """An IPv4Address field's JSON text, ``str(value)`` as pydantic writes it, printed by
    ``quad_text`` (anything but an IPv4Address by ``str``).

    >>> address_json(IPv4Address("192.168.0.1"))
    '192.168.0.1'
    """
    return quad_text(int(value)) if type(value) is IPv4Address else str(value)


def quad_address(value: object) -> IPv4Address | None:
    """``IPv4Address(value)`` when ``value`` is a dotted quad ``QUAD``, built from its number
    (a BGP peer's: 131,072 of them in a parse cache of the xl fabric), else None."""
    number = quad_number(value)
    return None if number is None else IPv4Address(number)


def address_text(value: object) -> object:
    """An IPv4Address field's input, built here when it is a dotted quad (``quad_address``);
    anything else unchanged, for pydantic's own check.

    >>> address_text("10.0.0.1"), address_text("10.0.0.256"), address_text(7)
    (IPv4Address('10.0.0.1'), '10.0.0.256', 7)
    """
    quad = quad_address(value)
    return quad if quad is not None else value


def interface_text(value: object) -> object:
    """An IPv4Interface field's input, built here when it is the text ipaddress prints of one
    ('10.0.0.1/31': a dotted quad ``QUAD``, a prefix length of ASCII digits up to 32), as
    ``IPv4Interface(value)`` builds it in a fraction of its time (a parse cache's entry holds
    every routed port's address as text); anything else unchanged, for pydantic's own check."""
    if type(value) is not str:
        return value
    address, slash, length = value.partition("/")
    number = quad_number(address)
    if number is None or not slash or not (length.isascii() and length.isdigit()):
        return value
    bits = int(length)
    return interface(number, bits) if bits <= 32 else value
