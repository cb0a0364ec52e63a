"""Hand-written running-configs in each vendor's real layout parse to their reviewed model."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from roce_cfg.parse import parse_file, parse_text
from tests.helpers import ROOT, load_yaml, run

FIXTURES = sorted((ROOT / "tests/parse").glob("*/*.cfg"))
# Every secret written into the fixtures; none may come out of the parser.
SECRETS = [
    "Fb2Hw0xXz4WfQ",
    "8Xkq1TzeY+Hk7n",
    "Lq0aB1cD2eF3gH4i",
    "Tk0w]V#xYz",
    "Ab12Cd34Ef56",
    "Zz9Yy8Xx7",
    "Cd34Ef56Gh78Ij90",
    "0822455d0a16",
    "s3cr3tRO",
    "02050d480809",
    "8a4f2c1b9d7e6f5a4b3c2d1e0f9a8b7c",
    "5f4e3d2c1b0a",
]


def test_every_vendor_has_fixtures() -> None:
    assert {p.parent.name for p in FIXTURES} == {"h3c", "huawei", "ruijie", "zte"}


@pytest.mark.parametrize("cfg", FIXTURES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_fixture_parses_to_expected(cfg: Path) -> None:
    expected = load_yaml(cfg.with_suffix(".yaml"))
    got = parse_file(cfg).config.model_dump(mode="json")
    got.pop("source")
    assert got == expected


@pytest.mark.parametrize(
    "cfg", [p for p in FIXTURES if p.stem.endswith("-terminal")], ids=lambda p: p.stem
)
def test_terminal_capture_reads_like_the_clean_file(cfg: Path) -> None:
    """CRLF, pager prompts erased with backspaces or ANSI moves, prompts, trailing blanks."""
    raw = cfg.read_bytes()
    assert b"\r\n" in raw and b"More" in raw
    clean = cfg.with_name(cfg.name.replace("-terminal", ""))
    got, want = parse_file(cfg).config.device, parse_file(clean).config.device
    # the capture's prompt lines shift every line number; the routes say where they are
    assert [r.line for r in got.static_routes] == [
        r.line + 1 if r.line else None for r in want.static_routes
    ]
    unplaced = lambda d: d.model_copy(  # noqa: E731
        update={
            "static_routes": tuple(r.model_copy(update={"line": None}) for r in d.static_routes)
        }
    )
    assert unplaced(got) == unplaced(want)


def test_no_secret_leaves_the_parser() -> None:
    result = run("parse", *map(str, FIXTURES), "--verbose")
    assert result.exit_code == 0, result.output
    assert "<redacted>" in result.stdout
    for secret in SECRETS:
        assert secret not in result.output


def test_every_fixture_secret_is_in_a_fixture() -> None:
    """Guards the list above: a secret that is not in any fixture proves nothing."""
    text = "".join(p.read_text(encoding="utf-8", errors="replace") for p in FIXTURES)
    assert all(s in text for s in SECRETS)


def test_parse_json_matches_its_published_schema() -> None:
    schema = json.loads(run("schema", "--of", "parse").stdout)
    result = run("parse", *map(str, FIXTURES))
    assert result.exit_code == 0
    doc = json.loads(result.stdout)
    jsonschema.validate(doc, schema)
    assert doc["format"] == "roce-cfg/parse/v2"
    assert len(doc["configs"]) == len(FIXTURES)


def test_verbose_lists_opaque_blocks_with_lines() -> None:
    result = run("parse", str(ROOT / "tests/parse/h3c/leaf-s6850.cfg"), "-v")
    assert result.exit_code == 0
    assert "opaque 105-106: acl basic 2000" in result.stderr
    assert "14 opaque blocks" in result.stderr


SHORT_NAMES = """#
 sysname leaf-x
#
interface HGE1/0/1
 port link-mode route
 ip address 10.1.0.1 255.255.255.254
#
interface vlan-interface 12
 ip address 172.16.0.1 255.255.255.0
#
interface loopback 0
 ip address 10.0.0.1 255.255.255.255
#
return
"""


def test_short_and_spaced_interface_names_become_canonical() -> None:
    device = parse_text(SHORT_NAMES).config.device
    assert [i.name for i in device.interfaces] == ["HundredGigE1/0/1"]
    assert device.interfaces[0].speed_gbps == 100
    assert [(v.vlan, str(v.ipv4)) for v in device.vlan_interfaces] == [(12, "172.16.0.1/24")]
    assert device.loopback is not None and device.loopback.name == "LoopBack0"


def test_line_numbers_point_into_the_original_file() -> None:
    parsed = parse_file(ROOT / "tests/parse/h3c/leaf-s6850-terminal.cfg")
    # The capture has one prompt line on top, so everything is one line lower than the clean file.
    assert parsed.source.interface_line("Twenty-FiveGigE1/0/1") == 59
    assert (
        parsed.source.interface_line("Twenty-FiveGigE1/0/1", "priority-flow-control no-drop") == 71
    )
    assert parsed.source.line_of("qos wred queue table", "queue 3 ecn") == 44
