"""Properties of reading the issue-26 corpus: the order of a backup's top-level blocks and lines
roce-cfg leaves alone on purpose change no finding.

A switch prints its blocks in its own order (and a release may print them in another); a backup
job may keep more management lines than the next. Neither changes what the fabric does, so
neither may change a finding: random reorderings of the '#'-separated top-level blocks between a
file's first block (its header) and its last ('return'), and random insertions of lines from the
vendor grammar's known-unmanaged catalogue, leave every finding (rule, device, port, severity)
unchanged. Only RC404, the count of unmanaged lines, moves: by exactly the lines inserted.
"""

from __future__ import annotations

import tempfile
from collections import Counter
from functools import cache
from pathlib import Path

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from roce_cfg.analysis import lint
from roce_cfg.parse import parse_file, read_config
from tests.helpers import ROOT

FABRICS = ROOT / "tests/brownfield/fabrics"
SEP = "\n#\n"
# Lines of each vendor's 'unmanaged' catalogue (vendors/<vendor>.grammar.yaml), as the switch
# prints them: Comware indents global lines one space under '#'.
UNMANAGED = {
    "hw-v300-mlag": [
        "snmp-agent sys-info version v3",
        "info-center loghost 192.0.2.9 vpn-instance mgmt",
        "clock timezone UTC add 00:00:00",
        "ntp unicast-server 192.0.2.1",
        'header login information "authorised use only"',
    ],
    "h3c-lag": [
        " snmp-agent sys-info version v3",
        " ntp-service enable",
        " info-center loghost 192.0.2.9",
        " clock timezone UTC add 00:00:00",
        " ssh server enable",
    ],
}
FILES = {
    # h3c-lag's leaf-4.cfg is binary: not a config to reorder
    fab: sorted(p for p in (FABRICS / fab).glob("*.cfg") if p.read_bytes()[:3] != b"MDB")
    for fab in UNMANAGED
}


def _key(f: object) -> tuple[str, str, str, str]:
    return (f.rule, f.device, f.port or "", f.severity)  # type: ignore[attr-defined]


@cache
def _texts(fabric: str) -> tuple[tuple[str, str], ...]:
    # CRLF (h3c-lag leaf-2) read as LF: the blocks are cut on '#' lines
    return tuple((p.name, read_config(p).replace("\r\n", "\n")) for p in FILES[fabric])


@cache
def _baseline(fabric: str) -> tuple[Counter[tuple[str, str, str, str]], int]:
    return _lint(fabric, {name: text for name, text in _texts(fabric)})


def _lint(fabric: str, texts: dict[str, str]) -> tuple[Counter[tuple[str, str, str, str]], int]:
    """Findings but RC404 (counted), and the unmanaged lines of all files."""
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for name, text in texts.items():
            (Path(tmp) / name).write_text(text, "utf-8")
            paths.append(Path(tmp) / name)
        found = Counter(_key(f) for f in lint(paths).findings if f.rule != "RC404")
        unmanaged = sum(parse_file(p).config.accounting.unmanaged for p in paths)
    return found, unmanaged


# No shrinking: each example lints a whole fabric, and shrinking a 40 kB example took over ten
# minutes; the failure message names what changed ('gone', 'new') instead.
_SETTINGS = {
    "max_examples": 8,
    "deadline": None,
    "suppress_health_check": [HealthCheck.too_slow],
    "phases": [Phase.explicit, Phase.reuse, Phase.generate],
}


@st.composite
def _variant(draw: st.DrawFn, fabric: str) -> tuple[dict[str, str], int]:
    """Each file's middle blocks shuffled, with known-unmanaged lines put between them."""
    out, added = {}, 0
    for name, text in _texts(fabric):
        first, *middle, last = text.split(SEP)
        order = draw(st.permutations(middle))
        extra = draw(
            st.lists(
                st.tuples(st.integers(0, len(order)), st.sampled_from(UNMANAGED[fabric])),
                max_size=3,
            )
        )
        blocks = list(order)
        for at, line in sorted(extra, reverse=True):
            blocks.insert(at, line)
        added += len(extra)
        out[name] = SEP.join([first, *blocks, last])
    return out, added


def _check(fabric: str, variant: tuple[dict[str, str], int]) -> None:
    texts, added = variant
    base, base_unmanaged = _baseline(fabric)
    found, unmanaged = _lint(fabric, texts)
    assert found == base, {"gone": base - found, "new": found - base}
    assert unmanaged == base_unmanaged + added


@settings(**_SETTINGS)
@given(variant=_variant("hw-v300-mlag"))
def test_hw_v300_findings_ignore_block_order_and_unmanaged_lines(
    variant: tuple[dict[str, str], int],
) -> None:
    _check("hw-v300-mlag", variant)


@settings(**_SETTINGS)
@given(variant=_variant("h3c-lag"))
def test_h3c_findings_ignore_block_order_and_unmanaged_lines(
    variant: tuple[dict[str, str], int],
) -> None:
    _check("h3c-lag", variant)


def test_the_baselines_have_findings_to_keep() -> None:
    """Not vacuous: both fabrics lint to findings of several rules, errors among them, and
    each file has blocks to shuffle."""
    for fabric in UNMANAGED:
        found = _baseline(fabric)[0]
        assert sum(found.values()) > 15
        assert len({rule for rule, *_ in found}) > 5
        assert any(key[3] == "error" for key in found)
        assert all(t.count(SEP) > 10 for _, t in _texts(fabric))
