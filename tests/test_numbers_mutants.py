"""The number codec (model/numbers.py) at each edge a mutation run found untested: every
domain's two bounds, the forms a number may and may not take, how an error shows the number,
``all``, ranges after ranges, the limits of expand and contains, and dotted quads.

(The malformed list forms ``5 to``, ``1 to 3 to 7``, and DSCP 64 / AS 0 read from a config are
tests/test_numbers_edges.py's.)
"""

from __future__ import annotations

from ipaddress import IPv4Interface

import pytest

from roce_cfg.model import numbers
from roce_cfg.model.numbers import Domain, NumberError, OutOfDomain, number, parse

# Each domain with its bounds and why they are those (the comments of numbers.py).
DOMAINS = [
    (numbers.VLAN, "VLAN", 1, 4094),  # IEEE 802.1Q: 0 and 4095 are reserved
    (numbers.DSCP, "DSCP", 0, 63),  # the DiffServ field: 6 bits
    (numbers.PRIORITY, "priority", 0, 7),  # 802.1p: 3 bits
    (numbers.QUEUE, "queue", 0, 7),  # eight egress queues on every supported model
    (numbers.ASN, "AS number", 1, 2**32 - 1),  # RFC 6793 4-byte ASNs; 0 reserved, RFC 7607
    (numbers.PERCENT, "percentage", 0, 100),
    (numbers.MTU, "MTU", 46, 65_535),  # an IPv4 packet is at most 65,535 bytes
    (numbers.FRAME, "frame size", 64, 65_535),  # at least a minimum Ethernet frame
    (numbers.BYTES, "byte count", 0, 2**40),  # no switch buffer holds 1 TiB
    (numbers.MILLISECONDS, "time in ms", 0, 3_600_000),  # an hour
    (numbers.PATHS, "path count", 1, 1024),
    (numbers.GROUP, "group id", 0, 65_535),
    (numbers.SPEED, "speed in Gb/s", 1, 1600),
    (numbers.SPEED_MBPS, "speed in Mb/s", 10, 1_600_000),
    (numbers.PORT_NUMBER, "port number", 0, 99_999),
    (numbers.ROUTE_PREFERENCE, "route preference", 1, 255),  # VRP, Comware, IOS: 1-255
    (numbers.ROUTE_TAG, "route tag", 0, 2**32 - 1),  # a 32-bit value
]


@pytest.mark.parametrize(("domain", "what", "low", "high"), DOMAINS, ids=[d[1] for d in DOMAINS])
def test_each_domain_holds_its_bounds_and_nothing_past_them(
    domain: Domain, what: str, low: int, high: int
) -> None:
    assert (domain.what, domain.low, domain.high, str(domain)) == (what, low, high, f"{low}-{high}")
    assert number(str(low), domain) == low and number(str(high), domain) == high
    for outside in (low - 1, high + 1):
        with pytest.raises(OutOfDomain) as caught:
            number(str(outside), domain)
        assert str(caught.value) == f"{what} {outside} out of range {low}-{high}"
        assert caught.value.domain is domain and caught.value.text == str(outside)
    assert parse(f"{low} to {high}", domain) == ((low, high),)


def test_membership_is_for_integers_only() -> None:
    assert 5 in numbers.VLAN and 0 not in numbers.VLAN and 4095 not in numbers.VLAN
    assert "5" not in numbers.VLAN and None not in numbers.VLAN and 5.0 not in numbers.VLAN


@pytest.mark.parametrize(
    "text", ["", "-", "+5", "5.0", "0x10", " 5", "\u0665", "\u00b2", "1e3", "--1"]
)
def test_what_is_no_decimal_number_is_a_number_error(text: str) -> None:
    with pytest.raises(NumberError) as caught:
        number(text, numbers.BYTES)
    assert type(caught.value) is NumberError  # not out of a domain: no number at all
    assert str(caught.value) == f"'{text}' is not a number" and caught.value.text == text


def test_a_long_word_is_shown_by_its_first_forty_characters() -> None:
    word = "x" * 39 + "yz"
    with pytest.raises(NumberError, match=r"^'x{39}y' is not a number$"):
        number(word, numbers.VLAN)


