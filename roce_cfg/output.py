"""Write a set of files into a directory so that either all of them land or none does.

``generate`` owns its output folder: a manifest (``.roce-cfg-manifest.json``) lists what it
wrote, a folder holding anything else is refused unless forced, and a new output replaces the
previous one whole, so files of an older run never sit beside the new ones.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Literal

from roce_cfg.errors import InputError

MANIFEST = ".roce-cfg-manifest.json"
MANIFEST_FORMAT = "roce-cfg/output/v1"
# merge: move the files in beside what is there (docs, report); replace: the folder becomes
# exactly the new output; update: the new files join roce-cfg's previous output (generate --only).
Mode = Literal["merge", "replace", "update"]


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
def staged(
    target: Path, mode: Mode = "merge", force: bool = False
) -> Iterator[Callable[[str, str], None]]:
    """``put(name, text)`` files into a sibling temporary directory; when the block ends
    without an exception they move into ``target``, otherwise none of them does.

    Each file can be written as soon as it exists (a large fabric never holds all its configs),
    and each move is an atomic rename on the same filesystem, so a reader never sees a
    half-written file. In the modes ``replace`` and ``update`` the folder must be empty or
    roce-cfg's own previous output unless ``force``; ``replace`` swaps the whole folder in.
    """
    if target.exists() and not target.is_dir():
        raise InputError("exists and is not a directory", file=str(target))
    previous = [] if mode == "merge" else _previous(target, force)
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
            if mode != "merge":
                owned = names if mode == "replace" else sorted({*previous, *names})
                put(MANIFEST, json.dumps({"format": MANIFEST_FORMAT, "files": sorted(owned)}))
            if not target.exists():
                os.replace(staging, target)
            elif mode == "replace":
                _swap(staging, target)
            else:
                for name in names:
                    os.replace(staging / name, target / name)
        except OSError as exc:
            raise InputError(f"cannot write: {exc.strerror or exc}", file=str(target)) from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _previous(target: Path, force: bool) -> list[str]:
    """What roce-cfg wrote into ``target`` before (its manifest); refuses a folder that holds
    anything else, unless ``force``."""
    if not target.is_dir():
        return []
    try:
        present = sorted(p.name for p in target.iterdir())
        listed = json.loads((target / MANIFEST).read_text(encoding="utf-8"))["files"]
        owned = [str(n) for n in listed] if isinstance(listed, list) else []
    except (OSError, ValueError, KeyError, TypeError):
        owned = []
    foreign = [n for n in present if n != MANIFEST and n not in owned]
    if foreign and not force:
        shown = ", ".join(foreign[:3]) + (
            f" and {len(foreign) - 3} more" if len(foreign) > 3 else ""
        )
        raise InputError(
            f"holds files roce-cfg did not write ({shown}); choose an empty folder, or --force "
            "to replace the folder's whole content",
            file=str(target),
        )
    return [n for n in owned if n in present]


def _swap(staging: Path, target: Path) -> None:
    """The new output takes the old one's place in one rename; the old one is moved aside first
    and removed after (put back if the rename fails)."""
    aside = Path(tempfile.mkdtemp(prefix=f".{target.name}.old.", dir=staging.parent))
    old = aside / target.name
    os.rename(target, old)
    try:
        os.rename(staging, target)
    except OSError:
        os.rename(old, target)  # if even this fails, the old output stays in the aside folder
        shutil.rmtree(aside, ignore_errors=True)
        raise
    shutil.rmtree(aside, ignore_errors=True)


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
