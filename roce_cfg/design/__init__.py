"""Intent -> Fabric: fabric-wide facts first, then one DeviceConfig per switch."""

from __future__ import annotations

from roce_cfg.design.devices import build_device
from roce_cfg.design.topology import build
from roce_cfg.intent.models import Intent, Vendor
from roce_cfg.model.fabric import Fabric, PortHeadroom
from roce_cfg.platforms.profile import VendorProfile


def design(intent: Intent, profiles: dict[Vendor, VendorProfile]) -> Fabric:
    topo = build(intent, profiles)
    asns = {s.plan.hostname: s.plan.asn for s in topo.switches if s.plan.asn is not None}
    devices = []
    headroom: list[PortHeadroom] = []
    for sw in topo.switches:
        device, hr = build_device(intent, sw, asns)
        devices.append(device)
        headroom += hr
    return Fabric(
        name=intent.name,
        topology=intent.fabric.topology,
        switches=tuple(s.plan for s in topo.switches),
        links=tuple(topo.links),
        rails=tuple(topo.rails),
        nics=tuple(topo.nics),
        headroom=tuple(headroom),
        devices=tuple(devices),
    )
