"""The capture kit (``roce-cfg vendors capture VENDOR``): its script, typed over SSH into an
emulated Ruijie and ZTE switch (127.0.0.1), the session saved as a terminal logs it, read back
into an overlay that cites the switch; with that overlay ``generate --strict-syntax`` takes the
bundled Ruijie and ZTE examples it refuses without. A line the switch refuses stays unsourced
with its answer quoted; the emulator's '?' help comes from the grammar; bad logs are refused
in one line."""

from __future__ import annotations

import re
import time
from pathlib import Path

import paramiko
import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from roce_cfg.grammar import load_grammar
from roce_cfg.grammar.gaps import gaps
from roce_cfg.lab.cli import Faults, Session, Switch
from roce_cfg.lab.server import Lab
from roce_cfg.platforms.capture import script
from roce_cfg.platforms.profile import load_profile
from roce_cfg.vendor import Vendor
from tests.helpers import ROOT, run

USER, PASSWORD = "netops", "Lab-Pa55-never-printed"
OWNED = (Vendor.RUIJIE, Vendor.ZTE)
MODEL = {Vendor.RUIJIE: "S6510-48VS8CQ", Vendor.ZTE: "5960-56QU"}
DATE = "2026-12-07"


def _typed(text: str) -> list[str]:
    """The script's lines an engineer pastes (its '!' notes left out)."""
    return [ln for ln in text.splitlines() if ln.strip() and not ln.startswith("!")]


def _ssh_session(sw: Switch, lines: list[str]) -> str:
    """The lines typed one by one over SSH into the emulated switch, and everything it sent
    back (echo, answers, prompts): what a terminal's session log holds."""
    prompt = re.compile(sw.profile.parse.capture_prompt or r"[#>]")
    with Lab([sw], USER, PASSWORD) as lab:
        client = paramiko.SSHClient()
        # the lab makes its own host key each run: nothing to pin
        client.set_missing_host_key_policy(paramiko.AutoAddPolicy())
        client.connect(
            "127.0.0.1",
            lab.endpoints[sw.hostname].port,
            USER,
            PASSWORD,
            look_for_keys=False,
            allow_agent=False,
        )
        shell = client.invoke_shell(width=250)
        log = _until_prompt(shell, prompt, "")
        for line in lines:
            shell.send((line + "\n").encode())
            log = _until_prompt(shell, prompt, log, after=line)
        client.close()
    return log


def _until_prompt(
    shell: paramiko.Channel, prompt: re.Pattern[str], log: str, after: str = ""
) -> str:
    """The log with what the switch sent until its next prompt (after the echo of ``after``)."""
    start, deadline = len(log), time.monotonic() + 20
    while time.monotonic() < deadline:
        if not shell.recv_ready():
            time.sleep(0.002)
            continue
        log += shell.recv(65536).decode()
        new = log[start:].replace("\r", "")
        last = new.rsplit("\n", 1)[-1]
        if (not after or "\n" in new) and prompt.match(last) and last.endswith(("#", ">")):
            return log
    raise AssertionError(f"no prompt after {after!r}: {log[-300:]!r}")


def _captured(tmp_path: Path, vendor: Vendor, faults: Faults | None = None) -> tuple[Path, str]:
    """The script printed by the CLI, typed into an emulator, saved, read back by the CLI."""
    printed = run("vendors", "capture", vendor.value)
    assert printed.exit_code == 0, printed.output
    sw = Switch.start("leaf-1", load_profile(vendor), model=MODEL[vendor])
    sw.faults = faults or Faults()
    log = tmp_path / f"{vendor.value}-session.log"
    log.write_text(_ssh_session(sw, _typed(printed.stdout)))
    overlay = tmp_path / "overlay"
    read = run(
        "vendors", "capture", vendor.value, "--read", str(log), "-o", str(overlay), "--date", DATE
    )
    assert read.exit_code == 0, read.output
    return overlay, read.stdout


@pytest.mark.parametrize("vendor", OWNED, ids=lambda v: v.value)
def test_a_captured_session_sources_what_strict_generate_refused(
    tmp_path: Path, vendor: Vendor
) -> None:
    intent = ROOT / "tests" / "scenarios" / f"pod-small-{vendor.value}.yaml"
    before = run("generate", str(intent), "-o", str(tmp_path / "before"), "--strict-syntax")
    assert before.exit_code == 2 and "unverified vendor syntax" in before.output

    overlay, said = _captured(tmp_path, vendor)
    cite = f"captured from {MODEL[vendor]} roce-cfg lab "
    assert cite in said and "0 refused" in said
    bundled, merged = load_grammar(vendor.value), load_grammar(vendor.value, overlay)
    assert bundled.coverage()["unsourced"] > 20
    assert merged.coverage()["unsourced"] == 0
    assert all(cite in c.source for c in merged.commands if c.source.startswith("captured"))
    assert len(gaps(vendor.value, overlay)) < len(gaps(vendor.value)) // 5
    after = run(
        "generate",
        str(intent),
        "-o",
        str(tmp_path / "after"),
        "--strict-syntax",
        "--vendor-dir",
        str(overlay),
    )
    assert after.exit_code == 0, after.output


