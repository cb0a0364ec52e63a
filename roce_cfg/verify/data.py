"""Display commands as vendor data (``vendors/<vendor>.display.yaml``): which command shows what,
its source, and the TextFSM template that reads its output (ntc-templates where one exists, else
ours in ``vendors/display/``). The lab renders the same entries (roce_cfg/lab/display.py), so one
parser reads emulator and switch.

Each record a parser returns is turned into roce-cfg's neutral names (``fields``); numbers are
bounded where they are read (``COUNTER``), and interface names keep only what joins them to the
plan (``port_key``)."""

from __future__ import annotations

import functools
import io
import os
import re
from pathlib import Path
from typing import Any, Literal

import textfsm
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from roce_cfg.errors import InputError
from roce_cfg.resources import vendors_dir
from roce_cfg.vendor import Vendor
from roce_cfg.yamlsrc import PROFILE, load_file, read_text

# The checks, in the order verify runs them; what each neutral record carries.
CHECKS: dict[str, tuple[str, ...]] = {
    "lldp": ("port", "neighbor", "neighbor_port"),
    "interfaces": ("port", "state", "speed"),
    "bgp": ("peer", "remote_as", "state"),
    "routes": ("network", "length"),
    # 'triggers' where the PFC table also counts the deadlocks the watchdog broke (VRP's
    # DeadlockNum) and the watchdog's own command does not
    "pfc": ("port", "oper", "priority", "rx_pause", "tx_pause", "triggers"),
    "queue": ("port", "queue", "ecn", "ecn_marked", "dropped"),
    "watchdog": ("port", "priority", "armed", "triggers"),
}
# what a format may leave out (null in 'fields'): states and counters, never a record's key
UNPRINTED_OK = frozenset(
    {"oper", "ecn", "armed", "rx_pause", "tx_pause", "ecn_marked", "dropped", "triggers"}
)
# The verbs of the commands verify may send: each vendor's read-only exec commands (Comware and
# VRP 'display', ZXROS and RGOS 'show'); nothing else reaches a switch, whatever the data says.
READ_ONLY = ("display", "show")
COUNTER_MAX = (1 << 64) - 1  # a 64-bit hardware counter: larger is not a number a switch prints
MAX_OUTPUT = 64 << 20  # characters of one command's output that verify reads


