"""The filters our templates and an overlay's may use: the numbers of a device's model printed
as a vendor's CLI wants them (dotted masks, whole buffer units, ranges)."""

from __future__ import annotations

from functools import cache
from ipaddress import IPv4Interface, IPv4Network

from roce_cfg.model import numbers


def _mask(value: IPv4Interface | IPv4Network) -> str:
    """``10.1.0.1/31`` -> ``10.1.0.1 255.255.255.254`` (a network prints its address)."""
    if isinstance(value, IPv4Network):
        return f"{numbers.quad_text(int(value.network_address))} {_netmask(value.prefixlen)}"
    return f"{numbers.quad_text(int(value))} {_netmask(value.network.prefixlen)}"


@cache
def _netmask(prefixlen: int) -> str:
    """The dotted mask of a prefix length, worked out once (not per port)."""
    return str(IPv4Network(f"0.0.0.0/{prefixlen}").netmask)


def _units(value: int, unit: int) -> int:
    if value % unit:
        raise ValueError(f"{value} bytes is not a whole number of {unit}-byte units")
    return value // unit


def _ranges(values: list[int] | tuple[int, ...], joiner: str = " to ") -> list[str]:
    """The ``ranges`` filter: ``[0, 1, 2, 5]`` -> ``['0 to 2', '5']`` (model/numbers.py)."""
    return numbers.render(numbers.of(values), joiner)


FILTERS = {"mask": _mask, "units": _units, "ranges": _ranges, "address": numbers.address_json}
