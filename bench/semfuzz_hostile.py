"""Hostile input III as case families of the semantic fuzzer (bench/semfuzz.py registers them):
paths of every kind for every path option, sweep state files, scheduler addresses and peers,
verify's options, secrets folded at 80 columns, Markdown and HTML payloads in docs, number
lists at their edges, numbers typed as options.

Each case runs roce-cfg as its console script does (bench/hostile.py ``main_cli``: a bad option
is one line too). Besides the harness's bounds (exit 0, 1 or 2, 5 s of CPU, 256 MB, no
traceback), a case fails when an exit 2 is not exactly one error line, and per family when:

- paths: a kind its option must refuse is not refused, or anything outside the case's folder
  changed (a link's target written, a dangling link's target created, a device replaced);
- state: a state file that is not one of the fabric's is used without an error;
- scheduler: an address that is no tcp/tls host:port, or a peer that is no Dask scheduler,
  is not refused within the connect and handshake bounds;
- secrets: any four characters in a row of a planted secret reach parse's output;
- markdown: a docs page renders a link to anything but the docs' own pages, an image, an
  element from a config, or a table row with the wrong number of cells;
- numbers: a malformed or out-of-domain number list is read without being listed unread on
  its line.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import socket
import stat
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

from hypothesis import strategies as st

from bench import hostile
from bench.fuzz import ROOT, Case, Outcome, Target
from bench.semfuzz import GOLDEN, VENDORS, _pack, _unpack

VALLEY = ROOT / "tests" / "deadlock" / "valley-per-spine-asn.yaml"
INTENT = ROOT / "examples" / "single-switch.yaml"


def _run(args: list[str], allowed: tuple[int, ...] = (0, 1, 2)) -> Outcome:
    code, out, err = hostile.main_cli(args)
    # the header Python prints, not the word: a value drawn as 'Traceback' is echoed in a
    # one-line error ("'Traceback' is not one of ...")
    if code is None or "Traceback (most recent call last)" in out + err:
        return Outcome(None, err or out)
    # stderr kept in ``error`` (read only when an exception escaped, code None): the secrets
    # family reads the notes and -v lines there
    outcome = Outcome(code, error=err, output=out, allowed=allowed)
    outcome.violation = hostile.one_line(code, err) or ""
    return outcome


@contextlib.contextmanager
def _inside(folder: Path) -> Iterator[None]:
    """The case's folder as the working directory, credentials set, the lab stopped as soon as
    it is ready (it serves until a signal otherwise)."""
    import roce_cfg.lab.run as lab_run

    def serve_once(lab: object, ready: Callable[[], None]) -> None:
        try:
            ready()
        finally:
            lab.stop()  # type: ignore[attr-defined]

    cwd, serve = os.getcwd(), lab_run.serve
    os.environ.setdefault("ROCE_CFG_USERNAME", "netops")
    os.environ.setdefault("ROCE_CFG_PASSWORD", "not-used")  # port 9: nothing ever listens
    os.chdir(folder)
    lab_run.serve = serve_once  # type: ignore[assignment]
    try:
        yield
    finally:
        os.chdir(cwd)
        lab_run.serve = serve


# -- paths -------------------------------------------------------------------------------------

# Beyond the suite's table: a link loop, links to a FIFO and to a device, a name past NAME_MAX,
# an empty file, a chain of links that ends outside.
EXTRA_KINDS = ["loop", "link-to-fifo", "link-to-dev", "long-name", "empty", "link-chain-out"]
_OPTIONS: list[tuple[str, str, list[str]]] = []


def _extra(kind: str, work: Path, outside: Path) -> str:
    path = work / f"extra-{kind}"
    if kind == "loop":
        path.symlink_to(path)
    elif kind == "link-to-fifo":
        os.mkfifo(work / "a-fifo")
        path.symlink_to(work / "a-fifo")
    elif kind == "link-to-dev":
        path.symlink_to("/dev/zero")
    elif kind == "long-name":
        return str(work / ("x" * 300))
    elif kind == "empty":
        path.write_bytes(b"")
    else:
        (work / "hop").symlink_to(outside / "outside.txt")
        path.symlink_to(work / "hop")
    return str(path)


def _path_options() -> list[tuple[str, str, list[str]]]:
    """Walked once, outside any draw: importing the CLI touches the random module, which
    Hypothesis warns makes a seeded run unreproducible when it happens inside a strategy."""
    if not _OPTIONS:
        _OPTIONS.extend(hostile.path_options())
    return _OPTIONS


def _path_strategy() -> st.SearchStrategy[bytes]:
    return _path_case(_path_options())


@st.composite
def _path_case(draw: st.DrawFn, options: list[tuple[str, str, list[str]]]) -> bytes:
    command, param, opts = draw(st.sampled_from(options))
    kind = draw(st.sampled_from(hostile.KINDS + EXTRA_KINDS))
    return json.dumps({"command": command, "param": param, "opts": opts, "kind": kind}).encode()


def _snapshot(outside: Path) -> dict[str, bytes]:
    return {str(p.relative_to(outside)): p.read_bytes() for p in outside.rglob("*") if p.is_file()}


def _paths(case: Case, tmp: Path) -> Outcome:
    spec = json.loads(case[1])
    work, outside = tmp / "work", tmp / "outside"
    work.mkdir()
    outside.mkdir()
    (outside / "outside.txt").write_text("outside the folder\n")
    (outside / "folder").mkdir()
    hostile.fixtures(work)
    kind = spec["kind"]
    value = (
        hostile.hostile(kind, work, outside)
        if kind in hostile.KINDS
        else _extra(kind, work, outside)
    )
    before = _snapshot(outside)
    args = hostile.argv(spec["command"], spec["param"], spec["opts"], value)
    with _inside(work):
        out = _run(
            args, (0, 1, 2, 3) if spec["command"] in ("push", "verify", "pipeline") else (0, 1, 2)
        )
    role = hostile.role(spec["command"], spec["param"])
    if out.code is not None and not out.violation:
        if role and kind in hostile.REFUSED[role] and out.code != 2:
            out.violation = f"{role} {kind} not refused (exit {out.code})"
        elif _snapshot(outside) != before or any((outside / "folder").iterdir()):
            out.violation = "wrote outside the case's folder"
        elif (outside / "never-created").exists():
            out.violation = "wrote through a dangling link"
        elif not all(stat.S_ISCHR(os.stat(d).st_mode) for d in ("/dev/zero", "/dev/full")):
            out.violation = "replaced a device node"
    return out


# -- deadlock --state --------------------------------------------------------------------------

_HEADER: list[str] = []


def _header() -> str:
    if not _HEADER:
        from roce_cfg.deadlock import load
        from roce_cfg.deadlock.net import build
        from roce_cfg.deadlock.statefile import header

        src = load(VALLEY)
        _HEADER.append(header(build(src.devices, src.links, src.dscp)))
    return _HEADER[0]


_INTS = st.one_of(
    st.integers(-2, 40),
    st.sampled_from([2**31, 2**63, 10**30]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(),
    st.text(max_size=4),
    st.none(),
)


@st.composite
def _state_line(draw: st.DrawFn) -> str:
    shape = draw(st.sampled_from(["good", "good", "mutant", "junk", "deep", "bytes"]))
    if shape == "junk":
        return draw(st.text(max_size=60))
    if shape == "deep":
        n = draw(st.integers(1, 200_000))
        return "[" * n + "]" * draw(st.integers(0, n))
    if shape == "bytes":
        return draw(st.binary(max_size=40)).decode("latin-1")
    nodes = draw(
        st.lists(
            st.lists(_INTS if shape == "mutant" else st.integers(0, 12), min_size=2, max_size=2),
            max_size=6,
        )
    )
    causes = draw(st.lists(st.text(max_size=8), min_size=0, max_size=7))
    if shape == "good":
        causes = causes[: len(nodes)] + ["hop"] * (len(nodes) - len(causes))
    cycles = [{"nodes": nodes, "causes": causes}] if nodes or shape == "mutant" else []
    scenario = draw(st.lists(_INTS if shape == "mutant" else st.integers(0, 12), max_size=3))
    return json.dumps({"scenario": scenario, "cycles": cycles})


@st.composite
def _state_case(draw: st.DrawFn) -> bytes:
    head = draw(st.sampled_from(["ours", "ours", "ours", "other", "none", "garbage"]))
    lines = (
        []
        if head == "none"
        else [{"ours": "@HEADER@", "other": json.dumps({"fabric": "0" * 16})}.get(head, "{fabric")]
    )
    lines += draw(st.lists(_state_line(), max_size=6))
    sweep = draw(st.sampled_from(["all-single", "all-single", "none"]))
    body = "\n".join(lines) + draw(st.sampled_from(["\n", ""]))
    return _pack("", body.encode("utf-8", "surrogatepass"), [], {"sweep": sweep})


def _state(case: Case, tmp: Path) -> Outcome:
    meta, body = _unpack(case[1])
    path = tmp / "state.jsonl"
    path.write_bytes(body.replace(b"@HEADER@", _header().strip().encode()))
    sweep = ["--fail-links", "all-single"] if meta["sweep"] == "all-single" else []
    out = _run(["deadlock", str(VALLEY), *sweep, "--state", str(path), "--format", "json"])
    foreign = b'"0000000000000000"' in body or b"{fabric" in body
    if out.code in (0, 1) and sweep and foreign:
        out.violation = "another fabric's state file was used"
    return out


# -- deadlock --scheduler ----------------------------------------------------------------------

_HOSTS = [
    "127.0.0.1",
    "localhost",
    "[::1]",
    "10.255.255.1",
    "sched.invalid",
    "a" * 64,
    "a" * 10_000,
    "\u202eevil",
    "xn--e1afmkfd",
    "-bad-",
    "0.0.0.0",
    "[::g]",
    "",
]
_PORTS = ["1", "8786", "65535", "0", "65536", "+1", "99999999999999999999", "", "x", "\uff11"]


@st.composite
def _scheduler_case(draw: st.DrawFn) -> bytes:
    peer = draw(st.sampled_from(["none", "none", "http", "bytes", "silent", "close"]))
    scheme = draw(st.sampled_from(["tcp://", "tls://", "", "ftp://", "inproc://", "TCP://"]))
    host = draw(st.one_of(st.sampled_from(_HOSTS), st.text(max_size=30)))
    port = draw(st.one_of(st.sampled_from(_PORTS), st.text(max_size=6)))
    tail = draw(st.sampled_from(["", "", "/path", "?x=1", " "]))
    answer = draw(st.binary(min_size=0, max_size=64)) if peer == "bytes" else b""
    sweep = draw(st.sampled_from(["all-single", "all-single", "none"]))
    meta = {"peer": peer, "address": f"{scheme}{host}:{port}{tail}", "sweep": sweep}
    return _pack("", answer, [], meta)


@contextlib.contextmanager
def _peer(kind: str, answer: bytes) -> Iterator[int]:
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen()
    srv.settimeout(0.1)
    done = threading.Event()

    def serve() -> None:
        while not done.is_set():
            try:
                conn, _ = srv.accept()
            except OSError:
                continue
            with contextlib.suppress(OSError):
                if kind == "http":
                    conn.sendall(b"HTTP/1.0 200 OK\r\n\r\n" + b"x" * 4096)
                elif kind == "bytes":
                    conn.sendall(answer)
                if kind != "silent":
                    conn.close()
                else:
                    done.wait(5)
                    conn.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield srv.getsockname()[1]
    finally:
        done.set()
        thread.join(2)
        srv.close()


def _scheduler(case: Case, tmp: Path) -> Outcome:
    from roce_cfg.deadlock import scheduler

    meta, answer = _unpack(case[1])
    sweep = ["--fail-links", "all-single"] if meta["sweep"] == "all-single" else []
    # the bounds are what is tested, not their size: a second each keeps a long run short
    saved = scheduler.CONNECT_S, scheduler.HELLO_S
    scheduler.CONNECT_S = scheduler.HELLO_S = 0.5
    try:
        if meta["peer"] == "none":
            return _run(["deadlock", str(VALLEY), *sweep, "--scheduler", str(meta["address"])])
        with _peer(str(meta["peer"]), answer) as port:
            address = f"tcp://127.0.0.1:{port}"
            out = _run(["deadlock", str(VALLEY), *sweep, "--scheduler", address])
        if sweep and out.code not in (2, None):
            out.violation = f"a {meta['peer']} peer was taken for a Dask scheduler"
        return out
    finally:
        scheduler.CONNECT_S, scheduler.HELLO_S = saved


# -- verify ------------------------------------------------------------------------------------

_VERIFY_OPTIONS = {
    "--storm-pps": ["1", "1000", "1e10", "1e11", "inf", "-inf", "nan", "0", "-1", "1e999", "x"],
    "--window": [
        "0",
        "30s",
        "500ms",
        "2m",
        "1h",
        "inf",
        "nans",
        "-5s",
        "1e999s",
        "9" * 30 + "h",
        "30",
        "s",
        "\u00b9s",
        "0.0000001ms",
    ],
    "--timeouts": [
        "connect=1",
        "connect=inf",
        "connect=nan",
        "connect=0",
        "connect=-1",
        "connect=3601",
        "connect=" + "9" * 4301,
        "bogus=1",
        "connect",
        "=",
        ",,",
    ],
    "--skip": ["", "queue", "queue,watchdog,counters", "nonsense", ",", "\u202e"],
    "--workers": ["1", "200", "0", "201", "-1", "x"],
    "--limit": ["*", "switch-*", "[", "", "x" * 10_000],
    "--fail-on": ["error", "warning", "info", "never", "x"],
}


@st.composite
def _verify_case(draw: st.DrawFn) -> bytes:
    flags = draw(st.lists(st.sampled_from(sorted(_VERIFY_OPTIONS)), max_size=3, unique=True))
    opts: list[str] = []
    for flag in flags:
        opts += [
            flag,
            draw(st.one_of(st.sampled_from(_VERIFY_OPTIONS[flag]), st.text(max_size=12))),
        ]
    inventory = draw(st.sampled_from(["good", "good", "garbage", "empty-hosts", "deep"]))
    return json.dumps({"opts": opts, "inventory": inventory}).encode()


def _verify(case: Case, tmp: Path) -> Outcome:
    spec = json.loads(case[1])
    inv = tmp / "inv.yaml"
    texts = {
        "good": "hosts:\n  switch-1: {hostname: 127.0.0.1, port: 9, data: {vendor: huawei}}\n",
        "garbage": "hosts: [1, 2\n",
        "empty-hosts": "hosts: {}\n",
        "deep": "hosts: " + "[" * 5000 + "]" * 5000 + "\n",
    }
    inv.write_text(texts[spec["inventory"]])
    opts = [o for o in spec["opts"] if "\x00" not in o]
    args = ["verify", str(INTENT), "-i", str(inv), "--timeouts", "connect=1", *opts]
    with _inside(tmp):
        return _run(args, (0, 1, 2, 3))


# -- secrets folded at 80 columns --------------------------------------------------------------

_PLANTED = re.compile(r"PLANTED[\w-]*")
_ALPHABET = "QZXJKW"


@st.composite
def _secrets_case(draw: st.DrawFn) -> bytes:
    vendor = draw(st.sampled_from(VENDORS))
    lines = []
    tokens: list[str] = []
    for line in (ROOT / "tests/data/secrets" / f"{vendor}.cfg").read_text().split("\n"):
        if "PLANTED" in line:
            line = _PLANTED.sub(lambda m: _token(draw, tokens), line)
            indent = len(line) - len(line.lstrip(" "))
            gaps = [m.start() for m in re.finditer(" ", line[: line.index("PLANTED")])][indent:]
            if gaps:
                at, extra = draw(st.sampled_from(gaps)), draw(st.integers(0, 80))
                for cut in range(80, len(line) + extra + 1, 80):  # never a fold in the blanks
                    if at < cut <= at + extra + 2:
                        extra = max(0, cut - at - 3)
                line = line[:at] + " " * extra + line[at:]
        lines.append(line)
    return _pack(vendor, _fold("\n".join(lines)).encode(), [], {"tokens": tokens})


def _token(draw: st.DrawFn, tokens: list[str]) -> str:
    token = "PLANTED" + draw(st.text(_ALPHABET, min_size=4, max_size=70))
    tokens.append(token)
    return token


def _fold(text: str, width: int = 80) -> str:
    out = []
    for line in text.split("\n"):
        while len(line) > width:
            out.append(line[:width])
            line = line[width:]
        out.append(line)
    return "\n".join(out)


def _secrets(case: Case, tmp: Path) -> Outcome:
    meta, data = _unpack(case[1])
    path = tmp / "leaf-1.cfg"
    path.write_bytes(data)
    # JSON holds every line parse prints in YAML and -v too (tests/test_secrets_folded.py
    # reads all three): one parse a case keeps the long run short
    out = _run(["parse", str(path), "-v", "--format", "json"])
    seen = out.output + out.error
    pieces = {t[i : i + 4] for t in meta["tokens"] for i in range(len(t) - 3)}  # type: ignore[attr-defined]
    leaked = sorted(p for p in pieces if p in seen)
    if leaked and not out.violation:
        out.violation = f"pieces of a folded secret printed: {leaked[:3]}"
    return out


# -- Markdown and HTML payloads in docs ---------------------------------------------------------

PAYLOADS = [
    "[x](javascript:alert(1))",
    "![i](https://evil.example/x.png)",
    "<img/src=x/onerror=alert(1)>",
    "<script>alert(1)</script>",
    "a|b|c",
    "`x`",
    "https://evil.example",
    "www.evil.example",
    "*b*_i_~~s~~",
    "=HYPERLINK(1)",
    "&lt;b&gt;",
    "<a_href=x>",
    "\\|",
    "[a]: http://x",
    "<!--",
    "]]>",
]


@st.composite
def _markdown_case(draw: st.DrawFn) -> bytes:
    word = st.one_of(
        st.sampled_from(PAYLOADS),
        st.text(
            st.characters(blacklist_categories=("Cc", "Cs", "Zs", "Zl", "Zp")),
            min_size=1,
            max_size=30,
        ),
    )
    names = draw(st.lists(word, min_size=1, max_size=3))
    return _pack(draw(st.sampled_from(VENDORS)), b"", [], {"names": names})


def _markdown(case: Case, tmp: Path) -> Outcome:
    from markdown_it import MarkdownIt

    from bench.semfuzz import _named_folder

    meta, _ = _unpack(case[1])
    folder = _named_folder(tmp, list(meta["names"]), str(meta["vendor"]))  # type: ignore[call-overload]
    out = _run(["docs", str(folder), "-o", str(tmp / "docs")])
    if out.code not in (0, 1) or out.violation:
        return out
    render = MarkdownIt("commonmark").enable("table").render
    for page in sorted((tmp / "docs").glob("*.md")):
        html = render(page.read_text())
        links = re.findall(r'<a href="([^"]*)"', html)
        if any("/" in h or ":" in h or not h.endswith((".md", ".csv")) for h in links):
            out.violation = f"{page.name}: a link that is not a docs page: {links[:3]}"
        elif re.search(r"<(img|script|a_href|!--)", html):
            out.violation = f"{page.name}: an element from a config"
        for table in re.findall(r"<table>.*?</table>", html, re.S):
            head, _, body = table.partition("</thead>")
            n = len(re.findall(r"<th[ >]", head))
            if any(
                len(re.findall(r"<td[ >]", r)) != n
                for r in re.findall(r"<tr>(.*?)</tr>", body, re.S)
            ):
                out.violation = f"{page.name}: a table row with other than {n} cells"
        if out.violation:
            break
    return out


# -- number lists at their edges ---------------------------------------------------------------

_LISTS = [
    "5 to",
    "to 5",
    "1 to 3 to 7",
    "5 to to 7",
    "7 to 3",
    "0",
    "4095",
    "1 to 4094",
    "4094",
    "2 5 to 7",
    "5-",
    "-5",
    "1-3-5",
    "1--3",
    "2-4094",
    "3-2",
    "9" * 30,
    "1,,2",
    "all",
    "all 5",
    "\u00b9",
    "0x10",
    "5 to " + "9" * 4301,
]
# (vendor, the golden leaf-1 line, its replacement with {} the list)
_PLANTS = [
    ("huawei", "vlan batch 101", "vlan batch {}"),
    ("h3c", " port access vlan 101", " port trunk permit vlan {}"),
    ("zte", "  switchport access vlan 101", "  switchport trunk vlan {}"),
]


@st.composite
def _numbers_case(draw: st.DrawFn) -> bytes:
    vendor, line, form = draw(st.sampled_from(_PLANTS))
    listed = " ".join(draw(st.lists(st.sampled_from(_LISTS), min_size=1, max_size=3)))
    if vendor == "zte":
        listed = listed.replace(" to ", "-")
    lines = (GOLDEN[vendor] / "leaf-1.cfg").read_text().split("\n")
    at = lines.index(line)
    lines[at] = form.format(listed)
    return _pack(vendor, "\n".join(lines).encode(), [at + 1], {"list": listed})


def _numbers(case: Case, tmp: Path) -> Outcome:
    from roce_cfg.model import numbers

    meta, data = _unpack(case[1])
    path = tmp / "leaf-1.cfg"
    path.write_bytes(data)
    out = _run(["parse", str(path)])
    try:
        numbers.parse(str(meta["list"]), numbers.VLAN)
        refused = False
    except numbers.NumberError:
        refused = True
    if out.code == 0 and refused:
        unread = {u["line"] for c in json.loads(out.output)["configs"] for u in c["unread"]}
        if not set(meta["bad"]) <= unread:  # type: ignore[arg-type]
            out.violation = f"'{str(meta['list'])[:60]}' was read, not reported on its line"
    return out


# -- numbers typed as options ------------------------------------------------------------------

_NUMBERS = [
    "0",
    "1",
    "-1",
    "2",
    "63",
    "64",
    "100000",
    "100001",
    "86400",
    "86401",
    "inf",
    "nan",
    "1e999",
    "-inf",
    "0.5",
    "9" * 30,
    "9" * 4301,
    "\u00b9",
    "0x10",
    "",
    " ",
]
_OPTION_RUNS = {
    "deadlock": ["deadlock", str(VALLEY)],
    "lint": ["lint", str(GOLDEN["h3c"] / "leaf-1.cfg")],
    "plan": ["plan", "--gpus", "64"],
    "push": ["push", str(ROOT / "golden/single-switch"), "-i", "@INV@"],
}
_OPTION_FLAGS = {
    "deadlock": ["--samples", "--max-failures", "--roce-dscp", "--fail-links"],
    "lint": ["--roce-dscp", "--cnp-dscp", "--cable-length"],
    "plan": [
        "--nics",
        "--nic-speed",
        "--pcie-gen",
        "--pcie-lanes",
        "--oversubscription",
        "--in-rack-m",
        "--in-row-m",
        "--between-rows-m",
        "--leaf",
        "--spine",
    ],
    "push": ["--workers", "--confirm-timeout", "--batch", "--timeouts", "--type-ahead"],
}


@st.composite
def _options_case(draw: st.DrawFn) -> bytes:
    command = draw(st.sampled_from(sorted(_OPTION_RUNS)))
    flag = draw(st.sampled_from(_OPTION_FLAGS[command]))
    value = draw(st.one_of(st.sampled_from(_NUMBERS), st.text(max_size=10)))
    if flag == "--timeouts":
        value = "connect=" + value
    if flag == "--batch":
        value = draw(st.sampled_from([value, value + "%", f"1,{value}%"]))
    fault = draw(st.sampled_from(["drop-after", "delay", "link-speed", "reject"]))
    return json.dumps(
        {"command": command, "flag": flag, "value": value, "fault": f"leaf-1:{fault}={value}"}
    ).encode()


def _options(case: Case, tmp: Path) -> Outcome:
    from roce_cfg.errors import InputError
    from roce_cfg.lab.faults import parse

    spec = json.loads(case[1])
    inv = tmp / "inv.yaml"
    inv.write_text("hosts:\n  switch-1: {hostname: 127.0.0.1, port: 9, data: {vendor: huawei}}\n")
    value = spec["value"].replace("\x00", "")
    args = [a.replace("@INV@", str(inv)) for a in _OPTION_RUNS[spec["command"]]]
    args += [spec["flag"], value]
    if spec["command"] == "push" and spec["flag"] != "--timeouts":
        args += ["--timeouts", "connect=1"]  # port 9 refuses at once; never wait long
    with _inside(tmp):
        out = _run(args, (0, 1, 2, 3))
    if out.code is not None and not out.violation:
        try:  # lab --fault's values, without starting the emulators
            parse(spec["fault"].replace("\x00", ""))
        except InputError as exc:
            if "\n" in str(exc) or "int()" in str(exc) or "4300" in str(exc):
                out.violation = f"lab --fault: {str(exc)[:200]}"
        except Exception as exc:
            return Outcome(None, f"lab --fault: {type(exc).__name__}: {exc}")
    return out


def _of(
    strategy: Callable[[], st.SearchStrategy[bytes]], kind: str
) -> Callable[[], st.SearchStrategy[Case]]:
    return lambda: strategy().map(lambda b: (kind, b))


# Cases in the suite's short pass (tests/fuzz/test_semfuzz.py): a few each, about 20 s in all.
TARGETS: dict[str, Target] = {
    "paths": Target(_paths, _of(_path_strategy, "path"), 12),
    "state": Target(_state, _of(_state_case, "state"), 8),
    "scheduler": Target(_scheduler, _of(_scheduler_case, "address"), 8),
    "verify": Target(_verify, _of(_verify_case, "options"), 6),
    "secrets": Target(_secrets, _of(_secrets_case, "config"), 4),
    "markdown": Target(_markdown, _of(_markdown_case, "names"), 4),
    "numbers": Target(_numbers, _of(_numbers_case, "config"), 8),
    "options": Target(_options, _of(_options_case, "options"), 10),
}
