"""Tables a person reads: on a terminal, sized to it and never cutting a word in two; in a
pipe, a file or a CI log, plain tab-separated rows. What they print leaves through the
redacting layer (roce_cfg/output.py): ``emit``, or the console the caller passes, one made by
``output.console``."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Literal

from roce_cfg.output import emit

if TYPE_CHECKING:
    from rich.console import Console
    from rich.text import Text


def print_table(
    con: Console,
    title: str,
    columns: Sequence[str],
    rows: Iterable[Sequence[str]],
    *,
    right: Sequence[str] = (),
    styles: Mapping[str, Callable[[str], str]] | None = None,
) -> None:
    """A table that fits its medium. On a terminal: a rich table sized to it, its cells
    wrapped between words, never inside one; when even each column's longest word cannot fit
    (many columns, a narrow terminal), one block per row instead, a column's name and its
    value to a line. ``styles``: a column's colour by its cell (push's results), on a terminal
    only. In a pipe, a file or a CI log: plain rows, one per line, so grep finds a row and
    ``cut -f``/``awk -F'\\t'`` a column: a ``# title`` line, the column names, then the cells
    separated by tabs; no word is broken and no row spans two lines."""
    body = [list(row) for row in rows]
    if not con.is_terminal:
        lines = [f"# {title}", "\t".join(columns)]
        lines += ["\t".join(" ".join(cell.split()) or "-" for cell in row) for row in body]
        emit("\n".join(lines) + "\n")
        return
    from rich.cells import cell_len
    from rich.table import Table
    from rich.text import Text

    paint = styles or {}
    texts = [
        [
            Text(c, style=paint[k](c) if k in paint else "")
            for k, c in zip(columns, row, strict=True)
        ]
        for row in body
    ]
    by_column = [[col, *(row[i] for row in body)] for i, col in enumerate(columns)]
    words = [max(cell_len(w) for c in col for w in c.split() or [""]) for col in by_column]
    widest = [max(cell_len(ln) for c in col for ln in c.splitlines() or [""]) for col in by_column]
    # A table of n columns takes 3n + 1 cells beyond its content (a border and two spaces
    # of padding each). rich's own squeeze shrinks every column alike and cut names in two
    # (generic-128x400|G): the widths are set here, each column its longest word first.
    room = con.width - 3 * len(columns) - 1
    if sum(max(w, 1) for w in words) > room:
        _records(con, title, columns, texts)
        return
    # Text throughout: a name or a cell is shown as it is, never read as markup or :emoji:
    table = Table(title=Text(title))
    for col, width in zip(columns, column_widths(words, widest, room), strict=True):
        justify: Literal["left", "right"] = "right" if col in right else "left"
        table.add_column(Text(col), justify=justify, width=width, overflow="ellipsis")
    for row in texts:
        table.add_row(*row)
    con.print(table)


def _records(con: Console, title: str, columns: Sequence[str], rows: list[list[Text]]) -> None:
    """A table too wide for the terminal, one block per row: each column's name and its value
    on a line (empty cells left out), the value wrapped between words."""
    from rich.cells import cell_len
    from rich.table import Table
    from rich.text import Text

    names = max(cell_len(c) for c in columns)  # one column of names through every block
    con.print(Text(title, style="bold"))
    for row in rows:
        grid = Table.grid(padding=(0, 2))
        grid.add_column(no_wrap=True, style="dim", min_width=names)
        grid.add_column(overflow="ellipsis")
        for name, cell in zip(columns, row, strict=True):
            if cell.plain.strip():
                grid.add_row(Text(name), cell)
        con.print("", grid)


def column_widths(words: Sequence[int], lines: Sequence[int], room: int) -> list[int]:
    """Content widths for columns whose longest words and lines are ``words`` and ``lines``,
    within ``room`` cells, which must hold every longest word: each line whole if all fit;
    else each column its longest word, and the cells left over shared by how much more each
    column would take. Never under one cell.

    >>> column_widths([3, 5], [10, 5], 20), column_widths([3, 5], [10, 5], 10)
    ([10, 5], [5, 5])
    >>> column_widths([16, 4, 30], [40, 4, 60], 60)
    [20, 4, 35]
    """
    whole = [max(w, ln, 1) for w, ln in zip(words, lines, strict=True)]
    if sum(whole) <= room:
        return whole
    least = [max(w, 1) for w in words]
    spare = room - sum(least)
    wants = [w - m for w, m in zip(whole, least, strict=True)]
    return [m + spare * want // sum(wants) for m, want in zip(least, wants, strict=True)]
