"""Every YAML/JSON file roce-cfg reads goes through one guarded loader: hostile shapes end as
one located line and exit 2, whichever command reads them."""

from __future__ import annotations

import json
import os
import re
import stat
from ipaddress import IPv4Address, IPv4Interface
from pathlib import Path

import pytest

from roce_cfg.analysis import suppress
from roce_cfg.deploy import inventory
from roce_cfg.errors import InputError
from roce_cfg.parse.hints import load_fabric
from roce_cfg.yamlsrc import INVENTORY, SUPPRESSIONS, load_file, load_json
from tests.helpers import ROOT, run

LAUGHS = "\n".join(
    ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    + [
        f"{c}: &{c} [" + ",".join([f"*{p}"] * 9) + "]"
        for p, c in zip("abcdefgh", "bcdefghi", strict=True)
    ]
)
HOSTILE = {
    "recursive": ("hosts: &x {a: *x}\n", "recursive alias"),
    "laughs": (LAUGHS, "aliases expand to more than"),
    "bigint": ("hosts:\n  a: {port: " + "7" * 5000 + "}\n", "integer of 5,000 digits"),
    "control": ("hosts:\n  a: {hostname: \x07}\n", "control character U+0007"),
    "deep": ("hosts: " + "[" * 2000 + "]" * 2000, "nested deeper than 24 levels"),
    "date": ("hosts:\n  a: {hostname: 2024-02-31}\n", "unreadable value"),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_inventory_and_suppressions_refuse_hostile_yaml(name: str, tmp_path: Path) -> None:
    text, reason = HOSTILE[name]
    path = tmp_path / "hostile.yaml"
    path.write_text(text, encoding="utf-8")
    for limits in (INVENTORY, SUPPRESSIONS):
        with pytest.raises(InputError) as exc:
            load_file(path, limits)
        assert reason in str(exc.value)
        assert str(exc.value).startswith(f"{path}:")
    with pytest.raises(InputError, match=re.escape(reason)):
        inventory.load(path)
    with pytest.raises(InputError, match=re.escape(reason)):
        suppress.load(path, {"RC101"})


def test_inventory_host_count_is_bounded(tmp_path: Path) -> None:
    path = tmp_path / "inv.yaml"
    path.write_text(
        "hosts:\n" + "".join(f"  h{i}: {{data: {{vendor: h3c}}}}\n" for i in range(16_385))
    )
    with pytest.raises(InputError, match="mapping of 16,385 entries; an inventory means at most"):
        inventory.load(path)


def test_a_file_past_its_size_cap_is_refused_with_the_cap(tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    path.write_bytes(b"# x\n" * (70 * 1024))
    result = run("generate", str(path), "-o", str(tmp_path / "out"))
    assert result.exit_code == 2
    assert "too large (286,720 bytes; an intent file may be 262,144)" in result.stderr
    assert not (tmp_path / "out").exists()


def test_overlay_profile_is_guarded(tmp_path: Path) -> None:
    (tmp_path / "vendors").mkdir()
    (tmp_path / "vendors" / "h3c.yaml").write_text("parse: &x {detect: [*x]}\n")
    result = run(
        "generate",
        str(ROOT / "examples" / "pod-small.yaml"),
        "-o",
        str(tmp_path / "out"),
        "--vendor-dir",
        str(tmp_path),
    )
    assert result.exit_code == 2, result.output
    assert "h3c.yaml:1 recursive alias" in result.stderr
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ('{"switches": ' + "[" * 5000 + "]" * 5000 + "}", "nested deeper than 32 levels"),
        # under the interpreter's recursion limit: found by the shape check, not the decoder
        ('{"links": [{"a": ' + "[" * 40 + "]" * 40 + "}]}", "nested deeper than 32 levels"),
        ('{"links": [{"a": {"b": 1, "c": 2, "b": 3}}]}', "duplicate key 'b'"),
        ('{"version": ' + "1" * 4400 + "}", "integer of 4,400 digits (limit 20)"),
        ('{"switches": [1,\n 2,', "not JSON"),
        ("[" + ",".join(["0"] * (1 << 22 | 1)) + "]", "list of 4,194,305 entries"),
        ('{"switches": [' + ",".join(["{}"] * 8193) + "]}", "switches: 8,193 switches, more than"),
        ('{"name": "a", "links": [], "name": "b"}', "duplicate key 'name'"),
    ],
)
def test_fabric_json_is_guarded(tmp_path: Path, text: str, reason: str) -> None:
    path = tmp_path / "fabric.json"
    path.write_text(text)
    with pytest.raises(InputError, match=re.escape(reason)):
        load_fabric(path)


