"""The PFC watchdog: recovery actions that must agree between models across the fabric, and
a switch whose watchdog in force no line or source says."""

from __future__ import annotations

from collections.abc import Iterator

from roce_cfg.analysis.context import DeviceView, FabricView
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


@rule(
    "RC124",
    "watchdog-default-unknown",
    "warning",
    "device",
    summary="Cannot verify the PFC watchdog: no line sets it and the release's default is unknown.",
    rationale="Some releases run PFC deadlock detection by default and print no line for it "
    "(CloudEngine VRP V300R023C00: 100 ms detection and recovery); for others no source says. "
    "Where the config prints no release, or one whose default no source gives, 'no watchdog' "
    "would be a guess: RC110 stays silent and this says what could not be checked.",
    fix="Configure the watchdog explicitly (the intent's lossless.pfc.watchdog renders it), or "
    "keep the release line ('!Software Version ...') in the backup so its default applies.",
    reads=("watchdog", "pfc"),
    verifies=False,
)
def watchdog_default_unknown(v: DeviceView) -> Iterator[Hit]:
    pfc_ports = [p for p in v.lossless_ports() if p.qos.pfc]
    why = v.watchdog_default_unknown() if pfc_ports and v.device.qos.watchdog is None else None
    if why is not None:
        yield Hit(
            f"cannot verify: no PFC watchdog line for {len(pfc_ports)} PFC port(s), and {why}",
            anchor="pfc",
        )
