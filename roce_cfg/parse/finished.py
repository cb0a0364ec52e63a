"""The templates' output normalised into the model (parse/normalise.py) with what the parse knows
around it: the switch model, the release its header names, the lines the normaliser refused
among the accounting's unread facts, the opaque blocks and unread lines redacted, and a reason
an engineer can act on where the config cannot be read at all.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from roce_cfg.errors import InputError
from roce_cfg.model import numbers
from roce_cfg.model.device import DeviceConfig
from roce_cfg.parse.accounting import Accounting, refused_facts
from roce_cfg.parse.context import MAX_UNREAD, Context, Unreadable, as_list
from roce_cfg.parse.judge import judge
from roce_cfg.parse.model_choice import UNKNOWN_MODEL, choose_model, holds_ports
from roce_cfg.parse.normalise import build
from roce_cfg.parse.parsed import Hints, Parsed, applied_hint, hint_name
from roce_cfg.parse.prepared import Prepared
from roce_cfg.parse.result import OpaqueBlock, ParsedConfig, UnreadLine
from roce_cfg.parse.source import header_port, locator
from roce_cfg.parse.text import count_lines
from roce_cfg.platforms.parse_spec import ParseSpec, VersionForm
from roce_cfg.redact import may_hold_secrets, redact


def finish(
    prep: Prepared,
    raw: dict[str, Any],
    hints: Hints | Mapping[str, Hints] | None,
    accounting: Accounting,
    overlay: Path | None = None,
) -> Parsed:
    """The templates' output (consumed) normalised into the model, notes, opaque blocks."""
    file, vendor, profile = prep.file, prep.vendor, prep.profile
    hinted = hint_name(raw, file)
    hint = applied_hint(hints, hinted)
    notes: list[str] = []
    boards, bad_slots = _boards(raw)
    board = str(boards[0]["model"]) if boards else None
    model_name, model_from = choose_model(profile, prep.ports, hint.model, board, file, notes)
    ctx = _context(prep, model_name, board, notes)
    for exc in bad_slots:
        ctx.skip(exc)
    if model_from == "default" and model_name != UNKNOWN_MODEL:
        ctx.notes.append(
            f"model not stated in the config; assumed {model_name} (pass --model to set it)"
        )
    try:
        device = build(raw, ctx, Path(file).stem, hint.role, dict(hint.speeds))
    except (Unreadable, ValueError, KeyError, ValidationError) as exc:
        raise InputError(
            f"cannot read the {vendor.value} config: {_reason(exc, prep.text)}", file=file
        ) from None
    raw.clear()  # what the model did not take is not kept through its peak
    accounting = _with_refusals(accounting, ctx, prep, overlay)
    opaque = sorted(prep.opaque, key=lambda b: b.header.no)
    config = ParsedConfig(
        source=file,
        lines=count_lines(prep.text),
        vendor=vendor,
        vendor_from=prep.vendor_from,
        model_from=model_from,
        role_from="given" if hint.role else "inferred",
        device=redacted(device, vendor.value),
        opaque=tuple(
            OpaqueBlock(
                line=b.header.no,
                end_line=b.end,
                header=redact(b.header.text, vendor.value),
                text=redact("\n".join(ln.text for ln in b.lines), vendor.value),
            )
            for b in opaque
        ),
        notes=(*ctx.notes, *_more(ctx)),
        unread=tuple(
            UnreadLine(line=u.line, text=redact(u.text, vendor.value), reason=u.reason)
            for u in sorted(ctx.unread, key=lambda u: (u.line or 0, u.reason))
        ),
        accounting=accounting,
    )
    return Parsed(config, prep.source, prep.text, overlay, hinted)


def _residue(prep: Prepared) -> list[str]:
    if not prep.residue:
        return []
    return [
        f"{prep.residue} line(s) after the config's closing line not read: a capture's output, "
        "not configuration"
    ]


def _context(prep: Prepared, model_name: str, board: str | None, notes: list[str]) -> Context:
    """What the normaliser reads a config with: its profile and model, where its lines are."""
    profile = prep.profile
    fits = [spec for spec in profile.models.values() if holds_ports(spec, prep.ports)]
    spec = profile.spec_of(model_name, fits[0] if fits else None)
    ctx = Context(profile, model_name, spec, prep.namer, notes)
    notes.extend(_residue(prep))
    ctx.unread, ctx.locate = list(prep.unread), locator(prep.source, profile.parse.anchors)
    ctx.board, (ctx.version_text, ctx.version) = board, _release(prep.text, profile.parse)
    ctx.blocks = prep.source.blocks
    return ctx