def test_load_json_reads_a_real_fabric(tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert run("generate", str(ROOT / "examples" / "pod-small.yaml"), "-o", str(out)).exit_code == 0
    data = load_json(out / "fabric.json")
    assert data == json.loads((out / "fabric.json").read_text())
    assert load_fabric(out / "fabric.json").switches


@pytest.fixture(scope="module")
def pod_out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("pod") / "out"
    assert run("generate", str(ROOT / "examples/pod-small.yaml"), "-o", str(out)).exit_code == 0
    return out


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        ("NaN", "cable_m: Input should be a finite number"),
        ("Infinity", "cable_m: Input should be a finite number"),
        ("-4", "cable_m: Input should be greater than 0"),
    ],
)
def test_fabric_json_figures_have_the_intents_bounds(
    pod_out: Path, tmp_path: Path, value: str, reason: str
) -> None:
    """A hand-edited cable length once reached the headroom arithmetic: NaN and Infinity as a
    ValueError/OverflowError traceback, a negative length as a silently wrong check."""
    folder = tmp_path / "fabric"
    folder.mkdir()
    for p in pod_out.glob("*.cfg"):
        (folder / p.name).write_bytes(p.read_bytes())
    text = (pod_out / "fabric.json").read_text()
    (folder / "fabric.json").write_text(text.replace('"cable_m": 30.0', f'"cable_m": {value}', 1))
    for command in ("lint", "deadlock"):
        result = run(command, str(folder))
        assert result.exit_code == 2, result.output
        assert reason in result.stderr and "fabric.json" in result.stderr


def test_fabric_json_addresses_read_fast_are_what_ipaddress_reads(pod_out: Path) -> None:
    data = json.loads((pod_out / "fabric.json").read_text())
    fabric = load_fabric(pod_out / "fabric.json")
    assert fabric.links and fabric.nics and fabric.rails
    for raw, link in zip(data["links"], fabric.links, strict=True):
        for key in ("a_ip", "b_ip"):
            assert (
                getattr(link, key) == IPv4Interface(raw[key])
                and str(getattr(link, key)) == raw[key]
            )
    for raw, nic in zip(data["nics"], fabric.nics, strict=True):
        assert (nic.ip, nic.gateway) == (IPv4Interface(raw["ip"]), IPv4Address(raw["gateway"]))
        assert type(nic.gateway) is IPv4Address
    for raw, rail in zip(data["rails"], fabric.rails, strict=True):
        assert rail.gateway == IPv4Address(raw["gateway"])


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("a_ip", "10.0.0.300/31"),
        ("a_ip", "010.0.0.1/31"),
        ("ip", "10.1.1.1/33"),
        ("gateway", "10.1.1.256"),
        ("gateway", "10.1.1.1/24"),
        ("loopback", "1.2.3/32"),
    ],
)
def test_a_bad_address_in_fabric_json_is_refused(
    pod_out: Path, tmp_path: Path, key: str, value: str
) -> None:
    text = (pod_out / "fabric.json").read_text()
    edited, n = re.subn(rf'"{key}": "[^"]*"', f'"{key}": "{value}"', text, count=1)
    assert n == 1
    (tmp_path / "fabric.json").write_text(edited)
    with pytest.raises(InputError, match=key):
        load_fabric(tmp_path / "fabric.json")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
