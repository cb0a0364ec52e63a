"""The model's speed shortcuts (roce_cfg/model/fast.py), each against its public path: an
interface as ipaddress builds it, a model as pydantic validates it, a model with its own set
of given fields. Run on every Python and pydantic of CI's matrix: a change in their internals
fails here, not in a user's config."""

from __future__ import annotations

import pickle
from ipaddress import (
    AddressValueError,
    IPv4Address,
    IPv4Interface,
    IPv4Network,
    IPv6Address,
    ip_address,
)
from itertools import islice

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from roce_cfg.model import fast, numbers
from roce_cfg.model.device import BgpNeighbor, DeviceConfig, Interface, PortQos
from roce_cfg.parse import ParsedConfig, parse_file
from tests.helpers import ROOT


@pytest.mark.parametrize("prefixlen", range(33))
def test_an_assembled_interface_is_what_ipaddress_builds(prefixlen: int) -> None:
    assert fast._ASSEMBLES  # on this Python the shortcut is taken
    for address in (0, 1, 0x0A000001, 0x0A000002, 0xC0A80A0B, 0xFFFFFFFE, 0xFFFFFFFF):
        built, parsed = fast.interface(address, prefixlen), IPv4Interface((address, prefixlen))
        assert fast._same_interface(built, parsed)
        assert (built, str(built), hash(built)) == (parsed, str(parsed), hash(parsed))
        assert (built.network, built.ip, built.with_netmask) == (
            parsed.network,
            parsed.ip,
            parsed.with_netmask,
        )
        assert list(islice(built.network.hosts(), 3)) == list(islice(parsed.network.hosts(), 3))
        assert pickle.loads(pickle.dumps(built)) == parsed


@pytest.mark.parametrize("address", [-1, 1 << 32])
def test_an_address_out_of_range_is_refused_as_ipaddress_refuses_it(address: int) -> None:
    with pytest.raises(AddressValueError):
        fast.interface(address, 31)


def test_without_ipaddress_internals_the_constructor_builds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The shortcut reads ipaddress's private netmask cache: on a Python where it is gone the
    self-check says so instead of failing the import, and the constructor builds."""
    from ipaddress import IPv4Network

    def gone(_prefixlen: object) -> object:
        raise AttributeError("_make_netmask")

    with monkeypatch.context() as patched:
        patched.setattr(IPv4Network, "_make_netmask", staticmethod(gone))
        assert fast._assembles() is False
    monkeypatch.setattr(fast, "_ASSEMBLES", False)
    built = fast.interface(0x0A000001, 31)
    assert fast._same_interface(built, IPv4Interface("10.0.0.1/31"))


def _ports() -> list[Interface]:
    config = parse_file(ROOT / "golden" / "pod-small" / "leaf-1.cfg").config
    return list(config.device.interfaces)


def test_an_assembled_model_is_the_model_pydantic_validates() -> None:
    for port in _ports():
        given_fields = set(port.model_fields_set)
        built = fast.assembled(Interface, dict(port.__dict__), given_fields)
        checked = Interface.model_validate({k: getattr(port, k) for k in port.model_fields_set})
        assert built == checked == port
        assert built.model_fields_set == checked.model_fields_set
        assert built.model_dump_json() == checked.model_dump_json()
        assert hash(built) == hash(checked)
        assert pickle.loads(pickle.dumps(built)) == port


def test_a_models_state_rebuilds_it() -> None:
    config = parse_file(ROOT / "golden" / "pod-small" / "spine-1.cfg").config
    found = fast.state(config.device)
    assert found is not None
    cls, fields, given_fields = found
    rebuilt = fast.assembled(cls, fields, given_fields)
    assert rebuilt == config.device and isinstance(rebuilt, DeviceConfig)
    assert rebuilt.model_dump_json() == config.device.model_dump_json()


def test_an_updated_model_is_what_model_copy_builds() -> None:
    """``updated`` is pydantic's ``model_copy(update=...)`` for a port's own fields, and the
    copy shares the first port's set of given fields instead of holding its own."""
    first, *rest = _ports()
    assert rest
    for port in rest:
        own = {k: getattr(port, k) for k in ("name", "description", "ipv4", "speed_gbps")}
        built = fast.updated(first, own)
        public = first.model_copy(update=own)
        assert built == public and type(built) is Interface
        assert list(built.__dict__.items()) == list(public.__dict__.items())
        assert built.model_fields_set == public.model_fields_set
        assert built.model_dump_json() == public.model_dump_json()
        assert hash(built) == hash(public)
        assert built.model_fields_set is first.model_fields_set
        assert (built.__pydantic_extra__, built.__pydantic_private__) == (None, None)


