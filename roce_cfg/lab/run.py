"""``roce-cfg lab``: emulators for every switch of an intent, and an inventory to reach them."""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable
from pathlib import Path

import yaml

from roce_cfg.envvars import PASSWORD_ENV as PASSWORD_ENV
from roce_cfg.envvars import USER_ENV as USER_ENV
from roce_cfg.errors import InputError
from roce_cfg.generate import generate
from roce_cfg.lab.cli import Switch
from roce_cfg.lab.display import attach
from roce_cfg.lab.faults import inject
from roce_cfg.lab.server import Lab
from roce_cfg.parse import read_config
from roce_cfg.platforms.profile import load_profile
from roce_cfg.safepath import file_name, inside


def switches(
    intent: Path,
    start: str,
    lenient: bool = False,
    overlay: Path | None = None,
    strict: bool = False,
) -> list[Switch]:
    """One emulator per switch of the intent, in the state ``start`` names; with ``overlay``
    (--vendor-dir) the operator's syntax is what each emulator accepts, and ``strict`` refuses
    the commands its grammar grades unsourced."""
    generated = generate(intent, overlay=overlay)
    out = []
    for device in generated.fabric.devices:
        profile = load_profile(device.vendor, overlay)
        if start == "empty":
            text = None
        elif start == "intended":
            text = generated.configs[device.hostname]
        else:
            name = file_name(device.hostname, ".cfg", what="hostname")
            path = inside(Path(start), name)
            if not path.is_file():
                raise InputError(f"--start: no saved config for {device.hostname}", file=str(path))
            text = read_config(path)  # capped like every config roce-cfg reads
        out.append(
            Switch.start(
                device.hostname,
                profile,
                text,
                model=device.model,
                lenient=lenient,
                unsourced=not strict,
                overlay=overlay,
            )
        )
    attach(out, generated.fabric, overlay, start == "intended")  # verify's display commands
    return out


def inventory(lab: Lab) -> str:
    hosts = {
        name: {
            "hostname": "127.0.0.1",
            "port": ep.port,
            "data": {"vendor": ep.switch.profile.vendor.value},
        }
        for name, ep in sorted(lab.endpoints.items())
    }
    header = (
        "# Written by roce-cfg lab: emulated switches on 127.0.0.1; credentials from the env.\n"
    )
    return header + yaml.safe_dump({"hosts": hosts}, sort_keys=False)


def unsourced_note(switches: list[Switch]) -> str | None:
    """The line 'roce-cfg lab' prints when its emulators run in "unsourced" mode: they accept
    commands no source backs, which a real switch may refuse."""
    counts = {
        sw.profile.vendor.value: sw.grammar.coverage()["unsourced"]
        for sw in switches
        if sw.unsourced and sw.grammar.coverage()["unsourced"]
    }
    if not counts:
        return None
    listed = ", ".join(f"{v} ({n} commands)" for v, n in sorted(counts.items()))
    return (
        f'"unsourced" mode: the emulators accept the commands their grammar marks unsourced for '
        f"{listed}; a real switch may refuse them (vendors/<vendor>.grammar.yaml)"
    )


def start(
    intent: Path,
    how: str,
    username: str,
    password: str,
    *,
    lenient: bool = False,
    overlay: Path | None = None,
    strict: bool = False,
    faults: list[str] | None = None,
) -> tuple[Lab, str]:
    emulated = switches(intent, how, lenient, overlay, strict)
    notes = inject(emulated, faults or [])  # before start: a bad spec starts nothing
    lab = Lab(emulated, username, password).start()
    lab.notes = notes
    return lab, inventory(lab)


def serve(lab: Lab, ready: Callable[[], None] = lambda: None) -> None:
    """Until SIGINT or SIGTERM, then stop the emulators cleanly. Both are set explicitly: a
    shell starts a background job ('roce-cfg lab &' in a script) with SIGINT ignored, which
    Python would otherwise keep. `ready` (writing the inventory a script waits for) runs only
    once the handlers are in place, so a signal sent as soon as the inventory appears is heard."""
    stop = threading.Event()

    def handler(signum: int, frame: object) -> None:
        stop.set()

    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, handler)
    try:
        ready()
        while not stop.wait(3600):
            pass
    finally:
        lab.stop()