def test_a_fabric_json_that_is_not_a_regular_file_is_refused_not_waited_on(
    pod_out: Path, tmp_path: Path
) -> None:
    folder = tmp_path / "fabric"
    folder.mkdir()
    (folder / "leaf-1.cfg").write_bytes((pod_out / "leaf-1.cfg").read_bytes())
    os.mkfifo(folder / "fabric.json")  # no writer: reading it would block forever
    for command in ("lint", "deadlock", "report"):
        args = [command, str(folder)] + (
            ["-o", str(tmp_path / "r.html")] if command == "report" else []
        )
        result = run(*args)
        assert result.exit_code == 2, result.output
        assert "not a regular file" in result.stderr


def test_output_never_replaces_what_is_not_a_regular_file(tmp_path: Path) -> None:
    """Writing is a temporary file renamed over the target: as root, '--html /dev/full' once
    turned the device node into an HTML file. A FIFO or a symlink is refused the same way."""
    intent = str(ROOT / "examples/deadlock/valley.yaml")
    fifo = tmp_path / "cycle.html"
    os.mkfifo(fifo)
    link = tmp_path / "link.html"
    link.symlink_to(tmp_path / "elsewhere.html")
    for target in (fifo, link):
        result = run("deadlock", intent, "--html", str(target))
        assert result.exit_code == 2, result.output
        assert "not a regular file" in result.stderr
    assert stat.S_ISFIFO(fifo.stat(follow_symlinks=False).st_mode)
    assert link.is_symlink() and not (tmp_path / "elsewhere.html").exists()


def test_a_failed_write_leaves_no_temporary_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from roce_cfg import output

    def refuse(src: str, dst: str) -> None:
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(output.os, "replace", refuse)
    target = tmp_path / "report.html"
    with pytest.raises(InputError, match="Operation not permitted"):
        output.write_file(target, "<html></html>")
    assert list(tmp_path.iterdir()) == []


def _overlay(tmp_path: Path, area: str, name: str, text: str) -> Path:
    folder = tmp_path / "overlay" / "templates" / "h3c" / area
    folder.mkdir(parents=True)
    base = ROOT / "templates" / "h3c" / area / name
    (folder / name).write_text((base.read_text() if area == "sections" else "") + text)
    return tmp_path / "overlay"


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("{{ 1/0 }}\n", "pfc.port.j2:"),  # was a ZeroDivisionError traceback
        ("{{ 5|units(0) }}\n", "ZeroDivisionError"),
        ("{{ iface.nosuch }}\n", "nosuch"),
        ("{{ cycler.__init__.__globals__.os.getcwd() }}\n", "unsafe"),  # ran Python before
        ("{{ section('pfc.port', iface) }}\n", "endlessly"),  # was a RecursionError
    ],
)
def test_an_overlay_template_fails_as_one_line_and_writes_nothing(
    tmp_path: Path, text: str, says: str
) -> None:
    overlay = _overlay(tmp_path, "sections", "pfc.port.j2", text)
    out = tmp_path / "out"
    intent = str(ROOT / "examples/pod-small.yaml")
    result = run("generate", intent, "-o", str(out), "--vendor-dir", str(overlay))
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert lines[-1].startswith("roce-cfg: error: template error") and says in lines[-1], lines
    assert not out.exists()


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ('<group name="system"\n', "cannot load the parse template: ParseError"),
        ("", "cannot load the parse template"),
        (
            '<macro>\ndef boom(data):\n    return 1/0\n</macro>\n<group name="system">\n'
            'sysname {{ hostname | macro("boom") }}\n</group>\n',
            "parse templates failed: ZeroDivisionError",
        ),
    ],
)
def test_an_overlay_parse_template_fails_as_one_line(tmp_path: Path, text: str, says: str) -> None:
    overlay = _overlay(tmp_path, "parse", "system.ttp", text)
    cfg = str(ROOT / "golden/pod-small-h3c/leaf-1.cfg")
    result = run("parse", cfg, "--vendor-dir", str(overlay))
    assert result.exit_code == 2, result.output
    assert says in result.stderr