@pytest.mark.slow  # two more SSH sessions: the per-vendor round trips are the quick ones
def test_the_mixed_example_goes_through_strict_generate_with_both_captures(tmp_path: Path) -> None:
    overlay = tmp_path / "overlay"
    for vendor in OWNED:
        _captured(tmp_path, vendor)
    intent = ROOT / "examples" / "cluster-mixed.yaml"
    before = run("generate", str(intent), "-o", str(tmp_path / "a"), "--strict-syntax")
    after = run(
        "generate",
        str(intent),
        "-o",
        str(tmp_path / "b"),
        "--strict-syntax",
        "--vendor-dir",
        str(overlay),
    )
    assert before.exit_code == 2 and after.exit_code == 0, after.output


def test_a_refused_line_stays_unsourced_with_the_switch_answer(tmp_path: Path) -> None:
    overlay, said = _captured(
        tmp_path, Vendor.RUIJIE, Faults(reject="priority-flow-control nodrop")
    )
    entries = yaml.safe_load((overlay / "vendors" / "ruijie.grammar.yaml").read_text())["commands"]
    nodrop = next(e for e in entries if e["name"] == "priority-flow-control nodrop")
    assert nodrop["status"] == "unsourced" and "source" not in nodrop
    assert "'priority-flow-control nodrop 7' -> \"% Unknown command.\"" in nodrop["note"]
    assert "its help after 'priority-flow-control nodrop': <0-7>" in nodrop["note"]
    merged = load_grammar("ruijie", overlay)
    assert {c.name: c.status for c in merged.commands}[
        "priority-flow-control nodrop"
    ] == "unsourced"
    assert "2 refused" in said  # the line and its undo form


def _words(listing: str) -> list[str]:
    return [ln.split()[0] for ln in listing.splitlines()]


def _help(vendor: Vendor, lines: list[str], unsourced: bool = True) -> str:
    profile = load_profile(vendor)
    s = Session(Switch.start("sw", profile, unsourced=unsourced))
    out = ""
    for line in [*profile.dialect.enter, *lines]:
        out = s.feed(line)
    return out.rsplit("\r\n", 1)[0]


def test_the_emulator_answers_help_from_the_grammar() -> None:
    port = ["interface TenGigabitEthernet 0/1"]
    listing = _help(Vendor.RUIJIE, [*port, "priority-flow-control ?"])
    words = [ln.split()[0] for ln in listing.splitlines()]
    assert words == ["deadlock-detect", "enable", "headroom", "mode", "nodrop"]
    assert _help(Vendor.RUIJIE, [*port, "priority-flow-control nodrop ?"]).split()[0] == "<0-7>"
    tail = _help(Vendor.RUIJIE, [*port, "priority-flow-control nodrop 3 ?"])
    assert [ln.split()[0] for ln in tail.splitlines()] == ["<0-7>", "<cr>"]
    assert "nodrop" in _help(Vendor.RUIJIE, [*port, "no priority-flow-control ?"])
    assert _words(_help(Vendor.RUIJIE, [*port, "pri?"])) == [
        "priority-flow-control",
        "priority-queue",
    ]
    # a strict emulator offers no unsourced command: it would refuse it as unknown
    assert (
        _help(Vendor.RUIJIE, [*port, "priority-flow-control ?"], unsourced=False)
        == "% Unknown command."
    )
    assert _words(_help(Vendor.ZTE, ["interface cgei-0/1/0/1", "pfc priority 3 ?"])) == [
        "headroom",
        "no-drop",
    ]


def test_the_script_types_only_what_the_grammar_takes_where_it_takes_it() -> None:
    for vendor in OWNED:
        profile = load_profile(vendor)
        text = script(profile, port=None)
        typed = _typed(text)
        assert typed[0] == "show version" and "RISK:" in text
        errors = {profile.dialect.error, *load_grammar(vendor.value).errors.values()}
        s = Session(Switch.start("sw", profile))
        answers = [(ln, s.feed(ln)) for ln in typed]
        refused = [ln for ln, said in answers if any(e in said for e in errors)]
        assert refused == [], (vendor, refused[:3])


def test_a_vendor_without_capture_data_or_a_port_no_command_takes_is_one_line() -> None:
    got = run("vendors", "capture", "h3c")
    assert got.exit_code == 2 and "h3c.grammar.yaml has no 'capture' data" in got.stderr
    assert got.stdout == ""
    got = run("vendors", "capture", "zte", "--port", "TFGigabitEthernet 0/48")
    assert got.exit_code == 2 and got.stdout == ""
    assert "--port: 'TFGigabitEthernet 0/48': no zte interface command" in got.stderr
    got = run("vendors", "capture", "zte", "--port", "cgei-0/1/0/48")
    assert got.exit_code == 0 and "\ninterface cgei-0/1/0/48\n" in got.stdout


