"""One push against one emulated switch, and what it left: the outcome, the switch's running and
saved config before and after, and how long it took (the push fault and restore tests)."""

from __future__ import annotations

import time
from dataclasses import dataclass

from roce_cfg.deploy.inventory import Target
from roce_cfg.deploy.push import Credentials, Outcome, push
from roce_cfg.generate import generate
from roce_cfg.lab.cli import Faults, Switch
from roce_cfg.lab.server import Lab
from roce_cfg.vendor import Vendor
from tests.helpers import SCENARIOS

USER, PASSWORD = "netops", "Lab-Pa55-never-printed"
CREDS = Credentials(USER, PASSWORD)


def intended(vendor: Vendor) -> str:
    """leaf-1 of the bundled pod in this vendor's CLI: what every push here types."""
    return generate(SCENARIOS[f"pod-small-{vendor.value}"]).configs["leaf-1"]


@dataclass
class Result:
    outcome: Outcome
    before: tuple[str, str]  # running, saved
    after: tuple[str, str]
    sw: Switch
    seconds: float


def push_to(sw: Switch, faults: Faults, **kw: object) -> Result:
    """Push leaf-1's intended config to ``sw`` with ``faults`` planted (``kw``: push's options)."""
    before = (sw.running.render(), sw.saved)
    sw.faults = faults
    start = time.monotonic()
    with Lab([sw], USER, PASSWORD) as lab:
        target = Target("leaf-1", "127.0.0.1", lab.endpoints["leaf-1"].port, sw.profile)
        outcome = push(target, intended(sw.profile.vendor), CREDS, apply=True, **kw)  # type: ignore[arg-type]
    took = time.monotonic() - start
    return Result(outcome, before, (sw.running.render(), sw.saved), sw, took)
