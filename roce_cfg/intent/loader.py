"""Load an intent file: YAML -> Intent, every problem located as ``file:line path: reason``."""

from __future__ import annotations

import difflib
import types
import typing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from roce_cfg.errors import InputError, IntentErrors, PlanError
from roce_cfg.intent.checks import check
from roce_cfg.intent.models import Intent
from roce_cfg.yamlsrc import INTENT, Loc, line_of, load_file


@dataclass(frozen=True)
class LoadedIntent:
    intent: Intent
    file: str
    lines: dict[Loc, int]

    def locate(self, loc: Loc, reason: str) -> InputError:
        return InputError(
            reason, file=self.file, line=line_of(self.lines, loc), path=_dotted(loc) or None
        )

    def from_plan(self, err: PlanError) -> InputError:
        return self.locate(err.loc, err.reason)


def _dotted(loc: Loc) -> str:
    return ".".join(str(p) for p in loc)


def load_intent(path: Path) -> LoadedIntent:
    file = str(path)
    data, lines = load_file(path, INTENT)
    if not isinstance(data, dict):
        raise InputError("must be a YAML mapping of intent sections", file=file, line=1)
    try:
        intent = Intent.model_validate(data)
    except ValidationError as exc:
        # a typo'd key first: the 'is required' it causes says less than its did-you-mean
        errors = sorted(exc.errors(), key=lambda e: e["type"] != "extra_forbidden")
        raise IntentErrors([_located(e, file, lines) for e in errors]) from None
    loaded = LoadedIntent(intent, file, lines)
    problems = check(intent)
    if problems:
        raise IntentErrors([loaded.locate(loc, reason) for loc, reason in problems])
    return loaded


def _located(err: Any, file: str, lines: dict[Loc, int]) -> InputError:
    loc: Loc = tuple(p for p in err["loc"] if not _is_union_tag(p))
    kind = err["type"]
    if kind == "extra_forbidden":
        reason = f"unknown key '{loc[-1]}'" + _suggest(loc)
    elif kind == "missing":
        reason = "is required"
    else:
        msg = str(err["msg"])
        reason = msg.removeprefix("Value error, ")
        quoted = "input" in err and f"'{err['input']}'" in reason  # already says what it got
        if "input" in err and kind not in ("literal_error", "enum") and not quoted:
            reason = f"{reason} (got {err['input']!r})"
    return InputError(reason, file=file, line=line_of(lines, loc), path=_dotted(loc) or None)


def _is_union_tag(part: Any) -> bool:
    # pydantic puts union member names such as 'int' or "literal['auto']" into error locations.
    return isinstance(part, str) and (
        part in ("int", "str", "float") or part.startswith("literal[")
    )


def _suggest(loc: Loc) -> str:
    fields = _fields_at(Intent, loc[:-1])
    close = difflib.get_close_matches(str(loc[-1]), fields, n=1, cutoff=0.5)
    if close:
        return f"; did you mean '{close[0]}'?"
    return f"; valid keys: {', '.join(fields)}" if fields else ""


def _fields_at(model: type[BaseModel], loc: Loc) -> list[str]:
    current: Any = model
    for part in loc:
        if isinstance(part, int):
            continue
        field = current.model_fields.get(part) if _is_model(current) else None
        if field is None:
            return []
        current = _model_in(field.annotation)
    return list(current.model_fields) if _is_model(current) else []


def _is_model(tp: Any) -> bool:
    return isinstance(tp, type) and issubclass(tp, BaseModel)


def _model_in(annotation: Any) -> Any:
    if _is_model(annotation):
        return annotation
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        for arg in typing.get_args(annotation):
            if _is_model(arg):
                return arg
    return None