def test_leading_zeros_and_a_minus_sign() -> None:
    assert number("0000000000000000000101", numbers.VLAN) == 101
    assert number("-0", numbers.DSCP) == 0
    with pytest.raises(OutOfDomain, match=r"^VLAN -1 out of range 1-4094$"):
        number("-1", numbers.VLAN)
    with pytest.raises(OutOfDomain, match=r"^VLAN 00004095 out of range 1-4094$"):
        number("00004095", numbers.VLAN)


@pytest.mark.parametrize(
    ("digits", "shown"),
    [
        ("9" * 24, "9" * 24),  # shown whole up to 24 characters
        ("9" * 25, "9" * 12 + "...(25 digits)"),
        ("9" * 4301, "9" * 12 + "...(4,301 digits)"),
    ],
)
def test_an_out_of_domain_number_is_shown_whole_or_by_its_length(digits: str, shown: str) -> None:
    with pytest.raises(OutOfDomain) as caught:
        number(digits, numbers.VLAN)
    assert caught.value.shown == shown and caught.value.text == digits
    assert str(caught.value) == f"VLAN {shown} out of range 1-4094"


def test_all_is_the_domain_or_what_the_caller_says() -> None:
    assert parse("all", numbers.VLAN) == ((1, 4094),)
    assert parse(" all ", numbers.PRIORITY) == ((0, 7),)
    assert parse("all", numbers.VLAN, every=((10, 20),)) == ((10, 20),)
    assert parse("all", numbers.VLAN, every=()) == ()
    with pytest.raises(NumberError):
        parse("all 5", numbers.VLAN)  # 'all' only alone


def test_words_after_a_range_are_read_too() -> None:
    assert parse("2 to 7 9 11-12,20 to 20", numbers.VLAN) == ((2, 7), (9, 9), (11, 12), (20, 20))
    assert parse("1,2 3", numbers.DSCP) == ((1, 3),)
    assert parse("", numbers.VLAN) == ()


def test_a_negative_number_is_out_of_the_domain_not_a_range() -> None:
    with pytest.raises(OutOfDomain, match=r"^VLAN -1 out of range"):
        parse("-1", numbers.VLAN)
    with pytest.raises(OutOfDomain, match=r"^VLAN -5 out of range"):
        parse("2 to -5", numbers.VLAN)


@pytest.mark.parametrize(("text", "low", "high"), [("7 to 5", 7, 5), ("300-299", 300, 299)])
def test_a_range_that_runs_backwards_is_refused(text: str, low: int, high: int) -> None:
    with pytest.raises(NumberError) as caught:
        parse(text, numbers.VLAN)
    assert type(caught.value) is NumberError
    assert str(caught.value) == f"range {low} to {high} runs backwards"
    assert caught.value.text == str(low)


def test_a_range_of_one_value_is_a_range() -> None:
    assert parse("5 to 5", numbers.VLAN) == ((5, 5),)
    assert parse("5-5", numbers.VLAN) == ((5, 5),)


def test_merge_keeps_a_range_inside_another() -> None:
    assert numbers.merge([(1, 10), (2, 3), (10, 10), (11, 11)]) == ((1, 11),)
    assert numbers.merge([(1, 2), (4, 5)]) == ((1, 2), (4, 5))
    assert numbers.merge([]) == ()


def test_expand_stops_at_65536_values() -> None:
    assert len(numbers.expand(((0, 65_535),))) == 65_536
    with pytest.raises(ValueError, match="at most 65,536 values"):
        numbers.expand(((0, 65_536),))
    with pytest.raises(ValueError):
        numbers.expand(((0, 30_000), (40_000, 75_536)))  # the sum, not the largest range


@pytest.mark.parametrize(("n", "inside"), [(0, False), (1, True), (3, True), (4, False), (9, True)])
def test_contains_at_the_ends_of_a_range(n: int, inside: bool) -> None:
    assert numbers.contains(((1, 3), (9, 9)), n) is inside


