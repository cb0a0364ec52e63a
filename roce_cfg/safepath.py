"""File names made from names read from input, and paths that stay inside their folder.

A hostname in a config (``sysname ../../../x``), an inventory host (``/etc/x``) or any other
name from outside is text, not a path: written as a file name it could climb out of the folder
it belongs in, name a device (``CON`` on Windows), hide (a leading dot) or be longer than any
filesystem allows. ``file_name`` maps such a name to one plain path component, ``file_names``
maps a set of them and refuses two that would land on one file, and ``inside`` is the check
every read and write by name goes through: the path, links followed, is a direct child of its
folder.

The mapping keeps the portable file name characters (POSIX: ``A-Z a-z 0-9 . _ -``) and writes
every other byte of the name's UTF-8 as ``%XX``, so it is injective and a name never changes
meaning on a filesystem that folds case or Unicode: U+FF0F (fullwidth solidus) is three
escaped bytes, not a separator.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterable
from pathlib import Path

from roce_cfg.errors import InputError

_KEEP = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-")
# Windows opens a device, not a file, for these names with any suffix ('nul.md', 'COM1.cfg').
_DEVICES = frozenset(
    ["CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$"]
    + [f"{dev}{n}" for dev in ("COM", "LPT") for n in range(10)]
)
# A file name may be 255 bytes on every common filesystem; the writers add a suffix and a
# temporary prefix ('.name.xxxxxxxx'), so the name itself keeps well under that.
MAX_FILE_NAME = 200


def _escape(text: str) -> str:
    return "".join(f"%{b:02X}" for b in text.encode("utf-8", "surrogatepass"))


def file_name(name: str, suffix: str = "", *, what: str = "name") -> str:
    """``name`` + ``suffix`` as one safe file name, or an InputError saying why there is none.

    Characters outside ``A-Z a-z 0-9 . _ -`` become ``%XX`` per UTF-8 byte, as do a leading
    dot, a trailing dot and the first letter of a Windows device name, so different names give
    different file names.

    Args:
        name: the name as read (a hostname, an inventory host).
        suffix: appended as is (``.md``, ``.cfg``); it must itself be safe.
        what: what the name is, for the error message.

    Returns:
        The file name.

    Raises:
        InputError: the name is empty, or its file name would be longer than 200 bytes.

    >>> file_name("leaf-1", ".md")
    'leaf-1.md'
    >>> file_name("../../../x", ".md")
    '%2E.%2F..%2F..%2Fx.md'
    >>> file_name("/etc/passwd")
    '%2Fetc%2Fpasswd'
    >>> file_name("leaf\\uff0f1"), file_name("nul", ".md"), file_name("a b.")
    ('leaf%EF%BC%8F1', '%6Eul.md', 'a%20b%2E')
    """
    if not name:
        raise InputError(f"{what}: empty, so no file can be named after it")
    body = "".join(c if c in _KEEP else _escape(c) for c in name)
    if body.startswith("."):
        body = "%2E" + body[1:]
    if body.endswith("."):
        body = body[:-1] + "%2E"
    if body.split(".")[0].upper() in _DEVICES:
        body = _escape(body[0]) + body[1:]
    out = body + suffix
    if len(out) > MAX_FILE_NAME:
        shown = name[:40].encode("unicode_escape").decode("ascii")
        raise InputError(
            f"{what} '{shown}...' ({len(name):,} characters) is too long to name a file "
            f"({len(out):,} bytes; limit {MAX_FILE_NAME})"
        )
    return out


def file_names(
    names: Iterable[str], suffix: str = "", *, what: str = "name", taken: Iterable[str] = ()
) -> dict[str, str]:
    """``name -> file_name(name, suffix)`` for every name; an InputError when two of them, or
    one of them and a file of ``taken``, would be one file (names equal but for case are one
    file on macOS and Windows).

    >>> file_names(["leaf-1", "leaf-2"], ".md")
    {'leaf-1': 'leaf-1.md', 'leaf-2': 'leaf-2.md'}
    >>> file_names(["index"], ".md", what="hostname", taken=["index.md"])
    Traceback (most recent call last):
    ...
    roce_cfg.errors.InputError: hostname 'index' and index.md would both be written as index.md
    """
    seen = {t.casefold(): t for t in taken}
    owner: dict[str, str] = {}
    out: dict[str, str] = {}
    for name in names:
        if name in out:
            continue
        mapped = file_name(name, suffix, what=what)
        key = mapped.casefold()
        if key in seen:
            other = f"'{owner[key]}'" if key in owner else seen[key]
            raise InputError(
                f"{what} '{_shown(name)}' and {other} would both be written as {mapped}"
            )
        seen[key], owner[key], out[name] = mapped, _shown(name), mapped
    return out


def _shown(name: str) -> str:
    return name[:60].encode("unicode_escape").decode("ascii")


def plain(name: str) -> bool:
    """Whether ``name`` is one path component that names a file in its folder (not ``.``,
    ``..``, empty, absolute, holding a separator or NUL, or not encodable as a path)."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: no filesystem call takes it
        return False
    return (
        bool(name)
        and name not in (".", "..")
        and not any(c in name for c in ("/", "\\", "\0"))
        and not os.path.isabs(name)
    )


