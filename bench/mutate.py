"""``python -m bench.mutate``: a mutation run over the fast proofs and the tables beside them.

Each mutant is one small change to one module's syntax tree; the module's own tests run against
it in a fresh interpreter, and a mutant is *killed* when they fail (or time out), *survives*
when they pass. mutmut mutates function bodies only and copies the tree elsewhere; the tables
this run is about (pause quanta per speed, domains) are module-level constants, and the tests
read data beside the package, so mutants are applied here by an import hook instead: nothing on
disk changes, and a subprocess the tests start sees the same mutant.

The operators (each site gives one mutant per listed change):

========== ===============================================================================
cmp        ``<`` ``<=``, ``>`` ``>=``, ``==`` ``!=``, ``in`` ``not in``, ``is`` ``is not`` swapped
minmax     ``min`` and ``max`` swapped
int        an integer constant plus one, and minus one
bool       ``True`` and ``False`` swapped; ``and`` and ``or`` swapped; ``not x`` read as ``x``
arith      ``+`` ``-``, ``*`` ``/``, ``//`` ``/``, ``|`` ``&``, ``<<`` ``>>``; ``-x`` as ``x``
str        a short string (4 characters or fewer, outside an f-string) wrapped in ``XX``
drop       a statement replaced by ``pass`` (not a docstring, a definition or an import)
return     ``return x`` as ``return None``
loop       ``break`` and ``continue`` swapped
========== ===============================================================================

Hypothesis runs derandomized, without its example database and without shrinking, so a run is
reproducible. A mutant whose tests take more than four times the CPU time of the unmutated run
(30 s at least) counts as killed, and the table shows how many did: CPU time, not the clock, so
that a machine busy with other work does not turn a slow survivor into a kill.
Usage::

    python -m bench.mutate                      # all four modules, their tests, the table
    python -m bench.mutate roce_cfg/design/headroom.py --jobs 2 --json out.json
    python -m bench.mutate roce_cfg/deadlock/quick.py --list    # the mutants, not run
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import importlib.abc
import importlib.machinery
import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path
from types import CodeType

ROOT = Path(__file__).resolve().parent.parent
ENV = "ROCE_CFG_MUTANT"  # "<path relative to ROOT>:<mutant index>" in the test interpreter
CPU_ENV = "ROCE_CFG_MUTANT_CPU"  # the test process's CPU-time limit in seconds
COVERAGE_ENV = "ROCE_CFG_MUTANT_COVERAGE"  # the child records which test runs which line
NO_BROWSER = "not real_browser"  # the tests that start chromium (tests/test_deadlock.py)

# Each module and the tests that speak for it, fastest first (the run stops at the first
# failure). The module's own doctests always run: CI runs them (--doctest-modules roce_cfg).
TARGETS: dict[str, list[str]] = {
    "roce_cfg/deadlock/quick.py": [
        "roce_cfg/deadlock/quick.py",
        "tests/test_deadlock_quick_props.py",
        "tests/test_deadlock_quick_mutants.py",
        "tests/test_deadlock_ranked.py",
        "tests/test_deadlock.py",
        "tests/test_deadlock_orbits.py",
        "tests/test_deadlock_lag.py",
    ],
    "roce_cfg/deadlock/cycles.py": [
        "roce_cfg/deadlock/cycles.py",
        "tests/test_deadlock_cycles.py",
        "tests/test_deadlock.py",
        "tests/test_deadlock_orbits.py",
    ],
    "roce_cfg/design/headroom.py": [
        "roce_cfg/design/headroom.py",
        "tests/test_headroom.py",
        "tests/test_headroom_table.py",
        "tests/test_headroom_judged.py",
    ],
    "roce_cfg/model/numbers.py": [
        "roce_cfg/model/numbers.py",
        "tests/test_domains.py",
        "tests/test_numbers_mutants.py",
        "tests/test_numbers_edges.py",
        "tests/test_parse_fast.py",
        "tests/test_model_fast.py",
    ],
}

_CMP: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
}
_ARITH: dict[type[ast.operator], type[ast.operator]] = {
    ast.Add: ast.Sub,
    ast.Sub: ast.Add,
    ast.Mult: ast.Div,
    ast.Div: ast.Mult,
    ast.FloorDiv: ast.Div,
    ast.BitOr: ast.BitAnd,
    ast.BitAnd: ast.BitOr,
    ast.LShift: ast.RShift,
    ast.RShift: ast.LShift,
}


@dataclass(frozen=True)
class Mutant:
    index: int
    line: int
    col: int
    op: str
    what: str
    statement: int  # the first line of the statement holding it
    statement_end: int  # the last line of its header: coverage records the lines holding code
    in_body: bool  # inside a function body: runs when called, not when the module is imported


def _skipped(tree: ast.Module) -> set[int]:
    """Nodes no mutant touches: docstrings, imports, annotations (they do not run)."""
    skip: set[int] = set()

    def all_of(node: ast.AST | None) -> None:
        if node is not None:
            skip.update(id(n) for n in ast.walk(node))

    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            value = body[0].value
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                all_of(body[0])
        if isinstance(node, ast.Import | ast.ImportFrom):
            all_of(node)
        elif isinstance(node, ast.AnnAssign | ast.arg):
            all_of(node.annotation)
        elif isinstance(node, ast.FunctionDef):
            all_of(node.returns)
        elif isinstance(node, ast.JoinedStr):
            skip.update(id(n) for n in ast.walk(node) if isinstance(n, ast.Constant))
        elif isinstance(node, ast.Assign) and _is_alias(node):
            all_of(node)
    return skip


def _is_alias(node: ast.Assign) -> bool:
    """A type alias (``Ranges = tuple[...]``): no value the program computes with."""
    return isinstance(node.value, ast.Subscript) and isinstance(node.value.value, ast.Name)


def _changes(node: ast.AST) -> Iterator[tuple[str, str]]:
    """(operator, description) of each mutant this node gives, in a fixed order."""
    if isinstance(node, ast.Compare):
        for k, op in enumerate(node.ops):
            if type(op) in _CMP:
                yield "cmp", f"{type(op).__name__} -> {_CMP[type(op)].__name__} (#{k})"
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        if node.func.id in ("min", "max"):
            yield "minmax", f"{node.func.id} -> {'max' if node.func.id == 'min' else 'min'}"
    elif isinstance(node, ast.Constant):
        if isinstance(node.value, bool):
            yield "bool", f"{node.value} -> {not node.value}"
        elif isinstance(node.value, int):
            yield "int", f"{node.value} -> {node.value + 1}"
            yield "int", f"{node.value} -> {node.value - 1}"
        elif isinstance(node.value, str) and len(node.value) <= 4:
            yield "str", f"{node.value!r} -> {'XX' + node.value + 'XX'!r}"
    elif isinstance(node, ast.BoolOp):
        yield (
            "bool",
            f"{type(node.op).__name__} -> {'Or' if isinstance(node.op, ast.And) else 'And'}",
        )
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not | ast.USub):
        yield (
            ("bool" if isinstance(node.op, ast.Not) else "arith"),
            f"drop {type(node.op).__name__}",
        )
    elif isinstance(node, ast.BinOp | ast.AugAssign) and type(node.op) in _ARITH:
        yield "arith", f"{type(node.op).__name__} -> {_ARITH[type(node.op)].__name__}"
    elif isinstance(node, ast.Break | ast.Continue):
        yield "loop", f"{type(node).__name__.lower()} -> swapped"
    value = getattr(node, "value", None) if isinstance(node, ast.Return) else None
    if value is not None and not (isinstance(value, ast.Constant) and value.value is None):
        yield "return", "return None"
    if isinstance(node, ast.stmt) and not isinstance(
        node, ast.FunctionDef | ast.ClassDef | ast.Pass | ast.Global | ast.Nonlocal
    ):
        yield "drop", f"drop {type(node).__name__}"


def _sites(tree: ast.Module) -> Iterator[tuple[ast.AST, str, str]]:
    skip = _skipped(tree)
    for node in ast.walk(tree):
        if id(node) not in skip:
            for op, what in _changes(node):
                yield node, op, what


def _header_end(stmt: ast.stmt) -> int:
    """The last line of ``stmt`` before its first inner statement (all of it if it has none).
    A header over several lines (``if (`` alone on the first) may run no code on its first
    line: coverage records only the lines below, so the test map looks at every one."""
    inner = [
        child.lineno
        for field in ("body", "orelse", "finalbody", "handlers")
        for child in getattr(stmt, field, ())
    ]
    return min(inner) - 1 if inner else stmt.end_lineno or stmt.lineno


def _placement(tree: ast.Module) -> dict[int, tuple[int, int, bool]]:
    """Each node's innermost statement's first and last header line, and whether it lies in a
    function body."""
    where: dict[int, tuple[int, int, bool]] = {}

    def visit(stmt: ast.stmt, in_body: bool) -> None:
        for node in ast.walk(stmt):
            where[id(node)] = (stmt.lineno, max(stmt.lineno, _header_end(stmt)), in_body)
        inner = isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef) or in_body
        for field in ("body", "orelse", "finalbody", "handlers"):
            for child in getattr(stmt, field, ()):
                if isinstance(child, ast.ExceptHandler):
                    for grandchild in child.body:
                        visit(grandchild, inner)
                elif isinstance(child, ast.stmt):
                    visit(child, inner)

    for stmt in tree.body:
        visit(stmt, False)
    return where


def mutants(path: Path) -> list[Mutant]:
    tree = ast.parse(path.read_text("utf-8"))
    where = _placement(tree)
    return [
        Mutant(
            k,
            getattr(node, "lineno", 0),
            getattr(node, "col_offset", 0),
            op,
            what,
            *where[id(node)],
        )
        for k, (node, op, what) in enumerate(_sites(tree))
    ]


class _Apply(ast.NodeTransformer):
    """Rebuilds the tree with one site changed (the k-th of ``_sites``)."""

    def __init__(self, target: ast.AST, op: str, what: str) -> None:
        self.target, self.op, self.what = target, op, what

    def visit(self, node: ast.AST) -> ast.AST:
        node = super().visit(node)
        if node is not self.target:
            return node
        return _mutated(node, self.op, self.what)


def _mutated(node: ast.AST, op: str, what: str) -> ast.AST:
    if op == "drop":
        return ast.copy_location(ast.Pass(), node)
    if op == "return":
        assert isinstance(node, ast.Return)
        node.value = ast.Constant(None)
    elif op == "cmp":
        assert isinstance(node, ast.Compare)
        k = int(what.rsplit("#", 1)[1].rstrip(")"))
        node.ops[k] = _CMP[type(node.ops[k])]()
    elif op == "minmax":
        assert isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
        node.func.id = "max" if node.func.id == "min" else "min"
    elif isinstance(node, ast.Constant):
        return _constant(node, what)
    elif isinstance(node, ast.BoolOp):
        node.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
    elif isinstance(node, ast.UnaryOp):
        return node.operand
    elif isinstance(node, ast.BinOp | ast.AugAssign):
        node.op = _ARITH[type(node.op)]()
    elif isinstance(node, ast.Break):
        return ast.copy_location(ast.Continue(), node)
    elif isinstance(node, ast.Continue):
        return ast.copy_location(ast.Break(), node)
    return node


def _constant(node: ast.Constant, what: str) -> ast.Constant:
    value = node.value
    if isinstance(value, bool):
        node.value = not value
    elif isinstance(value, int):
        node.value = value + 1 if what.endswith(f"-> {value + 1}") else value - 1
    elif isinstance(value, str):
        node.value = f"XX{value}XX"
    return node


def mutated_code(path: Path, index: int) -> CodeType:
    tree = ast.parse(path.read_text("utf-8"))
    node, op, what = next(s for k, s in enumerate(_sites(tree)) if k == index)
    tree = ast.fix_missing_locations(_Apply(node, op, what).visit(tree))
    return compile(tree, str(path), "exec")


class _Loader(importlib.machinery.SourceFileLoader):
    def __init__(self, fullname: str, path: str, index: int) -> None:
        super().__init__(fullname, path)
        self.index = index

    def get_code(self, fullname: str) -> CodeType:
        return mutated_code(Path(self.path), self.index)


class _Finder(importlib.abc.MetaPathFinder):
    def __init__(self, module: str, path: Path, index: int) -> None:
        self.module, self.path, self.index = module, path, index

    def find_spec(self, fullname, path=None, target=None):  # type: ignore[no-untyped-def]
        if fullname != self.module:
            return None
        loader = _Loader(fullname, str(self.path), self.index)
        return importlib.util.spec_from_file_location(fullname, self.path, loader=loader)


def install() -> None:
    """In the test interpreter (from sitecustomize): serve the mutant named by ``ENV``."""
    rel, _, index = os.environ[ENV].rpartition(":")
    path = ROOT / rel
    module = rel.removesuffix(".py").replace("/", ".")
    sys.meta_path.insert(0, _Finder(module, path, int(index)))
    _profile()


def _profile() -> None:
    """Hypothesis derandomized, without its database: the coverage run and every mutant's run
    see the same examples."""
    try:
        from hypothesis import Phase, settings
    except ImportError:
        return
    # No shrinking: a failing example kills the mutant as it is; shrinking one can outlast the
    # timeout and would only make the run slower.
    phases = [Phase.explicit, Phase.reuse, Phase.generate]
    settings.register_profile(
        "mutate", database=None, derandomize=True, print_blob=False, phases=phases
    )
    settings.load_profile("mutate")


@dataclass
class Outcome:
    index: int
    line: int
    op: str
    what: str
    source: str
    status: str  # killed, survived, timeout
    seconds: float
    tests: int = -1  # test ids run (the doctests aside); -1: every test file


_SITECUSTOMIZE = f"""import os, sys
if os.environ.get({ENV!r}):
    sys.path.insert(0, {str(ROOT)!r})
    from bench.mutate import install
    install()
"""


def _command(rel: str) -> list[str]:
    """The test run of one module: its doctests, then its test files (those present).

    The doctests run from the module as imported (the mutant): pytest's --doctest-modules
    imports a module by its file, past the import hook, and would test the original."""
    present = [t for t in TARGETS[rel] if t != rel and (ROOT / t).exists()]
    return [sys.executable, "-m", "bench.mutate", "--child", rel, *present]


def _child(rel: str, tests: list[str]) -> int:
    import doctest
    import importlib

    import pytest

    cpu = int(os.environ.get(CPU_ENV, "0"))
    if cpu:  # set here, not by the parent: a fork from a threaded parent must not run Python
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu))
    # a mutant that loops appending (i += 0) fills memory: stop it at 3 GiB
    resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))

    name = rel.removesuffix(".py").replace("/", ".")
    _profile()
    coverage = os.environ.get(COVERAGE_ENV)
    if coverage:  # which test runs which line: the module imported under coverage, no doctests
        # by its folder: a module name makes coverage import it first, and then PyYAML's
        # composer fails in roce_cfg's guarded loader, and a file is no source coverage
        # measures (the map came back empty, and every mutant in a function body was left to
        # the doctests); no coverage floor (pyproject's is for the suite)
        folder = str(Path(rel).parent)
        cov = [f"--cov={folder}", "--cov-context=test", "--cov-report=", "--cov-fail-under=0"]
        args = [*cov, *tests]
        return int(pytest.main(["-q", "-p", "no:cacheprovider", "-k", NO_BROWSER, *args]))
    module = importlib.import_module(name)
    if doctest.testmod(module, report=False).failed:
        return 1
    if not tests:
        return 0
    # a real browser reserves more address space than the memory cap allows and dies (SIGTRAP);
    # what it renders is no fast proof's answer
    return int(pytest.main(["-q", "-x", "-p", "no:cacheprovider", "-k", NO_BROWSER, *tests]))


def _covering(rel: str, cmd: list[str], env: dict[str, str]) -> dict[int, set[str]]:
    """The tests (pytest node ids) that run each line of ``rel``, from one run under coverage
    with a context per test."""
    from coverage import CoverageData

    with tempfile.TemporaryDirectory() as tmp:
        data_file = str(Path(tmp) / "coverage")
        env = {**env, COVERAGE_ENV: "1", "COVERAGE_FILE": data_file}
        proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, check=False)
        if proc.returncode != 0:
            raise SystemExit(f"{rel}: the coverage run failed:\n{proc.stdout.decode()[-2000:]}")
        data = CoverageData(data_file)
        data.read()
        by_line = data.contexts_by_lineno(str(ROOT / rel))
    return {
        line: {c.rsplit("|", 1)[0] for c in contexts if c} for line, contexts in by_line.items()
    }


def _selected(m: Mutant, files: list[str], cover: dict[int, set[str]]) -> list[str]:
    """The tests to run on ``m``: every file for a mutant that runs when the module is imported
    (a constant, a default, a decorator) or only outside the tests, else the tests that run its
    statement (none: only the doctests can see it), in the order of ``files``."""
    lines = [cover[k] for k in range(m.statement, m.statement_end + 1) if k in cover]
    ran = set().union(*lines) if lines else None
    # a statement run only outside any test (at collection: a cached function a parametrize
    # list called first, which the tests then read from its cache) is seen by every file
    if not m.in_body or ran == set():
        return files
    order = {f: k for k, f in enumerate(files)}
    return sorted(ran or (), key=lambda t: (order.get(t.split("::")[0], 0), t))


def _run(cmd: list[str], env: dict[str, str], cpu: int, wall: float) -> tuple[str, float]:
    """Run one test process, its CPU time limited to ``cpu`` seconds: a CPU limit, not a clock,
    so that a machine busy with other work does not turn a slow survivor into a "timeout"."""

    start = time.perf_counter()
    try:
        proc = subprocess.run(
            cmd, cwd=ROOT, env={**env, CPU_ENV: str(cpu)}, timeout=wall, capture_output=True
        )
    except subprocess.TimeoutExpired:
        return "timeout", time.perf_counter() - start
    if proc.returncode == -signal.SIGXCPU:
        return "timeout", time.perf_counter() - start
    status = "survived" if proc.returncode == 0 else "killed"
    return status, time.perf_counter() - start


def _cpu_of_children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_module(rel: str, boot: Path, jobs: int, only: set[int] | None) -> list[Outcome]:
    path = ROOT / rel
    lines = path.read_text("utf-8").splitlines()
    cmd = _command(rel)
    env = {**os.environ, "PYTHONPATH": str(boot), ENV: ""}
    before = _cpu_of_children()
    status, base = _run(cmd, env, 3600, 3600)
    if status != "survived":
        raise SystemExit(f"{rel}: its tests fail without any mutant ({' '.join(cmd)})")
    cpu = int(max(30.0, 4 * (_cpu_of_children() - before)))
    wall = max(900.0, 20 * base)
    cover = _covering(rel, cmd, env)
    files = cmd[cmd.index(rel) + 1 :]
    todo = [m for m in mutants(path) if only is None or m.index in only]

    def one(m: Mutant) -> Outcome:
        tests = _selected(m, files, cover)
        mutant_cmd = [*cmd[: cmd.index(rel) + 1], *tests]
        status, seconds = _run(mutant_cmd, {**env, ENV: f"{rel}:{m.index}"}, cpu, wall)
        source = lines[m.line - 1].strip() if m.line else ""
        n = -1 if tests is files else len(tests)
        print(f"  {rel}:{m.line} #{m.index} {m.op} {m.what}: {status} ({n})", file=sys.stderr)
        return Outcome(m.index, m.line, m.op, m.what, source, status, round(seconds, 2), n)

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(one, todo))


def table(results: dict[str, list[Outcome]]) -> tuple[str, list[str]]:
    """The table, and a line per survivor not argued equivalent."""
    equivalent = _equivalent()
    rows = [
        "| module | mutants | killed (timeout) | survived | equivalent | score |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    left: list[str] = []
    for rel, outs in results.items():
        at = {m.index: m for m in mutants(ROOT / rel)}
        killed = sum(o.status != "survived" for o in outs)
        late = sum(o.status == "timeout" for o in outs)
        n_eq = 0
        for o in outs:
            if o.status != "survived":
                continue
            m = at[o.index]
            assert (m.line, m.what) == (o.line, o.what), f"{rel}: not the source of that run"
            if any(_argued(e, o.source, m) for e in equivalent.get(rel, [])):
                n_eq += 1
            else:
                left.append(
                    f"survived {rel}:{o.line}:{m.col} #{o.index} {o.op} {o.what}   {o.source}"
                )
        judged = len(outs) - n_eq  # the non-equivalent mutants
        score = f"{100 * killed / judged:.1f} %" if judged else "-"
        rows.append(
            f"| {rel} | {len(outs)} | {killed} ({late}) | {judged - killed} | {n_eq} | {score} |"
        )
    return "\n".join(rows), left


def _argued(entry: dict[str, object], source: str, m: Mutant) -> bool:
    return (
        str(entry["at"]) in source and entry["col"] == m.col and entry["what"] == f"{m.op} {m.what}"
    )


def _equivalent() -> dict[str, list[dict[str, object]]]:
    """The mutants argued equivalent, one by one, in bench/mutate-equivalent.yaml: each by a
    piece of its line (``at``), its column and its change, so that the entry holds while the
    line is not edited, whatever else moves."""
    import yaml

    path = ROOT / "bench" / "mutate-equivalent.yaml"
    if not path.exists():
        return {}
    data: dict[str, list[dict[str, object]]] = yaml.safe_load(path.read_text("utf-8")) or {}
    return data


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.mutate", description=__doc__.split("\n")[0])
    ap.add_argument("modules", nargs="*", help="paths under the checkout (default: all)")
    ap.add_argument("--jobs", type=int, default=1, help="mutants tested at once")
    ap.add_argument("--list", action="store_true", help="list the mutants, run nothing")
    ap.add_argument("--only", help="comma-separated mutant indices (one module)")
    ap.add_argument("--json", type=Path, help="write every outcome here")
    ap.add_argument("--table", type=Path, help="print the table of a --json file, run nothing")
    ap.add_argument("--child", help=argparse.SUPPRESS)  # one module's test run (internal)
    args = ap.parse_args(argv)
    if args.child:
        return _child(args.child, args.modules)
    if args.table:
        saved = json.loads(args.table.read_text("utf-8"))
        fields = {f.name for f in dataclasses.fields(Outcome)}
        results = {
            rel: [Outcome(**{k: v for k, v in o.items() if k in fields}) for o in outs]
            for rel, outs in saved.items()
        }
        return _report(results)
    args.modules = args.modules or list(TARGETS)
    unknown = [m for m in args.modules if m not in TARGETS]
    if unknown:
        ap.error(f"not a target: {', '.join(unknown)} (targets: {', '.join(TARGETS)})")
    if args.list:
        for rel in args.modules:
            for m in mutants(ROOT / rel):
                print(f"{rel}:{m.line}:{m.col} #{m.index} {m.op} {m.what}")
        return 0
    only = {int(k) for k in args.only.split(",")} if args.only else None
    results: dict[str, list[Outcome]] = {}
    with tempfile.TemporaryDirectory() as boot:
        (Path(boot) / "sitecustomize.py").write_text(_SITECUSTOMIZE, "utf-8")
        for rel in args.modules:
            results[rel] = run_module(rel, Path(boot), args.jobs, only)
    if args.json:
        out = {rel: [asdict(o) for o in outs] for rel, outs in results.items()}
        args.json.write_text(json.dumps(out, indent=1) + "\n", "utf-8")
    return _report(results)


def _report(results: dict[str, list[Outcome]]) -> int:
    text, left = table(results)
    print(text)
    print("\n".join(left))
    return 0


if __name__ == "__main__":
    sys.exit(main())
