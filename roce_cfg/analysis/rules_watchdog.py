"""The PFC watchdog across the fabric: recovery actions that must agree between models."""

from __future__ import annotations

from collections.abc import Iterator

from roce_cfg.analysis.context import FabricView
from roce_cfg.analysis.registry import Hit, rule


@rule(
    "RC121",
    "watchdog-forwards-beside-discard-models",
    "warning",
    "fabric",
    summary="A switch's watchdog forwards during recovery on a PFC network whose other models "
    "require discard on every device.",
    rationale="Huawei's reference requires the 'discard' recovery behaviour on every device once "
    "a CE8851-32CQ8DQ-P, CE6866, CE6860 or CE8850-SAN/HAM class switch is on the PFC network; "
    "the CE6885/CE6863E class forwards by default, with no line in its config to show it.",
    fix="Add 'dcb pfc deadlock recovery-behavior discard slot 1' to the switches that forward.",
    limits="Models and defaults from vendors/<vendor>.yaml watchdog_defaults; a model with no "
    "sourced default is reported by the parse as 'cannot verify', not here.",
    # which models must discard is read off each switch's model: an assumed one decides nothing
    reads=("watchdog", "model"),
)
def watchdog_mix(f: FabricView) -> Iterator[Hit]:
    strict = {}
    for name, v in sorted(f.devices.items()):
        prefixes = v.profile.parse.watchdog_defaults.discard_everywhere_with
        if any(v.device.model.startswith(p) for p in prefixes) and v.device.qos.watchdog:
            strict[name] = v.device.model
    if not strict:
        return
    first, model = next(iter(strict.items()))
    for name, v in sorted(f.devices.items()):
        wd = v.device.qos.watchdog
        if wd is None or wd.action != "forward" or name in strict:
            continue
        how = "printed" if wd.action_printed else f"not printed: the {v.device.model} default"
        yield Hit(
            f"PFC watchdog forwards during recovery ({how}) while {first} ({model}) is on the "
            f"network: every device must discard",
            device=name,
            anchor="watchdog",
            related_device=first,
        )
