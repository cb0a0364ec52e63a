"""Parse throughput on a 20,000-line running-config per vendor.

The config is a real rendered device (the pod-small leaf, redesigned for each vendor) whose
port blocks are repeated on further slots until the file has at least 20,000 lines, which is the
size of a fully populated chassis switch's saved config.
"""

from __future__ import annotations

import re
import statistics
import time
import tracemalloc
from dataclasses import dataclass
from pathlib import Path

from roce_cfg.generate import generate
from roce_cfg.model.device import DeviceConfig
from roce_cfg.parse import Hints, parse_text
from roce_cfg.platforms.profile import load_profile
from roce_cfg.render import Renderer
from roce_cfg.vendor import Vendor

ROOT = Path(__file__).resolve().parent.parent
SCENARIO = {v: ROOT / f"tests/scenarios/pod-small-{v.value}.yaml" for v in Vendor}
TARGET_LINES = 20_000


@dataclass
class Row:
    vendor: str
    lines: int
    ports: int
    seconds: float
    peak_mb: float

    @property
    def lines_per_s(self) -> float:
        return self.lines / self.seconds


def _big_device(vendor: Vendor) -> tuple[DeviceConfig, str]:
    fabric = generate(SCENARIO[vendor]).fabric
    leaf = next(d for d in fabric.devices if d.role == "leaf")
    profile = load_profile(vendor)
    renderer = Renderer(profile)
    model = profile.models[leaf.model]
    base = leaf.interfaces
    lines = renderer.render(leaf, model).text.count("\n")
    copies = 1 + -(-(TARGET_LINES - lines) // max(1, lines - 60))
    while True:
        # Same ports on further slots (chassis members): the label's first number moves on.
        ports = tuple(
            i.model_copy(update={"name": re.sub(r"(\d+)(?=/)", str(c + 1), i.name, count=1)})
            for c in range(copies)
            for i in base
        )
        device = leaf.model_copy(update={"interfaces": ports})
        text = renderer.render(device, model).text
        if text.count("\n") >= TARGET_LINES:
            return device, text
        copies += 1


def run(repeats: int = 5) -> list[Row]:
    rows: list[Row] = []
    for vendor in Vendor:
        device, text = _big_device(vendor)
        hints = Hints(model=device.model)
        parse_text(text, hints=hints)  # warm: templates compiled once per process
        times = []
        for _ in range(repeats):
            start = time.perf_counter()
            parsed = parse_text(text, hints=hints)
            times.append(time.perf_counter() - start)
        assert len(parsed.config.device.interfaces) == len(device.interfaces)
        tracemalloc.start()
        parse_text(text, hints=hints)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        rows.append(
            Row(
                vendor.value,
                text.count("\n"),
                len(device.interfaces),
                statistics.median(times),
                peak / 2**20,
            )
        )
    return rows


if __name__ == "__main__":
    print("| parse, one config | lines | ports | seconds (median of 5) | lines/s | peak MB |")
    print("|---|---:|---:|---:|---:|---:|")
    for r in run():
        print(
            f"| {r.vendor} | {r.lines:,} | {r.ports:,} | {r.seconds:.3f} "
            f"| {r.lines_per_s:,.0f} | {r.peak_mb:.1f} |"
        )
