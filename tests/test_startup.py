"""Start-up cost: every command pays for what roce_cfg.cli imports, so the heavy libraries stay
inside the commands that use them (issue 17: --help went from ~1 s to ~0.2 s)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

HEAVY = ("netmiko", "paramiko", "nornir", "asyncssh", "ttp", "jinja2", "pydantic", "yaml")


def _loaded_after(code: str) -> set[str]:
    probe = f"""
import json, sys
{code}
print(json.dumps(sorted({{m.split(".")[0] for m in sys.modules}})))
"""
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return set(json.loads(done.stdout.strip().splitlines()[-1]))


def test_cli_import_is_light() -> None:
    heavy = _loaded_after("import roce_cfg.cli") & set(HEAVY)
    assert not heavy, f"roce_cfg.cli imports {sorted(heavy)} at import time"


@pytest.mark.parametrize(
    "argv", [["--help"], ["--version"], ["generate", "--help"], ["rules"], ["explain", "RC101"]]
)
def test_help_and_version_stay_light(argv: list[str]) -> None:
    code = f"""
from roce_cfg.cli import app
try:
    app({argv!r})
except SystemExit:
    pass
"""
    # typer itself loads pydantic (typer/_adapters.py) to build a command's help.
    heavy = _loaded_after(code) & (set(HEAVY) - {"pydantic"})
    assert not heavy, f"roce-cfg {' '.join(argv)} imports {sorted(heavy)}"


def test_generate_does_not_load_the_push_stack() -> None:
    """Rendering needs jinja2 and pydantic, never the SSH libraries."""
    code = """
import tempfile
from roce_cfg.cli import app
with tempfile.TemporaryDirectory() as d:
    try:
        app(["generate", "examples/pod-small.yaml", "-o", d + "/out"])
    except SystemExit as e:
        assert not e.code, e.code
"""
    loaded = _loaded_after(code)
    assert "jinja2" in loaded  # the probe did render
    assert not loaded & {"netmiko", "paramiko", "nornir", "asyncssh"}


def test_version() -> None:
    from roce_cfg import __version__

    done = subprocess.run(
        [sys.executable, "-m", "roce_cfg", "--version"], capture_output=True, text=True
    )
    assert done.returncode == 0
    assert done.stdout.strip() == f"roce-cfg {__version__}"


def test_flags_print_without_a_type() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "roce_cfg", "generate", "--help"],
        capture_output=True,
        text=True,
        env={"COLUMNS": "120", "PATH": ""},
    )
    assert "--strict-syntax" in done.stdout
    assert "<bool>" not in done.stdout


def test_rulebook_matches_the_registry() -> None:
    """rules/explain read roce_cfg/rulebook.json; regenerate: python -m roce_cfg.rulebook."""
    from roce_cfg import rulebook

    assert rulebook.load() == rulebook.from_registry()
