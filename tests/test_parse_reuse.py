"""What the parse reuses within a config and what it sends back from a worker changes no result.

Ports read with the same QoS lines share one reading (qos.read_port_qos), except where a
value on them is refused: that is reported on each port's own line. A Parsed pickled by a
worker (addresses as numbers, models as their fields: parse.Parsed.__getstate__) loads as the
model it was.
"""

from __future__ import annotations

import pickle
from collections.abc import Iterator
from ipaddress import IPv4Interface, IPv4Network
from pathlib import Path

import pytest
from pydantic import BaseModel, ConfigDict

from roce_cfg.parse import parse_text
from tests.helpers import ROOT

# A Ruijie leaf of three access ports with the same QoS lines (what generate writes).
_PORT = """interface FourHundredGigabitEthernet 0/{n}
 description far:server-{n}:nic0 speed=400G cable=3m
 switchport access vlan 101
 mtu 9216
 mls qos trust dscp
 priority-queue 6
 priority-queue 7
 queue 3 wred-profile ROCE-Q3
 priority-flow-control enable
 priority-flow-control nodrop {no_drop}
 priority-flow-control headroom 3 135635
 priority-flow-control deadlock-detect enable
!
"""
_HEAD = """hostname leaf-1
!
vlan 101
 name rail0
!
priority-flow-control deadlock-detect 3 detect-time 200 recover-time 2000 action drop
!
wred-profile ROCE-Q3
 ecn enable
 threshold min 153600 max 1536000 probability 100
!
"""


def _leaf(no_drop: str) -> str:
    return _HEAD + "".join(_PORT.format(n=n, no_drop=no_drop) for n in (1, 2, 3)) + "end\n"


def test_ports_with_the_same_lines_share_their_qos_and_ecn_queues() -> None:
    device = parse_text(_leaf("3"), file="leaf-1.cfg").config.device
    qos = [p.qos for p in device.interfaces]
    assert len(qos) == 3 and all(q is qos[0] for q in qos)
    assert qos[0].no_drop == (3,) and qos[0].ecn_queues == (3,)
    # the ECN profile the ports' queues apply reaches the device once per port read
    assert [e.queue for e in device.qos.ecn] == [3]


def test_a_refused_value_is_reported_on_each_port_that_has_it() -> None:
    text = _leaf("3-1")  # a range running backwards: refused by the normaliser, per port
    config = parse_text(text, file="leaf-1.cfg").config
    starts = [n for n, line in enumerate(text.splitlines(), 1) if line.startswith("interface")]
    ends = [*starts[1:], len(text.splitlines())]
    found = [u.line or 0 for u in config.unread]
    # one unread line per port, each inside its own port's block (not the first port's thrice)
    assert len(found) == 3
    assert all(start < line < end for line, start, end in zip(found, starts, ends, strict=True))
    assert all(p.qos.no_drop == () for p in config.device.interfaces)


CONFIGS = [
    ROOT / "golden" / name / "leaf-1.cfg"
    for name in ("pod-small-h3c", "pod-small-huawei", "pod-small-ruijie", "pod-small-zte")
] + [ROOT / "golden" / "three-tier" / "spine-1.cfg"]


@pytest.mark.parametrize("path", CONFIGS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_parsed_config_sent_back_by_a_worker_loads_as_it_was(path: Path) -> None:
    parsed = parse_text(path.read_text(encoding="utf-8"), file=str(path))
    loaded = pickle.loads(pickle.dumps(parsed))
    assert loaded.config == parsed.config
    assert loaded.config.model_dump_json() == parsed.config.model_dump_json()
    assert (loaded.text, loaded.overlay) == (parsed.text, parsed.overlay)
    addresses = [i.ipv4 for i in parsed.config.device.interfaces if i.ipv4 is not None]
    assert addresses  # every one of these configs has routed ports


def test_addresses_travel_as_numbers_and_load_equal() -> None:
    from roce_cfg.parse.wire import dumps

    iface, net = IPv4Interface("10.1.2.3/255.255.255.254"), IPv4Network("10.9.0.0/16")
    blob = dumps([iface, net])  # type: ignore[arg-type]  # any object pickles the same way
    assert b"10.1.2.3" not in blob and b"10.9.0.0" not in blob
    back = pickle.loads(blob)
    assert (
        back == [iface, net] and str(back[0]) == "10.1.2.3/31" and back[0].network == iface.network
    )


def _pairs(a: object, b: object) -> Iterator[tuple[BaseModel, BaseModel]]:
    if isinstance(a, BaseModel) and isinstance(b, BaseModel):
        yield a, b
        for name in a.__dict__:
            yield from _pairs(a.__dict__[name], b.__dict__[name])
    elif isinstance(a, tuple | list) and isinstance(b, tuple | list):
        for x, y in zip(a, b, strict=True):
            yield from _pairs(x, y)


@pytest.mark.parametrize("path", CONFIGS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_model_loads_with_its_fields_in_order_and_its_given_fields(path: Path) -> None:
    parsed = parse_text(path.read_text(encoding="utf-8"), file=str(path))
    loaded = pickle.loads(pickle.dumps(parsed)).config
    pairs = list(_pairs(parsed.config, loaded))
    assert len(pairs) > 20
    for was, now in pairs:
        assert type(was) is type(now) and repr(was) == repr(now)
        assert list(was.__dict__.items()) == list(now.__dict__.items())
        assert was.model_fields_set == now.model_fields_set
        assert (now.__pydantic_extra__, now.__pydantic_private__) == (None, None)


class _Open(BaseModel):
    model_config = ConfigDict(extra="allow")
    a: int = 1


def test_a_model_with_extra_values_pickles_pydantics_way() -> None:
    from roce_cfg.parse.wire import _model_state

    model = _Open(a=2, b=3)  # type: ignore[call-arg]  # b: an extra value
    assert _model_state(model) == model.__reduce_ex__(pickle.HIGHEST_PROTOCOL)
