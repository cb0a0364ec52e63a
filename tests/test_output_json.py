"""parse's JSON is written model by model with pydantic and redacted as text (a config of
98,000 ports took 10 s and 400 MB as a tree of Python objects and its redacted copy); the text
must be exactly what the tree path wrote: ``json.dumps(redact_tree(doc), indent=2)``."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from roce_cfg.output import emit_models
from roce_cfg.parse import ParsedConfig, parse_file
from roce_cfg.redact import redact_tree
from tests.helpers import ROOT, examples

FIXTURES = [
    *sorted((ROOT / "tests/parse").glob("*/*.cfg")),
    *sorted((ROOT / "examples/backups").glob("*/*.cfg")),
    *sorted((ROOT / "tests/brownfield").glob("*/*.cfg")),
]
PARSED = [parse_file(p).config for p in FIXTURES]
SECRET_LINES = [
    "snmp-server community public ro", " password hash $h$6$abc==", "key 7 0822455D0A16",
    "snmp-agent community read cipher %^%#x", "radius-server key 7 0822455D0A16",
    "\u212aey 7 abc", "PASSWORD 0 x", 'username ops password 0 "two words" privilege 15',
    "snmp-server host 10.0.0.1 version 2c public", "priv\tdes 1", "a\\b \"q\" pass x",
]  # fmt: skip
TEXT = st.one_of(
    st.sampled_from(SECRET_LINES),
    st.text(max_size=60),
    st.lists(st.sampled_from([*SECRET_LINES, "x", ""]), max_size=4).map("\n".join),
)


def _both(configs: list[ParsedConfig]) -> tuple[str, str]:
    doc = {"format": "roce-cfg/parse/v2", "configs": [c.model_dump(mode="json") for c in configs]}
    old = json.dumps(redact_tree(doc), indent=2) + "\n"
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        emit_models({"format": "roce-cfg/parse/v2"}, "configs", configs)
    return old, out.getvalue()


def test_fixtures_come_out_as_the_tree_path_wrote_them() -> None:
    old, new = _both(PARSED)
    assert new == old and "<redacted>" in new
    assert _both([]) == (
        '{\n  "format": "roce-cfg/parse/v2",\n  "configs": []\n}\n',
        '{\n  "format": "roce-cfg/parse/v2",\n  "configs": []\n}\n',
    )


@settings(max_examples=examples(300), deadline=None)
@given(st.sampled_from(PARSED), TEXT, TEXT, TEXT, TEXT)
def test_any_strings_come_out_as_the_tree_path_wrote_them(
    config: ParsedConfig, description: str, vlan_name: str, note: str, source: str
) -> None:
    device = config.device
    ports = list(device.interfaces)
    if ports:
        ports[0] = ports[0].model_copy(update={"description": description})
    vlans = list(device.vlans)
    if vlans:
        vlans[0] = vlans[0].model_copy(update={"name": vlan_name})
    device = device.model_copy(update={"interfaces": tuple(ports), "vlans": tuple(vlans)})
    changed = config.model_copy(update={"device": device, "notes": (note,), "source": source})
    old, new = _both([changed, config])
    assert new == old


def test_the_cli_writes_the_same_text(tmp_path: Path) -> None:
    from tests.helpers import run

    result = run("parse", *map(str, FIXTURES[:4]))
    assert result.exit_code == 0
    old, _ = _both([parse_file(p).config for p in FIXTURES[:4]])
    assert result.stdout == old


@settings(max_examples=examples(300), deadline=None)
@given(
    st.recursive(
        st.one_of(TEXT, st.integers(), st.none(), st.booleans()),
        lambda inner: st.one_of(
            st.lists(inner, max_size=4), st.dictionaries(TEXT, inner, max_size=4)
        ),
        max_leaves=12,
    ),
    st.sampled_from([None, 2]),
    st.booleans(),
)
def test_json_files_and_output_are_redacted_as_the_tree_would_be(
    doc: object, indent: int | None, ascii_only: bool
) -> None:
    """Every JSON roce-cfg writes (lint's findings, SARIF, fabric.json beside docs) is redacted
    string by string as text, without decoding the document; what it says must be what
    redact_tree makes of the document."""
    from roce_cfg.output import scrub

    text = json.dumps(doc, indent=indent, ensure_ascii=ascii_only)
    assert json.loads(scrub(text, "json")) == redact_tree(doc)


def test_text_that_is_no_json_is_redacted_as_text() -> None:
    from roce_cfg.output import scrub

    assert scrub("snmp-server community public ro\n", "json") == (
        "snmp-server community <redacted> ro\n"
    )
    assert "public" not in scrub('{"a": 1} snmp-server community public ro', "json")


def test_lint_json_is_the_text_the_tree_path_wrote() -> None:
    """Findings are serialised by pydantic (400,000 of them were 1.8 GB as a tree)."""
    from roce_cfg.analysis import lint, report
    from roce_cfg.analysis.findings import Finding, LintResult

    result = lint([p for p in sorted((ROOT / "examples" / "backups").glob("*")) if p.is_dir()])
    odd = Finding(rule="RC119", severity="error", device="le\u00e4f-\U0001f600", message="x\x7fy")
    for r in (result, LintResult([], [], []), LintResult([odd], ["f"], ["d"])):
        doc = {
            "format": report.FORMAT,
            "summary": {**r.counts(), "devices": len(r.devices), "files": len(r.files)},
            "findings": [f.model_dump(mode="json") for f in r.findings],
        }
        assert report.to_json(r) == json.dumps(doc, indent=2) + "\n"


def test_long_tuples_are_written_element_by_element(monkeypatch: Any) -> None:
    """A device's ports are streamed (issue 27, cause 9: one 70 MB string of 100,000 ports and
    its copies were half of parse's peak): pieces, each one port or less, whose text is the
    whole model's; every fixture through that path is still what the tree path wrote."""
    from roce_cfg import jsontext

    config = max(PARSED, key=lambda c: len(c.device.interfaces))
    ports = config.device.interfaces
    many = tuple(
        p.model_copy(update={"name": f"{p.name}.{n}"})
        for n in range(4000 // len(ports))
        for p in ports
    )
    big = config.model_copy(
        update={"device": config.device.model_copy(update={"interfaces": many})}
    )
    whole = big.model_dump_json(indent=2)
    assert "".join(jsontext.json_chunks(big)) == whole
    monkeypatch.setattr(jsontext, "BATCH", 7)
    assert "".join(jsontext.json_chunks(big)) == whole
    monkeypatch.setattr(jsontext, "BATCH", 1)
    pieces = list(jsontext.json_chunks(big))
    assert "".join(pieces) == whole and len(pieces) > len(many)
    # no piece grows with the port count: the largest is the device without its ports
    assert max(len(p) for p in pieces) < len(config.model_dump_json(indent=2))
    monkeypatch.setattr(jsontext, "STREAM_MIN", 2)  # every fixture's tuples streamed
    old, new = _both(PARSED)
    assert new == old
    monkeypatch.setattr(jsontext, "STREAM_MIN", 10**9)
    assert list(jsontext.json_chunks(big)) == [whole]


def test_parsed_ports_share_their_set_of_given_fields() -> None:
    """``lean`` (issue 27, cause 9: the set was 728 of a port's 1,272 bytes): ports given the
    same fields share one set, and a copy of one with changes leaves the others as they were."""
    ports = [p for c in PARSED for p in c.device.interfaces]
    sets = {id(p.__pydantic_fields_set__) for p in ports}
    assert len(ports) > 50 and len(sets) < len(ports) // 4
    changed = ports[0].model_copy(update={"description": "x"})
    assert "description" in changed.model_fields_set
    assert all(p.model_fields_set == ports[1].model_fields_set for p in ports[1:2])
    assert ports[0].description != "x" and changed.model_copy() == changed


def test_lint_json_is_streamed_a_batch_of_findings_at_a_time(monkeypatch: Any) -> None:
    """lint's JSON leaves as pieces of at most ``BATCH`` findings (issue 27, cause 9: 35 MB of
    100,000 findings and its redacted copies), whose text is ``to_json``'s, which is the tree's."""
    import inspect

    from roce_cfg.analysis import lint, report

    result = lint([p for p in sorted((ROOT / "examples" / "backups").glob("*")) if p.is_dir()])
    whole = report.to_json(result)
    assert inspect.isgenerator(report.json_chunks(result))
    monkeypatch.setattr(report, "BATCH", 1)
    pieces = list(report.json_chunks(result))
    assert len(result.findings) > 3 and len(pieces) == len(result.findings) + 2
    assert "".join(pieces) == whole
    monkeypatch.setattr(report, "BATCH", 2)
    assert "".join(report.json_chunks(result)) == whole
