"""From bytes on disk to clean, numbered configuration lines.

Saved configs come from terminal captures as often as from TFTP: CRLF endings, pager prompts
(``---- More ----``) followed by the backspaces or ANSI cursor moves that erase them, trailing
spaces, banners. Each cleaned line keeps the number it had in the file, so findings can point
at the operator's own file.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from itertools import compress, count, repeat
from typing import NamedTuple

from roce_cfg.errors import InputError

_PAGER = re.compile(r"^\s*(?:-{2,}\s*More\s*-{2,}|<--- More --->) ?", re.IGNORECASE)
_PAGER_ANYWHERE = re.compile(r"-{2,}\s*More\s*-{2,}|<--- More --->", re.IGNORECASE)
_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
_TERMINAL = re.compile(r"\x1b\[([0-9;?]*)([A-Za-z])|([\b\r])|([^\x1b\b\r]+)|(\x1b)")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
# A note a vendor's documentation prints after a command, apart from it by two spaces or more
# ('dcb pfc dscp-mapping enable slot 1    //Supported only by the CE6855-48XS8CQ, ...' in the
# CloudEngine V300R023C00 configuration guide's scripts): no switch prints it, the command is
# read without it. Two spaces: a description's 'http://' or 'a //b' is no such note.
_NOTE = re.compile(r"\s{2,}//.*$")
# Separator and terminator lines of the four layouts: '#' (Comware, VRP), '!' and '!<tag>'
# (RGOS, ZXROS), '$' (ZXROS). They carry no configuration.
SEPARATOR = re.compile(r"^\s*(?:#.*|!.*|\$)\s*$")

# Per-file caps. The largest running-configs (chassis with thousands of ports, long ACLs) are a
# few MB and tens of thousands of lines (a generated 64-port spine: ~2,000); commands are under
# 1,000 characters and nest a few levels deep (ZXROS indents 2 spaces a level). A file past any
# of these is not a config, and reading it whole would cost time and memory out of proportion:
# it is refused alone, with the figure.
MAX_CONFIG_BYTES = 16 << 20
MAX_CONFIG_LINES = 100_000
MAX_LINE_CHARS = 16_384
MAX_INDENT = 128
# searched in '\n' + the text: a newline is found by a fast scan, where '^' (multi-line) is
# tried at every character of the text
_DEEP = re.compile(rf"\n([ \t]{{{MAX_INDENT + 1},}})")


class Line(NamedTuple):
    """A cleaned line and its number in the file. A tuple: ``clean`` builds one per line of the
    file by one C call (``_new_line``), where a frozen dataclass runs a Python ``__init__``
    (half the cost of cleaning a saved config)."""

    no: int
    text: str

    @property
    def indent(self) -> int:
        return len(self.text) - len(self.text.lstrip(" "))


def decode(data: bytes, file: str) -> str:
    """Text of a config file; binary junk is refused rather than parsed into nonsense."""
    if not data.strip():
        raise InputError("empty file: no configuration to read", file=file)
    if b"\x00" in data[:65536]:
        raise InputError("binary file, not a saved running-config", file=file)
    text = text_of(data)
    if text is None:  # pragma: no cover - gb18030 decodes almost anything; kept for safety
        raise InputError("not UTF-8 or GB18030 text", file=file)
    _check_shape(text, file)
    sample = text[:65536]
    # no control character at all (a saved file): no junk, whatever the ANSI sequences hold
    junk = (
        len(_CONTROL.findall(_ANSI.sub("", sample).replace("\b", "")))
        if _has_control(sample)
        else 0
    )
    if junk > 8:
        raise InputError("binary or garbled file, not a saved running-config", file=file)
    if not sample.isascii():
        # Configs are command words and numbers; a few non-ASCII descriptions are fine.
        ascii_share = sum(ch.isascii() for ch in sample) / len(sample)
        printable = sum(ch.isprintable() or ch in "\r\n\t" for ch in sample)
        if printable < 0.9 * len(sample) or ascii_share < 0.8:
            raise InputError("binary or garbled file, not a saved running-config", file=file)
    return text


def text_of(data: bytes) -> str | None:
    """``data`` as text, the encoding as ``decode`` chooses it, without its checks: for bytes
    ``decode`` accepted before (the parse cache's)."""
    for encoding in ("utf-8", "gb18030"):
        # Chinese-market switches save descriptions in GB18030 as often as in UTF-8.
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    return None  # pragma: no cover - gb18030 decodes almost anything


def _check_shape(text: str, file: str) -> None:
    """Too many lines, endless lines and impossibly deep indentation, located."""
    lines = text.count("\n") + (not text.endswith("\n"))
    if lines > MAX_CONFIG_LINES:
        raise InputError(
            f"{lines:,} lines; the largest running-configs are tens of thousands "
            f"(limit {MAX_CONFIG_LINES:,})",
            file=file,
        )
    longest = max(map(len, text.split("\n")))
    if longest > MAX_LINE_CHARS:
        at = next(i for i, ln in enumerate(text.split("\n"), 1) if len(ln) > MAX_LINE_CHARS)
        raise InputError(
            f"a line of {longest:,} characters; no config command is that long "
            f"(limit {MAX_LINE_CHARS:,})",
            file=file,
            line=at,
        )
    deep = _DEEP.search("\n" + text)
    if deep:
        raise InputError(
            f"indented {len(deep[1]):,} columns; no config block nests that deep "
            f"(limit {MAX_INDENT})",
            file=file,
            line=text.count("\n", 0, deep.start()) + 1,  # its newline is the line's start
        )


def ends(text: str, head: int, tail: int) -> str:
    """The first ``head`` and the last ``tail`` lines of ``text``, or all of it when it is not
    longer than that: what a signature check reads of a large file, without splitting it."""
    cut = 0
    for _ in range(head):
        cut = text.find("\n", cut) + 1
        if cut == 0:
            return text
    stop = len(text) - text.endswith("\n")  # the newline ending the last line ends no line
    for _ in range(tail):
        stop = text.rfind("\n", 0, stop)
        if stop < cut:
            return text
    return text[:cut] + text[stop + 1 :]


# what str.splitlines() splits at besides '\n'
_OTHER_BREAKS = re.compile(r"[\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029]")


def count_lines(text: str) -> int:
    """``len(text.splitlines())`` without the list (100,000 strings at the parse's peak)."""
    if _OTHER_BREAKS.search(text):
        return len(text.splitlines())
    return text.count("\n") + (bool(text) and not text.endswith("\n"))


def _screen(line: str) -> str:
    """What a terminal showed for ``line``: pager prompts are erased by moving the cursor back
    (backspaces, ESC[nD, carriage return) and overwriting, so replay those moves."""
    if not any(c in line for c in "\x1b\b\r"):
        return line
    buf: list[str] = []
    cur = 0
    for m in _TERMINAL.finditer(line):
        args, code, move, text = m.group(1), m.group(2), m.group(3), m.group(4)
        if text is not None:
            end = cur + len(text)
            buf.extend(" " * (end - len(buf)))
            buf[cur:end] = text
            cur = end
        elif move == "\b":
            cur = max(0, cur - 1)
        elif move == "\r":
            cur = 0
        elif code in ("D", "C"):
            # No terminal is wider than the longest line allowed: a larger move (ESC[9999...C)
            # would only pad the line with spaces, or convert a 4,300-digit number.
            first = args.split(";")[0]
            n = min(int(first[:6]), MAX_LINE_CHARS) if first.isdigit() else 1
            cur = max(0, cur - n) if code == "D" else min(cur + n, MAX_LINE_CHARS)
        elif code == "K":
            del buf[cur:]
    return "".join(buf)


# _CONTROL's characters as UTF-8 bytes: a character outside ASCII encodes to bytes >= 0x80 only
_CONTROL_BYTES = bytes([*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20), 0x7F])


