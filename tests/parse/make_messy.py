"""Write terminal-capture versions of clean fixtures: what an operator's saved session looks like.

Each output holds bytes that editors and git settings mangle, so they are generated, committed,
and checked by tests/test_parse_fixtures.py to parse exactly like their clean originals.
"""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).parent

# (clean fixture, output, prompt, command, pager prompt and how the CLI erases it, page length)
CAPTURES = [
    (
        "h3c/leaf-s6850.cfg",
        "h3c/leaf-s6850-terminal.cfg",
        "<leaf-9>",
        "display current-configuration",
        "  ---- More ----\x1b[16D                \x1b[16D",
        23,
    ),
    (
        "huawei/leaf-ce6885.cfg",
        "huawei/leaf-ce6885-terminal.cfg",
        "<leaf-21>",
        "display current-configuration",
        "  ---- More ----\x1b[42D                                          \x1b[42D",
        40,
    ),
    (
        "ruijie/leaf-48x25g.cfg",
        "ruijie/leaf-48x25g-terminal.cfg",
        "leaf-31#",
        "show running-config",
        " --More-- " + "\b" * 10 + " " * 10 + "\b" * 10,
        24,
    ),
    (
        "zte/spine-wrapped.cfg",
        "zte/spine-wrapped-terminal.cfg",
        "spine-5#",
        "show running-config",
        " --More-- " + "\b" * 10 + " " * 10 + "\b" * 10,
        30,
    ),
]


def capture(clean: str, prompt: str, command: str, pager: str, page: int) -> bytes:
    lines = clean.splitlines()
    out = [f"{prompt}{command}"]
    for n, line in enumerate(lines, 1):
        # Trailing blanks as some CLIs pad lines; the pager prompt sits in front of the first
        # line of each new page and is erased in place.
        text = line + ("   " if n % 5 == 0 else "")
        out.append(pager + text if n % page == 0 else text)
    out.append(prompt)
    return ("\r\n".join(out) + "\r\n").encode()


def main() -> None:
    for src, dst, prompt, command, pager, page in CAPTURES:
        clean = (HERE / src).read_text(encoding="utf-8")
        (HERE / dst).write_bytes(capture(clean, prompt, command, pager, page))


if __name__ == "__main__":
    main()
