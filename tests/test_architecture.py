"""The shape of the code, kept: layers without an import circle, short functions, and no module
that branches on a vendor or on its CLI layout (vendor differences are data, vendors/*.yaml)."""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator

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


def test_no_function_is_longer_than_60_lines() -> None:
    assert dict(_long_functions(_modules())) == {}, f"longer than {LONGEST} lines"


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
