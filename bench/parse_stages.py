"""CPU per file of each stage of ``parse_text``: ``python -m bench.parse_stages FOLDER``.

FOLDER is a generated fabric (``roce-cfg generate bench/fabric-xl.yaml -o /tmp/xl``: 1,280
Ruijie configs of ~2,000 lines). Each file is parsed once, after a few warm-up files, as a
``parse_many`` worker meets them (the memos of the grammar check and the accounting warm, the
files new), under the collector thresholds ``parse_text`` runs with. Stages: ``prepare`` (clean,
detect, split, the out-of-range check), the line accounting, the ttp templates and ``finish``
(the model). Figures depend on the machine and its load: the load average is printed with them.

Issue 30, item prepare: prepare + accounting of an xl Ruijie file, 9.9 + 4.6 ms before the
shape memos (f420112), 4.3 + 1.0 ms after (load 3.7, 200 files from the 600th).
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

from roce_cfg.heap import bulk_objects
from roce_cfg.parse import finish, parse_text, prepare, read_templates
from roce_cfg.parse.accounting import account
from roce_cfg.parse.hints import hints_from_fabric

WARM_UP = 16
STAGES = ("prepare", "accounting", "templates", "finish")


def run(folder: Path, files: int, skip: int) -> dict[str, float]:
    """Milliseconds of CPU per file and stage."""
    paths = sorted(folder.glob("*.cfg"))[skip : skip + WARM_UP + files]
    texts = [(str(p), p.read_text("utf-8")) for p in paths]
    fabric = folder / "fabric.json"
    hints = hints_from_fabric(fabric) if fabric.is_file() else None
    for name, text in texts[:WARM_UP]:
        parse_text(text, file=name, hints=hints)
    spent = dict.fromkeys(STAGES, 0.0)
    clock = time.process_time
    for name, text in texts[WARM_UP:]:
        with bulk_objects():
            t0 = clock()
            prep = prepare(text, file=name)
            t1 = clock()
            refused = [u.line for u in prep.unread if u.line]
            accounting = account(prep.vendor, prep.fed, prep.opaque, prep.layout, refused)
            t2 = clock()
            raw = read_templates(prep)
            t3 = clock()
            finish(prep, raw, hints, accounting)
            t4 = clock()
        for stage, seconds in zip(STAGES, (t1 - t0, t2 - t1, t3 - t2, t4 - t3), strict=True):
            spent[stage] += seconds
    measured = max(1, len(texts) - WARM_UP)
    return {stage: seconds * 1000 / measured for stage, seconds in spent.items()}


def main() -> None:
    ap = argparse.ArgumentParser(prog="python -m bench.parse_stages", description=__doc__)
    ap.add_argument("folder", type=Path)
    ap.add_argument("--files", type=int, default=200, help="files measured (default 200)")
    ap.add_argument("--skip", type=int, default=600, help="files skipped first (default 600)")
    args = ap.parse_args()
    print(f"# load average {os.getloadavg()[0]:.1f} at the start")
    ms = run(args.folder, args.files, args.skip)
    print("| " + " | ".join(STAGES) + " | total |")
    print("|" + "---:|" * (len(STAGES) + 1))
    print("| " + " | ".join(f"{ms[s]:.2f}" for s in STAGES) + f" | {sum(ms.values()):.2f} |")
    print(f"# CPU ms per file; load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