def _has_control(text: str) -> bool:
    """``_CONTROL.search(text) is not None``, by one C pass over the bytes (a regex scan of a
    character class costs ten times as much)."""
    data = text.encode("utf-8", "surrogatepass")
    return len(data.translate(None, _CONTROL_BYTES)) != len(data)


_new_line = tuple.__new__  # Line(no, text) without NamedTuple's Python-level __new__


def clean(text: str) -> list[Line]:
    """Numbered lines without pager residue, control characters, trailing spaces or
    documentation notes, or blanks."""
    lines: list[Line] = []
    text = text.replace("\r\n", "\n")
    terminal = any(c in text for c in "\x1b\b\r")
    controls = terminal or "\t" in text or _has_control(text)
    # every pager prompt holds '--' ('---- More ----', '<--- More --->'): a substring test
    # rules most files out for the cost of a tenth of the regex's search
    if not controls and ("--" not in text or not _PAGER_ANYWHERE.search(text)):
        # The common case, a clean saved file: no per-line repair needed, and the lines are
        # stripped, numbered and made Lines by C calls alone (a fifth less than a Python loop).
        texts = list(map(str.rstrip, text.split("\n")))
        if "//" in text:
            texts = [_NOTE.sub("", t) if "//" in t else t for t in texts]
        made = list(map(_new_line, repeat(Line), zip(count(1), texts)))
        return made if all(texts) else list(compress(made, texts))
    for no, raw in enumerate(text.split("\n"), 1):
        line = _screen(raw) if terminal else raw
        line = _PAGER.sub("", line) if "ore" in line else line
        if controls:
            line = _CONTROL.sub("", line).replace("\t", " ")
        line = line.rstrip()
        if "//" in line:
            line = _NOTE.sub("", line)
        if line:
            lines.append(Line(no, line))
    return lines


