"""click as typer carries it: typer vendors click as its private package ``typer._click`` and
exports neither the context type a command group's ``invoke`` takes nor the exceptions a bad
command line raises (only BadParameter). This module is the one place roce_cfg names that
package (tests/test_architecture.py holds it to that); tests/test_cli_clicktypes.py checks these
are what typer's public API raises and subclasses, so a move inside typer fails the suite, not
a user."""

from typer._click.core import Context
from typer._click.exceptions import ClickException, NoArgsIsHelpError, UsageError

__all__ = ["ClickException", "Context", "NoArgsIsHelpError", "UsageError"]
