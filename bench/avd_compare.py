"""roce-cfg ``generate`` side by side with Arista AVD (pyavd) on a fabric of the same size.

    python -m bench.avd_compare --avd-python /work/pyavd-venv/bin/python [--runs 3]

pyavd is not a dependency of roce-cfg and is never imported by it: install it in a venv of its
own (``python3 -m venv /work/pyavd-venv && /work/pyavd-venv/bin/pip install pyavd==6.4.0``) and
name that interpreter. This file is both the driver (run with the project's interpreter) and,
with ``--worker``, the AVD side (run with pyavd's interpreter, pyavd imported inside
``_avd_worker`` only). Nothing here is copied from pyavd: the AVD input is built from AVD's
documented eos_designs keys.

The AVD fabric matches ``bench/fabric-large.yaml``: 64 spines and 128 leaves, every leaf linked
once to every spine (8,192 links, routed /31s, eBGP underlay, one ASN per switch, no overlay),
64 access ports per leaf in one rail VLAN (8,192 server ports), MTU 9214 on the uplinks. AVD
runs eos_designs (``get_avd_facts``, ``get_device_structured_config``) and eos_cli_config_gen
(``get_device_config``) for every switch and writes each config to a file; roce-cfg runs
``roce-cfg generate bench/fabric-large.yaml -o DIR``. Both are whole processes (interpreter
start-up included, both from compiled bytecode), run alternately ``--runs`` times each; the
table gives the medians of wall and CPU seconds and the peak proportional set size sampled
every 0.2 s (``bench.measure``).
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import resource
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SPINES, LEAVES, SERVER_PORTS = 64, 128, 64


def avd_inputs(
    spines: int = SPINES, leaves: int = LEAVES, ports: int = SERVER_PORTS
) -> dict[str, Any]:
    """The eos_designs inputs every switch shares (AVD's group_vars): an L3 leaf-spine with an
    eBGP underlay and no overlay, every leaf on every spine once."""
    uplinks = [f"Ethernet{n}" for n in range(1, spines + 1)]
    spine_names = [f"spine{n}" for n in range(1, spines + 1)]
    return {
        "fabric_name": "LARGE",
        "underlay_routing_protocol": "ebgp",
        "overlay_routing_protocol": "none",
        "p2p_uplinks_mtu": 9214,
        "bgp_maximum_paths": 64,
        "spine": {
            "defaults": {
                "platform": "7800R3",
                "loopback_ipv4_pool": "10.0.0.0/23",
                "bgp_defaults": ["no bgp default ipv4-unicast"],
            },
            "nodes": [
                {"name": name, "id": n, "bgp_as": str(64600 + n), "mgmt_ip": f"192.168.0.{n}/16"}
                for n, name in enumerate(spine_names, 1)
            ],
        },
        "l3leaf": {
            "defaults": {
                "platform": "7800R3",
                "loopback_ipv4_pool": "10.0.2.0/23",
                "uplink_ipv4_pool": "10.64.0.0/14",
                "uplink_switches": spine_names,
                "uplink_interfaces": uplinks,
                "max_uplink_switches": spines,
                "virtual_router_mac_address": "00:1c:73:00:dc:01",
                "vtep": False,  # a routed leaf, no VXLAN (eos_designs l3leaf defaults to a VTEP)
            },
            "nodes": [
                {
                    "name": f"leaf{n}",
                    "id": n,
                    "bgp_as": str(65100 + n),
                    "mgmt_ip": f"192.168.1.{n % 250 + 1}/16",
                    "uplink_switch_interfaces": [f"Ethernet{n}"] * spines,
                }
                for n in range(1, leaves + 1)
            ],
        },
        "network_ports": [
            {
                "switches": ["leaf.*"],
                "switch_ports": [f"Ethernet{spines + 1}-{spines + ports}"],
                "description": "gpu-nic",
                "mode": "access",
                "vlans": "101",
                "mtu": 9214,
            }
        ],
    }


def _avd_worker(out: Path, spines: int, leaves: int) -> dict[str, object]:
    """eos_designs + eos_cli_config_gen for every switch (runs under pyavd's interpreter)."""
    start = time.perf_counter()
    import pyavd  # type: ignore[import-not-found]  # only here: roce-cfg never imports pyavd

    imported = time.perf_counter()
    shared = avd_inputs(spines, leaves)
    hosts = [f"spine{n}" for n in range(1, spines + 1)] + [f"leaf{n}" for n in range(1, leaves + 1)]
    all_inputs = {}
    for host in hosts:
        role = "spine" if host.startswith("spine") else "l3leaf"
        result = pyavd.validate_inputs({**shared, "type": role})
        if result.validated_data is None:
            raise SystemExit(f"avd inputs of {host}: {result.validation_result}")
        all_inputs[host] = result.validated_data
    facts = pyavd.get_avd_facts(all_inputs)
    lines = 0
    out.mkdir(parents=True, exist_ok=True)
    for host in hosts:
        structured = pyavd.get_device_structured_config(host, all_inputs[host], facts)
        text = pyavd.get_device_config(structured)
        (out / f"{host}.cfg").write_text(text)
        lines += _count(text)
    done = time.perf_counter()
    return {
        "seconds": done - start,
        "work_seconds": done - imported,
        "switches": len(hosts),
        "lines": lines,
    }


def _count(text: str) -> int:
    """Config lines, blank ones not counted (AVD separates some blocks with empty lines)."""
    return sum(1 for line in text.splitlines() if line.strip())


def _lines(folder: Path) -> int:
    return sum(_count(p.read_text()) for p in folder.glob("*.cfg"))


@dataclass
class Side:
    """One tool's medians over its runs."""

    name: str
    lines: int
    seconds: float
    peak_mb: float
    cpu: float  # user + system seconds: less at the mercy of a shared machine's load

    @classmethod
    def of(cls, name: str, runs: list[tuple[float, float, float]], lines: int) -> Side:
        wall = statistics.median(w for w, _, _ in runs)
        cpu = statistics.median(c for _, _, c in runs)
        return cls(name, lines, wall, max(p for _, p, _ in runs), cpu)

    @property
    def per_s(self) -> float:
        return self.lines / self.seconds

    def row(self) -> str:
        cells = (self.name, f"{self.lines:,}", f"{self.seconds:.2f}", f"{self.cpu:.2f}")
        rates = (f"{self.peak_mb:,.0f}", f"{self.per_s:,.0f}", f"{self.lines / self.cpu:,.0f}")
        return "| " + " | ".join((*cells, *rates)) + " |"


def _timed(cmd: list[str], root: Path) -> tuple[float, float, float, str]:
    """``bench.measure`` of ``cmd`` plus the CPU seconds of the process and its children."""
    from bench.__main__ import measure

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall, peak, stdout = measure(cmd, root)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return wall, peak, cpu, stdout


def compare(avd_python: str, runs: int) -> tuple[Side, Side]:
    """Alternating runs of roce-cfg generate (large) and the AVD worker."""
    from bench.__main__ import FABRICS

    root = HERE.parent
    # Both sides run from bytecode, as installed packages do: pip compiled pyavd's when it
    # installed it, and a checkout run with PYTHONDONTWRITEBYTECODE set would compile roce_cfg's
    # modules again in every run (0.1 s of CPU, a twentieth of a large generate)
    compileall.compile_dir(root / "roce_cfg", quiet=1)
    ours: list[tuple[float, float, float]] = []
    theirs: list[tuple[float, float, float]] = []
    lines_ours = lines_avd = 0
    with tempfile.TemporaryDirectory(prefix="roce-cfg-avd-") as tmp:
        for n in range(runs):
            out = Path(tmp) / f"roce-{n}"
            generate = [sys.executable, "-m", "roce_cfg", "generate", str(FABRICS["large"])]
            wall, peak, cpu, _ = _timed([*generate, "-o", str(out)], root)
            ours.append((wall, peak, cpu))
            lines_ours = _lines(out)
            worker = [avd_python, str(HERE / "avd_compare.py"), "--worker", str(Path(tmp) / "avd")]
            wall, peak, cpu, stdout = _timed(worker, root)
            theirs.append((wall, peak, cpu))
            lines_avd = int(json.loads(stdout.strip().splitlines()[-1])["lines"])
            (w0, p0, _), (w1, p1, _) = ours[-1], theirs[-1]
            print(
                f"  run {n + 1}: roce-cfg {w0:.2f} s {p0:.0f} MB, AVD {w1:.2f} s {p1:.0f} MB "
                f"(load {os.getloadavg()[0]:.1f})",
                file=sys.stderr,
                flush=True,
            )
    return (
        Side.of("roce-cfg generate", ours, lines_ours),
        Side.of("pyavd 6.4.0 eos_designs + eos_cli_config_gen", theirs, lines_avd),
    )


def main() -> None:
    ap = argparse.ArgumentParser(
        prog="python -m bench.avd_compare",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ap.add_argument("--avd-python", help="the interpreter of a venv with pyavd installed")
    ap.add_argument("--runs", type=int, default=3, help="runs of each, alternating")
    ap.add_argument("--worker", metavar="DIR", help=argparse.SUPPRESS)
    ap.add_argument("--spines", type=int, default=SPINES, help=argparse.SUPPRESS)
    ap.add_argument("--leaves", type=int, default=LEAVES, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        print(json.dumps(_avd_worker(Path(args.worker), args.spines, args.leaves)))
        return
    if not args.avd_python:
        ap.error("--avd-python is required (a venv with pyavd==6.4.0)")
    load = os.getloadavg()[0]
    print(f"# load average {load:.1f} at the start; median of {args.runs} alternating runs")
    ours, avd = compare(args.avd_python, args.runs)
    print("| tool | config lines | seconds | CPU seconds | peak MB | lines/s | lines/CPU s |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    print(ours.row())
    print(avd.row())
    ratio, memory = ours.per_s / avd.per_s, avd.peak_mb / ours.peak_mb
    cpu = (ours.lines / ours.cpu) / (avd.lines / avd.cpu)
    print(
        f"\nlines/s: roce-cfg {ratio:.1f}x AVD ({cpu:.1f}x per CPU second); "
        f"memory: roce-cfg 1/{memory:.1f} of AVD"
    )
    print(f"# load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
