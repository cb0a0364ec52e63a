"""Parse many configs, spread over processes when there are enough files.

Workers parse whole files and send back the model and the text; the source map (every line as
an object) stays behind and is rebuilt in the parent only for a file that needs a line number,
because pickling it costs more than the parse itself.

A folder's files can come here unscreened (``screen_each``): whether each is a switch config at
all is then judged by the worker that reads it, on the bytes it read for the parse, instead of
by a serial pass over every file before the workers start (15 % of an xl lint).

With the parse cache (roce_cfg/parse/cache.py) holding entries, this process first reads and
hashes each file to find those whose parse it holds, loads those itself from the bytes and
entry name it found them by (read and hashed once: a second pass was 0.1 s of a warm xl lint)
and gives the workers only the others.
"""

from __future__ import annotations

import gc
import os
from collections.abc import Callable, Collection, Iterator, Mapping
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from roce_cfg.errors import InputError
from roce_cfg.heap import long_lived
from roce_cfg.parse import Hints, Parsed, parse_text, read_capped
from roce_cfg.parse.cache import ParseCache
from roce_cfg.parse.text import decode
from roce_cfg.vendor import Vendor

# Below this many files a worker pool costs more (start-up, pickling) than it saves.
PARALLEL_FROM = 24

# Why a file's bytes are not a switch config, or None when they are one; raises InputError
# when the text has a config's words but breaks a cap (roce_cfg.inputs.not_a_config, bound to
# the vendor and overlay given).
Screen = Callable[[Path, bytes], str | None]
_HintsArg = Mapping[str, Hints] | Hints | None
# A file's bytes and the name of its parse cache entry, as ``_stored`` found them.
_Read = tuple[bytes, str]


@dataclass(frozen=True)
class Skipped:
    """A file of a folder that turned out not to be a switch config: a note, not a finding."""

    reason: str


@dataclass(frozen=True)
class _Job:
    vendor: Vendor | None = None
    hints: _HintsArg = None
    overlay: Path | None = None
    screen: Screen | None = None
    unscreened: Collection[Path] = frozenset()
    cache: ParseCache | None = None


_job = _Job()

# Files a worker is handed at a time, and parses between two collections of its garbage.
CHUNK = 16
_since_collected = 0


def _init(job: _Job) -> None:
    """A worker's start. Its automatic cyclic collections are off: they ran in the middle of a
    parse, rescanning the model being built, 5 % of the worker's CPU at xl. What a
    parse leaves in cycles (ttp's results) is collected between files instead (``_parse``)."""
    global _job
    _job = job
    gc.disable()


def _parse(path: Path) -> Parsed | Skipped | None:
    global _since_collected
    if _since_collected == CHUNK:
        # At the start of a chunk the last chunk's models have been sent and dropped: what is
        # alive then is the worker's caches, frozen after the collection so that the next one
        # scans only what the chunk in between left (what the parent held is frozen, _each).
        gc.collect()
        gc.freeze()
        _since_collected = 0
    _since_collected += 1
    out = _outcome(path, _job)
    # An error is judged again in the parent, which reports it itself (an InputError does not
    # survive pickling with its file and line).
    return None if isinstance(out, InputError) else out


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
    for path, out in _each(files, _Job(vendor, hints, overlay)):
        if isinstance(out, Skipped):  # pragma: no cover - nothing is screened on this path
            raise AssertionError("parse_each screens nothing")
        yield path, out


@contextmanager
def screen_each(
    files: list[Path],
    vendor: Vendor | None,
    hints: Mapping[str, Hints] | Hints | None,
    overlay: Path | None,
    screen: Screen,
    unscreened: Collection[Path],
    cache: ParseCache | None = None,
) -> Iterator[Iterator[tuple[Path, Parsed | InputError | Skipped]]]:
    """As ``parse_each``; a file in ``unscreened`` that is not a switch config comes back as
    ``Skipped`` with ``screen``'s reason. One read of each file serves both questions. The
    workers start on entry, so the block can do its own work while they parse (lint validates
    fabric.json then); leaving it early stops them. With ``cache``, a file whose parse it holds
    is not parsed again (roce_cfg/parse/cache.py), and its least recently used entries go at
    the end."""
    job = _Job(vendor, hints, overlay, screen, frozenset(unscreened), cache)
    try:
        with _parsing(files, job) as parsed:
            yield parsed
    finally:
        if cache is not None:
            cache.trim()


def _each(files: list[Path], job: _Job) -> Iterator[tuple[Path, Parsed | InputError | Skipped]]:
    with _parsing(files, job) as parsed:
        yield from parsed


