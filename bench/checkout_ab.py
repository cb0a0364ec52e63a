"""One roce-cfg command over a folder of configs, two checkouts alternating, as whole processes.

    python -m bench.checkout_ab KIND --base TREE --base-folder DIR --new-folder DIR [--rounds N]

``TREE`` is another checkout's tree (``git archive <commit> | tar -x -C TREE``): its roce_cfg
is run with ``PYTHONPATH=TREE``, the one this interpreter has installed (this checkout,
installed editable) with none, both from the system's temporary folder (``python -m`` from
inside a checkout would run that checkout's code whatever PYTHONPATH says). Each side reads its
own copy of the folder (the xl bench fabric: ``roce-cfg generate bench/fabric-xl.yaml -o
DIR``), so each keeps its own cache. KIND:
``changed`` (``lint -q`` after a word was added to the first description line of the first
config), ``nothing`` (``lint -q`` again), ``cold`` (the cache folder removed first),
``nocache`` (``lint -q --no-cache``), ``report`` and ``deadlock`` (each after an edit as
``changed``). Each run prints one JSON line (wall and CPU seconds of the process and its
children, from ``/usr/bin/time``, the largest process's peak RSS, the load before it), then
each side's medians. Run a side's folder once before (the first run fills its cache).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

KINDS = ("changed", "nothing", "cold", "nocache", "report", "deadlock")
EDITED = {"changed", "report", "deadlock"}
CACHE_DIR = ".roce-cfg-cache"
_DESCRIPTION = re.compile(r"(?m)^( *description [^\n]*?)( abedit\d+)?$")


def _edit(folder: Path, n: int) -> None:
    """A word added to the first description line of the folder's first config (replacing the
    word an earlier edit added)."""
    config = next(p for p in sorted(folder.glob("*.cfg")) if "description " in p.read_text())
    text = config.read_text(encoding="utf-8")
    found = _DESCRIPTION.search(text)
    assert found is not None
    edited = f"{found.group(1)} abedit{n}"
    config.write_text(text[: found.start()] + edited + text[found.end() :], encoding="utf-8")


def _command(kind: str, folder: Path, out: Path) -> list[str]:
    if kind == "report":
        return ["report", str(folder), "-o", str(out / "report.html")]
    if kind == "deadlock":
        return ["deadlock", str(folder)]
    return ["lint", str(folder), "-q", *(["--no-cache"] if kind == "nocache" else [])]


def _run(kind: str, folder: Path, pythonpath: str | None, out: Path) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "ROCE_CFG_NO_CACHE")}
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    load = os.getloadavg()[0]
    cmd = ["/usr/bin/time", "-f", "%e %U %S %M", sys.executable, "-m", "roce_cfg"]
    done = subprocess.run(
        [*cmd, *_command(kind, folder, out)],
        cwd=tempfile.gettempdir(),
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    wall, user, system, peak = done.stderr.strip().splitlines()[-1].split()
    return {
        "wall_s": float(wall),
        "cpu_s": round(float(user) + float(system), 2),
        "peak_mib": round(int(peak) / 1024),
        "load": round(load, 1),
    }


def _summary(side: str, rows: list[dict[str, object]]) -> str:
    def figures(key: str) -> str:
        values = [float(str(r[key])) for r in rows]
        return f"{statistics.median(values):.2f} ({min(values):.2f}-{max(values):.2f})"

    peak = max(int(str(r["peak_mib"])) for r in rows)
    return f"{side}: wall {figures('wall_s')}, CPU {figures('cpu_s')}, peak {peak} MiB"


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.checkout_ab", description=__doc__)
    parser.add_argument("kind", choices=KINDS)
    parser.add_argument("--base", type=Path, required=True, help="the other checkout's tree")
    parser.add_argument("--base-folder", type=Path, required=True)
    parser.add_argument("--new-folder", type=Path, required=True)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    sides = {
        "base": (args.base_folder.resolve(), str(args.base.resolve())),
        "new": (args.new_folder.resolve(), None),
    }
    rows: dict[str, list[dict[str, object]]] = {side: [] for side in sides}
    with tempfile.TemporaryDirectory() as out:
        for n in range(args.rounds):
            for side, (folder, pythonpath) in sides.items():
                if args.kind in EDITED:
                    _edit(folder, n)
                if args.kind == "cold":
                    shutil.rmtree(folder / CACHE_DIR, ignore_errors=True)
                rows[side].append(_run(args.kind, folder, pythonpath, Path(out)))
                print(json.dumps({"side": side, **rows[side][-1]}), flush=True)
    for side, mine in rows.items():
        print(f"{args.kind} {_summary(side, mine)}")


if __name__ == "__main__":
    main(sys.argv[1:])
