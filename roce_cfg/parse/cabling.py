"""The cabling plan: the CSV ``roce-cfg docs`` writes (``cabling.csv``), read back so that lint
judges each port at the length of its own cable (``lint --cabling FILE``).

Columns by name (``a_device, a_port, b_device, b_port, cable_m``; the others are not needed);
a row with no length says nothing; a length that is not 0-10,000 m, a missing column or a file
past its caps is a one-line error naming the file and line.
"""

from __future__ import annotations

import csv
import io
import math
from pathlib import Path

from roce_cfg.errors import InputError
from roce_cfg.model.describe import MAX_CABLE_M
from roce_cfg.yamlsrc import read_text

NEEDED = ("a_device", "a_port", "b_device", "b_port", "cable_m")
# A plan of 100,000 ports is 100,000 rows; a row is under 200 characters.
MAX_ROWS = 200_000
MAX_BYTES = 32 << 20
MAX_FIELD = 256


def read_cabling(path: Path) -> dict[tuple[str, str], float]:
    """(device, port) -> cable metres, both ends of every row that states a length."""
    name = str(path)
    text = read_text(path, "cabling plan", max_bytes=MAX_BYTES)
    reader = csv.DictReader(io.StringIO(text))
    try:
        missing = [c for c in NEEDED if c not in (reader.fieldnames or ())]
    except csv.Error as exc:
        raise InputError(f"not a CSV cabling plan: {exc}", file=name, line=1) from None
    if missing:
        raise InputError(
            f"no column {', '.join(missing)} (the header 'roce-cfg docs' writes in cabling.csv)",
            file=name,
            line=1,
        )
    cables: dict[tuple[str, str], float] = {}
    try:
        for row in reader:
            line = reader.line_num
            if line > MAX_ROWS:
                raise InputError(f"more than {MAX_ROWS:,} rows", file=name, line=line)
            metres = _metres(row.get("cable_m") or "", name, line)
            if metres is None:
                continue
            for device, port in (
                (row["a_device"], row["a_port"]),
                (row["b_device"], row["b_port"]),
            ):
                if device and port:
                    cables[(device.strip()[:MAX_FIELD], port.strip()[:MAX_FIELD])] = metres
    except csv.Error as exc:
        raise InputError(
            f"not a CSV cabling plan: {exc}", file=name, line=reader.line_num
        ) from None
    return cables


def _metres(text: str, file: str, line: int) -> float | None:
    text = text.strip()
    if not text:
        return None
    try:
        value = float(text) if len(text) <= 16 else math.nan
    except ValueError:
        value = math.nan
    if not (0 < value <= MAX_CABLE_M):  # NaN and inf fail this too
        raise InputError(
            f"cable_m '{text[:20]}' is not a length of 0-{MAX_CABLE_M:,.0f} m", file=file, line=line
        )
    return value
