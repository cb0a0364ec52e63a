"""What roce-cfg reads of ttp's internals (roce_cfg/parse/ttp_internals.py), held to what ttp
was given: the parsed templates are the templates added, in their order, and after a config
nothing of it stays reachable from the parser. (tests/test_parse_plain.py holds the templates
read there to ttp's own results.)"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from types import BuiltinFunctionType, FunctionType, MethodType, ModuleType

import pytest

import roce_cfg.parse.templates as templates
from roce_cfg.parse import prepare
from roce_cfg.parse.templates import Runner, template_files
from roce_cfg.parse.ttp_internals import parsed_templates
from roce_cfg.vendor import Vendor
from tests.helpers import ROOT

MARK = "ZQXMARKER"


@pytest.mark.parametrize("vendor", list(Vendor), ids=lambda v: v.value)
def test_the_parsed_templates_are_the_templates_added_in_order(vendor: Vendor) -> None:
    parser = Runner(vendor, None)._parser
    names = [t.name for t in parsed_templates(parser)]
    assert names == list(template_files(vendor, None))
    assert all(t.groups for t in parsed_templates(parser))


def _strings(root: object) -> Iterator[str]:
    """The strings reachable from ``root`` through containers and ttp's own objects."""
    skip = (type, ModuleType, FunctionType, BuiltinFunctionType, MethodType)
    seen: set[int] = set()
    todo = [root]
    while todo:
        one = todo.pop()
        if id(one) in seen or isinstance(one, skip):
            continue
        seen.add(id(one))
        if isinstance(one, str):
            yield one
        elif isinstance(one, dict):
            todo.extend([*one.keys(), *one.values()])
        elif isinstance(one, list | tuple | set | frozenset):
            todo.extend(one)
        elif hasattr(one, "__dict__") and type(one).__module__.startswith("ttp"):
            todo.extend(vars(one).values())


@pytest.mark.parametrize("dropped", [True, False])
def test_nothing_of_a_config_stays_with_the_parser(
    dropped: bool, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A template ttp reads (an overlay's, not of the plain shape: every bundled one is)
    leaves its reader behind holding the input; dropped, the parser holds nothing of the
    config. Not dropped (the check's own test), the config's text is still there."""
    if not dropped:
        monkeypatch.setattr(templates, "drop_last_reader", lambda parser: None)
    own = tmp_path / "templates" / "h3c" / "parse"
    own.mkdir(parents=True)
    joined = '<group name="notes">\nvlan {{ ids | joinmatches }}\n</group>\n'
    (own / "notes.ttp").write_text(joined, encoding="utf-8")
    text = (ROOT / "golden/pod-small-h3c/leaf-1.cfg").read_text("utf-8")
    runner = Runner(Vendor.H3C, tmp_path)
    assert "notes" in runner.run(prepare(text).feed)  # read by ttp
    runner.run(prepare(text.replace("sysname ", f"sysname {MARK}", 1)).feed)
    held = [s for s in _strings(runner._parser) if MARK in s]
    assert (held == []) is dropped