def inside(folder: Path, name: str) -> Path:
    """``folder / name`` when ``name`` is one plain component and the path, links followed,
    is a direct child of ``folder``; otherwise an InputError naming the path.

    >>> inside(Path("out"), "leaf-1.md").as_posix()
    'out/leaf-1.md'
    >>> inside(Path("out"), "../x.md")
    Traceback (most recent call last):
    ...
    roce_cfg.errors.InputError: out/../x.md: not a file name inside out
    """
    path = folder / name
    if not plain(name):
        raise InputError(f"not a file name inside {folder}", file=str(path))
    try:
        real = path.resolve()
        base = folder.resolve()
    except (OSError, RuntimeError, ValueError):  # a link loop
        raise InputError(f"cannot resolve inside {folder}", file=str(path)) from None
    if real.parent != base:
        raise InputError(f"leads outside {folder} (to {real}); refused", file=str(path))
    return path


# -- the door every file roce-cfg reads by a path goes through --------------------------------

_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def kind(mode: int) -> str:
    """What a ``st_mode`` is, in words: 'a regular file', 'a FIFO', 'a directory' ...

    >>> kind(stat.S_IFIFO), kind(stat.S_IFREG)
    ('a FIFO', 'a regular file')
    """
    return next((name for test, name in _KINDS if test(mode)), "a regular file")


def within(root: Path, path: Path, *, what: str = "file") -> Path:
    """``path`` with its links followed, when that lies under ``root`` (links followed too);
    otherwise an InputError naming it: a template of an overlay that is a symlink to
    /etc/shadow, or an include through a linked folder, would copy that file into every
    generated config.

    >>> within(Path("out"), Path("out/a/b.j2")).as_posix().endswith("out/a/b.j2")
    True
    >>> within(Path("out"), Path("out/../x.j2"))
    Traceback (most recent call last):
    ...
    roce_cfg.errors.InputError: out/../x.j2: leads outside out (to ...x.j2); refused
    """
    try:
        real, base = path.resolve(), root.resolve()
    except (OSError, RuntimeError, ValueError):  # a link loop
        raise InputError(f"cannot resolve inside {root}", file=str(path)) from None
    if real != base and base not in real.parents:
        raise InputError(f"leads outside {root} (to {real}); refused", file=str(path))
    return real


