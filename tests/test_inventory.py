"""The push inventory is nornir's: nested groups, defaults and its folder layout resolve as
nornir resolves them (issue 17: the loader used to merge one level of groups by hand)."""

from __future__ import annotations

from pathlib import Path

import pytest

from roce_cfg.deploy.inventory import load
from roce_cfg.errors import InputError

NESTED = """
defaults:
  port: 2222
  data: {vendor: zte}
groups:
  site-a: {hostname: 192.0.2.1, port: 830}
  huawei-leaves:
    groups: [site-a]
    data: {vendor: huawei}
  comware:
    platform: hp_comware
hosts:
  leaf-1: {groups: [huawei-leaves]}
  leaf-2: {hostname: 192.0.2.12, groups: [comware]}
  spine-1: {hostname: 192.0.2.21}
"""


def test_nested_groups_and_defaults(tmp_path: Path) -> None:
    inv = tmp_path / "inv.yaml"
    inv.write_text(NESTED)
    t = {x.name: x for x in load(inv)}
    # leaf-1: vendor from its group, address and port from the group's parent group
    assert (t["leaf-1"].profile.vendor.value, t["leaf-1"].address, t["leaf-1"].port) == (
        "huawei", "192.0.2.1", 830,
    )  # fmt: skip
    # leaf-2: data.vendor is looked up first (host, groups, then defaults, as nornir's
    # host.get() does), so the defaults' zte wins over the group's platform
    assert t["leaf-2"].port == 2222 and t["leaf-2"].address == "192.0.2.12"
    assert t["leaf-2"].profile.vendor.value == "zte"
    assert t["spine-1"].profile.vendor.value == "zte" and t["spine-1"].port == 2222


def test_nornir_folder_layout(tmp_path: Path) -> None:
    (tmp_path / "hosts.yaml").write_text("leaf-1: {hostname: 192.0.2.11, groups: [h3c]}\n")
    (tmp_path / "groups.yaml").write_text("h3c: {data: {vendor: h3c}}\n")
    (tmp_path / "defaults.yaml").write_text("port: 22\n")
    [t] = load(tmp_path)
    assert (t.name, t.address, t.port, t.profile.vendor.value) == (
        "leaf-1",
        "192.0.2.11",
        22,
        "h3c",
    )


def test_unknown_group_is_a_one_line_error(tmp_path: Path) -> None:
    inv = tmp_path / "inv.yaml"
    inv.write_text("hosts:\n  leaf-1: {groups: [nowhere], data: {vendor: h3c}}\n")
    with pytest.raises(InputError, match=r"no group '?nowhere'?"):
        load(inv)


@pytest.mark.parametrize(
    ("groups", "message"),
    [
        ("{a: {groups: [b]}, b: {groups: [a]}}", "groups.a.groups: group cycle a -> b -> a"),
        ("{a: {groups: [a]}}", "groups.a.groups: group cycle a -> a"),
        ("{a: {groups: [b]}, b: {groups: [c]}, c: {groups: [b]}}", "group cycle b -> c -> b"),
        ("{1: {data: {vendor: h3c}}}", "groups: group name 1 is not a string"),
    ],
)
def test_group_cycles_and_names_are_one_line_errors(
    tmp_path: Path, groups: str, message: str
) -> None:
    """nornir resolves parents by recursion (a cycle was its RecursionError) and joins names as
    strings (an integer name was a TypeError)."""
    inv = tmp_path / "inv.yaml"
    inv.write_text(f"hosts:\n  leaf-1: {{groups: [a], data: {{vendor: h3c}}}}\ngroups: {groups}\n")
    with pytest.raises(InputError) as info:
        load(inv)
    assert message in str(info.value)
    assert "\n" not in str(info.value)
