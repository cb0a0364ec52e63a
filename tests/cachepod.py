"""The bundled pod generated once per test module, and a fresh copy of it per test: the folder
the parse cache and the run memo tests lint, edit and lint again (the suite turns the cache off;
these tests run lint as a user does, with it on)."""

from __future__ import annotations

import shutil
import zlib
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result
from typer.testing import CliRunner

from roce_cfg.cache_key import subkey
from roce_cfg.cli.main import app
from roce_cfg.cli.options import NO_CACHE_ENV
from roce_cfg.seal import MAC_BYTES, Seal
from tests.helpers import ROOT

POD = ROOT / "examples/pod-small.yaml"


def lint(*args: str) -> Result:
    """``roce-cfg lint`` as a user runs it: the cache on (the suite turns it off)."""
    return CliRunner().invoke(app, ["lint", *args], env={NO_CACHE_ENV: None})


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("pod") / "pod"
    made = CliRunner().invoke(app, ["generate", str(POD), "-o", str(out), "-q"])
    assert made.exit_code == 0, made.output
    return out


def unsealed(entry: Path) -> bytes:
    """The JSON a sealed entry (roce_cfg/seal.py) holds, its MAC not checked."""
    return zlib.decompress(entry.read_bytes()[MAC_BYTES:])


def reseal(entry: Path, use: str, spoil: Callable[[bytes], bytes]) -> None:
    """The sealed entry in ``entry`` given the compressed bytes ``spoil`` makes of its own,
    sealed as roce-cfg seals an entry of ``use`` under its name: what lies past the MAC is
    tested (the validation), not the MAC."""
    packed = spoil(entry.read_bytes()[MAC_BYTES:])
    entry.write_bytes(Seal(subkey(use)).mac(entry.name, packed) + packed)


def linted_copy(generated: Path, factory: pytest.TempPathFactory) -> Path:
    """A copy of the generated pod linted once with the cache on (a module's warm start)."""
    folder = factory.mktemp("warm") / "pod"
    shutil.copytree(generated, folder)
    assert lint(str(folder)).exit_code == 0
    return folder


@pytest.fixture
def pod(generated: Path, tmp_path: Path) -> Path:
    """A fresh copy of the generated pod (12 configs and fabric.json), no cache yet."""
    folder = tmp_path / "pod"
    shutil.copytree(generated, folder)
    return folder
