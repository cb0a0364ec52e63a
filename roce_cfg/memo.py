"""The run memo: a command's whole output kept under everything it read, so that the same
command over unchanged inputs prints it again without reading a config.

An entry (``run-<key>.json.z`` in the cache folder the parse cache uses) holds what the
command wrote to stdout and stderr, piece by piece in the order written, and its exit code.
Its key is a hash of the stamp (roce-cfg's version, a digest of its code and bundled vendor
data, the installed distributions, the overlay's files), every option the command was given,
the working folder, the environment variables that change what it prints, and whether stdout
and stderr are terminals. Inside, the entry lists every file the command could have read (each
file of the folders given, walked as discovery walks them, and each file named: fabric.json,
the intent, the lint config, the cabling sheet; a missing one as missing) with its size,
mtime, ctime and inode. The entry holds when no file was added or removed and each has its
recorded stat, or else its recorded content: a file whose mtime was within ``RACY_NS`` of the
recorded run is judged by its content hash, never its stat (a write in the same clock tick as
the run's read leaves the stat as it was, as git's racy index entries); so is one whose stat
changed, when its hash was taken (the racy ones and the changed ones are; hashing every file
of a fabric on every new entry would cost more than it saves), else it means a run.

The memo is never used where a doubt is cheap to avoid: a terminal on stdout or stderr (colour
and the progress bar), a symlink or a special file among the inputs, a file changed while the
run read it, an exit other than 0 or 1, anything written to the streams past ``write``. Entries
are written through roce_cfg/output.py and read through roce_cfg/safepath.py like the parse
cache's, and count towards its bound (roce_cfg/parse/cache.py's ``trim``).

An entry is ``["<MAC>",<document>]``: HMAC-SHA256 of its name and document under a key derived
from the user's key for memo entries alone (roce_cfg/cache_key.py ``subkey``, never written).
The document holds the stamp its name is made from, so names keep out only whoever has never
read an entry; the MAC keeps out whoever can write the folder without the user's key (a CI
workspace kept between jobs, a shared checkout): an entry edited there to replay a failing
lint as clean, or copied from another command's name, replays nothing and the command runs.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
import stat
import sys
import time
import zlib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import roce_cfg
from roce_cfg.cache_key import cache_key, subkey
from roce_cfg.errors import BIDI, InputError
from roce_cfg.output import CACHE_DIR, write_cached, write_file
from roce_cfg.redact import redact
from roce_cfg.resources import data_root
from roce_cfg.safepath import read_bytes
from roce_cfg.streams import MAX_OUTPUT, Piece, Recorder, Tee

FORMAT = "roce-cfg/run-memo/v2"
# What the MAC key of a memo entry is derived for (cache_key.subkey): these entries alone.
_USE = "run memo"
PREFIX = "run-"
# The parse cache's entries end so: a memo entry counts towards its bound and eviction.
SUFFIX = ".json.z"
# A file whose mtime (or ctime) is this close to the run that recorded it, or later, is checked
# by its content: a coarse clock gives a second write in the same tick the same stat.
RACY_NS = 2 * 10**9
MAX_ENTRY_BYTES = 32 * 2**20
# What one file of roce-cfg's own code or data, or of an overlay, may be to be hashed.
MAX_DATA_BYTES = 64 * 2**20
# What changes how a command prints besides its options: rich's terminal and colour settings,
# the encoding of the streams.
PRINT_ENV = (
    "COLORTERM",
    "COLUMNS",
    "FORCE_COLOR",
    "LANG",
    "LC_ALL",
    "LC_CTYPE",
    "LINES",
    "NO_COLOR",
    "PYTHONIOENCODING",
    "PYTHONUTF8",
    "TERM",
    "TTY_COMPATIBLE",
    "TTY_INTERACTIVE",
)
# roce-cfg's own variables join the key, but never a credential (push's).
_SECRET_WORDS = ("PASSWORD", "USERNAME", "SECRET", "TOKEN")
# The stat kept of a file, or None for a file that is not there.
Stat = tuple[int, int, int, int] | None


# -- the cache folder and what an entry must carry to be trusted ---------------------------


def cache_folder(paths: Sequence[Path]) -> Path:
    """The cache folder of a command reading ``paths``: beside the first (in it, for a folder)."""
    first = paths[0]
    return (first if first.is_dir() else first.parent) / CACHE_DIR


# What the cache folder holds beside its entries: git and backup tools leave it alone.
_OWN_FILES = {
    ".gitignore": "# roce-cfg's parse cache: safe to delete, never to commit\n*\n",
    "CACHEDIR.TAG": "Signature: 8a477f597d28d172789f06886806bc55\n"
    "# roce-cfg's parse cache (safe to delete); see https://bford.info/cachedir/\n",
}


def made(folder: Path) -> bool:
    """Whether ``folder`` is a folder to keep entries in, made (with ``_OWN_FILES``) when
    missing; never one reached through a link."""
    if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
        return False
    if not folder.exists():
        try:
            for name, text in _OWN_FILES.items():
                write_file(folder / name, text)
        except InputError:
            return False
    return True


def stamp(folder: Path, overlay: Path | None) -> str:
    """roce-cfg's version, code and vendor data, the installed distributions and the
    overlay's files: what a run read besides its inputs; and the user's cache key. An
    InputError when a file of them cannot be read."""
    h = hashlib.blake2b(digest_size=20, key=cache_key())
    h.update(f"{FORMAT}\0{roce_cfg.__version__}\0{own_digest(folder)}\0".encode())
    if overlay is not None:
        h.update(_digest(overlay, _files(overlay)).encode())
    return h.hexdigest()


# Where the digest of roce-cfg's own files is kept under their stats: reading them all (1.7 MB)
# took 0.1-0.4 s of every run.
_OWN = "own-files.json"


def own_digest(folder: Path) -> str:
    """The digest of roce-cfg's code and bundled data, the Python and the installed
    distributions, read again only when a stat of one of those files differs from the ones
    kept beside it in ``folder`` (or was racy then)."""
    package = Path(roce_cfg.__file__).resolve().parent
    code = [p for p in _files(package) if p.suffix == ".py"]
    data = [p for top in ("vendors", "templates") for p in _files(data_root() / top)]
    versions = f"{sys.version}\0{_distributions()}\0"
    h = hashlib.blake2b(digest_size=20)
    h.update(versions.encode())
    newest = 0
    for path in (*code, *data):
        st = path.stat()
        newest = max(newest, st.st_mtime_ns, st.st_ctime_ns)
        h.update(
            f"{path}\0{st.st_size}\0{st.st_mtime_ns}\0{st.st_ctime_ns}\0{st.st_ino}\0".encode()
        )
    stats = h.hexdigest()
    kept = _read_json(folder / _OWN, 4096)
    if isinstance(kept, dict) and kept.get("stats") == stats and isinstance(kept.get("of"), str):
        return str(kept["of"])
    digest = _digest(package, code) + _digest(data_root(), data) + versions
    if newest < time.time_ns() - RACY_NS and made(folder):
        with contextlib.suppress(InputError):
            write_file(folder / _OWN, json.dumps({"stats": stats, "of": digest}))
    return digest


def _distributions() -> str:
    """The distributions installed where roce-cfg imports from (a dist-info's name holds its
    version): another pydantic, rich or ttp is another stamp."""
    found: list[str] = []
    for entry in sys.path:
        with contextlib.suppress(OSError):
            found += sorted(n for n in os.listdir(entry or ".") if n.endswith(".dist-info"))
    return ",".join(found)


def _files(top: Path) -> list[Path]:
    """The files under ``top``, in name order, caches and hidden entries aside."""
    out: list[Path] = []
    for root, dirs, names in os.walk(top):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "__pycache__")
        out.extend(Path(root) / n for n in sorted(names) if not n.startswith("."))
    return out


def _digest(top: Path, files: list[Path]) -> str:
    h = hashlib.blake2b(digest_size=20)
    for path in files:
        data = read_bytes(path, what="vendor data file", max_bytes=MAX_DATA_BYTES, root=top)
        h.update(f"{path.relative_to(top).as_posix()}\0{len(data)}\0".encode())
        h.update(data)
    return h.hexdigest()


def unpacked(path: Path, max_bytes: int, max_json: int) -> bytes | None:
    """The document a cache entry in ``path`` holds compressed (``max_bytes`` of it at most,
    ``max_json`` inflated, never through a link); None when it is missing, a link, unreadable,
    larger than any entry roce-cfg writes, or cut short. One reader for every cache's entries.
    The entry's name is roce-cfg's own (no '..', no separator) and its folder is never a link
    (``made``, and the caches' opening): a link in the entry's own place is all that could
    lead elsewhere, refused by its lstat. (``safepath.within`` resolved every component of
    both paths per entry: 0.07 s of loading 1,280 parse cache entries.)"""
    packed = packed_entry(path, max_bytes)
    return None if packed is None else inflated(packed, max_json)


def packed_entry(path: Path, max_bytes: int) -> bytes | None:
    """The bytes of the cache entry in ``path`` as ``unpacked`` reads them, not inflated: an
    entry sealed over its compressed bytes is authenticated before anything is inflated."""
    try:
        linked = os.path.islink(path)
        return None if linked else read_bytes(path, what="cache entry", max_bytes=max_bytes)
    except InputError:
        return None


def inflated(packed: bytes, max_json: int) -> bytes | None:
    """``packed`` inflated, ``max_json`` bytes at most; None if not one zlib stream, or more."""
    try:
        inflate = zlib.decompressobj()
        doc = inflate.decompress(packed, max_json)
    except zlib.error:
        return None
    return None if inflate.unconsumed_tail or not inflate.eof else doc


def _read_json(path: Path, max_bytes: int) -> object:
    """The JSON document in ``path``; None for any doubt."""
    try:
        return json.loads(
            read_bytes(path, what="cache entry", max_bytes=max_bytes, root=path.parent)
        )
    except (InputError, ValueError, RecursionError):
        return None


# -- what a run read ---------------------------------------------------------------------------


def _stat(path: Path) -> tuple[bool, Stat]:
    """Whether ``path`` may be an input of a memoised run, and its stat (None: missing)."""
    try:
        st = path.lstat()
    except FileNotFoundError:
        return True, None
    except OSError:
        return False, None
    if not stat.S_ISREG(st.st_mode):  # a link, a FIFO, a device: never memoised
        return False, None
    return True, (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)


def inputs(paths: Iterable[Path], named: Iterable[Path]) -> dict[str, Stat] | None:
    """Every file the run may read, with its stat: the non-hidden files under each folder of
    ``paths`` (as discovery walks them), each file of ``paths`` and ``named`` (missing ones
    too). None when one is a link or a special file: such a run is not memoised."""
    found: dict[str, Stat] = {}
    files = list(named)
    for path in paths:
        if not path.is_dir() or path.is_symlink():
            files.append(path)
            continue
        for root, dirs, names in os.walk(path):
            if any(os.path.islink(os.path.join(root, d)) for d in dirs):
                return None
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            files += [Path(root, n) for n in sorted(names) if not n.startswith(".")]
    for path in files:
        ok, st = _stat(path)
        if not ok:
            return None
        found[str(path)] = st
    return found


def _racy(st: Stat, since_ns: int) -> bool:
    return st is not None and max(st[1], st[2]) >= since_ns - RACY_NS


def _content(path: str) -> str:
    """The content hash of an input (a file that cannot be read has none: no memo)."""
    h = hashlib.blake2b(digest_size=20)
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


# -- the memo ----------------------------------------------------------------------------------


@dataclass
class RunMemo:
    """The memo of one command over its inputs: ``replay()`` gives the output kept when it
    still holds; ``recording()`` keeps the output of the run."""

    folder: Path
    stamp: str
    key: str
    files: dict[str, Stat]
    seal: bytes  # the MAC key of memo entries (``_mac``)
    started_ns: int = field(default_factory=time.time_ns)
    # the content hashes taken (of files whose stat alone does not settle them)
    hashed: dict[str, str] = field(default_factory=dict)
    _kept: dict[str, Any] | None = None

    @property
    def path(self) -> Path:
        return self.folder / f"{PREFIX}{self.key}{SUFFIX}"

    def replay(self) -> tuple[int, list[Piece]] | None:
        """The exit code and output kept, when every input is still what it was."""
        doc = self._opened()
        if not isinstance(doc, dict) or not _well_formed(doc, self):
            return None
        self._kept = doc
        kept: dict[str, list[Any]] = doc["files"]
        if kept.keys() != self.files.keys():
            return None
        for name, st in self.files.items():
            if not self._same(name, st, kept[name], int(doc["started_ns"])):
                return None
        touch(self.path)
        return int(doc["code"]), [(int(s), str(t)) for s, t in doc["output"]]

    def _opened(self) -> object:
        """The document of this memo's entry when its MAC verifies (one this user's roce-cfg
        wrote under this name: an entry edited in the folder, or copied from another name,
        replays nothing); None for any doubt."""
        raw = unpacked(self.path, MAX_ENTRY_BYTES, MAX_OUTPUT * 4)
        if raw is None or raw[:2] != b'["' or raw[66:68] != b'",' or raw[-1:] != b"]":
            return None
        body = raw[68:-1]
        if not hmac.compare_digest(raw[2:66], self._mac(body)):
            return None
        try:
            return json.loads(body)
        except (ValueError, RecursionError):
            return None

    def _mac(self, body: bytes) -> bytes:
        """HMAC-SHA256 of the entry's name and document, under the user's key for memo entries
        (never written anywhere: the stamp the names come from is no secret, it is in here)."""
        message = self.path.name.encode() + b"\0" + body
        return hmac.digest(self.seal, message, "sha256").hex().encode()

    def _same(self, name: str, st: Stat, was: list[Any], then_ns: int) -> bool:
        was_st = tuple(was[0]) if was[0] is not None else None
        if st is None or was_st is None:
            return st is None and was_st is None
        if st == was_st and not _racy(was_st, then_ns):
            return True
        return was[1] is not None and self._hash(name) == was[1]

    def _hash(self, name: str) -> str | None:
        if name not in self.hashed:
            try:
                self.hashed[name] = _content(name)
            except OSError:
                return None
        return self.hashed[name]

    @contextmanager
    def recording(self) -> Iterator[Recorder]:
        """The streams recorded while the block runs; the entry written when it ended with
        ``Recorder.code`` set and nothing read changed meanwhile."""
        for name, st in self.files.items():
            if _racy(st, self.started_ns):
                self._hash(name)  # before the run reads it: a change during the run shows
        recorder = Recorder()
        out, err = sys.stdout, sys.stderr
        sys.stdout, sys.stderr = Tee(out, 1, recorder), Tee(err, 2, recorder)
        try:
            yield recorder
        finally:  # lint ends with findings by an exception (typer.Exit): kept too
            sys.stdout, sys.stderr = out, err
            if recorder.code in (0, 1) and not recorder.tainted:
                self._store(recorder)

    def _store(self, recorder: Recorder) -> None:
        if inputs([], [Path(n) for n in self.files]) != self.files:
            return  # changed while the run read it
        before, self.hashed = self.hashed, {}
        if any(self._hash(name) != digest for name, digest in before.items()):
            return  # a file hashed before the run (racy, or changed) changed during it
        kept = self._kept if self._kept and _well_formed(self._kept, self) else None
        old: dict[str, list[Any]] = kept["files"] if kept else {}
        then = int(kept["started_ns"]) if kept else 0
        files: dict[str, list[Any]] = {}
        for name, st in self.files.items():
            was = old.get(name)
            digest = self.hashed.get(name)  # racy, or its stat changed: hashed already
            if st is not None and digest is None and was and was[0] and tuple(was[0]) == st:
                # as the last run recorded it and not changed since, unless it was racy then:
                # hashed now (not racy now, so unchanged since this run read it)
                digest = self._hash(name) if _racy(st, then) else was[1]
            files[name] = [list(st) if st is not None else None, digest]
        doc = {
            "format": FORMAT,
            "stamp": self.stamp,
            "key": self.key,
            "started_ns": self.started_ns,
            "files": files,
            "code": recorder.code,
            "output": recorder.pieces,
        }
        if made(self.folder):
            body = json.dumps(doc, separators=(",", ":"))
            mac = self._mac(body.encode()).decode()
            write_cached(self.path, f'["{mac}",{body}]')


def replay(pieces: Iterable[Piece]) -> None:
    """Output kept from an earlier run written again, each piece to its stream, redacted again:
    a no-op on what roce_cfg/output.py wrote (an entry is kept only when the redactor changes
    none of its strings), not on an entry planted in the folder."""
    for which, text in pieces:
        (sys.stderr if which == 2 else sys.stdout).write(redact(text).translate(BIDI))


def _well_formed(doc: Mapping[str, Any], memo: RunMemo) -> bool:
    """Whether ``doc`` is an entry of this memo, every field of the shape written (a foreign
    or corrupt one is ignored, never an error)."""
    files, output = doc.get("files"), doc.get("output")
    return (
        doc.get("format") == FORMAT
        and doc.get("stamp") == memo.stamp
        and doc.get("key") == memo.key
        and type(doc.get("started_ns")) is int
        and doc.get("code") in (0, 1)
        and isinstance(files, dict)
        and all(_recorded(v) for v in files.values())
        and isinstance(output, list)
        and all(_piece(p) for p in output)
    )


def _recorded(value: object) -> bool:
    """``[stat, content hash]`` of a file (no hash where the run had no reason to take one:
    a stat that changes then means a run), or ``[None, None]`` of a missing one."""
    if not isinstance(value, list) or len(value) != 2:
        return False
    st, digest = value
    if st is None:
        return digest is None
    ints = isinstance(st, list) and len(st) == 4 and all(type(n) is int for n in st)
    return ints and (digest is None or isinstance(digest, str))


def _piece(value: object) -> bool:
    return (
        isinstance(value, list)
        and len(value) == 2
        and value[0] in (1, 2)
        and isinstance(value[1], str)
    )


def touch(path: Path) -> None:
    """An entry just used made the newest: eviction takes the least recently used."""
    with contextlib.suppress(OSError, NotImplementedError):
        os.utime(path, follow_symlinks=False)


def open_memo(
    paths: Sequence[Path],
    named: Iterable[Path],
    given: Mapping[str, object],
    overlay: Path | None,
) -> RunMemo | None:
    """The memo of a command given ``given`` (every option, by name) reading ``paths`` and the
    ``named`` files, or None where it is not used (a terminal, a link, a file unreadable)."""
    if not paths or sys.stdout.isatty() or sys.stderr.isatty():
        return None
    folder = cache_folder(paths)
    if folder.is_symlink():
        return None
    files = inputs(paths, named)
    if files is None:
        return None
    try:
        kept, seal = stamp(folder, overlay), subkey(_USE)
    except (InputError, OSError):
        return None
    return RunMemo(folder, kept, _key(kept, given), files, seal)


def _key(kept: str, given: Mapping[str, object]) -> str:
    env = {k: v for k, v in os.environ.items() if k in PRINT_ENV or _own_env(k)}
    h = hashlib.blake2b(digest_size=20)
    where = os.getcwd()
    h.update(repr((kept, sorted(given.items()), where, sorted(env.items()))).encode())
    return h.hexdigest()


def _own_env(name: str) -> bool:
    return name.startswith("ROCE_CFG_") and not any(w in name for w in _SECRET_WORDS)
