"""Fuzzing every entry point that reads a user's file, in-process, one bounded case at a time.

Cases are hypothesis strategies: mutations of the bundled intents and configs (a value swapped
for an edge value, lines dropped, doubled or re-indented, bytes inserted, the file cut short)
and hostile shapes (recursive and billion-laughs aliases, deep nesting, huge integers and lists,
endless lines, binary data). Each case must end with exit code 0, 1 or 2, without an unhandled
exception, within ``MAX_SECONDS`` of CPU and ``MAX_MB`` of peak memory growth.

``python -m bench fuzz --cases N [--target T]`` is the long mode: it records figures per target
and keeps every failing input under tests/fuzz/regressions/<target>/ (replayed by the suite).
tests/fuzz/test_fuzz.py runs a short, deterministic pass of every target.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import logging
import os
import resource
import shutil
import signal
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parent.parent
REGRESSIONS = ROOT / "tests" / "fuzz" / "regressions"
MAX_SECONDS = 5.0
MAX_MB = 256.0
HARD_STOP_S = 60  # a case still running after this is stopped and counted as a failure

INTENT_SEEDS = [
    *sorted((ROOT / "examples").glob("*.yaml")),
    *sorted((ROOT / "tests" / "scenarios").glob("*.yaml")),
    ROOT / "bench" / "fabric-small.yaml",
]
CONFIG_SEEDS = [
    *sorted((ROOT / "tests" / "parse").glob("*/*.cfg")),
    *(ROOT / "golden" / f"pod-small-{v}" / n for v in ("h3c", "huawei", "ruijie", "zte")
      for n in ("leaf-1.cfg", "spine-1.cfg")),
]  # fmt: skip
DEADLOCK_FOLDER = ROOT / "golden" / "pod-small-zte"
# The mutated leaf-1 with one other leaf and two spines: routing, ECMP and cycles across the
# mutated switch all still happen, without parsing eight unchanged switches in every case.
DEADLOCK_PEERS = ["leaf-2.cfg", "spine-1.cfg", "spine-2.cfg"]
INVENTORY_SEED = b"""\
defaults:
  port: 22
  data: {vendor: h3c}
groups:
  spines:
    platform: huawei_vrpv8
    data: {vendor: huawei}
hosts:
  leaf-1: {hostname: 127.0.0.1, port: 2201}
  leaf-2: {hostname: 127.0.0.1, port: 2202, groups: [spines]}
  spine-1: {hostname: 10.0.0.1, platform: hp_comware}
