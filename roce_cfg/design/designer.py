"""The designer: an intent's fabric-wide facts first (shape and topology), then one DeviceConfig
per switch, one at a time; ``plan`` designs a loaded intent, its errors located in the file."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from roce_cfg.design.devices import build_device
from roce_cfg.design.shape import FabricShape
from roce_cfg.design.topology import build
from roce_cfg.errors import PlanError
from roce_cfg.heap import bulk_objects
from roce_cfg.intent.loader import LoadedIntent
from roce_cfg.intent.models import Intent
from roce_cfg.model.device import DeviceConfig
from roce_cfg.model.fabric import Fabric, PortHeadroom
from roce_cfg.platforms.profile import VendorProfile, load_profile
from roce_cfg.vendor import Vendor


class Designer:
    """The topology up front; switches one at a time, so that a caller who renders and writes
    each in turn never holds every switch's model at once."""

    def __init__(self, intent: Intent, profiles: dict[Vendor, VendorProfile]) -> None:
        self.intent = intent
        self.shape = FabricShape.of(intent)  # checked before any work proportional to the plan
        self.topo = build(intent, profiles, self.shape)
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


def profiles_for(loaded: LoadedIntent, overlay: Path | None) -> dict[Vendor, VendorProfile]:
    """The profile of every vendor the intent's switches are of."""
    fab = loaded.intent.fabric
    roles = [r for r in (fab.leaf, fab.spine, fab.super_spine, fab.switch) if r is not None]
    return {r.vendor: load_profile(r.vendor, overlay) for r in roles}


@bulk_objects()
def plan(loaded: LoadedIntent, overlay: Path | None) -> tuple[Fabric, dict[Vendor, VendorProfile]]:
    """The intent designed, every switch's model included; a PlanError located in the file."""
    profiles = profiles_for(loaded, overlay)
    try:
        return design(loaded.intent, profiles), profiles
    except PlanError as err:
        raise loaded.from_plan(err) from None
