"""The parse's fast paths against the slow reading they stand for (issue 30): the same value,
or the same refusal in the same words, for any input."""

from __future__ import annotations

from collections.abc import Callable
from ipaddress import IPv4Address, IPv4Interface
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from roce_cfg.parse.values import _iface_addr, _prefixlen, ipv4

# dotted quads of every near-miss: leading zeros, signs, spaces, numbers past 255, other digits
_OCTETS = st.one_of(
    st.integers(0, 300).map(str),
    st.integers(0, 255).map(lambda n: f"0{n}"),
    st.sampled_from(["", " 1", "+1", "-1", "\u0664", "0x1", "1\n", "1 ", "٣"]),
    st.text(alphabet="0123456789.\u0663 x/", max_size=4),
)
_QUADS = st.one_of(
    st.lists(_OCTETS, min_size=1, max_size=6).map(".".join),
    st.text(max_size=20),
)


def _outcome(read: Callable[[], Any]) -> tuple[Any, str | None]:
    try:
        return read(), None
    except ValueError as exc:
        return None, f"{type(exc).__name__}: {exc}"


@given(_QUADS)
@example("1.2.3.4\n")
@example("01.2.3.4")
@example("255.255.255.255")
def test_an_address_is_read_as_ipaddress_reads_it(text: str) -> None:
    assert _outcome(lambda: ipv4(text)) == _outcome(lambda: IPv4Address(text))


@given(_QUADS, st.sampled_from(["255.255.255.254", "255.255.255.0", "0.0.0.255", "0.0.0.0"]))
def test_an_interface_address_is_read_as_ipaddress_reads_it(ip: str, mask: str) -> None:
    def slow() -> IPv4Interface:
        return IPv4Interface((ip, _prefixlen(mask)))

    def outcome(read: Callable[[], IPv4Interface]) -> tuple[Any, str | None]:
        try:
            found = read()
        except ValueError:
            return None, "not an address"
        return (found, found.ip, found.network, found.network.prefixlen), None

    assert outcome(lambda: _iface_addr(ip, mask)) == outcome(slow)


@pytest.mark.parametrize("number", [0, 167772161, 2**32 - 1])
def test_an_address_given_as_a_number_stays_a_number(number: int) -> None:
    # an overlay's template may convert the address with to_int: ipaddress reads the number
    assert ipv4(number) == IPv4Address(number)  # type: ignore[arg-type]
