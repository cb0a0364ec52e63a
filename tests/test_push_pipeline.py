"""Lines typed ahead of the answers (deploy/session.py ``Cli.send_all``): each answer is still
read and checked in order, a line that opens a view is answered before anything follows it,
a refusal stops the push with the lines already typed read off and restored; and the lab's
emulators queue lines typed ahead and answer them in order, as a switch's CLI does."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from roce_cfg.deploy import session
from roce_cfg.deploy.inventory import Target
from roce_cfg.deploy.push import Credentials, Outcome, push
from roce_cfg.deploy.restore import differences
from roce_cfg.deploy.session import Cli, NoAnswer, Rejected
from roce_cfg.deploy.transport import connect
from roce_cfg.deploy.tree import Tree, remediation
from roce_cfg.lab.cli import Faults, Switch
from roce_cfg.lab.server import Lab
from roce_cfg.platforms.profile import load_profile
from roce_cfg.vendor import Vendor
from tests.pushlab import intended

USER, PASSWORD = "netops", "Lab-Pa55-never-printed"
CREDS = Credentials(USER, PASSWORD)
H3C = load_profile(Vendor.H3C)
PROMPT = "[leaf-1]"
REFUSED = H3C.dialect.error


class _Typed:
    """A switch CLI in miniature over no network: what is written queues; a read answers every
    queued line in order (its echo, an error for a refused one, the prompt), as a CLI does once
    it has read its input; it records what was written when."""

    class remote_conn:
        closed = False

    def __init__(self, refuse: tuple[str, ...] = (), asks: str = "") -> None:
        self.refuse, self.asks = refuse, asks
        self.typed: list[str] = []
        self.answered = 0
        self.writes: list[tuple[int, list[str]]] = []  # (lines answered before it, its lines)
        self.most_ahead = 0

    def normalize_cmd(self, line: str) -> str:
        return line + "\n"

    def normalize_linefeeds(self, text: str) -> str:
        return text.replace("\r\n", "\n")

    def write_channel(self, data: str) -> None:
        lines = data.split("\n")[:-1]
        self.writes.append((self.answered, lines))
        self.typed += lines

    def read_channel(self) -> str:
        self.most_ahead = max(self.most_ahead, len(self.typed) - self.answered)
        out = ""
        while self.answered < len(self.typed):
            line = self.typed[self.answered]
            self.answered += 1
            if line == self.asks and self.answered < len(self.typed):
                # a question, which the next line typed answers; one prompt for both
                out += f"{line}\r\nContinue? [Y/N]:{self.typed[self.answered]}\r\n"
                self.answered += 1
            else:
                error = f"\r\n{REFUSED}" if line in self.refuse else ""
                out += f"{line}{error}\r\n"
            out += PROMPT
        return out


def _cli(conn: _Typed, timeout: float = 5.0) -> Cli:
    return Cli(conn, H3C, timeout)  # type: ignore[arg-type]


PLAIN = [f"snmp-agent sys-info location rack-{i}" for i in range(40)]


def test_a_window_of_lines_goes_out_before_the_first_answer_is_read() -> None:
    conn = _Typed()
    _cli(conn).send_all(PLAIN, 16)
    assert conn.writes[0] == (0, PLAIN[:16])  # sixteen typed before any answer
    assert conn.most_ahead == 16
    assert conn.typed == PLAIN and conn.answered == len(PLAIN)
    assert len(conn.writes) <= 5  # written in a few windows, not line by line


def test_a_window_of_one_is_line_by_line() -> None:
    conn = _Typed()
    _cli(conn).send_all(PLAIN[:10], 1)
    assert conn.writes == [(i, [line]) for i, line in enumerate(PLAIN[:10])]
    assert conn.most_ahead == 1


def test_a_line_that_opens_a_view_is_answered_before_the_next_is_typed() -> None:
    lines = ["lldp global enable", "vlan 101", "name rail0", "quit",
             "interface HundredGigE1/0/1", "mtu 9216", "undo shutdown", "quit",
             "interface HundredGigE1/0/2", "mtu 9216"]  # fmt: skip
    conn = _Typed()
    _cli(conn).send_all(lines, 16)
    opens = [i for i, line in enumerate(lines) if Tree(H3C).is_view(line)]
    assert opens == [1, 4, 8]
    typed = 0
    for answered, written in conn.writes:
        for i in opens:
            if typed <= i + 1 < typed + len(written):  # this write holds the line after it
                assert answered > i, (lines[i], written)
        typed += len(written)
    assert [w[-1] for _, w in conn.writes[:-1]] == [lines[i] for i in opens]


def test_a_fenced_line_goes_out_only_once_every_line_before_it_is_answered() -> None:
    # a line the restore could not take back: never typed behind a line that may be refused
    conn = _Typed()
    fenced = frozenset({PLAIN[5], PLAIN[6]})
    _cli(conn).send_all(PLAIN[:20], 16, fenced)
    at = {line: (answered, len(w)) for answered, w in conn.writes for line in w}
    assert at[PLAIN[5]] == (5, 1) and at[PLAIN[6]] == (6, 14)  # each after all before it
    assert conn.writes[0] == (0, PLAIN[:5])
    conn = _Typed(refuse=(PLAIN[2],))
    with pytest.raises(Rejected):
        _cli(conn).send_all(PLAIN[:20], 16, fenced)
    assert conn.typed == PLAIN[:5]  # the refusal came before the fenced line was typed


def test_a_refused_line_mid_window_stops_with_the_lines_typed_after_it_read_off() -> None:
    conn = _Typed(refuse=(PLAIN[5],))
    cli = _cli(conn)
    with pytest.raises(Rejected) as caught:
        cli.send_all(PLAIN, 16)
    assert str(caught.value).startswith(f"rejected at command: {PLAIN[5]} ({REFUSED})")
    assert "10 line(s) after it were already typed" in str(caught.value)
    # what went out is in 'sent' (the restore's list of what may be on the switch), nothing
    # after the window went out, and every answer of it was read: the session is at a prompt
    assert cli.sent == PLAIN[:16] == conn.typed and conn.answered == 16
    assert cli.send("display clock") == "" and cli.ended == PROMPT


def test_a_question_that_swallows_the_next_line_is_named_when_time_runs_out() -> None:
    conn = _Typed(asks=PLAIN[2])
    started = time.monotonic()
    with pytest.raises(NoAnswer, match=re.escape(f"next line '{PLAIN[3]}' was echoed")):
        _cli(conn, timeout=0.5).send_all(PLAIN[:8], 8)
    assert time.monotonic() - started < 10


def test_a_display_is_read_to_the_prompt_that_ends_it_not_one_inside_it() -> None:
    # a read that ends after a line ending like a prompt: the output goes on
    parts = ["display current-configuration\r\n#\r\ninterface X\r\n description [rack-7]",
             "\r\n#\r\nreturn\r\n<leaf-1>"]  # fmt: skip

    class Shown(_Typed):
        def read_channel(self) -> str:
            return parts.pop(0) if parts else ""

    shown = _cli(Shown()).show("display current-configuration")
    assert shown == "#\ninterface X\n description [rack-7]\n#\nreturn"


class _Channel:
    """paramiko's Channel as the session reads it: recv of the bytes that came (a timeout when
    none did, b'' once closed), sendall of what is typed."""

    def __init__(self, chunks: list[bytes], closes: bool = False) -> None:
        self.chunks, self.closes, self.sent = chunks, closes, b""
        self.timeout: float | None = 20.0

    def gettimeout(self) -> float | None:
        return self.timeout

    def settimeout(self, seconds: float | None) -> None:
        self.timeout = seconds

    def recv(self, size: int) -> bytes:
        if self.chunks:
            return self.chunks.pop(0)
        if self.closes:
            return b""
        raise TimeoutError

    def sendall(self, data: bytes) -> None:
        self.sent += data


class _Wired:
    """A netmiko connection over ``_Channel``, with netmiko's line-end normalization."""

    encoding, disable_lf_normalization, ansi_escape_codes = "utf-8", False, False

    def __init__(self, channel: _Channel, ahead: str = "") -> None:
        self.remote_conn, self.ahead, self.reads = channel, ahead, 0

    def normalize_cmd(self, line: str) -> str:
        return line + "\n"

    def normalize_linefeeds(self, text: str) -> str:
        return re.sub("\r", "\n", re.sub("(\r\r\r\n|\r\r\n|\r\n|\n\r)", "\n", text))

    def read_channel(self) -> str:  # netmiko's: what it read past its prompts at login
        self.reads += 1
        ahead, self.ahead = self.ahead, ""
        return ahead


