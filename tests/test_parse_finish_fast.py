"""The finish phase's shortcuts change no result (issue 30).

A port's lines but its own (name, description, address) are read once per config and reused
for every port that repeats them (ports._port_lines), and the ports after the first are
assembled from it, not validated again (ports._port); descriptions are redacted port by
port only when one of them may hold a secret (parse.redacted). Each config below is parsed
with the shortcuts and without them (no reading kept, every port validated, every description
redacted alone): the models, notes, unread lines and JSON must be the same.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

import roce_cfg.parse.finished as finished_mod
from roce_cfg.errors import InputError
from roce_cfg.model.device import DeviceConfig
from roce_cfg.parse import Hints, Parsed, parse_text, ports, read_config
from roce_cfg.redact import redact
from tests.helpers import ROOT

CONFIGS = sorted(
    p
    for pattern in (
        "tests/parse/*/*.cfg",
        "examples/backups/*/*.cfg",
        "golden/*/*.cfg",
        "tests/brownfield/*/*.cfg",
        "tests/brownfield/fabrics/*/*.cfg",
    )
    for p in ROOT.glob(pattern)
)

# Ports that differ in every way a reading depends on: access and routed, trunks, refused
# values (reported on each port's own line), a speed line a hint overrides, shutdown, LAGs.
_HEAD = """hostname leaf-1
!
vlan 101
 name rail0
!
vlan 102
!
priority-flow-control deadlock-detect 3 detect-time 200 recover-time 2000 action drop
!
wred-profile ROCE-Q3
 ecn enable
 threshold min 153600 max 1536000 probability 100
