"""Rendering reuses a port section's text between ports only when the section cannot tell them
apart: an overlay that reads a port's own attributes still gets each port's own text."""

from __future__ import annotations

import gc
import re
from ipaddress import IPv4Address, IPv4Interface, IPv6Address
from pathlib import Path

import jinja2
import pytest
from hypothesis import given
from hypothesis import strategies as st

from roce_cfg.model.device import Interface
from roce_cfg.render.filters import FILTERS
from roce_cfg.render.reuse import section_key, section_reads
from tests.helpers import ROOT, SCENARIOS, run

MIXED = ROOT / "examples" / "cluster-mixed.yaml"
ALL_VENDORS = ("pod-small-h3c", "pod-small-huawei", "cluster-mixed")


@pytest.mark.parametrize(
    ("source", "reads"),
    [
        ("{% if iface.qos.pfc %} x{% endif %}\n mtu {{ iface.mtu }}", ("mtu", "qos")),
        (" mtu {{ iface.mtu }} on {{ iface.name }}", ("mtu", "name")),
        ("{% set x = iface %} {{ x.name }}", None),
        (" {{ iface['name'] }}", None),
        (" {{ iface | string }}", None),
        (" no port facts", ()),
    ],
)
def test_section_reads(source: str, reads: tuple[str, ...] | None) -> None:
    assert section_reads(source, jinja2.Environment()) == reads


@pytest.mark.parametrize("name", ["mtu.port", "pfc.port"])  # pfc: one of port_sections'
@pytest.mark.parametrize(
    "section",
    [
        " mtu {{ iface.mtu }} ! {{ iface.name }}\n",
        "{% set port = iface %}\n mtu {{ port.mtu }} ! {{ port.description }}\n",
    ],
)
def test_overlay_port_section_sees_each_port(tmp_path: Path, section: str, name: str) -> None:
    overlay = tmp_path / "overlay" / "templates" / "ruijie" / "sections"
    overlay.mkdir(parents=True)
    (overlay / f"{name}.j2").write_text(section)
    out = tmp_path / "out"
    result = run("generate", str(MIXED), "-o", str(out), "--vendor-dir", str(tmp_path / "overlay"))
    assert result.exit_code == 0, result.output
    text = (out / "leaf-1.cfg").read_text()
    ports = re.findall(r"^interface (\S*Ethernet.*)$", text, re.MULTILINE)
    tails = re.findall(r"^ mtu \d+ ! (.+)$", text, re.MULTILINE)
    assert len(tails) == len(ports) > 8
    assert len(set(tails)) == len(tails)  # every port got its own line, none a neighbour's


def test_a_port_section_input_is_told_by_the_values_it_reads_and_its_qos_object() -> None:
    """Ports of one kind share one frozen PortQos: a section reading it is keyed by that
    object (hashing every field of it per port was a fifth of render time); plain values by
    value."""
    a = Interface(name="e1", mode="routed", mtu=9000, speed_gbps=400)
    b = a.model_copy(update={"name": "e2"})
    other = a.model_copy(update={"qos": a.qos.model_copy()})
    by_qos, by_mtu = section_key(("qos",)), section_key(("mode", "mtu"))
    assert by_qos is not None and by_mtu is not None
    assert by_qos(a) == by_qos(b) and by_qos(a) != by_qos(other)
    assert by_mtu(a) == by_mtu(other) != by_mtu(a.model_copy(update={"mtu": 1500}))
    assert section_key(None) is None


@given(st.ip_addresses(v=4), st.integers(0, 32), st.ip_addresses(v=6))
def test_addresses_print_as_ipaddress_prints_them(
    ip: IPv4Address, prefix: int, v6: IPv6Address
) -> None:
    """The filters print an address by its number (a fifth of ipaddress's cost): the same
    text as ipaddress, for every IPv4 address and prefix; other values by ``str``."""
    iface = IPv4Interface((int(ip), prefix))
    mask = str(iface.netmask)
    assert FILTERS["mask"](iface) == f"{ip} {mask}"
    assert FILTERS["mask"](iface.network) == f"{iface.network.network_address} {mask}"
    assert FILTERS["address"](ip) == str(ip)
    assert FILTERS["address"](v6) == str(v6)
    assert FILTERS["address"]("peer") == "peer"


def test_rendering_leaves_no_cycle_behind() -> None:
    """A switch's model is freed by reference counting once its text is rendered: a cycle
    through the template context (``section`` in it, the context in ``section``) kept every
    model until the cyclic collector came by (23 MB and a twentieth of the CPU of a large
    generate)."""
    from roce_cfg.design.designer import plan
    from roce_cfg.intent.loader import load_intent
    from roce_cfg.render import Renderer

    fabric, profiles = plan(load_intent(MIXED), None)
    renderers = {v: Renderer(p) for v, p in profiles.items()}

    def render() -> None:
        for device in fabric.devices[:8]:
            profile = profiles[device.vendor]
            renderers[device.vendor].render(device, profile.model_spec(device.model)[1])

    render()  # what a process does once (templates compiled, grammars read) is not counted
    gc.collect()
    gc.disable()
    try:
        left = []
        for _ in range(3):
            render()
            left.append(gc.collect())
    finally:
        gc.enable()
    # a cycle left by rendering is left by every render; what an earlier test left to the
    # collector (a cache it filled, evicted now) is collected once
    assert min(left) == 0, left


def test_port_sections_in_a_row_are_each_section_in_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    """``port_sections(i, a, b, ...)`` (one call and one key for the five QoS sections of a
    port) gives every switch of every vendor the text of ``section(a, i)``, ``section(b, i)``,
    ... called one by one."""
    from roce_cfg.design.designer import plan
    from roce_cfg.intent.loader import load_intent
    from roce_cfg.render import Renderer, renderer

    planned = [plan(load_intent(SCENARIOS[name]), None) for name in ALL_VENDORS]

    def texts() -> list[str]:
        out = []
        for fabric, profiles in planned:
            renderers = {v: Renderer(p) for v, p in profiles.items()}
            for d in fabric.devices:
                spec = profiles[d.vendor].model_spec(d.model)[1]
                out.append(renderers[d.vendor].render(d, spec).text)
        return out

    joined = texts()
    vendors = {d.vendor.value for fabric, _ in planned for d in fabric.devices}
    assert vendors == {"h3c", "huawei", "ruijie", "zte"}
    monkeypatch.setattr(
        renderer._PortSections,
        "__call__",
        lambda self, iface, *names: "".join(self.sections(n, iface) for n in names),
    )
    assert texts() == joined