@given(st.booleans(), st.booleans(), st.lists(st.integers(0, 7), max_size=3, unique=True))
def test_a_lean_model_is_the_same_model(pfc: bool, trust: bool, no_drop: list[int]) -> None:
    one = PortQos(pfc=pfc, trust_dscp=trust, no_drop=tuple(no_drop))
    two = PortQos(pfc=pfc, trust_dscp=trust, no_drop=tuple(no_drop))
    before = (one.model_fields_set, one.model_dump_json(), hash(one))
    lean_one, lean_two = fast.lean(one), fast.lean(two)
    assert (lean_one.model_fields_set, lean_one.model_dump_json(), hash(lean_one)) == before
    # the point of it: one set of given fields shared by the models given the same fields
    assert lean_one.model_fields_set is lean_two.model_fields_set
    copied = lean_one.model_copy(update={"watchdog": True})
    assert "watchdog" in copied.model_fields_set
    assert "watchdog" not in lean_two.model_fields_set  # a copy does not change the shared set


def test_lean_refuses_a_model_that_can_change() -> None:
    from pydantic import BaseModel

    class Loose(BaseModel):
        x: int = 0

    with pytest.raises(AssertionError):
        fast.lean(Loose(x=1))


def test_the_network_of_an_assembled_interface_is_ipaddress_own() -> None:
    built = fast.interface(0x0A000001, 24)
    assert built.network == IPv4Network("10.0.0.0/24")


# -- a port's address from its text, a tree of models validated from JSON ---------------------


@given(st.integers(0, 2**32 - 1), st.integers(0, 32), st.booleans())
def test_an_address_read_from_its_text_is_what_ipaddress_reads(
    address: int, prefixlen: int, padded: bool
) -> None:
    text = str(IPv4Interface((address, prefixlen)))
    if padded:  # ipaddress reads a prefix length with leading zeros too
        text = text.replace("/", "/0")
    built, parsed = numbers.interface_text(text), IPv4Interface(text)
    assert isinstance(built, IPv4Interface)
    assert fast._same_interface(built, parsed)
    assert (built, str(built), hash(built), built.network) == (
        parsed,
        str(parsed),
        hash(parsed),
        parsed.network,
    )


@pytest.mark.parametrize("text", ["10.0.0.1/32", "10.0.0.0/0", "255.255.255.255/32"])
def test_the_end_lengths_are_built_too(text: str) -> None:
    built = numbers.interface_text(text)
    assert isinstance(built, IPv4Interface) and built == IPv4Interface(text)


@pytest.mark.parametrize(
    "value",
    [
        "10.0.0.1",  # no prefix length: /32 by ipaddress's reading, left to it
        "10.0.0.1/255.255.255.254",
        "010.0.0.1/31",
        "10.0.0.256/31",
        "10.0.0.1/33",
        "10.0.0.1/",
        "10.0.0.1/3a",
        "10.0.0.1/\u0663",  # an Arabic-Indic digit: isdigit, not ASCII
        " 10.0.0.1/31",
        "1.2.3/8",
        5,
        None,
    ],
)
def test_any_other_form_is_left_to_pydantic(value: object) -> None:
    assert numbers.interface_text(value) is value


@given(st.integers(0, 2**32 - 1))
def test_a_peer_read_from_its_text_is_what_ipaddress_reads(address: int) -> None:
    text = str(IPv4Address(address))
    built = numbers.quad_address(text)
    assert type(built) is IPv4Address
    assert (built, str(built), hash(built)) == (IPv4Address(text), text, hash(IPv4Address(text)))
    peer = BgpNeighbor.model_validate_json(f'{{"address": "{text}", "remote_as": 65000}}')
    assert peer.address == IPv4Address(text) and type(peer.address) is IPv4Address


@pytest.mark.parametrize(
    "value",
    ["010.0.0.1", "10.0.0.256", "10.0.0.1/32", " 10.0.0.1", "1.2.3", "fe80::1", "::", 5, None],
)
def test_any_other_peer_form_is_left_to_pydantic(value: object) -> None:
    assert numbers.quad_address(value) is None


def test_a_peer_validated_from_its_json_is_as_before() -> None:
    for text in ("fe80::1", "2001:db8::7"):
        peer = BgpNeighbor.model_validate({"address": text, "remote_as": 1})
        assert peer.address == IPv6Address(text)
    for given_ in (IPv4Address("10.0.0.1"), IPv6Address("fe80::1"), 167772161):
        peer = BgpNeighbor.model_validate({"address": given_, "remote_as": 1})
        assert peer.address == ip_address(given_)
    for bad in ("010.0.0.1", "10.0.0.256", "10.0.0.1/32", "peer-1"):
        with pytest.raises(ValidationError):
            BgpNeighbor.model_validate({"address": bad, "remote_as": 1})