def test_a_line_end_split_between_two_reads_is_one_line_end() -> None:
    channel = _Channel([b"display this\r\n#\r\n vlan 101\r", b"\n na", "me r\u00e9".encode()[:-1],
                        "\u00e9".encode()[1:] + b"l\r\n#\r\n[leaf-1]"])  # fmt: skip
    conn = _Wired(channel)
    shown = _cli(conn).show("display this")  # type: ignore[arg-type]
    assert shown == "#\n vlan 101\n name r\u00e9l\n#"  # no blank line; a character split too
    assert channel.sent == b"display this\n" and channel.timeout == 20.0  # its timeout kept
    assert conn.reads == 1  # netmiko's read once, for what it had read ahead; then the channel


def test_what_netmiko_read_ahead_at_login_comes_first() -> None:
    channel = _Channel([b"\r\n[leaf-1]"])
    conn = _Wired(channel, ahead="display this\n#\n vlan 101")
    assert _cli(conn).show("display this") == "#\n vlan 101"  # type: ignore[arg-type]


def test_a_channel_that_closes_mid_answer_is_a_drop() -> None:
    channel = _Channel([b"undo vlan 7\r\n"], closes=True)
    with pytest.raises(session.Dropped, match="closed the connection at 'undo vlan 7'"):
        _cli(_Wired(channel)).send("undo vlan 7")  # type: ignore[arg-type]