class _M(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Parser(_M):
    textfsm: str = Field(pattern=r"^[A-Za-z0-9_.-]+\.textfsm$")


class Layout(_M):
    """How the lab prints a command: head lines, then ``row`` per item (str.format over the
    neutral names and what the lab adds)."""

    head: tuple[str, ...] = ()
    row: str
    # field -> column width: a longer value is cut there and goes on in lines of its own, as
    # Comware's LLDP list prints a long system name
    wrap: dict[str, int] = {}
    # every printed line longer than this is cut and continued on the next line, as a table
    # wider than the terminal (0: never)
    width: int = 0
    tail: tuple[str, ...] = ()  # lines after the last row (a table's closing rule)


class Lab(Layout):
    # another layout the same command prints on other releases: switches alternate by name
    alt: Layout | None = None
    empty: str = ""  # a planned port with nothing to list ('{port} has 0 neighbor(s)')
    again: str = ""  # the next item of the same key (an ECMP next hop under its route)
    shut: str = ""  # the state of an administratively down port ('' = down)
    speed_up: str = "{speed}"  # the speed text of a port that is up (str.format, Gb/s and Mb/s)
    speed_down: str = "{speed}"  # and of a port that is down
    # the words the format uses for a state (up/down, Enabled/Disabled, ...)
    up: str = "UP"
    down: str = "DOWN"
    established: str = "Established"
    enabled: str = "Enabled"
    disabled: str = "Disabled"


class Display(_M):
    status: Literal["sourced", "unsourced"]
    command: str = Field(pattern=rf"^(?:{'|'.join(READ_ONLY)}) [a-z0-9 -]+$")  # read-only
    source: str = ""
    why: str = ""
    parser: Parser
    # neutral name -> the template's value(s); null where the format does not print it: for
    # a state ('oper', 'ecn', 'armed') that means the command lists only the items where it
    # is on (a listed item is on, a missing one off); a counter not printed reads as nothing
    fields: dict[str, str | None]
    # neutral names the format does not print and a listing cannot stand for (VRP's queue
    # statistics have no ECN state or marks): verify says it cannot check them ('why') and
    # never reads them as fine; they are left out of 'fields'
    unverifiable: tuple[str, ...] = ()
    speed_unit: Literal["Mbps", "Gbps"] = "Gbps"
    lab: Lab


class DisplayData(_M):
    vendor: Vendor
    sources: dict[str, str] = {}
    checks: dict[str, Display] = {}


def _file(vendor: Vendor, overlay: Path | None) -> Path:
    if overlay is not None:
        user = overlay / "vendors" / f"{vendor.value}.display.yaml"
        if os.path.lexists(user):  # a FIFO or a link out of the overlay: refused, not skipped
            return user
    return vendors_dir() / f"{vendor.value}.display.yaml"


@functools.cache
def load_display(vendor: Vendor, overlay: Path | None = None) -> DisplayData:
    """The vendor's display data; an overlay's file (--vendor-dir) replaces the bundled one."""
    path = _file(vendor, overlay)
    raw, _ = load_file(
        path, PROFILE, root=overlay if overlay and path.is_relative_to(overlay) else None
    )
    try:
        data = DisplayData.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise InputError(f"{where}: {first['msg']}", file=str(path)) from None
    for name, entry in data.checks.items():
        _check_entry(name, entry, path, overlay)
    return data


def _check_entry(name: str, entry: Display, path: Path, overlay: Path | None) -> None:
    """One check's entry against what verify reads: its neutral names, each printed (or
    null, or unverifiable), and the template values it names."""
    wanted = CHECKS.get(name)
    given = set(entry.fields) | set(entry.unverifiable)
    if wanted is None or given != set(wanted) or set(entry.fields) & set(entry.unverifiable):
        raise InputError(
            f"checks.{name}: a check is one of {', '.join(CHECKS)} with fields "
            f"{', '.join(wanted or ())} (each in 'fields' or 'unverifiable')",
            file=str(path),
        )
    unprinted = {k for k, v in entry.fields.items() if v is None} - UNPRINTED_OK
    unprinted |= set(entry.unverifiable) - UNPRINTED_OK
    if unprinted:
        raise InputError(
            f"checks.{name}.fields: {', '.join(sorted(unprinted))} cannot be null or unverifiable "
            "(a record's key is always printed)",
            file=str(path),
        )
    _template_path(entry.parser.textfsm, overlay)  # refused here, not mid-run
    header = _header(entry.parser.textfsm, overlay)
    named = {n for spec in entry.fields.values() if spec for n in spec.split("+")}
    if not named <= header:
        raise InputError(
            f"checks.{name}.fields: {', '.join(sorted(named - header))} not a value of "
            f"{entry.parser.textfsm}",
            file=str(path),
        )


def _header(name: str, overlay: Path | None) -> set[str]:
    try:
        return set(textfsm.TextFSM(io.StringIO(_template_text(name, overlay))).header)
    except textfsm.TextFSMTemplateError as exc:
        raise InputError(f"{name}: not a TextFSM template ({str(exc)[:200]})") from None


def _template_path(name: str, overlay: Path | None) -> tuple[Path, Path]:
    """Ours (vendors/display/, the overlay's first), else ntc-templates' bundled one."""
    places = [vendors_dir() / "display"]
    if overlay is not None:
        places.insert(0, overlay / "vendors" / "display")
    import ntc_templates

    places.append(Path(ntc_templates.__file__).parent / "templates")
    for place in places:
        if (place / name).is_file():
            return place, place / name
    raise InputError(f"no TextFSM template {name} (vendors/display/ or ntc-templates)")


@functools.cache
def _template_text(name: str, overlay: Path | None) -> str:
    place, path = _template_path(name, overlay)
    return read_text(path, "TextFSM template", 1 << 20, root=place)


def read_only(command: str) -> bool:
    """A command verify may send: one of the read-only verbs, then its words.

    >>> read_only("show interface brief"), read_only("display bgp peer"), read_only("shutdown")
    (True, True, False)
    """
    verb, _, rest = command.partition(" ")
    return verb in READ_ONLY and bool(rest.strip())


class UnreadOutput(Exception):
    """Output the template does not read (a different software release, an error message)."""


def parse(entry: Display, output: str, overlay: Path | None = None) -> list[dict[str, str]]:
    """The records of one command's output under the neutral names."""
    fsm = textfsm.TextFSM(io.StringIO(_template_text(entry.parser.textfsm, overlay)))
    try:
        rows = fsm.ParseText(output[:MAX_OUTPUT])
    except textfsm.TextFSMError as exc:
        raise UnreadOutput(str(exc).splitlines()[0][:200]) from None
    header = fsm.header
    out = []
    for row in rows:
        values = dict(zip(header, row, strict=True))
        record = {k: _field(values, v) for k, v in entry.fields.items()}
        out.append(record | dict.fromkeys(entry.unverifiable, ""))
    return out


def _field(values: dict[str, Any], spec: str | None) -> str:
    """A neutral field from the template's values: one value, or several joined by '+' with
    nothing between them (a value the switch wrapped onto the next lines: 'NAME+NAME_TAIL');
    '' for a field the format does not print."""
    if spec is None:
        return ""
    if "+" not in spec:
        return _text(values.get(spec, ""))
    parts = (values.get(name, "") for name in spec.split("+"))
    return "".join("".join(map(str, p)) if isinstance(p, list) else str(p) for p in parts).strip()


def _text(value: Any) -> str:
    if isinstance(value, list):  # a List value: its items joined
        return " ".join(str(v) for v in value).strip()
    return str(value).strip()


def asplain(value: str) -> str:
    """An AS number as a plain integer: VRP prints a 4-byte one in asdot ('635.66' is
    635 * 65536 + 66); anything else as it was.

    >>> asplain("635.66"), asplain("65000"), asplain("x.1")
    ('41615426', '65000', 'x.1')
    """
    high, dot, low = value.strip().partition(".")
    if not dot or not (high.isdigit() and low.isdigit()) or max(len(high), len(low)) > 5:
        return value.strip()
    return str(int(high) * 65536 + int(low))


_PORT_NUMBER = re.compile(r"(\d+(?:/\d+)+(?::\d+)?)$")


def port_key(name: str) -> str:
    """What joins a port in display output to the plan: its slot/port number ('1/0/25',
    '1/1/1:2'). Display output abbreviates interface types (Comware 'HGE1/0/1' for
    'HundredGigE1/0/1'); the number is unique per switch. Names without one stay whole."""
    found = _PORT_NUMBER.search(name.strip())
    return found.group(1) if found else name.strip().lower()


def counter(value: str) -> int | None:
    """A counter as printed; None for anything that is not a bounded non-negative integer."""
    text = value.replace(",", "").strip()
    if not text.isdigit() or len(text) > 20:
        return None
    number = int(text)
    return number if number <= COUNTER_MAX else None


_SPEED = re.compile(r"^(\d{1,7})(?:\s*([GM])(?:bps|b/s|bit/s)?)?", re.IGNORECASE)


def speed_gbps(value: str, unit: str) -> float | None:
    """'400Gbps-speed', '100G', '400000' (in ``unit``) -> Gb/s; None when unreadable."""
    found = _SPEED.match(value.strip())
    if not found:
        return None
    number, suffix = int(found.group(1)), (found.group(2) or unit[0]).upper()
    return number / 1000 if suffix == "M" else float(number)
