"""typer's vendored click (roce_cfg/cli/clicktypes.py) against typer's public API: the types
roce-cfg catches and subclasses are the ones typer's public names derive from and raise."""

from __future__ import annotations

import pytest
import typer

from roce_cfg.cli import app
from roce_cfg.cli.clicktypes import ClickException, Context, NoArgsIsHelpError, UsageError


def test_the_public_names_derive_from_the_fenced_ones() -> None:
    assert issubclass(typer.Context, Context)
    assert issubclass(typer.BadParameter, UsageError)
    assert issubclass(UsageError, ClickException)
    assert issubclass(ClickException, typer.TyperException)
    assert issubclass(NoArgsIsHelpError, UsageError)


def test_no_arguments_raise_the_fenced_help_error() -> None:
    with pytest.raises(NoArgsIsHelpError):
        app([], standalone_mode=False)


@pytest.mark.parametrize("argv", [["generate", "--no-such-option"], ["no-such-command"]])
def test_a_bad_command_line_raises_the_fenced_usage_error(argv: list[str]) -> None:
    with pytest.raises(UsageError) as raised:
        app(argv, standalone_mode=False)
    assert raised.value.ctx is not None and not isinstance(raised.value, NoArgsIsHelpError)
