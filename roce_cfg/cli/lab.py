"""roce-cfg lab: SSH switch emulators on 127.0.0.1 to rehearse a push on."""

from __future__ import annotations

import sys
import warnings
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from roce_cfg.cli.common import ask_credentials, err, out
from roce_cfg.cli.options import TextOrJson, VendorDir
from roce_cfg.errors import EXIT_INPUT
from roce_cfg.output import emit_json, write_file

if TYPE_CHECKING:
    from roce_cfg.lab.server import Lab

LabLenient = Annotated[
    bool,
    typer.Option(
        "--lenient",
        help="Accept lines no vendor grammar entry knows (unknown-but-plausible) instead of "
        "refusing them; wrong views, parameters and undo forms are still refused.",
    ),
]
LabStrict = Annotated[
    bool,
    typer.Option(
        "--strict-syntax",
        help="Refuse the commands the vendor grammar grades unsourced (Ruijie and ZTE lossless "
        "guesses) instead of accepting them.",
    ),
]
LENIENT_NOTE = (
    '"lenient" mode: lines no vendor grammar knows are accepted as typed; a real switch may '
    "refuse them"
)


LabFault = Annotated[
    list[str] | None,
    typer.Option(
        "--fault",
        help="HOST:KIND[=VALUE], repeatable: reject=REGEX, drop-after=N, drop-on=REGEX, "
        "delay=SECONDS, latency=SECONDS, hang-on=REGEX, refuse-login, save-error, commit-error, "
        "not-applied=REGEX; live state for verify: link-down=PORT, pfc-storm=PORT, ... "
        "(docs/verify.md).",
    ),
]


def lab_cmd(
    intent: Annotated[Path, typer.Option("--intent", help="The fabric whose switches to emulate.")],
    inventory_out: Annotated[
        Path, typer.Option("--inventory-out", help="Write a matching inventory here.")
    ],
    start: Annotated[
        str, typer.Option("--start", help="empty, intended, or a folder of saved configs.")
    ] = "empty",
    lenient: LabLenient = False,
    strict_syntax: LabStrict = False,
    vendor_dir: VendorDir = None,
    fault: LabFault = None,
    fmt: TextOrJson = "text",
) -> None:
    """Run one SSH switch emulator per switch on 127.0.0.1 until interrupted (Ctrl-C, SIGINT or
    SIGTERM). With --vendor-dir the emulators accept your overlay's syntax."""
    try:
        _without_dsa_deprecation()
        from roce_cfg.lab.run import start as start_lab
        from roce_cfg.lab.run import unsourced_note
    except ModuleNotFoundError as exc:  # asyncssh comes with the 'lab' extra only
        err.print(
            f"roce-cfg: error: roce-cfg lab needs {exc.name}: pip install 'roce-cfg[lab]'",
            markup=False,
        )
        raise typer.Exit(EXIT_INPUT) from None
    from roce_cfg.platforms.profile import overlay_dir

    creds = ask_credentials()
    lab, text = start_lab(
        intent,
        start,
        creds.username,
        creds.password,
        lenient=lenient,
        overlay=overlay_dir(vendor_dir),
        strict=strict_syntax,
        faults=fault or [],
    )

    notes = [unsourced_note(lab.switches), LENIENT_NOTE if lenient else None, *lab.notes]
    from roce_cfg.lab.run import serve

    serve(lab, partial(_ready, lab, text, inventory_out, [n for n in notes if n], fmt))


def _without_dsa_deprecation() -> None:
    """cryptography 51 deprecates DSA, and asyncssh names its DSA types as it loads: about ten
    lines of "CryptographyDeprecationWarning: DSA is deprecated" each time the lab started. The
    emulators' host keys are ed25519 and they offer no DSA, so that one warning, by its category
    and message, is not shown; every other warning still is."""
    from cryptography.utils import CryptographyDeprecationWarning

    warnings.filterwarnings(
        "ignore", message="DSA is deprecated", category=CryptographyDeprecationWarning
    )


def _ready(lab: Lab, text: str, inventory_out: Path, notes: list[str], fmt: str) -> None:
    """Once the emulators listen: the inventory written, then one JSON document (a script
    waits on it) or a line and the notes."""
    write_file(inventory_out, text)
    if fmt == "json":
        from roce_cfg.results import lab_doc

        emit_json(lab_doc(lab, inventory_out, notes))
        sys.stdout.flush()
        return
    out.print(
        f"{len(lab.endpoints)} emulated switches on 127.0.0.1; inventory in {inventory_out}. "
        "Ctrl-C stops them.",
        markup=False,
    )
    for note in notes:
        out.print(note, markup=False)
