"""model/fast.py's interface shortcut at the edges a mutation run of numbers.py (where it lived)
found untested: the self-check must try the shortcut, the shortcut must be taken where it is
meant to be, and the comparison the self-check rests on must tell different interfaces apart."""

from __future__ import annotations

from ipaddress import IPv4Interface

import pytest

from roce_cfg.model import fast


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

    monkeypatch.setattr(fast, "_ASSEMBLES", False)
    with monkeypatch.context() as patched:
        patched.setattr(IPv4Interface, "__init__", newer)
        assert fast._assembles() is False


def test_two_interfaces_differ_by_address_prefix_or_host_list() -> None:
    same = fast._same_interface
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
    assert fast._ASSEMBLES
    built_by = IPv4Interface.__init__
    calls: list[object] = []

    def counted(self: IPv4Interface, address: object) -> None:
        calls.append(address)
        built_by(self, address)  # type: ignore[arg-type]

    monkeypatch.setattr(IPv4Interface, "__init__", counted)
    for prefixlen in range(32):
        fast.interface(0x0A000005, prefixlen)
    assert calls == []
    fast.interface(0x0A000005, 32)
    assert calls == [(0x0A000005, 32)]
