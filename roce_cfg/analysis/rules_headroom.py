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
    out: list[Need] = []
    for port in v.lossless_ports():
        if port.qos.pfc and port.speed_gbps in PAUSE_QUANTA:
            out += _port_needs(v, port, need)
    return out


def _port_needs(v: DeviceView, port: Interface, need: _Formula) -> list[Need]:
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
    configured = {h.priority: h.bytes for h in port.qos.headroom}
    # a model standing in for one the config does not state: its default is a guess (RC204)
    default = None if model_assumed(v) else v.model.headroom_default_bytes
    out: list[Need] = []
    for prio in port.qos.no_drop:
        have = configured.get(prio)
        unset = default if have is None else None
        out.append(Need(port, prio, required, have, cable, source, detail, assumed, unset))
    return out


def _formula(v: DeviceView) -> _Formula:
    """The required headroom of a port at a cable length, with its terms. A model the profiles
    do not list has no known cell size: its need is the least any cell size gives (no rounding
    to cells, no small-packet overhead), so a port short of it is short on that switch too."""
    cell = v.model.cell_bytes if v.model.known else None
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
    "is left unverified). A port with no headroom line where no source gives the model's "
    "default, and headroom counted in cells of a size no source gives, are not judged: RC204 "
    "says so.",
    reads=("buffers", "pfc", "mtu", "interfaces"),
)
def headroom_below_required(v: DeviceView) -> Iterator[Hit]:
    if not v.model.known:
        yield from _short_on_unknown_model(v)
        return
    if not v.model.headroom_configurable or cells_unsourced(v):
        return  # RC204 says what is not verified
    for n in needs(v):
        if n.configured is None and n.default is not None:
            if n.default < n.required:  # no line: the model's documented default holds
                yield Hit(
                    f"priority {n.priority}: headroom not configured, the {v.device.model} "
                    f"default {n.default} B < required {n.required} B ({n.describe()})",
                    port=n.port.name,
                    anchor="port.pfc",
                    detail=n.detail,
                )
        elif n.configured is not None and n.configured < n.required:
            yield Hit(
                f"priority {n.priority}: headroom {n.configured} B < required {n.required} B "
                f"({n.describe()})",
                port=n.port.name,
                anchor="port.headroom",
                detail=n.detail,
            )
        # no line and no published default: the headroom in force is not known (RC204)


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
    if v.profile.headroom_unit_bytes == "cell":
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
    f"need of a {ASSUMED_CABLE_M:g} m cable.",
    reads=("buffers", "pfc", "mtu", "interfaces"),
)
def headroom_wasteful(v: DeviceView) -> Iterator[Hit]:
    if not (v.model.known and v.model.headroom_configurable) or cells_unsourced(v):
        return
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
    "vendors do not publish buffer sizes, so the check is skipped where the profile has none.",
    reads=("buffers", "pfc", "mtu", "interfaces", "model"),
)
def headroom_over_budget(v: DeviceView) -> Iterator[Hit]:
    if not v.model.known or cells_unsourced(v):
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


@rule(
    "RC204",
    "headroom-unverified",
    "warning",
    "device",
    summary="cannot verify the headroom in force: it rests on a figure no source gives for this "
    "model (its default, or the size of the cells a headroom is counted in).",
    rationale="A port with no headroom line, or on a model that does not let headroom be set, "
    "holds the model's default; a headroom line or pool counted in cells holds that many cells. "
    "Where no source gives the default or the cell size, the bytes the port holds are unknown: "
    "calling them short (or wasteful, or over the pool) would conclude from a guess, and "
    "passing them would hide a real shortfall. The required figure is still computed and shown.",
    fix="Check the figure with the vendor (the default per model and release, the cell size) and "
    "add it to an overlay (vendors/<vendor>.yaml 'models': headroom_default_bytes, cell_bytes "
    "with cell_unconfirmed false, with the source of each), or set the headroom in bytes where "
    "the switch takes a unit.",
    limits="Once per switch: the figures it lacks, and the largest need among its PFC ports. A "
    "model the profiles do not list is RC120's; a port whose PFC or buffer lines were not read "
    "is RC405's.",
    verifies=False,
)
def headroom_unverified(v: DeviceView) -> Iterator[Hit]:
    ns = needs(v)
    if not (v.model.known and ns):
        return
    lacks = [*_default_unsourced(v, ns), *_cells_counted(v, ns)]
    if lacks:
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


def model_assumed(v: DeviceView) -> bool:
    """The config states no model and none was given: the one its ports fit stands in."""
    return v.gate.unread((MODEL,)) is not None


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