"""
SUPPRESSIONS_SEED = b"""\
ignore:
  - rule: RC204
    device: leaf-*
    reason: default PFC watchdog is enough on leaves
  - rule: RC101
    device: spine-1
    port: HundredGigE1/0/*
    reason: lab spine
"""


# -- inputs ---------------------------------------------------------------------------------

EDGE_VALUES = [
    "0", "-1", "1", "2", "7", "65536", "4294967296", "99999999999999999999999", "9" * 4301,
    "-" + "9" * 30, "1e999", "-.inf", ".nan", "0x7fffffff", "0o777", "1_000", "3.5", "''",
    "null", "~", "yes", "no", "[]", "{}", "[1, 2, 3]", "{a: 1}", "2024-13-45", "2024-01-01",
    "!!binary AAAA", "!!int abc", "!!float x", "!!python/object:os.system ''", "!!set {a}",
    "&a x", "*a", "*undefined", "<<: *a", "\x01", "\x7f", "caf\xe9", "\u202e", "\ufeff",
    "'unterminated", '"\\x00"', "|", ">-", "A" * 10_000, "400G", "0G", "-400G", "10.0.0.0/33",
    "999.1.1.1/24", "10.0.0.0/0", "auto", "drop", "forward", "leaf-spine", "single-switch",
    "h3c", "huawei", "ruijie", "zte", "ELF\x00",
]  # fmt: skip


def _bomb(kind: str, n: int) -> bytes:
    if kind == "recursive":
        return b"a: &x [*x]\n"
    if kind == "recursive-map":
        return b"a: &x {b: *x}\n"
    if kind == "laughs":
        lines = ['l0: &l0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
        lines += [
            f"l{i}: &l{i} [" + ",".join([f"*l{i - 1}"] * 10) + "]" for i in range(1, n % 9 + 2)
        ]
        return ("\n".join(lines) + "\n").encode()
    if kind == "deep-list":
        return b"a: " + b"[" * n + b"]" * n + b"\n"
    if kind == "deep-map":
        return b"a: " + b"{a: " * n + b"1" + b"}" * n + b"\n"
    if kind == "deep-indent":
        return b"".join(b" " * i + b"k:\n" for i in range(n)) + b" " * n + b"v\n"
    if kind == "long-list":
        return b"a: [" + b",".join([b"1"] * (n * 50)) + b"]\n"
    if kind == "long-map":
        return b"a:\n" + b"".join(b"  k%d: %d\n" % (i, i) for i in range(n * 20))
    return b"a: " + b"x" * (n * 1000) + b"\n"  # long-line


BOMBS = ["recursive", "recursive-map", "laughs", "deep-list", "deep-map", "deep-indent",
         "long-list", "long-map", "long-line"]  # fmt: skip


@st.composite
def _yaml_mutation(draw: st.DrawFn, text: bytes) -> bytes:
    lines = text.split(b"\n") or [b""]
    op = draw(
        st.sampled_from(
            ["value", "value", "value", "drop", "dup", "indent", "insert", "bytes", "cut"]
        )
    )
    i = draw(st.integers(0, max(0, len(lines) - 1)))
    line = lines[i] if lines else b""
    if op == "value":
        head, sep, _ = line.partition(b":")
        new = draw(st.one_of(st.sampled_from(EDGE_VALUES), st.text(max_size=40)))
        if sep:
            lines[i] = head + b": " + new.encode("utf-8", "surrogatepass")
        else:
            lines[i] = line + b" " + new.encode("utf-8", "surrogatepass")
    elif op == "drop" and lines:
        del lines[i]
    elif op == "dup":
        lines[i:i] = [line] * draw(st.integers(1, 50))
    elif op == "indent":
        lines[i] = b" " * draw(st.integers(0, 12)) + line.lstrip()
    elif op == "insert":
        lines.insert(i, draw(st.text(max_size=60)).encode("utf-8", "surrogatepass"))
    elif op == "bytes":
        blob = draw(st.binary(min_size=1, max_size=8))
        at = draw(st.integers(0, len(line)))
        lines[i] = line[:at] + blob + line[at:]
    else:
        return text[: draw(st.integers(0, len(text)))]
    return b"\n".join(lines)


@st.composite
def yaml_case(draw: st.DrawFn, seeds: list[bytes]) -> bytes:
    """A seed YAML with 1-4 mutations, or a hostile shape (alone or appended to a seed)."""
    text = draw(st.sampled_from(seeds))
    if draw(st.integers(0, 9)) == 0:
        bomb = _bomb(draw(st.sampled_from(BOMBS)), draw(st.integers(1, 3000)))
        return bomb if draw(st.booleans()) else text + b"\n" + bomb
    for _ in range(draw(st.integers(1, 4))):
        text = draw(_yaml_mutation(text))
    return text


CONFIG_JUNK = [
    b"\x00\x01\x02\x03" * 64, b"\x1b[42D", b"  ---- More ----\x1b[16D                \x1b[16D",
    b"\xff\xfe\xfd", "\u63cf\u8ff0".encode("gb18030"), b"\r\n", b"\t", b"#", b"!", b"$",
    b"interface", b"quit", b"exit", b"return", b"end", b" " * 4000 + b"x",
    b"x" * 2_000_000, b"description " + b"\xe4" * 300,
]  # fmt: skip


GROW_TO = 150_000  # lines; the per-file cap is 100,000
GROW_BYTES = 24 << 20  # the per-file cap is 16 MiB


@st.composite
def config_case(draw: st.DrawFn, seeds: list[bytes]) -> bytes:
    """A seed running-config with 1-6 mutations."""
    lines = draw(st.sampled_from(seeds)).split(b"\n")
    for _ in range(draw(st.integers(1, 6))):
        lines = lines or [b""]
        op = draw(
            st.sampled_from(
                ["drop", "dup", "insert", "junk", "number", "indent", "deep", "cut", "repeat"]
            )
        )
        i = draw(st.integers(0, max(0, len(lines) - 1)))
        line = lines[i] if lines else b""
        if op == "drop" and lines:
            del lines[i : i + draw(st.integers(1, 20))]
        elif op == "dup":
            lines[i:i] = lines[i : i + draw(st.integers(1, 30))] * draw(st.integers(1, 5))
        elif op == "insert":
            lines.insert(i, draw(st.text(max_size=80)).encode("utf-8", "surrogatepass"))
        elif op == "junk":
            blob = draw(st.one_of(st.sampled_from(CONFIG_JUNK), st.binary(max_size=32)))
            at = draw(st.integers(0, len(line)))
            lines[i] = line[:at] + blob + line[at:]
        elif op == "number":
            num = draw(st.sampled_from([b"0", b"-1", b"9" * 4400, b"4294967296", b"65536"]))
            lines[i] = (
                bytes(b if not chr(b).isdigit() else 0 for b in line)
                .replace(b"\x00", num, 1)
                .replace(b"\x00", b"")
            )
        elif op == "indent":
            lines[i] = b" " * draw(st.integers(0, 40)) + line.lstrip()
        elif op == "deep":
            n = draw(st.integers(10, 5000))
            lines[i:i] = [b" " * k + b"interface x" for k in range(0, n, max(1, n // 200))]
        elif op == "cut":
            lines = lines[: draw(st.integers(0, len(lines)))]
        else:
            # Up to just past the line cap: enough to test it, never the harness's own memory.
            times = draw(st.integers(2, 40))
            lines = lines * max(1, min(times, GROW_TO // max(1, len(lines))))
        if sum(map(len, lines)) > GROW_BYTES:
            break
    return b"\n".join(lines)


# -- targets --------------------------------------------------------------------------------

Case = tuple[str, bytes]  # (what the bytes are for, the bytes)


@dataclass
class Outcome:
    code: int | None  # None: an exception escaped
    error: str = ""
    output: str = ""  # what the command printed (stdout), for targets that judge it
    violation: str = ""  # a target's own verdict (bench/semfuzz.py): a read or write outside
    # its folder, an out-of-domain value not reported
    allowed: tuple[int, ...] = (0, 1, 2)  # push adds 3: a switch failed (here: unreachable)


_COMMAND: list[object] = []


def _cli(args: list[str]) -> Outcome:
    import typer.testing
    from typer.main import get_command

    from roce_cfg.cli import app

    if not _COMMAND:
        _COMMAND.append(get_command(app))
        # typer's CliRunner rebuilds the click command from the app on every invoke: half of a
        # parse case's time. The command is the same every time, so build it once (for this
        # app only: the suite runs in the same process as other CliRunner users).
        build = typer.testing._get_command  # type: ignore[attr-defined]
        typer.testing._get_command = lambda a: _COMMAND[0] if a is app else build(a)  # type: ignore[attr-defined]
    result = typer.testing.CliRunner().invoke(app, args)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        exc = result.exception
        tb = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
        return Outcome(None, tb)
    if "Traceback" in result.output:
        return Outcome(None, result.output)
    return Outcome(result.exit_code, output=result.stdout)


def _call(fn: Callable[[], object]) -> Outcome:
    from roce_cfg.errors import RoceCfgError

    try:
        fn()
    except RoceCfgError:
        return Outcome(2)  # what the CLI turns into one line and exit 2
    except Exception as exc:
        return Outcome(None, "".join(traceback.format_exception(type(exc), exc, exc.__traceback__)))
    return Outcome(0)


def _intent(case: Case, tmp: Path) -> Outcome:
    from roce_cfg.intent.loader import load_intent

    path = tmp / "intent.yaml"
    path.write_bytes(case[1])
    return _call(lambda: load_intent(path))


def _generate(case: Case, tmp: Path) -> Outcome:
    path = tmp / "intent.yaml"
    path.write_bytes(case[1])
    return _cli(["generate", str(path), "-o", str(tmp / "out")])


def _parse(case: Case, tmp: Path) -> Outcome:
    path = tmp / "switch.cfg"
    path.write_bytes(case[1])
    return _cli(["parse", str(path)])


def _lint(case: Case, tmp: Path) -> Outcome:
    path = tmp / "switch.cfg"
    path.write_bytes(case[1])
    return _cli(["lint", str(path), "--format", "json"])


def _deadlock(case: Case, tmp: Path) -> Outcome:
    kind, data = case
    if kind == "intent":
        path = tmp / "intent.yaml"
        path.write_bytes(data)
        return _cli(["deadlock", str(path), "--format", "json"])
    folder = tmp / "configs"
    folder.mkdir()
    for name in DEADLOCK_PEERS:
        shutil.copyfile(DEADLOCK_FOLDER / name, folder / name)
    (folder / "leaf-1.cfg").write_bytes(data)
    return _cli(["deadlock", str(folder), "--format", "json"])


def _inventory(case: Case, tmp: Path) -> Outcome:
    from roce_cfg.deploy.inventory import load

    path = tmp / "inventory.yaml"
    path.write_bytes(case[1])
    return _call(lambda: load(path))


def _suppressions(case: Case, tmp: Path) -> Outcome:
    from roce_cfg.analysis.registry import rules
    from roce_cfg.analysis.suppress import load

    path = tmp / ".roce-cfg.yaml"
    path.write_bytes(case[1])
    known = {r.id for r in rules()}
    return _call(lambda: load(path, known))


@dataclass(frozen=True)
class Target:
    run: Callable[[Case, Path], Outcome]
    cases: Callable[[], st.SearchStrategy[Case]]
    # Cases in the suite's short run: a few hundred per target (the bar), 1,700 in all.
    short: int


class Seeds(list[bytes]):
    """Seed files; a short repr keeps hypothesis's reports readable."""

    def __repr__(self) -> str:
        return f"<{len(self)} seed files>"


def _read(paths: list[Path]) -> Seeds:
    return Seeds(p.read_bytes() for p in paths)


def _intents() -> st.SearchStrategy[Case]:
    return yaml_case(_read(INTENT_SEEDS)).map(lambda b: ("intent", b))


def _small_intents() -> st.SearchStrategy[Case]:
    # generate and deadlock design whole fabrics: seeds of a few switches keep a case short.
    small = [ROOT / "examples" / "single-switch.yaml", ROOT / "examples" / "pod-small.yaml"]
    return yaml_case(_read(small)).map(lambda b: ("intent", b))


def _configs() -> st.SearchStrategy[Case]:
    return config_case(_read(CONFIG_SEEDS)).map(lambda b: ("config", b))


def _yaml_of(text: bytes) -> st.SearchStrategy[Case]:
    return yaml_case(Seeds([text])).map(lambda b: ("yaml", b))


def _deadlock_cases() -> st.SearchStrategy[Case]:
    folder = config_case(_read([DEADLOCK_FOLDER / "leaf-1.cfg"]))
    return st.one_of(_small_intents(), folder.map(lambda b: ("config", b)))


TARGETS: dict[str, Target] = {
    "intent": Target(_intent, _intents, 300),
    "generate": Target(_generate, _small_intents, 200),
    "parse": Target(_parse, _configs, 200),
    "lint": Target(_lint, _configs, 200),
    "deadlock": Target(_deadlock, _deadlock_cases, 200),
    "inventory": Target(_inventory, lambda: _yaml_of(INVENTORY_SEED), 300),
    "suppressions": Target(_suppressions, lambda: _yaml_of(SUPPRESSIONS_SEED), 300),
}  # fmt: skip


# -- one bounded case -----------------------------------------------------------------------


@dataclass
class Measured:
    target: str
    case: Case
    outcome: Outcome
    cpu_s: float
    wall_s: float
    peak_mb: float

    @property
    def problem(self) -> str | None:
        if self.outcome.code is None:
            return "unhandled exception:\n" + self.outcome.error
        if self.outcome.violation:
            return "violation: " + self.outcome.violation
        if self.outcome.code not in self.outcome.allowed:
            return f"exit code {self.outcome.code}"
        if self.cpu_s > MAX_SECONDS:
            return f"took {self.cpu_s:.1f} s of CPU (limit {MAX_SECONDS})"
        if self.peak_mb > MAX_MB:
            return f"peak memory grew {self.peak_mb:.0f} MB (limit {MAX_MB:.0f})"
        return None


def _status_kb(field_name: str) -> int:
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith(field_name + ":"):
                return int(line.split()[1])
    return 0


def _reset_peak() -> bool:
    """Reset the kernel's peak-RSS mark (VmHWM), so the peak after a case is that case's."""
    try:
        with open("/proc/self/clear_refs", "w") as fh:
            fh.write("5")
        return True
    except OSError:
        return False


class _Stop(Exception):
    pass


@contextmanager
def _hard_stop(seconds: int) -> Iterator[None]:
    def alarm(signum: int, frame: object) -> None:
        raise _Stop(f"still running after {seconds} s")

    if not hasattr(signal, "SIGALRM") or os.name != "posix":
        yield
        return
    old = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def run_case(name: str, case: Case, targets: dict[str, Target] | None = None) -> Measured:
    target = (targets or TARGETS)[name]
    with tempfile.TemporaryDirectory(prefix="roce-cfg-fuzz-") as tmp:
        rss_kb = _status_kb("VmRSS")
        kernel_peak = _reset_peak()
        if not kernel_peak:
            import tracemalloc

            tracemalloc.start()
        t0, c0 = time.perf_counter(), time.process_time()
        try:
            with _hard_stop(HARD_STOP_S):
                outcome = target.run(case, Path(tmp))
        except (_Stop, MemoryError, RecursionError) as exc:
            outcome = Outcome(None, f"{type(exc).__name__}: {exc}")
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        if kernel_peak:
            peak_mb = max(0, _status_kb("VmHWM") - rss_kb) / 1024
        else:
            peak_mb = tracemalloc.get_traced_memory()[1] / 2**20
            tracemalloc.stop()
    return Measured(name, case, outcome, cpu, wall, peak_mb)


def keep_regression(m: Measured, root: Path = REGRESSIONS) -> Path:
    """Store a failing input where the suite replays it (gzipped when large)."""
    kind, data = m.case
    digest = hashlib.sha256(data).hexdigest()[:16]
    path = root / m.target / f"{kind}-{digest}.bin"
    path.parent.mkdir(parents=True, exist_ok=True)
    if len(data) > 64 * 1024:
        path = path.with_suffix(".bin.gz")
        path.write_bytes(gzip.compress(data, mtime=0))
    else:
        path.write_bytes(data)
    return path


def regression_cases(root: Path = REGRESSIONS) -> list[tuple[str, Case, Path]]:
    out = []
    for path in sorted(root.glob("*/*.bin*")):
        kind = path.name.split("-", 1)[0]
        data = path.read_bytes()
        out.append(
            (
                path.parent.name,
                (kind, gzip.decompress(data) if path.suffix == ".gz" else data),
                path,
            )
        )
    return out