@contextmanager
def _parsing(
    files: list[Path], job: _Job
) -> Iterator[Iterator[tuple[Path, Parsed | InputError | Skipped]]]:
    """Each file's outcome in file order: those the cache holds read here, the others parsed
    by the workers (started at once) when there are enough of them."""
    stored = _stored(files, job)
    if not stored:
        with _by_workers(files, job) as outcomes:
            yield outcomes
        return
    with _by_workers([p for p in files if p not in stored], job) as parsed, long_lived():
        yield ((p, _loaded(p, stored.pop(p), job)) if p in stored else next(parsed) for p in files)


def _loaded(path: Path, read: _Read, job: _Job) -> Parsed | InputError | Skipped:
    """``path``'s outcome from its bytes and entry name (``read``), its parse from the cache:
    the models just loaded live as long as the command, so they are frozen out of the young
    collections that would rescan them (a sixth of loading 1,280 configs)."""
    out = _outcome(path, job, read)
    gc.freeze()
    return out


@contextmanager
def _by_workers(
    files: list[Path], job: _Job
) -> Iterator[Iterator[tuple[Path, Parsed | InputError | Skipped]]]:
    n = workers()
    if n == 1 or len(files) < PARALLEL_FROM:
        yield ((path, _outcome(path, job)) for path in files)
        return
    # The workers are forked: what the parent holds (at 1,280 switches 'report' holds the
    # designed fabric and its configs, a GB) is shared with them until written to. A cyclic
    # collection in a worker writes to every object it scans, copying those pages; frozen
    # objects are never scanned (and not by the parent's own collections meanwhile either).
    gc.freeze()
    try:
        with ProcessPoolExecutor(n, initializer=_init, initargs=(job,)) as pool:
            chunk = max(1, min(CHUNK, len(files) // (n * 4)))
            results = pool.map(_parse, files, chunksize=chunk)  # submitted: the workers start
            try:
                yield (
                    (path, parsed or _outcome(path, job))
                    for path, parsed in zip(files, results, strict=True)
                )
            except BaseException:
                # not the rest of the files: only the chunks already being parsed are waited for
                pool.shutdown(cancel_futures=True)
                raise
    finally:
        gc.unfreeze()


def _outcome(path: Path, job: _Job, read: _Read | None = None) -> Parsed | InputError | Skipped:
    """``path`` read once: parsed, refused (InputError), or not a config at all (Skipped);
    ``read``, its bytes and entry name when ``_stored`` read them already."""
    key = None
    if read is not None:
        data, key = read
    else:
        try:
            data = read_capped(path)
        except InputError as exc:  # permissions, size: may well be a config, so never skipped
            return exc
    screen = job.screen if path in job.unscreened else None
    if screen is not None and job.vendor is not None:
        # With --vendor the parse does not detect, so it cannot vouch for the file: ask first.
        skipped = _screened(screen, path, data)
        if skipped is not None:
            return skipped
        screen = None
    try:
        return _parsed(path, data, job, key)
    except InputError as exc:
        # A detected vendor is two signature lines or more, the screen's own test, so only a
        # file the parse refused can still turn out not to be a config.
        skipped = _screened(screen, path, data) if screen is not None else None
        return exc if skipped is None else skipped


def _parsed(path: Path, data: bytes, job: _Job, key: str | None = None) -> Parsed:
    """``data`` parsed, or its parse from the cache (under ``key``, its entry name, when
    known); a new parse is stored there."""
    cache = job.cache
    if cache is not None and key is None:
        key = cache.key(path, data, job.vendor)
    if cache is not None and key is not None:
        hit = cache.load(key, path, data, job.hints, job.overlay)
        if hit is not None:
            return hit
    text = decode(data, str(path))
    parsed = parse_text(
        text, file=str(path), vendor=job.vendor, hints=job.hints, overlay=job.overlay
    )
    if cache is not None and key is not None:
        cache.store(key, parsed, job.hints)
    return parsed


def _stored(files: list[Path], job: _Job) -> dict[Path, _Read]:
    """The files whose parse the cache holds, each with its bytes and entry name: this process
    loads them itself (validating an entry costs less than a worker's sending it back, and no
    worker starts for them)."""
    cache = job.cache
    present = cache.stored() if cache is not None else frozenset()
    if cache is None or not present:  # a first run reads nothing twice
        return {}
    out: dict[Path, _Read] = {}
    for path in files:
        try:
            data = read_capped(path)
        except InputError:
            continue  # the read that counts says why
        key = cache.key(path, data, job.vendor)
        if key in present:
            out[path] = (data, key)
    return out


def _screened(screen: Screen, path: Path, data: bytes) -> Skipped | InputError | None:
    try:
        why = screen(path, data)
    except InputError as exc:  # a config past a per-line cap: a finding, never silence
        return exc
    return None if why is None else Skipped(why)
