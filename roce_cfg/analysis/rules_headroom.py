"""Headroom: configured vs required per lossless priority per port, and the buffer budget."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from roce_cfg.analysis.context import ASSUMED_CABLE_M, SHORTEST_CABLE_M, DeviceView
from roce_cfg.analysis.registry import Hit, rule
from roce_cfg.design.headroom import PAUSE_QUANTA, required_headroom
from roce_cfg.gate import MODEL
from roce_cfg.model.device import Interface

WASTE_FACTOR = 2


# Not frozen: a frozen dataclass's __init__ sets each field through object.__setattr__, 2.5x
# the cost, and an xl lint makes one per lossless port (163,840: 0.2 s of the device rules).
# Nothing changes a Need once made, nor hashes one.
@dataclass(slots=True)
class Need:
    port: Interface
    priority: int
    required: int
    configured: int | None
    cable_m: float
    cable_from: str
    detail: tuple[str, ...]
    # nothing says the cable length: 'required' is for the shortest plausible cable and this is
    # for the assumed long one (RC206 reports the gap once per switch)
    required_assumed: int | None = None
    # no headroom line: the model's documented default is in force ('configured' stays None)
    default: int | None = None
    # no source gives the model's cell size: the least any cell size needs (no frame rounded up
    # to cells, no small-packet overhead). Less than it is short whatever the cell; between it
    # and 'required' (the assumed cell's need) the verdict rests on the guess: RC204's
    floor: int | None = None

    def describe(self) -> str:
        return f"{self.port.speed_gbps}G, {self.cable_m:g} m cable ({self.cable_from})"


# The required headroom of a port at a cable length, with its terms.
_Formula = Callable[[float, Interface], tuple[int, tuple[str, ...]]]


def needs(v: DeviceView) -> list[Need]:
    """Required headroom of every (PFC port, no-drop priority), with the arithmetic."""
    if "needs" not in v.memo:
        v.memo["needs"] = _needs(v)
    result: list[Need] = v.memo["needs"]
    return result


def _needs(v: DeviceView) -> list[Need]:
    need = _formula(v)
    least = _formula(v, any_cell=True) if cell_assumed(v) else None
    out: list[Need] = []
    for port in v.lossless_ports():
        if port.qos.pfc and port.speed_gbps in PAUSE_QUANTA:
            out += _port_needs(v, port, need, least)
    return out


def cell_assumed(v: DeviceView) -> bool:
    """A listed model whose cell size no source gives, with headroom set in a unit of its own
    (Huawei's kbytes, bytes): the need rests on the assumed cell, the line does not."""
    return v.model.known and v.model.cell_unconfirmed and v.profile.headroom_unit_bytes != "cell"


def _port_needs(
    v: DeviceView, port: Interface, need: _Formula, least: _Formula | None
) -> list[Need]:
    """One Need per no-drop priority of ``port``. Where nothing says the cable's length the
    port is judged at the shortest plausible cable, the need at the assumed one kept beside."""
    known, source = v.cable(port)
    assumed: int | None = None
    if known is None:
        cable = SHORTEST_CABLE_M
        source = "unknown, the shortest plausible"
        assumed = need(ASSUMED_CABLE_M, port)[0]
    else:
        cable = known
    required, detail = need(cable, port)
    floor = None if least is None else least(cable, port)[0]
    configured = {h.priority: h.bytes for h in port.qos.headroom}
    # a model standing in for one the config does not state: its default is a guess (RC204)
    default = None if model_assumed(v) else v.model.headroom_default_bytes
    out: list[Need] = []
    for prio in port.qos.no_drop:
        have = configured.get(prio)
        unset = default if have is None else None
        out.append(Need(port, prio, required, have, cable, source, detail, assumed, unset, floor))
    return out


def _formula(v: DeviceView, any_cell: bool = False) -> _Formula:
    """The required headroom of a port at a cable length, with its terms. A model the profiles
    do not list has no known cell size: its need is the least any cell size gives (no rounding
    to cells, no small-packet overhead), so a port short of it is short on that switch too;
    ``any_cell`` asks for that least need on a listed model too."""
    cell = v.model.cell_bytes if v.model.known and not any_cell else None
    unit_of = v.profile.headroom_unit_bytes
    unit = 1 if cell is None and unit_of == "cell" else v.profile.unit_bytes(unit_of, v.model)
    consts = v.profile.headroom
    done: dict[tuple[int, float, int], tuple[int, tuple[str, ...]]] = {}

    def need(cable_m: float, port: Interface) -> tuple[int, tuple[str, ...]]:
        # ports mostly share speed, cable and MTU: one computation each
        key = (port.speed_gbps, cable_m, port.mtu)
        if key not in done:
            required, terms = required_headroom(
                speed_gbps=port.speed_gbps,
                cable_m=cable_m,
                mtu_sender=port.mtu,
                mtu_receiver=port.mtu,
                cell_bytes=cell,
                unit_bytes=unit,
                mac_phy_delay_bytes=consts.mac_phy_delay_bytes,
                small_packet_percent=consts.small_packet_percent,
                min_packet_bytes=consts.min_packet_bytes,
            )
            detail = (*(f"{t.name}: {t.bytes} B" for t in terms), f"required: {required} B")
            done[key] = required, detail
        return done[key]

    return need


@rule(
    "RC201",
    "headroom-below-required",
    "error",
    "device",
    summary="Configured PFC headroom is smaller than the port needs.",
    rationale="After a switch sends PAUSE, bytes already on the wire and in the peer's pipeline "
    "keep arriving: two MTUs, the cable round trip, MAC/PHY delay and the peer's response time, "
    "inflated by cell occupancy. Less headroom than that drops packets on a lossless priority.",
    fix="Raise the headroom to at least the required figure (roce-cfg lint -v shows each term), "
    "or shorten the cable.",
    limits="Cable length comes from fabric.json or the intent, else a 'cable=<n>m' token in the "
    "port description (roce-cfg writes one), else --cable-length (per role: 'server=3,fabric=30'); "
    f"where nothing says, the shortest plausible cable ({SHORTEST_CABLE_M:g} m) is checked here "
    "and the rest is RC206's. Speed comes from the plan, a 'speed=<n>G' token in the "
    "description, else the port name. Cell size and MAC/PHY delay are the vendor "
    "profile's, several of them assumptions (see vendors/*.yaml); on a model the profile does "
    "not list, a headroom line is held against the least any cell size needs (RC120 says what "
    "is left unverified). Where no source gives the model's cell size but headroom is set in "
    "bytes or kbytes (CloudEngine V200 models), a line below the least any cell size needs (no "
    "frame rounded up to cells, no small-packet overhead) is short whatever the cell: an error "
    "here; a line between that and the need with the assumed cell rests on the guess: RC204's. "
    "A port with no headroom line where no source gives the model's default, headroom counted "
    "in cells of a size no source gives (Comware), and headroom lines in a unit no source gives "
    "(RGOS, ZXROS: read as bytes) are not judged: RC204 says so.",
    reads=("buffers", "pfc", "mtu", "interfaces"),
)
def headroom_below_required(v: DeviceView) -> Iterator[Hit]:
    if not v.model.known:
        yield from _short_on_unknown_model(v)
        return
    if not v.model.headroom_configurable or cells_unsourced(v):
        return  # RC204 says what is not verified
    for n in needs(v):
        if held_short(v, n) != "short":
            continue  # enough, or the verdict rests on a figure no source gives (RC204)
        required = f"required {n.required} B"
        if n.floor is not None:
            required = f"required at least {n.floor} B whatever the cell size"
        if n.configured is None:  # no line: the model's documented default holds
            yield Hit(
                f"priority {n.priority}: headroom not configured, the {v.device.model} "
                f"default {n.default} B < {required} ({n.describe()})",
                port=n.port.name,
                anchor="port.pfc",
                detail=n.detail,
            )
        else:
            yield Hit(
                f"priority {n.priority}: headroom {n.configured} B < {required} ({n.describe()})",
                port=n.port.name,
                anchor="port.headroom",
                detail=n.detail,
            )


def held_short(v: DeviceView, n: Need) -> str | None:
    """'short' where the port holds less than it needs whatever the unsourced figures are;
    'undecided' where that rests on the cell size no source gives (the line lies between the
    least any cell needs and the assumed cell's need); None where enough, or where what the
    port holds is not known (no line and no published default, a line in an unsourced unit)."""
    held = n.configured if n.configured is not None else n.default
    if held is None or (n.configured is not None and unit_unsourced(v)):
        return None
    if held < (n.required if n.floor is None else n.floor):
        return "short"
    return "undecided" if held < n.required else None


def unit_unsourced(v: DeviceView) -> bool:
    """Whether no source gives the unit the switch's headroom lines and pool count in (RGOS,
    ZXROS: read as bytes, an assumption)."""
    return v.profile.headroom_unit_unconfirmed


def cells_unsourced(v: DeviceView) -> bool:
    """Whether the switch's headroom lines and pool count cells of a size no source gives
    (the model's, or the model itself is a stand-in for one the config does not state): their
    bytes are an assumption, so no shortfall, waste or overflow is concluded from them."""
    if v.profile.headroom_unit_bytes != "cell":
        return False
    return v.model.cell_unconfirmed or model_assumed(v)


def _short_on_unknown_model(v: DeviceView) -> Iterator[Hit]:
    """A model the profiles do not list: each headroom line against the least the formula
    needs. Its headroom default and its cell size are nobody's, so a port with no line, and a
    line counted in cells, is RC120's 'cannot verify', not a finding here."""
    if v.profile.headroom_unit_bytes == "cell" or unit_unsourced(v):
        return
    for n in needs(v):
        if n.configured is not None and n.configured < n.required:
            yield Hit(
                f"priority {n.priority}: headroom {n.configured} B < required at least "
                f"{n.required} B ({n.describe()}; the model's cell size is unknown: no cell "
                "overhead counted)",
                port=n.port.name,
                anchor="port.headroom",
                detail=n.detail,
            )


@rule(
    "RC202",
    "headroom-wasteful",
    "warning",
    "device",
    summary=f"Configured headroom is more than {WASTE_FACTOR}x what the port needs.",
    rationale="Headroom is reserved per port and priority out of a shared buffer; oversized "
    "headroom shrinks the shared pool that absorbs bursts and lowers the XOFF point.",
    fix="Lower the headroom towards the required figure (roce-cfg lint -v shows the arithmetic).",
    limits="Same cable-length sources as RC201; where the cable is unknown, compared with the "
    f"need of a {ASSUMED_CABLE_M:g} m cable. Not judged where the need rests on a cell size no "
    "source gives (CloudEngine V200 models): a larger cell needs more, so no line is too much "
    "whatever the cell.",
    reads=("buffers", "pfc", "mtu", "interfaces"),
)
def headroom_wasteful(v: DeviceView) -> Iterator[Hit]:
    if not (v.model.known and v.model.headroom_configurable) or cells_unsourced(v):
        return
    if cell_assumed(v) or unit_unsourced(v):
        return  # the need's cell size or the line's unit is in no source: RC204's
    for n in needs(v):
        ceiling = n.required if n.required_assumed is None else n.required_assumed
        if n.configured is not None and n.configured > WASTE_FACTOR * ceiling:
            yield Hit(
                f"priority {n.priority}: headroom {n.configured} B is over {WASTE_FACTOR}x the "
                f"required {n.required} B ({n.describe()})",
                port=n.port.name,
                anchor="port.headroom",
                detail=n.detail,
            )


@rule(
    "RC203",
    "headroom-over-budget",
    "error",
    "device",
    summary="Headroom over all lossless ports exceeds the headroom pool or the ASIC buffer.",
    rationale="Headroom is carved out of a fixed pool (or the whole packet buffer). If the sum "
    "over ports and priorities does not fit, the switch rejects the config or cannot honour it "
    "when many ports pause at once.",
    fix="Reduce lossless ports, priorities or headroom, or enlarge the headroom pool.",
    limits="Needs the pool size (config or vendor profile) or the model's buffer size; most "
    "vendors do not publish buffer sizes, so the check is skipped where the profile has none "
    "(RC204 names that gap where it speaks on the switch: always on a generic layout, which "
    "is no model). Not judged where the pool or the lines count cells or a unit no source "
    "gives (RC204).",
    reads=("buffers", "pfc", "mtu", "interfaces", "model"),
)
def headroom_over_budget(v: DeviceView) -> Iterator[Hit]:
    if not v.model.known or cells_unsourced(v) or unit_unsourced(v):
        return  # RC120 / RC204 say why
    ns = needs(v)
    shared = v.device.qos.headroom_pool_bytes
    budget: int | None
    if shared is not None:
        # a configured shared pool: per-port headroom lines are thresholds on what a queue may
        # take from it ([HW-CR dcb pfc buffer], [HW-CR qos buffer headroom-pool]); the pool
        # must hold what the ports need, not the sum of their thresholds
        used, budget, what = sum(n.required for n in ns), shared, "shared headroom pool"
        shown = tuple(f"{n.port.name} p{n.priority}: needs {n.required} B" for n in ns)
    else:
        # what each port holds: its line, else the model's published default; a port with
        # neither holds an unknown amount, left out, so a total over budget is over it anyway
        held = [(n, n.configured if n.configured is not None else n.default) for n in ns]
        known = [(n, b) for n, b in held if b is not None]
        used = sum(b for _, b in known)
        budget = v.model.headroom_pool_bytes or v.model.buffer_bytes
        what = "headroom pool" if budget != v.model.buffer_bytes else "packet buffer"
        shown = tuple(f"{n.port.name} p{n.priority}: {b} B" for n, b in known)
    if budget is not None and used > budget:
        yield Hit(
            f"headroom of {len(shown)} port priorities totals {used} B > {what} {budget} B",
            anchor="pool",
            detail=shown,
        )


def model_assumed(v: DeviceView) -> bool:
    """The config states no model and none was given: the one its ports fit stands in."""
    return v.gate.unread((MODEL,)) is not None


@rule(
    "RC205",
    "headroom-set-where-unsupported",
    "error",
    "device",
    summary="Headroom is configured on a model that does not support setting it.",
    rationale="The vendor's command reference does not list the headroom command for this model; "
    "the switch rejects the line and the rest of the change may not apply.",
    fix="Remove the headroom lines for this model.",
    reads=("buffers", "pfc", "model"),
)
def headroom_set_unsupported(v: DeviceView) -> Iterator[Hit]:
    if v.model.headroom_configurable or not v.model.known:
        return
    for port in v.lossless_ports():
        if port.qos.headroom:
            yield Hit(
                f"{v.device.model} does not support setting headroom",
                port=port.name,
                anchor="port.headroom",
            )


@rule(
    "RC206",
    "cannot-verify",
    "info",
    "device",
    summary="Facts the headroom and oversubscription checks need are not in the config.",
    rationale="A running-config does not say how long a port's cable is, nor (on a port that "
    "runs below its name's speed) how fast the port runs. Guessing them gives an error per port "
    "that may be false; checking nothing hides a short buffer. roce-cfg checks what the shortest "
    "plausible cable needs (RC201) and says here, once per switch, what it could not verify.",
    fix="Give fabric.json or the intent, write 'cable=<n>m speed=<n>G' in the port descriptions "
    "(roce-cfg generates them), or pass --cable-length (per role: 'server=3,fabric=30').",
    verifies=False,
)
def cannot_verify(v: DeviceView) -> Iterator[Hit]:
    said: list[str] = []
    unknown = [n for n in needs(v) if n.required_assumed is not None]
    if unknown:
        ports = sorted({n.port.name for n in unknown})
        short = sorted(
            {
                n.port.name
                for n in unknown
                if n.required_assumed is not None
                and v.model.headroom_configurable
                and (n.configured or n.default or 0) < n.required_assumed
            }
        )
        worst = max(n.required_assumed or 0 for n in unknown)
        text = (
            f"cable length unknown on {len(ports)} PFC port(s) (e.g. {ports[0]}): headroom "
            f"checked for a {SHORTEST_CABLE_M:g} m cable; a {ASSUMED_CABLE_M:g} m cable would "
            f"need up to {worst} B"
        )
        if short:
            text += f" ({len(short)} of them have less)"
        said.append(text)
    guessed = [p for p in v.lossless_ports() if p.mode == "access" and not v.speed_known(p)]
    if guessed:
        said.append(
            f"speed of {len(guessed)} server port(s) taken from the port names (e.g. "
            f"{guessed[0].name} {guessed[0].speed_gbps}G); oversubscription (RC308) not checked"
        )
    if said:
        # the headroom pool's line where the vendor has one (Huawei); else the first port the
        # sentence names, so every vendor's finding carries a line
        pool = v.profile.parse.anchors.get("pool")
        first = min(n.port.name for n in unknown) if unknown else guessed[0].name
        line = (v.source.line_of(pool) if pool else None) or v.source.interface_line(first)
        yield Hit("cannot verify: " + "; ".join(said), line=line)


@rule(
    "RC120",
    "model-unknown",
    "warning",
    "device",
    summary="The switch's model is not in the vendor profile: its buffer cannot be checked.",
    rationale="The headroom pool, the packet buffer, the cell size and the headroom in force "
    "where no line sets it are per model. Judging the switch by another model's figures gives "
    "errors that may be false and hides real shortfalls. What needs only the port (speed, cable, "
    "MTU) is still judged: a headroom line below the least the formula needs for any cell size "
    "is RC201; the pool budget, the unconfigured ports and headroom counted in cells stay "
    "unverified: a gap in what roce-cfg knows, a warning (--require-verified fails on it) "
    "until the model is known.",
    fix="Add the model to an overlay (vendors/<vendor>.yaml 'models': ports, cell size, buffer, "
    "with the source of each figure), or pass --model when it is a listed model.",
    verifies=False,
)
def model_unknown(v: DeviceView) -> Iterator[Hit]:
    if v.model.known:
        return
    lossless = sum(1 for p in v.lossless_ports() if p.qos.pfc)
    if not lossless:
        return  # no PFC port: no buffer or headroom figure is needed, nothing goes unchecked
    # the parse names a config that states no model and fits no listed layout 'unknown'
    name = (
        "(not stated; its ports fit no listed model)"
        if v.device.model == "unknown"
        else (v.device.model)
    )
    judged = (
        "headroom lines (counted in cells of an unknown size)"
        if v.profile.headroom_unit_bytes == "cell"
        else "the headroom in force on ports with no headroom line"
    )
    yield Hit(
        f"cannot verify: model {name} unknown (add it with an overlay); buffer budget and "
        f"{judged} of {lossless} PFC port(s) not checked (RC201-RC205)",
        anchor="model",
    )
