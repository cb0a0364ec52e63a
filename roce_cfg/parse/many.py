"""Parse many configs, spread over processes when there are enough files.

Workers parse whole files and send back the model and the text; the source map (every line as
an object) stays behind and is rebuilt in the parent only for a file that needs a line number,
because pickling it costs more than the parse itself.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from roce_cfg.errors import InputError
from roce_cfg.parse import Hints, Parsed, parse_file
from roce_cfg.vendor import Vendor

# Below this many files a worker pool costs more (start-up, pickling) than it saves.
PARALLEL_FROM = 24
_job: tuple[Vendor | None, Mapping[str, Hints] | Hints | None, Path | None] = (None, None, None)


def _init(
    vendor: Vendor | None, hints: Mapping[str, Hints] | Hints | None, overlay: Path | None
) -> None:
    global _job
    _job = (vendor, hints, overlay)


def _parse(path: Path) -> Parsed | None:
    vendor, hints, overlay = _job
    try:
        return parse_file(path, vendor=vendor, hints=hints, overlay=overlay)
    except InputError:
        return None  # the parent parses the same file again and reports the error itself


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
    for _path, parsed in parse_each(files, vendor, hints, overlay):
        if isinstance(parsed, InputError):
            raise parsed
        yield parsed


def parse_each(
    files: list[Path],
    vendor: Vendor | None,
    hints: Mapping[str, Hints] | Hints | None,
    overlay: Path | None,
) -> Iterator[tuple[Path, Parsed | InputError]]:
    """Each file with its parse or the InputError that refused it, in the order of ``files``:
    one bad file does not stop the others (callers report it as a finding on that file)."""
    n = workers()
    if n == 1 or len(files) < PARALLEL_FROM:
        for path in files:
            yield path, _one(path, vendor, hints, overlay)
        return
    with ProcessPoolExecutor(n, initializer=_init, initargs=(vendor, hints, overlay)) as pool:
        chunk = max(1, min(16, len(files) // (n * 4)))
        for path, parsed in zip(files, pool.map(_parse, files, chunksize=chunk), strict=True):
            yield path, parsed or _one(path, vendor, hints, overlay)


def _one(
    path: Path,
    vendor: Vendor | None,
    hints: Mapping[str, Hints] | Hints | None,
    overlay: Path | None,
) -> Parsed | InputError:
    try:
        return parse_file(path, vendor=vendor, hints=hints, overlay=overlay)
    except InputError as exc:
        return exc
