"""The evidence gate as a property: garble or delete any one line of a generated fabric that bears
on losslessness, and every finding that changes is the planted fault or a 'cannot verify' that
names that line, never another claim (roce_cfg/gate.py).

A garbled line (an unknown trailing word, a misspelt keyword, a word where a number was) is one
the parse cannot read: the rules that read its section must conclude nothing there, and RC405
(or RC119 for a refused value) must name it. A deleted line is a real change of the config: what
changes must be about the switch it was deleted from (or a link end facing it), never a
'cannot verify' of some other line.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from roce_cfg.analysis import Finding, lint
from roce_cfg.errors import InputError
from roce_cfg.parse import line_sections
from roce_cfg.parse.lossless import LOSSLESS_SECTIONS
from tests.helpers import examples

ROOT = Path(__file__).resolve().parent.parent
VENDORS = ("h3c", "huawei", "ruijie", "zte")
# 'cannot verify' findings a changed line may add without naming it: a link or session the
# evidence step no longer finds (its ends are named, not the line that made it), the per-file
# line count, and the per-switch notes whose counts move with a port or a line (RC206: cables
# not stated; RC204: headroom resting on a default or cell size no source gives; RC126: lines
# read in a syntax no source confirms, a garbled one no longer among them)
ALLOWED_UNNAMED = frozenset(
    {"RC311", "RC312", "RC313", "RC314", "RC404", "RC206", "RC204", "RC126"}
)
NAMING = frozenset({"RC405", "RC119"})


def _fabric(vendor: str) -> dict[str, str]:
    folder = ROOT / f"golden/pod-small-{vendor}"
    return {p.name: p.read_text() for p in sorted(folder.glob("*.cfg"))}


FABRICS = {v: _fabric(v) for v in VENDORS}


def _lossless_lines(text: str) -> list[int]:
    return [
        no
        for no, (status, section) in sorted(line_sections(text).items())
        if status == "understood" and section in LOSSLESS_SECTIONS
    ]


LINES = {v: {name: _lossless_lines(t) for name, t in FABRICS[v].items()} for v in VENDORS}


def _lint(folder: Path, files: dict[str, str]) -> list[Finding]:
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    for name, text in files.items():
        (folder / name).write_text(text)
    return lint([folder]).findings


def _key(f: Finding) -> tuple[str, str, str | None, str | None, str]:
    return (f.rule, f.device, f.port, f.related_device, f.message)


BASELINE: dict[str, set[tuple[str, str, str | None, str | None, str]]] = {}


def _baseline(vendor: str, tmp: Path) -> set[tuple[str, str, str | None, str | None, str]]:
    if vendor not in BASELINE:
        BASELINE[vendor] = {_key(f) for f in _lint(tmp / "base", FABRICS[vendor])}
    return BASELINE[vendor]


def _garbled(line: str, how: int) -> str:
    """The line as a switch would refuse it (or roce-cfg cannot read it)."""
    body = line.rstrip("\r\n")
    indent = body[: len(body) - len(body.lstrip())]
    words = body.split()
    if how == 0:
        return f"{body} zqx"
    if how == 1:
        return f"{indent}zqx{words[0]} {' '.join(words[1:])}".rstrip()
    numbered = [i for i, w in enumerate(words) if re.fullmatch(r"\d+", w)]
    if not numbered:
        return f"{body} zqx"
    words[numbered[-1]] = "zqx"
    return indent + " ".join(words)


def _block(lines: list[str], at: int) -> range:
    """The garbled line and the lines under it (deeper indented, up to the next line that is
    not): they go with an unread header."""

    def indent(text: str) -> int:
        return len(text) - len(text.lstrip())

    end = at
    while end < len(lines) and lines[end].strip() and indent(lines[end]) > indent(lines[at - 1]):
        end += 1
    return range(at, end + 1)


def _names_line(f: Finding, block: range) -> bool:
    """Whether a finding names the garbled line (or, for a header, lines under it)."""
    if f.line == block.start:
        return True
    listed = re.search(r"\(lines ([\d, ]+)", f.message)
    named = [int(n) for n in re.findall(r"\d+", listed[1])] if listed else []
    return bool(named) and (block.start in named or all(n in block for n in named))


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("gate")


def _mutation(draw: st.DrawFn) -> tuple[str, str, int, int]:
    vendor = draw(st.sampled_from(VENDORS))
    name = draw(st.sampled_from(sorted(n for n, lines in LINES[vendor].items() if lines)))
    line = draw(st.sampled_from(LINES[vendor][name]))
    how = draw(st.integers(0, 3))  # 3: delete
    return vendor, name, line, how


mutations = st.composite(_mutation)


@settings(
    max_examples=examples(40),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(mutations())
def test_a_changed_lossless_line_changes_only_what_it_must(
    workdir: Path, case: tuple[str, str, int, int]
) -> None:
    vendor, name, line, how = case
    files = dict(FABRICS[vendor])
    lines = files[name].splitlines(keepends=True)
    device = name.removesuffix(".cfg")
    block = _block(lines, line)
    if how == 3:
        del lines[line - 1]
    else:
        lines[line - 1] = _garbled(lines[line - 1], how) + "\n"
    files[name] = "".join(lines)
    before = _baseline(vendor, workdir)
    after = _lint(workdir / "case", files)
    new = [f for f in after if _key(f) not in before]
    gone = before - {_key(f) for f in after}
    # a garbled line the parse still reads (free text, a word the reader does not need) is a
    # change of the config, judged as a deletion is
    still_read = how != 3 and line_sections(files[name]).get(line, ("",))[0] == "understood"
    if how == 3 or still_read:
        stray = [
            f
            for f in new
            if f.rule not in ALLOWED_UNNAMED and device not in (f.device, f.related_device)
        ]
        stray += [f for f in new if f.rule in NAMING and not _names_line(f, block)]
    else:
        named = [
            f for f in new if f.device == device and f.rule in NAMING and _names_line(f, block)
        ]
        stray = [f for f in new if f.rule not in ALLOWED_UNNAMED and f not in named]
        # a finding that went silent went silent because of the unread line, which says so
        assert named or not gone, f"{name}:{line} garbled, {len(gone)} findings gone unnamed"
    what = "deleted" if how == 3 else "garbled"
    assert not stray, f"{vendor} {name}:{line} ({what}): {[_key(f) for f in stray]}"


# --- the deadlock verdict: a garbled line never turns a cycle into "no cycle", exit 0 ---
VALLEY = (ROOT / "examples/deadlock/valley.yaml").read_text()
MODELS = {"h3c": "S9855-32D", "huawei": "CE9860-4C-EI", "ruijie": "generic-32x400G",
          "zte": "generic-32x400G"}  # fmt: skip
FAILED = "leaf-1:spine-1,leaf-2:spine-2"


def _valley(vendor: str, tmp: Path) -> dict[str, str]:
    from roce_cfg.generate import generate

    text = VALLEY.replace("{vendor: h3c, model: S9855-32D}", f"{{vendor: {vendor}, model: "
                          f"{MODELS[vendor]}}}")  # fmt: skip
    source = tmp / f"valley-{vendor}.yaml"
    source.write_text(text)
    return {f"{h}.cfg": t for h, t in generate(source).configs.items()}


def _deadlock_verdict(folder: Path) -> tuple[int, set[str]]:
    """Cycles after the two failures, and the switches the verdict could not verify."""
    from roce_cfg.analysis.rules_deadlock import deadlock_findings
    from roce_cfg.deadlock import load
    from roce_cfg.deadlock.run import Failures, run

    src = load(folder)
    result = deadlock_findings(src, run(src, Failures(fail_links=FAILED)))
    cycles = sum(1 for f in result.findings if f.rule in ("RC501", "RC502"))
    return cycles, {f.device for f in result.findings if f.rule == "RC503"}


VALLEYS: dict[str, dict[str, str]] = {}


def _valley_case(draw: st.DrawFn) -> tuple[str, str, int, int]:
    vendor = draw(st.sampled_from(VENDORS))
    name = draw(st.sampled_from(["spine-1.cfg", "spine-2.cfg", "leaf-3.cfg", "leaf-4.cfg"]))
    return vendor, name, draw(st.integers(0, 10_000)), draw(st.integers(0, 2))


@settings(
    max_examples=examples(12),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(st.composite(_valley_case)())
@example(("huawei", "spine-1.cfg", 247, 0))  # a port of a link the run fails
def test_a_garbled_line_never_hides_a_deadlock_cycle(
    workdir: Path, case: tuple[str, str, int, int]
) -> None:
    vendor, name, pick, how = case
    if vendor not in VALLEYS:
        VALLEYS[vendor] = _valley(vendor, workdir)
    files = dict(VALLEYS[vendor])
    lossless = _lossless_lines(files[name])
    line = lossless[pick % len(lossless)]
    lines = files[name].splitlines(keepends=True)
    lines[line - 1] = _garbled(lines[line - 1], how) + "\n"
    base = workdir / f"valley-{vendor}"
    if not base.exists():
        _lint(base, VALLEYS[vendor])
    before, _ = _deadlock_verdict(base)
    assert before == 2, "the valley opens two cycles after the two failures"
    _lint(workdir / "garbled", {**files, name: "".join(lines)})
    try:
        after, unverified = _deadlock_verdict(workdir / "garbled")
    except InputError as exc:
        # the garbled line was the port of a link the run fails: the run is refused (exit 2),
        # which claims nothing either
        switch = name.removesuffix(".cfg")
        assert "no fabric link" in str(exc) and switch in FAILED, (vendor, name, line, how)
        return
    # the same cycles, or the switch whose line was garbled named as unverified (exit 1)
    assert after == before or name.removesuffix(".cfg") in unverified, (vendor, name, line, how)
