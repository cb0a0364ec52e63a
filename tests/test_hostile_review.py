"""Inputs an independent hostile review found around the fuzzed entry points: each was a
traceback or unbounded work, each is now one line and exit 2 (docs/reliability.md)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import ROOT, run


def _one_line_error(result, name: str) -> None:  # type: ignore[no-untyped-def]
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    lines = [ln for ln in result.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and name in lines[0], result.stderr


@pytest.mark.parametrize("junk", [b"\x00\x01\x02binary" * 100, b"\xff\xfe" * 5000 + b"\x80" * 9])
def test_push_refuses_an_intended_config_that_is_not_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, junk: bytes
) -> None:
    configs = tmp_path / "out"
    configs.mkdir()
    (configs / "leaf-1.cfg").write_bytes(junk)
    inventory = tmp_path / "inv.yaml"
    inventory.write_text("hosts:\n  leaf-1: {hostname: 127.0.0.1, port: 9, data: {vendor: h3c}}\n")
    monkeypatch.setenv("ROCE_CFG_USERNAME", "netops")
    monkeypatch.setenv("ROCE_CFG_PASSWORD", "not-used")
    _one_line_error(run("push", str(configs), "-i", str(inventory)), "leaf-1.cfg")


def test_vendor_hint_does_not_read_a_file_past_the_config_cap(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """--vendor's 'this reads as another vendor's' check read the whole file first: a 210 MB
    file took 1.37 GB before the 16 MiB cap refused it."""
    big = tmp_path / "big.cfg"
    with big.open("wb") as fh:
        fh.truncate(200 * 2**20)  # sparse: no disk, the size is what counts
    original = Path.read_text

    def no_whole_read(self: Path, *args, **kwargs) -> str:  # type: ignore[no-untyped-def]
        assert self != big, "the whole file was read"
        return original(self, *args, **kwargs)

    monkeypatch.setattr(Path, "read_text", no_whole_read)
    _one_line_error(run("parse", "--vendor", "h3c", str(big)), "too large")


def test_a_golden_config_still_gets_the_other_vendor_warning() -> None:
    golden = ROOT / "golden" / "pod-small-huawei" / "leaf-1.cfg"
    result = run("parse", "--vendor", "h3c", str(golden))
    assert "reads as huawei" in result.stderr


EXAMPLE = ROOT / "examples" / "single-switch.yaml"


def _folder_with_manifest(tmp_path: Path) -> Path:
    out = tmp_path / "out"
    assert (
        run("generate", str(ROOT / "examples" / "single-switch.yaml"), "-o", str(out)).exit_code
        == 0
    )
    return out


def test_a_manifest_nested_past_json_s_depth_is_not_a_traceback(tmp_path: Path) -> None:
    out = _folder_with_manifest(tmp_path)
    (out / ".roce-cfg-manifest.json").write_text("[" * 200_000)
    result = run("generate", str(EXAMPLE), "-o", str(out))
    # unreadable, so it vouches for nothing: the folder's files are not known to be ours
    _one_line_error(result, "did not write")


def test_a_fifo_under_the_manifest_s_name_does_not_hang(tmp_path: Path) -> None:
    out = _folder_with_manifest(tmp_path)
    (out / ".roce-cfg-manifest.json").unlink()
    os.mkfifo(out / ".roce-cfg-manifest.json")
    done = subprocess.run(
        [sys.executable, "-m", "roce_cfg", "generate", str(EXAMPLE), "-o", str(out)],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 2 and "did not write" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr


def test_the_hook_diffs_a_binary_committed_config_instead_of_raising(tmp_path: Path) -> None:
    from roce_cfg.hooks import main

    committed = tmp_path / "configs" / "single-switch"
    assert run("generate", str(EXAMPLE), "-o", str(committed)).exit_code == 0
    victim = next(p for p in sorted(committed.iterdir()) if p.suffix == ".cfg")
    victim.write_bytes(b"\xff\xfe\x00junk" * 100)
    assert main(["--configs", str(tmp_path / "configs"), str(EXAMPLE)]) == 1


def _vrp_cli(conn: object, timeout: float) -> Any:
    """push's line-at-a-time session (deploy/session.py) over a fake connection."""
    from roce_cfg.deploy.session import Cli
    from roce_cfg.platforms.profile import load_profile
    from roce_cfg.vendor import Vendor

    return Cli(conn, load_profile(Vendor.HUAWEI), timeout)  # type: ignore[arg-type]


class _Chatty:
    """A switch that talks without end and never prompts."""

    class remote_conn:
        closed = False

    def __init__(self, text: str) -> None:
        self.text = text
        self.reads = 0

    def write_channel(self, data: str) -> None:
        pass

    def normalize_cmd(self, line: str) -> str:
        return line + "\n"

    def read_channel(self) -> str:
        self.reads += 1
        return self.text


@pytest.mark.parametrize("text", ["x" * 1000, "log: link flap\r\n"])
def test_a_switch_talking_without_a_prompt_runs_out_of_time(text: str) -> None:
    """The deadline was checked only when a read came back empty: this looped forever."""
    from roce_cfg.deploy.session import NoAnswer

    conn = _Chatty(text)
    started = time.monotonic()
    with pytest.raises(NoAnswer):
        _vrp_cli(conn, 0.5).send("undo y")
    assert time.monotonic() - started < 30
    assert conn.reads > 1


def test_a_prompt_split_across_reads_ends_the_answer() -> None:
    class Pieces(_Chatty):
        def __init__(self) -> None:
            super().__init__("")
            self.parts = ["undo y\r\n[~le", "af-1-x]", "z\r\n[~leaf-1]"]

        def read_channel(self) -> str:
            return self.parts.pop(0) if self.parts else ""

    conn = Pieces()
    cli = _vrp_cli(conn, 5.0)
    assert cli.send("undo y") == "" and cli.ended == "[~leaf-1-x]"
    assert conn.parts == ["z\r\n[~leaf-1]"]  # nothing read past the line's own prompt


def test_name_resolution_is_under_the_connect_timeout(monkeypatch: pytest.MonkeyPatch) -> None:
    """getaddrinfo has no timeout of its own: a dead resolver held a host past its step."""
    import socket as socket_module

    from roce_cfg.deploy import transport

    def dead_resolver(*args, **kwargs):  # type: ignore[no-untyped-def]
        time.sleep(3)
        raise socket_module.gaierror(-3, "Temporary failure in name resolution")

    monkeypatch.setattr(socket_module, "getaddrinfo", dead_resolver)
    started = time.monotonic()
    with pytest.raises(transport.Unusable) as info:
        transport._tcp("leaf-1.example", 22, 0.3)
    assert time.monotonic() - started < 2
    assert info.value.kind == "timeout" and "name resolution" in str(info.value)


def test_a_name_that_does_not_resolve_is_unreachable(monkeypatch: pytest.MonkeyPatch) -> None:
    import socket as socket_module

    from roce_cfg.deploy import transport

    def no_such_name(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise socket_module.gaierror(-2, "Name or service not known")

    monkeypatch.setattr(socket_module, "getaddrinfo", no_such_name)
    with pytest.raises(transport.Unusable) as info:
        transport._tcp("nowhere.example", 22, 5.0)
    assert info.value.kind == "unreachable" and "not known" in str(info.value)
