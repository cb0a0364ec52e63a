"""Unknown models stay unknown: a model the vendor profile does not list is reported, the rules
that need its buffer say 'cannot verify' instead of borrowing another model's figures, and what
needs only the port (a headroom line against the least the formula needs) is still judged.
The models real fabrics print (CE6865-48S8CQ-EI, CE8850-64CQ-EI, CE9860-4C-EI-A, S9855-48CD8D)
are listed, with the source of each figure."""

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


@pytest.mark.parametrize("fabric, name, model", [("hw-v300-mlag", "leaf-3", "CE6863E-48S8CQ")])
def test_a_named_model_the_profile_lacks_is_kept(fabric: str, name: str, model: str) -> None:
    parsed = parse_file(FABRICS / fabric / f"{name}.cfg").config
    assert (parsed.device.model, parsed.model_from) == (model, "config")
    assert any(f"model {model} is not in vendors/huawei.yaml" in n for n in parsed.notes)
    assert parsed.device.interfaces  # its ports are still read


@pytest.mark.parametrize(
    "fabric, name, model, source",
    [
        ("hw-v200", "leaf-1", "CE6865-48S8CQ-EI", "config"),
        ("hw-v200", "spine-1", "CE8850-64CQ-EI", "config"),
        # Comware prints no model: 48 x 100G + 8 x 400G fit the S9855-48CD8D alone
        ("h3c-lag", "leaf-3", "S9855-48CD8D", "port layout"),
    ],
)
def test_models_real_fabrics_print_are_listed(
    fabric: str, name: str, model: str, source: str
) -> None:
    parsed = parse_file(FABRICS / fabric / f"{name}.cfg").config
    assert (parsed.device.model, parsed.model_from) == (model, source)
    assert not any("is not in vendors/" in n or "model unknown" in n for n in parsed.notes)
    vendor = Vendor.H3C if fabric.startswith("h3c") else Vendor.HUAWEI
    spec = load_profile(vendor).spec_of(model)
    assert spec.known and spec.source
    # no public source read gives their buffers: left unknown, not borrowed
    assert spec.buffer_bytes is None and spec.headroom_pool_bytes is None


def test_the_ce9860_a_build_is_listed() -> None:
    text = (FABRICS / "hw-v200/spine-1.cfg").read_text().replace("CE8850-64CQ-EI", "CE9860-4C-EI-A")
    parsed = parse_text(text, vendor=Vendor.HUAWEI).config
    assert (parsed.device.model, parsed.model_from) == ("CE9860-4C-EI-A", "config")
    assert load_profile(Vendor.HUAWEI).spec_of("CE9860-4C-EI-A").known


def test_ports_that_fit_no_model_and_no_model_line_are_unknown() -> None:
    """H3C prints no model; 24 x 200G + 8 x 400G (an S9855-24B8D) fit no listed model."""
    text = (FABRICS / "h3c-lag/leaf-3.cfg").read_text()
    for n in range(1, 49):
        text = text.replace(f"HundredGigE1/0/{n}\n", f"TwoHundredGigE1/0/{n}\n")
    parsed = parse_text(text, vendor=Vendor.H3C).config
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
    assert len(rc120) == 1 and rc120[0].severity == "warning"  # a gap in what roce-cfg knows
    assert rc120[0].message.startswith(
        "cannot verify: model CE6863E-48S8CQ unknown (add it with an overlay)"
    )
    assert not [f for f in unknown if f.rule in BUFFER_RULES]
    assert not [f for f in result.findings if f.device == "leaf-1" and f.rule == "RC120"]
    assert rc120[0] in result.failing("error", require_verified=True)


def test_an_unknown_model_with_no_pfc_port_leaves_nothing_unchecked(tmp_path: Path) -> None:
    """No PFC port: no buffer or headroom figure of the model is needed, so an unlisted model is
    no gap (RC120 was a warning on campus switches with nothing lossless)."""
    text = (FABRICS / "hw-v300-mlag" / "leaf-3.cfg").read_text(encoding="utf-8")
    plain = "\n".join(ln for ln in text.splitlines() if " dcb pfc enable" not in ln)
    (tmp_path / "leaf-3.cfg").write_text(plain + "\n", encoding="utf-8")
    result = lint([tmp_path / "leaf-3.cfg"])
    assert not [f for f in result.findings if f.rule == "RC120"], result.findings
    shutil.copy(FABRICS / "hw-v300-mlag" / "leaf-3.cfg", tmp_path / "with-pfc.cfg")
    control = lint([tmp_path / "with-pfc.cfg"])
    assert [f.rule for f in control.findings if f.rule == "RC120"] == ["RC120"]


