"""The shape of the code, kept: layers without an import circle, short functions in modules of at
most 500 lines, no module that branches on a vendor or on its CLI layout (vendor differences are
data, vendors/*.yaml), private internals of the standard library and the dependencies touched
only in the fenced modules docs/architecture.md lists, no formatting skipped, one folder reader.

Some guards carry a list of modules not yet meeting them (each empty today); a list only
shrinks: a module that meets the guard fails the test until it leaves its list."""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
from collections.abc import Iterable, Iterator
from functools import cache
from pathlib import Path

import pytest

from tests.helpers import ROOT

PACKAGE = ROOT / "roce_cfg"
LONGEST = 60

# Vendor names, their CLI layouts and netmiko device types: a module that compares against one
# of them branches on the vendor.
NAMES = frozenset(
    {
        *("h3c", "huawei", "ruijie", "zte"),
        *("comware", "vrp", "rgos", "zxros"),
        *("hp_comware", "huawei_vrpv8", "ruijie_os", "zte_zxros"),
    }
)


def _modules() -> Iterator[tuple[str, ast.Module]]:
    for path in sorted(PACKAGE.rglob("*.py")):
        yield path.relative_to(ROOT).as_posix(), ast.parse(path.read_text(encoding="utf-8"))


def test_the_layers_hold_and_no_import_circle() -> None:
    """pyproject.toml's import-linter contracts: each package imports only those below it (so
    no circle), and the rule registry imports no rule module."""
    from importlinter.cli import lint_imports

    assert lint_imports(str(ROOT / "pyproject.toml"), no_cache=True, no_logo=True) == 0


def test_the_layers_contract_lists_every_package() -> None:
    """A new package or top-level module must be placed in a layer (exhaustive contract)."""
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    (layers,) = [c for c in config["tool"]["importlinter"]["contracts"] if c["type"] == "layers"]
    assert layers["exhaustive"] is True
    named = {n.strip() for layer in layers["layers"] for n in layer.split("|")}
    here = {p.stem for p in PACKAGE.glob("*.py") if p.stem != "__init__"}
    here |= {p.parent.name for p in PACKAGE.glob("*/__init__.py")}
    assert named == here


def _long_functions(modules: Iterable[tuple[str, ast.Module]]) -> Iterator[tuple[str, int]]:
    for name, tree in modules:
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                assert node.end_lineno is not None
                lines = node.end_lineno - node.lineno + 1
                if lines > LONGEST:
                    yield f"{name}:{node.name}", lines


@cache
def _formatted() -> tuple[tuple[str, ast.Module], ...]:
    """Every module as the formatter lays it out with no line skipped: a function is as long as
    it reads once formatted, not as long as hand-packed lines make it."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "roce_cfg"
        shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
        for path in copy.rglob("*.py"):
            path.write_text(_SKIP.sub("", path.read_text(encoding="utf-8")), encoding="utf-8")
        config = ["--config", str(ROOT / "pyproject.toml")]
        subprocess.run(
            [sys.executable, "-m", "ruff", "format", "-q", *config, str(copy)], check=True
        )
        return tuple(
            (path.relative_to(tmp).as_posix(), ast.parse(path.read_text(encoding="utf-8")))
            for path in sorted(copy.rglob("*.py"))
        )


_SKIP = re.compile(r"[ \t]*# fmt: skip\b")
# Functions over the limit that the work on their module will shorten: the list only shrinks.
LONG_FOR_NOW: dict[str, int] = {}


def test_no_function_is_longer_than_60_lines() -> None:
    found = dict(_long_functions(_formatted()))
    over = {k: n for k, n in found.items() if n > LONG_FOR_NOW.get(k, LONGEST)}
    assert over == {}, f"longer than {LONGEST} lines, formatted"
    assert set(LONG_FOR_NOW) <= set(found), "shorter now: take it off LONG_FOR_NOW"


def test_the_length_check_sees_a_long_function() -> None:
    def function(lines: int) -> ast.Module:
        body = "\n".join(f"        x{i} = {i}" for i in range(lines - 1))
        return ast.parse(f"class C:\n    def f(self):\n{body}\n")

    assert dict(_long_functions([("m.py", function(LONGEST))])) == {}
    assert dict(_long_functions([("m.py", function(LONGEST + 1))])) == {"m.py:f": LONGEST + 1}


def _names_in(node: ast.AST) -> Iterator[str]:
    for n in ast.walk(node):
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and n.value.lower() in NAMES:
            yield n.value


def _vendor_branches(tree: ast.Module) -> Iterator[str]:
    """Comparisons (==, in, match cases) and dispatch tables keyed by a vendor or layout name."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            yield from (f"line {node.lineno}: {ast.unparse(node)}" for _ in _names_in(node))
        elif isinstance(node, ast.match_case):
            yield from (f"case {v!r}" for v in _names_in(node.pattern))
        elif isinstance(node, ast.Dict):
            for key in (k for k in node.keys if k is not None):
                yield from (f"line {node.lineno}: key {v!r}" for v in _names_in(key))


