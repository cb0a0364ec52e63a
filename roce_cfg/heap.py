"""Fewer cyclic garbage collections while a large fabric's models are being built and used.

Planning, rendering and linting a fabric of a thousand switches creates millions of small,
long-lived objects (pydantic models, addresses, parsed lines). With CPython's default
thresholds the cyclic collector runs every 700 allocations and keeps rescanning them: a quarter
of the time of linting 1,280 configs, half of designing them. These objects are freed by
reference counting when dropped, so collecting less often costs little memory.
"""

from __future__ import annotations

import contextlib
import gc
import os
import sys
from collections.abc import Iterator
from contextlib import ContextDecorator, contextmanager
from typing import Any, NoReturn

#: (generation 0, 1, 2) thresholds while bulk models are built; CPython's default is (700, 10, 10).
BULK_THRESHOLDS = (50_000, 50, 100)


class bulk_objects(ContextDecorator):
    """Raise the collector's thresholds for the duration; restore them afterwards (nests)."""

    def __enter__(self) -> bulk_objects:
        self._saved = gc.get_threshold()
        gc.set_threshold(*BULK_THRESHOLDS)
        return self

    def __exit__(self, *exc: Any) -> None:
        gc.set_threshold(*self._saved)


_frozen = 0  # depth of long_lived blocks: only the outermost gives the objects back


@contextmanager
def long_lived() -> Iterator[None]:
    """Take every object alive now (a designed fabric and its configs, say) out of the cyclic
    collector's sight for the block (gc.freeze): the collections the next stage's allocations
    trigger then scan only what that stage makes, not the millions of models before it. They
    are still freed by reference counting; a cycle among them waits for the block's end."""
    global _frozen
    gc.freeze()
    _frozen += 1
    try:
        yield
    finally:
        _frozen -= 1
        if _frozen == 0:
            gc.unfreeze()


_kept: list[object] = []


def keep_until_exit(obj: object) -> None:
    """``obj`` (a large result) stays alive until ``before_exit`` ends the process: freeing
    millions of models one by one, then the collection at interpreter exit, only delays it."""
    _kept.append(obj)


def before_exit(code: int) -> NoReturn:
    """End the process with ``code`` once the output is out. When a command kept a large result
    (``keep_until_exit``), stdout and stderr are flushed and the process ends without tearing
    the heap down (os._exit): every file the commands write is closed by then (output.py
    writes and closes each one). Otherwise a normal exit (atexit handlers run)."""
    if not _kept:
        sys.exit(code)
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # a closed pipe: its reader has gone
            stream.flush()
    os._exit(code)
