"""The undo forms no source documents, per vendor, and an overlay that can cite them.

``push --strict-syntax`` sends nothing when a change, or the rollback of one, would type a
negation no source documents. On Ruijie and ZTE, whose lossless commands no public page
prints, that is most changes. Whoever has the vendor's manual or a switch to try the forms on
can confirm each one and cite it in an overlay (docs/sources.md, "Undo forms no source prints"):
``skeleton`` writes that overlay's grammar file with every gap in it, each entry a copy of the
bundled command with the form remediation types today and an empty ``undo_source``, so it
changes nothing until its form is confirmed and cited."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from roce_cfg.grammar.load import load_grammar, raw_commands


@dataclass(frozen=True)
class Gap:
    """A command whose undo form no source documents."""

    vendor: str
    section: str
    command: str
    views: tuple[str, ...]
    typed: str  # the form remediation types (the negation word before the syntax by default)
    note: str
    whole: bool  # the negation word before the whole line (the grammar's undo_default)

    def as_dict(self) -> dict[str, Any]:
        return {
            "vendor": self.vendor,
            "section": self.section,
            "command": self.command,
            "views": list(self.views),
            "typed": self.typed,
            "whole_line": self.whole,
            "note": self.note,
        }


def gaps(vendor: str, overlay: Path | None = None) -> list[Gap]:
    """The commands of ``vendor`` (merged with ``overlay``) whose undo form is unsourced."""
    out = []
    for c in load_grammar(vendor, overlay).commands:
        undo = c.undo
        if undo is not None and undo.status == "unsourced":
            whole = undo.prefix is not None
            out.append(Gap(vendor, c.section, c.name, c.views, undo.forms[0], undo.note, whole))
    return out


HEADER = """\
# {vendor}: the commands whose undo form no source documents (roce-cfg vendors --undo-gaps).
# Put this file in an overlay folder as vendors/{vendor}.grammar.yaml and use the folder with
# --vendor-dir. For each form you confirm (the manual's page for the command, or the switch's
# own '?' help after the negation), set 'undo_source' to "[YOUR-TAG] <the page or capture>"
# and describe YOUR-TAG under 'sources' (document, release, page; or: captured from <model>
# <version> on <date>). An entry without 'undo' is negated with the negation word ('no',
# 'undo') before the whole line: citing that is enough when the switch takes it; when it takes
# another form, write that form in 'undo' (the notation of 'syntax': '<name>' is the line's
# value of that parameter).
# An entry left without undo_source stays unsourced, and push --strict-syntax keeps refusing
# it; delete the entries you leave alone, or keep them: as written they change nothing.
"""


def skeleton(vendor: str, overlay: Path | None = None) -> str:
    """An overlay grammar file listing every gap of ``vendor``, uncited (see the module)."""
    raw = {str(c.get("name", c.get("syntax"))): c for c in raw_commands(vendor, overlay)}
    entries = []
    for gap in gaps(vendor, overlay):
        entry = {k: v for k, v in raw[gap.command].items() if k != "undo_status"}
        entry["undo_source"] = ""
        entries.append(entry)
    body = {"sources": {}, "commands": entries}
    text = yaml.safe_dump(body, sort_keys=False, allow_unicode=True, width=100)
    return HEADER.format(vendor=vendor) + text
