"""Every ```sh block of README.md and docs/*.md runs as written, from a clean copy of the
checkout (its outputs land in a temporary directory), so a README command that breaks fails CI.

A block runs as one bash script, line by line, in the copy's root with ``roce-cfg`` on PATH.
Exit 1 is what lint and deadlock answer when they find something (the docs show findings on
purpose); any other non-zero exit (2: bad input or usage, 3/4: push) fails the test. A line
ending in ``&`` starts ``roce-cfg lab`` in the background: the test waits for the inventory it
writes, and stops the whole block's process group afterwards. A block preceded by
``<!-- doc-test: skip: reason -->`` is not run (set-up lines that .ci/run runs itself, long
benchmarks). Before the first block, ``out/`` is generated as the README's set-up line does.
"""

from __future__ import annotations

import contextlib
import os
import re
import shlex
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import ROOT, copy_checkout

DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BLOCK = re.compile(r"(?:<!-- doc-test: (?P<mark>[^>]*?) -->\n)?```sh\n(?P<body>.*?)```", re.S)


def blocks(doc: Path) -> list[tuple[int, str | None, str]]:
    text = doc.read_text(encoding="utf-8")
    return [
        (text.count("\n", 0, m.start("body")) + 1, m.group("mark"), m.group("body"))
        for m in BLOCK.finditer(text)
    ]


def script(body: str) -> str:
    """The block as bash: exit 1 (findings) tolerated per line, background lab awaited."""
    out = ["set -uo pipefail"]
    for raw in body.splitlines():
        line = raw.split("  #", 1)[0].rstrip()
        if not line or line.startswith("#"):
            continue
        if line.endswith("&"):
            inv = shlex.split(line)[shlex.split(line).index("--inventory-out") + 1]
            out += [line, f"for _ in $(seq 300); do [ -s {inv} ] && break; sleep 0.1; done"]
            continue
        shown = shlex.quote(f"failed: {line}")
        out.append(f"{line} || {{ rc=$?; [ $rc -eq 1 ] || {{ echo {shown}; exit $rc; }}; }}")
    out.append("jobs -p | xargs -r kill 2>/dev/null; wait")  # a background lab ends with the block
    return "\n".join(out) + "\n"


def _drives_lab(doc: Path) -> bool:
    """A page whose blocks start the lab or a whole pipeline (8-18 s each): --full runs it."""
    return any("roce-cfg lab" in body or "roce-cfg pipeline" in body for _, _, body in blocks(doc))


WITH_BLOCKS = [d for d in DOCS if blocks(d)]


@pytest.mark.parametrize(
    "doc",
    [pytest.param(d, marks=pytest.mark.slow) if _drives_lab(d) else d for d in WITH_BLOCKS],
    ids=[d.name for d in WITH_BLOCKS],
)
def test_shell_blocks_run(doc: Path, tmp_path: Path) -> None:
    found = blocks(doc)
    work = tmp_path / "checkout"
    copy_checkout(work)
    env = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
        "COLUMNS": "120",
        "ROCE_CFG_USERNAME": "netops",
        "ROCE_CFG_PASSWORD": "doc-test",
    }
    subprocess.run(
        ["roce-cfg", "generate", "examples/pod-small.yaml", "-o", "out/"],
        cwd=work, env=env, check=True, capture_output=True,
    )  # fmt: skip
    for line, mark, body in found:
        if mark and mark.startswith("skip"):
            continue
        proc = subprocess.Popen(
            ["bash", "-c", script(body)], cwd=work, env=env, text=True,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
        try:
            output, _ = proc.communicate(timeout=240)
        finally:
            with contextlib.suppress(ProcessLookupError):  # anything the block left running
                os.killpg(proc.pid, signal.SIGTERM)
        assert proc.returncode == 0, f"{doc.name}:{line}: block failed\n{output[-3000:]}"


def test_every_block_is_seen() -> None:
    """The block pattern finds the README's blocks, marks included (so none is silently lost)."""
    readme = blocks(ROOT / "README.md")
    assert len(readme) == (ROOT / "README.md").read_text().count("```sh")
    assert readme[0][1] is not None and readme[0][1].startswith("skip")
