"""The cabling plan: a CSV giving each port's cable length (and speed), read so that lint judges
each port at the length of its own cable (``lint --cabling FILE``).

roce-cfg's own ``cabling.csv`` (``roce-cfg docs``: ``kind, a_device, a_port, b_device, b_port,
speed_gbps, cable_m, ...``) and the shapes people write: headers in any case and spacing
(``A Device``, ``Length (m)``), the ends as A/B, A/Z, local/remote, source/destination; the
length as ``cable_m``, ``length_m``, ``length``, ``cable_length``, ``len_m``, ``distance_m`` with
values such as ``30``, ``30m``, ``0.5 m``; the speed as ``speed_gbps``, ``speed``, ``rate`` with
``400``, ``400G``, ``400GE``, ``400Gb/s``. Comma, semicolon, tab or bar separated; a title row
or two above the header is passed over.

What is read as what is one line (``CablingPlan.read_as``). A column that maps to nothing is a
warning, a row whose length or speed is unreadable a warning naming its line (the other rows
are read); a file with no header naming both ends and a length, binary or past its caps is a
one-line error naming the file and line.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from roce_cfg.errors import InputError, printable
from roce_cfg.model.describe import MAX_CABLE_M, MAX_SPEED_GBPS
from roce_cfg.yamlsrc import read_text

# A plan of 100,000 ports is 100,000 rows; a row is under 200 characters.
MAX_ROWS = 200_000
MAX_BYTES = 32 << 20
MAX_FIELD = 256
# Rows above the header a spreadsheet export may carry (a title, a blank line).
MAX_HEADER_ROW = 10
# Unreadable rows named one by one; past this, a count.
MAX_WARNINGS = 20
SEPARATORS = (",", ";", "\t", "|")

# Header words, normalised (``normalised``): how people name the two ends and their parts.
_ENDS = {
    "a": "a side_a a_side a_end end_a local source src from",
    "b": "b side_b b_side b_end end_b z z_end z_side end_z remote destination dest dst to peer "
    "far far_end",
}
_THINGS = {
    "device": "device switch host hostname node name device_name",
    "port": "port interface intf if ifname port_name interface_name",
}
_METRES = ("", "_m", "_meter", "_meters", "_metre", "_metres")
_LENGTHS = "length cable_length len cable_len distance cable_distance link_length link_distance"
_SPEEDS = "speed_gbps speed speed_g speed_gb_s speed_gbit_s speed_gbit speed_gb rate rate_gbps "
_SPEEDS += "rate_g port_speed link_speed bandwidth bandwidth_gbps data_rate"
# Normalised header -> what it is read as; the first of a role's names wins a tie.
ROLES: dict[str, tuple[str, ...]] = {
    **{
        f"{end}_{thing}": tuple(
            name
            for p in prefixes.split()
            for w in words.split()
            for name in (f"{p}_{w}", f"{w}_{p}")
        )
        for end, prefixes in _ENDS.items()
        for thing, words in _THINGS.items()
    },
    # a column named only 'cable' is as often a cable's id or type as its length: not read
    "length": (
        "cable_m",
        *(f"{w}{u}" for w in _LENGTHS.split() for u in _METRES),
        *(f"cable{u}" for u in _METRES[2:]),
    ),
    "speed": tuple(_SPEEDS.split()),
}
NEEDED = ("a_device", "a_port", "b_device", "b_port", "length")
_ORDER = (*NEEDED, "speed")
# The other columns roce-cfg's own cabling.csv holds: known, not needed, not warned about.
OWN_OTHERS = frozenset({"kind", "rail", "vlan", "a_ip", "b_ip"})
_BY_NAME = {name: role for role, names in ROLES.items() for name in names}

_LENGTH = re.compile(r"(\d{1,6}(?:\.\d{1,6})?|\.\d{1,6})\s*(?:m|meters?|metres?)?", re.I)
_SPEED = re.compile(r"(\d{1,4})\s*(?:g|ge|gbe|gb|gbps|gb/s|gbit|gbit/s)?", re.I)


def normalised(header: str) -> str:
    """A header as the role table spells it.

    >>> normalised(" Length (m) "), normalised("A-Device"), normalised("Speed [Gb/s]")
    ('length_m', 'a_device', 'speed_gb_s')
    """
    return re.sub(r"[^a-z0-9]+", "_", header.strip().lower()).strip("_")


@dataclass
class CablingPlan:
    """Both ends of every row that states a length (or a speed), and what the reading said."""

    cables: dict[tuple[str, str], float] = field(default_factory=dict)
    speeds: dict[tuple[str, str], int] = field(default_factory=dict)
    read_as: str = ""  # which column was read as what, one line
    warnings: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class _Header:
    line: int
    separator: str
    columns: dict[str, int]  # role -> column index
    cells: tuple[str, ...]  # the header row as written

    @property
    def unmapped(self) -> list[str]:
        used = set(self.columns.values())
        return [
            c
            for i, c in enumerate(self.cells)
            if i not in used and c.strip() and normalised(c) not in OWN_OTHERS
        ]


def read_cabling(path: Path) -> CablingPlan:
    """The plan at ``path``; an InputError when the file holds none."""
    name = str(path)
    text = read_text(path, "cabling plan", max_bytes=MAX_BYTES, fallback="gb18030")
    header = _header(text, name)
    plan = CablingPlan(read_as=_read_as(header))
    if header.unmapped:
        shown = ", ".join(f"'{printable(c.strip()[:40])}'" for c in header.unmapped[:10])
        plan.warnings.append(
            f"{name}:{header.line}: column(s) {shown} not read (roce-cfg reads the two ends, "
            "the cable length and the speed)"
        )
    where = tuple(header.columns.get(role, -1) for role in _ORDER)
    bad = 0
    for line, row in _rows(text, header, name):
        for problem in _read_row(plan, where, row):
            bad += 1
            if bad <= MAX_WARNINGS:
                plan.warnings.append(f"{name}:{line}: {problem}")
    if bad > MAX_WARNINGS:
        plan.warnings.append(f"{name}: {bad - MAX_WARNINGS:,} more unreadable values not named")
    return plan


def _header(text: str, file: str) -> _Header:
    """The first row, among the first few, that names both ends and a length, under the
    separator that makes it so."""
    best: tuple[int, _Header] | None = None
    for sep in SEPARATORS:
        for line, cells in _first_rows(text, sep):
            columns = _columns(cells)
            found = _Header(line, sep, columns, tuple(cells))
            if all(role in columns for role in NEEDED):
                return found
            if columns and (best is None or len(columns) > best[0]):
                best = len(columns), found
    if best is None:
        raise InputError(
            "no header naming the cable ends and lengths (a_device, a_port, b_device, b_port, "
            "cable_m or length_m: the header 'roce-cfg docs' writes in cabling.csv)",
            file=file,
            line=1,
        )
    missing = [r for r in NEEDED if r not in best[1].columns]
    raise InputError(
        f"no column for {', '.join(missing)} (read: {_read_as(best[1])}; the header "
        "'roce-cfg docs' writes in cabling.csv names a_device, a_port, b_device, b_port, cable_m)",
        file=file,
        line=best[1].line,
    )


def _first_rows(text: str, sep: str) -> Iterator[tuple[int, list[str]]]:
    """The first rows as ``sep`` splits them; none past a quote it leaves unbalanced (a
    ``;`` file's quoted cells are no ``,`` file's)."""
    reader = csv.reader(io.StringIO(text), delimiter=sep, strict=True)
    try:
        for cells in reader:
            if reader.line_num > MAX_HEADER_ROW:
                return
            yield reader.line_num, cells
    except csv.Error:
        return


def _columns(cells: list[str]) -> dict[str, int]:
    """Role -> column: the column whose header is the role's earliest name."""
    ranked: dict[str, tuple[int, int]] = {}
    for i, cell in enumerate(cells):
        role = _BY_NAME.get(normalised(cell[:MAX_FIELD]))
        if role is None:
            continue
        rank = ROLES[role].index(normalised(cell))
        if role not in ranked or rank < ranked[role][0]:
            ranked[role] = rank, i
    return {role: i for role, (_, i) in ranked.items()}


