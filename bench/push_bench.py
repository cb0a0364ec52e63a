"""Push throughput against the SSH emulators: one full leaf config per vendor, and 50 switches
in parallel (10 workers), each from an empty config to the intended one, verified."""

from __future__ import annotations

import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from roce_cfg.deploy import fanout
from roce_cfg.deploy.inventory import Target
from roce_cfg.deploy.push import Credentials, push
from roce_cfg.generate import generate
from roce_cfg.lab.cli import Switch
from roce_cfg.lab.server import Lab
from roce_cfg.platforms.profile import load_profile
from roce_cfg.vendor import Vendor

ROOT = Path(__file__).resolve().parent.parent
CREDS = Credentials("bench", "bench-only-password")


@dataclass
class Row:
    what: str
    switches: int
    commands: int
    seconds: float
    ok: int


def _leaf(vendor: Vendor) -> str:
    return generate(ROOT / f"tests/scenarios/pod-small-{vendor.value}.yaml").configs["leaf-1"]


def run() -> list[Row]:
    rows = []
    for vendor in Vendor:
        profile = load_profile(vendor)
        sw = Switch.start("leaf-1", profile)
        with Lab([sw], CREDS.username, CREDS.password) as lab:
            target = Target("leaf-1", "127.0.0.1", lab.endpoints["leaf-1"].port, profile)
            out = push(target, _leaf(vendor), CREDS, apply=True)
        rows.append(Row(f"one leaf, {vendor.value}", 1, len(out.commands), out.seconds,
                        int(out.status == "changed")))  # fmt: skip
    rows.append(fifty())
    return rows


def fifty() -> Row:
    """50 emulated leaves of all four vendors, from empty to intended, 10 workers."""
    vendors = [list(Vendor)[i % 4] for i in range(50)]
    texts = {v: _leaf(v) for v in Vendor}
    with tempfile.TemporaryDirectory() as tmp:
        configs = Path(tmp)
        switches, targets = [], []
        for i, v in enumerate(vendors):
            name = f"leaf-{i + 1:02d}"
            (configs / f"{name}.cfg").write_text(texts[v])
            switches.append(Switch.start(name, load_profile(v)))
        with Lab(switches, CREDS.username, CREDS.password) as lab:
            targets = [
                Target(s.hostname, "127.0.0.1", lab.endpoints[s.hostname].port, s.profile)
                for s in switches
            ]
            start = time.perf_counter()
            outcomes = fanout.run(targets, configs, CREDS, apply=True, workers=10)
            seconds = time.perf_counter() - start
    return Row("50 leaves, 10 workers", 50, sum(len(o.commands) for o in outcomes), seconds,
               sum(o.status == "changed" for o in outcomes))  # fmt: skip


if __name__ == "__main__":
    import json
    import sys

    if sys.argv[1:] == ["--fifty"]:  # one row as JSON, for python -m bench
        row = fifty()
        if row.ok != row.switches:
            raise SystemExit(f"bench: only {row.ok} of {row.switches} switches converged")
        print(json.dumps({"seconds": row.seconds, "switches": row.switches, "lines": row.commands}))
    else:
        print("| push | switches | commands | seconds | converged |")
        print("|---|---:|---:|---:|---:|")
        for r in run():
            print(f"| {r.what} | {r.switches} | {r.commands:,} | {r.seconds:.2f} | {r.ok} |")
