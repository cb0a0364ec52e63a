"""Device rules on ECMP: the paths BGP asks for against a device-wide cap that only a reboot
raises (H3C max-ecmp-num), and where nothing read gives that cap."""

from __future__ import annotations

import re
from collections.abc import Iterator

from roce_cfg.analysis.context import DeviceView
from roce_cfg.analysis.registry import Hit, rule


@rule(
    "RC117",
    "ecmp-above-device-cap",
    "warning",
    "device",
    summary="BGP asks for more ECMP paths than the device-wide cap installs (H3C max-ecmp-num).",
    rationale="On Comware, 'balance N' is bounded by 'max-ecmp-num', a system-wide setting that "
    "takes effect only after a reboot. With N above the cap the switch installs fewer paths "
    "than cabled, and the leaf-to-spine load is spread over part of the uplinks.",
    fix="Set the cap to at least N ('max-ecmp-num N' on H3C), save, and reboot in a "
    "maintenance window; or lower max_paths in the intent.",
    limits="The cap is the config's own line, else the model's default where a source gives "
    "one; a cap in the saved config may not be in effect until the next reboot.",
    reads=("bgp",),
)
def ecmp_above_device_cap(v: DeviceView) -> Iterator[Hit]:
    found = _ecmp_cap(v)
    if found is not None and found[1] is not None and found[1] < found[0]:
        need, cap, how = found
        yield Hit(f"{need} ECMP paths, device cap {cap}: needs {how}", anchor="bgp")


@rule(
    "RC118",
    "ecmp-cap-unknown",
    "info",
    "device",
    summary="Cannot verify that the device-wide ECMP cap (H3C max-ecmp-num) admits BGP's paths.",
    rationale="The cap is set apart from BGP and takes effect after a reboot; where neither the "
    "config nor a source gives it for the model, nothing says the switch installs every path.",
    fix="Check 'display max-ecmp-num' on the switch (or set 'max-ecmp-num N' and reboot), or "
    "give the model's default in a vendor overlay (models.<model>.ecmp_default).",
    limits="No source read gives the default for the S6850 or S98xx (the S12500's is 16).",
    reads=("bgp",),
    verifies=False,
)
def ecmp_cap_unknown(v: DeviceView) -> Iterator[Hit]:
    found = _ecmp_cap(v)
    if found is not None and found[1] is None:
        need, _, how = found
        yield Hit(
            f"cannot verify: {need} ECMP paths need {how}; the {v.device.model} default cap is "
            "in no source read",
            anchor="bgp",
        )


def _ecmp_cap(v: DeviceView) -> tuple[int, int | None, str] | None:
    """(paths BGP asks for, the device-wide cap or None if unknown, what raises it), for a
    vendor with such a cap and a device asking for more than one path."""
    spec, bgp = v.profile.ecmp_limit, v.device.bgp
    if spec is None or bgp is None or bgp.max_paths <= 1:
        return None
    found = re.search(spec.line, v.text, re.M)
    cap = int(found.group(1)) if found else v.model.ecmp_default
    how = f"'{spec.setting} {bgp.max_paths}' or more"
    return bgp.max_paths, cap, how + (" (effective after a reboot)" if spec.reboot else "")
