"""RC204: the headroom in force where it rests on a figure no source gives (the model's default,
its cell size, the unit of the headroom lines), said once per switch instead of concluded."""

from __future__ import annotations

from collections.abc import Iterator

from roce_cfg.analysis.context import DeviceView
from roce_cfg.analysis.registry import Hit, rule
from roce_cfg.analysis.rules_headroom import (
    Need,
    cells_unsourced,
    held_short,
    model_assumed,
    needs,
    unit_unsourced,
)


@rule(
    "RC204",
    "headroom-unverified",
    "warning",
    "device",
    summary="cannot verify the headroom in force: it rests on a figure no source gives for this "
    "model (its default, the size of the cells a headroom is counted in or that the need "
    "rounds to, or the unit of the headroom lines).",
    rationale="A port with no headroom line, or on a model that does not let headroom be set, "
    "holds the model's default; a headroom line or pool counted in cells holds that many cells. "
    "Where no source gives the default or the cell size, the bytes the port holds are unknown: "
    "calling them short (or wasteful, or over the pool) would conclude from a guess, and "
    "passing them would hide a real shortfall. The required figure is still computed and shown.",
    fix="Check the figure with the vendor (the default per model and release, the cell size) and "
    "add it to an overlay (vendors/<vendor>.yaml 'models': headroom_default_bytes, cell_bytes "
    "with cell_unconfirmed false, with the source of each), or set the headroom in bytes where "
    "the switch takes a unit.",
    limits="Once per switch: the figures it lacks, and the largest need among its PFC ports; "
    "where it speaks and no source gives the model's buffer, the pool budget RC203 cannot "
    "judge is named too (a generic layout's always). A line whose verdict turns on the cell "
    "size is named here; a line short whatever the cell is RC201's. A model the profiles do "
    "not list is RC120's; a port whose PFC or buffer lines were not read is RC405's.",
    verifies=False,
)
def headroom_unverified(v: DeviceView) -> Iterator[Hit]:
    ns = needs(v)
    if not (v.model.known and ns):
        return
    lacks = [
        *_default_unsourced(v, ns),
        *_cells_counted(v, ns),
        *_cell_decides(v, ns),
        *_unit_unknown(v, ns),
    ]
    if lacks:
        # RC203's budget rests on the same kind of gap on these switches (the generic layouts:
        # no model, so no buffer): said here, in the one statement, not as a finding of its own
        # on every switch whose model publishes no buffer (RC203's limits say that)
        lacks += _budget_unknown(v)
        # ties go to the first port by name, not in file order: the finding must not move when
        # a backup prints its blocks in another order. A note on the switch, not on a port (a
        # report would flag that port's link): at the line of the port it names
        worst = min(ns, key=lambda n: (-n.required, n.port.name))
        yield Hit(
            f"cannot verify the headroom: {'; '.join(lacks)}; {len(ns)} port priorities need "
            f"up to {worst.required} B ({worst.port.name}, {worst.describe()})",
            line=v.source.interface_line(worst.port.name),
            detail=worst.detail,
        )


def _default_unsourced(v: DeviceView, ns: list[Need]) -> Iterator[str]:
    """The headroom in force where no line sets it, when no source gives the model's default,
    or the model is not stated (the one its ports suggest stands in: its default is a guess)."""
    model = v.device.model
    assumed = model_assumed(v)
    if v.model.headroom_default_bytes is not None and not assumed:
        return
    if not (v.model.headroom_configurable or assumed):
        yield f"the {model} sets headroom itself and no source gives its default"
        return
    unset = sorted(
        {
            n.port.name
            for n in ns
            if n.configured is None and v.gate.unread(("buffers", "pfc"), n.port.name) is None
        }
    )
    whose = (
        "the model, whose default holds there, is not stated"
        if assumed
        else (f"no source gives the {model} default")
    )
    if unset:
        yield f"{len(unset)} PFC port(s) print no headroom line (e.g. {unset[0]}) and {whose}"


def _cell_decides(v: DeviceView, ns: list[Need]) -> Iterator[str]:
    """Ports whose verdict rests on the cell size: held less than the assumed cell's need and
    not less than the least any cell needs."""
    open_ = sorted((n.port.name, n) for n in ns if held_short(v, n) == "undecided")
    if open_:
        name, n = open_[0]
        held = n.configured if n.configured is not None else n.default
        yield (
            f"{len(open_)} port priorities hold between the least any cell size needs and the "
            f"need with an assumed {v.model.cell_bytes} B cell (e.g. {name}: {held} B, needs "
            f"{n.floor}-{n.required} B) and no source gives the {v.device.model} cell size"
        )


def _unit_unknown(v: DeviceView, ns: list[Need]) -> Iterator[str]:
    """Headroom lines and a pool read in a unit no source gives."""
    if not unit_unsourced(v):
        return
    lines = sorted((n.port.name, n.configured) for n in ns if n.configured is not None)
    counted = []
    if lines:
        counted.append(f"{len(lines)} headroom line(s) (e.g. {lines[0][0]}: {lines[0][1]})")
    pool = v.device.qos.headroom_pool_bytes
    if pool is not None:
        counted.append(f"the headroom pool ({pool})")
    if counted:
        yield (
            f"{' and '.join(counted)} read as {v.profile.headroom_unit_bytes}-byte units and "
            f"no source gives the unit {v.profile.os} counts headroom in"
        )


def _budget_unknown(v: DeviceView) -> Iterator[str]:
    """The pool budget (RC203's): no configured pool, and no source gives the model's pool or
    packet buffer."""
    spec = v.model
    if v.device.qos.headroom_pool_bytes is None and not (
        spec.headroom_pool_bytes or spec.buffer_bytes
    ):
        yield f"the pool budget: no source gives the buffer of the {v.device.model}"


def _cells_counted(v: DeviceView, ns: list[Need]) -> Iterator[str]:
    """Headroom lines and the pool counted in cells of a size no source gives."""
    if not cells_unsourced(v):
        return
    cell = v.model.cell_bytes  # what the parse multiplied the printed counts by
    lines = sorted((n.port.name, n.configured) for n in ns if n.configured is not None)
    counted = []
    if lines:
        name, held = lines[0]
        counted.append(f"{len(lines)} headroom line(s) (e.g. {name}: {held // cell} cells)")
    pool = v.device.qos.headroom_pool_bytes
    if pool is not None:
        counted.append(f"the headroom pool ({pool // cell} cells)")
    if counted:
        whose = "the unstated model's" if model_assumed(v) else f"the {v.device.model}"
        plural = len(counted) > 1 or len(lines) > 1
        yield (
            f"{' and '.join(counted)} {'count' if plural else 'counts'} cells and no source "
            f"gives {whose} cell size"
        )
