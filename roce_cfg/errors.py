"""Errors a user can act on, and the exit codes every command shares. Each error renders as
one line; the CLI maps them to exit code 2."""

from __future__ import annotations

# 1 is a negative answer (a finding, a failing verify), never a crash; 3 and 4 are push's own:
# a switch failed or was not attempted, and a switch left changed because its rollback failed.
EXIT_OK, EXIT_FINDINGS, EXIT_INPUT, EXIT_PUSH, EXIT_ROLLBACK_FAILED = 0, 1, 2, 3, 4

# Unicode's bidirectional controls (marks, embeddings, overrides, isolates): a right-to-left
# override in a hostname or a switch's answer reorders what a terminal shows after it.
_BIDI_CODES = (0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A))
BIDI = {c: f"\\u{c:04x}" for c in _BIDI_CODES}
_CONTROL = {c: f"\\x{c:02x}" for c in (*range(0x20), *range(0x7F, 0xA0))} | BIDI


def printable(text: str) -> str:
    """Control characters shown as \\xNN and bidirectional controls as \\uNNNN: a file named
    with ESC or a newline must neither drive the terminal nor break a one-line message in two,
    and one with a right-to-left override must not reorder the rest of the line.

    >>> printable("leaf\\x1b[2J\\u202eevil")
    'leaf\\\\x1b[2J\\\\u202eevil'
    """
    return text.translate(_CONTROL)


class RoceCfgError(Exception):
    """Base of every error caused by the user's input rather than by a bug in roce-cfg."""


class InputError(RoceCfgError):
    """Bad input, located as precisely as we can: ``file:line path: reason``."""

    def __init__(
        self,
        reason: str,
        *,
        file: str | None = None,
        line: int | None = None,
        path: str | None = None,
    ) -> None:
        self.reason = reason
        self.file = file
        self.line = line
        self.path = path
        super().__init__(self.one_line())

    def one_line(self) -> str:
        where = ""
        if self.file:
            where = self.file if self.line is None else f"{self.file}:{self.line}"
        if where and not self.path and self.line is None:
            return printable(f"{where}: {self.reason}")
        head = " ".join(p for p in (where, f"{self.path}:" if self.path else "") if p)
        return printable(f"{head} {self.reason}" if head else self.reason)


class IntentErrors(RoceCfgError):
    """Several located problems found in one intent; all are reported, the first is the summary."""

    def __init__(self, errors: list[InputError]) -> None:
        self.errors = errors
        super().__init__(errors[0].one_line() if errors else "invalid intent")


class SyntaxProvenanceError(RoceCfgError):
    """--strict-syntax refused to emit a section whose vendor syntax has no source."""


class GrammarViolation(RoceCfgError):
    """A rendered line the vendor's grammar does not accept (generate writes nothing)."""


class PlanError(RoceCfgError):
    """The intent is well-formed but cannot be built; ``loc`` is the intent field to blame."""

    def __init__(self, loc: tuple[str | int, ...], reason: str) -> None:
        self.loc = loc
        self.reason = reason
        super().__init__(f"{'.'.join(str(p) for p in loc)}: {reason}")