def test_a_channel_that_says_nothing_runs_out_of_time() -> None:
    started = time.monotonic()
    with pytest.raises(NoAnswer, match=re.escape("no answer to 'vlan 7' within 0.3 s")):
        _cli(_Wired(_Channel([])), timeout=0.3).send("vlan 7")  # type: ignore[arg-type]
    assert time.monotonic() - started < 5


# -- the emulators ----------------------------------------------------------------------------


def _read_until(conn: Any, pattern: str, seconds: float = 20.0) -> str:
    out, deadline = "", time.monotonic() + seconds
    while not re.search(pattern, out) and time.monotonic() < deadline:
        out += conn.read_channel().replace("\r\n", "\n")
        time.sleep(0.01)
    return out


def test_the_emulator_answers_lines_typed_ahead_in_order() -> None:
    sw = Switch.start("leaf-1", H3C)
    lines = ["system-view"]
    for v in range(10, 20):
        lines += [f"vlan {v}", f"name rail{v}", "quit"]
    lines += ["vlan 99 x", "return"]  # one refused line among them
    with Lab([sw], USER, PASSWORD) as lab:
        conn = connect(H3C, "127.0.0.1", lab.endpoints["leaf-1"].port, USER, PASSWORD, enable=False)
        try:
            conn.write_channel("".join(f"{line}\n" for line in lines))
            out = _read_until(conn, r"return\n<leaf-1>$")
        finally:
            conn.disconnect()
    assert sw.typed_ahead >= len(lines) - 2  # they waited in its input, as typed
    at = 0
    for line in lines:  # each echo after the previous answer's prompt, once, in order
        found = out.find(f"{line}\n", at)
        assert found >= at and out[at:found].endswith(("]", ">")), (line, out[at : found + 40])
        at = found + len(line)
    refused = out.find("vlan 99 x")
    assert "found at '^' position." in out[refused : out.find("return\n")]
    running = sw.running.render()
    assert all(f"vlan {v}\n name rail{v}" in running for v in range(10, 20))


def test_an_emulator_stuck_on_a_line_answers_no_line_typed_after_it() -> None:
    sw = Switch.start("leaf-1", H3C)
    sw.faults = Faults(hang_on=r"^vlan 12$")
    with Lab([sw], USER, PASSWORD) as lab:
        port = lab.endpoints["leaf-1"].port
        conn = connect(H3C, "127.0.0.1", port, USER, PASSWORD, enable=False)
        try:
            conn.write_channel("system-view\nvlan 11\nquit\nvlan 12\nquit\nvlan 13\nquit\n")
            out = _read_until(conn, r"never", 1.0)
        finally:
            conn.remote_conn_pre.close()  # a polite logout would wait on the stuck CLI
        assert "vlan 11" in out and "vlan 12" not in out and "vlan 13" not in out
        assert "vlan 13" not in sw.running.render()
        again = connect(H3C, "127.0.0.1", port, USER, PASSWORD)  # a new session is answered
        try:
            assert Cli(again, H3C, 5.0).show("display current-configuration").count("vlan 11")
        finally:
            again.disconnect()


# -- push through the emulators ----------------------------------------------------------------


def _bare_push(vendor: Vendor, faults: Faults, **kw: Any) -> tuple[Any, Switch, str, str]:
    profile = load_profile(vendor)
    sw = Switch.start("leaf-1", profile, lenient=True)
    before = sw.running.render(), sw.saved
    sw.faults = faults
    with Lab([sw], USER, PASSWORD) as lab:
        target = Target("leaf-1", "127.0.0.1", lab.endpoints["leaf-1"].port, profile)
        outcome = push(target, intended(vendor), CREDS, apply=True, **kw)
    return outcome, sw, *before


def test_push_types_ahead_by_default_and_one_line_at_a_time_when_asked() -> None:
    ahead, sw, _, _ = _bare_push(Vendor.HUAWEI, Faults())
    one, sw1, _, _ = _bare_push(Vendor.HUAWEI, Faults(), window=1)
    assert ahead.status == one.status == "changed", (ahead.error, one.error)
    assert sw.running.render() == sw1.running.render()
    assert sw.typed_ahead >= 8  # the emulator held line N+1 before it answered line N
    assert sw1.typed_ahead <= 1 < sw.typed_ahead


