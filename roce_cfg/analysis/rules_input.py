"""RC001: a switch config that could not be read or parsed is a finding on that file, not the
end of the run: every other file is still analysed, and the exit code says something was not."""

from __future__ import annotations

from roce_cfg.analysis.findings import Finding
from roce_cfg.analysis.registry import declare
from roce_cfg.inputs import Unread

UNREAD = declare(
    "RC001",
    "config-unreadable",
    "error",
    "device",
    summary="A file given (or found in a folder given) as a switch config could not be read "
    "or parsed; nothing in it was checked.",
    rationale="A fabric is only as checked as its least-read switch: a config that was skipped "
    "in silence would let the run say all is well about a switch it never saw.",
    fix="Read the reason and line given: fix the file (or the permission), or move what is not "
    "a switch config out of the folder. The other files' findings stand on their own.",
    limits="A folder's file with no vendor's config words at all is not a config and is "
    "skipped with a note instead (a README, a ticket export).",
)


def unread_finding(unread: Unread) -> Finding:
    """The RC001 finding of one file that could not be read or parsed."""
    return Finding(
        rule=UNREAD.id,
        severity=UNREAD.severity,
        device=unread.path.name,
        file=str(unread.path),
        line=unread.line,
        message=f"not read: {unread.reason}",
    )
