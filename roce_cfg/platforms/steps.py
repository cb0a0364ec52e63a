"""Settings a switch stages until an apply line activates them, as vendor data (``lint:
apply_steps`` in vendors/<vendor>.yaml): lint checks the edits are applied, remediation and
the lab emulators follow the order a locked apply step demands."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, model_validator


class _Data(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ApplyStep(_Data):
    """Settings staged until an apply line activates them (Comware's data buffer). Lint
    checks that edits are applied; with ``locked`` an applied state refuses edits, so a change
    lifts the apply, edits, and applies again: remediation types that order and the lab
    emulators refuse an edit while applied."""

    edits: str = Field(description="regex of a top-level line that changes staged state")
    apply: str = Field(description="regex of the line that activates it")
    command: str | None = Field(default=None, description="the apply line, as typed")
    lift: str | None = Field(default=None, description="the line that lifts an applied state")
    locked: bool = Field(default=False, description="an applied state refuses edits")
    source: str = ""

    @model_validator(mode="after")
    def _locked_lifts(self) -> ApplyStep:
        if self.locked and not (self.command and self.lift):
            raise ValueError("a locked apply step needs its apply command and the line lifting it")
        return self


class LintSpec(_Data):
    apply_steps: tuple[ApplyStep, ...] = ()
