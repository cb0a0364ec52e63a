"""Static routes, read word by word with the vendor's option grammar (``static_route`` in
``vendors/<vendor>.yaml``, sources cited there).

A route line may carry any of the options the vendors print (preference, tag, description,
track, bfd, permanent, a VPN instance, NULL0, an outgoing interface). A line whose destination
or next hop cannot be read is reported unread with its line number; a line with an option the
grammar does not list keeps its route and is named in a note, so nothing is dropped unseen.
"""

from __future__ import annotations

from collections.abc import Sequence
from ipaddress import IPv4Address, IPv4Network, IPv6Address, IPv6Network
from typing import TYPE_CHECKING, Any

from roce_cfg.model import numbers
from roce_cfg.model.device import StaticRoute
from roce_cfg.platforms.routes import RouteOption, StaticRouteSpec

if TYPE_CHECKING:  # normalise calls this module; the context is its
    from roce_cfg.parse.context import Context


class Unreadable(ValueError):
    """A route line whose destination or next hop cannot be read."""


class _Unknown(Exception):
    """An option word the vendor's grammar does not list."""


def read(
    ctx: Context, items: Sequence[dict[str, Any]], items6: Sequence[dict[str, Any]] = ()
) -> tuple[StaticRoute, ...]:
    """Every static route of the config, IPv4 ('ip route-static') then IPv6 ('ipv6
    route-static'), each family in file order (ECMP routes to one prefix all kept)."""
    spec = ctx.profile.parse.static_route
    if spec is None:
        return ()
    out: list[StaticRoute] = []
    for command, v6, lines in ((spec.command, False, items), (spec.ipv6_command, True, items6)):
        for item in lines if command else ():
            words = str(item.get("words", "")).split()
            text = " ".join([str(command), *words])
            line = ctx.line_of(text)
            try:
                route = _route(ctx, spec, words, line, v6)
            except Unreadable as exc:
                ctx.refuse(line, text, f"static route not read: {exc}")
                continue
            if route is not None:
                out.append(route)
    return tuple(out)


def _route(
    ctx: Context, spec: StaticRouteSpec, words: list[str], line: int | None, v6: bool
) -> StaticRoute | None:
    """One route; None when the line is a global setting ('ip route-static bfd ...')."""
    vrf = ""
    if words and words[0] == spec.vrf_word:
        if len(words) < 2:
            raise Unreadable(f"'{spec.vrf_word}' without a name")
        vrf, words = words[1], words[2:]
    if not words:
        raise Unreadable("no destination")
    if words[0] in spec.settings:
        return None
    prefix, words = _destination(words, v6)
    if not words:
        raise Unreadable("no destination, mask and next hop")
    next_hop, interface, rest = _next_hop(spec, words, v6)
    fields = _options(ctx, spec, rest, line)
    return StaticRoute(
        prefix=prefix, next_hop=next_hop, interface=interface, vrf=vrf, line=line, **fields
    )


def _address(word: str, v6: bool = False) -> IPv4Address | IPv6Address | None:
    try:
        return IPv6Address(word) if v6 else IPv4Address(word)
    except ValueError:
        return None


def _destination(words: list[str], v6: bool) -> tuple[IPv4Network | IPv6Network, list[str]]:
    """The destination and the words after it: '10.0.0.0 255.0.0.0' or '10.0.0.0 8' (VRP and
    Comware print the length as typed), '2001:DB8:: 48', or '2001:DB8::/48' (IOS shape)."""
    if v6 and "/" in words[0]:
        ip, _, mask = words[0].partition("/")
        rest = words[1:]
    elif len(words) < 3:
        raise Unreadable("no destination, mask and next hop")
    else:
        ip, mask, rest = words[0], words[1], words[2:]
    family = "IPv6" if v6 else "IPv4"
    if _address(ip, v6) is None:
        raise Unreadable(f"'{ip}' is not an {family} destination")
    try:
        if v6:
            return IPv6Network(f"{ip}/{mask}", strict=False), rest
        return IPv4Network(f"{ip}/{mask}", strict=False), rest
    except ValueError:
        raise Unreadable(f"'{mask}' is not a mask or mask length") from None


def _next_hop(
    spec: StaticRouteSpec, words: list[str], v6: bool
) -> tuple[IPv4Address | IPv6Address | None, str, list[str]]:
    """The next-hop address and outgoing interface; the words after them."""
    if words[0] == spec.vrf_word and len(words) > 2:  # a route into another VPN instance
        words = words[2:]
    found = _address(words[0], v6)
    if found is not None:
        return found, "", words[1:]
    if words[0] in spec.options or words[0].isdigit():
        raise Unreadable(f"no next hop before '{words[0]}'")
    interface, rest = words[0], words[1:]
    if interface.isalpha() and rest and rest[0].isdigit():  # 'NULL 0' as typed
        interface, rest = interface + rest[0], rest[1:]
    found = _address(rest[0], v6) if rest else None
    return found, interface, rest[1:] if found is not None else rest


def _options(
    ctx: Context, spec: StaticRouteSpec, words: list[str], line: int | None
) -> dict[str, Any]:
    """The options after the next hop, by the grammar; a word no option of the grammar takes
    leaves the whole line unread: a route missing its preference or its VPN would steer the
    deadlock analysis where the switch does not."""
    fields: dict[str, Any] = {}
    i = 0
    while i < len(words):
        word = words[i]
        option = spec.options.get(word)
        bare = spec.bare_preference and word.isdigit() and "preference" not in fields
        if option is None and bare:
            fields["preference"] = _int(word, numbers.ROUTE_PREFERENCE)
            i += 1
            continue
        try:
            if option is None:
                raise _Unknown(word)
            i = _option(option, words, i + 1, fields)
        except _Unknown as exc:
            raise Unreadable(f"option '{exc}' not understood") from None
    return fields


def _option(option: RouteOption, words: list[str], i: int, fields: dict[str, Any]) -> int:
    """Reads one option's values from ``words[i:]`` into ``fields``; the next index."""
    value: str | int
    if option.takes == "rest":
        value, i = " ".join(words[i:]), len(words)
    elif option.takes == "int":
        if i >= len(words):
            raise Unreadable(f"'{words[i - 1]}' without a value")
        domain = numbers.ROUTE_TAG if option.field == "tag" else numbers.ROUTE_PREFERENCE
        value, i = _int(words[i], domain), i + 1
    else:
        count = option.takes
        if option.variants:
            if i >= len(words) or words[i] not in option.variants:
                raise _Unknown(" ".join(words[i - 1 : i + 1]))
            count = 1 + option.variants[words[i]]
        if i + count > len(words):
            raise Unreadable(f"'{words[i - 1]}' needs {count} more words")
        value, i = " ".join(words[i : i + count]), i + count
    if option.field in ("bfd", "permanent"):
        fields[option.field] = True
    elif option.field == "ecmp":
        fields["inter_protocol_ecmp"] = True
    elif option.field != "other":
        fields[option.field] = value
    return i


def _int(word: str, domain: numbers.Domain) -> int:
    try:
        return numbers.number(word, domain)
    except numbers.NumberError as exc:
        raise Unreadable(str(exc)) from None
