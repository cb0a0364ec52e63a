"""A vendor's CLI dialect as data (``dialect`` in vendors/<vendor>.yaml).

How the switch's command line talks: its prompts, how a change takes effect (at once, or in a
candidate that is committed), how a save is asked for and answered, how the saved config frames
its views, which display commands print what, and what netmiko needs for the platform. Push
(roce_cfg/deploy), the config trees and the lab emulators (roce_cfg/lab) read it; no code
branches on a vendor's name or layout. Each part carries the ``source`` that backs it (tags of
shared/vendor-reference.md; shared/netmiko-notes.md for what was measured).

A new behaviour (a confirmed commit, a checkpoint to roll back to, another display command) is
a field here and a value per vendor, read where it is used.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator


class _Data(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Prompts(_Data):
    """The prompts the switch ends each answer with."""

    exec: str = Field(description="user (exec) mode: '<{host}>' or '{host}#'")
    config: str = Field(
        description="config mode: '{view}' is ``view`` below inside a view (else empty), "
        "'{mark}' the commit mark (see Commit.marks): '[{mark}{host}{view}]'"
    )
    view: str = Field(
        description="what a view adds to the config prompt: '{path}' is every view entered "
        "(interface names without 'interface '), joined by '-'; '{first}' the first word of "
        "the innermost view ('-{first:.6}' gives 'config-interf')"
    )
    pattern: str = Field(description="regex of a config-mode prompt, as push counts answers")
    source: str = ""

    def prompt(self, host: str, config: bool, views: list[str], mark: str = "") -> str:
        """The prompt in exec mode, or in config mode inside ``views`` (outermost first).

        >>> Prompts(exec="<{host}>", config="[{host}{view}]", view="-{path}", pattern="").prompt(
        ...     "leaf-1", True, ["interface HundredGigE1/0/1"])
        '[leaf-1-HundredGigE1/0/1]'
        """
        if not config:
            return self.exec.format(host=host)
        path = "-".join(v.replace("interface ", "").replace(" ", "-") for v in views)
        first = views[-1].split()[0] if views else ""
        view = self.view.format(path=path, first=first) if views else ""
        return self.config.format(host=host, view=view, mark=mark)


class Commit(_Data):
    """How configuration takes effect: ``immediate`` (each accepted line applies) or
    ``candidate`` (lines collect in a candidate that ``commands`` activates)."""

    model: Literal["immediate", "candidate"] = "immediate"
    commands: tuple[str, ...] = Field(default=(), description="activate the candidate")
    discard: str | None = Field(default=None, description="drop an uncommitted candidate")
    marks: tuple[str, str] = Field(
        default=("", ""), description="prompt mark with nothing uncommitted, and with changes"
    )
    leave_question: str | None = Field(
        default=None, description="what leaving config mode with uncommitted changes asks"
    )
    source: str = ""

    @model_validator(mode="after")
    def _candidate_commits(self) -> Commit:
        if self.model == "candidate" and not self.commands:
            raise ValueError("a candidate commit model needs the commands that commit")
        return self


class Save(_Data):
    """Writing the running config to the startup file."""

    commands: tuple[str, ...]
    question: str | None = Field(default=None, description="asked before saving, if anything")
    answer: str = Field(default="y", description="the answer that saves")
    done: str = Field(default="", description="what the switch prints once saved")
    source: str = ""


class Framing(_Data):
    """How the saved config (``show.running``) frames top-level blocks and views."""

    head: tuple[str, ...] = ()
    before_block: str | None = Field(default=None, description="line before each block ('#')")
    after_block: str | None = Field(default=None, description="line after each block ('!')")
    view_end: str | None = Field(default=None, description="closes each view, at its indent")
    tail: tuple[str, ...] = ()
    indent: str = Field(default=" ", description="one level of nesting")
    statement_indent: str = Field(
        default="", description="before a top-level statement outside any view"
    )
    source: str = ""


class Show(_Data):
    """Display commands, by what they print."""

    running: str = Field(description="the running config, in the saved layout")
    saved: str | None = Field(default=None, description="the next-startup config, to verify a save")


class Restore(_Data):
    """How push returns a switch to its state before a push. A vendor-native restore
    point where a source documents one: ``checkpoint`` (before the first change) and
    ``commands`` (to go back), typed in ``mode``; '{file}' is ``file``. Without ``commands`` the
    restore is a full-config one: every line the push left is undone from the snapshot."""

    checkpoint: tuple[str, ...] = ()
    commands: tuple[str, ...] = ()
    mode: Literal["exec", "config"] = "exec"
    file: str = ""
    source: str = ""

    def fill(self, commands: tuple[str, ...]) -> list[str]:
        return [c.format(file=self.file) for c in commands]


@cache
def command_pattern(template: str) -> re.Pattern[str]:
    """A restore or confirm command's template as a pattern of the lines it stands for:
    '{file}' any file name, '{time}' a number, the first number in it any number ('rollback
    configuration last 1' is 'last <n>')."""
    text = re.escape(template)
    text = text.replace(re.escape("{file}"), r"(?P<file>\S+)")
    text = text.replace(re.escape("{time}"), r"(?P<time>\d+)")
    text = re.sub(r"(?<![\\\w])\d+(?!\w)", r"(?P<n>\\d+)", text, count=1)
    return re.compile(text + "$")


class Question(_Data):
    """A question the switch asks after a restore or confirm command before it acts (Comware's
    'save <file>' and 'configuration replace file', VRP's 'rollback configuration' and 'abort
    trial'): push answers it, the lab emulators ask it. ``command`` is a template as in
    Restore; ``ends`` is how the question ends, what push reads up to; ``exists``: asked only
    when the file the command names is already there."""

    command: str
    ends: str
    answer: str
    exists: bool = False
    source: str = ""


class Confirm(_Data):
    """A confirmed push: the switch's own timer undoes the change unless it is confirmed in
    time, so a push whose session is lost reverts by itself. ``arm`` starts the timer, typed
    ``at`` 'start' (before the first change) or 'commit' (in place of the commit); '{time}' is
    the timeout in ``unit``, within ``low``..``high``. ``confirm`` keeps the change, ``abort``
    ends the timer and reverts at once (when the vendor has it)."""

    arm: str
    at: Literal["start", "commit"]
    unit: Literal["seconds", "minutes"] = "seconds"
    low: int = 1
    high: int = 65535
    confirm: str
    abort: str | None = None
    source: str = ""

    def amount(self, seconds: int) -> int:
        """The timeout in the switch's unit, rounded up and kept within its range."""
        value = -(-seconds // 60) if self.unit == "minutes" else seconds
        return max(self.low, min(self.high, value))

    def seconds(self, seconds: int) -> int:
        """How long the armed timer really runs, in seconds (``amount`` back from its unit)."""
        return self.amount(seconds) * (60 if self.unit == "minutes" else 1)


class ConfigCheck(_Data):
    """netmiko's check_config_mode with a read pattern: the stock driver reads with none and
    waits for about 2 s of silence per call (shared/netmiko-notes.md, 2)."""

    check_string: str
    pattern: str


class Netmiko(_Data):
    device_type: str
    extras: dict[str, bool | float] = Field(
        default_factory=dict,
        description="connection options the platform needs (an inventory's extras win)",
    )
    config_check: ConfigCheck | None = None
    source: str = ""


class Dialect(_Data):
    enter: tuple[str, ...] = Field(description="commands that enter config mode")
    leave: tuple[str, ...] = Field(description="commands that leave config mode from any view")
    view_exit: str = Field(description="leaves one view: quit (Comware, VRP) or exit")
    hostname: str = Field(description="the command that names the switch: 'sysname {host}'")
    show: Show
    paging_off: tuple[str, ...] = ()
    views: tuple[str, ...] = Field(description="regexes of commands that open a view")
    single_valued: tuple[str, ...] = Field(
        default=(), description="prefixes of settings a new value replaces (mtu 9000 over 9216)"
    )
    additive: tuple[str, ...] = Field(
        default=(),
        description="prefixes of commands each line of which adds members to a set ('vlan batch"
        " 200 201' creates VLANs beside those there): a running line of one is never replaced by"
        " an intended one, since its other members may serve what roce-cfg does not manage",
    )
    error: str = Field(description="what the CLI prints for a command it rejects")
    prompts: Prompts
    commit: Commit = Commit()
    save: Save
    restore: Restore = Restore()
    confirm: Confirm | None = None
    questions: tuple[Question, ...] = Field(
        default=(), description="what restore and confirm commands ask before they act"
    )
    framing: Framing
    netmiko: Netmiko

    def asked(self, line: str) -> list[Question]:
        """The questions ``line`` may be asked, in the order the dialect lists them (none for
        the save commands: their question is ``save.question``)."""
        if line in self.save.commands:
            return []
        return [q for q in self.questions if command_pattern(q.command).match(line)]
