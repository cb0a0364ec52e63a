"""The push inventory: nornir SimpleInventory's shape (hosts, groups, defaults) in one YAML file.

Hosts name their vendor (``data: {vendor: h3c}``) or their netmiko platform (``platform:
hp_comware``). Credentials never come from this file: a password in it is refused.
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from roce_cfg.deploy import shape
from roce_cfg.errors import InputError
from roce_cfg.intent.models import Vendor
from roce_cfg.intent.yamlsrc import INVENTORY, load_file
from roce_cfg.platforms.profile import VendorProfile, load_profiles


@dataclass(frozen=True)
class Target:
    name: str
    address: str
    port: int
    profile: VendorProfile
    # connection_options.netmiko.extras that roce-cfg passes on (deploy/transport.py)
    extras: tuple[tuple[str, Any], ...] = ()


def _merged(
    host: dict[str, Any], groups: dict[str, Any], defaults: dict[str, Any]
) -> dict[str, Any]:
    out: dict[str, Any] = {k: v for k, v in defaults.items() if k != "data"}
    data = dict(defaults.get("data") or {})
    for g in host.get("groups") or []:
        group = groups.get(g) or {}
        out.update({k: v for k, v in group.items() if k not in ("data", "groups")})
        data.update(group.get("data") or {})
    out.update({k: v for k, v in host.items() if k not in ("data", "groups")})
    data.update(host.get("data") or {})
    out["data"] = data
    return out


def load(path: Path, overlay: Path | None = None, limit: str | None = None) -> list[Target]:
    doc, _ = load_file(path, INVENTORY)
    shape.check(doc, str(path))
    groups = doc.get("groups") or {}
    defaults = doc.get("defaults") or {}
    for where, item in [("defaults", defaults), *(("groups." + k, v) for k, v in groups.items()),
                        *(("hosts." + k, v) for k, v in doc["hosts"].items())]:  # fmt: skip
        if isinstance(item, dict) and "password" in item:
            raise InputError(
                f"{where}.password: passwords do not belong in the inventory; set "
                "ROCE_CFG_PASSWORD or let roce-cfg prompt",
                file=str(path),
            )
    profiles = load_profiles(overlay)
    by_platform = {p.netmiko_device_type: v for v, p in profiles.items()}
    targets = []
    for name, raw in sorted(doc["hosts"].items()):
        if limit and not fnmatch.fnmatchcase(name, limit):
            continue
        host = _merged(raw or {}, groups, defaults)
        vendor_name = host["data"].get("vendor")
        try:
            vendor = Vendor(vendor_name) if vendor_name else by_platform[host.get("platform", "")]
        except (ValueError, KeyError):
            raise InputError(
                f"hosts.{name}: give data.vendor (h3c, huawei, ruijie, zte) or a platform "
                f"({', '.join(sorted(by_platform))})",
                file=str(path),
            ) from None
        targets.append(
            Target(
                name,
                str(host.get("hostname") or name),
                int(host.get("port") or 22),
                profiles[vendor],
                shape.extras_of(host, f"hosts.{name}", str(path)),
            )
        )
    if not targets:
        raise InputError(f"no hosts{' match ' + limit if limit else ''}", file=str(path))
    return targets
