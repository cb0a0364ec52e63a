"""The push inventory, read by nornir's SimpleInventory: one YAML file with hosts, groups and
defaults sections, or nornir's own folder of hosts.yaml, groups.yaml and defaults.yaml.

Hosts name their vendor (``data: {vendor: h3c}``) or their netmiko platform (``platform:
hp_comware``). Credentials never come from this file: a password in it is refused.
"""

from __future__ import annotations

import fnmatch
import json
import logging
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from nornir.core.inventory import Inventory
from nornir.plugins.inventory.simple import SimpleInventory

from roce_cfg.deploy import shape
from roce_cfg.deploy.transport import check_extras
from roce_cfg.errors import InputError
from roce_cfg.platforms.profile import VendorProfile, load_profiles
from roce_cfg.vendor import Vendor
from roce_cfg.yamlsrc import INVENTORY, load_file


@dataclass(frozen=True)
class Target:
    name: str
    address: str
    port: int
    profile: VendorProfile
    # connection_options.netmiko.extras that roce-cfg passes on (deploy/transport.py)
    extras: tuple[tuple[str, Any], ...] = ()


def _nornir_inventory(doc: dict[str, Any]) -> Inventory:
    """nornir's own SimpleInventory reads the sections, so nested groups, defaults and
    connection_options resolve exactly as nornir resolves them (it reads three files: one file's
    sections are written out to a private temporary folder for it)."""
    # nornir names the file it read in its warnings: here a private temporary one that means
    # nothing to the user (and says where roce-cfg keeps its scratch files), so they are
    # dropped; what they warn about (an empty section) is refused or harmless before this.
    quiet = logging.getLogger("nornir.plugins.inventory.simple")
    with tempfile.TemporaryDirectory(prefix="roce-cfg-inv-") as tmp, _silenced(quiet):
        files = {}
        for section in ("hosts", "groups", "defaults"):
            files[section] = Path(tmp) / f"{section}.yaml"
            # an absent section stays an absent file: nornir warns on an empty one
            if doc.get(section) or section == "hosts":
                # JSON, which nornir's YAML 1.2 reader takes as it is: from PyYAML's dump it
                # read a host named 1e100 as a float (then sorting names was a TypeError)
                files[section].write_text(json.dumps(doc[section]), encoding="utf-8")
        return SimpleInventory(
            host_file=str(files["hosts"]),
            group_file=str(files["groups"]),
            defaults_file=str(files["defaults"]),
        ).load()


@contextmanager
def _silenced(logger: logging.Logger) -> Iterator[None]:
    def drop(record: logging.LogRecord) -> bool:
        return False

    logger.addFilter(drop)
    try:
        yield
    finally:
        logger.removeFilter(drop)


def _load(path: Path, folder: Path | None = None) -> Any:
    """The one place the inventory's YAML is read (file, or member of ``folder``)."""
    loaded, _ = load_file(path, INVENTORY, root=folder)
    return loaded


def _read(path: Path) -> dict[str, Any]:
    """One file with hosts/groups/defaults sections, or nornir's folder of hosts.yaml,
    groups.yaml and defaults.yaml."""
    if path.is_dir():
        files = {s: path / f"{s}.yaml" for s in ("hosts", "groups", "defaults")}
        # a member that is a FIFO, a device or a link out of the folder is refused, not skipped
        return {s: _load(f, path) for s, f in files.items() if os.path.lexists(f)}
    loaded = _load(path)
    return loaded if isinstance(loaded, dict) else {}


def readable(path: Path) -> None:
    """The inventory read (a file, or a folder's members) and a mapping, its hosts not asked
    for yet: what a pipeline stage before the push checks up front."""
    if path.is_dir() and not path.is_symlink():
        _read(path)
    elif not isinstance(_load(path), dict):
        raise InputError(
            "an inventory is a mapping with 'hosts' (and 'groups', 'defaults')", file=str(path)
        )


def load(path: Path, overlay: Path | None = None, limit: str | None = None) -> list[Target]:
    doc = _read(path)
    _check(doc, str(path))
    try:
        inventory = _nornir_inventory(doc)
    except (TypeError, AttributeError, ValueError) as exc:
        raise InputError(f"not a nornir inventory: {exc}", file=str(path)) from None
    profiles = load_profiles(overlay)
    targets = [
        _target(name, inventory.hosts[name], profiles, str(path))
        for name in sorted(inventory.hosts)
        if not limit or fnmatch.fnmatchcase(name, limit)
    ]
    if not targets:
        raise InputError(f"no hosts{' match ' + limit if limit else ''}", file=str(path))
    return targets


def _check(doc: dict[str, Any], file: str) -> None:
    """The inventory's shape, no password in it, and every group a host names defined."""
    if not isinstance(doc.get("hosts"), dict) or not doc["hosts"]:
        raise InputError(
            "no hosts"  # refused before nornir, which warns naming its scratch copy
            if doc.get("hosts") == {}
            else "an inventory is a mapping with 'hosts' (and 'groups', 'defaults'), or a "
            "folder of nornir's hosts.yaml, groups.yaml, defaults.yaml",
            file=file,
        )
    shape.check(doc, file)
    groups = doc.get("groups") or {}
    members = [
        *(("groups." + k, v) for k, v in groups.items()),
        *(("hosts." + k, v) for k, v in doc["hosts"].items()),
    ]
    for where, item in [("defaults", doc.get("defaults") or {}), *members]:
        if isinstance(item, dict) and "password" in item:
            raise InputError(
                f"{where}.password: passwords do not belong in the inventory; set "
                "ROCE_CFG_PASSWORD or let roce-cfg prompt",
                file=file,
            )
    for where, item in members:
        for g in (item or {}).get("groups") or []:
            if g not in groups:
                raise InputError(f"{where}.groups: no group {g!r}", file=file)


def _target(name: str, host: Any, profiles: dict[Vendor, VendorProfile], file: str) -> Target:
    """One host: its vendor (data.vendor, else the netmiko platform's) and its extras."""
    by_platform = {p.dialect.netmiko.device_type: v for v, p in profiles.items()}
    vendor_name = host.get("vendor")
    try:
        vendor = Vendor(vendor_name) if vendor_name else by_platform[host.platform or ""]
    except (ValueError, KeyError):
        raise InputError(
            f"hosts.{name}: give data.vendor ({', '.join(v.value for v in Vendor)}) or a "
            f"platform ({', '.join(sorted(by_platform))})",
            file=file,
        ) from None
    return Target(
        name,
        str(host.hostname or name),
        int(host.port or 22),
        profiles[vendor],
        # resolved through groups and defaults as nornir resolves them
        check_extras(
            host.get_connection_parameters("netmiko").extras,
            f"hosts.{name}.connection_options.netmiko.extras",
            file,
        ),
    )
