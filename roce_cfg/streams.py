"""A command's output recorded as it is written (the run memo keeps it, roce_cfg/memo.py):
each piece written to stdout or stderr, in order, unless the recording became unusable."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

# The output kept: past this the run is not memoised (lint's JSON of a huge config).
MAX_OUTPUT = 16 * 2**20

Piece = tuple[int, str]  # (1 stdout, 2 stderr), the text written


@dataclass
class Recorder:
    """What a run wrote, and how it ended (``code``: set by the caller)."""

    pieces: list[Piece] = field(default_factory=list)
    code: int | None = None
    tainted: bool = False
    size: int = 0


class Tee:
    """A stream that passes every write on and records it; anything but writing, flushing and
    asking what the stream is marks the recording unusable (a write past it is not seen)."""

    _PLAIN = frozenset({"flush", "isatty", "encoding", "errors", "closed", "writable", "name"})

    def __init__(self, stream: Any, which: int, recorder: Recorder) -> None:
        self._stream, self._which, self._recorder = stream, which, recorder

    def write(self, text: str) -> int:
        recorder = self._recorder
        recorder.size += len(text)
        if recorder.size > MAX_OUTPUT:  # not kept: its copy would double the run's memory
            recorder.pieces.clear()
            recorder.tainted = True
        elif not recorder.tainted:
            recorder.pieces.append((self._which, text))
        return int(self._stream.write(text))

    def writelines(self, lines: Iterable[str]) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:
        found = getattr(self._stream, name)  # one the stream lacks (rich asks) is no harm
        if name not in self._PLAIN:
            self._recorder.tainted = True
        return found
