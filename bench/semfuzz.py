"""The semantic fuzzer: inputs that mean something, with values and names at and past their
bounds, and verdicts beyond "no traceback".

bench/fuzz.py mutates bytes; this fuzzer writes lines a switch could print. Each case takes a
golden config and replaces lines with lines of the same grammar command
(``vendors/<vendor>.grammar.yaml``) whose values sit at and beyond each parameter's range
(edges, 0, -1, 2^32, 20 and 4,301 digits; VLAN lists up to 10^9), repeats and nests blocks,
grows the file near the line cap, and puts hostile names (``..``, absolute paths, separators,
NUL, device names, 10,000 characters, look-alike solidi) in every name position: sysname,
descriptions, VLAN names, inventory hosts, ``--only``. Besides the harness's bounds (exit 0, 1
or 2, 5 s of CPU, 256 MB), a case fails when:

- a value outside its grammar range is not reported: parse exits 0 without an ``unread`` entry
  on its line, or lint without RC119 there;
- a command wrote outside its output, or read a file outside its folder (push reached a switch
  with a config it could only have found by climbing out of the configs folder).

``python -m bench semfuzz --cases N [--target T]`` is the long mode (the options of ``python -m
bench fuzz``); failing inputs are kept in tests/fuzz/semantic/<target>/ and replayed by the
suite, and tests/fuzz/test_semfuzz.py runs a short pass of every target.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

from hypothesis import strategies as st

from bench.fuzz import ROOT, Case, Outcome, Target, _cli, _long

REGRESSIONS = ROOT / "tests" / "fuzz" / "semantic"
VENDORS = ("h3c", "huawei", "ruijie", "zte")
GOLDEN = {v: ROOT / "golden" / f"pod-small-{v}" for v in VENDORS}
EDGE = ["0", "1", "-1", "7", "8", "63", "64", "4094", "4095", "65535", "99999", "4294967295",
        "4294967296", "1" + "0" * 19, "9" * 20, "9" * 4301, "1000000000"]  # fmt: skip
HOSTILE_NAMES = [
    "..", ".", "../../../esc", "/tmp/esc-abs", "a/b", "a\\b", "CON", "nul", "COM1", "lpt9",
    "x" * 10_000, "leaf\uff0f1", "..\uff0f..\uff0fesc", "\u2215etc", ".hidden", "index",
    "INDEX", "cabling.csv", "%2F", "leaf-1", "Leaf-1", "a.", "\u202eevil",
]  # fmt: skip
# what a config line can hold as a word (clean() drops control characters; blanks split words)
PRINTABLE = st.characters(blacklist_categories=("Cc", "Cs", "Zs", "Zl", "Zp"))


# -- lines from the grammar ----------------------------------------------------------------------


def _grammar(vendor: str):  # type: ignore[no-untyped-def]
    from roce_cfg.grammar import load_grammar

    return load_grammar(vendor)


def _commands_of(vendor: str, lines: list[str]) -> list[tuple[int, object, str]]:
    """(line index, grammar command, view) of each line of ``lines`` the grammar knows, walking
    the views as grammar.check does (indentation opens and closes them)."""
    g = _grammar(vendor)
    stack: list[tuple[int, str]] = []
    out: list[tuple[int, object, str]] = []
    for i, raw in enumerate(lines):
        left = raw.lstrip(" ")
        if not left or left.rstrip() in g.separators:
            continue
        indent = len(raw) - len(left)
        while stack and stack[-1][0] >= indent:
            stack.pop()
        view = stack[-1][1] if stack else g.root
        cmd, _ = g.match(view, raw)
        if cmd is None:
            continue
        out.append((i, cmd, view))
        if cmd.opens:
            stack.append((indent, cmd.opens))
        elif cmd.sets and stack:
            stack[-1] = (stack[-1][0], cmd.sets)
    return out


_TOKEN = re.compile(r"<[^>]+>\+?|[{}\[\]|]|[^\s{}\[\]|<]+")


@st.composite
def _value(draw: st.DrawFn, param: object) -> str:
    """A value for ``param``: at and past its range (the grammar's verdict decides which)."""
    kind, allowed = param.kind, param.allowed  # type: ignore[attr-defined]
    if kind == "vlans":
        low = draw(st.sampled_from(["2", "1", "0", "4094"]))
        high = draw(st.sampled_from(["4094", "4095", "100000", "1000000", "999999999", "9" * 20]))
        return draw(st.sampled_from([f"{low} to {high}", f"{low}", f"{high}", f"{low} 5 to 7"]))
    if kind == "int":
        return draw(st.sampled_from([*EDGE, *(str(v) for r in allowed for v in r)]))
    if kind in ("ipv4", "mask"):
        return draw(st.sampled_from(["10.1.0.1", "255.255.255.254", "0.0.0.0"]))
    name = draw(st.sampled_from(HOSTILE_NAMES))
    return name if name.split() == [name] else "x"


@st.composite
def _line(draw: st.DrawFn, cmd: object) -> str:
    """A line of ``cmd``'s syntax with drawn values."""
    tokens = _TOKEN.findall(cmd.syntax)  # type: ignore[attr-defined]
    out: list[str] = []
    depth_skip = 0
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        i += 1
        if depth_skip:
            depth_skip += (tok in ("[", "{") and 1) or 0
            depth_skip -= (tok in ("]", "}") and 1) or 0
            continue
        if tok == "[":
            if not draw(st.booleans()):
                depth_skip = 1
            continue
        if tok in ("]", "}"):
            continue
        if tok == "{":
            continue  # the first alternative is taken; the rest are skipped at '|'
        if tok == "|":
            depth = 1  # skip to the closing brace of this alternative group
            while i < len(tokens) and depth:
                depth += (tokens[i] in ("{", "[") and 1) or 0
                depth -= (tokens[i] in ("}", "]") and 1) or 0
                i += 1
            continue
        if tok.startswith("<"):
            name = tok.strip("<>+").split(":")[0].replace("-", "_")
            param = cmd.params.get(name)  # type: ignore[attr-defined]
            if param is None or param.kind.startswith("/"):
                out.append("1")
                continue
            out.append(draw(_value(param)))
        else:
            out.append(tok)
    return " ".join(out)


# -- cases -------------------------------------------------------------------------------------


@st.composite
def config_case(draw: st.DrawFn) -> tuple[str, bytes, list[int]]:
    """A golden leaf-1 with 1-3 lines replaced by lines of the same command with edge values,
    maybe a block repeated or nested, maybe grown near the line cap. Returns the vendor, the
    text and the (1-based) numbers of lines whose value is out of its grammar range."""
    vendor = draw(st.sampled_from(VENDORS))
    lines = (GOLDEN[vendor] / "leaf-1.cfg").read_text().split("\n")
    known = _commands_of(vendor, lines)
    ranged = [k for k in known if any(p.allowed for p in k[1].params.values())]  # type: ignore[attr-defined]
    bad: list[int] = []
    for _ in range(draw(st.integers(1, 3))):
        i, cmd, view = draw(st.sampled_from(ranged or known))
        text = draw(_line(cmd))
        indent = len(lines[i]) - len(lines[i].lstrip(" "))
        lines[i] = " " * indent + text
        # out of range as the grammar (the specification) judges the line in its view
        _, rule = _grammar(vendor).judge(view, lines[i], "", "\x00")
        out_of_range = bool(rule and rule.startswith("out of range"))
        if out_of_range and i + 1 not in bad:
            bad.append(i + 1)
        elif not out_of_range and i + 1 in bad:
            bad.remove(i + 1)  # the same line drawn again, in range this time
    # a file near the line cap costs seconds: one case in 40, so a long run covers the rest
    shape = draw(st.sampled_from(["none"] * 26 + ["repeat"] * 6 + ["nest"] * 7 + ["grow"]))
    if shape == "repeat":
        start = draw(st.integers(0, len(lines) - 2))
        block = lines[start : start + draw(st.integers(1, 12))]
        at = max(bad, default=0)  # after the planted lines, so their numbers hold
        lines[at:at] = block * draw(st.integers(2, 400))
    elif shape == "nest":
        start = draw(st.integers(max(bad, default=0), len(lines) - 1))
        lines[start:start] = [" " * d + "interface x" for d in range(0, 120, 3)]
    elif shape == "grow":
        # valid ports repeated up to near the 100,000-line cap
        head = next(i for i, ln in enumerate(lines) if ln.startswith("interface "))
        port = [ln for ln in lines[head : head + 12] if ln.strip()]
        at = max(bad, default=head)
        lines[at:at] = port * (draw(st.integers(1000, 90_000)) // max(1, len(port)))
    return vendor, "\n".join(lines).encode(), bad


def _pack(
    vendor: str, data: bytes, bad: list[int], extra: dict[str, object] | None = None
) -> bytes:
    """A case as bytes (so the harness can keep it as a regression fixture)."""
    head = json.dumps({"vendor": vendor, "bad": bad, **(extra or {})}).encode()
    return head + b"\n" + data


def _unpack(data: bytes) -> tuple[dict[str, object], bytes]:
    head, _, body = data.partition(b"\n")
    return json.loads(head), body


def _configs() -> st.SearchStrategy[Case]:
    return config_case().map(lambda c: ("config", _pack(*c)))


def _unread_lines(output: str) -> set[int]:
    doc = json.loads(output)
    return {u["line"] for c in doc["configs"] for u in c["unread"]}


def _taken_along(data: bytes, reported: set[int]) -> set[int]:
    """Lines inside the block of a reported line: a refused block opener (``bgp 4294967296``)
    takes its lines along, unread with it (docs/reliability.md), not listed one by one."""
    lines = data.decode("utf-8", "replace").split("\n")
    along: set[int] = set()
    for no in reported:
        if not 0 < no <= len(lines):
            continue
        indent = len(lines[no - 1]) - len(lines[no - 1].lstrip(" "))
        for k in range(no, len(lines)):
            text = lines[k]
            if text.strip() and len(text) - len(text.lstrip(" ")) <= indent:
                break
            along.add(k + 1)
    return along


def _parse(case: Case, tmp: Path) -> Outcome:
    meta, data = _unpack(case[1])
    path = tmp / "leaf-1.cfg"
    path.write_bytes(data)
    out = _cli(["parse", str(path)])
    if out.code == 0:
        reported = _unread_lines(out.output)
        reported |= _taken_along(data, reported)
        missed = sorted(set(meta["bad"]) - reported)  # type: ignore[arg-type]
        if missed:
            out.violation = f"out-of-range values on lines {missed} were read, not reported"
    return out


def _lint(case: Case, tmp: Path) -> Outcome:
    meta, data = _unpack(case[1])
    path = tmp / "leaf-1.cfg"
    path.write_bytes(data)
    out = _cli(["lint", str(path), "--format", "json"])
    if out.code in (0, 1):
        found = {f["line"] for f in json.loads(out.output)["findings"] if f["rule"] == "RC119"}
        found |= _taken_along(data, found)
        missed = sorted(set(meta["bad"]) - found)  # type: ignore[arg-type]
        if missed:
            out.violation = f"out-of-range values on lines {missed} without RC119"
    return out


def _deadlock(case: Case, tmp: Path) -> Outcome:
    meta, data = _unpack(case[1])
    folder = tmp / "configs"
    folder.mkdir()
    src = GOLDEN[str(meta["vendor"])]
    for name in ("leaf-2.cfg", "spine-1.cfg", "spine-2.cfg"):
        shutil.copyfile(src / name, folder / name)
    (folder / "leaf-1.cfg").write_bytes(data)
    return _cli(["deadlock", str(folder), "--format", "json"])


# -- names -------------------------------------------------------------------------------------


def _snapshot(root: Path) -> set[Path]:
    return {p for p in root.rglob("*")}


def _named_folder(tmp: Path, names: list[str], vendor: str) -> Path:
    """Two configs of ``vendor`` whose sysnames, descriptions and VLAN names are ``names``."""
    folder = tmp / "a" / "b" / "c" / "cfg"
    folder.mkdir(parents=True)
    keyword = {"h3c": " sysname ", "huawei": "sysname ", "ruijie": "hostname ", "zte": "hostname "}
    for n, leaf in enumerate(("leaf-1", "leaf-2")):
        text = (GOLDEN[vendor] / f"{leaf}.cfg").read_text()
        name = names[n] if n < len(names) else leaf
        word = name if name.split() == [name] and "\x00" not in name else "x"
        text = text.replace(f"{keyword[vendor]}{leaf}", f"{keyword[vendor]}{word}", 1)
        text = re.sub(r"(description )\S+", lambda m, w=word: m[1] + w, text, count=3)
        (folder / f"{leaf}.cfg").write_text(text, encoding="utf-8", errors="surrogatepass")
    return folder


@st.composite
def names_case(draw: st.DrawFn) -> tuple[str, list[str]]:
    names = draw(
        st.lists(
            st.one_of(
                st.sampled_from(HOSTILE_NAMES),
                st.sampled_from(HOSTILE_NAMES),  # twice: as likely as two of random text
                st.text(PRINTABLE, min_size=1, max_size=40),
            ),
            min_size=1,
            max_size=4,
        )
    )
    return draw(st.sampled_from(VENDORS)), names


def _names() -> st.SearchStrategy[Case]:
    return names_case().map(lambda c: ("names", _pack(c[0], b"", [], {"names": c[1]})))


def _written_inside(tmp: Path, before: set[Path], allowed: Path, out: Outcome) -> None:
    stray = sorted(
        str(p.relative_to(tmp)) for p in _snapshot(tmp) - before if not p.is_relative_to(allowed)
    )
    if stray:
        out.violation = f"wrote outside {allowed.relative_to(tmp)}: {stray[:3]}"


def _docs(case: Case, tmp: Path) -> Outcome:
    meta, _ = _unpack(case[1])
    folder = _named_folder(tmp, list(meta["names"]), str(meta["vendor"]))  # type: ignore[call-overload]
    before = _snapshot(tmp)
    out = _cli(["docs", str(folder), "-o", str(folder.parent / "out")])
    _written_inside(tmp, before, folder.parent / "out", out)
    return out


def _report(case: Case, tmp: Path) -> Outcome:
    meta, _ = _unpack(case[1])
    folder = _named_folder(tmp, list(meta["names"]), str(meta["vendor"]))  # type: ignore[call-overload]
    before = _snapshot(tmp)
    out = _cli(["report", str(folder), "-o", str(folder.parent / "r.html")])
    _written_inside(tmp, before, folder.parent / "r.html", out)
    return out


def _push(case: Case, tmp: Path) -> Outcome:
    """Hostile inventory host names: a config at the place a name would reach by climbing out
    of the configs folder makes push go on to the switch (exit 3, unreachable), which only a
    read outside the folder can cause: the mapped file names inside do not exist."""
    meta, _ = _unpack(case[1])
    configs = tmp / "a" / "b" / "cfgs"
    configs.mkdir(parents=True)
    text = (GOLDEN[str(meta["vendor"])] / "leaf-1.cfg").read_text()
    hosts, hostile = {}, []
    for name in meta["names"]:  # type: ignore[attr-defined]
        clean = str(name).replace("\x00", "")
        if not clean or len(clean) > 200:
            continue
        # Every name gets a config where joining it to the folder lands (when that is inside
        # the case's own folder): a name that leaves the folder has none in it, so only a read
        # outside can find one, and a switch is reached only when every config was found.
        reached = configs / f"{clean}.cfg"
        try:
            escapes = reached.resolve().parent != configs.resolve()
            if reached.resolve().is_relative_to(tmp):
                reached.parent.mkdir(parents=True, exist_ok=True)
                reached.write_text(text)
        except (OSError, ValueError):
            escapes = False
        if escapes:
            hostile.append(clean)
        hosts[clean] = {"hostname": "127.0.0.1", "port": 9, "data": {"vendor": meta["vendor"]}}
    if not hosts:
        return Outcome(2)
    inventory = tmp / "inv.yaml"
    inventory.write_text(json.dumps({"hosts": hosts}))
    os.environ.setdefault("ROCE_CFG_USERNAME", "netops")  # the lab's: never sent (port 9)
    os.environ.setdefault("ROCE_CFG_PASSWORD", "not-used")
    out = _cli(["push", str(configs), "-i", str(inventory), "--timeouts", "connect=1,prompt=1"])
    out.allowed = (0, 1, 2, 3)
    if out.code == 3 and hostile:  # a switch was reached with every config read
        out.violation = f"push took a config for {hostile[:2]} from outside {configs.name}"
    return out


# intent fields and values at, inside and past their bounds (models.py, checks.py)
INTENT_VALUES = {
    "mtu": ["1500", "9216", "9600", "9601", "1499", "-1", "99999"],
    "count": ["1", "4", "65536", "65537", "0"],
    "rail_vlan_base": ["2", "4094", "4095", "0", "4000"],
    "cable_m": ["0.1", "10000", "10000.5", "0", "-1", ".nan", "1e999"],
    "detect_ms": ["10", "15000", "15001", "9"],
    "restore_ms": ["0", "31000", "31001", "-1"],
    "min_kb": ["1", "100000", "100001"],
    "max_kb": ["2", "100000", "100001"],
    "probability": ["1", "100", "101", "0"],
    "dscp": ["0", "63", "64", "99"],
    "priority": ["0", "7", "8", "9"],
    "headroom": ["auto", "1", "1073741824", "1073741825", str(2**40 + 1), "10" + "0" * 11, "-1"],
    "name": [*(json.dumps(n) for n in HOSTILE_NAMES if "\x00" not in n), "pod1"],
}


@st.composite
def intent_case(draw: st.DrawFn) -> bytes:
    """The single-switch intent with 1-3 fields at or past their bounds, or a hostile name."""
    text = (ROOT / "examples" / "single-switch.yaml").read_text()
    for _ in range(draw(st.integers(1, 3))):
        field = draw(st.sampled_from(sorted(INTENT_VALUES)))
        value = draw(st.sampled_from(INTENT_VALUES[field]))
        if field == "headroom" and "headroom:" not in text:
            text = text.replace("lossless:", f"lossless:\n  headroom: {value}", 1)
        text = re.sub(rf"(\b{field}:\s*)[^,}}\n#]+", lambda m, v=value: m[1] + v, text, count=1)
    return text.encode()


def _generate(case: Case, tmp: Path) -> Outcome:
    path = tmp / "a" / "intent.yaml"
    path.parent.mkdir()
    path.write_bytes(case[1])
    before = _snapshot(tmp)
    out = _cli(["generate", str(path), "-o", str(tmp / "a" / "out")])
    _written_inside(tmp, before, tmp / "a" / "out", out)
    return out


@st.composite
def plan_case(draw: st.DrawFn) -> bytes:
    flags = {
        "--gpus": ["1", "128", "131072", "131073", "0", "-8", "9" * 30],
        "--nics": ["1", "8", "16", "0", "-1"],
        "--nic-speed": ["100", "400", "800", "0", "1601"],
        "--pcie-gen": ["3", "6", "7"],
        "--in-rack-m": ["3", "0", "-1", "nan", "inf", "1e999", "10001"],
        "--oversubscription": ["1", "3", "0.5", "nan", "inf"],
    }
    opts = []
    for flag in draw(st.lists(st.sampled_from(sorted(flags)), min_size=1, max_size=3, unique=True)):
        opts += [flag, draw(st.sampled_from(flags[flag]))]
    return json.dumps(opts).encode()


def _plan(case: Case, tmp: Path) -> Outcome:
    opts = json.loads(case[1])
    if "--gpus" not in opts:
        opts = ["--gpus", "128", *opts]
    return _cli(["plan", *opts])


# Cases in the suite's short pass: about 25 s in all on the 2-core build machine.
TARGETS: dict[str, Target] = {
    "parse": Target(_parse, _configs, 40),
    "lint": Target(_lint, _configs, 30),
    "deadlock": Target(_deadlock, _configs, 15),
    "docs": Target(_docs, _names, 15),
    "report": Target(_report, _names, 10),
    "push": Target(_push, _names, 15),
    "generate": Target(_generate, lambda: intent_case().map(lambda b: ("intent", b)), 20),
    "plan": Target(_plan, lambda: plan_case().map(lambda b: ("options", b)), 30),
}


def _with_hostile() -> None:
    """Hostile input III's families (bench/semfuzz_hostile.py) join the table."""
    from bench.semfuzz_hostile import TARGETS as HOSTILE

    TARGETS.update(HOSTILE)


_with_hostile()


def main(argv: list[str]) -> None:
    from bench.fuzz import HEAD

    print(HEAD, flush=True)
    _long(argv, TARGETS, REGRESSIONS, "python -m bench semfuzz", __doc__)