def test_no_module_branches_on_a_vendor_or_its_layout() -> None:
    found = {name: list(_vendor_branches(tree)) for name, tree in _modules()}
    assert not {name: hits for name, hits in found.items() if hits}


def test_the_vendor_branch_check_sees_each_form() -> None:
    """The check itself: each way of branching on a vendor is caught, data is not."""
    code = """
if profile.cli.layout == "vrp": pass
if vendor in ("h3c", "huawei"): pass
match layout:
    case "rgos": pass
classes = {"ruijie_os": Fast}
names = ["zte"]
"""
    hits = list(_vendor_branches(ast.parse(code)))
    assert len(hits) == 5, hits


# -- module size --------------------------------------------------------------------------------
LONGEST_MODULE = 500
# Modules not yet split (none left); each leaves the list once it is at most LONGEST_MODULE
# lines.
BIG_FOR_NOW: set[str] = set()


def _lines() -> dict[str, int]:
    return {
        path.relative_to(ROOT).as_posix(): len(path.read_text(encoding="utf-8").splitlines())
        for path in sorted(PACKAGE.rglob("*.py"))
    }


def test_no_module_is_longer_than_500_lines() -> None:
    sizes = _lines()
    over = {m: n for m, n in sizes.items() if n > LONGEST_MODULE and m not in BIG_FOR_NOW}
    assert over == {}, f"longer than {LONGEST_MODULE} lines: split along its sections"
    done = {m for m in BIG_FOR_NOW if sizes.get(m, 0) <= LONGEST_MODULE}
    assert done == set(), "split: take it off BIG_FOR_NOW"


def test_an_init_module_holds_no_logic() -> None:
    """A package's __init__.py says what the package holds and exports it; its functions and
    classes live in the package's modules (the ones still holding logic are listed)."""
    logic = {
        name
        for name, tree in _modules()
        if name.endswith("__init__.py")
        if any(isinstance(n, ast.FunctionDef | ast.ClassDef) for n in tree.body)
    }
    assert logic <= INIT_LOGIC_FOR_NOW, "move it into a module of its package"
    assert logic >= INIT_LOGIC_FOR_NOW, "no logic left: take it off INIT_LOGIC_FOR_NOW"


INIT_LOGIC_FOR_NOW: set[str] = set()


# -- private internals ---------------------------------------------------------------------------
# The modules that may touch private internals of the standard library or a dependency, and why
# (docs/architecture.md): each builds what a public path builds, and a test compares the two.
FENCED = {
    # ipaddress's and pydantic's internals, for the model's speed (tests/test_model_fast.py)
    "roce_cfg/model/fast.py",
    # typer's vendored click, which typer does not export (tests/test_cli_clicktypes.py)
    "roce_cfg/cli/clicktypes.py",
    # the stdlib's parse of a regex (re._parser), to prove a template regex reads one line
    # (tests/test_parse_plain.py: the line by line reading against ttp's search of the text)
    "roce_cfg/parse/line_regex.py",
    # ttp's parsed templates and its last template's reader, which ttp does not export
    # (tests/test_parse_ttp_internals.py, tests/test_parse_plain.py: against ttp's results)
    "roce_cfg/parse/ttp_internals.py",
}
# Shortcuts not fenced yet (none left).
PRIVATE_FOR_NOW: set[str] = set()
# Names with a leading underscore that their library documents as public API.
DOCUMENTED = {"_exit", "_asdict", "_replace", "_fields", "_make", "_missing_", "_value_"}
_PYDANTIC = re.compile(r"__pydantic_\w+__")
_PRIVATE_NAME = re.compile(r"_[A-Za-z]\w*")