@pytest.mark.parametrize(
    ("profile", "says"),
    [
        (
            "models:\n  S9855-32D:\n    cell_bytes: 0\n",
            "cell_bytes: Input should be greater than 0",
        ),
        ("headroom_unit_bytes: 0\n", "headroom_unit_bytes"),
        ("headroom:\n  min_packet_bytes: 0\n", "min_packet_bytes"),
        (
            "models:\n  S9855-32D:\n    ports:\n"
            "      - {count: 1000000000000000000, speed: 400, label: '1/0/{n}'}\n",
            "count: Input should be less than or equal to 1024",  # hung generate and plan
        ),
        (
            "models:\n  S9855-32D:\n    ports:\n"
            "      - {count: 32, speed: 400, label: '1/0/{x}'}\n",
            "label",  # was a KeyError
        ),
    ],
)
def test_an_overlay_profile_is_bounded_and_named(tmp_path: Path, profile: str, says: str) -> None:
    """Values no switch has (0-byte cells, 10^18 ports) once divided by zero or hung; an error
    in the merged profile blamed the bundled vendors/h3c.yaml instead of the overlay's file."""
    user = tmp_path / "overlay" / "vendors" / "h3c.yaml"
    user.parent.mkdir(parents=True)
    user.write_text(profile)
    result = run(
        "generate", str(ROOT / "examples/pod-small.yaml"), "-o", str(tmp_path / "out"),
        "--vendor-dir", str(tmp_path / "overlay"),
    )  # fmt: skip
    assert result.exit_code == 2, result.output
    assert f"roce-cfg: error: {user}:" in result.stderr and says in result.stderr
    assert not (tmp_path / "out").exists()


def test_an_overlay_folder_must_exist_and_its_secrets_tables_load_first(tmp_path: Path) -> None:
    """A mistyped --vendor-dir once gave the bundled syntax with exit 0; a malformed secrets
    table in an overlay was read at the first redaction, after 13 files had been written."""
    intent = str(ROOT / "examples/pod-small.yaml")
    out = tmp_path / "out"
    result = run("generate", intent, "-o", str(out), "--vendor-dir", str(tmp_path / "typo"))
    assert (
        result.exit_code == 2
        and "--vendor-dir" in result.stderr
        and "no such folder" in result.stderr
    )
    overlay = tmp_path / "overlay"
    (overlay / "vendors").mkdir(parents=True)
    (overlay / "vendors" / "h3c.secrets.yaml").write_text("x: 1\n")
    result = run("generate", intent, "-o", str(out), "--vendor-dir", str(overlay))
    assert result.exit_code == 2, result.output
    assert "h3c.secrets.yaml: a secrets table is a mapping" in result.stderr
    assert not out.exists()


def test_docs_into_a_folder_with_a_folder_in_a_files_place_change_nothing(tmp_path: Path) -> None:
    """Merging docs moved files in one by one: a folder named spine-4.md stopped it after 14 of
    15 files had replaced what was there."""
    out = tmp_path / "docs"
    (out / "spine-4.md").mkdir(parents=True)
    (out / "index.md").write_text("old\n")
    result = run("docs", str(ROOT / "examples/pod-small.yaml"), "-o", str(out))
    assert result.exit_code == 2, result.output
    assert "spine-4.md: not a regular file; nothing was written" in result.stderr
    assert (out / "index.md").read_text() == "old\n"
    assert sorted(p.name for p in out.iterdir()) == ["index.md", "spine-4.md"]


def test_a_file_name_cannot_drive_the_terminal_or_split_the_line(tmp_path: Path) -> None:
    name = tmp_path / "leaf\x1b[31m-1\n.cfg"
    name.write_bytes(b"\x00\x01binary")
    result = run("parse", str(name))
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "\x1b" not in lines[0], lines
    assert "leaf\\x1b[31m-1\\x0a.cfg" in lines[0]
