"""Every source tag cited in vendors/*.yaml and templates/ resolves to a row of docs/sources.md
with a title, publisher, version and section (issue 17: the tags used to point at a document
that was not in the repository)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import yaml

from tests.helpers import ROOT

TAG = re.compile(r"\[([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+|[A-Z][A-Z0-9]*-[A-Za-z0-9]+)\]")


def _strings(node: Any, key: str = "") -> Iterator[tuple[str, str]]:
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _strings(v, str(k))
    elif isinstance(node, list):
        for v in node:
            yield from _strings(v, key)
    elif isinstance(node, str):
        yield key, node


def cited() -> dict[str, str]:
    """tag -> a file citing it."""
    tags: dict[str, str] = {}
    for path in sorted((ROOT / "vendors").glob("*.yaml")):
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        texts = [t for _, t in _strings(doc)]  # parsed, so a YAML flow list is no tag
        texts += re.findall(r"(?:^|\s)#(.*)$", path.read_text(encoding="utf-8"), re.M)
        for text in texts:
            for tag in TAG.findall(text):
                tags.setdefault(tag, path.name)
    for path in sorted((ROOT / "templates").rglob("*.j2")):
        for comment in re.findall(r"\{#(.*?)#\}", path.read_text(encoding="utf-8"), re.S):
            for tag in TAG.findall(comment):
                tags.setdefault(tag, str(path.relative_to(ROOT)))
    return tags


def documented() -> dict[str, list[str]]:
    rows: dict[str, list[str]] = {}
    for line in (ROOT / "docs/sources.md").read_text(encoding="utf-8").splitlines():
        m = re.match(r"\| \[([^\]]+)\] \|(.*)\|$", line)
        if m:
            rows[m.group(1)] = [c.strip() for c in m.group(2).split("|")]
    return rows


def test_every_cited_tag_resolves() -> None:
    tags, rows = cited(), documented()
    assert len(tags) >= 15  # the scan does find the citations
    missing = {t: f for t, f in tags.items() if t not in rows}
    assert not missing, f"tags without a row in docs/sources.md: {missing}"


def test_every_row_is_complete() -> None:
    for tag, cells in documented().items():
        title, publisher, version, section, where = cells
        assert all((title, publisher, version, section, where)), tag


def test_every_grammar_sources_key_is_documented() -> None:
    rows = documented()
    for path in sorted((ROOT / "vendors").glob("*.grammar.yaml")):
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        for tag in doc.get("sources") or {}:
            assert tag in rows, f"{path.name}: sources.{tag}"
