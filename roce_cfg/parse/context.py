"""What the normaliser reads a config with and records while it reads: the vendor profile and
model, where the config's lines are, the lines it could not read (each with its reason) and the
readings it keeps so that ports that repeat the same lines are read once. The readers of one
kind of line (parse/reader.py, parse/ipv6.py's ``Reading``) see it through a Protocol; the
normaliser's own readers take it as it is.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

from roce_cfg.model import numbers
from roce_cfg.model.device import PortQos
from roce_cfg.model.numbers import Domain, NumberError
from roce_cfg.parse.blocks import Block
from roce_cfg.parse.names import Namer
from roce_cfg.parse.readings import PortLines, Wred
from roce_cfg.platforms.parse_spec import VersionForm
from roce_cfg.platforms.profile import ModelSpec, VendorProfile

Raw = dict[str, Any]
Role = Literal["leaf", "spine", "superspine", "switch"]
T = TypeVar("T")
# (line number, line) of the first line holding a word, in one interface's blocks or anywhere
Locate = Callable[[str, str | None], tuple[int, str] | None]
# Asked of a Locate, a word starting with this is a whole number list: the line it ends.
LISTED = "\n"
# A config of 100,000 lines could hold as many bad values: the first are listed, the rest
# counted, so the report stays readable and its size bounded.
MAX_UNREAD = 1000


class Unreadable(ValueError):
    """A value in the config that cannot mean what the model needs (bad address, bad range)."""


@dataclass(frozen=True)
class Unread:
    """A line the parse did not read because a value on it is outside its domain."""

    line: int | None
    text: str
    reason: str


def _nowhere(word: str, scope: str | None) -> tuple[int, str] | None:
    return None


@dataclass
class Context:
    profile: VendorProfile
    model_name: str
    model: ModelSpec
    namer: Namer
    notes: list[str] = field(default_factory=list)
    unread: list[Unread] = field(default_factory=list)
    locate: Locate = _nowhere
    more_unread: int = 0
    board: str | None = None  # the model the config names, known to the profile or not
    version: VersionForm | None = None  # the release line its header names
    version_text: str = ""
    action_printed: bool = True
    blocks: list[Block] = field(default_factory=list)  # the config's, for ``line_of``
    # line text -> its numbers not yet claimed; built on the first question (static routes):
    # built eagerly, a config of 100,000 ports held 100,000 entries through the model's peak
    _lines: dict[str, list[int]] | None = None

    def line_of(self, text: str) -> int | None:
        """The number of the first line not yet claimed whose words are ``text``."""
        if self._lines is None:
            self._lines = {}
            for block in self.blocks:
                for line in block.lines:
                    self._lines.setdefault(" ".join(line.text.split()), []).append(line.no)
        found = self._lines.get(text)
        return found.pop(0) if found else None

    def unreadable(self, reason: str, word: str, scope: str | None = None) -> None:
        """The line holding ``word`` says what cannot mean anything (an unknown unit, queue,
        PHB): recorded unread on its line (found by the word, in ``scope``), as if absent, so
        the rest of the config is still read and the gate keeps rules from concluding."""
        found = self.locate(word, scope) if word else None
        self.refuse(found[0] if found else None, found[1] if found else "", reason)

    def refuse(self, line: int | None, text: str, reason: str) -> None:
        """A line that cannot be read at all: reported unread (lint: RC119), never dropped."""
        self.reports += 1
        if len(self.unread) >= MAX_UNREAD:
            self.more_unread += 1
        else:
            self.unread.append(Unread(line, text, reason))

    _qos: dict[tuple[Any, ...], PortQos] = field(default_factory=dict)
    # lines refused or values skipped so far: a result computed while none was is a pure
    # function of its raw lines, and may be reused for the next port that has the same ones
    reports: int = 0
    # a port's QoS lines (as the templates read them) -> its PortQos and ECN queues
    port_qos_seen: dict[tuple[str, str], tuple[PortQos, dict[int, Wred]]] = field(
        default_factory=dict
    )
    # a port's lines but its own (as the templates read them) -> what they say (``_port``)
    port_readings: dict[tuple[bool, bytes], PortLines] = field(default_factory=dict)

    def port_qos(self, *fields: Any) -> PortQos:
        """One PortQos per distinct setting (it is frozen): ports mostly agree, and a config
        of 100,000 ports then holds a handful of them, not 100,000."""
        found = self._qos.get(fields)
        if found is None:
            names = ("trust_dscp", "pfc", "no_drop", "headroom", "xoff", "watchdog")
            more = ("ecn_queues", "strict_queues", "pfc_waits_for_dcbx")
            kwargs = dict(zip((*names, *more), fields, strict=True))
            found = self._qos[fields] = PortQos(**kwargs)
        return found

    def skip(self, exc: NumberError, scope: str | None = None, listed: str = "") -> None:
        """The line holding ``exc``'s value is not read (as if it were absent): recorded with
        its number, found by the value (in ``scope``'s interface blocks when given); a list's
        error first by the whole list ``listed``, which ends its line (a value alone, '0', is
        on many lines: a description's 'nic0' came first)."""
        self.reports += 1
        found = self.locate(LISTED + listed.strip(), scope) if listed.strip() else None
        found = found or (self.locate(exc.text, scope) if exc.text else None)
        entry = Unread(found[0] if found else None, found[1] if found else "", str(exc))
        if entry in self.unread:
            return
        if len(self.unread) >= MAX_UNREAD:
            self.more_unread += 1
            return
        self.unread.append(entry)

    def number(self, raw: Any, domain: Domain, default: T, scope: str | None = None) -> int | T:
        """``raw`` as a number of ``domain``, or ``default`` with its line recorded unread."""
        if type(raw) is int and domain.low <= raw <= domain.high:
            return raw  # what ttp converted already (most values): no text to read
        try:
            return numbers.number(str(raw).strip(), domain)
        except NumberError as exc:
            self.skip(exc, scope)
            return default

    def ranges(
        self,
        raw: Any,
        domain: Domain,
        scope: str | None = None,
        every: numbers.Ranges | None = None,
    ) -> numbers.Ranges:
        """A printed number list as ranges, or none with its line recorded unread."""
        try:
            return numbers.parse(str(raw), domain, every)
        except NumberError as exc:
            self.skip(exc, scope, str(raw))
            return ()

    def values(self, raw: Any, domain: Domain, scope: str | None = None) -> tuple[int, ...]:
        """A printed list of a small domain's numbers (priorities, DSCP, queues), every one."""
        return numbers.expand(self.ranges(raw, domain, scope))


def as_list(value: Any) -> list[Raw]:
    if value is None:
        return []
    if isinstance(value, list):
        return [v for v in value if isinstance(v, dict) and v]
    return [value] if isinstance(value, dict) and value else []
