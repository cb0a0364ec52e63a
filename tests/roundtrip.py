"""Helpers for render -> parse round trips."""

from __future__ import annotations

from roce_cfg.model import describe
from roce_cfg.model.device import DeviceConfig
from roce_cfg.parse.names import Namer
from roce_cfg.platforms.profile import load_profile


def as_configured(device: DeviceConfig) -> DeviceConfig:
    """The design's device as its config text can state it.

    No sourced command sets a port below its native speed (a 200G NIC on a 400G cage); the
    generated description says it ('speed=200G'), else the interface name gives the cage's.
    Everything else must survive.
    """
    namer = Namer(load_profile(device.vendor))
    ports = tuple(
        i.model_copy(
            update={"speed_gbps": describe.speed(i.description) or namer.name(i.name).speed}
        )
        for i in device.interfaces
    )
    return device.model_copy(update={"interfaces": ports})
