"""The Ethernet frame and the IP packet (issue 33): the grammar says which command bounds which,
generated configs never set a frame limit below the packet it carries, and parse reads each
number back as what it is."""

from __future__ import annotations

import re
from itertools import takewhile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from roce_cfg.grammar import load_grammar
from roce_cfg.intent.models import Vendor
from roce_cfg.model.device import FRAME_OVERHEAD, TAG_BYTES
from tests.helpers import ROOT, examples, run
from tests.test_parse_roundtrip import intents, rendered_per_vendor_and_role


@pytest.mark.parametrize("vendor", [v.value for v in Vendor])
def test_parse_templates_read_each_bound_as_what_it_is(vendor: str) -> None:
    """A command the grammar says bounds the frame is read into 'frame', one that bounds the
    packet into 'mtu' (roce_cfg/parse/normalise.py gives the two their meaning)."""
    ttp = "\n".join(p.read_text() for p in (ROOT / "templates" / vendor / "parse").glob("*.ttp"))
    grammar = load_grammar(vendor)
    for kind, key in (("frame", "frame"), ("packet", "mtu")):
        for cmd in grammar.bounding(kind):
            words = " ".join(takewhile(lambda w: w[0] not in "<[{", cmd.syntax.split()))
            found = re.search(rf"^{re.escape(words)} \{{\{{ (\w+)", ttp, re.M)
            assert found and found.group(1) == key, (vendor, cmd.name, kind)


def test_h3c_and_huawei_bound_the_frame_ruijie_and_zte_do_not_say() -> None:
    assert [c.name for c in load_grammar("h3c").bounding("frame")] == ["jumboframe enable"]
    assert [c.name for c in load_grammar("huawei").bounding("frame")] == ["jumboframe enable"]
    assert load_grammar("ruijie").bounding("frame") == []
    assert [c.name for c in load_grammar("ruijie").bounding("packet")] == ["mtu"]
    assert load_grammar("zte").bounding("frame") == load_grammar("zte").bounding("packet") == []


@settings(
    max_examples=examples(60),
    deadline=None,
    suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow],
)
@given(intents())
def test_no_design_sets_a_frame_limit_below_its_packet(data: dict[str, Any]) -> None:
    for device, text in rendered_per_vendor_and_role(data):
        for port in device.interfaces:
            if port.frame_bytes is not None:
                assert port.frame_bytes >= port.mtu + FRAME_OVERHEAD + TAG_BYTES
                assert f" jumboframe enable {port.frame_bytes}\n" in text
        for svi in device.vlan_interfaces:
            for port in device.interfaces:
                if port.access_vlan == svi.vlan and port.frame_bytes is not None:
                    assert port.frame_bytes >= svi.mtu + FRAME_OVERHEAD


def test_h3c_routed_port_carries_a_full_size_packet() -> None:
    """The issue's case: 'jumboframe enable 9216' beside 'mtu 9216' is gone."""
    text = (ROOT / "golden/pod-small-h3c/leaf-1.cfg").read_text()
    block = text.split("interface FourHundredGigE1/0/25\n")[1].split("#\n")[0]
    assert " mtu 9216\n" in block and " jumboframe enable 9238\n" in block
    assert "jumboframe enable 9216" not in text


def test_an_mtu_whose_frame_no_huawei_port_takes_is_refused(tmp_path: Path) -> None:
    """[HW-CR] jumboframe enable takes 1518-9500: an MTU of 9600 needs a 9622-byte frame."""
    intent = (ROOT / "examples/single-switch.yaml").read_text()
    assert "huawei" in intent and "  mtu: 9216\n" in intent
    path = tmp_path / "i.yaml"
    path.write_text(intent.replace("  mtu: 9216\n", "  mtu: 9600\n"))
    out = tmp_path / "out"
    result = run("generate", str(path), "-o", str(out))
    assert result.exit_code == 2, result.output
    assert "jumboframe enable 9622" in result.stderr and "1518-9500" in result.stderr
    assert not out.exists()
