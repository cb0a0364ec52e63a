"""pre-commit's generate-and-diff hook: each changed intent is generated into a scratch folder and
compared with the configs committed beside it, so an intent edited without regenerating (or a
config hand-edited after generating) cannot be committed.

Layout it expects (change it with ``--configs``): ``<anything>/<name>.yaml`` is rendered into
``configs/<name>/``. Run as ``python -m roce_cfg.hooks [--configs DIR] INTENT...``.
"""

from __future__ import annotations

import argparse
import difflib
import tempfile
from pathlib import Path

from roce_cfg.errors import RoceCfgError
from roce_cfg.output import emit, redact_tracebacks
from roce_cfg.parse import read_capped
from roce_cfg.safepath import inside


def _files(folder: Path) -> dict[str, str]:
    if not folder.is_dir():
        return {}
    return {p.name: _text(p) for p in sorted(folder.iterdir()) if p.is_file()}


def _text(path: Path) -> str:
    """A committed file as text to diff: capped like a config, and bytes that are not UTF-8
    shown as U+FFFD, so a binary file differs from what is generated instead of raising."""
    return read_capped(path).decode("utf-8", errors="replace")


def check(intent: Path, committed: Path) -> list[str]:
    """Unified-diff lines between what ``intent`` generates and ``committed``; empty when equal."""
    from roce_cfg.generate import write_generated

    with tempfile.TemporaryDirectory(prefix="roce-cfg-hook-") as tmp:
        fresh = Path(tmp) / "out"
        write_generated(intent, fresh)
        want, have = _files(fresh), _files(committed)
    lines: list[str] = []
    for name in sorted(want.keys() | have.keys()):
        if want.get(name) != have.get(name):
            lines += difflib.unified_diff(
                have.get(name, "").splitlines(keepends=True),
                want.get(name, "").splitlines(keepends=True),
                f"{committed}/{name} (committed)",
                f"{committed}/{name} (generated from {intent})",
            )
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="roce-cfg-generate-diff", description=__doc__)
    ap.add_argument("--configs", type=Path, default=Path("configs"), help="default: configs")
    ap.add_argument("intents", nargs="*", type=Path)
    args = ap.parse_args(argv)
    stale = 0
    for intent in args.intents:
        try:
            # the folder is named after the intent file: '...yaml' is not a way out of --configs
            committed = inside(args.configs, intent.stem)
            diff = check(intent, committed)
        except RoceCfgError as exc:
            emit(f"roce-cfg: error: {exc}\n", stderr=True)
            return 2
        if diff:
            stale += 1
            # committed configs may hold hand-added credentials: the diff goes out redacted
            emit("".join(diff))
            emit(
                f"{committed} is not what {intent} generates: run "
                f"'roce-cfg generate {intent} -o {committed}' and add the result\n"
            )
    return 1 if stale else 0


if __name__ == "__main__":
    redact_tracebacks()  # committed configs may hold credentials a traceback would quote
    raise SystemExit(main())
