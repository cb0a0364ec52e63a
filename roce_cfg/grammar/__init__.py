"""Per-vendor CLI grammar (``vendors/<vendor>.grammar.yaml``) and the checker of rendered lines.

A grammar lists every command roce-cfg emits, reads or negates: the view it is typed in, its
syntax with typed parameters and ranges, the models that support it, the view it opens, its undo
form, its default and its source (or ``unsourced``). The checker walks a rendered config the way
the switch's CLI would — a block opener enters a view, a separator or a shallower line leaves it —
and refuses a line no command of its view accepts, a value out of range, or a command the model
is documented not to support.

Syntax notation (a subset of the vendors' own): literal words; ``<name:type>`` parameters with
``type`` one of ``int`` (``int 0-7``, ``int 10|100``), ``word``, ``text`` (rest of the line),
``ipv4``, ``mask``, ``vlans`` (a VLAN list such as ``101 to 104 200``); ``<name:type>+`` for one
or more; ``{ a | b }`` alternatives; ``[ ... ]`` optional parts.

Undo forms are written in the same notation, per command, from the source that documents them
(``undo``, ``undo_source``, ``undo_status``). The first form is the one remediation types; all of
them are what an emulator accepts. An undo form removes the command's lines whose values agree
with it (``undo queue 3`` every ``queue 3 ...`` threshold line, not ``queue 3 ecn``), and the
lines of the commands it names in ``undo_takes`` (Huawei's ``undo peer <ip>`` takes the peer's
description and its ``peer <ip> enable`` in the address family).
"""

from roce_cfg.grammar.checker import Grammar
from roce_cfg.grammar.commands import STATUSES, Checked, Command, Undo, Unmanaged, Violation
from roce_cfg.grammar.grades import SectionGrade, grade, section_grades
from roce_cfg.grammar.load import defaults, grammar_path, line_by_line, load_grammar
from roce_cfg.grammar.replay import REPLAY_CHARS, pattern_blind, shape
from roce_cfg.grammar.syntax import GrammarError, Param, compile_syntax, render_syntax, rule_kind

__all__ = [
    "REPLAY_CHARS",
    "STATUSES",
    "Checked",
    "Command",
    "Grammar",
    "GrammarError",
    "Param",
    "SectionGrade",
    "Undo",
    "Unmanaged",
    "Violation",
    "compile_syntax",
    "defaults",
    "grade",
    "grammar_path",
    "line_by_line",
    "load_grammar",
    "pattern_blind",
    "render_syntax",
    "rule_kind",
    "section_grades",
    "shape",
]