def test_a_given_model_must_still_be_a_listed_one() -> None:
    text = "#\nsysname sw-1\n#\ninterface 100GE1/0/1\n undo portswitch\n#\nreturn\n"
    with pytest.raises(InputError, match="unknown huawei model 'CE0000'"):
        parse_text(text, vendor=Vendor.HUAWEI, hints=Hints(model="CE0000"))


def _unknown_leaf(tmp_path: Path, description: str, hdrm_kb: int | None) -> Path:
    """hw-v300-mlag's leaf-3 (a CE6863E-48S8CQ, not listed) with 100GE1/0/1's description and
    headroom line set, and its PFC section read whole."""
    text = (FABRICS / "hw-v300-mlag/leaf-3.cfg").read_text()
    # a line roce-cfg does not read: with it the PFC section is unread and nothing judged (RC405)
    text = text.replace(" priority 3 turn-off threshold 20\n", "")
    old = "interface 100GE1/0/1\n description to_spine-1_100GE1/0/5_5m_AOC\n"
    assert old in text
    new = f"interface 100GE1/0/1\n description {description}\n"
    if hdrm_kb is not None:
        new += f" dcb pfc buffer 3 hdrm {hdrm_kb} kbytes\n"
    path = tmp_path / "leaf-3.cfg"
    path.write_text(text.replace(old, new))
    return path


@pytest.mark.parametrize(
    "description, hdrm_kb, short",
    [
        # a 100G port at MTU 9000 needs at least 85 KB over 100 m whatever the cell size:
        # 80 KB is short there, enough over 5 m (74 KB)
        ("to_spine-1_100GE1/0/5_100m_SMF", 80, True),
        ("to_spine-1_100GE1/0/5_5m_AOC", 80, False),
        ("to_spine-1_100GE1/0/5_100m_SMF", 88, False),
        # no headroom line: the default of an unlisted model is nobody's (RC120 says so)
        ("to_spine-1_100GE1/0/5_100m_SMF", None, False),
    ],
)
def test_an_unknown_model_is_still_judged_against_the_formula(
    tmp_path: Path, description: str, hdrm_kb: int | None, short: bool
) -> None:
    result = lint([_unknown_leaf(tmp_path, description, hdrm_kb)])
    rc201 = [f for f in result.findings if f.rule == "RC201"]
    assert [f.port for f in rc201] == (["100GE1/0/1"] if short else []), rc201
    if short:
        assert rc201[0].severity == "error"
        assert "headroom 81920 B < required at least 87040 B" in rc201[0].message
        assert "100 m cable (from the description '100m')" in rc201[0].message
        assert "cell size is unknown" in rc201[0].message
    # the pool budget stays unverified: RC120, never RC203 from another model's figures
    assert [f.rule for f in result.findings if f.rule in {"RC120", "RC203"}] == ["RC120"]


def test_headroom_in_cells_of_an_unknown_size_is_not_judged(tmp_path: Path) -> None:
    """Comware counts headroom in cells: on a model whose cell size is unknown, a line's bytes are
    unknown too, so RC120 says so and RC201 stays silent (one cell short of any need here)."""
    text = (FABRICS / "h3c-lag/leaf-3.cfg").read_text()
    for n in range(1, 49):
        text = text.replace(f"HundredGigE1/0/{n}\n", f"TwoHundredGigE1/0/{n}\n")
    port = " description to_spine-1_FourHundredGigE1/0/3_10m_AOC\n"
    assert port in text
    text = text.replace(
        port, port.replace("10m", "100m") + " priority-flow-control dot1p 3 headroom 1\n"
    )
    (tmp_path / "leaf-3.cfg").write_text(text)
    result = lint([tmp_path / "leaf-3.cfg"])
    assert not [f for f in result.findings if f.rule == "RC201"]
    (rc120,) = [f for f in result.findings if f.rule == "RC120"]
    assert "counted in cells of an unknown size" in rc120.message
