"""Account for every line: what each file holds that roce-cfg read, left alone on purpose, or
did not read (roce_cfg/parse/accounting.py counts them), so that a file without findings is
not taken for an all-clear on lines roce-cfg never read."""

from __future__ import annotations

from collections.abc import Iterator

from roce_cfg.analysis.context import DeviceView
from roce_cfg.analysis.registry import Hit, rule, rules
from roce_cfg.gate import EVERY_SECTION, MODEL, SECTION_NAMES


def _counts(by: dict[str, int]) -> str:
    return ", ".join(f"{k} {n}" for k, n in sorted(by.items(), key=lambda kn: (-kn[1], kn[0])))


@rule(
    "RC404",
    "lines-accounted",
    "info",
    "device",
    summary="How many lines of the file roce-cfg read, left alone on purpose, or did not read.",
    rationale="A check is only as good as what it read. A line no reader takes is a setting no "
    "rule sees; a file of mostly unread lines can pass every rule and still be wrong. Counting "
    "every line says how much of the file the findings stand on.",
    fix="Nothing to fix: read RC405 for unread lines where they matter. Known-unmanaged lines "
    "(AAA, SNMP, NTP, logging, users, management ports) are listed per kind in the vendor "
    "grammar's 'unmanaged' catalogue, vendors/<vendor>.grammar.yaml.",
    limits="A line counts as read when a line of the vendor's parse templates or a command of "
    "its grammar accepts it inside a block the parse reads; blank lines, separators and "
    "capture residue (prompts, pager prompts) are not counted. A file whose every line is read "
    "(a generated config) gets no finding. 'roce-cfg parse' lists the unread lines per section.",
)
def lines_accounted(v: DeviceView) -> Iterator[Hit]:
    a = v.parsed.config.accounting
    if a.all_read():
        return
    text = f"{a.lines} lines: {a.understood} read, {a.unmanaged} known-unmanaged"
    if a.unmanaged_by_kind:
        text += f" ({_counts(a.unmanaged_by_kind)})"
    text += f", {a.unread} not read"
    if a.unread_by_section:
        text += f" ({_counts(a.unread_by_section)})"
    if a.out_of_domain:
        text += f", {a.out_of_domain} refused for a value out of range (RC119)"
    yield Hit(text)


@rule(
    "RC405",
    "unread-lossless-lines",
    "warning",
    "device",
    summary="cannot verify: lines roce-cfg did not read (or refused for their value) in a section "
    "that bears on losslessness (QoS, PFC, ECN, buffers, watchdog, MTU, interfaces, aggregates, "
    "M-LAG, BGP, static routes); the rules that read that section conclude nothing there.",
    rationale="An unread line there may change what the rules judge: a named PFC profile, a PFC "
    "or scheduling line on a port, a link aggregate whose members carry RoCE, a static route "
    "that steers lossless traffic into a loop. Judging as if the line were absent would report "
    "'PFC is off' where it is on, or pass what is broken; so every rule that reads the section "
    "stays silent where it was not read, and this finding lists what was not verified.",
    fix="Check the listed lines by hand ('roce-cfg parse -v' lists them all), or teach roce-cfg "
    "the command: a grammar entry in vendors/<vendor>.grammar.yaml and a line in the parse "
    "template (templates/<vendor>/parse/), each with its source.",
    limits="One finding per section and file, at the first unread line; a line inside a port's "
    "block leaves that port (its aggregate, members and breakout legs with it) unverified, a "
    "global line the whole switch. The section is the one of the block the line is in (the "
    "grammar's 'areas' where no command opens it).",
    verifies=False,
)
def unread_lossless_lines(v: DeviceView) -> Iterator[Hit]:
    gate = v.gate
    for section in gate.sections():
        if section == MODEL:
            continue  # RC123's
        wide, ports = gate.where(section)
        lines = sorted({*wide, *gate.port_lines(section)} - {0})
        where = []
        if wide or not ports:
            where.append("switch-wide")
        if ports:
            where.append(f"on {_ports(ports)}")
        judged = [r.id for r in rules() if section in r.reads or _every(section, r.reads)]
        not_judged = f"; not judged there: {', '.join(judged)}" if judged else ""
        at = f" (lines {_lines(lines)})" if lines else ""
        yield Hit(
            f"cannot verify: {SECTION_NAMES.get(section, section)} (section '{section}') "
            f"not read{at}, "
            f"{' and '.join(where)}{not_judged}",
            line=lines[0] if lines else None,
        )


def _every(section: str, reads: tuple[str, ...]) -> bool:
    return section in EVERY_SECTION and bool(reads)


def _ports(ports: list[str]) -> str:
    shown = ", ".join(ports[:4])
    return f"{len(ports)} ports ({shown}, ...)" if len(ports) > 4 else shown


def _lines(lines: list[int]) -> str:
    shown = ", ".join(map(str, lines[:8]))
    return f"{shown} and {len(lines) - 8} more" if len(lines) > 8 else shown


@rule(
    "RC123",
    "model-assumed",
    "info",
    "device",
    summary="cannot verify: the config does not state the switch's model and none was given; "
    "what depends on the exact model is not judged.",
    rationale="Comware prints no model line, and a port layout can fit several models. The "
    "model its ports suggest stands in for reading the ports, but whether the model sets "
    "headroom itself, how many no-drop priorities it takes and how large its buffer is differ "
    "between models that share a layout: judging those by a guess gives errors the switch does "
    "not have (a headroom line 'not supported' on a switch that printed it).",
    fix="Give the model: --model, fabric.json, or an intent.",
    verifies=False,
)
def model_assumed(v: DeviceView) -> Iterator[Hit]:
    if v.gate.unread((MODEL,)) is None:
        return
    judged = [r.id for r in rules() if MODEL in r.reads]
    yield Hit(
        f"cannot verify: the model is not stated; {v.device.model} (from its port layout) "
        f"stands in; not judged: {', '.join(judged)}"
    )