def test_a_port_validated_from_its_json_holds_the_address_it_was_given() -> None:
    for port in _ports():
        again = Interface.model_validate_json(port.model_dump_json())
        assert again == port and again.ipv4 == port.ipv4
    with pytest.raises(ValidationError):
        bad = {"name": "x", "mode": "routed", "mtu": 9000, "speed_gbps": 400}
        Interface.model_validate({**bad, "ipv4": "10.0.0.256/31"})


def test_lean_tree_shares_the_sets_of_models_validated_from_json() -> None:
    config = parse_file(ROOT / "golden" / "pod-small" / "leaf-1.cfg").config
    text = config.model_dump_json()
    one, two = (ParsedConfig.model_validate_json(text) for _ in range(2))
    a, b = one.device.interfaces[0], two.device.interfaces[1]
    assert a.model_fields_set is not b.model_fields_set
    fast.lean_tree(one)
    fast.lean_tree(two)
    assert one == two == config
    assert one.model_dump_json() == text
    assert a.model_fields_set is b.model_fields_set == set(Interface.model_fields)
    assert a.qos.model_fields_set is b.qos.model_fields_set
    given_some = PortQos(pfc=True)
    fast.lean_tree(given_some)  # a model given some fields keeps them, shared as lean shares
    assert given_some.model_fields_set == {"pfc"}
    assert given_some.model_fields_set is fast.lean(PortQos(pfc=False)).model_fields_set


# -- the parse cache's builders: models given every field, addresses from numbers -------------


def test_a_made_model_is_the_model_pydantic_validates() -> None:
    """``maker`` builds, from a ``template`` copy or any dict of every field, what pydantic
    validates from the same fields: equal, dumped alike, its set of given fields every field
    (the one lean_tree shares), no extra or private values."""
    make = fast.maker(Interface)
    for port in _ports():
        fields = {n: getattr(port, n) for n in Interface.model_fields}
        for each in (dict(fields), fast.template(Interface, fields).copy()):
            built = make(each)
            checked = Interface.model_validate(fields)
            assert built == checked and type(built) is Interface
            assert list(built.__dict__.items()) == list(checked.__dict__.items())
            assert built.model_dump_json() == checked.model_dump_json()
            assert hash(built) == hash(checked)
            assert built.model_fields_set == checked.model_fields_set == set(fields)
            assert (built.__pydantic_extra__, built.__pydantic_private__) == (None, None)
            assert pickle.loads(pickle.dumps(built)) == checked
            with pytest.raises(ValidationError):  # frozen as any other
                built.name = "x"  # type: ignore[misc]


def test_a_template_copy_holds_what_it_was_given() -> None:
    port = _ports()[0]
    fields = {n: getattr(port, n) for n in Interface.model_fields}
    kept = fast.template(Interface, fields)
    copy = kept.copy()
    copy["name"] = "other"
    assert list(copy) == list(fields)  # the fields' order
    assert kept == fields and copy == {**fields, "name": "other"}


@given(st.integers(0, 2**32 - 1))
def test_an_address_from_its_number_is_what_ipaddress_builds(number: int) -> None:
    built, public = fast.address(number), IPv4Address(number)
    assert type(built) is IPv4Address and fast._same_address(built, public)
    assert (built, str(built), hash(built)) == (public, str(public), hash(public))


@pytest.mark.parametrize("number", [-1, 1 << 32])
def test_an_address_out_of_range_is_refused(number: int) -> None:
    with pytest.raises(AddressValueError):
        fast.address(number)


def test_interfaces_of_one_network_share_it_when_asked() -> None:
    """Both ends of a /31 take one network from the caller's table, equal to what ipaddress
    builds for each; the table keys networks by number and length alike."""
    networks: dict[int, IPv4Network] = {}
    a, b = fast.interface(0x0A000000, 31, networks), fast.interface(0x0A000001, 31, networks)
    c = fast.interface(0x0A000000, 30, networks)
    assert a.network is b.network and c.network is not a.network
    for built in (a, b, c):
        public = IPv4Interface((int(built), built.network.prefixlen))
        for one in (built, public):  # a shared network has its cached properties computed
            assert one.network.broadcast_address
        assert fast._same_interface(built, public)
        assert (built, built.network, str(built)) == (public, public.network, str(public))
    assert list(a.network.hosts()) == list(IPv4Network("10.0.0.0/31").hosts())
