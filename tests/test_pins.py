"""docs/pipeline.md's pins, run as printed: its pre-commit config, its pip install line and every
command of its GitHub Actions and GitLab CI files, read from the doc's fenced blocks, with only
the stand-in URL replaced by a scratch repository holding this checkout (one commit) and
``<commit>`` by that commit, found the way the doc says (``pre-commit autoupdate``,
``git ls-remote URL HEAD``).

pre-commit builds its hook environment and pip the CI venv the real way, from the pinned commit,
but offline: pip is cut off from the machine's configuration (which reaches PyPI) and fed a
wheelhouse of this venv's own distributions (tests/wheelhouse.py).
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.helpers import ROOT, copy_checkout
from tests.wheelhouse import wheelhouse

pytest.importorskip("pre_commit")
pytestmark = pytest.mark.slow

DOC = ROOT / "docs/pipeline.md"
URL = "https://example.invalid/roce-cfg.git"  # the doc's stand-in for where roce-cfg is hosted
COMMIT = "<commit>"  # the doc's placeholder for the pinned commit id
BIN = Path(sys.executable).parent
FENCE = re.compile(r"^( *)```yaml\n(.*?)^\1```", re.M | re.S)


@dataclass(frozen=True)
class Hosted:
    url: str  # file:// URL of the scratch repository standing in for the doc's URL
    commit: str
    env: dict[str, str]  # offline pip, private pre-commit home


def _block(top_key: str) -> str:
    """The doc's fenced YAML block that has ``top_key`` at its top level, as printed."""
    blocks = [textwrap.dedent(m.group(2)) for m in FENCE.finditer(DOC.read_text("utf-8"))]
    found = [b for b in blocks if re.search(rf"^{top_key}:", b, re.M)]
    assert len(found) == 1, f"docs/pipeline.md: {len(found)} yaml blocks with '{top_key}:'"
    return found[0]


def _pinned(text: str, url: str, commit: str | None = None) -> str:
    assert URL in text and COMMIT in text, f"no {URL} pinned at {COMMIT} in:\n{text}"
    text = text.replace(URL, url)
    return text if commit is None else text.replace(COMMIT, commit)


def _run(args: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=600)


