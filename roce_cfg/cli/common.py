"""What every command shares: the output consoles, exit codes, counts in words, the
progress bar, discovery's notes, findings in the machine formats, credentials."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from roce_cfg.errors import EXIT_FINDINGS, EXIT_OK, InputError, printable
from roce_cfg.output import Shown, console, emit, emit_chunks, emit_json

if TYPE_CHECKING:
    from roce_cfg.analysis import Finding, LintResult
    from roce_cfg.deploy.push import Credentials
    from roce_cfg.parse.cache import ParseCache

PROGRESS_FROM = 50
PROGRESS_AFTER_S = 1.0

# Every print goes through roce_cfg/output.py's redactor.
out = console(highlight=False, soft_wrap=True)
err = console(stderr=True, highlight=False, soft_wrap=True)


def counted(count: int, one: str, many: str | None = None) -> str:
    """``1 error``, ``2 errors``; ``many`` where the plural is not one + s.

    >>> counted(1, "error"), counted(0, "cycle"), counted(2, "switch", "switches")
    ('1 error', '0 cycles', '2 switches')
    """
    return f"{count} {one if count == 1 else many or one + 's'}"


@contextmanager
def progress(what: str = "rendering") -> Iterator[Callable[[int, int], None]]:
    """A bar on stderr, only when stderr is a terminal (never in pipelines), shown for many items
    or once the stage has run for a second (so quick runs do not flicker)."""
    if not err.is_terminal:
        yield lambda done, total: None
        return
    from rich.progress import Progress

    started = time.monotonic()
    with Progress(console=err, transient=True) as bar:
        task = bar.add_task(what, total=None, visible=False)

        def tick(done: int, total: int) -> None:
            slow = time.monotonic() - started > PROGRESS_AFTER_S
            bar.update(task, completed=done, total=total, visible=total >= PROGRESS_FROM or slow)

        yield tick


def say_notes(notes: list[str], quiet: bool = False) -> None:
    """Discovery's notes on stderr: what a folder held that was not read, and why (not when
    ``quiet``)."""
    for note in [] if quiet else notes:
        err.print(f"roce-cfg: note: {printable(note)}", markup=False)


def parse_cache(paths: list[Path], overlay: Path | None, no_cache: bool) -> ParseCache | None:
    """The parse cache for reading ``paths`` (roce_cfg/parse/cache.py), unless --no-cache; a
    warning when it had to be off."""
    from roce_cfg.parse.cache import open_cache

    cache, warning = open_cache(paths, overlay, enabled=not no_cache)
    if warning is not None:
        err.print(f"roce-cfg: warning: {printable(warning)}", markup=False)
    return cache


def memoised(
    run: Callable[[], None], given: dict[str, Any], overlay: Path | None, *defaults: Path
) -> None:
    """``run()``, or its output kept from the last run over the same inputs (roce_cfg/memo.py)
    printed again as it was, exit code and all; the output kept when it can be. ``given``:
    every option of the command, by name: its ``paths`` and every other option naming a file
    are its inputs (the ``overlay`` folder is in the memo's stamp), with the files it reads
    when no option names them (``defaults``); --no-cache turns the memo off."""
    from roce_cfg.memo import open_memo, replay

    paths = list(given["paths"])
    named = [*defaults, *(v for v in given.values() if isinstance(v, Path) and v != overlay)]
    memo = None if given.get("no_cache") else open_memo(paths, named, given, overlay)
    if memo is None:
        run()
        return
    kept = memo.replay()
    if kept is not None:
        code, pieces = kept
        replay(pieces)
        if code:
            raise typer.Exit(code)
        return
    with memo.recording() as recorder:
        try:
            run()
        except typer.Exit as done:
            recorder.code = done.exit_code
            raise
        recorder.code = EXIT_OK


def source_cache(source: Path, overlay: Path | None, no_cache: bool) -> ParseCache | None:
    """``parse_cache`` for a command's source when it is a folder of configs (or the
    fabric.json among them); an intent is designed, not parsed."""
    of_configs = source.is_dir() or source.name == "fabric.json"
    return parse_cache([source], overlay, no_cache) if of_configs else None


@contextmanager
def notes_around(notes: list[str], quiet: bool = False) -> Iterator[None]:
    """``notes`` now, before anything can fail (why a folder's files were not read), and the
    ones added inside the block (files the parse found to be no config) as it ends."""
    say_notes(notes, quiet)
    shown = len(notes)
    try:
        yield
    finally:
        say_notes(notes[shown:], quiet)


def emit_findings(
    result: LintResult,
    shown: Shown,
    text: Callable[[], None],
    command: str = "lint",
    doc: Callable[[], dict[str, Any]] | None = None,
) -> None:
    """Findings in the machine formats lint and deadlock share (``doc``: the command's own
    JSON document), or the command's own text (none when quiet)."""
    from roce_cfg.analysis import report as report_fmt
    from roce_cfg.analysis.registry import rules

    fmt = shown.fmt
    if fmt == "json" and doc is not None:
        emit_json(doc())
    elif fmt == "json":
        emit_chunks(report_fmt.json_chunks(result), kind="json")
    elif fmt == "sarif":
        emit(report_fmt.to_sarif(result, rules(), Path.cwd()), kind="json")
    elif fmt == "junit":
        emit(report_fmt.to_junit(result, command), kind="markup")
    elif shown.text:
        text()


def quiet_verdict(shown: Shown, command: str, line: str) -> None:
    """--quiet's one line on a failing exit, on stderr, so a CI log says why it stopped."""
    if shown.quiet and shown.fmt == "text":
        err.print(f"roce-cfg: {command}: {line}", markup=False)


def counts_line(result: LintResult) -> str:
    c = result.counts()
    return (
        f"{counted(c['error'], 'error')}, {counted(c['warning'], 'warning')}, {c['info']} info"
        f" ({c['suppressed']} suppressed) in {counted(len(result.devices), 'config')}"
    )


def unread_exit(notes: list[str], findings: list[Finding], shown: Shown) -> None:
    """docs and report of a folder: the skipped files' notes, and exit 1 when a config could
    not be read (RC001: the documents leave that switch out)."""
    say_notes(notes, shown.quiet)
    if say_unread(findings):
        raise typer.Exit(EXIT_FINDINGS)


def say_unread(findings: list[Finding]) -> bool:
    """The RC001 findings (configs not read) as error lines on stderr; whether there were any."""
    unread = [f for f in findings if f.rule == "RC001"]
    for f in unread:
        where = f"{f.file}:{f.line}" if f.line else f.file
        err.print(f"roce-cfg: error: {printable(f'{where}: {f.message}')}", markup=False)
    return bool(unread)


def ask_credentials() -> Credentials:
    """From ROCE_CFG_USERNAME / ROCE_CFG_PASSWORD, or asked for on a terminal; never stored."""
    from roce_cfg.deploy.push import Credentials
    from roce_cfg.envvars import PASSWORD_ENV, USER_ENV

    user = os.environ.get(USER_ENV)
    password = os.environ.get(PASSWORD_ENV)
    if user is None or password is None:
        if not sys.stdin.isatty():
            raise InputError(f"set {USER_ENV} and {PASSWORD_ENV} (no terminal to ask on)")
        user = user or typer.prompt("switch username")
        password = password or typer.prompt("switch password", hide_input=True)
    return Credentials(user, password)
