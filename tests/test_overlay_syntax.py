"""The overlay path for a vendor's syntax no public source gives (docs/sources.md, "Your own
syntax"): the documented commands on examples/ruijie-overlay, and each claim the doc makes about
what generate, lint, vendors and the lab then enforce."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from roce_cfg.grammar import load_grammar
from roce_cfg.intent.models import Vendor
from roce_cfg.lab.cli import Session, Switch
from roce_cfg.lab.server import Lab
from roce_cfg.platforms.profile import load_profile
from tests.helpers import ROOT, lab_inventory, run

OVERLAY = ROOT / "examples/ruijie-overlay"
INTENT = ROOT / "tests/scenarios/pod-small-ruijie.yaml"
USER, PASSWORD = "netops", "lab-only-secret"


def test_the_doc_shows_these_commands() -> None:
    doc = (ROOT / "docs/sources.md").read_text()
    for line in (
        "roce-cfg generate tests/scenarios/pod-small-ruijie.yaml -o out-rj/ --vendor-dir "
        "examples/ruijie-overlay",
        "roce-cfg lint out-rj/ --vendor-dir examples/ruijie-overlay",
        "roce-cfg lab --intent tests/scenarios/pod-small-ruijie.yaml --vendor-dir "
        "examples/ruijie-overlay --inventory-out inv-rj.yaml &",
    ):
        assert line in doc, line


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("rj") / "out-rj"
    result = run("generate", str(INTENT), "-o", str(out), "--vendor-dir", str(OVERLAY))
    assert result.exit_code == 0, result.output
    return out


def test_vendors_counts_the_cited_commands() -> None:
    doc = json.loads(run("vendors", "--vendor-dir", str(OVERLAY), "--format", "json").stdout)
    rows = doc["sections"]
    pfc = next(r for r in rows if r["vendor"] == "ruijie" and r["section"] == "pfc")
    assert pfc["status"] == "user"
    assert pfc["commands"] == {"sourced": 2, "partial": 0, "unsourced": 1}
    grammar = load_grammar("ruijie", OVERLAY)
    assert grammar.sources["MY-RGOS-CR"].startswith("RG-S6510")
    assert "priority-flow-control enable" not in {c.name for c in grammar.commands}


def test_generate_renders_the_overlay_and_checks_it(generated: Path, tmp_path: Path) -> None:
    text = (generated / "leaf-1.cfg").read_text()
    assert " example-pfc enable\n" in text and " example-pfc no-drop 3\n" in text
    assert "priority-flow-control enable" not in text
    # a removed guess that a template still renders is refused, naming the line
    broken = tmp_path / "broken"
    (broken / "vendors").mkdir(parents=True)
    (broken / "vendors/ruijie.grammar.yaml").write_text(
        (OVERLAY / "vendors/ruijie.grammar.yaml").read_text()
    )
    result = run("generate", str(INTENT), "-o", str(tmp_path / "o"), "--vendor-dir", str(broken))
    assert result.exit_code == 2
    assert "'priority-flow-control enable'" in result.stderr and "nothing written" in result.stderr
    assert not (tmp_path / "o").exists()


def test_the_cited_overlay_turns_its_sections_warning_off(tmp_path: Path) -> None:
    """Issue 33 item 7: without a source Ruijie's PFC is warned about on every run; with the
    overlay (its own templates, each command cited) that warning is gone and the sections the
    overlay does not cover are still warned about."""
    plain = run("generate", str(INTENT), "-o", str(tmp_path / "plain"))
    cited = run(
        "generate", str(INTENT), "-o", str(tmp_path / "cited"), "--vendor-dir", str(OVERLAY)
    )
    assert plain.exit_code == 0 and cited.exit_code == 0, cited.output
    assert "ruijie pfc: unverified syntax" in plain.stderr
    assert "ruijie pfc: unverified syntax" not in cited.stderr
    assert "ruijie ecn: unverified syntax" in cited.stderr  # not covered by the overlay


def test_lint_reads_the_overlay_and_cannot_verify_without_it(generated: Path) -> None:
    with_overlay = run("lint", str(generated), "--vendor-dir", str(OVERLAY))
    assert with_overlay.exit_code == 0, with_overlay.output
    assert "0 errors," in with_overlay.stdout
    # the lines the overlay cites are confirmed; the rest of the RGOS lossless policy is not
    # (RC126, one warning a switch), nor the unit RGOS counts headroom in (RC204); nothing else
    # is left unverified
    warnings = [ln for ln in with_overlay.stdout.splitlines() if ln.lstrip().startswith("warning")]
    assert {ln.split()[1] for ln in warnings} == {"RC126", "RC204"}, warnings
    unconfirmed = [ln for ln in warnings if " RC126 " in ln]
    assert not any("example-pfc" in ln for ln in unconfirmed)
    assert "ecn enable" in unconfirmed[0]
    without = run("lint", str(generated))
    # without its parse templates the overlay's PFC lines are not read: a warning names them
    # and no rule concludes the RoCE priority is lossy from lines it did not read
    assert without.exit_code == 0, without.output
    assert "RC405" in without.stdout and "section 'lossless'" in without.stdout
    assert "RC109 line" not in without.stdout
    strict = run("lint", str(generated), "--require-verified")
    assert strict.exit_code == 1


def test_the_lab_accepts_the_overlay_and_refuses_what_it_removed() -> None:
    profile = load_profile(Vendor.RUIJIE, OVERLAY)
    for strict in (False, True):
        s = Session(Switch.start("sw", profile, unsourced=not strict, overlay=OVERLAY))
        for line in ("configure terminal", "interface FourHundredGigabitEthernet 0/1"):
            assert "%" not in s.feed(line)
        assert "%" not in s.feed("example-pfc enable")
        assert "%" not in s.feed("example-pfc no-drop 3")
        assert "% Invalid input" in s.feed("example-pfc no-drop 9")  # the range you gave
        refused = s.feed("priority-flow-control enable")
        assert "% Invalid input" in refused and "roce-cfg lab: wrong parameter" in refused
        assert "%" not in s.feed("no example-pfc no-drop 3")  # your undo form
        assert "example-pfc no-drop" not in s.sw.running.render()
        # what the overlay does not cover is accepted only outside --strict-syntax
        assert ("%" in s.feed("mls qos trust dscp")) is strict
    # the bundled grammar knows none of it
    plain = Session(Switch.start("sw", load_profile(Vendor.RUIJIE)))
    plain.feed("configure terminal")
    plain.feed("interface FourHundredGigabitEthernet 0/1")
    assert "% Unknown command." in plain.feed("example-pfc enable")


def test_push_into_the_overlay_lab_converges(
    generated: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    profile = load_profile(Vendor.RUIJIE, OVERLAY)
    configs = tmp_path / "one"
    configs.mkdir()
    (configs / "leaf-1.cfg").write_text((generated / "leaf-1.cfg").read_text())
    sw = Switch.start("leaf-1", profile, model="generic-32x400G", overlay=OVERLAY)
    monkeypatch.setenv("ROCE_CFG_USERNAME", USER)
    monkeypatch.setenv("ROCE_CFG_PASSWORD", PASSWORD)
    with Lab([sw], USER, PASSWORD) as lab:
        port = lab.endpoints["leaf-1"].port
        inventory = lab_inventory(tmp_path / "inv-rj.yaml", port, "ruijie")
        args = ("push", str(configs), "-i", str(inventory), "--vendor-dir", str(OVERLAY))
        applied = run(*args, "--apply")
        assert applied.exit_code == 0, applied.output
        assert " example-pfc no-drop 3" in sw.running.render()
        again = run(*args)
        assert again.exit_code == 0 and "no changes" in again.stdout
