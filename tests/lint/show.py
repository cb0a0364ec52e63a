"""Print what a lint case produces (to write or review its 'expect')."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from tests.lintcases import observed, run_case


def main() -> None:
    for arg in sys.argv[1:]:
        with tempfile.TemporaryDirectory() as tmp:
            spec, result = run_case(Path(arg), Path(tmp) / "work", Path(tmp) / "cache")
            print(arg)
            for f in result.findings:
                print(f"  {f.severity} {f.rule} {f.device} {f.line} {f.port}: {f.message}")
            print("  expect:", observed(spec, result))


if __name__ == "__main__":
    main()
