"""Names from input never leave their folder (issue 27, causes 1, 2 and 10): the mapping of a
name to a file name as a property over hostile names, and every command that reads or writes a
file by a name it was given: docs, report, generate, push, lab, the generate-diff hook."""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import unquote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from roce_cfg.errors import InputError
from roce_cfg.safepath import MAX_FILE_NAME, file_name, file_names, inside, plain
from tests.helpers import ROOT, examples, run

HOSTILE = [
    "..", ".", "...", "../../../esc", "/etc/passwd", "/", "a/b", "a\\b", "..\\..\\x", "a\x00b",
    "CON", "con", "nul", "NUL.md", "COM1", "lpt9.txt", "CONIN$", "aux.", "x" * 10_000,
    "leaf\uff0f1", "..\uff0f..\uff0fx", "\u2215etc\u2215x", "\u2044x", "\u29f8x", "\uff3cx",
    ".hidden", "a.", "a ", " ", "%2F", "%2E%2E", "\u202eevil", "\ufeffx", "C:\\x", "C:x",
    "~root", "$HOME", "x\ny", "e\u0301", "\u00e9", "Leaf-1", "leaf-1", "\ud800",
]  # fmt: skip
NAMES = st.one_of(st.sampled_from(HOSTILE), st.text(min_size=1, max_size=300))
KEEP = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-%")


@settings(max_examples=examples(500), deadline=None)
@given(name=NAMES, suffix=st.sampled_from(["", ".md", ".cfg", ".json"]))
def test_a_name_maps_to_one_plain_file_name_or_a_clear_refusal(name: str, suffix: str) -> None:
    try:
        mapped = file_name(name, suffix, what="hostname")
    except InputError as exc:
        escaped = sum(1 if c in KEEP else 3 * len(c.encode("utf-8", "surrogatepass")) for c in name)
        assert not name or escaped + len(suffix) + 6 > MAX_FILE_NAME, name
        assert "\n" not in str(exc) and "hostname" in str(exc)
        return
    assert plain(mapped) and set(mapped) <= KEEP and len(mapped) <= MAX_FILE_NAME
    assert not mapped.startswith(".") and not mapped.endswith(".")
    assert mapped.split(".")[0].upper() not in {"CON", "NUL", "AUX", "PRN", "COM1", "LPT9"}
    # %XX of every other UTF-8 byte: the name comes back, so two names never share a file
    assert unquote(mapped[: len(mapped) - len(suffix)], errors="surrogatepass") == name


@settings(max_examples=examples(300), deadline=None, suppress_health_check=list(HealthCheck))
@given(name=NAMES)
def test_inside_never_gives_a_path_outside_its_folder(tmp_path: Path, name: str) -> None:
    folder = tmp_path / "out"
    folder.mkdir(exist_ok=True)
    try:
        path = inside(folder, name)
    except InputError as exc:
        assert "\n" not in str(exc)
        return
    assert path.resolve().parent == folder.resolve()


def test_a_link_out_of_the_folder_is_refused(tmp_path: Path) -> None:
    (tmp_path / "secret.cfg").write_text("x")
    (tmp_path / "out").mkdir()
    os.symlink(tmp_path / "secret.cfg", tmp_path / "out" / "leaf-1.cfg")
    with pytest.raises(InputError, match="leads outside"):
        inside(tmp_path / "out", "leaf-1.cfg")
    assert inside(tmp_path / "out", "leaf-2.cfg") == tmp_path / "out" / "leaf-2.cfg"


def test_names_that_collide_after_mapping_are_an_error_not_an_overwrite() -> None:
    with pytest.raises(InputError, match="'leaf-1' and 'Leaf-1' would both be written"):
        file_names(["Leaf-1", "leaf-1"], ".md", what="hostname")
    with pytest.raises(InputError, match=r"'INDEX' and index\.md"):
        file_names(["INDEX"], ".md", what="hostname", taken=["index.md"])
    assert file_names(["a/b", "a%2Fb"], ".md") == {"a/b": "a%2Fb.md", "a%2Fb": "a%252Fb.md"}


# -- every command that reads or writes by a name ------------------------------------------

