"""The roce-cfg application: its commands in help order, and the entry point that
reports every error as one line."""

from __future__ import annotations

import contextlib
import os
import sys
from typing import Annotated, Any, NoReturn

import typer
from typer.core import TyperGroup

from roce_cfg import __version__
from roce_cfg.cli import catalogue, deadlock, design, lab, lint, parse, push
from roce_cfg.cli.clicktypes import ClickException, Context, NoArgsIsHelpError, UsageError
from roce_cfg.cli.common import err, out
from roce_cfg.errors import EXIT_INPUT, EXIT_OK, IntentErrors, RoceCfgError
from roce_cfg.heap import before_exit
from roce_cfg.output import redact_tracebacks
from roce_cfg.safepath import refused_path


def _report(exc: RoceCfgError) -> int:
    """A user's error, one line per problem (each of an intent's), and its exit code."""
    lines = [e.one_line() for e in exc.errors] if isinstance(exc, IntentErrors) else [str(exc)]
    for line in lines:
        err.print(f"roce-cfg: error: {line}", markup=False)
    return EXIT_INPUT


class _ReaderGone(Exception):
    """stdout's reader went away (``| head``), carried past click, whose handler of a broken
    pipe exits 1, to main(), which ends quietly."""


class _Commands(TyperGroup):
    """Runs the commands; a RoceCfgError any of them raises is reported here, the one place
    (main() runs the app through it, and so do the tests' CliRunner)."""

    def invoke(self, ctx: Context) -> Any:
        try:
            return super().invoke(ctx)
        except BrokenPipeError:
            raise _ReaderGone from None
        except RoceCfgError as exc:
            raise typer.Exit(_report(exc)) from None
        except OSError as exc:
            if (refused := refused_path(exc)) is None:
                raise
            raise typer.Exit(_report(refused)) from None


app = typer.Typer(
    cls=_Commands,
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    # Plain click help: flags print without a "<bool>" type, and help needs no rich layout.
    rich_markup_mode=None,
    help="Intent -> switch configs, lint and push for lossless RoCEv2 GPU fabrics.",
)


def _print_version(value: bool) -> None:
    if value:
        out.print(f"roce-cfg {__version__}", markup=False)
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option(
            "--version", is_eager=True, callback=_print_version, help="Print the version."
        ),
    ] = False,
) -> None:
    """Intent -> switch configs, lint and push for lossless RoCEv2 GPU fabrics."""


def main() -> None:
    """The console script: the app, each error as one line, and a closed stdout as a quiet
    end (``roce-cfg plan --gpus 128 | head -2``)."""
    try:
        _main()
    except (BrokenPipeError, _ReaderGone):
        _reader_gone()


def _reader_gone() -> NoReturn:
    """The reader of stdout has what it wanted and closed the pipe: no message and exit 0, like
    any producer cut short by ``head`` (Python's recipe: stdout pointed at /dev/null, so the
    interpreter's last flush of what was never read cannot fail again)."""
    with contextlib.suppress(OSError, ValueError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    before_exit(EXIT_OK)


def _main() -> None:
    redact_tracebacks()
    try:
        # Not standalone: click would print a bad option as four lines (usage, hint, blank,
        # error); every other bad input is one line naming the field, so options are too.
        code = app(standalone_mode=False)
    except RoceCfgError as exc:  # raised before a command runs (an option's own callback)
        sys.exit(_report(exc))
    except NoArgsIsHelpError as exc:
        exc.show()  # 'roce-cfg' alone: the help, as click prints it
        sys.exit(EXIT_INPUT)
    except UsageError as exc:
        where = exc.ctx.command_path if exc.ctx else "roce-cfg"
        err.print(f"roce-cfg: error: {exc.format_message()} (see '{where} --help')", markup=False)
        sys.exit(EXIT_INPUT)
    except ClickException as exc:
        err.print(f"roce-cfg: error: {exc.format_message()}", markup=False)
        sys.exit(exc.exit_code)
    except typer.Abort:
        err.print("roce-cfg: aborted", markup=False)
        sys.exit(130)
    sys.stdout.flush()  # a reader that left shows here, not in the interpreter's last flush
    before_exit(code if isinstance(code, int) else EXIT_OK)


# Registered here, in the order help lists them (typer keeps the order of creation).
for name, command in (
    ("generate", design.generate_cmd),
    ("parse", parse.parse_cmd),
    ("lint", lint.lint_cmd),
    ("deadlock", deadlock.deadlock_cmd),
    ("docs", design.docs_cmd),
    ("report", design.report_cmd),
    ("push", push.push_cmd),
    ("verify", push.verify_cmd),
    ("lab", lab.lab_cmd),
    ("rules", catalogue.rules_cmd),
    ("explain", catalogue.explain_cmd),
    ("schema", catalogue.schema_cmd),
    ("vendors", catalogue.vendors_cmd),
    ("models", catalogue.models_cmd),
    ("pipeline", design.pipeline_cmd),
    ("plan", design.plan_cmd),
):
    app.command(name)(command)