# -- runs -----------------------------------------------------------------------------------


@dataclass
class Figures:
    target: str
    cases: int = 0
    failures: int = 0
    exits: dict[int, int] = field(default_factory=dict)
    max_cpu_s: float = 0.0
    max_wall_s: float = 0.0
    max_peak_mb: float = 0.0
    total_wall_s: float = 0.0

    def add(self, m: Measured) -> None:
        self.cases += 1
        code = m.outcome.code if m.outcome.code is not None else -1
        self.exits[code] = self.exits.get(code, 0) + 1
        self.max_cpu_s = max(self.max_cpu_s, m.cpu_s)
        self.max_wall_s = max(self.max_wall_s, m.wall_s)
        self.max_peak_mb = max(self.max_peak_mb, m.peak_mb)
        self.total_wall_s += m.wall_s
        if m.problem:
            self.failures += 1


def explore(
    name: str,
    n: int,
    each: Callable[[Measured], None],
    *,
    rng_seed: int | None = None,
    shrink: bool = False,
    targets: dict[str, Target] | None = None,
) -> None:
    """Feed ``n`` generated cases of ``name`` to ``each`` (which may raise to make hypothesis
    shrink the case, when ``shrink``)."""
    table = targets or TARGETS
    phases = [Phase.explicit, Phase.generate] + ([Phase.shrink] if shrink else [])

    @settings(
        max_examples=n,
        database=None,
        deadline=None,
        derandomize=rng_seed is None,
        phases=phases,
        suppress_health_check=list(HealthCheck),
        print_blob=False,
    )
    @given(table[name].cases())
    def prop(case: Case) -> None:
        each(run_case(name, case, table))

    if rng_seed is not None:
        prop = seed(rng_seed)(prop)
    prop()