H3C = (ROOT / "examples" / "backups" / "h3c" / "leaf-9.cfg").read_text()
# a sysname is one word on the switch: names with blanks cannot come from a config
WORDS = [n for n in HOSTILE if n.split() == [n] and "\x00" not in n and "\ud800" not in n]


def _files(root: Path) -> set[Path]:
    return {p for p in root.rglob("*") if p.is_file() or p.is_symlink()}


@settings(max_examples=len(WORDS), deadline=None, suppress_health_check=list(HealthCheck))
@given(sysname=st.sampled_from(WORDS))
def test_docs_pages_named_by_hostile_sysnames_stay_in_the_output(
    tmp_path_factory: pytest.TempPathFactory, sysname: str
) -> None:
    """`sysname ../../../esc-docs` wrote esc-docs.md three folders above -o, exit 0."""
    root = tmp_path_factory.mktemp("docs")
    work = root / "a" / "b" / "c"
    (work / "cfg").mkdir(parents=True)
    (work / "cfg" / "leaf-9.cfg").write_text(H3C.replace(" sysname leaf-9", f" sysname {sysname}"))
    before = _files(root)
    result = run("docs", str(work / "cfg"), "-o", str(work / "out"))
    assert result.exit_code in (0, 2), result.output
    assert "Traceback" not in result.output
    written = _files(root) - before
    assert all(p.parent == work / "out" for p in written), written
    if result.exit_code == 0:
        assert len(written) == 3, written  # index.md, cabling.csv and the switch's page
    else:
        assert not written and len(result.stderr.strip().splitlines()) == 1


def test_docs_links_to_a_mapped_page_by_its_file_name(tmp_path: Path) -> None:
    (tmp_path / "cfg").mkdir()
    (tmp_path / "cfg" / "x.cfg").write_text(H3C.replace(" sysname leaf-9", " sysname ../../x"))
    assert run("docs", str(tmp_path / "cfg"), "-o", str(tmp_path / "out")).exit_code == 0
    page = "%2E.%2F..%2Fx.md"
    assert (tmp_path / "out" / page).is_file()
    # the link's target is the file name, %-escaped again so a reader does not decode it
    assert "(%252E.%252F..%252Fx.md)" in (tmp_path / "out" / "index.md").read_text()


def test_docs_refuses_a_switch_whose_page_would_be_the_index(tmp_path: Path) -> None:
    (tmp_path / "cfg").mkdir()
    (tmp_path / "cfg" / "x.cfg").write_text(H3C.replace(" sysname leaf-9", " sysname INDEX"))
    result = run("docs", str(tmp_path / "cfg"), "-o", str(tmp_path / "out"))
    assert result.exit_code == 2 and "would both be written as INDEX.md" in result.stderr
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("host", ["../x", "../../x", "/ABS/x", "..", "sub/../../x", "x\x00y"])
def test_push_never_takes_an_intended_config_from_outside_the_configs_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, host: str
) -> None:
    """An inventory host named '../../x' or '/abs/x' made push read that file as the switch's
    intended config (and with --apply push it)."""
    configs = tmp_path / "a" / "cfgs"
    configs.mkdir(parents=True)
    host = host.replace("/ABS", str(tmp_path))
    for escape in (configs / f"{host}.cfg", tmp_path / "x.cfg"):
        if "\x00" not in host:
            escape.parent.mkdir(parents=True, exist_ok=True)
            escape.write_text(H3C)
    inventory = tmp_path / "inv.yaml"
    inventory.write_text(
        f'hosts:\n  "{host.replace(chr(0), "")}": '
        "{hostname: 127.0.0.1, port: 9, data: {vendor: h3c}}\n"
    )
    monkeypatch.setenv("ROCE_CFG_USERNAME", "netops")
    monkeypatch.setenv("ROCE_CFG_PASSWORD", "not-used")
    result = run("push", str(configs), "-i", str(inventory))
    assert result.exit_code == 2, result.output
    assert "no intended config" in result.stderr or "not a file name" in result.stderr


