"""Lint throughput: 200 generated configs, fabric-wide, in-process (no interpreter start-up).

The 176 switches of fabric-176.yaml (128 rail leaves, 48 spines: the largest two-tier plan the
64-port profiles allow) plus 24 of its leaves copied under new hostnames make 200 config files.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from roce_cfg.analysis import lint
from roce_cfg.generate import generate
from roce_cfg.output import write_all

HERE = Path(__file__).resolve().parent
FILES = 200


@dataclass
class Row:
    configs: int
    lines: int
    seconds: float
    findings: int


def _fabric(out: Path) -> int:
    result = generate(HERE / "fabric-176.yaml")
    files = {f"{h}.cfg": t for h, t in result.configs.items()}
    files["fabric.json"] = result.fabric.model_dump_json(exclude={"devices"})
    leaves = [h for h in result.configs if h.startswith("leaf-")]
    for n, host in enumerate(leaves[: FILES - len(result.configs)], 1):
        files[f"copy-{n}.cfg"] = result.configs[host].replace(
            f" sysname {host}\n", f" sysname copy-{n}\n"
        )
    write_all(out, files)
    return sum(t.count("\n") for name, t in files.items() if name.endswith(".cfg"))


def run(repeats: int = 3) -> Row:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "fabric"
        lines = _fabric(out)
        configs = len(list(out.glob("*.cfg")))
        times = []
        for _ in range(repeats):
            start = time.perf_counter()
            result = lint([out])
            times.append(time.perf_counter() - start)
        errors = sum(1 for f in result.findings if f.severity == "error")
    return Row(configs, lines, statistics.median(times), errors)
