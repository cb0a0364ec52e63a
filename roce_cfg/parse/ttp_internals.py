"""What roce-cfg reads of ttp beyond its public API, fenced in one module: ttp's parsed
templates (``ttp._templates``: each template's groups, compiled regexes and variables, which the
own line reader, parse/plain.py, replays without ttp's result engine) and the reader of its last
template (``_ttp_["parser_object"]``), dropped after each config. ttp exports neither: its API
takes templates as text and gives results, nothing of how it read them.

tests/test_parse_plain.py holds the templates read here to ttp's own results over every config
in the repository and over mangled ones; tests/test_parse_ttp_internals.py checks that these are
the templates added, in their order, and that nothing of a config stays reachable from the
parser after it. Run on every ttp of constraints.txt: a change in ttp's internals fails there.
"""

from __future__ import annotations

from typing import Any


def parsed_templates(parser: Any) -> list[Any]:
    """The templates ``parser`` (a ``ttp.ttp``) has read, in the order they were added."""
    templates: list[Any] = parser._templates
    return templates


def drop_last_reader(parser: Any) -> None:
    """Forget the reader of the last template ``parser`` ran: it holds another copy of the
    input (7.7 MB at 100,000 ports) until the next config, through the model's peak."""
    getattr(parser, "_ttp_", {}).pop("parser_object", None)