def test_render_writes_single_values_alone() -> None:
    assert numbers.render(((1, 1), (3, 4))) == ["1", "3 to 4"]
    assert numbers.render(((1, 1), (3, 4)), "-") == ["1", "3-4"]
    assert numbers.render(()) == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("0.0.0.0", 0),
        ("10.1.2.3", 0x0A010203),
        ("255.255.255.255", 2**32 - 1),
        ("199.249.200.9", 0xC7F9C809),
        ("01.2.3.4", None),  # a leading zero: ipaddress refuses it
        ("256.1.1.1", None),
        ("1.2.3", None),
        ("1.2.3.4.5", None),
        ("1x2.3.4", None),
        ("1.2.3.4 ", None),
    ],
)
def test_a_dotted_quad_is_read_as_ipaddress_reads_it(text: str, value: int | None) -> None:
    assert numbers.quad_number(text) == value


def test_only_a_string_is_a_dotted_quad() -> None:
    assert numbers.quad_number(167772161) is None
    assert numbers.quad_number(None) is None


@pytest.mark.parametrize("prefixlen", [0, 8, 24, 30, 31, 32])
def test_an_interface_is_the_constructors_at_every_length(prefixlen: int) -> None:
    # a host route (/32) and a point-to-point /31 have their own host lists in ipaddress
    address = 0x0A000005
    built, reference = numbers.interface(address, prefixlen), IPv4Interface((address, prefixlen))
    assert built == reference and built.network == reference.network
    if prefixlen >= 24:  # a /0's hosts are four billion
        assert list(built.network.hosts()) == list(reference.network.hosts())


def test_the_self_check_tries_the_shortcut_even_while_it_is_off(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The check must build with the shortcut, not with the constructor the flag falls back to
    (which always agrees with itself): on a Python whose interfaces carry one more attribute,
    run while the flag is off, it says no."""
    built_by = IPv4Interface.__init__

    def newer(self: IPv4Interface, address: object) -> None:
        built_by(self, address)  # type: ignore[arg-type]
        self._newer = True  # type: ignore[attr-defined]

    monkeypatch.setattr(numbers, "_ASSEMBLES", False)
    with monkeypatch.context() as patched:
        patched.setattr(IPv4Interface, "__init__", newer)
        assert numbers._assembles() is False


def test_a_domain_is_a_frozen_value() -> None:
    assert {numbers.VLAN: 1}[Domain("VLAN", 1, 4094)] == 1  # hashable, equal by value
    with pytest.raises(AttributeError):
        numbers.VLAN.high = 4095  # type: ignore[misc]


def test_a_number_error_without_a_word_names_none() -> None:
    assert NumberError("not a list").text == ""


def test_two_interfaces_differ_by_address_prefix_or_host_list() -> None:
    same = numbers._same_interface
    assert same(IPv4Interface("10.0.0.1/24"), IPv4Interface("10.0.0.1/24"))
    assert not same(IPv4Interface("10.0.0.1/24"), IPv4Interface("10.0.0.2/24"))
    assert not same(IPv4Interface("10.0.0.1/24"), IPv4Interface("10.0.0.1/25"))
    assert same(IPv4Interface("10.0.0.0/31"), IPv4Interface("10.0.0.0/31"))
    without = IPv4Interface("10.0.0.0/31")
    del without.network.hosts  # a /31 built without its own host list
    assert not same(IPv4Interface("10.0.0.0/31"), without)
    assert not same(without, IPv4Interface("10.0.0.0/31"))


def test_the_shortcut_builds_every_length_but_a_host_route(monkeypatch: pytest.MonkeyPatch) -> None:
    """What the shortcut is for: no constructor call (a third of its cost) from /0 to /31; a /32
    has a host list of its own and is left to the constructor."""
    assert numbers._ASSEMBLES
    built_by = IPv4Interface.__init__
    calls: list[object] = []

    def counted(self: IPv4Interface, address: object) -> None:
        calls.append(address)
        built_by(self, address)  # type: ignore[arg-type]

    monkeypatch.setattr(IPv4Interface, "__init__", counted)
    for prefixlen in range(32):
        numbers.interface(0x0A000005, prefixlen)
    assert calls == []
    numbers.interface(0x0A000005, 32)
    assert calls == [(0x0A000005, 32)]
