"""The number codec (model/numbers.py) at each edge a mutation run found untested and
tests/test_numbers_edges.py (every domain's bounds, the malformed number and list forms) does not
pin: each domain's name, how an error shows the number, ``every`` for ``all``, words after a
range, a range of one value, and merge, without, expand, contains, render and dotted quads."""

from __future__ import annotations

from ipaddress import IPv4Address, IPv4Interface

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from roce_cfg.model import numbers
from roce_cfg.model.device import Interface
from roce_cfg.model.fabric import Rail
from roce_cfg.model.numbers import Domain, NumberError, OutOfDomain, number, parse
from tests.helpers import examples

# Each domain's name, as its errors print it.
NAMES = {
    "VLAN": "VLAN",
    "DSCP": "DSCP",
    "PRIORITY": "priority",
    "QUEUE": "queue",
    "ASN": "AS number",
    "PERCENT": "percentage",
    "MTU": "MTU",
    "FRAME": "frame size",
    "BYTES": "byte count",
    "MILLISECONDS": "time in ms",
    "PATHS": "path count",
    "GROUP": "group id",
    "SPEED": "speed in Gb/s",
    "SPEED_MBPS": "speed in Mb/s",
    "PORT_NUMBER": "port number",
    "ROUTE_PREFERENCE": "route preference",
    "ROUTE_TAG": "route tag",
}


@pytest.mark.parametrize(("name", "what"), sorted(NAMES.items()))
def test_each_domain_names_its_field_in_its_errors(name: str, what: str) -> None:
    domain = getattr(numbers, name)
    assert domain.what == what and str(domain) == f"{domain.low}-{domain.high}"
    with pytest.raises(OutOfDomain) as caught:
        number(str(domain.high + 1), domain)
    assert str(caught.value) == f"{what} {domain.high + 1} out of range {domain}"
    assert caught.value.domain is domain and caught.value.text == str(domain.high + 1)


def test_membership_is_for_integers_only() -> None:
    assert 5 in numbers.VLAN and 0 not in numbers.VLAN and 4095 not in numbers.VLAN
    assert "5" not in numbers.VLAN and None not in numbers.VLAN and 5.0 not in numbers.VLAN


@pytest.mark.parametrize("text", ["-", "--1", "-+1"])
def test_a_minus_sign_with_no_digits_after_it_is_no_number(text: str) -> None:
    with pytest.raises(NumberError) as caught:
        number(text, numbers.BYTES)
    assert type(caught.value) is NumberError  # not out of a domain: no number at all
    assert str(caught.value) == f"'{text}' is not a number" and caught.value.text == text


def test_a_long_word_is_shown_by_its_first_forty_characters() -> None:
    word = "x" * 39 + "yz"
    with pytest.raises(NumberError, match=r"^'x{39}y' is not a number$"):
        number(word, numbers.VLAN)


def test_minus_zero_and_an_error_shows_the_number_as_printed() -> None:
    assert number("-0", numbers.DSCP) == 0
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


def test_all_is_what_the_caller_says_it_is() -> None:
    assert parse(" all ", numbers.PRIORITY) == ((0, 7),)
    assert parse("all", numbers.VLAN, every=((10, 20),)) == ((10, 20),)
    assert parse("all", numbers.VLAN, every=()) == ()


def test_words_after_a_range_are_read_too() -> None:
    assert parse("2 to 7 9 11-12,20 to 20", numbers.VLAN) == ((2, 7), (9, 9), (11, 12), (20, 20))
    assert parse("1,2 3", numbers.DSCP) == ((1, 3),)
    assert parse("", numbers.VLAN) == ()


def test_a_negative_number_is_out_of_the_domain_not_a_range() -> None:
    with pytest.raises(OutOfDomain, match=r"^VLAN -1 out of range"):
        parse("-1", numbers.VLAN)
    with pytest.raises(OutOfDomain, match=r"^VLAN -5 out of range"):
        parse("2 to -5", numbers.VLAN)


def test_a_range_of_one_value_is_a_range() -> None:
    assert parse("5 to 5", numbers.VLAN) == ((5, 5),)
    assert parse("5-5", numbers.VLAN) == ((5, 5),)


