"""``python -m bench [parse]``: run the benchmarks and print a table of medians."""

from __future__ import annotations

import argparse
import platform
import sys

from bench import deadlock_bench, lint_bench, parse_bench, push_bench


def main() -> None:
    ap = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    ap.add_argument(
        "stages", nargs="*", default=[], help="stages to run (default: all): parse, lint"
    )
    ap.add_argument("--repeats", type=int, default=5, help="runs per measurement (median)")
    args = ap.parse_args()
    print(f"# {platform.python_implementation()} {platform.python_version()}, {platform.machine()}")
    unknown = set(args.stages) - {"parse", "lint", "deadlock", "push"}
    if unknown:
        ap.error(f"unknown stage(s): {', '.join(sorted(unknown))}")
    if not args.stages or "parse" in args.stages:
        rows = parse_bench.run(args.repeats)
        print("| stage | vendor | config lines | ports | seconds (median) | lines/s | peak MB |")
        print("|---|---|---:|---:|---:|---:|---:|")
        for r in rows:
            print(
                f"| parse | {r.vendor} | {r.lines:,} | {r.ports:,} | {r.seconds:.3f} "
                f"| {r.lines_per_s:,.0f} | {r.peak_mb:.1f} |"
            )
        sys.stdout.flush()
    if not args.stages or "lint" in args.stages:
        row = lint_bench.run(min(args.repeats, 3))
        print()
        print("| stage | configs | config lines | seconds (median) | configs/s | lines/s |")
        print("|---|---:|---:|---:|---:|---:|")
        print(
            f"| lint (fabric-wide) | {row.configs} | {row.lines:,} | {row.seconds:.2f} "
            f"| {row.configs / row.seconds:.0f} | {row.lines / row.seconds:,.0f} |"
        )

    if not args.stages or "deadlock" in args.stages:
        print()
        print("| stage | fabric | switches | links | scenarios | seconds | scenarios/s | cycles |")
        print("|---|---|---:|---:|---:|---:|---:|---:|")
        for r in deadlock_bench.run():
            print(
                f"| deadlock {r.what} | {r.fabric} | {r.switches} | {r.links:,} | "
                f"{r.scenarios:,} | {r.seconds:.1f} | {r.scenarios / r.seconds:,.0f} | {r.cycles} |"
            )

    if not args.stages or "push" in args.stages:
        print()
        print("| stage | switches | commands | seconds | converged |")
        print("|---|---:|---:|---:|---:|")
        for r in push_bench.run():
            print(f"| push {r.what} | {r.switches} | {r.commands:,} | {r.seconds:.2f} | {r.ok} |")


if __name__ == "__main__":
    main()
