"""Which files of a folder are switch configs: one discovery for parse, lint, deadlock, docs
and report, so every command that takes a folder reads the same files.

A backups folder holds more than configs: notes, a README, a diff someone saved, and often one
subfolder per vendor or site. A folder is walked recursively (hidden entries aside); what is not
a switch config is skipped with a one-line note; a symlink is reported (followed to a file
inside the folder, not into a folder, skipped when dangling or leading out of the folder); a
file that cannot be read at all (permissions, size) is ``unread``: the caller reports it as a
finding on that file and analyses the rest. A file named directly is always read (and
reported if it is not a config).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from roce_cfg.errors import InputError
from roce_cfg.parse import Hints, Parsed, ParsedConfig, read_capped
from roce_cfg.parse.cache import ParseCache
from roce_cfg.parse.many import Skipped, screen_each
from roce_cfg.parse.text import clean, decode
from roce_cfg.platforms.profile import load_profiles
from roce_cfg.safepath import within
from roce_cfg.vendor import Vendor

# roce-cfg's own files beside configs (fabric.json, the intent, --format json models): never
# configs, skipped without a notice as before.
OWN_SUFFIXES = (".json", ".yaml", ".yml")
# Names a saved config is kept under (the pre-commit hook lints '\.(cfg|conf)$'): such a file that
# is empty or binary is a backup that failed, reported on the file, not skipped with a note.
CONFIG_SUFFIXES = (".cfg", ".conf", ".config")
# As parse's vendor detection: this many signature lines make a config of that vendor.
SIGNATURES = 2


@dataclass(frozen=True)
class Unread:
    """A file that may be a switch config but could not be read or parsed."""

    path: Path
    reason: str
    line: int | None = None

    @classmethod
    def of(cls, path: Path, exc: InputError) -> Unread:
        return cls(path, f"{exc.path}: {exc.reason}" if exc.path else exc.reason, exc.line)

    def as_error(self) -> InputError:
        return InputError(self.reason, file=str(self.path), line=self.line)


@dataclass
class Found:
    """What the paths given hold: configs to parse, a fabric.json, notes on what was skipped,
    and the files that could not be read."""

    configs: list[Path] = field(default_factory=list)
    fabric: Path | None = None
    notes: list[str] = field(default_factory=list)
    unread: list[Unread] = field(default_factory=list)
    # Files of a folder not read yet (``discover(screen=False)``): the parse that reads them
    # says whether each is a config (``not_a_config``), and ``skip`` notes those that are not.
    unscreened: set[Path] = field(default_factory=set)

    def skip(self, path: Path, why: str) -> None:
        """``path``, listed in ``configs`` unscreened, is not a switch config after all."""
        self.configs.remove(path)
        self.unscreened.discard(path)
        self.notes.append(skip_note(path, why))


def discover(
    paths: Iterable[Path],
    vendor: Vendor | None = None,
    overlay: Path | None = None,
    *,
    screen: bool = True,
) -> Found:
    """Files as given; a directory stands for the switch configs under it and the first
    fabric.json found (the shallowest). ``screen=False`` leaves the "is it a switch config"
    read of a folder's files to the parse (``Found.unscreened``): one read per file."""
    found = Found()
    for path in paths:
        if path.is_dir():
            for entry in _walk(path, found.notes):
                _classify(entry, found, vendor, overlay, screen)
        elif path.name == "fabric.json":
            found.fabric = found.fabric or path
        else:
            found.configs.append(path)
    return found


def _walk(top: Path, notes: list[str]) -> Iterable[Path]:
    """Every non-hidden file under ``top``, folders in name order, files before subfolders;
    symlinks reported (not followed into folders: a loop would never end)."""
    for root, dirs, files in os.walk(top):
        here = Path(root)
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for d in list(dirs):
            link = here / d
            if link.is_symlink():
                dirs.remove(d)
                notes.append(f"{link}: skipped, a symlink to a folder ({os.readlink(link)})")
        for name in sorted(files):
            p = here / name
            if name.startswith("."):
                continue
            if p.is_symlink():
                target = os.readlink(p)
                if not p.exists():
                    notes.append(f"{p}: skipped, a dangling symlink (to {target})")
                    continue
                try:  # a link stays inside the folder it was found in
                    within(top, p)
                except InputError:
                    notes.append(f"{p}: skipped, a symlink out of {top} (to {target})")
                    continue
                notes.append(f"{p}: a symlink, read from {target}")
            yield p


def _classify(
    p: Path, found: Found, vendor: Vendor | None, overlay: Path | None, screen: bool = True
) -> None:
    if p.name == "fabric.json":
        _regular(p)
        found.fabric = found.fabric or p
        return
    if p.suffix in OWN_SUFFIXES:
        return
    if not p.is_file():
        found.notes.append(f"{p}: skipped, not a regular file")
        return
    if not screen:
        found.configs.append(p)
        found.unscreened.add(p)
        return
    try:
        data = read_capped(p)
    except InputError as exc:  # permissions, size: may well be a config, so never silent
        found.unread.append(Unread.of(p, exc))
        return
    try:
        why = not_a_config(p, data, vendor, overlay)
    except InputError as exc:  # a config past a per-line cap: a finding, never silence
        found.unread.append(Unread.of(p, exc))
        return
    if why is None:
        found.configs.append(p)
    else:
        found.notes.append(skip_note(p, why))


