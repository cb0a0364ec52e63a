"""No secret reaches an output when its line is folded at 80 columns.

ZTE's CLI folds a long line at 80 columns itself (shared/vendor-reference.md 4.3, [ZTE-OLT]); no
source shows Comware, VRP or RGOS folding saved output, but a config copied from an 80-column
terminal window is folded the same way: the line cut every 80 characters, each piece on a line
of its own from column 0. The property takes every planted-secrets fixture
(tests/data/secrets/<vendor>.cfg), makes each planted secret a fresh token of a drawn length,
shifts it along its line by blanks drawn between earlier words (so the fold falls anywhere: in
the keyword, between keyword and secret, in the secret; never inside the run of blanks drawn,
which no config has), folds every line of the file at 80
columns and finds no piece of any token (four characters or more) in parse's JSON, YAML and
-v output, the docs switch page, or a push plan (text and JSON) against an emulated switch
running the folded config.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from roce_cfg.vendor import Vendor
from tests.helpers import ROOT, run

DATA = ROOT / "tests" / "data" / "secrets"
VENDORS = list(Vendor)
IDS = [v.value for v in VENDORS]
WIDTH = 80
# Tokens of letters no output prints in capitals, so any four of them in a row are a leak.
ALPHABET = "QZXJKW"
_PLANTED = re.compile(r"PLANTED[\w-]*")


def fold(text: str, width: int = WIDTH) -> str:
    """Every line cut every ``width`` characters, the pieces at column 0 (as ZTE's CLI and an
    80-column terminal capture print a long line)."""
    out = []
    for line in text.split("\n"):
        while len(line) > width:
            out.append(line[:width])
            line = line[width:]
        out.append(line)
    return "\n".join(out)


@st.composite
def planted(draw: st.DrawFn, text: str) -> tuple[str, list[str]]:
    """The fixture with every planted secret a fresh token, each secret line shifted by blanks
    drawn into one of the gaps before its first secret; and the tokens."""
    tokens: list[str] = []
    lines = []
    for line in text.split("\n"):
        if "PLANTED" not in line:
            lines.append(line)
            continue

        def fresh(_: re.Match[str]) -> str:
            token = "PLANTED" + draw(st.text(ALPHABET, min_size=4, max_size=70))
            tokens.append(token)
            return token

        line = _PLANTED.sub(fresh, line)
        indent = len(line) - len(line.lstrip(" "))
        gaps = [m.start() for m in re.finditer(" ", line[: line.index("PLANTED")])][indent:]
        if gaps:
            at = draw(st.sampled_from(gaps))
            extra = draw(st.integers(0, WIDTH))
            # A fold inside the run of blanks drawn (which no config has) would leave a line
            # of blanks the reader strips: the run ends a blank before the fold instead.
            for cut in range(WIDTH, len(line) + extra + 1, WIDTH):
                if at < cut <= at + extra + 2:
                    extra = max(0, cut - at - 3)
            line = line[:at] + " " * extra + line[at:]
        lines.append(line)
    return "\n".join(lines), tokens


def _pieces(tokens: list[str]) -> set[str]:
    return {t[i : i + 4] for t in tokens for i in range(len(t) - 3)}


def _leaks(outputs: dict[str, str], tokens: list[str]) -> dict[str, list[str]]:
    pieces = _pieces(tokens)
    return {
        where: sorted({p for p in pieces if p in out})[:5]
        for where, out in outputs.items()
        if any(p in out for p in pieces)
    }


def test_the_fold_cuts_every_long_line_and_the_pieces_make_it_again() -> None:
    line = "x" * 200
    assert fold(line).split("\n") == ["x" * 80, "x" * 80, "x" * 40]
    assert fold(line).replace("\n", "") == line


def test_a_fold_after_a_line_glued_to_the_next_command_hides_no_secret(tmp_path: Path) -> None:
    """Found by the property below (8 December 2026): a fold's last piece that fills the width
    with no blank to end it ('...JJJ') reads as glued to the next line's command, which ZTE's
    unwrap joins to it; that joined line is no fold's first part, so the community the next
    fold carried ('PLANTEDJJJJ udp-port 162', a line of its own) passes into parse's unread
    lines."""
    user = " " * 53 + "user nms grp v3 encrypted auth sha PLANTED" + "J" * 14 + " "
    host = " " * 38 + "host 10.9.9.9 trap version 2c PLANTEDJJJJ udp-port 162"
    lines = (DATA / "zte.cfg").read_text().split("\n")
    for k, line in enumerate(lines):
        if line.startswith("snmp-server user "):
            lines[k] = f"snmp-server {user}priv aes128 PLANTED{'J' * 19}"
        elif line.startswith("snmp-server host 10.9.9.9 "):
            lines[k] = f"snmp-server {host}"
    # every planted secret a token of letters no output prints (as the property's), its length
    text = _PLANTED.sub(lambda m: "PLANTED" + "Q" * (len(m[0]) - 7), "\n".join(lines))
    folded = fold(text)
    assert re.search(r"\S\nsnmp-server {39}host", folded)  # the glued break, as found
    (tmp_path / "leaf-1.cfg").write_text(folded)
    tokens = _PLANTED.findall(text)
    outputs = {}
    for fmt in ("json", "yaml"):
        result = run("parse", str(tmp_path), "-v", "--format", fmt)
        outputs[f"parse {fmt}"] = result.stdout + result.stderr
    assert _leaks(outputs, tokens) == {}


def test_a_command_glued_to_a_folds_last_piece_hides_no_secret(tmp_path: Path) -> None:
    """A trap host folded in two, its second piece starting with a blank and filling the
    width: unwrap joins the next command to it ('... udp-port 162snmp-server host 10.9.9.8
    trap X'), where no rule finds X (they start at a word); the command is read on its own
    too."""
    host = "host 10.9.9.9 trap version"  # ends at column 80: the fold falls before ' 2c'
    lines = (DATA / "zte.cfg").read_text().split("\n")
    for k, line in enumerate(lines):
        if line.startswith("snmp-server host 10.9.9.9 "):
            lines[k] = f"snmp-server{' ' * 43}{host} 2c PLANTED{'J' * 56} udp-port 162"
    text = _PLANTED.sub(lambda m: "PLANTED" + "Q" * (len(m[0]) - 7), "\n".join(lines))
    folded = fold(text)
    assert re.search(r"\n 2c PLANTEDQ+ udp-port 162\nsnmp-server host 10.9.9.8 ", folded)
    (tmp_path / "leaf-1.cfg").write_text(folded)
    result = run("parse", str(tmp_path), "-v", "--format", "json")
    assert "162snmp-server host 10.9.9.8 trap <redacted>" in result.stdout
    assert _leaks({"parse": result.stdout + result.stderr}, _PLANTED.findall(text)) == {}


def test_a_fold_inside_a_word_after_a_glued_break_hides_no_secret(tmp_path: Path) -> None:
    """A community line of exactly 80 columns, then an SNMPv3 user folded in three, the first
    fold inside 'encrypted': read from the user's line, the fold must go on past that break
    (a full line glued to the next one too) to the priv key's last piece ('QQQQ'). Found by
    a search of every shift of the two lines (8 December 2026)."""
    token = "PLANTED" + "Q" * 20
    community = f"snmp-server community encrypted{' ' * 19}{token} rw"
    user = f"snmp-server{' ' * 51}user nms grp v3 encrypted auth sha {token} priv aes128 {token}"
    lines = (DATA / "zte.cfg").read_text().split("\n")
    for k, line in enumerate(lines):
        if line.startswith("snmp-server community encrypted "):
            lines[k] = community
        elif line.startswith("snmp-server user "):
            lines[k] = user
    text = _PLANTED.sub(token, "\n".join(lines))
    folded = fold(text)
    assert f"\n{community}\n{user[:80]}\ncrypted auth " in folded and user[78:80] == "en"
    assert f"\n{token[-4:]}\nsnmp-server host " in folded
    (tmp_path / "leaf-1.cfg").write_text(folded)
    result = run("parse", str(tmp_path), "-v", "--format", "json")
    assert _leaks({"parse": result.stdout + result.stderr}, [token]) == {}


ZTE_LEAF = ROOT / "golden" / "pod-small-zte" / "leaf-1.cfg"
_DESCRIPTION = "  description far:server-1:nic0 speed=200G cable=3m"


@pytest.mark.parametrize(
    "lines",
    [
        # a description of one full line ending in a keyword, the port's next command after it
        [("  description " + "y" * 56 + " encrypted")],
        # folded in two, its second piece 78 columns (two blanks the reader stripped)
        [(_DESCRIPTION + " " + "x" * 80)[:80], "y" * 68 + " community"],
    ],
    ids=["one-line", "folded"],
)
def test_a_description_ending_in_a_secret_keyword_keeps_the_next_command(
    lines: list[str],
) -> None:
    """The port's 'mtu 9216' after it is a command of its own, not the secret of a fold: it
    starts with two blanks, a fold with one at most (a switch prints one between words)."""
    from roce_cfg.parse import parse_text

    text = ZTE_LEAF.read_text().replace(_DESCRIPTION, "\n".join(lines), 1)
    assert "\n".join(lines) + "\n  mtu 9216\n" in text
    config = parse_text(text, file="leaf-1.cfg").config
    port = next(p for p in config.device.interfaces if p.name.endswith("0/1/0/1"))
    assert (port.mtu, port.description[-9:], config.unread) == (9216, lines[-1][-9:], ())


def test_a_password_folded_in_three_keeps_its_bgp_block(tmp_path: Path) -> None:
    """A neighbour's 140-character password folded in three: unwrap joins the pieces again
    (a shortened piece would not be, and 'router bgp' lost every neighbour), and no piece of
    the password is printed."""
    line = "  neighbor 10.1.0.0 remote-as 65000"
    password = f"  neighbor 10.1.0.0 password PLANTED{'Q' * 133} extra"
    folded = fold(ZTE_LEAF.read_text().replace(line, f"{line}\n{password}", 1))
    assert f"\n{'Q' * 80}\n{'Q' * 9} extra\n" in folded  # three pieces, the middle one full
    (tmp_path / "leaf-1.cfg").write_text(folded)
    result = run("parse", str(tmp_path), "--format", "json")
    config = json.loads(result.stdout)["configs"][0]
    assert len(config["device"]["bgp"]["neighbors"]) == 8
    assert config["unread"] == []
    assert _leaks({"parse": result.stdout + result.stderr}, [password.split()[3]]) == {}


@pytest.mark.parametrize("vendor", VENDORS, ids=IDS)
@settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_a_folded_secret_reaches_no_parse_or_docs_output(
    vendor: Vendor, data: st.DataObject, tmp_path_factory: pytest.TempPathFactory
) -> None:
    text, tokens = data.draw(planted((DATA / f"{vendor.value}.cfg").read_text()))
    folder = tmp_path_factory.mktemp("configs")
    (folder / "leaf-1.cfg").write_text(fold(text))
    outputs: dict[str, str] = {}
    for fmt in ("json", "yaml"):
        result = run("parse", str(folder), "-v", "--format", fmt)
        outputs[f"parse {fmt}"] = result.stdout + result.stderr
    docs = tmp_path_factory.mktemp("docs") / "out"
    result = run("docs", str(folder), "-o", str(docs))
    assert result.exit_code in (0, 1), result.output
    for page in sorted(docs.iterdir()):
        outputs[f"docs {page.name}"] = page.read_text()
    assert "<redacted>" in outputs["docs leaf-1.md"]
    assert _leaks(outputs, tokens) == {}


@pytest.mark.sample(1)
@pytest.mark.parametrize("vendor", VENDORS, ids=IDS)
@settings(max_examples=2, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_a_folded_secret_reaches_no_push_plan(
    vendor: Vendor,
    data: st.DataObject,
    tmp_path_factory: pytest.TempPathFactory,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from roce_cfg.lab.cli import Switch
    from roce_cfg.lab.server import Lab
    from roce_cfg.platforms.profile import load_profile
    from tests.helpers import lab_inventory

    text, tokens = data.draw(planted((DATA / f"{vendor.value}.cfg").read_text()))
    golden = (ROOT / "golden" / f"pod-small-{vendor.value}" / "leaf-1.cfg").read_text()
    monkeypatch.setenv("ROCE_CFG_USERNAME", "netops")
    monkeypatch.setenv("ROCE_CFG_PASSWORD", "Lab-Pa55-never-printed")
    outputs = {}
    # the switch runs the folded secrets (--prune plans to remove them), then the intended
    # config holds them (a saved backup pushed back: the plan lists them to add)
    for name, running, intended in (
        ("running", fold(text), golden.replace("spine-1", "spine-one")),
        ("intended", golden, fold(text)),
    ):
        tmp = tmp_path_factory.mktemp("push")
        (tmp / "out").mkdir()
        (tmp / "out" / "leaf-1.cfg").write_text(intended)
        sw = Switch.start("leaf-1", load_profile(vendor), running, lenient=True)
        with Lab([sw], "netops", "Lab-Pa55-never-printed") as lab:
            port = lab.endpoints["leaf-1"].port
            inventory = lab_inventory(tmp / "inv.yaml", port, vendor.value)
            for fmt in ("text", "json"):
                args = ("push", str(tmp / "out"), "-i", str(inventory), "--prune", "--diff", "full")
                result = run(*args, "--format", fmt)
                assert result.exit_code == 0, result.output
                outputs[f"push, folded {name}, {fmt}"] = result.stdout + result.stderr
    assert _leaks(outputs, tokens) == {}


def test_the_property_sees_a_leak(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the fold-aware redaction the tails of folded secrets are printed: the check
    above can fail."""
    import roce_cfg.parse.prepared as prepared
    import roce_cfg.redact as redact

    monkeypatch.setattr(prepared, "fold_tails_redacted", lambda lines, *args: lines)
    monkeypatch.setattr(redact, "fold_tails", lambda *args, **kwargs: {})
    line = "snmp-server user nms grp v3 encrypted auth sha PLANTEDQZXJ priv aes128 PLANTEDKWKWKW"
    text = (DATA / "zte.cfg").read_text().replace("hostname leaf-1\n", f"hostname leaf-1\n{line}\n")
    (tmp_path / "leaf-1.cfg").write_text(fold(text))
    result = run("parse", str(tmp_path), "-v", "--format", "json")
    assert _leaks({"parse": result.stdout + result.stderr}, ["PLANTEDKWKWKW"])