def test_merge_keeps_a_range_inside_another() -> None:
    assert numbers.merge([(1, 10), (2, 3), (10, 10), (11, 11)]) == ((1, 11),)
    assert numbers.merge([(1, 2), (4, 5)]) == ((1, 2), (4, 5))
    assert numbers.merge([(1, 2), (5, 10), (6, 7)]) == ((1, 2), (5, 10))  # inside the last one
    assert numbers.merge([]) == ()


@pytest.mark.parametrize(
    ("ranges", "removed", "left"),
    [
        (((1, 10),), ((1, 1), (4, 5)), ((2, 3), (6, 10))),
        (((1, 10),), ((10, 12),), ((1, 9),)),  # a cut past the end
        (((5, 10),), ((1, 5),), ((6, 10),)),  # a cut before the start
        (((5, 10),), ((1, 20),), ()),  # a cut over the whole range
        (((5, 10),), ((1, 4), (11, 20)), ((5, 10),)),  # cuts beside it
        (((1, 3), (7, 9)), ((3, 7),), ((1, 2), (8, 9))),  # one cut over two ranges
        (((1, 10),), ((6, 7), (2, 3)), ((1, 1), (4, 5), (8, 10))),  # cuts given unsorted
        (((1, 10),), ((2, 4), (3, 6)), ((1, 1), (7, 10))),  # cuts that overlap
        (((1, 10),), (), ((1, 10),)),
    ],
)
def test_without(ranges: numbers.Ranges, removed: numbers.Ranges, left: numbers.Ranges) -> None:
    assert numbers.without(ranges, removed) == left


SMALL = st.lists(st.tuples(st.integers(0, 40), st.integers(0, 6)), max_size=5).map(
    lambda pairs: numbers.merge((lo, lo + n) for lo, n in pairs)
)
CUTS = st.lists(st.tuples(st.integers(0, 40), st.integers(0, 6)), max_size=5).map(
    lambda pairs: tuple((lo, lo + n) for lo, n in pairs)  # as given: unsorted, overlapping
)


@settings(max_examples=examples(200), deadline=None)
@given(SMALL, CUTS)
def test_without_leaves_exactly_the_values_not_removed(
    ranges: numbers.Ranges, removed: numbers.Ranges
) -> None:
    gone = {v for lo, hi in removed for v in range(lo, hi + 1)}
    assert numbers.without(ranges, removed) == numbers.of(set(numbers.expand(ranges)) - gone)


def test_expand_stops_at_65536_values() -> None:
    assert len(numbers.expand(((0, 65_535),))) == 65_536
    assert numbers.expand(((60_000, 60_002),)) == (60_000, 60_001, 60_002)  # few, if large
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


def test_a_domain_is_a_frozen_value() -> None:
    assert {numbers.VLAN: 1}[Domain("VLAN", 1, 4094)] == 1  # hashable, equal by value
    with pytest.raises(AttributeError):
        numbers.VLAN.high = 4095  # type: ignore[misc]


def test_a_number_error_without_a_word_names_none() -> None:
    assert NumberError("not a list").text == ""


@given(st.integers(0, 2**32 - 1), st.integers(0, 32))
@settings(max_examples=200)
def test_an_address_is_written_as_ipaddress_writes_it(n: int, prefixlen: int) -> None:
    iface = IPv4Interface((n, prefixlen))
    assert numbers.interface_json(iface) == str(iface)
    assert numbers.address_json(iface.ip) == str(iface.ip)
    assert numbers.quad_text(n) == str(IPv4Address(n))


def test_a_model_writes_its_addresses_as_pydantic_wrote_them() -> None:
    # the fields' own serializers (numbers.interface_json, address_json) against pydantic's
    # for IP types: str() of the value, in JSON only (a Python dump keeps the objects)
    port = Interface(name="eth1", mode="routed", mtu=9000, speed_gbps=400, ipv4="10.0.0.1/31")
    assert port.model_dump(mode="json")["ipv4"] == "10.0.0.1/31"
    assert port.model_dump()["ipv4"] == IPv4Interface("10.0.0.1/31")
    assert '"ipv4":"10.0.0.1/31"' in port.model_dump_json()
    rail = Rail(rail=0, vlan=2, switch="s", subnet="10.1.0.0/24", gateway="10.1.0.1")
    assert rail.model_dump(mode="json")["gateway"] == "10.1.0.1"
    assert rail.model_dump()["gateway"] == IPv4Address("10.1.0.1")
