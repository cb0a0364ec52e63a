"""Account for every line (issue 26): what each file holds that roce-cfg read, left alone on
purpose, or did not read (roce_cfg/parse/accounting.py counts them)."""

from __future__ import annotations

from collections.abc import Iterator

from roce_cfg.analysis.context import DeviceView
from roce_cfg.analysis.registry import Hit, rule


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
    summary="Lines roce-cfg did not read in a section that bears on losslessness (QoS, PFC, ECN, "
    "buffers, watchdog, MTU, interfaces, aggregates, M-LAG, BGP, static routes).",
    rationale="An unread line there may change what the rules judge: a PFC or scheduling line on "
    "a port, a link aggregate whose members carry RoCE, a static route that steers lossless "
    "traffic into a loop. The findings about that section are then made without it, and a "
    "clean result there is not an all-clear.",
    fix="Check the listed lines by hand ('roce-cfg parse -v' lists them all), or teach roce-cfg "
    "the command: a grammar entry in vendors/<vendor>.grammar.yaml and a line in the parse "
    "template (templates/<vendor>/parse/), each with its source.",
    limits="One finding per section and file, at the first unread line; the section is the one "
    "of the block the line is in (the grammar's 'areas' where no command opens it). Lines "
    "refused for a value out of range are RC119's, not counted here.",
)
def unread_lossless_lines(v: DeviceView) -> Iterator[Hit]:
    a = v.parsed.config.accounting
    for section, count in sorted(a.lossless_unread().items()):
        first = next((u for u in a.unread_lines if u.section == section), None)
        where = f"; first: line {first.line} '{first.text[:60]}'" if first else ""
        yield Hit(
            f"{count} line(s) of section '{section}' not read; what they set is not checked{where}",
            line=first.line if first else None,
        )