def _mid_window(vendor: Vendor) -> tuple[str, str]:
    """A line of a bare switch's push that starts a window (the line before it opens a view)
    with two more lines of the same window after it: the line, and the line after it."""
    profile = load_profile(vendor)
    tree = Tree(profile)
    tree.apply([profile.dialect.hostname.format(host="leaf-1")])
    commands = remediation(tree, Tree.from_text(intended(vendor), profile))
    for i in range(1, len(commands) - 2):
        if (
            tree.is_view(commands[i - 1])
            and not any(tree.is_view(c) for c in commands[i : i + 2])
            and commands.count(commands[i]) == 1
            and commands[i] != profile.dialect.view_exit
        ):
            return commands[i], commands[i + 1]
    raise AssertionError("no such line")


@pytest.mark.parametrize("vendor", list(Vendor), ids=[v.value for v in Vendor])
def test_a_refused_line_mid_window_is_rolled_back_with_the_lines_typed_after_it(
    vendor: Vendor, monkeypatch: pytest.MonkeyPatch
) -> None:
    refused, after = _mid_window(vendor)
    drained: list[str] = []
    original = session.Cli._drain

    def drain(self: Cli, ahead: Any) -> None:
        drained.extend(ahead)
        original(self, ahead)

    monkeypatch.setattr(session.Cli, "_drain", drain)
    outcome, sw, running, saved = _bare_push(vendor, Faults(reject="^" + re.escape(refused) + "$"))
    assert outcome.kind == "rejected", outcome.error
    assert f"rejected at command: {refused} (" in outcome.error
    assert re.search(r"\d+ line\(s\) after it were already typed", outcome.error)
    assert drained and drained[0] == after  # typed, then read off before the restore
    assert outcome.status == "rolled back", outcome.error
    assert differences(running, sw.running.render(), sw.profile) == []
    assert differences(saved, sw.saved, sw.profile) == []


def test_type_ahead_on_the_command_line(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from roce_cfg.deploy import fanout
    from tests.helpers import run

    inv = tmp_path / "inv.yaml"
    inv.write_text("hosts:\n  leaf-1: {hostname: 127.0.0.1, port: 9, data: {vendor: h3c}}\n")
    monkeypatch.setenv("ROCE_CFG_USERNAME", USER)
    monkeypatch.setenv("ROCE_CFG_PASSWORD", PASSWORD)
    for bad in ("0", "65", "x"):
        result = run("push", str(tmp_path), "-i", str(inv), "--type-ahead", bad)
        assert result.exit_code == 2 and "--type-ahead" in result.output, result.output
    (tmp_path / "leaf-1.cfg").write_text(intended(Vendor.H3C))
    asked: list[int] = []

    def pushed(target: Target, *args: Any) -> Any:
        asked.append(args[-1])  # what each switch's push is given
        return Outcome(target.name, "no changes")

    monkeypatch.setattr(fanout, "push", pushed)
    for given in ([], ["--type-ahead", "1"]):
        assert run("push", str(tmp_path), "-i", str(inv), *given).exit_code == 0
    assert asked == [session.TYPE_AHEAD, 1]


def test_lines_typed_ahead_do_not_each_wait_a_round_trip() -> None:
    from roce_cfg.lab.faults import parse

    assert parse("leaf-1:latency=0.02") == ("leaf-1", "latency_s", 0.02)
    late = Faults(latency_s=0.02)  # every answer 20 ms late: line by line, 370 lines take 7 s
    outcome, *_ = _bare_push(Vendor.HUAWEI, late)
    assert outcome.status == "changed", outcome.error
    assert len(outcome.commands) > 300 and outcome.seconds < 5.0, outcome.seconds


def test_what_a_full_config_restore_cannot_take_back_is_fenced() -> None:
    from roce_cfg.deploy.push import irreversible

    for vendor in Vendor:
        profile = load_profile(vendor)
        bare = Switch.start("leaf-1", profile).running.render()
        target = Target("leaf-1", "127.0.0.1", 22, profile)
        tree = Tree.from_text(bare, profile)
        commands = remediation(tree, Tree.from_text(intended(vendor), profile))
        fenced = irreversible(target, commands)
        if profile.dialect.restore.commands:  # a restore point takes back anything
            assert fenced == frozenset(), vendor
        elif vendor is Vendor.ZTE:  # no source gives an unset ZXROS port's admin state
            assert fenced == {"no shutdown"}, fenced
