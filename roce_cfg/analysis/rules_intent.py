"""Intent rules: server hardware sanity and drift between an intent and running-configs."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from roce_cfg.analysis.context import DeviceView
from roce_cfg.analysis.registry import Hit, rule
from roce_cfg.model.device import DeviceConfig
from roce_cfg.pcie import pcie_payload_gbps

if TYPE_CHECKING:  # the intent's models: imported by a lint given an intent (analysis/run.py)
    from roce_cfg.intent.models import Intent


@dataclass
class IntentView:
    intent: Intent
    designed: dict[str, DeviceConfig]
    devices: dict[str, DeviceView]
    file: str
    lines: Callable[[tuple[str, ...]], int | None]


@rule(
    "RC401",
    "nic-faster-than-pcie",
    "error",
    "intent",
    summary="The NIC is faster than its PCIe slot can feed.",
    rationale="A 400G NIC in a Gen4 x16 slot tops out near 200 Gb/s: the fabric is built and paid "
    "for at twice what the servers can send. Gen4 x16 carries 200G; 400G needs Gen5 x16.",
    fix="Put the NIC in a slot of the right generation and width, or plan the fabric for the "
    "speed the slot carries.",
)
def nic_pcie(iv: IntentView) -> Iterator[Hit]:
    s = iv.intent.servers
    usable = pcie_payload_gbps(s.pcie_gen, s.pcie_lanes)
    if s.nic_speed > usable:
        yield Hit(
            f"{s.nic_speed}G NIC on PCIe Gen{s.pcie_gen} x{s.pcie_lanes} (about {usable:.0f} Gb/s)",
            device=iv.intent.name,
            line=iv.lines(("servers", "nic_speed")),
        )


_KEYS = ("name", "address", "id", "vlan", "queue", "dscp", "priority", "prefix")


def _key(item: Any) -> Any:
    if isinstance(item, dict):
        for k in _KEYS:
            if k in item:
                return item[k]
    return repr(item)


def diff(got: Any, want: Any, path: str = "") -> Iterator[tuple[str, Any, Any]]:
    """Leaf differences between two JSON-like values; lists of records are matched by key.

    >>> list(diff({"a": 1, "l": [{"name": "x", "v": 1}]}, {"a": 2, "l": [{"name": "x", "v": 3}]}))
    [('a', 1, 2), ('l[x].v', 1, 3)]
    """
    if isinstance(got, dict) and isinstance(want, dict):
        for k in [*want, *(k for k in got if k not in want)]:
            yield from diff(got.get(k), want.get(k), f"{path}.{k}" if path else k)
    elif (
        isinstance(got, list)
        and isinstance(want, list)
        and all(isinstance(x, dict) for x in got + want)
        and (got or want)
    ):
        g, w = {_key(x): x for x in got}, {_key(x): x for x in want}
        for k in [*w, *(k for k in g if k not in w)]:
            yield from diff(g.get(k), w.get(k), f"{path}[{k}]")
    elif got != want:
        yield path, got, want


@rule(
    "RC402",
    "drift-from-intent",
    "error",
    "intent",
    summary="A running-config differs from what the intent designs for that switch.",
    rationale="A fabric drifts one hand edit at a time; every difference from the intent is a "
    "change nobody reviewed, and each one can break losslessness on its own.",
    fix="Push the intent's config (roce-cfg push), or change the intent if the switch is right.",
    limits="Compares what the config text states: port speeds are the plan's, and lines "
    "roce-cfg does not model (opaque blocks) are not compared.",
    reads=(
        "pfc",
        "qos_maps",
        "ecn",
        "watchdog",
        "buffers",
        "scheduling",
        "mtu",
        "interfaces",
        "vlan_interfaces",
        "aggregates",
        "mlag",
        "bgp",
        "static_routes",
    ),
)
def drift(iv: IntentView) -> Iterator[Hit]:
    for name, want in sorted(iv.designed.items()):
        view = iv.devices.get(name)
        if view is None or view.device == want:
            # Equal models dump equal: nothing to diff (at 1,280 switches the two dumps and the
            # walk were a minute of 'report').
            continue
        got = view.device.model_dump(mode="json")
        for path, g, w in diff(got, want.model_dump(mode="json")):
            port, anchor = _drift_place(path, view.profile.vlan_interface)
            yield Hit(
                f"{path} is {g!r}, the intent has {w!r}", device=name, port=port, anchor=anchor
            )


#: Where a drift in a global area points (vendors/*.yaml parse.anchors), as RC1xx findings on
#: the same object do.
_DRIFT_ANCHORS = (
    ("qos.ecn", "ecn"),
    ("qos.watchdog", "watchdog"),
    ("qos.dscp_map", "dscp_map"),
    ("bgp", "bgp"),
)


def _drift_place(path: str, vlan_interface: str) -> tuple[str | None, str | None]:
    """The port (an interface, or a VLAN interface named as RC113 names it) or the anchor a
    drift at ``path`` is located by, so it carries a line where the config has one."""
    inside = path.split("[", 1)[1].split("]", 1)[0] if "[" in path else ""
    if path.startswith("interfaces["):
        return inside, None
    if path.startswith("vlan_interfaces["):
        return f"{vlan_interface}{inside}", None
    return None, next((a for prefix, a in _DRIFT_ANCHORS if path.startswith(prefix)), None)


@rule(
    "RC403",
    "switch-missing",
    "error",
    "intent",
    summary="The intent has a switch with no config among the inputs, or the reverse.",
    rationale="A switch that is planned but not checked is not known to be lossless; a config "
    "for a switch the intent does not know is not part of the reviewed design.",
    fix="Lint the whole fabric's configs together with its intent, named by hostname.",
)
def switch_missing(iv: IntentView) -> Iterator[Hit]:
    for name in sorted(set(iv.designed) - set(iv.devices)):
        yield Hit(f"{name} is in the intent but no config was given for it", device=name)
    for name in sorted(set(iv.devices) - set(iv.designed)):
        yield Hit(f"{name} has a config but is not in the intent {iv.file}", device=name)
