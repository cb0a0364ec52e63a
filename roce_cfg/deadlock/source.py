"""What the deadlock analysis reads: an intent designed, a fabric.json beside its configs, or a
folder of running-configs parsed, as one Source of switches, links and the RoCE DSCP."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from roce_cfg import evidence
from roce_cfg.errors import InputError
from roce_cfg.heap import bulk_objects
from roce_cfg.inputs import Found, Unread, discover, reading
from roce_cfg.model.device import DeviceConfig
from roce_cfg.model.fabric import Fabric
from roce_cfg.parse import Parsed
from roce_cfg.parse.cache import ParseCache
from roce_cfg.parse.hints import LintPlan
from roce_cfg.parse.whole_plan import EarlyWhole
from roce_cfg.policy import fabric_roce_dscp
from roce_cfg.vendor import Vendor

LinkSpec = tuple[str, str, str, str]


@dataclass
class Source:
    devices: list[DeviceConfig]
    links: list[LinkSpec]
    dscp: int
    files: dict[str, str]  # hostname -> config file (empty for an intent)
    origin: str
    parsed: dict[str, Parsed] = field(default_factory=dict)  # for line numbers in findings
    notices: list[str] = field(default_factory=list)  # files of a folder that were skipped
    unread: list[Unread] = field(default_factory=list)  # files that could not be read (RC001)
    # the evidence step's facts (coverage, gaps); None for an intent (links by design)
    facts: evidence.Evidence | None = None


@bulk_objects()
def load(
    path: Path,
    *,
    dscp: int | None = None,
    vendor: Vendor | None = None,
    overlay: Path | None = None,
    cache: ParseCache | None = None,
) -> Source:
    """``dscp`` None: the intent's RoCE DSCP, or the one the configs map to a no-drop priority.
    A folder's configs that ``cache`` holds are not parsed again."""
    if path.is_file() and (path.suffix in (".yaml", ".yml") or _looks_like_intent(path)):
        from roce_cfg.design.designer import plan  # the designer, for an intent only
        from roce_cfg.intent.loader import load_intent

        loaded = load_intent(path)
        fabric, _ = plan(loaded, overlay)
        roce = loaded.intent.lossless.roce.dscp if dscp is None else dscp
        return from_plan(fabric, roce, str(path))
    folder = path.parent if path.name == "fabric.json" else path
    # As lint, parse, docs and report: one discovery (inputs.py), and one read of each file
    # (the parse workers say which files are configs); a file that cannot be read or parsed
    # is a finding on that file (RC001) and the rest of the folder is analysed.
    found = discover([folder], vendor, overlay, screen=False)
    if not found.configs and not found.unread:
        raise _nothing(path)
    early = EarlyWhole(found.fabric, cache) if found.fabric else None
    parsed, unread, planned = _parsed(found, vendor, early, overlay, cache)
    if not parsed and not unread:  # every file of the folder was a note, a README ...
        raise _nothing(path)
    if not parsed:
        raise unread[0].as_error()
    source = from_parsed(parsed, planned, dscp, str(path))
    source.notices = found.notes
    source.unread = unread
    return source


def _nothing(path: Path) -> InputError:
    return InputError("no intent, fabric.json or config files to analyse", file=str(path))


def _parsed(
    found: Found,
    vendor: Vendor | None,
    early: EarlyWhole | None,
    overlay: Path | None,
    cache: ParseCache | None = None,
) -> tuple[list[Parsed], list[Unread], LintPlan | None]:
    """The configs of ``found`` that parsed, one per hostname, the files that did not (those
    the screen refuses first, then the rest in file order), and fabric.json's plan, validated
    while they parse. A file that is no config at all is a note."""
    failed: list[Unread] = []
    parsed: dict[str, Parsed] = {}
    hints = early.hints if early else None
    with reading(found, vendor, hints, overlay, cache=cache) as outcomes:
        planned = early.validated() if early else None  # a bad fabric.json stops the workers
        for path, one in outcomes:
            if isinstance(one, InputError):
                failed.append(Unread.of(path, one))
            elif (host := one.config.device.hostname) in parsed:
                why = f"hostname {host} also in {parsed[host].config.source}; one config per switch"
                failed.append(Unread(path, why))
            else:
                parsed[host] = one
    return list(parsed.values()), found.unread + failed, planned


# An intent's first statement is a top-level 'key: value' or 'key:'; no vendor's saved config
# starts that way (comment '#' or '!', 'sysname', 'version', '!<system-config>' ...).
_INTENT_KEY = re.compile(r"^(name|servers|fabric|addressing|routing|lossless)\s*:")


def _looks_like_intent(path: Path) -> bool:
    """An intent saved under another suffix (intent.txt, a template's output) is still one."""
    if path.name == "fabric.json":
        return False
    try:
        with path.open("rb") as fh:
            head = fh.read(4096).decode("utf-8", "replace")
    except OSError:
        return False
    for line in head.splitlines():
        if line.strip() and not line.lstrip().startswith("#") and line.strip() != "---":
            return bool(_INTENT_KEY.match(line))
    return False


def from_parsed(
    parsed: list[Parsed],
    planned: Fabric | LintPlan | None,
    dscp: int | None,
    origin: str,
    gathered: evidence.Evidence | None = None,
) -> Source:
    """A Source from configs already parsed (links from the plan when there is one).
    ``gathered``: the evidence step's facts lint found over these configs and that plan's
    links, taken when they were gathered over these very switch models, in this order."""
    devices = [p.config.device for p in parsed]
    dscp, _ = fabric_roce_dscp(devices, dscp)
    names = [d.hostname for d in devices]
    if len(set(names)) != len(names):
        dup = next(n for n in names if names.count(n) > 1)
        raise InputError(f"two configs for {dup}; one per switch", file=origin)
    facts = gathered if _over(gathered, devices, planned) else None
    if facts is None:
        facts = evidence.gather(devices, planned.links if planned is not None else None)
    inferred = [p.config.role_from == "inferred" for p in parsed]
    devices = [evidence.with_roles(d, i, facts) for d, i in zip(devices, inferred, strict=True)]
    # the routing analysed is the public table's: a link in a VRF carries none of it
    links = [k.spec() for k in facts.links if not k.vrf]
    files_by_host = {p.config.device.hostname: p.config.source for p in parsed}
    by_host = {p.config.device.hostname: p for p in parsed}
    return Source(devices, links, dscp, files_by_host, origin, by_host, facts=facts)


def _over(
    facts: evidence.Evidence | None,
    devices: list[DeviceConfig],
    planned: Fabric | LintPlan | None,
) -> bool:
    """Whether ``facts`` were gathered over ``devices`` themselves, the same objects in the
    same order (a role lint found since, or another order, and they are gathered again), and
    with a plan's links where ``planned`` has some (lint takes a fabric.json deeper in the
    folder when the folder has none; the report reads only the folder's own)."""
    with_plan = planned is not None and bool(planned.links)
    if facts is None or facts.planned != with_plan or len(facts.devices) != len(devices):
        return False
    return all(a is b for a, b in zip(facts.devices, devices, strict=True))


def from_plan(fabric: Fabric, dscp: int, origin: str) -> Source:
    """A Source from a designed fabric (an intent)."""
    links = [(k.a_device, k.a_port, k.b_device, k.b_port) for k in fabric.links]
    return Source(list(fabric.devices), links, dscp, {}, origin)
