"""A vendor's queue scheduling where a port prints none (``scheduling_default`` in
vendors/<vendor>.yaml), kept apart from profile.py for its length."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field


class SchedulingDefault(BaseModel):
    """How a port schedules its queues where its config prints no scheduling line for them:
    the one place a vendor's scheduling default is applied (``in_force``)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    strict_queues: tuple[Annotated[int, Field(ge=0, le=7)], ...] = Field(
        description="queues in strict priority unless a line schedules them otherwise"
    )
    source: str = Field(min_length=1)

    def in_force(self, strict: Iterable[int], weighted: Iterable[int]) -> tuple[int, ...]:
        """The queues a port runs in strict priority: those its lines make strict, and those
        no line schedules that are strict by default (not those a line makes weighted)."""
        named = set(weighted)
        return tuple(sorted({*strict, *(set(self.strict_queues) - named)} - named))
