"""The parse of one config, text or file: prepared, its lines accounted for, the templates run over
it, and finished into the model; and the accounting's answers for one text (each line's status
and section, and the lines read in each section at each port).
"""

from __future__ import annotations

import gc
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from roce_cfg.heap import bulk_objects
from roce_cfg.parse.accounting import Accounting, account, read_lines, verdicts
from roce_cfg.parse.finished import finish
from roce_cfg.parse.parsed import Hints, Parsed
from roce_cfg.parse.prepared import Prepared, prepare
from roce_cfg.parse.source import header_port
from roce_cfg.parse.templates import runner
from roce_cfg.parse.text import MAX_CONFIG_BYTES, decode
from roce_cfg.safepath import read_bytes
from roce_cfg.vendor import Vendor


def read_templates(prep: Prepared, overlay: Path | None = None) -> dict[str, Any]:
    """The parse templates' output (plain dicts and lists: cheap to pass between processes)."""
    return runner(prep.vendor, overlay).run(prep.feed)


@bulk_objects()  # 100,000 ports: the collector's rescans of them were a third of the parse
def parse_text(
    text: str,
    *,
    file: str = "<text>",
    vendor: Vendor | None = None,
    hints: Hints | Mapping[str, Hints] | None = None,
    overlay: Path | None = None,
) -> Parsed:
    """Parse one saved config. ``hints`` is one Hints, or Hints per hostname (fabric.json)."""
    prep = prepare(text, file=file, vendor=vendor, overlay=overlay)
    # The lines are accounted for before the templates run: the accounting's working set is
    # gone before ttp's results and the models are built (the peak of 100,000 ports is lower).
    accounting = accounted(prep, overlay)
    raw = read_templates(prep, overlay)
    if len(text) > GC_AFTER_TEMPLATES:
        # ttp leaves cycles behind (its parsers and match results); the bulk thresholds would
        # let them ride into the models' peak, so they are freed here, once
        gc.collect()
    return finish(prep, raw, hints, accounting, overlay)


# Inputs past this many characters are collected after the templates ran (one full collection
# costs ~0.1 s there, and gives back tens of MB before the models are built).
GC_AFTER_TEMPLATES = 1 << 20


def accounted(prep: Prepared, overlay: Path | None) -> Accounting:
    refused_lines = [u.line for u in prep.unread if u.line]
    return account(
        prep.vendor,
        prep.fed,
        prep.opaque,
        prep.layout,
        refused_lines,
        overlay,
        header_port(prep.namer, prep.profile.parse.interface_range),
    )


def line_sections(
    text: str, vendor: Vendor | None = None, overlay: Path | None = None
) -> dict[int, tuple[str, str]]:
    """Each line's status in the accounting ('understood', 'unmanaged', 'unread') and its
    section (or unmanaged kind), by line number."""
    prep = prepare(text, vendor=vendor, overlay=overlay)
    blocks = [(b, True) for b in prep.fed] + [(b, False) for b in prep.opaque]
    return verdicts(prep.vendor, blocks, overlay)


def read_where(
    text: str, vendor: Vendor | None = None, overlay: Path | None = None
) -> dict[tuple[str, str | None], tuple[int, ...]]:
    """The lines of the config read in each section at each port (None: switch-wide)."""
    prep = prepare(text, vendor=vendor, overlay=overlay)
    blocks = [(b, True) for b in prep.fed]
    return read_lines(
        prep.vendor, blocks, header_port(prep.namer, prep.profile.parse.interface_range), overlay
    )


def read_config(path: Path) -> str:
    """A config file's text; every way reading it can fail is a one-line InputError."""
    return decode(read_capped(path), str(path))


def read_capped(path: Path) -> bytes:
    """A config file's bytes, at most ``MAX_CONFIG_BYTES`` of them read (roce_cfg/safepath.py:
    a regular file only, its size checked before the read)."""
    return read_bytes(path, what="config file", max_bytes=MAX_CONFIG_BYTES)


def parse_file(
    path: Path,
    *,
    vendor: Vendor | None = None,
    hints: Hints | Mapping[str, Hints] | None = None,
    overlay: Path | None = None,
) -> Parsed:
    return parse_text(
        read_config(path), file=str(path), vendor=vendor, hints=hints, overlay=overlay
    )