def _read_as(header: _Header) -> str:
    unit = {"length": " (metres)", "speed": " (Gb/s)"}
    return ", ".join(
        f"{role}{unit.get(role, '')} <- '{printable(header.cells[i].strip()[:40])}'"
        for role, i in header.columns.items()
    )


def _rows(text: str, header: _Header, file: str) -> Iterator[tuple[int, list[str]]]:
    # strict: a quote left open swallows the rows after it, which no warning per row covers
    reader = csv.reader(io.StringIO(text), delimiter=header.separator, strict=True)
    try:
        for cells in reader:
            line = reader.line_num
            if line <= header.line or not "".join(cells).strip():
                continue
            if line > MAX_ROWS:
                raise InputError(f"more than {MAX_ROWS:,} rows", file=file, line=line)
            yield line, cells
    except csv.Error as exc:
        raise InputError(
            f"not a CSV cabling plan: {exc}", file=file, line=reader.line_num
        ) from None


def _read_row(plan: CablingPlan, where: tuple[int, ...], cells: list[str]) -> list[str]:
    """Both ends of one row into the plan (``where``: the column of each of ``_ORDER``, -1 for
    none); what of it is unreadable, one sentence each."""
    n = len(cells)
    a_device, a_port, b_device, b_port, metres, speed = [
        cells[i].strip()[:MAX_FIELD] if 0 <= i < n else "" for i in where
    ]
    length = _value(_LENGTH, metres, 0.0, MAX_CABLE_M) if metres else None
    gbps = _value(_SPEED, speed, 0, MAX_SPEED_GBPS) if speed else None
    problems = []
    if metres and length is None:
        problems.append(
            f"cable length '{printable(metres[:20])}' is not a length of 0-{MAX_CABLE_M:,.0f} m"
        )
    if speed and gbps is None:
        problems.append(
            f"speed '{printable(speed[:20])}' is not a speed of 1-{MAX_SPEED_GBPS} Gb/s"
        )
    for device, port in ((a_device, a_port), (b_device, b_port)):
        if device and port:
            if length is not None:
                plan.cables[(device, port)] = length
            if gbps is not None:
                plan.speeds[(device, port)] = int(gbps)
    return problems


def _value(pattern: re.Pattern[str], text: str, low: float, high: float) -> float | None:
    """The number ``pattern`` reads as the whole of ``text``, when above ``low`` and at most
    ``high`` (NaN, inf and 5,000 digits are no match)."""
    if text.isdecimal() and len(text) <= 6:  # the usual '30' or '400', without the regex
        value = float(text)
    else:
        m = pattern.fullmatch(text)
        value = float(m[1]) if m else low
    return value if low < value <= high else None
