"""Each vendor's CLI dialect is data: the emulators, the config trees and push do what it says,
and a changed dialect changes them with no code of their own."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from roce_cfg.deploy.tree import Tree
from roce_cfg.lab.cli import Session, Switch
from roce_cfg.platforms.dialect import Commit, Dialect
from roce_cfg.platforms.profile import VendorProfile, load_profile
from roce_cfg.vendor import Vendor

# The prompts netmiko-notes.md measured on fakes built to each driver, and [HW-CG]'s marks.
PROMPTS = {
    Vendor.H3C: ("<sw>", "[sw]", "[sw-HundredGigE1/0/1]"),
    Vendor.HUAWEI: ("<sw>", "[~sw]", "[*sw-100GE1/0/1]"),
    Vendor.RUIJIE: ("sw#", "sw(config)#", "sw(config-interf)#"),
    Vendor.ZTE: ("sw#", "sw(config)#", "sw(config-interf)#"),
}
PORTS = {
    Vendor.H3C: "HundredGigE1/0/1",
    Vendor.HUAWEI: "100GE1/0/1",
    Vendor.RUIJIE: "HundredGigabitEthernet 0/1",
    Vendor.ZTE: "cgei-0/1/0/1",
}


@pytest.mark.parametrize("vendor", list(Vendor))
def test_every_part_of_every_dialect_names_its_source(vendor: Vendor) -> None:
    d = load_profile(vendor).dialect
    for part in (d.prompts, d.commit, d.save, d.framing, d.netmiko):
        assert part.source.strip(), f"{vendor.value}: dialect.{type(part).__name__} unsourced"


@pytest.mark.parametrize("vendor", list(Vendor))
def test_the_emulator_prompts_as_the_dialect_says(vendor: Vendor) -> None:
    profile = load_profile(vendor)
    session = Session(Switch.start("sw", profile))
    exec_prompt, config_prompt, view_prompt = PROMPTS[vendor]
    assert session.banner() == exec_prompt
    assert session.feed(profile.dialect.enter[0]).endswith(config_prompt)
    assert session.feed(f"interface {PORTS[vendor]}").endswith(view_prompt)


def _with(profile: VendorProfile, **parts: object) -> VendorProfile:
    dialect = profile.dialect.model_copy(update=parts)
    return profile.model_copy(update={"dialect": dialect})


def test_a_save_question_in_the_data_is_asked_and_answered() -> None:
    """Comware saves without asking; give its dialect VRP's question and the emulator asks."""
    h3c = load_profile(Vendor.H3C)
    save = h3c.dialect.save.model_copy(update={"question": "Continue? [Y/N]:", "done": "Saved."})
    switch = Switch.start("sw", _with(h3c, save=save))
    session = Session(switch)
    assert session.feed("save force") == "Continue? [Y/N]:"
    switch.running.apply(["interface HundredGigE1/0/2", "description changed"])
    assert session.feed("y") == "Saved.\r\n<sw>"
    assert "description changed" in switch.saved


def test_the_saved_layout_is_the_dialects_framing() -> None:
    h3c = load_profile(Vendor.H3C)
    framing = h3c.dialect.framing.model_copy(
        update={"before_block": None, "after_block": "!", "tail": ("end",), "view_end": "$"}
    )
    tree = Tree(_with(h3c, framing=framing))
    tree.apply(["sysname sw", "interface HundredGigE1/0/1", "description x", "quit"])
    lines = [" sysname sw", "!", "interface HundredGigE1/0/1", " description x", "$", "!", "end"]
    assert tree.render() == "\n".join(lines) + "\n"


def test_a_candidate_commit_model_needs_its_commit_command() -> None:
    with pytest.raises(ValidationError, match="needs the commands that commit"):
        Commit(model="candidate")
    assert Dialect.model_fields["commit"].default == Commit()  # immediate unless stated
