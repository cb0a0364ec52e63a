"""Unknown models stay unknown (issue 26 item 8): a model the vendor profile does not list is
reported, and the rules that need its buffer say 'cannot verify' instead of borrowing another
model's figures."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from roce_cfg.analysis import lint
from roce_cfg.errors import InputError
from roce_cfg.parse import Hints, parse_file, parse_text
from roce_cfg.platforms.profile import load_profile
from roce_cfg.vendor import Vendor
from tests.helpers import ROOT

FABRICS = ROOT / "tests/brownfield/fabrics"
BUFFER_RULES = {"RC201", "RC202", "RC203", "RC204", "RC205"}


@pytest.mark.parametrize(
    "fabric, name, model",
    [
        ("hw-v300-mlag", "leaf-3", "CE6863E-48S8CQ"),
        ("hw-v200", "leaf-1", "CE6865-48S8CQ-EI"),
        ("hw-v200", "spine-1", "CE8850-64CQ-EI"),
    ],
)
def test_a_named_model_the_profile_lacks_is_kept(fabric: str, name: str, model: str) -> None:
    parsed = parse_file(FABRICS / fabric / f"{name}.cfg").config
    assert (parsed.device.model, parsed.model_from) == (model, "config")
    assert any(f"model {model} is not in vendors/huawei.yaml" in n for n in parsed.notes)
    assert parsed.device.interfaces  # its ports are still read


def test_ports_that_fit_no_model_and_no_model_line_are_unknown() -> None:
    """H3C prints no model; S9855-48CD8D's 48 x 100G + 8 x 400G fit no listed model."""
    parsed = parse_file(FABRICS / "h3c-lag/leaf-3.cfg").config
    assert parsed.device.model == "unknown"
    assert any("model unknown" in n for n in parsed.notes)


def test_the_stand_in_knows_no_buffer() -> None:
    profile = load_profile(Vendor.HUAWEI)
    stand_in = profile.spec_of("CE6863E-48S8CQ")
    assert not stand_in.known
    assert (stand_in.buffer_bytes, stand_in.headroom_pool_bytes) == (None, None)
    assert profile.spec_of("CE6885-48YS8CQ").known


def test_lint_says_cannot_verify_instead_of_borrowing(tmp_path: Path) -> None:
    for name in ("leaf-3", "leaf-1"):
        shutil.copy(FABRICS / "hw-v300-mlag" / f"{name}.cfg", tmp_path / f"{name}.cfg")
    result = lint([tmp_path / "leaf-3.cfg", tmp_path / "leaf-1.cfg"])
    unknown = [f for f in result.findings if f.device == "leaf-3"]
    rc120 = [f for f in unknown if f.rule == "RC120"]
    assert len(rc120) == 1 and rc120[0].severity == "error"
    assert rc120[0].message.startswith(
        "cannot verify: model CE6863E-48S8CQ unknown (add it with an overlay)"
    )
    assert not [f for f in unknown if f.rule in BUFFER_RULES]
    assert not [f for f in result.findings if f.device == "leaf-1" and f.rule == "RC120"]
    assert result.failing("error")


def test_a_given_model_must_still_be_a_listed_one() -> None:
    text = "#\nsysname sw-1\n#\ninterface 100GE1/0/1\n undo portswitch\n#\nreturn\n"
    with pytest.raises(InputError, match="unknown huawei model 'CE0000'"):
        parse_text(text, vendor=Vendor.HUAWEI, hints=Hints(model="CE0000"))