@contextmanager
def reading(
    found: Found,
    vendor: Vendor | None,
    hints: Mapping[str, Hints] | Hints | None,
    overlay: Path | None,
    progress: Callable[[int, int], None] | None = None,
    cache: ParseCache | None = None,
) -> Iterator[Iterator[tuple[Path, Parsed | InputError]]]:
    """The configs of ``found`` parsed, one read of each file (by worker processes when there
    are many), in file order: each file's ``Parsed``, or the error its parse stopped on. A file
    of a folder that is no switch config at all becomes a note of ``found`` (``Found.skip``);
    one the screen refuses (unreadable, over a cap) joins ``found.unread``, which comes before
    the parse's errors, as when discovery read every file before the parse. The workers start
    on entry, so the block can validate a plan while they parse; leaving it early stops them.
    A file whose parse ``cache`` holds is not parsed again (roce_cfg/parse/cache.py)."""
    files = list(found.configs)
    pending = frozenset(found.unscreened)
    screen = screener(vendor, overlay)
    with screen_each(files, vendor, hints, overlay, screen, pending, cache) as outcomes:
        yield _configs_of(found, outcomes, pending, (vendor, overlay), progress, len(files))


def _configs_of(
    found: Found,
    outcomes: Iterable[tuple[Path, Parsed | InputError | Skipped]],
    pending: frozenset[Path],
    dialect: tuple[Vendor | None, Path | None],
    progress: Callable[[int, int], None] | None,
    total: int,
) -> Iterator[tuple[Path, Parsed | InputError]]:
    for n, (path, one) in enumerate(outcomes, 1):
        if progress is not None:
            progress(n, total)
        if isinstance(one, Skipped):
            found.skip(path, one.reason)
        elif isinstance(one, InputError) and refused_by_screen(path, pending, *dialect):
            found.unread.append(Unread.of(path, one))
        else:
            yield path, one


def parsed_configs(
    found: Found,
    vendor: Vendor | None,
    hints: Mapping[str, Hints] | Hints | None,
    overlay: Path | None,
    *,
    while_parsing: Callable[[], object] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[list[ParsedConfig], list[InputError], list[Path]]:
    """``reading`` for the parse command: the configs that parsed, the errors on the files
    that did not (those the screen refused first), and the files that were switch configs.
    ``while_parsing`` runs once the workers have started (a fabric.json validated: its error
    stops them)."""
    parsed: list[ParsedConfig] = []
    failed: list[InputError] = []
    read: list[Path] = []
    with reading(found, vendor, hints, overlay, progress) as outcomes:
        if while_parsing is not None:
            while_parsing()
        for path, one in outcomes:
            read.append(path)
            if isinstance(one, InputError):
                failed.append(one)
            else:
                parsed.append(one.config)
    return parsed, [u.as_error() for u in found.unread] + failed, read


def refused_by_screen(
    path: Path, pending: Collection[Path], vendor: Vendor | None, overlay: Path | None
) -> bool:
    """Whether discovery's screen refuses ``path`` (one of ``pending``, the files it did not
    screen) before any parse: it cannot be read, or it has a config's words but breaks a cap.
    Asked again only of a file whose parse failed, so that such files are reported first, as
    when discovery read every file before the parse."""
    if path not in pending:
        return False
    try:
        not_a_config(path, read_capped(path), vendor, overlay)
    except InputError:
        return True
    return False


def skip_note(path: Path, why: str) -> str:
    return f"{path}: skipped, not a switch config ({why})"


def screener(vendor: Vendor | None, overlay: Path | None) -> Callable[[Path, bytes], str | None]:
    """``not_a_config`` for the vendor and overlay given, as the parse workers call it (a
    partial of a module function: it travels to a worker process by name)."""
    return partial(not_a_config, vendor=vendor, overlay=overlay)


def not_a_config(
    path: Path, data: bytes, vendor: Vendor | None, overlay: Path | None
) -> str | None:
    """Why ``path`` is not a switch config, or None when it looks like one: some vendor's
    signature lines (vendors/*.yaml parse.detect) match at least twice, or once for the
    vendor given with --vendor. Raises when the text has a config's words but breaks a cap."""
    try:
        text = decode(data, str(path))
    except InputError as exc:  # binary data, empty: not a config...
        if path.suffix.lower() in CONFIG_SUFFIXES:
            raise  # ...unless named as a backup is: a failed backup leaves a switch unread
        if data.strip() and b"\x00" not in data[:65536] and _signed(data, vendor, overlay):
            raise
        return f"line {exc.line}: {exc.reason}" if exc.line else exc.reason
    body = "\n".join(line.text for line in clean(text))
    return None if _signed(body, vendor, overlay) else "no vendor's config layout or command words"


def _signed(body: str | bytes, vendor: Vendor | None, overlay: Path | None) -> bool:
    if isinstance(body, bytes):
        body = body.decode("utf-8", "replace")
    # The vendor given first, and each count stops at its threshold: a config answers after a
    # few searches instead of every vendor's every pattern over its whole text.
    profiles = sorted(load_profiles(overlay).items(), key=lambda vp: vp[0] is not vendor)
    for v, profile in profiles:
        need, score = (1 if v is vendor else SIGNATURES), 0
        for pattern in profile.parse.detect:
            score += bool(re.search(pattern, body, re.MULTILINE))
            if score >= need:
                return True
    return False


def _regular(path: Path) -> None:
    """A fabric.json found in a folder is read whole: a FIFO there would block forever and a
    link to /dev/zero would fill memory up to the size cap."""
    if not path.is_file():
        raise InputError("not a regular file (a fabric.json is one)", file=str(path))
