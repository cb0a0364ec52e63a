"""A parsed config as the commands hold it (its text, and where things are in it, rebuilt on first
use in the process that asks), and what the parse was given that a config cannot say about
itself (``Hints``: model, role, link speeds, from fabric.json, the intent or the user).
"""

from __future__ import annotations

import pickle
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from roce_cfg.parse.context import Role
from roce_cfg.parse.prepared import prepare
from roce_cfg.parse.result import ParsedConfig
from roce_cfg.parse.source import SourceMap
from roce_cfg.parse.wire import dumps


class Parsed:
    """A parsed config, its text, and where things are in that text.

    The source map is rebuilt from the text on first use when the config was parsed in another
    process: sending it back costs more than the parse, and only files with findings need it.
    """

    __slots__ = ("_source", "config", "digest", "hinted", "overlay", "text")

    def __init__(
        self,
        config: ParsedConfig,
        source: SourceMap | None,
        text: str = "",
        overlay: Path | None = None,
        hinted: str = "",
    ) -> None:
        self.config = config
        self._source = source
        self.text = text
        self.overlay = overlay
        # the name its hints were looked up by (``hint_name``): what the parse cache checks a
        # stored parse's hints against
        self.hinted = hinted
        # what the parse is a function of (the parse cache's key and the hints applied), set
        # by the parse cache: lint keeps the device rules' findings under it ("" when unknown)
        self.digest = ""

    @property
    def source(self) -> SourceMap:
        if self._source is None:
            self._source = prepare(
                self.text, file=self.config.source, vendor=self.config.vendor, overlay=self.overlay
            ).source
        return self._source

    def __getstate__(self) -> tuple[bytes, str, Path | None, str, str]:
        return dumps(self.config), self.text, self.overlay, self.hinted, self.digest

    def __setstate__(self, state: tuple[bytes, str, Path | None, str, str]) -> None:
        config, self.text, self.overlay, self.hinted, self.digest = state
        self.config = pickle.loads(config)  # what __getstate__ wrote, in a worker of ours
        self._source = None


@dataclass(frozen=True)
class Hints:
    """What a config cannot say about itself, from fabric.json, the intent or the user."""

    model: str | None = None
    role: Role | None = None
    speeds: Mapping[str, int] = field(default_factory=dict)


def hint_name(raw: dict[str, Any], file: str) -> str:
    """The name a config's hints are looked up by: its hostname, else its file's stem."""
    systems = raw.get("system")
    first = systems[0] if isinstance(systems, list) and systems else systems
    host = first.get("hostname") if isinstance(first, dict) else None
    return str(host or Path(file).stem)


def applied_hint(hints: Hints | Mapping[str, Hints] | None, name: str) -> Hints:
    """The hints for the config ``name`` names: the one given, or the plan's for it."""
    if isinstance(hints, Hints) or hints is None:
        return hints or Hints()
    return hints.get(name, Hints())
