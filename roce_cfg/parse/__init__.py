"""Read saved running-configs back into the vendor-neutral DeviceConfig.

``parse_text`` cleans the text (pager residue, CRLF, wrapped lines), detects the vendor, splits
it into top-level blocks, runs the vendor's ttp templates over the blocks it knows and keeps the
rest as opaque text, then normalises units, names and ranges with the vendor profile.

The stages, each in its module: ``prepared`` (clean, ``detection`` of the vendor, blocks, the
values outside the grammar's range), ``accounting`` (every line understood, unmanaged or
unread), ``templates`` (ttp and the own line reader, ``plain``), ``finished`` (the switch model
from ``model_choice``, then ``normalise`` and its readers over the ``context``), ``run`` (the
stages in order, for a text or a file). ``result`` and ``parsed`` hold what a parse gives,
``source`` where things are in the file, ``wire`` how a parse worker sends a parse back;
``many`` parses a folder's files in workers, ``cache`` keeps their parses. This module only
names what the package exports.
"""

from __future__ import annotations

from roce_cfg.parse.context import Context, Role, Unread, Unreadable
from roce_cfg.parse.detection import SAMPLE_HEAD, SAMPLE_TAIL, detect, other_vendor
from roce_cfg.parse.finished import finish, redacted
from roce_cfg.parse.model_choice import UNKNOWN_MODEL
from roce_cfg.parse.parsed import Hints, Parsed, applied_hint, hint_name
from roce_cfg.parse.prepared import MAX_RESIDUE, Prepared, prepare
from roce_cfg.parse.result import FORMAT, OpaqueBlock, ParsedConfig, UnreadLine
from roce_cfg.parse.run import (
    GC_AFTER_TEMPLATES,
    line_sections,
    parse_file,
    parse_text,
    read_capped,
    read_config,
    read_templates,
    read_where,
)
from roce_cfg.parse.source import SourceMap

__all__ = [
    "FORMAT",
    "GC_AFTER_TEMPLATES",
    "MAX_RESIDUE",
    "SAMPLE_HEAD",
    "SAMPLE_TAIL",
    "UNKNOWN_MODEL",
    "Context",
    "Hints",
    "OpaqueBlock",
    "Parsed",
    "ParsedConfig",
    "Prepared",
    "Role",
    "SourceMap",
    "Unread",
    "UnreadLine",
    "Unreadable",
    "applied_hint",
    "detect",
    "finish",
    "hint_name",
    "line_sections",
    "other_vendor",
    "parse_file",
    "parse_text",
    "prepare",
    "read_capped",
    "read_config",
    "read_templates",
    "read_where",
    "redacted",
]
