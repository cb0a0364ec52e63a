"""What the readers of one kind of line need of the normaliser's Context (parse/context.py):
named here, so that they and the normaliser do not import each other."""

from __future__ import annotations

from typing import Any, Protocol

from roce_cfg.model import numbers
from roce_cfg.parse.names import Namer
from roce_cfg.platforms.profile import VendorProfile


class LineReader(Protocol):
    """The normaliser's Context as a reader of PFC profiles, splits and peer-links sees it."""

    profile: VendorProfile
    namer: Namer

    def values(
        self, raw: Any, domain: numbers.Domain, scope: str | None = None
    ) -> tuple[int, ...]: ...

    def ranges(
        self,
        raw: Any,
        domain: numbers.Domain,
        scope: str | None = None,
        every: numbers.Ranges | None = None,
    ) -> numbers.Ranges: ...

    def unreadable(self, reason: str, word: str, scope: str | None = None) -> None: ...
