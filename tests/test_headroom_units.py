"""Headroom whose verdict rests on a figure no source gives: the cell size of a model that sets
headroom in a unit of its own (CloudEngine V200 models: kbytes, cell unconfirmed), the unit of
the RGOS/ZXROS headroom lines, and the buffer of a generic layout. Short whatever the figure is
RC201's; a verdict that turns on it is RC204's 'cannot verify', once per switch."""

from __future__ import annotations

from pathlib import Path

from roce_cfg.analysis import lint
from tests.helpers import ROOT

FABRICS = ROOT / "tests/brownfield/fabrics"
# hw-v200 leaf-1 (CE6865-48S8CQ-EI, cell size unconfirmed): a 100G uplink, 100 m by its
# description, needs 85 KB with no cell rounding or small-packet overhead (the least any cell
# size needs) and 106 KB with the assumed 256 B cell
UPLINK = " description to_spine-1_100GE1/0/1_100m_OM4\n"


def _lint_v200(tmp_path: Path, kbytes: int) -> list[tuple[str, str | None, str]]:
    text = (FABRICS / "hw-v200/leaf-1.cfg").read_text("utf-8")
    assert text.count(UPLINK) == 1
    text = text.replace(UPLINK, f"{UPLINK} dcb pfc buffer 3 hdrm {kbytes} kbytes\n")
    path = tmp_path / "leaf-1.cfg"
    path.write_text(text, "utf-8")
    return [(f.rule, f.port, f.message) for f in lint([path]).findings]


def test_a_line_the_cell_size_decides_is_cannot_verify(tmp_path: Path) -> None:
    found = _lint_v200(tmp_path, 100)  # 100 KB: short only with a cell of 256 B or more
    assert not [f for f in found if f[0] == "RC201"]
    (note,) = [f[2] for f in found if f[0] == "RC204"]
    assert "1 port priorities hold between the least any cell size needs" in note
    assert "(e.g. 100GE1/0/1: 102400 B, needs 87040-108544 B)" in note
    assert "no source gives the CE6865-48S8CQ-EI cell size" in note


def test_a_line_short_whatever_the_cell_is_an_error(tmp_path: Path) -> None:
    found = _lint_v200(tmp_path, 64)  # 64 KB < 85 KB: short for any cell size
    (short,) = [f for f in found if f[0] == "RC201"]
    assert short[1] == "100GE1/0/1"
    assert "headroom 65536 B < required at least 87040 B whatever the cell size" in short[2]
    (note,) = [f[2] for f in found if f[0] == "RC204"]
    assert "hold between" not in note  # decided: nothing left to the cell size


def test_a_line_above_the_assumed_cells_need_is_not_reported(tmp_path: Path) -> None:
    found = _lint_v200(tmp_path, 128)
    assert not [f for f in found if f[0] == "RC201"]
    assert not [f for f in found if f[0] == "RC204" and "hold between" in f[2]]


def test_a_line_wasteful_only_by_the_assumed_cell_is_not_reported(tmp_path: Path) -> None:
    """300 KB is over twice the assumed 256 B cell's need (106 KB), but a larger cell needs
    more: whether it is too much rests on the cell size no source gives."""
    assert not [f for f in _lint_v200(tmp_path, 300) if f[0] == "RC202"]


def _zte_ruijie_leaf(tmp_path: Path, name: str, line: str | None) -> list[tuple[str, str]]:
    text = (FABRICS / f"rj-zte-lag/{name}.cfg").read_text("utf-8")
    if line is not None:
        port = "interface HundredGigabitEthernet 0/49\n"
        assert text.count(port) == 1
        text = text.replace(port, f"{port}{line}\n")
    path = tmp_path / f"{name}.cfg"
    path.write_text(text, "utf-8")
    return [(f.rule, f.message) for f in lint([path]).findings]


def test_a_headroom_line_in_an_unsourced_unit_is_cannot_verify(tmp_path: Path) -> None:
    """RGOS: 'priority-flow-control headroom 3 1000' is read as 1,000 bytes, far below any
    need; no source gives the unit, so no shortfall is concluded from it."""
    found = _zte_ruijie_leaf(tmp_path, "leaf-1", " priority-flow-control headroom 3 1000")
    assert not [f for f in found if f[0] in ("RC201", "RC202", "RC203")]
    (note,) = [m for r, m in found if r == "RC204"]
    assert "1 headroom line(s) (e.g. HundredGigabitEthernet 0/49: 1000) read as 1-byte" in note
    assert "no source gives the unit RGOS counts headroom in" in note


def test_a_generic_layouts_pool_budget_is_one_cannot_verify(tmp_path: Path) -> None:
    """A generic layout is no model: no buffer, so RC203 cannot judge the pool. RC204 says so
    in its one statement on the switch (not RC120, which is for a model not listed)."""
    found = _zte_ruijie_leaf(tmp_path, "leaf-1", None)
    assert not [r for r, _ in found if r in ("RC120", "RC203")]
    (note,) = [m for r, m in found if r == "RC204"]
    assert "the pool budget: no source gives the buffer of the generic-48x25G-8x100G" in note
