"""The IPv6 underlay as the templates read it (docs/parse.md, keys ``ip6s``, ``ip6_ll``, ``mtu6``;
BGP ``peers6``, ``descriptions6``, ``networks6``, ``defaults6``): a port's, VLAN interface's
and loopback's IPv6 address, the IPv6 MTU a port with IPv6 meets, BGP peers and networks of
either family. Each form's source is beside its template line and grammar entry.
"""

from __future__ import annotations

from ipaddress import (
    IPv4Address,
    IPv4Network,
    IPv6Address,
    IPv6Interface,
    IPv6Network,
    ip_address,
)
from typing import Any, Protocol, TypeVar

from roce_cfg.model import numbers
from roce_cfg.model.device import Interface, PortIpv6
from roce_cfg.platforms.profile import VendorProfile

T = TypeVar("T")

# A port's own keys (its address), never part of the reading ports share (ports._port_lines)
OWN_KEYS = ("ip6s", "ip6_ll")


class Reading(Protocol):
    """What of the normaliser's Context this module uses (parse/context.py)."""

    profile: VendorProfile

    def unreadable(self, reason: str, word: str, scope: str | None = None) -> None: ...

    def number(
        self, raw: Any, domain: numbers.Domain, default: T, scope: str | None = None
    ) -> int | T: ...


def address(text: str) -> IPv4Address | IPv6Address:
    """A peer's or next hop's address of either family, the dotted quad read fast."""
    number = numbers.quad_number(text)
    return IPv4Address(number) if number is not None else ip_address(text)


def of_item(ctx: Reading, item: dict[str, Any], scope: str) -> IPv6Interface | None:
    """The global IPv6 address an interface's lines give ('X/LEN' or 'X LEN', each an entry of
    the template's ``ip6s``), or None. A printed form that is no global address, and every address
    past the first (the model holds one per interface), leave their line unread."""
    found: IPv6Interface | None = None
    for printed in item.get("ip6s", ()):
        text = str(printed.get("address", "")) if isinstance(printed, dict) else ""
        words = text.split()
        if not words:
            continue
        try:
            held = IPv6Interface("/".join(words))
        except ValueError:
            ctx.unreadable(f"'{text}' is not an IPv6 address and prefix length", words[0], scope)
            continue
        if held.is_link_local or held.ip.is_unspecified:
            ctx.unreadable(f"'{text}' is no global address", words[0], scope)
        elif found is not None:
            ctx.unreadable(f"'{text}': a second IPv6 address is not modelled", words[0], scope)
        else:
            found = held
    return found


def entry(ctx: Reading, item: dict[str, Any], name: str, found: IPv6Interface | None) -> PortIpv6:
    """The port's IPv6 record: its address and the IPv6 MTU it prints."""
    return PortIpv6(port=name, address=found, mtu=printed_mtu(ctx, item, name))


def printed_mtu(ctx: Reading, item: dict[str, Any], scope: str) -> int | None:
    if "mtu6" not in item:
        return None
    mtu: int | None = ctx.number(item["mtu6"], numbers.MTU, None, scope)
    return mtu


def mtu(ctx: Reading, item: dict[str, Any], scope: str, ip_mtu: int, both: bool) -> int:
    """The MTU a packet meets on an interface with IPv6: its 'ipv6 mtu', else the vendor's
    default for it (a number, or 'mtu': the interface's IP MTU); with IPv4 too, the smaller."""
    own = printed_mtu(ctx, item, scope)
    default = ctx.profile.parse.ipv6_mtu_default
    v6 = own if own is not None else (ip_mtu if default == "mtu" else default)
    return min(v6, ip_mtu) if both else v6


def port(ctx: Reading, port: Interface, item: dict[str, Any], found: IPv6Interface) -> Interface:
    """``port`` with the MTU its IPv6 packets meet (the smaller with IPv4 as well)."""
    meets = mtu(ctx, item, port.name, port.mtu, port.ipv4 is not None)
    return port if meets == port.mtu else port.model_copy(update={"mtu": meets})


def both(b: dict[str, Any], key: str) -> list[dict[str, Any]]:
    """The BGP block's entries of ``key`` and of its IPv6 twin (``key`` + '6')."""
    out: list[dict[str, Any]] = []
    for k in (key, key + "6"):
        value = b.get(k)
        listed = value if isinstance(value, list) else [value]
        out += [e for e in listed if isinstance(e, dict) and e]
    return out


def networks(ctx: Reading, b: dict[str, Any]) -> list[IPv4Network | IPv6Network]:
    """'network <ip> <mask>' and 'network <ipv6> <length>' of the BGP block, in order."""
    out: list[IPv4Network | IPv6Network] = []
    for n in both(b, "networks"):
        if "plen" in n:
            try:
                out.append(IPv6Network(f"{n['ip']}/{n['plen']}", strict=False))
            except ValueError:
                ctx.unreadable(f"'{n['ip']} {n['plen']}' is no IPv6 prefix", str(n["ip"]), "@bgp")
        else:
            out.append(IPv4Network(f"{n['ip']}/{n['mask']}", strict=False))
    return out
