"""Which vendor wrote a config: its layout and command words (the profiles' ``parse.detect``
patterns) scored over the config's first and last lines, a terminal capture's prompt lines left
out. A text that reads as no vendor clearly is refused with the scores, never guessed.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

from roce_cfg.errors import InputError
from roce_cfg.parse.text import Line, clean, ends
from roce_cfg.platforms.profile import VendorProfile, load_profiles
from roce_cfg.vendor import Vendor

# A terminal capture often starts with the command that printed the config and ends with the
# next prompt: '<leaf-1>display current-configuration', 'leaf-1#show running-config', 'leaf-1#'.
_PROMPT = re.compile(r"^(?:<[^<>\s]+>|\[[^\[\]\s]+\]|[\w.-]+(?:\([\w-]+\))?[#>])(?:\s.*|\S.*)?$")


def without_prompts(lines: list[Line], text: str) -> list[Line]:
    """``lines`` (of ``text``) less the prompt lines. A prompt holds '>', ']' or '#' (every
    alternative of ``_PROMPT`` does): the regex is tried on those lines only, a third of the
    cost, and none is when the text holds none of them (a saved file, not a capture)."""
    if "#" not in text and ">" not in text and "]" not in text:
        return lines
    return [
        ln
        for ln in lines
        if not (("#" in (t := ln.text) or ">" in t or "]" in t) and _PROMPT.match(t))
    ]


_COMPILED: dict[int, tuple[VendorProfile, tuple[list[re.Pattern[str]], ...]]] = {}


def patterns(profile: VendorProfile) -> tuple[list[re.Pattern[str]], ...]:
    """The profile's detect, known-block and layout patterns, compiled; a detect pattern that
    matches only at a line's start is compiled to follow a newline (``_after_newline``)."""
    # Profiles are cached per (vendor, overlay) and immutable, so identity is a safe key.
    hit = _COMPILED.get(id(profile))
    if hit is None or hit[0] is not profile:
        spec = profile.parse
        hit = _COMPILED[id(profile)] = (
            profile,
            (
                [_after_newline(p) or re.compile(p, re.MULTILINE) for p in spec.detect],
                [re.compile(p) for p in spec.known_blocks],
                [re.compile(p) for p in spec.layout_lines],
            ),
        )
    return hit[1]


_NEWLINE = "\n(?:"


def _after_newline(pattern: str) -> re.Pattern[str] | None:
    """``pattern`` (multi-line) as one that matches the same text after a newline, to search
    '\\n' + the text: a search for '^X' tries every character of the text (Python's regex
    engine does not skip to line starts), one for '\\nX' only its newlines, a tenth of the
    time of detecting the vendor. None unless every top-level alternative starts with '^'
    (nor any lookbehind or '\\A', which the added newline would change). That '^' always
    holds after the newline, so it is dropped: an alternative starting with literal text then
    gives the engine a prefix to scan for (a third less time)."""
    if "(?<" in pattern or "\\A" in pattern:
        return None
    alternatives, depth, start, i, in_class = [], 0, 0, 0, False
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\":
            i += 1
        elif in_class:
            in_class = ch != "]"
        elif ch == "[":
            in_class = True  # a ']' first in the class is one of its characters
            i += 2 if pattern.startswith("[^]", i) else 1 if pattern.startswith("[]", i) else 0
        elif ch in "()":
            depth += 1 if ch == "(" else -1
        elif ch == "|" and depth == 0:
            alternatives.append(pattern[start:i])
            start = i + 1
        i += 1
    alternatives.append(pattern[start:])
    if not all(a.startswith("^") for a in alternatives):
        return None
    return re.compile(_NEWLINE + "|".join(a[1:] for a in alternatives) + ")", re.MULTILINE)


# Raw lines of a large file ``other_vendor`` cleans: room for the blank, separator and prompt
# lines around the 400 and 100 lines ``detect`` samples.
SAMPLE_HEAD, SAMPLE_TAIL = 1_000, 300


def detect(lines: list[Line], profiles: Mapping[Vendor, VendorProfile], file: str) -> Vendor:
    """The vendor whose layout and command words the text matches best, or a clear refusal."""
    # Layout signatures sit at the top (sysname, tags) and the end (return, end): read those.
    sample = lines if len(lines) <= 500 else lines[:400] + lines[-100:]
    text = "\n".join(line.text for line in sample)
    after = "\n" + text  # what the patterns made to follow a newline search

    def found(p: re.Pattern[str]) -> bool:
        return bool(p.search(after if p.pattern.startswith(_NEWLINE) else text))

    scores = sorted(
        ((sum(found(p) for p in patterns(prof)[0]), v) for v, prof in profiles.items()),
        key=lambda sv: (-sv[0], sv[1].value),
    )
    best, vendor = scores[0]
    runner_up = scores[1][0] if len(scores) > 1 else 0
    if best >= 2 and best > runner_up:
        return vendor
    seen = ", ".join(f"{v.value} {s}" for s, v in scores)
    raise InputError(
        f"cannot tell which vendor wrote this config (signature matches: {seen}); "
        "pass --vendor h3c|huawei|ruijie|zte",
        file=file,
    )


def other_vendor(
    text: str, given: Vendor, overlay: Path | None = None, file: str = "<text>"
) -> Vendor | None:
    """The vendor the text clearly reads as, when that is not ``given`` (a --vendor mistake).
    Only the ends of a large file are cleaned: ``detect`` reads its first 400 and last 100
    lines, and the last hold the closing line ('return', 'end') that tells most vendors apart."""
    sample = ends(text, SAMPLE_HEAD, SAMPLE_TAIL)
    lines = without_prompts(clean(sample), sample)
    try:
        found = detect(lines, load_profiles(overlay), file)
    except InputError:
        return None  # not clearly anyone's: trust the operator
    return found if found != given else None