def read_bytes(path: Path, *, what: str, max_bytes: int, root: Path | None = None) -> bytes:
    """The bytes of the regular file ``path``, ``max_bytes`` at most; everything else is one
    InputError naming the path: missing, a directory, a FIFO (an open would wait for a writer),
    a device (``/dev/zero`` never ends), a socket, too large (refused from its size before a
    byte is read, and again if it grows while read), unreadable. With ``root``, the path,
    links followed, must also stay inside that folder.

    >>> read_bytes(Path("/dev/zero"), what="state file", max_bytes=10)
    Traceback (most recent call last):
    ...
    roce_cfg.errors.InputError: /dev/zero: a character device, not a state file; refused
    """
    name = str(path)
    if root is not None:
        within(root, path, what=what)
    try:
        # O_NONBLOCK: opening a FIFO without a writer returns at once (then refused by kind)
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise InputError(_missing(path, what), file=name) from None
    except OSError as exc:
        # a socket (ENXIO) or a FIFO's cousins: name the kind when stat can
        raise InputError(_refusal(path, what) or _cannot(exc, "read"), file=name) from None
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode) or st.st_size > max_bytes:
        os.close(fd)
        if not stat.S_ISREG(st.st_mode):
            raise InputError(_not_regular(st.st_mode, what), file=name)
        raise InputError(
            f"too large ({st.st_size:,} bytes; {_a(what)} may be {max_bytes:,})", file=name
        )
    try:
        # one byte past the cap: a file that grows while read is still refused whole
        data = _read_all(fd, max_bytes + 1, st.st_size + 1)
    except OSError as exc:
        raise InputError(_cannot(exc, "read"), file=name) from None
    finally:
        os.close(fd)
    if len(data) > max_bytes:
        raise InputError(
            f"too large (over {max_bytes:,} bytes, the limit for {_a(what)})", file=name
        )
    return data


def _read_all(fd: int, limit: int, first: int) -> bytes:
    """Up to ``limit`` bytes, the first read sized to the file (one read for a whole file)."""
    parts, size, want = [], 0, first
    while size < limit:
        chunk = os.read(fd, min(limit - size, max(want, 1 << 16)))
        want = 1 << 20
        if not chunk:
            break
        parts.append(chunk)
        size += len(chunk)
    return b"".join(parts)


def _missing(path: Path, what: str) -> str:
    if path.is_symlink():
        return f"a dangling symlink (to {os.readlink(path)}), not {_a(what)}"
    if not path.parent.is_dir():
        return f"no such folder {path.parent}"
    return f"no such {what}"


def _refusal(path: Path, what: str) -> str | None:
    try:
        mode = path.stat().st_mode
    except OSError:
        return None
    return None if stat.S_ISREG(mode) else _not_regular(mode, what)


def _not_regular(mode: int, what: str) -> str:
    if stat.S_ISDIR(mode):
        return f"is a directory, expected {_a(what)}"
    return f"{kind(mode)}, not {_a(what)}; refused"


def _cannot(exc: OSError, verb: str) -> str:
    return f"cannot {verb}: {exc.strerror or exc}"


def _a(what: str) -> str:
    return f"{'an' if what[:1] in 'aeiou' else 'a'} {what}"


# What a path can be refused for before any file is opened: its name (too long for the
# filesystem, a component past 255 bytes), or a folder on the way this user may not search.
# Path.exists() and is_dir() pass these through as exceptions, wherever a command asks.
_PATH_ERRNOS = frozenset({errno.ENAMETOOLONG, errno.EACCES, errno.EPERM, errno.ELOOP})


def refused_path(exc: OSError) -> InputError | None:
    """A user's path the filesystem refused (``_PATH_ERRNOS``) as the one-line error it is;
    None for any other OSError (not the user's path: left to surface).

    >>> refused_path(OSError(36, "File name too long", "x" * 300)).one_line()[:40]
    'xxxxxxxxxxxxxxxxxxxxxxxx...(300 characte'
    """
    if exc.errno not in _PATH_ERRNOS:
        return None
    name = str(exc.filename or "")
    shown = name if len(name) <= 80 else f"{name[:24]}...({len(name):,} characters)"
    return InputError(f"cannot use this path: {exc.strerror or exc}", file=shown or None)


def folder(path: Path, *, what: str) -> Path:
    """``path`` when it is an existing folder (links followed); otherwise one InputError saying
    what it is instead."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        raise InputError(f"no such folder ({what})", file=str(path)) from None
    except OSError as exc:
        raise InputError(_cannot(exc, "read"), file=str(path)) from None
    if not stat.S_ISDIR(mode):
        raise InputError(f"{kind(mode)}, not a folder ({what})", file=str(path))
    return path
