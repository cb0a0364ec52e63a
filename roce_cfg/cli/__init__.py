"""Command line: argument parsing and output only; the work is done by the API modules.

One module per group of commands (cli/main.py lists them in help order); what they share is in
cli/common.py and cli/options.py. Start-up time: every command pays for what this package
imports, so netmiko, nornir, asyncssh, jinja2, ttp and the pydantic models are imported inside
the commands that use them (tests/test_startup.py holds the line)."""

from roce_cfg.cli.main import app, main
from roce_cfg.errors import EXIT_FINDINGS, EXIT_INPUT, EXIT_OK, EXIT_PUSH

__all__ = ["EXIT_FINDINGS", "EXIT_INPUT", "EXIT_OK", "EXIT_PUSH", "app", "main"]
