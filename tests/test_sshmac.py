"""The fenced MAC check (roce_cfg/deploy/sshmac.py) answers as paramiko's own, and takes its
place only where it does (every push test's session then runs through it)."""

from __future__ import annotations

import paramiko.util
import pytest
from hypothesis import given
from hypothesis import strategies as st

from roce_cfg.deploy import sshmac


@given(st.binary(max_size=64), st.binary(max_size=64))
def test_the_check_answers_as_paramikos(a: bytes, b: bytes) -> None:
    assert sshmac.same(a, b) == sshmac.ORIGINAL(a, b)
    assert sshmac.same(a, a) == sshmac.ORIGINAL(a, a) is True


def test_it_is_installed_only_where_it_agrees(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(paramiko.util, "constant_time_bytes_eq", sshmac.ORIGINAL)
    monkeypatch.setattr(sshmac, "ORIGINAL", lambda a, b: True)  # a paramiko that differs
    assert sshmac.install() is False
    assert paramiko.util.constant_time_bytes_eq is not sshmac.same
    monkeypatch.undo()
    monkeypatch.setattr(paramiko.util, "constant_time_bytes_eq", sshmac.ORIGINAL)
    assert sshmac.install() is True
    assert paramiko.util.constant_time_bytes_eq is sshmac.same
    assert sshmac.install() is True  # once is enough
