"""The sweep's state file (``deadlock --state FILE``): the answers a sweep found so far, one
JSON line per scenario after a first line naming the fabric, so that a later run resumes.

The file is the user's to name and anyone's to edit, so it is read like every other input
(roce_cfg/safepath.py: a regular file of at most ``MAX_BYTES``, never a FIFO or a device) and
every value is checked against the fabric before it is trusted: a node is a switch index and a
link id of that switch, a cycle has one cause per hop, a scenario names links of the fabric.
Whatever is wrong is one line naming the file and the line; the file is appended to through
roce_cfg/output.py, which never writes through a link.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from roce_cfg.deadlock.analyse import Cycle
from roce_cfg.deadlock.net import Network
from roce_cfg.deadlock.sweep import Answers, Scenario
from roce_cfg.errors import InputError
from roce_cfg.safepath import read_bytes

# An xl sweep keeps a few thousand representatives of a few hundred bytes each; this is
# thousands of times that, and far under the memory a case may take.
MAX_BYTES = 64 << 20
WHAT = "sweep state file"


class _Bad(ValueError):
    """One line's reason to be refused."""


def fingerprint(net: Network) -> str:
    """The fabric a state file belongs to: its switches and links."""
    text = json.dumps([net.names, [(ln.a, ln.a_port, ln.b, ln.b_port) for ln in net.links]])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def header(net: Network) -> str:
    return json.dumps({"fabric": fingerprint(net)}) + "\n"


def record(scenario: Scenario, cycles: list[Cycle]) -> str:
    doc = {
        "scenario": list(scenario),
        "cycles": [{"nodes": [list(n) for n in c.nodes], "causes": list(c.causes)} for c in cycles],
    }
    return json.dumps(doc) + "\n"


def load(path: Path, net: Network) -> Answers | None:
    """The answers ``path`` holds, or None when there is no such file yet (its folder must
    exist or be creatable: the writer makes it)."""
    try:
        path.lstat()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", file=str(path)) from None
    if path.is_symlink():
        raise InputError("a symlink; roce-cfg never writes through a link", file=str(path))
    raw = read_bytes(path, what=WHAT, max_bytes=MAX_BYTES)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        at = raw.count(b"\n", 0, exc.start) + 1
        raise InputError(
            f"--state: not UTF-8 text (byte {exc.start})", file=str(path), line=at
        ) from None
    if not text.strip():
        return None  # an empty file (touch): a sweep starts it
    mark = fingerprint(net)
    done: Answers = {}
    for no, line in enumerate(text.split("\n"), 1):
        if not line.strip():
            continue
        try:
            item = _json(line)
            if no == 1:
                if not isinstance(item, dict) or item.get("fabric") != mark:
                    raise InputError("--state: the file is another fabric's", file=str(path))
                continue
            scenario, cycles = _entry(item, net)
        except _Bad as exc:
            raise InputError(f"--state: unreadable line: {exc}", file=str(path), line=no) from None
        done[scenario] = cycles
    return done


def _json(line: str) -> Any:
    try:
        return json.loads(line)
    except RecursionError:
        raise _Bad("nested too deep") from None
    except ValueError as exc:  # JSONDecodeError, and integers past Python's 4,300 digits
        raise _Bad(str(exc).split(":")[0]) from None


def _entry(item: Any, net: Network) -> tuple[Scenario, list[Cycle]]:
    if not isinstance(item, dict) or not isinstance(item.get("scenario"), list):
        raise _Bad("expected {'scenario': [...], 'cycles': [...]}")
    links = len(net.links)
    scenario = tuple(_index(x, links, "scenario link") for x in item["scenario"])
    cycles = item.get("cycles")
    if not isinstance(cycles, list):
        raise _Bad("'cycles' is not a list")
    return scenario, [_cycle(c, scenario, net) for c in cycles]


def _cycle(item: Any, scenario: Scenario, net: Network) -> Cycle:
    if not isinstance(item, dict):
        raise _Bad("a cycle is {'nodes': [...], 'causes': [...]}")
    nodes, causes = item.get("nodes"), item.get("causes")
    if not isinstance(nodes, list) or not isinstance(causes, list) or not nodes:
        raise _Bad("a cycle has a list of nodes and a list of causes")
    if len(causes) != len(nodes):
        raise _Bad(f"a cycle of {len(nodes)} nodes has {len(causes)} causes (one per hop)")
    out = []
    for node in nodes:
        if not isinstance(node, list) or len(node) != 2:
            raise _Bad("a node is [switch, link]")
        s = _index(node[0], len(net.names), "switch")
        lid = _index(node[1], len(net.links), "link")
        if s not in (net.links[lid].a, net.links[lid].b):
            raise _Bad(f"link {lid} does not end on switch {s}")
        out.append((s, lid))
    if not all(isinstance(c, str) for c in causes):
        raise _Bad("a cause is text")
    return Cycle(tuple(out), tuple(causes), scenario)


def _index(value: Any, size: int, what: str) -> int:
    if type(value) is not int or not 0 <= value < size:
        shown = repr(value)[:40]
        raise _Bad(f"{what} {shown} is not one of this fabric's 0-{size - 1}")
    return value
