"""An M-LAG (DRNI) member switch's system settings, from the templates' 'mlag_*' groups.

The two switches of a pair must agree on the system MAC and priority and differ in the system
number, and each one's keepalive names the other (vendors/<vendor>.grammar.yaml cites where);
lint's RC320 compares them across each pair the evidence step finds.
"""

from __future__ import annotations

from ipaddress import IPv4Address
from itertools import pairwise
from typing import Any, Protocol

from roce_cfg.model import numbers
from roce_cfg.model.device import MlagSystem
from roce_cfg.model.numbers import Domain


class Context(Protocol):
    """What this module needs of the normaliser's context (parse/context.Context)."""

    def number(
        self, raw: Any, domain: Domain, default: None, scope: str | None = None
    ) -> int | None: ...

    def unreadable(self, reason: str, word: str, scope: str | None = None) -> None: ...


_SCOPE = "@mlag"


def read(ctx: Context, raw: dict[str, Any]) -> MlagSystem | None:
    """The switch's M-LAG system settings; None when it prints none."""
    mac, number, priority = (
        _first(raw.get(k)) for k in ("mlag_mac", "mlag_number", "mlag_priority")
    )
    keepalive = _keepalive(
        _first(raw.get("mlag_keepalive_options")) or _first(raw.get("mlag_keepalive"))
    )
    if not (mac or number or priority or keepalive):
        return None
    return MlagSystem(
        system_mac=str(mac["mac"]).lower() if mac else None,
        system_number=ctx.number(number["number"], numbers.GROUP, None, _SCOPE) if number else None,
        system_priority=ctx.number(priority["priority"], numbers.GROUP, None, _SCOPE)
        if priority
        else None,
        keepalive_destination=_address(ctx, keepalive, "destination"),
        keepalive_source=_address(ctx, keepalive, "source"),
        keepalive_vrf=str(keepalive.get("vrf", "")) if keepalive else "",
    )


def _keepalive(item: dict[str, Any] | None) -> dict[str, Any] | None:
    """The keepalive's destination, and its 'source <ip>' and 'vpn-instance <v>' options."""
    if item is None:
        return None
    words = str(item.get("options", "")).split()
    named = {"source": "source", "vpn-instance": "vrf"}
    found = {named[w]: v for w, v in pairwise(words) if w in named}
    return {"destination": item["destination"], **found}


def _first(value: Any) -> dict[str, Any] | None:
    if isinstance(value, list):
        value = next((v for v in value if isinstance(v, dict) and v), None)
    return value if isinstance(value, dict) and value else None


def _address(ctx: Context, item: dict[str, Any] | None, key: str) -> IPv4Address | None:
    if not item or key not in item:
        return None
    text = str(item[key])
    try:
        return IPv4Address(text)
    except ValueError:
        ctx.unreadable(f"'{text}' is not an IPv4 address", text, _SCOPE)
        return None
