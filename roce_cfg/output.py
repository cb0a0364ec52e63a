"""Write a set of files into a directory so that either all of them land or none does."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from roce_cfg.errors import InputError


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current


def write_all(target: Path, files: dict[str, str]) -> None:
    """Stage every file in a sibling temporary directory, then move them into ``target``."""
    with staged(target) as put:
        for name, text in files.items():
            put(name, text)


@contextmanager
def staged(target: Path) -> Iterator[Callable[[str, str], None]]:
    """``put(name, text)`` files into a sibling temporary directory; when the block ends
    without an exception they move into ``target``, otherwise none of them does.

    Each file can be written as soon as it exists (a large fabric never holds all its configs),
    and each move is an atomic rename on the same filesystem, so a reader never sees a
    half-written file.
    """
    if target.exists() and not target.is_dir():
        raise InputError("exists and is not a directory", file=str(target))
    parent = target.resolve().parent
    try:
        parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=parent))
        # mkdtemp makes it owner-only; the directory it becomes should look like any other.
        os.chmod(staging, 0o777 & ~_umask())
    except OSError as exc:
        raise InputError(f"cannot write: {exc.strerror or exc}", file=str(target)) from None
    names: list[str] = []

    def put(name: str, text: str) -> None:
        try:
            (staging / name).write_text(text, encoding="utf-8")
        except OSError as exc:
            raise InputError(f"cannot write: {exc.strerror or exc}", file=str(target)) from None
        names.append(name)

    try:
        yield put
        try:
            if not target.exists():
                os.replace(staging, target)
                return
            for name in names:
                os.replace(staging / name, target / name)
        except OSError as exc:
            raise InputError(f"cannot write: {exc.strerror or exc}", file=str(target)) from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def write_file(target: Path, text: str) -> None:
    """Write one file atomically: a temporary file beside it, renamed over it."""
    if target.is_dir():
        raise InputError("is a directory, expected a file name", file=str(target))
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes it owner-only
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(tmp, target)
    except OSError as exc:
        raise InputError(f"cannot write: {exc.strerror or exc}", file=str(target)) from None
