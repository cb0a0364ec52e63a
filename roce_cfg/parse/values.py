"""The values a template prints, read as the model holds them: IPv4 addresses and masks, sizes in
the vendor's units, port numbers, and number lists from repeated lines. A value outside its
domain is recorded unread on its line (the context's ``skip``/``unreadable``), never dropped.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from ipaddress import IPv4Address, IPv4Interface, IPv4Network
from typing import Any, Literal

from roce_cfg.model import numbers
from roce_cfg.model.device import PriorityBytes
from roce_cfg.model.numbers import Domain, NumberError
from roce_cfg.parse.context import Context, Raw, as_list


@cache
def _prefixlen(mask: str) -> int:
    return IPv4Network(f"0.0.0.0/{mask}").prefixlen


def _iface_addr(ip: str, mask: str) -> IPv4Interface:
    """An address and mask as ipaddress reads them (a ValueError where they are none)."""
    address, prefixlen = _address_of(ip), _prefixlen(mask)
    if isinstance(address, int):
        return numbers.interface(address, prefixlen)
    return IPv4Interface((address, prefixlen))


def port_address(ctx: Context, ip: str, mask: str, port: str) -> IPv4Interface | None:
    """The port's address, or None (its line unread) where it is no IPv4 address and mask."""
    try:
        return _iface_addr(ip, mask)
    except ValueError:
        ctx.unreadable(f"'{ip} {mask}' is not an IPv4 address and mask", str(ip), port)
        return None


def _address_of(text: str) -> int | str:
    """What ipaddress builds the same address from, cheaper: its number, or the text (read,
    or refused in its words, by ipaddress). ipaddress's own parse of a port's and a peer's
    address was a tenth of an xl file's parse. An overlay's template may hand
    over a number (to_int): ipaddress reads that as is."""
    number = numbers.quad_number(text)
    return text if number is None else number


def ipv4(text: str) -> IPv4Address:
    """``IPv4Address(text)``, the usual dotted quad read without ipaddress's parse."""
    return IPv4Address(_address_of(text))


def size_bytes(
    ctx: Context,
    value: Any,
    unit_word: str | None,
    default: int | Literal["cell"],
    scope: str | None = None,
) -> int | None:
    """A size in bytes, or None (its line recorded unread) when it is no byte count."""
    unit: int | Literal["cell"] = default
    if unit_word:
        if unit_word not in ctx.profile.parse.sizes:
            ctx.unreadable(f"unknown size unit '{unit_word}'", unit_word, scope)
            return None
        unit = ctx.profile.parse.sizes[unit_word]
    count = ctx.number(value, numbers.BYTES, None, scope)
    if count is None:
        return None
    size = count * ctx.profile.unit_bytes(unit, ctx.model)
    if size not in numbers.BYTES:
        ctx.skip(numbers.OutOfDomain(str(value), numbers.BYTES), scope)
        return None
    return size


def listed_numbers(
    ctx: Context, item: Raw, key: str, domain: Domain, scope: str
) -> tuple[int, ...]:
    """Numbers from repeated lines ('pfc priority 3 no-drop' twice, or '... dot1p 3 4')."""
    if not item.get(key):
        return ()
    found = [
        ctx.ranges(entry.get("values", entry.get("queue", "")), domain, scope)
        for entry in as_list(item.get(key))
    ]
    return numbers.expand(numbers.merge(r for rs in found for r in rs))


def port_number(digits: str) -> int:
    """A port number from an interface name; -1 when it is no port number (4,301 digits)."""
    try:
        return numbers.number(digits, numbers.PORT_NUMBER)
    except NumberError:
        return -1


def first_int(ctx: Context, item: Raw, keys: tuple[str, ...], default: int, scope: str) -> int:
    """The first of ``keys`` the item has (every one of them checked: a bad value on a line the
    first key shadows is still reported)."""
    found = [ctx.number(item[key], numbers.MTU, None, scope) for key in keys if key in item]
    return next((n for n in found if n is not None), default)


def union(values: Iterable[tuple[int, ...]]) -> tuple[int, ...]:
    out: set[int] = set()
    for v in values:
        out.update(v)
    return tuple(sorted(out))


def per_priority(ctx: Context, item: Raw, key: str, scope: str) -> tuple[PriorityBytes, ...]:
    """Bytes per priority ('headroom', 'xoff'); a line with a value outside its domain is
    unread, the others are kept."""
    out = []
    for h in as_list(item.get(key)):
        priority = ctx.number(h["priority"], numbers.PRIORITY, None, scope)
        size = size_bytes(ctx, h["value"], h.get("unit"), ctx.profile.headroom_unit_bytes, scope)
        if priority is not None and size is not None:
            out.append(PriorityBytes(priority=priority, bytes=size))
    return tuple(out)
