"""A reader that closes stdout early (``roce-cfg plan --gpus 128 | head -2``) ends the command
quietly: exit 0, nothing on stderr but what the command says anyway, no traceback. Run through
the console script, as a shell pipeline runs it, for each command that prints a lot."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from roce_cfg.lab.cli import Switch
from roce_cfg.lab.server import Lab
from roce_cfg.platforms.profile import load_profile
from roce_cfg.vendor import Vendor
from tests.helpers import ROOT, SCENARIOS, lab_inventory, run

USER, PASSWORD = "netops", "Lab-Pa55-pipe"
SCRIPT = Path(sys.executable).parent / "roce-cfg"
ENTRY = [str(SCRIPT)] if SCRIPT.is_file() else [sys.executable, "-m", "roce_cfg"]


def closed_early(args: list[str], read: int = 0) -> tuple[int, str]:
    """``args`` with stdout a pipe whose reader reads ``read`` bytes and goes away (0: gone
    before the command starts, so its first write breaks the pipe)."""
    reader, writer = os.pipe()
    if not read:
        os.close(reader)
    env = {**os.environ, "ROCE_CFG_USERNAME": USER, "ROCE_CFG_PASSWORD": PASSWORD}
    proc = subprocess.Popen([*ENTRY, *args], stdout=writer, stderr=subprocess.PIPE, env=env)
    os.close(writer)
    if read:
        assert os.read(reader, read)
        os.close(reader)
    _, err = proc.communicate(timeout=120)
    return proc.returncode, err.decode()


@pytest.fixture(scope="module")
def configs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("pipe") / "out"
    assert run("generate", str(SCENARIOS["pod-small"]), "-o", str(out)).exit_code == 0
    return out


def _quiet(code: int, err: str) -> None:
    assert code == 0, err
    assert "Traceback" not in err and "Broken pipe" not in err and "Exception ignored" not in err
    assert "error" not in err


@pytest.mark.sample(3)  # each is a process of its own; --full runs all eight
@pytest.mark.parametrize(
    "args",
    [
        ["plan", "--gpus", "128"],
        ["plan", "--gpus", "128", "--format", "json"],
        ["rules"],
        ["vendors"],
        ["models"],
        ["lint", "{out}"],
        ["lint", "{out}", "--format", "json"],
        ["parse", "{out}"],
    ],
    ids=" ".join,
)
def test_a_closed_stdout_ends_quietly_with_0(args: list[str], configs: Path) -> None:
    _quiet(*closed_early([a.format(out=configs) for a in args]))


def test_a_reader_that_stops_half_way_ends_it_quietly(configs: Path) -> None:
    # parse's JSON of the pod is ~290 KB, far more than a pipe holds: the reader takes the
    # first bytes (head -c 100) and leaves while the command is still writing
    _quiet(*closed_early(["parse", str(configs), "--format", "json"], read=100))


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Path]]:
    """One emulated leaf with nothing configured, its intended config and an inventory."""
    folder = tmp_path_factory.mktemp("pipe-lab")
    (folder / "out").mkdir()
    shutil.copy(ROOT / "golden/pod-small-h3c/leaf-1.cfg", folder / "out")
    with Lab([Switch.start("leaf-1", load_profile(Vendor.H3C))], USER, PASSWORD) as running:
        port = running.endpoints["leaf-1"].port
        yield folder / "out", lab_inventory(folder / "inv.yaml", port, "h3c")


@pytest.mark.parametrize("extra", [[], ["--diff", "full"]], ids=["summary", "full"])
def test_the_push_dry_run_into_a_closed_pipe_ends_quietly(
    lab: tuple[Path, Path], extra: list[str]
) -> None:
    out, inventory = lab
    _quiet(*closed_early(["push", str(out), "-i", str(inventory), *extra]))