def _release(text: str, spec: ParseSpec) -> tuple[str, VersionForm | None]:
    """The release a saved config names in its header (its first lines), and its line."""
    found = re.search(spec.version_line, text[:4096], re.MULTILINE) if spec.version_line else None
    return (found[1], spec.version(found[1])) if found else ("", None)


def _with_refusals(
    accounting: Accounting, ctx: Context, prep: Prepared, overlay: Path | None
) -> Accounting:
    """``accounting`` with the lines the normaliser refused (a value out of its domain, no
    number where one belongs) among its unread facts: such a line is as unread as one no
    reader knows, and the gate must keep rules from concluding from its absence."""
    if not ctx.unread and not ctx.more_unread:
        return accounting
    refused = [(u.line, u.text) for u in ctx.unread]
    j = judge(prep.vendor, overlay)
    port_of = header_port(prep.namer, prep.profile.parse.interface_range)
    facts = refused_facts(refused, prep.source.blocks, j, port_of, ctx.more_unread)
    return accounting.model_copy(update={"unread_facts": (*accounting.unread_facts, *facts)})


def _boards(raw: dict[str, Any]) -> tuple[list[dict[str, Any]], list[numbers.NumberError]]:
    """Boards by slot, and the slots that are no slot number (their lines are unread)."""
    boards: list[tuple[int, dict[str, Any]]] = []
    bad: list[numbers.NumberError] = []
    for b in as_list(raw.get("boards")):
        try:
            slot = numbers.number(str(b.get("slot", 0)), numbers.PORT_NUMBER)
        except numbers.NumberError as exc:
            bad.append(exc)
            continue
        if "model" in b:
            boards.append((slot, b))
    return [b for _, b in sorted(boards, key=lambda sb: sb[0])], bad


def _more(ctx: Context) -> list[str]:
    if not ctx.more_unread:
        return []
    return [
        f"{ctx.more_unread:,} more lines not read (values outside their domain); "
        f"the first {MAX_UNREAD:,} are listed"
    ]


_TOO_LONG = re.compile(r"integer string conversion: value has (\d+) digits")
_NOT_INT = re.compile(r"invalid literal for int\(\) with base 10: '(.*)'$")


def _reason(exc: Exception, text: str) -> str:
    if isinstance(exc, ValidationError):
        first = exc.errors()[0]
        return f"{'.'.join(str(p) for p in first['loc'])}: {first['msg']}"
    if isinstance(exc, KeyError):
        return f"missing value {exc}"
    m = _TOO_LONG.search(str(exc))
    if m:
        # Python refuses to convert past 4,300 digits; name the line holding the number.
        long_run = re.compile(rf"\d{{{int(m[1])}}}")
        for no, line in enumerate(text.splitlines(), 1):
            if long_run.search(line):
                return f"line {no}: a number of {int(m[1]):,} digits; no setting is that long"
        return f"a number of {int(m[1]):,} digits; no setting is that long"
    m = _NOT_INT.match(str(exc))
    if m:
        # A template matched a word where a number belongs; the line it came from is what
        # the engineer needs to find it.
        word = m[1]
        for no, line in enumerate(text.splitlines(), 1):
            if word in line.split():
                return f"line {no}: '{word}' is not a number ({line.strip()[:80]})"
        return f"'{word}' is not a number"
    return str(exc)


def redacted(device: DeviceConfig, vendor: str) -> DeviceConfig:
    """Descriptions are free text; an operator may have pasted a key into one."""
    if not may_hold_secrets("\n".join(i.description for i in device.interfaces)):
        return device  # most configs: one test of all of them, not one per port
    changed = False
    ifaces = list(device.interfaces)
    for n, i in enumerate(ifaces):
        clean = redact(i.description, vendor) if i.description else i.description
        if clean != i.description:
            ifaces[n] = i.model_copy(update={"description": clean})
            changed = True
    return device.model_copy(update={"interfaces": tuple(ifaces)}) if changed else device
