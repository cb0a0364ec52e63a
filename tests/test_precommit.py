"""The pre-commit hooks of .pre-commit-hooks.yaml run by pre-commit itself in a scratch git
repository: lint fails a commit that adds a faulty backup, generate-and-diff fails an intent
edited without regenerating, and both pass a consistent repository.

pre-commit would build each hook's virtualenv from this repository (a full install of the
dependencies); the test runs the same entries and file patterns as 'local' system hooks on this
venv's roce-cfg instead, so it checks what the hooks match and run, not pre-commit's installer
(tests/test_pins.py, slow, runs the installer: docs/pipeline.md's config at a pinned commit).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.helpers import ROOT

pytest.importorskip("pre_commit")


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True)


def _precommit(repo: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", "run", "--all-files"],
        cwd=repo, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip


@pytest.fixture
def scratch(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    repo = tmp_path / "netcfg"
    repo.mkdir()
    _git(repo, "init", "-q")
    _git(repo, "config", "user.email", "ci@example.invalid")
    _git(repo, "config", "user.name", "ci")
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    for hook in hooks:
        hook["language"] = "system"
    config = {"repos": [{"repo": "local", "hooks": hooks}]}
    (repo / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config))
    env = dict(os.environ)
    env["PRE_COMMIT_HOME"] = str(tmp_path / "pre-commit-home")
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env['PATH']}"
    (repo / "intents").mkdir()
    shutil.copy(ROOT / "examples/pod-small.yaml", repo / "intents/pod.yaml")
    gen = subprocess.run(
        [str(Path(sys.executable).parent / "roce-cfg"), "generate", "intents/pod.yaml",
         "-o", "configs/pod"],
        cwd=repo, capture_output=True, text=True,
    )  # fmt: skip
    assert gen.returncode == 0, gen.stderr
    _git(repo, "add", "-A")
    return repo, env


def test_a_consistent_repository_passes(scratch: tuple[Path, dict[str, str]]) -> None:
    repo, env = scratch
    result = _precommit(repo, env)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "roce-cfg generate and diff" in result.stdout
    assert "roce-cfg lint" in result.stdout


def test_an_intent_changed_without_regenerating_fails(
    scratch: tuple[Path, dict[str, str]],
) -> None:
    repo, env = scratch
    intent = repo / "intents/pod.yaml"
    intent.write_text(intent.read_text().replace("mtu: 9216", "mtu: 9000"))
    _git(repo, "add", "-A")
    result = _precommit(repo, env)
    assert result.returncode == 1
    assert "9000" in result.stdout
    assert "roce-cfg generate intents/pod.yaml -o configs/pod" in result.stdout


def test_a_faulty_backup_fails_lint(scratch: tuple[Path, dict[str, str]]) -> None:
    repo, env = scratch
    (repo / "backups").mkdir()
    shutil.copy(ROOT / "examples/backups/h3c/leaf-9.cfg", repo / "backups/leaf-9.cfg")
    _git(repo, "add", "-A")
    result = _precommit(repo, env)
    assert result.returncode == 1
    assert "RC102" in result.stdout  # the planted port without PFC
