"""A vendor's grammar file read (with an overlay's over it) into a Grammar."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any

from roce_cfg.grammar.checker import Grammar
from roce_cfg.grammar.commands import STATUSES, Area, Command, Undo, Unmanaged
from roce_cfg.grammar.syntax import (
    TOKEN,
    GrammarError,
    compile_syntax,
    first_words,
    param_of,
    ranges_of,
)
from roce_cfg.resources import vendors_dir
from roce_cfg.yamlsrc import load_yaml, read_text


def _command(vendor: str, raw: dict[str, Any], path: str, policy: dict[str, Any]) -> Command:
    try:
        syntax = str(raw["syntax"])
        views = raw["view"]
        regex, params = compile_syntax(syntax)
    except (KeyError, ValueError, re.error, IndexError) as exc:
        raise GrammarError(f"command {raw.get('name', raw)!r}: {exc}", file=path) from None
    name = str(raw.get("name", syntax))
    source = str(raw.get("source", ""))
    status = raw.get("status") or ("sourced" if source else "unsourced")
    if status not in STATUSES:
        raise GrammarError(f"command {name!r}: status {status!r}", file=path)
    if raw.get("bounds") not in (None, "frame", "packet"):
        raise GrammarError(f"command {name!r}: bounds {raw.get('bounds')!r}", file=path)
    models = raw.get("models")
    for pname, per_model in (raw.get("ranges") or {}).items():
        key = pname.replace("-", "_")
        if key not in params:
            raise GrammarError(f"command {name!r}: ranges of unknown <{pname}>", file=path)
        rows = tuple((tuple(str(m) for m in ms), ranges_of(str(r))) for r, ms in per_model.items())
        params[key] = replace(params[key], by_model=rows)
    cmd = Command(
        name=name,
        views=tuple(views if isinstance(views, list) else [views]),
        syntax=syntax,
        regex=regex,
        params=params,
        first=tuple(sorted(first_words(TOKEN.findall(syntax)))),
        status=status,
        source=source,
        note=str(raw.get("note", "")),
        models=tuple(models) if models is not None else None,
        opens=raw.get("opens"),
        sets=raw.get("sets"),
        exits=bool(raw.get("exits", False)),
        default=None if raw.get("default") is None else str(raw.get("default")),
        section=str(raw.get("section", "")),
        bounds=raw.get("bounds"),
        once=bool(raw.get("once", False)),
        restates_default=bool(raw.get("restates_default", False)),
        resets=None if raw.get("resets") is None else str(raw["resets"]),
        unmodelled=str(raw.get("unmodelled", "")),
    )
    return replace(cmd, undo=_undo(cmd, raw, path, policy))


def _undo(cmd: Command, raw: dict[str, Any], path: str, policy: dict[str, Any]) -> Undo | None:
    """The command's undo forms: its own ``undo`` entry, else the grammar's ``undo_default``
    (a negation word before the whole line) for commands that do not begin with it."""
    given = raw.get("undo")
    prefix = None
    if given == []:  # documented as never negated ('return')
        return None
    if given is None:
        default = policy.get("undo_default")
        first = TOKEN.findall(cmd.syntax)[0]
        if not default or first in ("[", default["prefix"].strip()):
            return None
        prefix = str(default["prefix"])
        forms: tuple[str, ...] = (prefix + cmd.syntax,)
        source = str(raw.get("undo_source", ""))  # cites the negation of the whole line
        status = raw.get("undo_status") or (
            "sourced" if source else default.get("status", "unsourced")
        )
        note = str(raw.get("undo_note", "")) or str(default.get("note", ""))
    else:
        forms = tuple(str(f) for f in (given if isinstance(given, list) else [given]))
        source = str(raw.get("undo_source", ""))
        in_source = policy.get("undo_in_source") and cmd.status != "unsourced"
        status = raw.get("undo_status") or (
            "sourced" if source else cmd.status if in_source else "unsourced"
        )
        note = str(raw.get("undo_note", ""))
    if status not in STATUSES:
        raise GrammarError(f"command {cmd.name!r}: undo_status {status!r}", file=path)
    typed = {param_of(t).name: t for t in TOKEN.findall(cmd.syntax) if t.startswith("<")}
    commands = []
    for form in forms:
        text = re.sub(r"<([^>:+]+)>", lambda m: typed.get(m.group(1).replace("-", "_"), m[0]), form)
        try:
            regex, params = compile_syntax(text)
        except (ValueError, re.error, IndexError) as exc:
            raise GrammarError(f"command {cmd.name!r} undo {form!r}: {exc}", file=path) from None
        if not params.keys() <= cmd.params.keys():
            unknown = sorted(params.keys() - cmd.params.keys())
            raise GrammarError(f"command {cmd.name!r} undo names unknown {unknown}", file=path)
        commands.append(
            replace(
                cmd,
                name=f"{cmd.name} (undo)",
                views=cmd.views + ((cmd.sets,) if cmd.sets else ()),
                syntax=text,
                regex=regex,
                params={k: cmd.params[k] for k in params},
                first=tuple(sorted(first_words(TOKEN.findall(text)))),
                status=status,
                source=source or cmd.source,
                note=note,
                opens=None,
                sets=None,
                exits=False,
                bounds=None,
            )
        )
    takes = tuple(str(t) for t in raw.get("undo_takes", []))
    return Undo(forms, tuple(commands), status, source, note, takes, prefix)


def grammar_path(vendor: str, overlay: Path | None = None) -> Path:
    if overlay is not None:
        user = overlay / "vendors" / f"{vendor}.grammar.yaml"
        if os.path.lexists(user):  # a FIFO or a link out of the overlay: refused, not skipped
            return user
    return vendors_dir() / f"{vendor}.grammar.yaml"


def _read(path: Path, root: Path | None = None) -> dict[str, Any]:
    data, _ = load_yaml(read_text(path, "vendor grammar", root=root), str(path))
    if not isinstance(data, dict):
        raise GrammarError("must be a YAML mapping", file=str(path))
    return data


def _overlaid(base: dict[str, Any], user: dict[str, Any], path: Path) -> dict[str, Any]:
    """An overlay's grammar over ours: its commands replace ours of the same name and add new
    ones, 'remove' drops ours by name, its sources and models add to ours, any other key it
    gives replaces ours."""
    names = {str(c.get("name", c.get("syntax"))) for c in base.get("commands", [])}
    gone = {str(n) for n in user.get("remove", [])}
    unknown = sorted(gone - names)
    if unknown:
        raise GrammarError(f"remove: no such command {unknown}", file=str(path))
    mine = {str(c.get("name", c.get("syntax"))): c for c in user.get("commands", [])}
    kept = [c for c in base.get("commands", []) if c.get("name") not in gone | mine.keys()]
    out = {**base, **{k: v for k, v in user.items() if k not in ("commands", "remove")}}
    for key in ("sources", "models"):
        out[key] = {**(base.get(key) or {}), **(user.get(key) or {})}
    out["commands"] = kept + list(mine.values())
    return out


@cache
def _load(path: Path, overlay: Path | None = None) -> Grammar:
    return _built(path, overlay)


def _built(path: Path, overlay: Path | None, by_shape: bool = True) -> Grammar:
    data = _read(path)
    if overlay is not None:
        # the overlay's file stays inside its folder (overlay/vendors/<vendor>.grammar.yaml)
        data = _overlaid(data, _read(overlay, root=overlay.parent.parent), overlay)
    where = str(overlay or path)
    vendor = str(data.get("vendor", path.name.split(".")[0]))
    policy = {k: data.get(k) for k in ("undo_default", "undo_in_source")}
    commands = [_command(vendor, c, where, policy) for c in data.get("commands", [])]
    by_name = {c.name: c for c in commands}
    for c in commands:
        lost = [t for t in (c.undo.takes if c.undo else ()) if t not in by_name]
        if lost:
            raise GrammarError(f"command {c.name!r}: undo_takes unknown {lost}", file=where)
        opener = by_name.get(c.resets) if c.resets is not None else None
        if c.resets is not None and (opener is None or not c.params.keys() <= opener.params.keys()):
            raise GrammarError(f"command {c.name!r}: resets {c.resets!r}, no such view", file=where)
    return Grammar(
        vendor=vendor,
        root=str(data.get("root", "system")),
        separators=tuple(data.get("separators", [])),
        ignore=tuple(re.compile(p) for p in data.get("ignore", [])),
        models=dict(data.get("models", {})),
        commands=commands,
        sources=dict(data.get("sources", {})),
        errors={str(k): str(v) for k, v in (data.get("errors") or {}).items()},
        unmanaged=tuple(_unmanaged(data.get("unmanaged") or [], where)),
        areas=tuple(
            Area(_regex(a, "match", where), str(a.get("section", "")))
            for a in data.get("areas") or []
        ),
        by_shape=by_shape,
    )


def _regex(entry: object, key: str, where: str) -> str:
    value = entry.get(key) if isinstance(entry, dict) else None
    try:
        re.compile(str(value))
    except re.error as exc:
        raise GrammarError(f"{key} {value!r} is no regex: {exc}", file=where) from None
    if not isinstance(value, str) or not value:
        raise GrammarError(f"an entry needs '{key}': {entry!r}", file=where)
    return value


def _unmanaged(entries: list[Any], where: str) -> Iterable[Unmanaged]:
    for e in entries:
        pattern = _regex(e, "match", where)
        if not e.get("what") or not e.get("source"):
            raise GrammarError(f"unmanaged {pattern!r}: needs 'what' and 'source'", file=where)
        yield Unmanaged(pattern, str(e["what"]), str(e["source"]))


def load_grammar(vendor: str, overlay: Path | None = None) -> Grammar:
    """The grammar of ``vendor``, with an overlay's own grammar file merged over it (see
    ``_overlaid``) when the overlay has one."""
    bundled = _bundled(vendor)
    if overlay is None:
        return _load(bundled, None)
    user = grammar_path(vendor, overlay).resolve()
    return _load(bundled, user if user != bundled else None)


def raw_commands(vendor: str, overlay: Path | None = None) -> list[dict[str, Any]]:
    """The grammar's command entries as the file writes them, an overlay's merged over them
    (``overlay``: the overlay folder, as ``load_grammar`` takes it)."""
    bundled = _bundled(vendor)
    data = _read(bundled)
    user = grammar_path(vendor, overlay).resolve() if overlay is not None else bundled
    if user != bundled:
        data = _overlaid(data, _read(user, root=user.parent.parent), user)
    return [dict(c) for c in data.get("commands", [])]


def capture_data(vendor: str) -> dict[str, Any]:
    """The grammar file's ``capture`` mapping: how the vendor's 'show version' names the model
    and release (the capture kit reads it, the lab emulator prints it); empty when it has none."""
    return dict(_capture(vendor))


@cache
def _capture(vendor: str) -> dict[str, Any]:
    # read once: the emulator asks on every line typed, and the file is the package's own
    found = _read(_bundled(vendor)).get("capture")
    return dict(found) if isinstance(found, dict) else {}


def line_by_line(vendor: str) -> Grammar:
    """The vendor's grammar read afresh, answering every line on its own and none by its
    shape: the reference that the answers by shape (grammar/replay.py) are tested against."""
    return _built(_bundled(vendor), None, by_shape=False)


@cache
def _bundled(vendor: str) -> Path:
    """The package's own grammar file of ``vendor``, resolved once: the parse asks for the
    grammar once per config, and resolving the path (a stat per directory) cost a tenth of
    preparing an xl config."""
    return (vendors_dir() / f"{vendor}.grammar.yaml").resolve()


def defaults(vendor: str) -> dict[str, str]:
    """Command name -> the default a running-config leaves out, per the vendor's grammar."""
    return load_grammar(vendor).defaults()