def test_push_refuses_a_config_that_links_out_of_the_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    configs = tmp_path / "cfgs"
    configs.mkdir()
    (tmp_path / "elsewhere.cfg").write_text(H3C)
    os.symlink(tmp_path / "elsewhere.cfg", configs / "leaf-1.cfg")
    inventory = tmp_path / "inv.yaml"
    inventory.write_text("hosts:\n  leaf-1: {hostname: 127.0.0.1, port: 9, data: {vendor: h3c}}\n")
    monkeypatch.setenv("ROCE_CFG_USERNAME", "netops")
    monkeypatch.setenv("ROCE_CFG_PASSWORD", "not-used")
    result = run("push", str(configs), "-i", str(inventory))
    assert result.exit_code == 2 and "leads outside" in result.stderr, result.output


def test_push_does_not_print_nornirs_private_temporary_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """An empty hosts section made nornir warn about '/tmp/roce-cfg-inv-xxxx/hosts.yaml' (a
    warning nobody configured a handler for goes to stderr; here pytest's handler holds it)."""
    from roce_cfg.deploy.inventory import _nornir_inventory

    inventory = tmp_path / "inv.yaml"
    inventory.write_text("hosts: {}\n")
    monkeypatch.setenv("ROCE_CFG_USERNAME", "netops")
    monkeypatch.setenv("ROCE_CFG_PASSWORD", "not-used")
    with caplog.at_level("WARNING"):
        result = run("push", str(tmp_path), "-i", str(inventory))
        _nornir_inventory({"hosts": {}})  # past the check: nornir's own warning is dropped too
    assert result.exit_code == 2
    assert result.stderr.strip() == f"roce-cfg: error: {inventory}: no hosts"
    assert not [r for r in caplog.records if "roce-cfg-inv-" in r.getMessage()]


def test_output_refuses_a_file_name_that_leaves_the_folder_or_repeats(tmp_path: Path) -> None:
    from roce_cfg.output import write_all

    for files in ({"../x.cfg": "x"}, {"/tmp/x.cfg": "x"}, {"..": "x"}, {"a\x00": "x"}):
        with pytest.raises(InputError, match="not a file name"):
            write_all(tmp_path / "out", files)
    from roce_cfg.output import staged

    with pytest.raises(InputError, match="two files named"), staged(tmp_path / "out") as put:
        put("Leaf-1.cfg", "a")
        put("leaf-1.cfg", "b")
    assert not (tmp_path / "out").exists() and list(tmp_path.iterdir()) == []


def test_lab_start_reads_saved_configs_only_inside_the_folder(tmp_path: Path) -> None:
    pytest.importorskip("asyncssh")
    from roce_cfg.lab.run import switches

    saved = tmp_path / "saved"
    saved.mkdir()
    (tmp_path / "switch-1.cfg").write_text(H3C)
    os.symlink(tmp_path / "switch-1.cfg", saved / "switch-1.cfg")
    with pytest.raises(InputError, match="leads outside"):
        switches(ROOT / "examples" / "single-switch.yaml", str(saved))


def test_the_generate_diff_hook_keeps_to_its_configs_folder(tmp_path: Path) -> None:
    from roce_cfg.hooks import main

    intent = tmp_path / "...yaml"  # its stem is '..'
    intent.write_text((ROOT / "examples" / "single-switch.yaml").read_text())
    assert main(["--configs", str(tmp_path / "configs"), str(intent)]) == 2


def test_report_and_generate_write_only_where_they_are_told(tmp_path: Path) -> None:
    (tmp_path / "cfg").mkdir()
    (tmp_path / "cfg" / "x.cfg").write_text(H3C.replace(" sysname leaf-9", " sysname ../../r"))
    before = _files(tmp_path)
    assert run("report", str(tmp_path / "cfg"), "-o", str(tmp_path / "r.html")).exit_code == 0
    assert _files(tmp_path) - before == {tmp_path / "r.html"}
    out = tmp_path / "gen"
    intent = ROOT / "examples" / "single-switch.yaml"
    assert run("generate", str(intent), "-o", str(out)).exit_code == 0
    assert all(p.parent == out for p in _files(tmp_path) - before - {tmp_path / "r.html"})