def _own_attributes(modules: Iterable[tuple[str, ast.Module]]) -> set[str]:
    """The private attribute names roce_cfg defines: set on self or cls, or in a class body."""
    own = set()
    for _, tree in modules:
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
                    own.add(node.attr)
            elif isinstance(node, ast.ClassDef):
                for item in node.body:
                    if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                        own.add(item.name)
                    elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                        own.add(item.target.id)
                    elif isinstance(item, ast.Assign):
                        own.update(n.id for n in item.targets if isinstance(n, ast.Name))
    return {name for name in own if _PRIVATE_NAME.fullmatch(name)}


def _ours(node: ast.expr, modules: set[str]) -> bool:
    """An expression naming roce_cfg's own: self, cls, or a module of roce_cfg imported."""
    return isinstance(node, ast.Name) and (node.id in ("self", "cls") or node.id in modules)


def _private_uses(tree: ast.Module, own: set[str]) -> Iterator[tuple[int, str]]:
    """Each use of another package's private internals: a private module imported (by
    statement or by name), a private attribute roce_cfg does not define read or written on
    an object not its own, pydantic's private fields, an object made or written around its
    class (object.__new__, object.__setattr__)."""
    ours = {
        a.asname or a.name.split(".")[0]
        for n in ast.walk(tree)
        if isinstance(n, ast.Import | ast.ImportFrom)
        if isinstance(n, ast.Import) or (n.module or "").startswith("roce_cfg")
        for a in n.names
        if isinstance(n, ast.ImportFrom) or a.name.startswith("roce_cfg")
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            names = [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            names += [a.name for a in node.names] if isinstance(node, ast.Import) else []
            for name in names:
                parts = name.split(".")
                if parts[0] != "roce_cfg" and any(_PRIVATE_NAME.fullmatch(p) for p in parts):
                    yield node.lineno, f"import {name}"
        elif isinstance(node, ast.Attribute):
            name = node.attr
            if _PYDANTIC.fullmatch(name):
                yield node.lineno, name
            elif (
                _PRIVATE_NAME.fullmatch(name)
                and name not in own | DOCUMENTED
                and not _ours(node.value, ours)
            ):
                yield node.lineno, f".{name}"
        elif isinstance(node, ast.Call):
            yield from _private_call(node, own)
        elif isinstance(node, ast.Constant) and _PYDANTIC.fullmatch(str(node.value)):
            yield node.lineno, repr(node.value)


def _private_call(node: ast.Call, own: set[str]) -> Iterator[tuple[int, str]]:
    """object.__new__ and object.__setattr__; a private name read by getattr and its kin,
    or a private module imported by name."""
    text = ast.unparse(node.func)
    if text in ("object.__new__", "object.__setattr__"):
        yield node.lineno, text
    named = {"getattr": 1, "setattr": 1, "hasattr": 1, "importlib.import_module": 0}
    if text not in named:
        return
    for arg in node.args[named[text] :]:
        value = arg.value if isinstance(arg, ast.Constant) else None
        parts = value.split(".") if isinstance(value, str) else []
        if any(_PRIVATE_NAME.fullmatch(p) for p in parts) and value not in own:
            yield node.lineno, f"{text}({value!r})"


def _private_by_module() -> dict[str, list[tuple[int, str]]]:
    modules = list(_modules())
    own = _own_attributes(modules)
    found = {name: sorted(set(_private_uses(tree, own))) for name, tree in modules}
    return {name: uses for name, uses in found.items() if uses}


def test_private_internals_only_in_the_fenced_modules() -> None:
    found = _private_by_module()
    outside = {m: uses for m, uses in found.items() if m not in FENCED | PRIVATE_FOR_NOW}
    assert outside == {}, "behind a fenced module (docs/architecture.md), with its test"
    assert set(found) >= PRIVATE_FOR_NOW, "none left: take it off PRIVATE_FOR_NOW"


def test_the_private_check_sees_each_form() -> None:
    code = """
from typer._click import core
import yaml._yaml
import importlib
importlib.import_module("re._parser")
net._prefixlen = 24
IPv4Network._make_netmask(24)
object.__setattr__(model, "__pydantic_fields_set__", given)
model.__pydantic_extra__
getattr(parser, "_ttp_", {})
self._mine = 1
self._mine.read()
os._exit(0)
"""
    uses = [why for _, why in _private_uses(ast.parse(code), {"_mine"})]
    assert uses.count("object.__setattr__") == 1
    assert {
        "import typer._click",
        "import yaml._yaml",
        "importlib.import_module('re._parser')",
        "._prefixlen",
        "._make_netmask",
        "'__pydantic_fields_set__'",
        "__pydantic_extra__",
        "getattr('_ttp_')",
    } <= set(uses)
    assert not any("_mine" in u or "_exit" in u for u in uses)


# -- formatting ---------------------------------------------------------------------------------
# Where the formatter would harm a table of data, a line may keep '# fmt: skip' (module: why).
DATA_TABLES: dict[str, str] = {}
# Modules not yet reformatted (none left).
SKIPS_FOR_NOW: set[str] = set()


def test_no_formatting_is_skipped() -> None:
    skipped = {
        path.relative_to(ROOT).as_posix()
        for path in sorted(PACKAGE.rglob("*.py"))
        if _SKIP.search(path.read_text(encoding="utf-8"))
    }
    assert skipped - SKIPS_FOR_NOW - set(DATA_TABLES) == set(), "let the formatter lay it out"
    assert skipped >= SKIPS_FOR_NOW, "none left: take it off SKIPS_FOR_NOW"


# -- import circles -----------------------------------------------------------------------------
# Circles not yet opened (none left).
CIRCLES_FOR_NOW: set[frozenset[str]] = set()


def _circles(edges: dict[str, set[str]]) -> set[frozenset[str]]:
    """The import graph's strongly connected parts of more than one module (Tarjan's)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: set[frozenset[str]] = set()

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = {stack.pop()}
            while v not in part:
                part.add(stack.pop())
            if len(part) > 1:
                found.add(frozenset(part))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_no_import_circle_between_modules() -> None:
    """Imports made only for type checking count too: a circle for types is still one the
    reader must hold in mind (import-linter's layers see packages, not modules within one)."""
    import grimp

    graph = grimp.build_graph("roce_cfg", cache_dir=None)
    edges = {m: set(graph.find_modules_directly_imported_by(m)) for m in graph.modules}
    circles = _circles(edges)
    assert circles - CIRCLES_FOR_NOW == set(), "name what one side needs as a Protocol"
    assert circles >= CIRCLES_FOR_NOW, "opened: take it off CIRCLES_FOR_NOW"


def test_the_circle_check_sees_a_circle() -> None:
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _circles(edges) == {frozenset("abc")}
    assert _circles({"a": {"b"}, "b": set()}) == set()


# -- one folder reader --------------------------------------------------------------------------
# Who runs the parse workers over a folder's files (parse/many.py): inputs.reading, the one
# folder reader.
FOLDER_READERS = {"roce_cfg/inputs.py"}
# Who reads a folder through inputs.reading: lint, deadlock, verify, and parse (parsed_configs).
READING_CALLERS = {
    "roce_cfg/inputs.py",
    "roce_cfg/analysis/run.py",
    "roce_cfg/deadlock/source.py",
    "roce_cfg/verify/run.py",
}


def _callers(names: set[str]) -> set[str]:
    return {
        module
        for module, tree in _modules()
        if not module.startswith("roce_cfg/parse/")
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        if (node.func.attr if isinstance(node.func, ast.Attribute) else ast.unparse(node.func))
        in names
    }


@pytest.mark.parametrize(
    ("names", "listed"),
    [
        ({"screen_each", "parse_each", "parse_many"}, FOLDER_READERS),
        ({"reading"}, READING_CALLERS),
    ],
)
def test_one_folder_reader(names: set[str], listed: set[str]) -> None:
    assert _callers(names) == listed


# -- comments -----------------------------------------------------------------------------------
_ISSUE = re.compile(r"\b[Ii]ssues? \d+")
# Modules whose comments still cite an issue number for their reason (none left).
ISSUE_CITES_FOR_NOW: set[str] = set()


def test_comments_say_why_not_which_issue() -> None:
    citing = {
        path.relative_to(ROOT).as_posix()
        for path in sorted(PACKAGE.rglob("*.py"))
        if _ISSUE.search(path.read_text(encoding="utf-8"))
    }
    assert citing - ISSUE_CITES_FOR_NOW == set(), "say the reason the issue gave"
    assert citing >= ISSUE_CITES_FOR_NOW, "none left: take it off ISSUE_CITES_FOR_NOW"
