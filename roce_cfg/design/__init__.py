"""Intent -> Fabric: fabric-wide facts first, then one DeviceConfig per switch."""

from __future__ import annotations

from collections.abc import Iterator

from roce_cfg.design import ceilings
from roce_cfg.design.devices import build_device
from roce_cfg.design.topology import build
from roce_cfg.intent.models import Intent
from roce_cfg.model.device import DeviceConfig
from roce_cfg.model.fabric import Fabric, PortHeadroom
from roce_cfg.platforms.profile import VendorProfile
from roce_cfg.vendor import Vendor


class Designer:
    """The topology up front; switches one at a time, so that a caller who renders and writes
    each in turn never holds every switch's model at once."""

    def __init__(self, intent: Intent, profiles: dict[Vendor, VendorProfile]) -> None:
        self.intent = intent
        ceilings.check(intent)  # before any work proportional to the plan
        self.topo = build(intent, profiles)
        self.asns = {
            s.plan.hostname: s.plan.asn for s in self.topo.switches if s.plan.asn is not None
        }
        self.headroom: list[PortHeadroom] = []

    def devices(self) -> Iterator[DeviceConfig]:
        for sw in self.topo.switches:
            device, hr = build_device(self.intent, sw, self.asns)
            self.headroom += hr
            yield device

    def fabric(self, devices: tuple[DeviceConfig, ...] = ()) -> Fabric:
        """The plan, once ``devices()`` has run to the end (headroom comes from it)."""
        return Fabric(
            name=self.intent.name,
            topology=self.intent.fabric.topology,
            switches=tuple(s.plan for s in self.topo.switches),
            links=tuple(self.topo.links),
            rails=tuple(self.topo.rails),
            nics=tuple(self.topo.nics),
            headroom=tuple(self.headroom),
            devices=devices,
        )


def design(intent: Intent, profiles: dict[Vendor, VendorProfile]) -> Fabric:
    designer = Designer(intent, profiles)
    return designer.fabric(tuple(designer.devices()))
