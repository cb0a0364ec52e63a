"""Port assignment on one switch model: uplinks from the top, servers from the bottom."""

from __future__ import annotations

from dataclasses import dataclass

from roce_cfg.errors import PlanError
from roce_cfg.platforms.profile import ModelSpec, PortGroup, VendorProfile

Loc = tuple[str | int, ...]


@dataclass(frozen=True)
class PortSlot:
    name: str
    speed: int
    breakout_of: str | None = None


@dataclass(frozen=True)
class _Cage:
    group: PortGroup
    number: int

    def name(self, profile: VendorProfile, speed: int) -> str:
        return profile.interface_prefix[speed] + self.group.label.format(n=self.number)


def _cages(model: ModelSpec) -> list[_Cage]:
    return [_Cage(g, g.first + i) for g in model.ports for i in range(g.count)]


def _direct(cage: _Cage, speed: int) -> bool:
    return cage.group.speed == speed or speed in cage.group.runs_at


def allocate(
    profile: VendorProfile,
    model_name: str,
    model: ModelSpec,
    *,
    down: tuple[int, int],
    up: tuple[int, int],
    blame: Loc,
    hint: bool = True,
) -> tuple[list[PortSlot], list[PortSlot]]:
    """Pick ``down=(count, speed)`` server ports and ``up=(count, speed)`` uplinks.

    Uplinks take the highest-numbered cages that run at their speed (the usual cabling plan);
    servers take the lowest, one per cage where the cage runs at the server speed, splitting
    cages into breakout sub-ports only as far as whole cages cannot carry them. A refusal names
    the vendor's models that would fit (``hint``).
    """
    cages = _cages(model)
    up_count, up_speed = up
    down_count, down_speed = down
    uplinks = [c for c in reversed(cages) if _direct(c, up_speed)][:up_count]
    if len(uplinks) < up_count:
        raise PlanError(
            blame,
            f"{up_count} uplinks at {up_speed}G do not fit {profile.vendor.value} {model_name} "
            f"({len(uplinks)} ports run at {up_speed}G)"
            + (_fitting(profile, model_name, down, up) if hint else ""),
        )
    uplinks.reverse()
    taken = {id(c) for c in uplinks}
    free = [c for c in cages if id(c) not in taken]
    downs: list[PortSlot] = []
    for left, cage in zip(range(len(free), 0, -1), free, strict=True):
        need = down_count - len(downs)
        if need <= 0:
            break
        # A breakout sub-port is named by its own speed: without a known name, do not split.
        can_split = down_speed in cage.group.breakout and down_speed in profile.interface_prefix
        # Split a cage only when whole cages left cannot carry the servers still to place.
        if can_split and (need > left or not _direct(cage, down_speed)):
            downs += _split(profile, cage, down_speed, need)
        elif _direct(cage, down_speed):
            downs.append(PortSlot(cage.name(profile, cage.group.speed), down_speed))
    if len(downs) < down_count:
        raise PlanError(
            blame,
            f"{down_count} server ports at {down_speed}G plus {up_count} uplinks at {up_speed}G "
            f"do not fit {profile.vendor.value} {model_name} ({_describe(model)})"
            + (_fitting(profile, model_name, down, up) if hint else ""),
        )
    up_slots = [PortSlot(c.name(profile, c.group.speed), up_speed) for c in uplinks]
    return downs, up_slots


def fitting_models(profile: VendorProfile, down: tuple[int, int], up: tuple[int, int]) -> list[str]:
    """This vendor's models that can carry ``down`` server ports and ``up`` uplinks."""
    fit = []
    for name, spec in sorted(profile.models.items()):
        try:
            allocate(profile, name, spec, down=down, up=up, blame=(), hint=False)
        except PlanError:
            continue
        fit.append(name)
    return fit


def _fitting(
    profile: VendorProfile, model_name: str, down: tuple[int, int], up: tuple[int, int]
) -> str:
    fit = [m for m in fitting_models(profile, down, up) if m != model_name]
    if not fit:
        return f"; no {profile.vendor.value} model fits"
    return f"; {profile.vendor.value} models that fit: {', '.join(fit)}"


def _split(profile: VendorProfile, cage: _Cage, speed: int, need: int) -> list[PortSlot]:
    parent = cage.name(profile, cage.group.speed)
    base = cage.name(profile, speed)
    lanes = min(cage.group.speed // speed, need)
    return [
        PortSlot(base + profile.breakout_suffix.format(lane=lane), speed, breakout_of=parent)
        for lane in range(1, lanes + 1)
    ]


def _describe(model: ModelSpec) -> str:
    return " + ".join(f"{g.count} x {g.speed}G" for g in model.ports)
