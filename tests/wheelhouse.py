"""A wheelhouse made of this venv's installed distributions, for tests that pip-install offline.

pip on a CI runner or a laptop reaches PyPI; a test must not, and no local index is sure to
hold ttp, netmiko or nornir. The installed files of a distribution are its wheel's contents
(less the console scripts and data files, which land outside site-packages and which pip
regenerates or roce-cfg does not use), so zipping them back with their dist-info gives wheels
pip installs as it would the originals: the same versions, the ones constraints.txt pins.
"""

from __future__ import annotations

import base64
import csv
import hashlib
import io
import zipfile
from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

# pip writes these at install time; a wheel does not carry them
_INSTALL_RECORDS = {"RECORD", "INSTALLER", "REQUESTED", "direct_url.json"}


def _closure(roots: list[str]) -> dict[str, metadata.Distribution]:
    """The installed distributions ``roots`` need to run, themselves included (no extras)."""
    found: dict[str, metadata.Distribution] = {}
    todo = list(roots)
    while todo:
        name = canonicalize_name(todo.pop())
        if name in found:
            continue
        try:
            found[name] = dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            pytest.skip(f"{name} is not installed in this venv (pip install -e '.[dev]')")
        for text in dist.requires or []:
            req = Requirement(text)
            if req.marker is None or req.marker.evaluate({"extra": ""}):
                todo.append(req.name)
    return found


def _tag(wheel_metadata: str) -> str:
    """The compressed tag set of a wheel's file name (PEP 425) from its WHEEL file's tags."""
    parts: list[list[str]] = [[], [], []]
    for line in wheel_metadata.splitlines():
        if line.startswith("Tag:"):
            for have, part in zip(parts, line.split(":", 1)[1].strip().split("-"), strict=True):
                if part not in have:
                    have.append(part)
    return "-".join(".".join(p) for p in parts)


def _repack(dist: metadata.Distribution, dest: Path) -> Path:
    files = dist.files or []
    infos = {f.parts[0] for f in files if f.parts[0].endswith(".dist-info")}
    wheel = dist.read_text("WHEEL")
    if len(infos) != 1 or wheel is None:
        pytest.skip(f"{dist.metadata['Name']} was not installed from a wheel: cannot repack it")
    info = infos.pop()
    base = Path(str(dist.locate_file("")))
    out = dest / f"{info.removesuffix('.dist-info')}-{_tag(wheel)}.whl"
    rows = []
    with zipfile.ZipFile(out, "w") as whl:
        for f in files:
            if f.parts[0] == ".." or "__pycache__" in f.parts:
                continue
            if f.parts[0] == info and f.name in _INSTALL_RECORDS:
                continue
            data = (base / f).read_bytes()
            whl.writestr(f.as_posix(), data)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
            rows.append((f.as_posix(), f"sha256={digest.decode()}", str(len(data))))
        record = io.StringIO()
        csv.writer(record, lineterminator="\n").writerows([*rows, (f"{info}/RECORD", "", "")])
        whl.writestr(f"{info}/RECORD", record.getvalue())
    return out


def wheelhouse(dest: Path, roots: list[str], leave_out: str) -> Path:
    """Wheels of ``roots`` and everything they need, but ``leave_out`` (the package under test,
    which pip must fetch from where the test points it)."""
    dest.mkdir(parents=True, exist_ok=True)
    for name, dist in _closure(roots).items():
        if name != canonicalize_name(leave_out):
            _repack(dist, dest)
    return dest
