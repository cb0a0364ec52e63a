"""The push inventory's shape, checked before it is read: every way a hand-edited inventory can
be malformed is a one-line error naming the file and the entry, never a traceback."""

from __future__ import annotations

import graphlib
from typing import Any

from roce_cfg.deploy.transport import check_extras
from roce_cfg.errors import InputError

_SCALARS = {"hostname": str, "platform": str}


def check(doc: Any, file: str) -> None:
    """Raise InputError for the first malformed entry of an inventory document.

    >>> check({"hosts": {"a": {"port": 22}}}, "inv.yaml")
    >>> check({"hosts": {"a": {"port": "ssh"}}}, "inv.yaml")
    Traceback (most recent call last):
    ...
    roce_cfg.errors.InputError: inv.yaml hosts.a.port: 'ssh' is not a TCP port (1-65535)
    """
    if not isinstance(doc, dict) or not isinstance(doc.get("hosts"), dict):
        raise InputError(
            "an inventory is a mapping with 'hosts' (and 'groups', 'defaults')", file=file
        )
    groups = doc.get("groups") or {}
    if not isinstance(groups, dict):
        raise InputError("is not a mapping of group names to groups", file=file, path="groups")
    for name in groups:
        if not isinstance(name, str):  # nornir joins names as strings: an int key is a typo
            raise InputError(f"group name {name!r} is not a string", file=file, path="groups")
    _entry(doc.get("defaults") or {}, "defaults", file, groups)
    for name, group in groups.items():
        _entry(group or {}, f"groups.{name}", file, groups)
    _no_cycle(groups, file)
    for name, host in doc["hosts"].items():
        if not isinstance(name, str):
            raise InputError(f"host name {name!r} is not a string", file=file, path="hosts")
        _entry(host or {}, f"hosts.{name}", file, groups)


def _entry(item: Any, where: str, file: str, groups: dict[str, Any]) -> None:
    if not isinstance(item, dict):
        raise InputError("is not a mapping", file=file, path=where)
    for key, kind in _SCALARS.items():
        if key in item and item[key] is not None and not isinstance(item[key], kind):
            raise InputError(
                f"{item[key]!r} is not a {kind.__name__}", file=file, path=where + "." + key
            )
    port = item.get("port")
    if port is not None and (
        isinstance(port, bool) or not isinstance(port, int) or not 1 <= port <= 65535
    ):
        raise InputError(f"{port!r} is not a TCP port (1-65535)", file=file, path=f"{where}.port")
    data = item.get("data")
    if data is not None and not isinstance(data, dict):
        raise InputError("is not a mapping", file=file, path=f"{where}.data")
    member = item.get("groups")
    if member is not None:
        if not isinstance(member, list) or not all(isinstance(g, str) for g in member):
            raise InputError("is not a list of group names", file=file, path=f"{where}.groups")
        unknown = [g for g in member if g not in groups]
        if unknown:
            raise InputError(f"no group {unknown[0]}", file=file, path=f"{where}.groups")
    extras_of(item, where, file)


def extras_of(item: dict[str, Any], where: str, file: str) -> tuple[tuple[str, Any], ...]:
    """``connection_options.netmiko.extras`` (nornir's shape), checked."""
    options = item.get("connection_options")
    if options is None:
        return ()
    if not isinstance(options, dict):
        raise InputError("is not a mapping", file=file, path=f"{where}.connection_options")
    netmiko = options.get("netmiko")
    if netmiko is None:
        return ()
    path = f"{where}.connection_options.netmiko"
    if not isinstance(netmiko, dict):
        raise InputError("is not a mapping", file=file, path=path)
    return check_extras(netmiko.get("extras"), f"{path}.extras", file)


def _no_cycle(groups: dict[str, Any], file: str) -> None:
    """nornir resolves a group's parents by recursion: a cycle ends in its RecursionError.

    >>> _no_cycle({"a": {"groups": ["b"]}, "b": {"groups": ["c"]}, "c": {"groups": ["a"]}}, "i")
    Traceback (most recent call last):
    ...
    roce_cfg.errors.InputError: i groups.a.groups: group cycle a -> b -> c -> a
    """
    parents = {n: (g or {}).get("groups") or [] for n, g in groups.items()}  # checked by _entry
    try:
        graphlib.TopologicalSorter(parents).prepare()
    except graphlib.CycleError as exc:
        cycle = exc.args[1][::-1]  # graphlib lists predecessors first: a group, then its parent
        raise InputError(
            f"group cycle {' -> '.join(cycle)}", file=file, path=f"groups.{cycle[0]}.groups"
        ) from None
