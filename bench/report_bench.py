"""``python -m bench.report_bench``: the HTML report of a bench fabric, as a user runs it.

Times ``roce-cfg report <intent> -o FILE`` (a fresh process: generate, lint, deadlock analysis
and the page), its peak memory (process tree, as ``python -m bench`` samples it) and the page's
size; then the page alone (``report.html.render`` on data gathered once), which is the part the
report owns. Prints one JSON line per fabric. Run it beside ``uptime``: the machine is shared.

    .venv/bin/python -m bench.report_bench --fabrics small,xl --repeats 1
    .venv/bin/python -m bench.report_bench --fabrics xl --round-trip   # the parse-back path
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bench.__main__ import FABRICS, HERE, measure


def page_only(intent: Path) -> dict[str, float]:
    """Seconds to gather and seconds to render the page, in this process."""
    from roce_cfg.report import html
    from roce_cfg.report.data import gather

    start = time.perf_counter()
    data = gather(intent)
    gathered = time.perf_counter()
    page = html.render(data)
    done = time.perf_counter()
    return {"gather_s": gathered - start, "render_s": done - gathered, "bytes": len(page.encode())}


def main() -> None:
    ap = argparse.ArgumentParser(prog="python -m bench.report_bench", description=__doc__)
    ap.add_argument("--fabrics", default="small,large,xl")
    ap.add_argument("--repeats", type=int, default=1)
    ap.add_argument("--split", action="store_true", help="also time gather and render apart")
    ap.add_argument(
        "--round-trip",
        action="store_true",
        help="lint the rendered configs parsed back (report --round-trip), not as designed",
    )
    args = ap.parse_args()
    for name in [n.strip() for n in args.fabrics.split(",") if n.strip()]:
        intent = FABRICS[name]
        times, peaks, size = [], [], 0
        with tempfile.TemporaryDirectory(prefix="roce-cfg-report-bench-") as tmp:
            out = Path(tmp) / "report.html"
            for _ in range(args.repeats):
                cmd = [sys.executable, "-m", "roce_cfg", "report", str(intent), "-o", str(out)]
                cmd += ["--round-trip"] if args.round_trip else []
                wall, peak, _ = measure(cmd, HERE.parent)
                times.append(wall)
                peaks.append(peak)
                size = out.stat().st_size
        row: dict[str, object] = {
            "fabric": name,
            "seconds": round(statistics.median(times), 2),
            "peak_mb": round(max(peaks)),
            "html_mb": round(size / 2**20, 2),
            "checked": "parsed" if args.round_trip else "designed",
        }
        if args.split:
            row.update({k: round(v, 2) for k, v in page_only(intent).items()})
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
