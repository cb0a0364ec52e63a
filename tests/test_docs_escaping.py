"""Values read from configs (sysnames, descriptions, VLAN names) are text in the hand-over
documents, never Markdown or HTML: a sysname '[x](javascript:alert(1))' was a live link in
docs index.md. Each payload (a link, an image, raw HTML, a table-breaking '|', a bare URL, a
code span, a formula for a spreadsheet) is planted as a sysname and as descriptions; the docs
are rendered by a CommonMark parser with tables (markdown-it, as rich ships it) and the HTML
report is read as it is: no link but to the docs' own pages, no image, no element from a
config, every table row with its columns, no formula in cabling.csv."""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from tests.helpers import ROOT, run

PAYLOADS = [
    "[x](javascript:alert(1))",
    "![i](https://evil.example/x.png)",
    "<img/src=x/onerror=alert(1)>",
    "<script>alert(1)</script>",
    "a|b|c|d",
    "https://evil.example/login",
    "www.evil.example",
    "`code`x",
    "*bold*_it_~~gone~~",
    '=HYPERLINK("https://evil.example")',
    "&lt;b&gt;entity",
]


def _folder(tmp: Path, payload: str) -> Path:
    """Two golden H3C leaves: leaf-1's sysname, and descriptions and a VLAN name of both, are
    ``payload``."""
    folder = tmp / "configs"
    folder.mkdir()
    for leaf in ("leaf-1", "leaf-2"):
        text = (ROOT / "golden/pod-small-h3c" / f"{leaf}.cfg").read_text()
        if leaf == "leaf-1":
            text = text.replace(" sysname leaf-1", f" sysname {payload}", 1)
        text = re.sub(r"(description )\S+", lambda m: m[1] + payload, text, count=3)
        text = re.sub(r"(\n name )\S+", lambda m: m[1] + payload, text, count=1)
        (folder / f"{leaf}.cfg").write_text(text)
    return folder


def _html(markdown: str) -> str:
    return MarkdownIt("commonmark").enable("table").render(markdown)


@pytest.mark.parametrize("payload", PAYLOADS)
def test_a_config_value_is_text_in_the_docs(payload: str, tmp_path: Path) -> None:
    folder = _folder(tmp_path, payload)
    out = tmp_path / "docs"
    result = run("docs", str(folder), "-o", str(out))
    assert result.exit_code in (0, 1), result.output
    pages = {p.name: p.read_text() for p in out.glob("*.md")}
    assert len(pages) == 3  # index.md and one page per switch
    for name, text in pages.items():
        html = _html(text)
        links = re.findall(r'<a href="([^"]*)"', html)
        # a page of this folder (its file name escaped), never a URL: no scheme, no folder
        assert all(h.endswith((".md", ".csv")) and "/" not in h for h in links), (name, links)
        assert not any(":" in h for h in links), (name, links)
        assert "<img" not in html and "<script" not in html, name
        for table in re.findall(r"<table>.*?</table>", html, re.S):
            head = len(re.findall(r"<th[ >]", table.split("</thead>")[0]))
            rows = re.findall(r"<tr>(.*?)</tr>", table.split("</thead>")[1], re.S)
            assert all(len(re.findall(r"<td[ >]", r)) == head for r in rows), (name, table[:300])
    # the value is there, as text: the page of the switch named by it shows it
    index = _html(pages["index.md"])
    shown = payload.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    assert shown.replace('"', "&quot;") in index, index[:2000]
    with (out / "cabling.csv").open(newline="") as fh:
        cells = [c for row in csv.reader(fh) for c in row]
    assert not any(c[:1] in ("=", "+", "@") for c in cells)


@pytest.mark.parametrize("payload", PAYLOADS[:4])
def test_a_switch_named_above_a_policy_that_differs_is_text(payload: str, tmp_path: Path) -> None:
    """Switches whose lossless policies differ are listed by name above each policy's table,
    outside every table cell: leaf-1 (named ``payload``) gets another watchdog interval."""
    folder = _folder(tmp_path, payload)
    leaf = folder / "leaf-1.cfg"
    text = leaf.read_text()
    changed = text.replace("deadlock cos 3 interval 2", "deadlock cos 3 interval 3", 1)
    assert changed != text
    leaf.write_text(changed)
    out = tmp_path / "docs"
    result = run("docs", str(folder), "-o", str(out))
    assert result.exit_code in (0, 1), result.output
    index = (out / "index.md").read_text()
    assert "differs from the most common policy" in index
    html = _html(index)
    links = re.findall(r'<a href="([^"]*)"', html)
    assert not any(":" in h for h in links), links
    assert "<img" not in html and "<script" not in html


@pytest.mark.parametrize("payload", [p for p in PAYLOADS if "<" in p])
def test_a_config_value_is_text_in_the_html_report(payload: str, tmp_path: Path) -> None:
    folder = _folder(tmp_path, payload)
    page = tmp_path / "r.html"
    result = run("report", str(folder), "-o", str(page))
    assert result.exit_code in (0, 1), result.output
    html = page.read_text()
    # as written nowhere: escaped in the page (&lt;), and \u003c in its JSON data
    assert payload not in html
    assert payload.replace("<", "&lt;").replace(">", "&gt;") in html
