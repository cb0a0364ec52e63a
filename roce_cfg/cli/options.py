"""Options several commands share, one meaning on every command (docs/cli.md), and the long
ones of a single command, so that its signature reads as a list."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

import typer

from roce_cfg.vendor import OVERLAY_ENV, Vendor

VendorDir = Annotated[
    Path | None,
    typer.Option(
        "--vendor-dir",
        envvar=OVERLAY_ENV,
        help="Overlay with your own templates/<vendor>/sections/*.j2 and vendors/<vendor>.yaml.",
        file_okay=False,
    ),
]


# Set (to 1) it turns the parse cache and lint's run memo off as --no-cache does (the test
# suite sets it).
NO_CACHE_ENV = "ROCE_CFG_NO_CACHE"
NoCache = Annotated[
    bool,
    typer.Option(
        "--no-cache",
        envvar=NO_CACHE_ENV,
        help="Parse every config and run every rule: neither read nor write the parse cache "
        "nor lint's run memo (.roce-cfg-cache/ in the folder read).",
    ),
]


VendorOption = Annotated[
    Vendor | None, typer.Option("--vendor", help="Skip auto-detection.", case_sensitive=False)
]
FindingsFormat = Annotated[Literal["text", "json", "sarif", "junit"], typer.Option("--format")]
# --format and --quiet, one meaning on every command (Shown in roce_cfg/output.py; docs/cli.md).
TextOrJson = Annotated[
    Literal["text", "json"],
    typer.Option("--format", help="text, or one JSON document on stdout (docs/cli.md)."),
]
PushDiff = Annotated[
    Literal["summary", "full"],
    typer.Option(
        "--diff",
        help="The dry run's diff: lines added and removed per switch and section, or in full "
        "(the unified diff and the commands).",
    ),
]
PushDiffFile = Annotated[
    Path | None,
    typer.Option(
        "--diff-file",
        help="Also write every switch's unified diff and commands to this file.",
        dir_okay=False,
    ),
]
Quiet = Annotated[
    bool,
    typer.Option(
        "--quiet",
        "-q",
        help="No text on stdout and no notes; errors and warnings on stderr; the exit code says.",
    ),
]
FailLinks = Annotated[
    str | None,
    typer.Option(
        "--fail-links",
        help="'all-single' (every link, one at a time) or links that fail together: "
        "'leaf-1:HundredGigE1/0/25,leaf-2:spine-2'.",
    ),
]
FailDevices = Annotated[
    str | None, typer.Option("--fail-devices", help="Switches that fail together: 'spine-1'.")
]
Scheduler = Annotated[
    str | None,
    typer.Option(
        "--scheduler",
        help="A Dask scheduler (tcp://host:8786) for the failure sweep; unset: a local "
        "cluster (with roce-cfg[dask]).",
    ),
]
SweepState = Annotated[
    Path | None,
    typer.Option("--state", help="Keep the sweep's answers in FILE; a rerun resumes."),
]
MaxFailures = Annotated[
    int, typer.Option("--max-failures", min=1, max=2, help="2: every pair of links.")
]
CableLength = Annotated[
    str | None,
    typer.Option(
        "--cable-length",
        help="Metres where no plan or description says: '30', or per role "
        "'server=3,fabric=30'. Unset: the shortest plausible cable is checked and "
        "the rest reported once per switch (RC206).",
    ),
]
FailOn = Annotated[
    Literal["error", "warning", "info"],
    typer.Option("--fail-on", help="Exit 1 when a finding is at least this severe."),
]
RequireVerified = Annotated[
    bool,
    typer.Option(
        "--require-verified",
        help="Also fail (exit 1) on every 'cannot verify' finding (RC405, RC311-RC314, RC120, "
        "RV190, ...): by default what could not be checked is reported and does not fail.",
    ),
]
LintConfig = Annotated[
    Path | None, typer.Option("--config", help="Suppressions (default ./.roce-cfg.yaml).")
]
Samples = Annotated[
    int,
    typer.Option("--samples", min=1, max=100_000, help="Pairs to sample when there are more."),
]


VerifyAfter = Annotated[
    Literal["off", "live"],
    typer.Option("--verify", help="live: after --apply, 'roce-cfg verify' what changed."),
]
ConfirmTimeout = Annotated[
    int | None,
    typer.Option(
        "--confirm-timeout",
        min=1,
        max=86400,
        help="Seconds: apply under the switch's own confirm timer (VRP commit trial, "
        "Comware commit delay), confirm after verifying; a lost session reverts by itself.",
    ),
]
# push's own
Prune = Annotated[
    bool,
    typer.Option(
        "--prune", help="Also remove peers, VLANs, networks of managed kinds not in the intent."
    ),
]
StepTimeouts = Annotated[
    str,
    typer.Option(
        "--timeouts",
        help="Seconds per step, e.g. 'connect=5,prompt=10' (steps: connect, banner, auth, "
        "prompt, command; defaults 10, 15, 15, 20, 120).",
    ),
]
PushBatch = Annotated[
    str, typer.Option("--batch", help="Canary batches, e.g. '1,10%,100%'; stops at a failure.")
]
TypeAhead = Annotated[
    int | None,
    typer.Option(
        "--type-ahead",
        min=1,
        max=64,
        show_default=False,
        help="Configuration lines written ahead of the answers read (default 16), each answer "
        "still read and checked in order; a line that opens a view is answered before the next "
        "goes out. 1: one line at a time.",
    ),
]
PushStrict = Annotated[
    bool,
    typer.Option(
        "--strict-syntax",
        help="Send nothing to a switch whose change would type a negation no source "
        "documents (an unsourced undo form, or none at all): it fails as unsourced-undo.",
    ),
]
# lint's own
Cabling = Annotated[
    Path | None,
    typer.Option(
        "--cabling",
        help="A cabling plan CSV (as 'docs' writes, or your own: ends, length, speed).",
    ),
]
ConfigsDscp = Annotated[
    int | None,
    typer.Option(
        "--roce-dscp",
        min=0,
        max=63,
        help="Unset: the DSCP the configs map to a no-drop priority, else 26.",
    ),
]

# roce-cfg vendors: the undo forms no source documents, listed or as an overlay to cite them
UndoGaps = Annotated[
    bool,
    typer.Option(
        "--undo-gaps",
        help="List, per vendor, the undo forms no source documents (what push --strict-syntax "
        "refuses to type) instead of the provenance tables.",
    ),
]
UndoOverlay = Annotated[
    Vendor | None,
    typer.Option(
        "--undo-overlay",
        help="Print an overlay grammar file listing VENDOR's undo gaps, uncited, to fill in and "
        "cite (docs/sources.md, 'Undo forms no source prints').",
        metavar="VENDOR",
        case_sensitive=False,
    ),
]

# roce-cfg vendors capture VENDOR: the capture kit (docs/sources.md, "Capture kit")
CaptureAction = Annotated[
    Literal["capture"] | None,
    typer.Argument(
        help="capture: print the script that confirms VENDOR's unsourced commands on a switch "
        "(with --read: read its saved session into an overlay).",
        show_default=False,
    ),
]
CaptureVendor = Annotated[
    Vendor | None,
    typer.Argument(help="The vendor to capture (ruijie, zte ...).", case_sensitive=False),
]
CaptureRead = Annotated[
    Path | None,
    typer.Option("--read", help="The saved session log of the capture script.", metavar="LOG"),
]
CapturePort = Annotated[
    str | None,
    typer.Option("--port", help="The spare port the script configures ('TFGigabitEthernet 0/48')."),
]
CaptureDate = Annotated[
    str | None,
    typer.Option(
        "--date",
        help="The capture's date the overlay cites (YYYY-MM-DD; default: the log's mtime).",
    ),
]
CaptureOut = Annotated[
    Path | None,
    typer.Option("-o", "--output", help="The overlay folder to write (with --read)."),
]