def _offline_env(home: Path, wheels: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PIP_", "VIRTUALENV_"))}
    env.update(
        PIP_CONFIG_FILE=os.devnull,  # no configured index: pip reads the wheelhouse only
        PIP_NO_INDEX="1",
        PIP_FIND_LINKS=str(wheels),
        PIP_DISABLE_PIP_VERSION_CHECK="1",
        VIRTUALENV_NO_PERIODIC_UPDATE="1",  # virtualenv would look for newer seed wheels online
        PRE_COMMIT_HOME=str(home / "pre-commit-home"),
        GIT_AUTHOR_NAME="ci",
        GIT_AUTHOR_EMAIL="ci@example.invalid",
        GIT_COMMITTER_NAME="ci",
        GIT_COMMITTER_EMAIL="ci@example.invalid",
        PATH=f"{BIN}{os.pathsep}{os.environ['PATH']}",
    )
    return env


@pytest.fixture(scope="module")
def hosted(tmp_path_factory: pytest.TempPathFactory) -> Hosted:
    """This checkout as the one commit of a scratch repository, as a user's host would serve it."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("needs git and a git checkout (the pins are commit ids)")
    tmp = tmp_path_factory.mktemp("pins")
    repo = tmp / "roce-cfg"
    copy_checkout(repo)
    env = _offline_env(tmp, wheelhouse(tmp / "wheels", ["roce-cfg", "hatchling"], "roce-cfg"))
    for args in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-q", "-m", "pin"]):
        done = _run(["git", *args], repo, env)
        assert done.returncode == 0, done.stderr
    commit = _run(["git", "rev-parse", "HEAD"], repo, env).stdout.strip()
    return Hosted(repo.as_uri(), commit, env)


def _config_repo(path: Path, env: dict[str, str]) -> Path:
    """A config repository as docs/pipeline.md describes one: an intent and its configs."""
    (path / "intents").mkdir(parents=True)
    shutil.copy(ROOT / "examples/pod-small.yaml", path / "intents/pod.yaml")
    gen = _run(
        [str(BIN / "roce-cfg"), "generate", "intents/pod.yaml", "-o", "configs/pod"], path, env
    )
    assert gen.returncode == 0, gen.stderr
    return path


def _precommit(repo: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    assert _run(["git", "add", "-A"], repo, env).returncode == 0
    return _run([sys.executable, "-m", "pre_commit", *args], repo, env)


def test_the_precommit_config_as_printed(hosted: Hosted, tmp_path: Path) -> None:
    """The doc's config with only the URL replaced; `pre-commit autoupdate` fills in the commit,
    then the hooks, installed by pre-commit from that commit, pass a consistent repository and
    fail a faulty backup and an intent edited without regenerating."""
    repo = _config_repo(tmp_path / "netcfg", hosted.env)
    assert _run(["git", "init", "-q"], repo, hosted.env).returncode == 0
    config = repo / ".pre-commit-config.yaml"
    config.write_text(_pinned(_block("repos"), hosted.url))
    updated = _precommit(repo, hosted.env, "autoupdate")
    assert updated.returncode == 0, updated.stdout + updated.stderr
    assert yaml.safe_load(config.read_text())["repos"][0]["rev"] == hosted.commit
    (repo / "backups").mkdir()
    shutil.copy(repo / "configs/pod/leaf-1.cfg", repo / "backups/leaf-1.cfg")  # clean: lints
    clean = _precommit(repo, hosted.env, "run", "--all-files")
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert re.search(r"roce-cfg lint .*Passed", clean.stdout), clean.stdout  # ran, not skipped
    assert re.search(r"roce-cfg generate and diff .*Passed", clean.stdout), clean.stdout
    shutil.copy(ROOT / "examples/backups/h3c/leaf-9.cfg", repo / "backups/leaf-9.cfg")
    intent = repo / "intents/pod.yaml"
    intent.write_text(intent.read_text().replace("mtu: 9216", "mtu: 9000"))
    faulty = _precommit(repo, hosted.env, "run", "--all-files")
    assert faulty.returncode == 1, faulty.stdout + faulty.stderr
    assert re.search(r"roce-cfg lint .*Failed", faulty.stdout), faulty.stdout
    assert "RC102" in faulty.stdout  # leaf-9's planted port without PFC
    assert re.search(r"roce-cfg generate and diff .*Failed", faulty.stdout), faulty.stdout
    assert "roce-cfg generate intents/pod.yaml -o configs/pod" in faulty.stdout


@dataclass(frozen=True)
class Job:
    name: str
    variables: dict[str, str]
    commands: list[str]
    artifacts: list[str]  # the paths the CI file uploads or keeps


def _outputs(spec: Any) -> Iterator[str]:
    """Every path under out/ a job's upload steps or artifacts name."""
    if isinstance(spec, str) and spec.startswith("out/"):
        yield spec
    elif isinstance(spec, dict):
        for value in spec.values():
            yield from _outputs(value)
    elif isinstance(spec, list):
        for value in spec:
            yield from _outputs(value)


def _github_jobs() -> list[Job]:
    """Each job of the GitHub workflow, its secrets left out (the lab's credentials stand in)."""
    workflow = yaml.safe_load(_block("jobs"))
    jobs = []
    for name, job in workflow["jobs"].items():
        variables = {**workflow.get("env", {}), **job.get("env", {})}
        plain = {k: str(v) for k, v in variables.items() if "${{" not in str(v)}
        steps = job["steps"]
        commands = [s["run"] for s in steps if "run" in s]
        uploads = [p for s in steps if "uses" in s for p in _outputs(s.get("with"))]
        jobs.append(Job(f"GitHub {name}", plain, commands, uploads))
    return jobs


def _gitlab_pipeline() -> Job:
    """The GitLab file's jobs in stage order, as one job: each passes out/ to the next."""
    ci = yaml.safe_load(_block("stages"))
    jobs = sorted(
        (job for job in ci.values() if isinstance(job, dict) and "script" in job),
        key=lambda job: ci["stages"].index(job["stage"]),
    )
    assert [job["stage"] for job in jobs] == ci["stages"]
    commands = list(ci["default"]["before_script"])
    for job in jobs:
        commands += job["script"]
    return Job("GitLab", ci["variables"], commands, [p for j in jobs for p in _outputs(j)])


@pytest.fixture
def lab(tmp_path: Path, hosted: Hosted) -> Iterator[tuple[Path, dict[str, str]]]:
    """`roce-cfg lab` on the bundled example: its inventory and the credentials it accepts."""
    env = {**hosted.env, "ROCE_CFG_USERNAME": "netops", "ROCE_CFG_PASSWORD": "pins-Lab-pw-7"}
    work = tmp_path / "lab"
    work.mkdir()
    proc = subprocess.Popen(
        [
            str(BIN / "roce-cfg"),
            "lab",
            "--intent",
            str(ROOT / "examples/pod-small.yaml"),
            "--inventory-out",
            "inventory.yaml",
        ],
        cwd=work,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        inventory = work / "inventory.yaml"
        for _ in range(600):
            if inventory.is_file() and inventory.stat().st_size:
                break
            time.sleep(0.1)
        assert inventory.is_file() and inventory.stat().st_size, "the lab wrote no inventory"
        yield inventory, env
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)


def _install(
    tmp_path: Path, hosted: Hosted, env: dict[str, str], lines: set[str]
) -> dict[str, str]:
    """A fresh venv with the doc's install lines run in it, pinned to the commit that
    `git ls-remote URL HEAD` prints (as the doc says to choose one); ``env`` with it on PATH."""
    remote = _run(["git", "ls-remote", hosted.url, "HEAD"], tmp_path, env)
    commit = remote.stdout.split()[0]
    assert commit == hosted.commit
    venv = tmp_path / "venv"
    made = _run([sys.executable, "-m", "virtualenv", "-q", str(venv)], tmp_path, env)
    assert made.returncode == 0, made.stderr
    env = {**env, "PATH": f"{venv / 'bin'}{os.pathsep}{env['PATH']}", "VIRTUAL_ENV": str(venv)}
    for line in sorted(lines):
        done = _run(["bash", "-c", _pinned(line, hosted.url, commit)], tmp_path, env)
        assert done.returncode == 0, (line, done.stdout + done.stderr)
    assert shutil.which("roce-cfg", path=env["PATH"]) == str(venv / "bin/roce-cfg")
    freeze = _run([str(venv / "bin/pip"), "freeze"], tmp_path, env).stdout
    assert f"roce-cfg @ git+{hosted.url}@{commit}" in freeze, freeze  # as the doc says
    return env


def test_the_ci_files_as_printed(
    hosted: Hosted, lab: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    """The install line (both CI files' and the prose's) into a fresh venv, then every job's
    commands in a scratch config repository holding only the bundled intent and the lab's
    inventory, with that venv's roce-cfg; each job leaves every file its CI file uploads."""
    inventory, env = lab
    jobs = [*_github_jobs(), _gitlab_pipeline()]
    text = DOC.read_text("utf-8")
    installs = {c for job in jobs for c in job.commands if c.startswith("pip install")}
    installs |= set(re.findall(r"`(pip install \"roce-cfg @ git\+[^`]*)`", text))
    assert installs, "docs/pipeline.md: no pip install line"
    env = _install(tmp_path, hosted, env, installs)
    for job in jobs:
        repo = tmp_path / job.name.replace(" ", "-")
        (repo / "intents").mkdir(parents=True)
        shutil.copy(ROOT / "examples/pod-small.yaml", repo / "intents/pod.yaml")
        shutil.copy(inventory, repo / "inventory.yaml")
        commands = [c for c in job.commands if c not in installs]
        assert commands and all(c.startswith("roce-cfg ") for c in commands), commands
        for command in commands:
            done = _run(["bash", "-c", command], repo, {**env, **job.variables})
            assert done.returncode == 0, (job.name, command, done.stdout + done.stderr)
        assert job.artifacts, job.name
        missing = [p for p in job.artifacts if not (repo / p).exists()]
        assert not missing, (job.name, missing)
