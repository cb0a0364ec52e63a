"""Hostile input III: the sweep's --scheduler and --state, options that do not apply, numbers
typed as options, and what messages print. Each was a traceback, a hang, a silent no-op or a
raw character before; each is now one line and exit 2 (or one note), and each test can fail
(the planted defect is named in its docstring)."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from roce_cfg.deadlock import cluster, load
from roce_cfg.deadlock import scheduler as sched
from roce_cfg.deadlock.net import build
from roce_cfg.deadlock.run import Failures, run
from roce_cfg.deadlock.statefile import fingerprint
from roce_cfg.errors import InputError, printable
from roce_cfg.output import scrub
from tests.helpers import ROOT
from tests.helpers import run as cli

VALLEY = ROOT / "tests/deadlock/valley-per-spine-asn.yaml"
POD = ROOT / "examples/pod-small.yaml"

# -- --scheduler -------------------------------------------------------------------------------

ADDRESSES = [
    ("not a url", "not an address"),
    ("ftp://x:1", "scheme 'ftp'"),
    ("inproc://x", "scheme 'inproc'"),
    ("tcp://host", "needs a port"),
    ("tcp://host:0", "needs a port"),
    ("tcp://host:65536", "needs a port"),
    ("tcp://host:+80", "needs a port"),
    ("tcp://host:\uff18\uff17\uff18\uff16", "needs a port"),  # fullwidth digits
    ("tcp://" + "a" * 10_000 + ":1", "10,008 characters"),
    ("tcp://" + "a" * 64 + ".example:1", "no IPv4 address"),
    ("tcp://-bad-.example:1", "no IPv4 address"),
    ("tcp://[::g]:1", "is not an IPv6 address"),
    ("tcp://\u202eevil:1", "not an address"),
    ("tcp://host:1/path", "not an address"),
    ("", "no IPv4 address"),
]


@pytest.mark.parametrize(("address", "why"), ADDRESSES, ids=[a[:24] for a, _ in ADDRESSES])
def test_a_scheduler_address_is_checked_before_anything_is_dialled(address: str, why: str) -> None:
    with pytest.raises(InputError) as info:
        sched.parse(address)
    message = str(info.value)
    assert why in message and "\n" not in message and len(message) < 300
    assert "\u202e" not in message


def test_good_addresses_are_read_as_dask_writes_them() -> None:
    assert sched.parse("tcp://10.0.0.5:8786") == ("tcp", "10.0.0.5", 8786)
    assert sched.parse("sched-1.example.net:8786") == ("tcp", "sched-1.example.net", 8786)
    assert sched.parse("TLS://[fe80::1]:8786") == ("tls", "fe80::1", 8786)


@contextmanager
def _server(answer: bytes | None) -> Iterator[int]:
    """A TCP service on 127.0.0.1 that sends ``answer`` (None: says nothing) to each client."""
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen()
    done = threading.Event()

    def serve() -> None:
        srv.settimeout(0.2)
        while not done.is_set():
            try:
                conn, _ = srv.accept()
            except OSError:
                continue
            if answer:
                conn.sendall(answer)
            threading.Timer(5, conn.close).start()

    threading.Thread(target=serve, daemon=True).start()
    try:
        yield srv.getsockname()[1]
    finally:
        done.set()
        srv.close()


def _free_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


@pytest.mark.parametrize(
    ("answer", "why"),
    [
        (b"HTTP/1.0 200 OK\r\n\r\n" + b"hello" * 1000, r"not a Dask scheduler \(it sent"),
        (b"\xff" * 8, r"not a Dask scheduler \(it sent"),
        (b"\x20\x00\x00\x00\x00\x00\x00\x00" + b"\x01" + b"\x00" * 31, "not a Dask scheduler"),
        (None, "no handshake within"),
    ],
    ids=["http", "huge-length", "not-msgpack", "silent"],
)
def test_a_peer_that_is_not_dask_is_one_line_within_seconds(answer: bytes | None, why: str) -> None:
    """Dask read any peer's first eight bytes as a message length: a web server gave a
    MemoryError or OverflowError traceback, a silent service a 30-second wait."""
    with _server(answer) as port:
        started = time.monotonic()
        with pytest.raises(InputError, match=why):
            sched.reach(f"tcp://127.0.0.1:{port}")
    assert time.monotonic() - started < sched.HELLO_S + 2


def test_a_closed_port_is_refused_at_once() -> None:
    started = time.monotonic()
    with pytest.raises(InputError, match="cannot reach it"):
        sched.reach(f"tcp://127.0.0.1:{_free_port()}")
    assert time.monotonic() - started < sched.CONNECT_S + 1


def test_a_dask_scheduler_answers_as_one() -> None:
    pytest.importorskip("dask.distributed")
    from dask.distributed import LocalCluster

    with LocalCluster(n_workers=0, host="127.0.0.1", dashboard_address=None) as local:
        assert sched.reach(local.scheduler_address) == local.scheduler_address


def test_options_a_run_cannot_use_are_one_note(monkeypatch: pytest.MonkeyPatch) -> None:
    """--scheduler and --state were ignored in silence without a sweep."""
    monkeypatch.setattr(cluster, "have_dask", lambda: False)
    report = run(load(VALLEY), Failures(scheduler="tcp://127.0.0.1:1", state="x.jsonl"))
    assert report.notes == [
        "--scheduler and --state not used: no failure sweep was asked for "
        "(--fail-links all-single or --max-failures 2)"
    ]
    result = cli("deadlock", str(VALLEY), "--state", "x.jsonl")
    assert result.stderr.count("roce-cfg: note: --state not used") == 1
    with pytest.raises(InputError, match="scheme 'ftp'"):  # malformed: an error, used or not
        run(load(VALLEY), Failures(scheduler="ftp://x:1"))


def test_a_sweep_with_a_scheduler_needs_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cluster, "have_dask", lambda: False)
    with pytest.raises(InputError, match="Dask extra"):
        run(load(VALLEY), Failures("all-single", scheduler="tcp://127.0.0.1:1"))


# -- --state -----------------------------------------------------------------------------------


def _header() -> str:
    src = load(VALLEY)
    return json.dumps({"fabric": fingerprint(build(src.devices, src.links, src.dscp))})


STATES = [
    (
        '{"scenario": [0], "cycles": [{"nodes": [[999, 1], [1, 2]], "causes": ["a", "b"]}]}',
        "switch 999 is not one of",
    ),
    (
        '{"scenario": [0], "cycles": [{"nodes": [[0, 9999]], "causes": ["a"]}]}',
        "link 9999 is not one of",
    ),
    (
        '{"scenario": [0], "cycles": [{"nodes": [[0, 0], [1, 0]], "causes": ["a"]}]}',
        "has 1 causes (one per hop)",
    ),
    ('{"scenario": [0], "cycles": [{"nodes": [[1e400, 1]], "causes": ["a"]}]}', "is not one of"),
    ('{"scenario": [true], "cycles": []}', "scenario link True"),
    ('{"scenario": [99999999999999999999999], "cycles": []}', "scenario link"),
    ('{"scenario": [0], "cycles": [{"nodes": [], "causes": []}]}', "a list of nodes"),
    ('{"scenario": [0], "cycles": [{"nodes": [[0, 0]], "causes": [7]}]}', "a cause is text"),
    ('{"scenario": [0]}', "'cycles' is not a list"),
    ("[1]", "expected {'scenario'"),
    ("[" * 100_000, "nested too deep"),
    ("{not json", "Expecting property name"),
]


@pytest.mark.parametrize(("line", "why"), STATES, ids=[w[:24] for _, w in STATES])
def test_a_state_line_is_checked_against_the_fabric(
    line: str, why: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bad node index was an IndexError traceback, a float node an OverflowError."""
    monkeypatch.setattr(cluster, "have_dask", lambda: False)
    state = tmp_path / "s.jsonl"
    state.write_text(_header() + "\n" + line + "\n")
    with pytest.raises(InputError) as info:
        run(load(VALLEY), Failures("all-single", state=str(state)))
    assert why in str(info.value) and ":2 --state" in str(info.value)
    assert "\n" not in str(info.value)


