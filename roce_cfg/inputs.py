"""Which files of a folder are switch configs.

A backups folder holds more than configs: notes, a README, a diff someone saved. ``lint`` and
``parse`` of a folder skip what is not a switch config, each with a one-line notice, and read
the rest; a file named directly is always read (and reported if it is not a config).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from roce_cfg.errors import InputError
from roce_cfg.parse import read_config
from roce_cfg.parse.text import clean
from roce_cfg.platforms.profile import load_profiles
from roce_cfg.vendor import Vendor

# roce-cfg's own files beside configs (fabric.json, the intent, --format json models): never
# configs, skipped without a notice as before.
OWN_SUFFIXES = (".json", ".yaml", ".yml")
# As parse's vendor detection: this many signature lines make a config of that vendor.
SIGNATURES = 2


def config_files(
    paths: list[Path], vendor: Vendor | None, overlay: Path | None, fabric: bool = False
) -> tuple[list[Path], list[str]]:
    """Files as given; a directory stands for the switch configs in it (and its fabric.json
    when ``fabric``). Also the notices for the files of a directory that were skipped."""
    files: list[Path] = []
    notices: list[str] = []
    for path in paths:
        if not path.is_dir():
            files.append(path)
            continue
        for p in sorted(path.iterdir()):
            if fabric and p.name == "fabric.json":
                _regular(p)
                files.append(p)
            elif p.is_file() and not p.name.startswith(".") and p.suffix not in OWN_SUFFIXES:
                why = not_a_config(p, vendor, overlay)
                if why is None:
                    files.append(p)
                else:
                    notices.append(f"{p}: skipped, not a switch config ({why})")
    return files, notices


def not_a_config(path: Path, vendor: Vendor | None, overlay: Path | None) -> str | None:
    """Why ``path`` is not a switch config, or None when it looks like one: some vendor's
    signature lines (vendors/*.yaml parse.detect) match at least twice, or once for the
    vendor given with --vendor."""
    try:
        text = read_config(path)
    except InputError as exc:
        # Per-file caps (size, line length, indentation), binary data: this file alone is
        # skipped and the rest of the folder is read.
        return f"line {exc.line}: {exc.reason}" if exc.line else exc.reason
    body = "\n".join(line.text for line in clean(text))
    profiles = load_profiles(overlay)
    for v, profile in profiles.items():
        score = sum(bool(re.search(p, body, re.MULTILINE)) for p in profile.parse.detect)
        if score >= SIGNATURES or (v is vendor and score >= 1):
            return None
    return "no vendor's config layout or command words"


def files_and_fabric(paths: Iterable[Path]) -> tuple[list[Path], Path | None]:
    """Config files among ``paths`` (directories expanded) and a fabric.json found beside them."""
    files: list[Path] = []
    fabric: Path | None = None
    for path in paths:
        if path.is_dir():
            for p in sorted(path.iterdir()):
                if p.name == "fabric.json":
                    _regular(p)
                    fabric = fabric or p
                elif (
                    p.is_file()
                    and not p.name.startswith(".")
                    and p.suffix not in (".json", ".yaml")
                ):
                    files.append(p)
        elif path.name == "fabric.json":
            fabric = path
        else:
            files.append(path)
    return files, fabric


def _regular(path: Path) -> None:
    """A fabric.json found in a folder is read whole: a FIFO there would block forever and a
    link to /dev/zero would fill memory up to the size cap."""
    if not path.is_file():
        raise InputError("not a regular file (a fabric.json is one)", file=str(path))