!
"""
_ACCESS = """interface FourHundredGigabitEthernet 0/{n}
 description far:server-{n}:nic0 speed=400G cable=3m
 switchport access vlan {vlan}
 mtu 9216
 mls qos trust dscp
 priority-queue 6
 priority-queue 7
 queue 3 wred-profile ROCE-Q3
 priority-flow-control enable
 priority-flow-control nodrop {no_drop}
 priority-flow-control headroom 3 135635
 priority-flow-control deadlock-detect enable
{extra}!
"""
_ROUTED = """interface FourHundredGigabitEthernet 0/{n}
 description far:spine-{n}:FourHundredGigabitEthernet 0/1 speed=400G cable=30m
 no switchport
 ip address 10.0.{n}.1 255.255.255.254
 mtu {mtu}
 mls qos trust dscp
 priority-flow-control enable
 priority-flow-control nodrop 3
{extra}!
"""


def _varied() -> str:
    ports = []
    for n in range(1, 25):
        if n % 3:
            ports.append(
                _ACCESS.format(
                    n=n,
                    vlan=(101, 102, 5000)[n % 3],  # 5000: outside the VLAN domain, refused
                    no_drop=("3", "3-1")[n % 5 == 0],  # a range running backwards: refused
                    extra=(" shutdown\n", "")[n % 4 > 0],
                )
            )
        else:
            ports.append(
                _ROUTED.format(
                    n=n, mtu=(9216, 99999)[n % 6 == 0], extra=(" speed 100000\n", "")[n % 2]
                )
            )
    return _HEAD + "".join(ports) + "end\n"


def _cases() -> Iterator[tuple[str, str, Hints | None]]:
    for path in CONFIGS:
        try:
            text = read_config(path)
        except InputError:
            continue  # not text (a corrupted backup the brownfield tests refuse)
        yield str(path.relative_to(ROOT)), text, None
    text = _varied()
    yield "varied", text, None
    # a hint gives some ports' speed: their own speed line is then neither read nor refused
    speeds = {f"FourHundredGigabitEthernet 0/{n}": 200 for n in range(2, 25, 4)}
    yield "varied-hinted", text, Hints(speeds=speeds)
    yield "huawei-speeds", _speeds(), None
    yield "huawei-speeds-hinted", _speeds(), Hints(speeds={"25GE1/0/1": 10})


def _speeds() -> str:
    """A Huawei leaf whose ports set their speed: one refused (no speed), one read (40G)."""
    text = (ROOT / "tests/parse/huawei/leaf-ce6885.cfg").read_text(encoding="utf-8")
    for port, line in (("25GE1/0/1", "speed 99999999999"), ("100GE1/0/49", "speed 40000")):
        assert f"interface {port}\n" in text
        text = text.replace(f"interface {port}\n", f"interface {port}\n {line}\n")
    return text


CASES = list(_cases())


def _plain_redacted(device: DeviceConfig, vendor: str) -> DeviceConfig:
    ports = tuple(
        i.model_copy(update={"description": redact(i.description, vendor)})
        if redact(i.description, vendor) != i.description
        else i
        for i in device.interfaces
    )
    return device.model_copy(update={"interfaces": ports}) if ports != device.interfaces else device


def _parsed(text: str, name: str, hints: Hints | None) -> Parsed | str:
    try:
        return parse_text(text, file=Path(name).name, hints=hints)
    except InputError as exc:
        return str(exc)  # a config the parse refuses is refused the same way


def _same(fast: Parsed | str, plain: Parsed | str) -> None:
    if isinstance(fast, str) or isinstance(plain, str):
        assert fast == plain
        return
    assert fast.config == plain.config
    assert fast.config.model_dump_json() == plain.config.model_dump_json()
    assert fast.config.unread == plain.config.unread and fast.config.notes == plain.config.notes
    for built, validated in zip(
        fast.config.device.interfaces, plain.config.device.interfaces, strict=True
    ):
        assert repr(built) == repr(validated)
        assert built.model_fields_set == validated.model_fields_set


def test_the_corpus_is_found() -> None:
    assert len(CONFIGS) > 50


@pytest.mark.parametrize(("name", "text", "hints"), CASES, ids=[c[0] for c in CASES])
def test_reused_port_readings_parse_as_each_port_read_alone(
    name: str, text: str, hints: Hints | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    fast = _parsed(text, name, hints)
    monkeypatch.setattr(ports, "MAX_PORT_READINGS", 0)
    monkeypatch.setattr(finished_mod, "redacted", _plain_redacted)
    plain = _parsed(text, name, hints)
    _same(fast, plain)


def test_the_varied_ports_are_read_as_they_say() -> None:
    """The varied config exercises what it means to: refusals per port, a hint's speed wins."""
    config = parse_text(_varied(), file="leaf-1.cfg").config
    ports = {p.name: p for p in config.device.interfaces}
    assert len(config.unread) >= 8 + 4  # VLAN 5000 (8 ports), '3-1', MTU 99999 (4 ports)
    assert ports["FourHundredGigabitEthernet 0/1"].access_vlan == 102
    assert ports["FourHundredGigabitEthernet 0/2"].access_vlan == 1  # 5000 refused
    assert ports["FourHundredGigabitEthernet 0/3"].speed_gbps == 400  # its description


def test_a_hinted_speed_wins_over_the_ports_own_speed_line() -> None:
    config = parse_text(_speeds(), file="leaf-1.cfg").config
    ports = {p.name: p for p in config.device.interfaces}
    assert ports["100GE1/0/49"].speed_gbps == 40
    assert any("99999999999" in u.text for u in config.unread)
    config = parse_text(_speeds(), file="leaf-1.cfg", hints=Hints(speeds={"25GE1/0/1": 10})).config
    ports = {p.name: p for p in config.device.interfaces}
    assert ports["25GE1/0/1"].speed_gbps == 10
    assert not any("99999999999" in u.text for u in config.unread)  # the line is not read


def test_a_secret_in_a_description_is_still_redacted() -> None:
    text = _varied().replace(
        "description far:server-1:nic0", "description password 0 Hunter2 far:server-1:nic0"
    )
    config = parse_text(text, file="leaf-1.cfg").config
    first = config.device.interfaces[0]
    assert "Hunter2" not in first.description and "<redacted>" in first.description
    assert config.device.interfaces[1].description.startswith("far:server-2")
