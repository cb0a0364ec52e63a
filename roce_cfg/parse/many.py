"""Parse many configs, the template pass spread over processes when there are enough files.

Workers run the expensive part (the ttp templates) and send back plain dicts; the parent
prepares each file itself and builds the models, because pickling finished pydantic models and
source maps back costs more than building them.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from roce_cfg.errors import InputError
from roce_cfg.intent.models import Vendor
from roce_cfg.parse import Hints, Parsed, finish, parse_file, prepare, read_config, read_templates

# Below this many files a worker pool costs more (start-up, pickling) than it saves.
PARALLEL_FROM = 24
_job: tuple[Vendor | None, Path | None] = (None, None)


def _init(vendor: Vendor | None, overlay: Path | None) -> None:
    global _job
    _job = (vendor, overlay)


def _templates(path: Path) -> dict[str, Any] | None:
    vendor, overlay = _job
    try:
        prep = prepare(read_config(path), file=str(path), vendor=vendor, overlay=overlay)
    except InputError:
        return None  # the parent reads the same file and reports the error itself
    return read_templates(prep, overlay)


def workers() -> int:
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return max(1, min(8, cpus or 1))


def parse_many(
    files: list[Path],
    vendor: Vendor | None,
    hints: Mapping[str, Hints] | Hints | None,
    overlay: Path | None,
) -> Iterator[Parsed]:
    """Parsed configs in the order of ``files``; the first bad file raises its InputError."""
    n = workers()
    if n == 1 or len(files) < PARALLEL_FROM:
        for path in files:
            yield parse_file(path, vendor=vendor, hints=hints, overlay=overlay)
        return
    with ProcessPoolExecutor(n, initializer=_init, initargs=(vendor, overlay)) as pool:
        chunk = max(1, len(files) // (n * 4))
        for path, raw in zip(files, pool.map(_templates, files, chunksize=chunk), strict=True):
            prep = prepare(read_config(path), file=str(path), vendor=vendor, overlay=overlay)
            yield finish(prep, raw if raw is not None else read_templates(prep, overlay), hints)
