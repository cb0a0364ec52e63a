"""Lint: per-device, headroom, fabric and intent rules over parsed running-configs.

``lint()`` parses the given configs (with hints from fabric.json or the intent when given), runs
every registered rule and returns located findings, suppressions applied (run.py; the rules run
in engine.py). ``lint_designed()`` judges a designed fabric's switches the same way without
parsing their rendered text back.
"""

# The rule modules register their rules with the registry as they are imported: any import of
# this package registers every rule before ``registry.rules()`` is read.
from roce_cfg.analysis import (  # noqa: F401
    rules_accounting,
    rules_deadlock,
    rules_device,
    rules_ecmp,
    rules_fabric,
    rules_gaps,
    rules_headroom,
    rules_headroom_unverified,
    rules_input,
    rules_intent,
    rules_mlag,
    rules_mtu,
    rules_policy,
    rules_syntax,
    rules_watchdog,
)
from roce_cfg.analysis.context import Options
from roce_cfg.analysis.findings import Finding, LintResult
from roce_cfg.analysis.run import lint, lint_designed

__all__ = ["Finding", "LintResult", "Options", "lint", "lint_designed"]