def _signature(m: Measured) -> str:
    """Failure kind: exception type and the innermost frame (one fixture kept per kind)."""
    if m.outcome.code is not None:  # over a bound, or a wrong exit code
        return f"{m.target}|{(m.problem or '').split()[0]}"
    lines = (m.problem or "").splitlines()
    frames = [ln.strip() for ln in lines if ln.strip().startswith("File ")]
    return f"{m.target}|{lines[-1].split(':')[0] if lines else ''}|{frames[-1] if frames else ''}"


def _long(
    argv: list[str],
    targets: dict[str, Target] | None = None,
    root: Path = REGRESSIONS,
    prog: str = "python -m bench fuzz",
    doc: str | None = __doc__,
) -> None:
    table_of = targets or TARGETS
    ap = argparse.ArgumentParser(prog=prog, description=doc)
    ap.add_argument("--cases", type=int, default=1000, help="cases per target")
    ap.add_argument("--target", action="append", choices=sorted(table_of), help="repeatable")
    ap.add_argument("--seed", type=int, default=0, help="hypothesis seed (reproducible runs)")
    ap.add_argument("--chunk", type=int, default=500, help="cases per target per round")
    ap.add_argument("--minutes", type=float, help="stop after the round that passes this")
    ap.add_argument("--json", type=Path, help="write the figures here after every round")
    ap.add_argument(
        "--memory-limit-mb", type=int, default=6144, help="address-space cap of this process"
    )
    args = ap.parse_args(argv)
    if args.memory_limit_mb and hasattr(resource, "RLIMIT_AS"):
        cap = args.memory_limit_mb * 2**20
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    # ttp logs every value it cannot convert; the outcome of a case is what counts here.
    logging.getLogger("ttp").setLevel(logging.CRITICAL)
    names = args.target or list(table_of)
    table = {name: Figures(name) for name in names}
    seen: set[str] = set()
    started = time.time()

    def each(m: Measured) -> None:
        fig = table[m.target]
        fig.add(m)
        if m.problem and _signature(m) not in seen:
            seen.add(_signature(m))
            kept = keep_regression(m, root)
            first = m.problem.splitlines()[-1]
            print(f"FAIL {m.target}: {first} -> {kept.relative_to(ROOT)}", file=sys.stderr)

    # Rounds of ``chunk`` cases per target, each round its own hypothesis seed: a run stopped
    # early still has figures for every target.
    rounds = -(-args.cases // args.chunk)
    harness_oom: list[str] = []
    for r in range(rounds):
        for name in names:
            todo = min(args.chunk, args.cases - table[name].cases)
            if todo <= 0:
                continue
            try:
                explore(name, todo, each, rng_seed=args.seed * 100_003 + r, targets=table_of)
            except MemoryError:
                # Raised while hypothesis built a case (a 2 MB line repeated, kept for
                # shrinking), not by the product: run_case turns a case's own MemoryError into a
                # failure. Seed 12 ended a whole two-hour run this way at 2 GiB; the round is cut
                # short and the next one starts from its own seed.
                harness_oom.append(f"round {r + 1} {name}")
                print(f"# round {r + 1}: {name}: out of memory building a case; round cut "
                      "short", file=sys.stderr, flush=True)  # fmt: skip
        done = sum(f.cases for f in table.values())
        fails = sum(f.failures for f in table.values())
        print(f"# round {r + 1}/{rounds}: {done:,} cases, {fails} failures, "
              f"{time.time() - started:,.0f} s", file=sys.stderr, flush=True)  # fmt: skip
        if args.json:
            doc = {
                "command": f"{prog} " + " ".join(argv),
                "seconds": round(time.time() - started),
                "rounds": r + 1,
                "harness_out_of_memory": harness_oom,
                "targets": [f.__dict__ for f in table.values()],
            }
            args.json.write_text(json.dumps(doc, indent=2))
        if args.minutes and time.time() - started > args.minutes * 60:
            break
    for f in table.values():
        print(_row(f), flush=True)
    total = sum(f.cases for f in table.values())
    print(f"# {total:,} cases in {time.time() - started:,.0f} s", flush=True)
    if any(f.failures for f in table.values()):
        sys.exit(1)


HEAD = (
    "| target | cases | failures | exits 0/1/2 | max CPU s | max wall s | max peak MB |\n"
    "|---|---:|---:|---|---:|---:|---:|"
)


def _row(f: Figures) -> str:
    exits = "/".join(str(f.exits.get(c, 0)) for c in (0, 1, 2))
    return (
        f"| {f.target} | {f.cases:,} | {f.failures} | {exits} | {f.max_cpu_s:.2f} | "
        f"{f.max_wall_s:.2f} | {f.max_peak_mb:.0f} |"
    )


def main(argv: list[str]) -> None:
    print(HEAD, flush=True)
    _long(argv)