def test_a_state_file_is_never_written_through_a_link(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A dangling symlink was written through: its target created wherever it pointed."""
    monkeypatch.setattr(cluster, "have_dask", lambda: False)
    link = tmp_path / "s.jsonl"
    link.symlink_to(tmp_path / "elsewhere" / "target.jsonl")
    with pytest.raises(InputError, match="never writes through a link"):
        run(load(VALLEY), Failures("all-single", state=str(link)))
    assert not (tmp_path / "elsewhere").exists()
    fresh = tmp_path / "new" / "folder" / "s.jsonl"  # a missing folder is made
    run(load(VALLEY), Failures("all-single", state=str(fresh)))
    assert fresh.read_text().startswith(_header())


# -- numbers typed as options, and messages ----------------------------------------------------


@pytest.mark.parametrize("rate", ["inf", "1e999", "1e11", "nan", "0.5"])
def test_the_storm_threshold_is_finite(rate: str) -> None:
    """verify --storm-pps inf was accepted: no rate is ever a storm then."""
    result = cli(
        "verify", str(POD), "-i", str(ROOT / "examples/inventory.yaml"), "--storm-pps", rate
    )
    assert result.exit_code == 2 and "--storm-pps" in result.stderr


@pytest.mark.parametrize("value", ["9" * 4301, "\u00b9", "1e3", "-1", "1000001"])
def test_a_fault_count_is_one_line(value: str) -> None:
    """lab --fault HOST:drop-after=<4,301 digits> printed Python's conversion error."""
    from roce_cfg.lab.faults import parse

    with pytest.raises(InputError) as info:
        parse(f"leaf-1:drop-after={value}")
    assert "drop-after needs a whole number 0-1000000" in str(info.value)
    assert "int()" not in str(info.value) and "4300" not in str(info.value)


def test_report_verify_refuses_a_device_before_reading_it(tmp_path: Path) -> None:
    """report --verify /dev/zero read 1 GiB, then called the file 'fabric.json'."""
    started = time.monotonic()
    result = cli("report", str(POD), "-o", str(tmp_path / "r.html"), "--verify", "/dev/zero")
    assert result.exit_code == 2
    assert "/dev/zero: a character device, not a verify result; refused" in result.stderr
    assert "fabric.json" not in result.stderr
    assert time.monotonic() - started < 30  # the design of the pod, not a GiB read


@pytest.mark.parametrize("kind", ["text", "markup", "yaml"])
def test_bidirectional_controls_never_reach_a_terminal_raw(kind: str) -> None:
    """A push error printed a switch's right-to-left override raw, reordering the line."""
    shown = scrub("rejected: \u202eenil-eno\u2066x\u200f", kind)  # type: ignore[arg-type]
    assert not any(c in shown for c in "\u202e\u2066\u200f")
    assert "\\u202e" in shown
    assert printable("a\u202eb\x1bc") == "a\\u202eb\\x1bc"
    assert (
        scrub("\u0627\u0644\u0639\u0631\u0628\u064a\u0629")
        == "\u0627\u0644\u0639\u0631\u0628\u064a\u0629"
    )


def test_a_push_error_from_the_switch_prints_its_override_escaped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from roce_cfg.lab.cli import Faults, Switch
    from roce_cfg.lab.server import Lab
    from roce_cfg.platforms.profile import load_profile
    from roce_cfg.vendor import Vendor
    from tests.helpers import lab_inventory

    golden = (ROOT / "golden/pod-small-huawei/leaf-1.cfg").read_text()
    (tmp_path / "out").mkdir()
    hostile = golden.replace("description spine-1", "description spine\u202eeno-1")
    (tmp_path / "out" / "leaf-1.cfg").write_text(hostile)
    sw = Switch.start("leaf-1", load_profile(Vendor.HUAWEI), golden)
    sw.faults = Faults(reject="\u202e")
    monkeypatch.setenv("ROCE_CFG_USERNAME", "netops")
    monkeypatch.setenv("ROCE_CFG_PASSWORD", "lab-secret")
    with Lab([sw], "netops", "lab-secret") as lab:
        inv = lab_inventory(tmp_path / "inv.yaml", lab.endpoints["leaf-1"].port, "huawei")
        result = cli("push", str(tmp_path / "out"), "-i", str(inv), "--apply")
    assert result.exit_code != 0 and "\\u202e" in result.output, result.output
    assert "\u202e" not in result.output


def test_a_complete_state_file_answers_without_reaching_the_scheduler(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The address is checked (a malformed one is an error), but dialled only when the
    sweep has work left for it: a complete state file answers on its own (docs/deadlock.md)."""
    monkeypatch.setattr(cluster, "have_dask", lambda: False)
    state = tmp_path / "s.jsonl"
    first = run(load(VALLEY), Failures("all-single", max_failures=2, state=str(state)))
    monkeypatch.setattr(cluster, "have_dask", lambda: True)
    closed = f"tcp://127.0.0.1:{_free_port()}"
    again = run(
        load(VALLEY), Failures("all-single", max_failures=2, scheduler=closed, state=str(state))
    )
    assert again.opened.keys() == first.opened.keys()
    with pytest.raises(InputError, match="cannot reach it"):
        run(load(VALLEY), Failures("all-single", max_failures=2, scheduler=closed))


# -- overlay files ------------------------------------------------------------------------------


def _overlay(tmp: Path) -> tuple[Path, Path]:
    secret = tmp / "elsewhere" / "secret.txt"
    secret.parent.mkdir()
    secret.write_text("SECRET-FILE-CONTENT\n")
    overlay = tmp / "overlay"
    (overlay / "templates" / "huawei" / "sections").mkdir(parents=True)
    return overlay, secret


def test_an_overlay_template_that_is_a_link_is_refused(tmp_path: Path) -> None:
    """jinja's loader followed links: the linked file's content was in every generated config."""
    overlay, secret = _overlay(tmp_path)
    (overlay / "templates/huawei/sections/lldp.j2").symlink_to(secret)
    out = tmp_path / "out"
    result = cli(
        "generate",
        str(ROOT / "examples/single-switch.yaml"),
        "-o",
        str(out),
        "--vendor-dir",
        str(overlay),
    )
    assert result.exit_code == 2 and "leads outside" in result.stderr, result.output
    assert not out.exists()


def test_an_include_through_a_linked_folder_is_refused(tmp_path: Path) -> None:
    overlay, secret = _overlay(tmp_path)
    (overlay / "templates/huawei/linked").symlink_to(secret.parent)
    (overlay / "templates/huawei/sections/lldp.j2").write_text(
        '{% include "linked/secret.txt" %}\nlldp enable\n#\n'
    )
    out = tmp_path / "out"
    result = cli(
        "generate",
        str(ROOT / "examples/single-switch.yaml"),
        "-o",
        str(out),
        "--vendor-dir",
        str(overlay),
    )
    assert result.exit_code == 2 and "leads outside" in result.stderr, result.output
    assert "SECRET-FILE-CONTENT" not in result.output and not out.exists()


def test_an_overlay_parse_template_that_is_a_link_is_refused(tmp_path: Path) -> None:
    overlay, secret = _overlay(tmp_path)
    (overlay / "templates/huawei/parse").mkdir()
    (overlay / "templates/huawei/parse/system.ttp").symlink_to(secret)
    config = ROOT / "golden/pod-small-huawei/leaf-1.cfg"
    result = cli("parse", str(config), "--vendor-dir", str(overlay))
    assert result.exit_code == 2 and "leads outside" in result.stderr, result.output
