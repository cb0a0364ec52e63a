"""A saved switch session read back into an overlay grammar that cites what the switch took
(``roce-cfg vendors capture VENDOR --read SESSION.log``; the script is platforms/capture.py).

The log is split at the vendor's prompts (``parse.capture_prompt``): each prompt line holds the
line typed, the lines up to the next prompt are the switch's answer. Typed lines are followed
through the grammar's views as the switch would (an opener enters a view, a line of a parent
view leaves to it, the dialect's leave and exit commands), so each is known as a command or
an undo form of one. A line answered with one of the vendor's error texts (its profile's
``error_patterns``, its grammar's ``errors``, the dialect's ``error``) was refused; a line
answered with none, and printed by the next ``show running-config``, was accepted; an undo
line accepted, after which the running config no longer prints its line, removed it."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from roce_cfg.errors import InputError
from roce_cfg.grammar import Command, Grammar, load_grammar
from roce_cfg.grammar.load import capture_data, raw_commands
from roce_cfg.platforms.profile import VendorProfile

# An IOS-style prompt whose view may hold a space: RGOS prints '(config-if-Loopback 0)#'
# ([RJ-LAB] in vendors/ruijie.grammar.yaml), which the parse's capture_prompt does not take.
PROMPT = r"[\w.-]+(?:\([^()\n]*\))?[#>]"
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]|\x1b\[[0-9;?]*[A-Za-z]|\s*--More--\s*")


@dataclass
class Entry:
    line_no: int
    typed: str
    output: list[str] = field(default_factory=list)


@dataclass
class Attempt:
    index: int  # the entry's position
    line_no: int
    cmd: Command
    undo: bool
    line: str
    error: str | None


def entries(text: str, prompt: re.Pattern[str]) -> list[Entry]:
    """The log as (line typed at a prompt, the answer) entries; what precedes the first
    prompt is left out."""
    out: list[Entry] = []
    for n, raw in enumerate(text.splitlines(), 1):
        line = CONTROL.sub("", raw.replace("\r", ""))
        m = prompt.match(line)
        if m:
            out.append(Entry(n, " ".join(line[m.end() :].split())))
        elif out:
            out[-1].output.append(line)
    return out


def version(entries_: list[Entry], vendor: str, file: str) -> tuple[str, str]:
    """The model and release the session's 'show version' prints (the grammar's capture
    data says how the vendor prints them)."""
    data = capture_data(vendor)
    command = str(data.get("show_version", "show version")).split()
    for e in entries_:
        words = e.typed.split()
        if len(words) != len(command) or not all(
            len(w) >= 2 and c.startswith(w) for w, c in zip(words, command, strict=True)
        ):
            continue
        model = _first(data.get("model", []), e.output, "model")
        release = _first(data.get("version", []), e.output, "version")
        if model and release:
            return model, release
        raise InputError(
            f"'{e.typed}' printed no model and release this reader knows ({data.get('source')})",
            file=file,
            line=e.line_no,
        )
    shown = " ".join(command)
    raise InputError(
        f"no '{shown}' in the session: the overlay cites the model it names", file=file
    )


def _first(patterns: list[str], lines: list[str], group: str) -> str | None:
    for pattern in patterns:
        for line in lines:
            m = re.search(pattern, line)
            if m:
                return m.group(group).strip()
    return None


@dataclass
class Walk:
    """Where the typed lines went: config mode and the grammar views entered."""

    grammar: Grammar
    negation: str
    config: bool = False
    stack: list[str] = field(default_factory=list)
    openers: list[str] = field(default_factory=list)  # the line that entered each view
    switched: dict[str, str] = field(default_factory=dict)  # opener -> the view it was set to

    def reset(self, config: bool) -> None:
        self.config, self.stack, self.openers = config, [], []

    def which(self, typed: str) -> tuple[Command | None, bool, int]:
        """The command (or, True, the command whose undo form) ``typed`` is in the current
        view or one above it, and the depth of that view."""
        for depth in range(len(self.stack), -1, -1):
            view = self.stack[depth - 1] if depth else self.grammar.root
            cmd, _ = self.grammar.match(view, typed)
            if cmd is not None:
                return cmd, False, depth
            undo, _ = self.grammar.match(view, typed, undo=True)
            if undo is not None and self.grammar.undone(undo) is not None:
                return self.grammar.undone(undo), True, depth
        return None, False, 0

    def went(self, typed: str, cmd: Command, undo: bool, depth: int) -> None:
        """The views after an accepted line."""
        self.stack, self.openers = self.stack[:depth], self.openers[:depth]
        if undo:
            return
        if cmd.opens:
            self.stack.append(self.switched.get(typed, cmd.opens))
            self.openers.append(typed)
        elif cmd.sets and self.stack:
            self.stack[-1] = self.switched[self.openers[-1]] = cmd.sets
        elif cmd.exits and self.stack:
            self.stack.pop()
            self.openers.pop()


def attempts(
    profile: VendorProfile, grammar: Grammar, found: list[Entry]
) -> tuple[list[Attempt], dict[str, list[str]]]:
    """Every configuration line typed, as the command it is, and the help listings by the
    words asked about."""
    d = profile.dialect
    errors = {*profile.error_patterns, *grammar.errors.values(), d.error}
    walk = Walk(grammar, profile.negation)
    out: list[Attempt] = []
    helps: dict[str, list[str]] = {}
    for i, e in enumerate(found):
        if e.typed.endswith("?"):
            helps[e.typed[:-1].strip()] = listed(e.output, errors)
        elif e.typed in d.enter:
            walk.reset(True)
        elif e.typed in d.leave or (e.typed == d.view_exit and not walk.stack):
            walk.reset(False)
        elif e.typed == d.view_exit:
            walk.stack.pop()
            walk.openers.pop()
        elif walk.config and e.typed:
            cmd, undo, depth = walk.which(e.typed)
            if cmd is None:
                continue
            error = next((ln.strip() for ln in e.output if any(x in ln for x in errors)), None)
            out.append(Attempt(i, e.line_no, cmd, undo, e.typed, error))
            if error is None:
                walk.went(e.typed, cmd, undo, depth)
    return out, helps


def listed(lines: list[str], errors: set[str]) -> list[str]:
    """The tokens a '?' help listing offers: the first word of each line (IOS-style
    '  enable  Enable PFC', '  <0-7>', '  <cr>'; Comware-style 'enable  ...' alike)."""
    if any(x in ln for ln in lines for x in errors):
        return []
    return [ln.split()[0] for ln in lines if ln.strip() and not ln.lstrip().startswith("%")]


def snapshots(profile: VendorProfile, found: list[Entry]) -> list[tuple[int, set[str]]]:
    """(entry position, its lines with spaces collapsed) of each running-config display."""
    shown = profile.dialect.show.running
    return [
        (i, {" ".join(ln.split()) for ln in e.output})
        for i, e in enumerate(found)
        if e.typed == shown
    ]


def _next_shown(snaps: list[tuple[int, set[str]]], index: int) -> set[str] | None:
    return next((lines for i, lines in snaps if i > index), None)


@dataclass
class Finding:
    """What the session says of one command and of its undo form."""

    accepted: str = ""  # the line, accepted and printed
    unprinted: str = ""  # accepted, but the next display did not print it
    refused: str = ""  # 'line' -> "the switch's answer"
    removed: str = ""  # the undo line that took it out
    undo_refused: str = ""
    undo_kept: str = ""  # an undo line accepted, the line still printed


def findings(
    tried: list[Attempt], snaps: list[tuple[int, set[str]]]
) -> dict[str, tuple[Command, Finding]]:
    """Command name -> (command, what the session showed of it)."""
    out: dict[str, tuple[Command, Finding]] = {}
    typed: dict[str, str] = {}
    for a in tried:
        _, f = out.setdefault(a.cmd.name, (a.cmd, Finding()))
        after = _next_shown(snaps, a.index)
        if a.error is not None:
            what = f"'{a.line}' -> \"{a.error}\""
            if a.undo:
                f.undo_refused = f.undo_refused or what
            else:
                f.refused = f.refused or what
        elif not a.undo:
            typed[a.cmd.name] = a.line
            if after is not None and a.line in after:
                f.accepted = f.accepted or a.line
            else:
                f.unprinted = f.unprinted or a.line
        elif a.cmd.name in typed and after is not None:
            gone = typed[a.cmd.name] not in after
            if gone:
                f.removed = f.removed or a.line
            else:
                f.undo_kept = f.undo_kept or a.line
    return out


@dataclass(frozen=True)
class Captured:
    vendor: str
    model: str
    release: str
    date: str
    file: str
    found: dict[str, tuple[Command, Finding]]
    helps: dict[str, list[str]]

    @property
    def cite(self) -> str:
        return f"captured from {self.model} {self.release} on {self.date}"


def read(
    profile: VendorProfile, text: str, file: str, date: str, overlay: Path | None = None
) -> Captured:
    """The session ``text`` (of the file named ``file``) read: what each command met."""
    vendor = profile.vendor.value
    found = entries(text, re.compile(f"(?:{PROMPT}|{profile.dialect.prompts.pattern})"))
    if not found:
        raise InputError(
            f"no {profile.os} prompt: not a session log of {vendor}", file=file, line=1
        )
    model, release = version(found, vendor, file)
    grammar = load_grammar(vendor, overlay)
    tried, helps = attempts(profile, grammar, found)
    if not tried:
        raise InputError(
            f"no configuration line of the {vendor} grammar typed after "
            f"'{profile.dialect.enter[0]}' (was the capture script pasted?)",
            file=file,
            line=found[0].line_no,
        )
    return Captured(
        vendor, model, release, date, file, findings(tried, snaps=snapshots(profile, found)), helps
    )


HEADER = """\
# {vendor}: commands and undo forms confirmed on a switch, read from {file} by
# roce-cfg vendors capture {vendor} --read: {cite}.
# Put this file in an overlay folder as vendors/{vendor}.grammar.yaml and use the folder with
# --vendor-dir (docs/sources.md, "Capture kit"). A command the switch accepted and printed is
# sourced by the capture; one it refused stays unsourced, its answer quoted in 'note'.
"""


def overlay_text(cap: Captured, overlay: Path | None = None) -> str:
    """The overlay grammar file citing the capture (see HEADER)."""
    raw = {str(c.get("name", c.get("syntax"))): c for c in raw_commands(cap.vendor, overlay)}
    entries_ = []
    for name, (cmd, f) in cap.found.items():
        entry = dict(raw[name])
        changed = _command(entry, cmd, f, cap) | _undo(entry, cmd, f, cap)
        if changed:
            entries_.append(entry)
    body = {"commands": entries_}
    text = yaml.safe_dump(body, sort_keys=False, allow_unicode=True, width=100)
    return HEADER.format(vendor=cap.vendor, file=Path(cap.file).name, cite=cap.cite) + text


def _command(entry: dict[str, Any], cmd: Command, f: Finding, cap: Captured) -> bool:
    if cmd.status == "sourced":
        return False
    was = f" (before: {cmd.source})" if cmd.source else ""
    if f.accepted:
        entry.update(status="sourced", source=cap.cite + was)
        entry["note"] = f"'{f.accepted}' accepted, and printed by the running config"
    elif f.unprinted:
        entry.update(status="partial", source=cap.cite + was)
        entry["note"] = f"'{f.unprinted}' accepted; the running config after it did not print it"
    elif f.refused:
        entry["note"] = f"refused ({cap.cite}): {f.refused}" + _help(cap, f.refused)
    else:
        return False
    return True


def _undo(entry: dict[str, Any], cmd: Command, f: Finding, cap: Captured) -> bool:
    if cmd.undo is None or cmd.undo.status == "sourced":
        return False
    if f.removed:
        entry.pop("undo_status", None)
        entry["undo_source"] = cap.cite
        entry["undo_note"] = f"'{f.removed}' accepted, and the running config no longer printed it"
    elif f.undo_kept:
        entry["undo_note"] = f"'{f.undo_kept}' accepted ({cap.cite}), but the line stayed"
    elif f.undo_refused:
        entry["undo_note"] = f"refused ({cap.cite}): {f.undo_refused}" + _help(cap, f.undo_refused)
    else:
        return False
    return True


def _help(cap: Captured, refused: str) -> str:
    """What the switch's help offered after the longest asked-about words the refused line
    begins with."""
    line = refused.split("'")[1]
    asked = [w for w in cap.helps if line.startswith(w + " ") and cap.helps[w]]
    if not asked:
        return ""
    words = max(asked, key=len)
    return f"; its help after '{words}': {' '.join(cap.helps[words])}"


def profile_text(cap: Captured, profile: VendorProfile, overlay: Path | None = None) -> str:
    """The overlay's vendors/<vendor>.yaml: the claim of each section the bundled profile
    grades unverified or partial, raised to what the capture supports now (every command of
    the section sourced: verified; none unsourced: partial); ``generate`` still lowers a claim
    to the grammar's grade per model."""
    status = {c.name: c.status for c in load_grammar(cap.vendor, overlay).commands}
    for name, (cmd, f) in cap.found.items():
        if cmd.status != "sourced":
            status[name] = "sourced" if f.accepted else "partial" if f.unprinted else cmd.status
    by_section: dict[str, list[str]] = {}
    for cmd in load_grammar(cap.vendor, overlay).commands:
        by_section.setdefault(cmd.section, []).append(status[cmd.name])
    sections = {}
    for section, grades in sorted(by_section.items()):
        claim = profile.sections.get(section)
        if claim is None or claim.status not in ("unverified", "partial"):
            continue
        raised = "verified" if set(grades) == {"sourced"} else "partial"
        if "unsourced" in grades or raised == claim.status:
            continue
        note = f"{len(grades)} grammar commands, sourced by this capture or before it"
        sections[section] = {"status": raised, "source": cap.cite, "note": note}
    head = f"# {cap.vendor}: section claims raised by the capture ({cap.cite}).\n"
    return head + yaml.safe_dump({"sections": sections}, sort_keys=False, width=100)


def summary(cap: Captured) -> str:
    """One line: what the capture confirmed and what the switch refused."""
    found = cap.found.values()
    ok = sum(1 for _, f in found if f.accepted)
    undone = sum(1 for _, f in found if f.removed)
    refused = sum(1 for _, f in found if f.refused) + sum(1 for _, f in found if f.undo_refused)
    return f"{ok} commands and {undone} undo forms confirmed, {refused} refused ({cap.cite})"
