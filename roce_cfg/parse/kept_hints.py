"""The hints a config was parsed with, as a parse cache entry keeps them (roce_cfg/parse/
cache.py): compared whole with the ones given when the entry is loaded, and as a digest, part
of what the parse is a function of."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

from roce_cfg.parse import Hints


def kept_hints(hint: Hints, names: Mapping[str, int]) -> dict[str, Any]:
    """The hints as the entry keeps them: a port's speed under its index among the ports'
    names (``names``), not its name (half the text of an xl entry's columns was names), and
    in a list, JSON having no other keys than strings."""
    speeds = hint.speeds.items()
    return {
        "model": hint.model,
        "role": hint.role,
        "speeds": [[names.get(port, port), speed] for port, speed in speeds],
    }


def same_hints(kept: Any, hint: Hints, names: Mapping[str, int]) -> bool:
    """Whether the hints an entry keeps are ``hint``: the speeds compared as a mapping,
    whatever their order."""
    if type(kept) is not dict or kept.keys() != {"model", "role", "speeds"}:
        return False
    if (kept["model"], kept["role"]) != (hint.model, hint.role):
        return False
    speeds = kept["speeds"]
    if type(speeds) is not list or not all(
        type(s) is list and len(s) == 2 and type(s[0]) in (int, str) for s in speeds
    ):
        return False
    return dict(map(tuple, speeds)) == {names.get(p, p): s for p, s in hint.speeds.items()}


def hint_digest(name: str, hint: Hints) -> str:
    """The hints a config is parsed with, as a digest: the same for the speeds in any order."""
    given = [name, hint.model, hint.role, sorted(hint.speeds.items())]
    text = json.dumps(given, separators=(",", ":"))
    return hashlib.blake2b(text.encode(), digest_size=20).hexdigest()
