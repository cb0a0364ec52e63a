"""Fewer cyclic garbage collections while a large fabric's models are being built.

Planning, rendering and linting a fabric of a thousand switches creates millions of small,
long-lived objects (pydantic models, addresses, parsed lines). With CPython's default
thresholds the cyclic collector runs every 700 allocations and keeps rescanning them: a quarter
of the time of linting 1,280 configs, half of designing them. These objects are freed by
reference counting when dropped, so collecting less often costs little memory.
"""

from __future__ import annotations

import gc
from contextlib import ContextDecorator
from typing import Any

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
