"""Everything roce-cfg writes leaves through this module, and every byte of it is redacted.

Files (``staged``, ``write_all``, ``write_file``), stdout and stderr (``emit`` and the consoles
of ``console``): secrets are replaced by roce_cfg/redact.py on the way out, by the file's
kind (text, JSON, YAML, HTML/XML/SVG). The only exception is ``redact=False`` for the intended
configs generate renders from an intent (they hold no secrets and push sends them byte-exact);
tests/test_secrets.py fails when code elsewhere writes on its own.

Writing a set of files into a directory so that either all of them land or none does:

``generate`` owns its output folder: a manifest (``.roce-cfg-manifest.json``) lists what it
wrote, a folder holding anything else is refused unless forced, and a new output replaces the
previous one whole, so files of an older run never sit beside the new ones.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import json
import os
import shutil
import stat
import sys
import tempfile
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from roce_cfg import safepath
from roce_cfg.errors import BIDI, InputError
from roce_cfg.jsontext import ascii_json as ascii_json
from roce_cfg.jsontext import json_chunks
from roce_cfg.redact import redact as redact_text
from roce_cfg.redact import redact_json, redact_markup, redact_tree
from roce_cfg.safepath import plain

if TYPE_CHECKING:
    from pydantic import BaseModel
    from rich.console import Console

MANIFEST = ".roce-cfg-manifest.json"
MANIFEST_FORMAT = "roce-cfg/output/v1"
# The parse cache's folder in a folder of configs (roce_cfg/parse/cache.py): generate's output
# may hold it; replacing the folder drops it (a cache is safe to delete).
CACHE_DIR = ".roce-cfg-cache"
# lint's suppressions, read from the working folder when --config names none: the run memo
# (roce_cfg/memo.py) counts it among a run's inputs without importing lint.
LINT_CONFIG = ".roce-cfg.yaml"
# merge: move the files in beside what is there (docs, report); replace: the folder becomes
# exactly the new output; update: the new files join roce-cfg's previous output (generate --only).
Mode = Literal["merge", "replace", "update"]


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current


Kind = Literal["text", "json", "yaml", "markup"]
_KINDS: dict[str, Kind] = {
    ".json": "json",
    ".sarif": "json",
    ".yaml": "yaml",
    ".yml": "yaml",
    ".html": "markup",
    ".htm": "markup",
    ".svg": "markup",
    ".xml": "markup",
}


def kind_of(name: str) -> Kind:
    return _KINDS.get(Path(name).suffix.lower(), "text")


def scrub(text: str, kind: Kind = "text") -> str:
    """``text`` with every secret redacted; JSON and YAML are decoded and redacted string by
    string (a secret never swallows a quote), markup only between its tags.

    >>> scrub('{"a": "snmp-server community public ro"}', "json")
    '{"a": "snmp-server community <redacted> ro"}'
    """
    if kind == "markup":
        return redact_markup(text).translate(BIDI)
    if kind == "json":
        # string by string, without decoding the document: lint's JSON of 400,000 findings
        # took 42 s and 1.8 GB as a tree; a line with a hint outside every string (no JSON at
        # all) is redacted as text
        return redact_json(ascii_json(text))
    if kind == "yaml":
        import yaml

        try:
            doc = yaml.safe_load(text)
        except (yaml.YAMLError, ValueError, RecursionError):
            # not YAML after all (an HTML page written to a name ending .yaml): as text
            return redact_text(text).translate(BIDI)
        clean = redact_tree(doc)
        if clean == doc:
            return text.translate(BIDI)  # unchanged: keep the writer's own layout
        return str(yaml.safe_dump(clean, sort_keys=False, allow_unicode=True)).translate(BIDI)
    # a bidirectional control (a right-to-left override in a switch's answer) is shown as
    # \u202e: it would reorder what the terminal prints after it (JSON escapes it already)
    return redact_text(text).translate(BIDI)


def emit(text: str, *, stderr: bool = False, kind: Kind = "text") -> None:
    """Print to stdout (or stderr), redacted."""
    (sys.stderr if stderr else sys.stdout).write(scrub(text, kind))


def emit_chunks(chunks: Iterable[str], *, kind: Kind = "text") -> None:
    """Print pieces of one document to stdout as they come, each redacted: for documents
    split only between values (lint's JSON, finding by finding), never inside a string or,
    for text, a line."""
    for chunk in chunks:
        sys.stdout.write(scrub(chunk, kind))


def emit_json(doc: Mapping[str, Any]) -> None:
    """One JSON document on stdout (``json.dumps(doc, indent=2)``), redacted string by string."""
    emit(json.dumps(doc, indent=2) + "\n", kind="json")


def doc_format(command: str) -> str:
    """The ``format`` field of a command's JSON document: ``roce-cfg/<command>/v1``. A change
    of shape that drops or renames a key gets a new version (docs/cli.md)."""
    return f"roce-cfg/{command}/v1"


@dataclass(frozen=True)
class Shown:
    """How a command shows its result: ``--format`` and ``--quiet``, the same on every command.

    ``text``: the command's own text on stdout (tables, findings, a summary line). ``json``: one
    JSON document on stdout and nothing else there; notes and progress stay on stderr. ``quiet``
    silences the text format and the notes: stdout stays empty, errors and warnings still go to
    stderr and the exit code is unchanged. A machine format asked for (json, sarif, junit) is
    printed even when quiet: asking for it says the output is wanted.
    """

    fmt: str = "text"
    quiet: bool = False

    @property
    def json(self) -> bool:
        return self.fmt == "json"

    @property
    def text(self) -> bool:
        """Whether the command prints its text on stdout."""
        return self.fmt == "text" and not self.quiet

    @property
    def notes(self) -> bool:
        """Whether notes (what was skipped and why, per-file summaries) go to stderr."""
        return not self.quiet

    def result(self, doc: Callable[[], Mapping[str, Any]], text: Callable[[], None]) -> None:
        """The JSON document ``doc()`` or the ``text()``, as asked; neither when quiet."""
        if self.json:
            emit_json(doc())
        elif self.text:
            text()


def emit_doc(doc: Any, fmt: Literal["json", "yaml"]) -> None:
    """A JSON or YAML document on stdout, every string in it redacted before it is dumped."""
    import yaml

    clean = redact_tree(doc)
    if fmt == "yaml":
        sys.stdout.write(yaml.safe_dump(clean, sort_keys=False, allow_unicode=True).translate(BIDI))
    else:
        sys.stdout.write(json.dumps(clean, indent=2) + "\n")


def emit_models(head: dict[str, str], key: str, models: Sequence[BaseModel]) -> None:
    """``{**head, key: [each model's JSON form]}`` on stdout: the text ``json.dumps(doc,
    indent=2)`` writes of it, every string redacted. Each model is serialised by pydantic and
    written in turn, its long tuples of models element by element (``json_chunks``), so a
    config of 100,000 ports is never a tree of Python objects (the tree and its redacted copy
    took 10 s and 400 MB) nor one 70 MB string (three copies of it were half the peak)."""
    out = sys.stdout
    out.write("{\n" + "".join(f"  {json.dumps(k)}: {json.dumps(v)},\n" for k, v in head.items()))
    out.write(f"  {json.dumps(key)}: [" + ("" if models else "]\n}\n"))
    for n, model in enumerate(models):
        out.write("\n    ")
        for chunk in json_chunks(model):
            text = redact_json(ascii_json(chunk))
            at = 0
            while at < len(text):  # indented a MiB at a time, not copied whole
                end = text.find("\n", at + (1 << 20))
                end = len(text) if end < 0 else end
                out.write(text[at:end].replace("\n", "\n    "))
                at = end
        out.write("," if n + 1 < len(models) else "\n  ]\n}\n")


def redact_tracebacks() -> None:
    """An uncaught exception's traceback quotes values, config lines among them: printed
    redacted like everything else."""

    def hook(kind: type[BaseException], exc: BaseException, tb: Any) -> None:
        import traceback

        sys.stderr.write(redact_text("".join(traceback.format_exception(kind, exc, tb))))

    sys.excepthook = hook


class _Redacting:
    """A stream for rich: resolves sys.stdout/sys.stderr at each write (test runners swap
    them) and redacts what rich rendered, a whole print at a time."""

    def __init__(self, stderr: bool) -> None:
        self._stderr = stderr

    @property
    def _stream(self) -> Any:
        return sys.stderr if self._stderr else sys.stdout

    def write(self, text: str) -> int:
        self._stream.write(redact_text(text).translate(BIDI))
        return len(text)

    def __getattr__(self, name: str) -> Any:  # isatty, flush, encoding, fileno
        return getattr(self._stream, name)


def console(stderr: bool = False, **options: Any) -> Console:
    """A rich Console whose every print is redacted (rich is imported only when used)."""
    return _console_type()(file=_Redacting(stderr), stderr=stderr, **options)  # type: ignore[arg-type]


@functools.cache
def _console_type() -> type[Console]:
    from rich.console import Console

    class _Console(Console):
        def on_broken_pipe(self) -> None:
            """A closed stdout goes on to the console script's one handler (cli/main.py),
            which ends with 0; rich's own exits 1."""
            self.quiet = True
            raise BrokenPipeError(errno.EPIPE, os.strerror(errno.EPIPE))

    return _Console


def write_all(target: Path, files: dict[str, str], redact: bool = True) -> None:
    """Stage every file in a sibling temporary directory, then move them into ``target``."""
    with staged(target, redact=redact) as put:
        for name, text in files.items():
            put(name, text)


@contextmanager
def staged(
    target: Path, mode: Mode = "merge", force: bool = False, redact: bool = True
) -> Iterator[Callable[[str, str], None]]:
    """``put(name, text)`` files into a sibling temporary directory; when the block ends
    without an exception they move into ``target``, otherwise none of them does.

    Each file can be written as soon as it exists (a large fabric never holds all its configs),
    and each move is an atomic rename on the same filesystem, so a reader never sees a
    half-written file. In the modes ``replace`` and ``update`` the folder must be empty or
    roce-cfg's own previous output unless ``force``; ``replace`` swaps the whole folder in.
    """
    if target.is_symlink():
        # a link to a folder elsewhere would take the files there (merge) or be swapped away
        raise InputError("a symlink; roce-cfg never writes through a link", file=str(target))
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
    folded: set[str] = set()

    def put(name: str, text: str) -> None:
        _new_name(name, folded, target)
        try:
            (staging / name).write_text(scrub(text, kind_of(name)) if redact else text, "utf-8")
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
                # Every name checked before the first move: a folder or a device where a file
                # goes used to stop the merge half-way, with most files already replaced.
                for name in names:
                    there = target / name
                    if there.is_symlink() or (there.exists() and not there.is_file()):
                        raise InputError("not a regular file; nothing was written", file=str(there))
                for name in names:
                    os.replace(staging / name, target / name)
        except OSError as exc:
            raise InputError(f"cannot write: {exc.strerror or exc}", file=str(target)) from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _new_name(name: str, folded: set[str], target: Path) -> None:
    """Names come from hostnames; whoever made them, none leaves the folder or replaces another
    file of the same output (names equal but for case are one file on macOS and Windows)."""
    if not plain(name):
        raise InputError(f"'{name}' is not a file name inside the folder", file=str(target))
    if name.casefold() in folded:
        raise InputError(f"two files named {name}; nothing was written", file=str(target))
    folded.add(name.casefold())


# A manifest lists file names: a few thousand configs are well under this.
MAX_MANIFEST_BYTES = 4 * 2**20


def _manifest(path: Path) -> list[str]:
    """The names a manifest lists; one that cannot be read lists none, so the folder's files
    count as foreign (refused without --force), never as ours."""
    try:
        # a FIFO or device under the manifest's name would block the read or never end
        st = path.lstat()
        if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_MANIFEST_BYTES:
            return []
        with path.open("rb") as fh:
            listed = json.loads(fh.read(MAX_MANIFEST_BYTES + 1).decode("utf-8"))["files"]
    except (OSError, ValueError, KeyError, TypeError, RecursionError):
        return []  # RecursionError: '[' * 200000 nests past what json.loads can hold
    return [str(n) for n in listed] if isinstance(listed, list) else []


def _previous(target: Path, force: bool) -> list[str]:
    """What roce-cfg wrote into ``target`` before (its manifest); refuses a folder that holds
    anything else, unless ``force``."""
    if not target.is_dir():
        return []
    try:
        present = sorted(p.name for p in target.iterdir())
        owned = _manifest(target / MANIFEST)
    except OSError:
        owned = []
    foreign = [n for n in present if n not in (MANIFEST, CACHE_DIR) and n not in owned]
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


def made_folder(target: Path) -> Path:
    """``target`` as a folder to write in: made (with its parents) when missing; an existing
    folder as it is; a link (even to a folder: roce-cfg never writes through one), a file, a
    FIFO or a device refused in one line."""
    if target.is_symlink():
        raise InputError("a symlink; roce-cfg never writes through a link", file=str(target))
    if target.exists() and not target.is_dir():
        mode = target.stat().st_mode
        raise InputError(f"{safepath.kind(mode)}, not a folder to write in", file=str(target))
    try:
        target.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(f"cannot write: {exc.strerror or exc}", file=str(target)) from None
    return target


def writable(target: Path) -> Path:
    """``target`` as a file ``write_file`` may write: a new name or a regular file, never a
    folder, a link, a FIFO or a device. ``write_file`` checks it again; a command that acts
    before it writes (push changes switches) checks first, so a bad name stops it before."""
    if target.is_dir():
        raise InputError("is a directory, expected a file name", file=str(target))
    if target.is_symlink() or (target.exists() and not target.is_file()):
        # The rename would put a regular file where a device, FIFO or link was: as root,
        # '--html /dev/full' replaced the device node.
        raise InputError(
            "not a regular file; roce-cfg replaces only regular files", file=str(target)
        )
    return target


def write_file(target: Path, text: str, *, private: bool = False) -> None:
    """Write one file atomically (a temporary file beside it, renamed over it), redacted;
    ``private``: readable by its owner alone."""
    text = scrub(text, kind_of(target.name))
    # as a file opened for text writes it: a line ends as the platform's lines do
    data = (text if os.linesep == "\n" else text.replace("\n", os.linesep)).encode()
    _replace(target, data, 0o600 if private else None)


def write_cached(target: Path, doc: str, sealed: Callable[[bytes], bytes] = bytes) -> bool:
    """The JSON document ``doc`` compressed (then ``sealed``: a parse cache's entry put after
    its MAC) into ``target`` as ``write_file`` writes; nothing written, and False, when the
    redactor would change it (the entry would no longer be what the parse gave) or it fails."""
    doc = ascii_json(doc)
    if redact_json(doc) != doc:
        return False
    try:
        _replace(target, sealed(zlib.compress(doc.encode("ascii"), 1)))
    except InputError:
        return False
    return True


def _replace(target: Path, data: bytes, mode: int | None = None) -> None:
    writable(target)
    tmp: str | None = None
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
        if mode is None:
            os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes it owner-only
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, target)
        tmp = None
    except OSError as exc:
        raise InputError(f"cannot write: {exc.strerror or exc}", file=str(target)) from None
    finally:
        if tmp is not None:  # the write or the rename failed: leave nothing behind
            with contextlib.suppress(OSError):
                os.unlink(tmp)


@contextmanager
def appended(target: Path) -> Iterator[Callable[[str], None]]:
    """``add(text)`` appends to ``target`` (created, with its folder, when missing), each piece
    flushed as it comes, so a run stopped half-way keeps what it wrote. Never through a link
    (a dangling one would create its target wherever it points), and only to a regular file:
    a FIFO or a device under the name is refused, not written to."""
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NONBLOCK", 0)
    name = str(target)
    if target.is_symlink():
        raise InputError("a symlink; roce-cfg never writes through a link", file=name)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(target, flags | getattr(os, "O_NOFOLLOW", 0), 0o666)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        with contextlib.suppress(OSError):
            mode = target.stat().st_mode
            if not stat.S_ISREG(mode):
                reason = f"{safepath.kind(mode)}, not a regular file; roce-cfg writes only those"
        raise InputError(f"cannot write: {reason}", file=name) from None
    with os.fdopen(fd, "a", encoding="utf-8") as handle:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise InputError(
                f"{safepath.kind(mode)}, not a regular file; roce-cfg writes only those", file=name
            )

        def add(text: str) -> None:
            try:
                handle.write(scrub(text, kind_of(name)))
                handle.flush()
            except OSError as exc:
                raise InputError(f"cannot write: {exc.strerror or exc}", file=name) from None

        yield add