def unwrap(lines: list[Line], width: int | None) -> list[Line]:
    """Join lines the CLI folded at ``width`` columns back onto the line they belong to.

    A folded line fills the terminal to the last column and its tail starts at column 0 in the
    middle of an indented block, where no command can start.
    """
    if width is None:
        return lines
    out: list[Line] = []
    segment = 0  # length of the last physical line: a fold fills the terminal, no more
    for line in lines:
        prev = out[-1] if out else None
        if (
            prev is not None
            # a physical line of twice the width or more was never folded at that width (a
            # 4,400-character line took the config's next commands along as its 'tail')
            and width <= segment < 2 * width
            and prev.indent > 0
            and line.indent == 0
            and not SEPARATOR.match(line.text)
            and not line.text.startswith(("interface ", "router ", "hostname "))
        ):
            out[-1] = Line(prev.no, prev.text + line.text)
        else:
            out.append(line)
        segment = len(line.text)
    return out


def fold_tails_redacted(
    lines: list[Line], vendor: str, width: int | None, never: list[re.Pattern[str]]
) -> list[Line]:
    """``lines`` with each line that continues a folded secret-bearing line redacted where the
    secret reaches into it (roce_cfg/redact.py ``fold_tails``): a fold ``unwrap`` did not
    rejoin (a top-level line, or a vendor whose CLI does not fold but whose config came from
    an 80-column terminal) would otherwise carry the tail of a key into parse's opaque and
    unread lines, the docs and push plans. A separator or a line ``never`` matches (a block
    opener, a layout line) is never taken for a continuation."""
    from roce_cfg.redact import FOLD_WIDTH, fold_tails

    texts = [ln.text for ln in lines]
    tails = fold_tails(texts, vendor, width or FOLD_WIDTH, _opener(never))
    if not tails:
        return lines
    return [Line(ln.no, tails[k]) if k in tails else ln for k, ln in enumerate(lines)]


def _opener(never: list[re.Pattern[str]]) -> Callable[[str], bool]:
    """Whether a line is never a fold's continuation: a separator, or a line ``never``
    matches (a block opener, a layout line)."""

    def opener(text: str) -> bool:
        bare = text.lstrip()
        return bool(SEPARATOR.match(text)) or any(p.match(bare) for p in never)

    return opener


def unwrap_redacted(
    lines: list[Line], vendor: str, width: int | None, never: list[re.Pattern[str]]
) -> list[Line]:
    """``unwrap(lines, width)``, and where a joined line no longer shows a secret beside its
    keyword, that secret redacted. Unwrap reads a piece that fills the width as folded onto
    the next line, which may be a command of its own: joined to the piece, the command is no
    fold's first part any more and its own secret is no rule's (the rules start at a word:
    '162snmp-server host ... trap X'), so the secret the command holds, or the one its own
    fold carried to the line after it, reached parse's unread lines. So the folds are read
    for secrets in the lines as the CLI printed them, each joined piece as a line too, and
    their secrets redacted after the join only: a piece shortened before it would stop
    unwrap joining the rest of its line (a neighbour's long password lost its BGP block)."""
    joined = unwrap(lines, width)
    if width is None or len(joined) == len(lines):
        return joined  # nothing joined: fold_tails_redacted reads the lines as printed
    from roce_cfg.redact import fold_spans, secret_spans, uncovered_redacted

    spans = fold_spans([ln.text for ln in lines], vendor, width, _opener(never))
    out: list[Line] = []
    k = 0  # the next line as printed: each joined line is the next ones' texts end to end
    for line in joined:
        mine: list[tuple[int, int]] = []
        at, first = 0, k
        while True:
            found = spans.get(k, [])
            if k > first:  # a piece joined on: read as a line of its own too
                found = found + secret_spans(lines[k].text, vendor)
            mine += [(at + s, at + e) for s, e in found]
            at, k = at + len(lines[k].text), k + 1
            if at >= len(line.text):
                break
        out.append(Line(line.no, uncovered_redacted(line.text, mine, vendor)) if mine else line)
    return out