IOS_LOG = """\
sw#show version
System description      : Ruijie 10G Ethernet Switch (S6510-48VS8CQ) By Ruijie Networks
System software version : RGOS 11.0(5)B9P59
sw#configure terminal
sw(config)#interface TFGigabitEthernet 0/48
sw(config-if-TFGigabitEthernet 0/48)#priority-flow-control ?
  enable    Enable PFC
  nodrop    Set no-drop priority
sw(config-if-TFGigabitEthernet 0/48)#priority-flow-control
% Incomplete command.
sw(config-if-TFGigabitEthernet 0/48)#priority-flow-control nodrop 3
sw(config-if-TFGigabitEthernet 0/48)#end
sw#show running-config
interface TFGigabitEthernet 0/48
 priority-flow-control nodrop 3
!
sw#configure terminal
sw(config)#interface TFGigabitEthernet 0/48
sw(config-if-TFGigabitEthernet 0/48)#no priority-flow-control nodrop 3
sw(config-if-TFGigabitEthernet 0/48)#end
sw#show running-config
interface TFGigabitEthernet 0/48
!
"""


def test_a_real_style_log_is_read(tmp_path: Path) -> None:
    """IOS-style help with descriptions, the words left after '?' answered 'Incomplete': the
    command is still confirmed, from the model and release the log's show version names."""
    log = tmp_path / "rgos.log"
    log.write_text(IOS_LOG)
    got = run(
        "vendors",
        "capture",
        "ruijie",
        "--read",
        str(log),
        "-o",
        str(tmp_path / "o"),
        "--date",
        DATE,
    )
    assert got.exit_code == 0, got.output
    entries = yaml.safe_load((tmp_path / "o" / "vendors" / "ruijie.grammar.yaml").read_text())[
        "commands"
    ]
    (nodrop,) = entries
    cite = "captured from S6510-48VS8CQ RGOS 11.0(5)B9P59 on 2026-12-07"
    assert nodrop["name"] == "priority-flow-control nodrop" and nodrop["source"] == cite
    assert nodrop["undo_source"] == cite


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (
            "<HUAWEI>display version\nHuawei Versatile Routing Platform\n",
            "bad.log:1 no RGOS prompt",
        ),
        (
            "sw#configure terminal\nsw(config)#hostname x\n",
            "bad.log: no 'show version' in the session",
        ),
        (
            "sw#show version\nnothing here\nsw#configure terminal\n",
            "bad.log:1 'show version' printed no model",
        ),
        (IOS_LOG.split("sw#configure")[0], "bad.log:1 no configuration line of the ruijie grammar"),
    ],
)
def test_a_bad_or_foreign_log_is_one_line_and_writes_nothing(
    tmp_path: Path, text: str, said: str
) -> None:
    log = tmp_path / "bad.log"
    log.write_text(text)
    got = run("vendors", "capture", "ruijie", "--read", str(log), "-o", str(tmp_path / "o"))
    assert got.exit_code == 2 and said in got.stderr and len(got.stderr.splitlines()) == 1, (
        got.output
    )
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("vendor", OWNED, ids=lambda v: v.value)
def test_the_help_ends_every_command_where_its_syntax_does(vendor: Vendor) -> None:
    """For every command of the grammar, typed in its view up to each word: the help offers
    the word that comes next, and '<cr>' after the whole line (the listing is the grammar's)."""
    from roce_cfg.lab import probe
    from roce_cfg.platforms.capture import sample_line

    sw = Switch.start("sw", load_profile(vendor))
    for cmd in sw.grammar.commands:
        words = sample_line(cmd).split()
        view = cmd.views[0]
        for n in range(len(words)):
            listing = probe.help_text(sw, view, " ".join(words[:n]) + " ")
            assert listing, (cmd.name, words[:n])
            offered = _words(listing)
            nxt = words[n]
            assert nxt in offered or any(
                w.startswith(("<", "WORD", "LINE", "A.B", "X:X", "VLAN")) for w in offered
            ), (
                cmd.name,
                words[:n],
                offered,
            )
        assert "<cr>" in _words(probe.help_text(sw, view, " ".join(words) + " ")), cmd.name


_LOG_LINES = st.sampled_from(
    [
        *IOS_LOG.splitlines(),
        "sw(config)#",
        "sw#show version",
        "sw(config-if-TFGigabitEthernet 0/48)#no priority-flow-control ?",
        "% Unknown command.",
        "  <cr>",
        "\x1b[2K--More--",
        "sw(config)#exit",
        "sw(config)#interface AggregatePort 1",
    ]
) | st.text(max_size=40)


@given(st.lists(_LOG_LINES, max_size=40))
def test_any_log_is_read_or_refused_in_one_line(lines: list[str]) -> None:
    """Whatever a log holds, the reader gives an overlay or one InputError, never a crash."""
    from roce_cfg.errors import InputError
    from roce_cfg.platforms import session

    profile = load_profile(Vendor.RUIJIE)
    try:
        cap = session.read(profile, "\n".join(lines), "any.log", DATE)
    except InputError as exc:
        assert "\n" not in str(exc) and str(exc).startswith("any.log")
        return
    assert cap.model and cap.release
    yaml.safe_load(session.overlay_text(cap))
    yaml.safe_load(session.profile_text(cap, profile))
