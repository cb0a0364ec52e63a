"""Every number read stays inside its domain (issue 27, causes 3, 4, 5 and 7): number lists are
read as ranges, never expanded; a value outside its domain makes its line unread and is
reported on that line (a parse note, RC119 in lint), never kept and never a traceback."""

from __future__ import annotations

import json
from itertools import pairwise
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from roce_cfg.model import numbers
from roce_cfg.parse import parse_text
from tests.helpers import ROOT, examples, run

# (vendor, a line of the golden leaf-1, the same line with a value no switch takes)
CASES = [
    ("h3c", "vlan 101", "vlan 4095"),
    ("h3c", "vlan 101", "vlan 0"),
    ("h3c", "vlan 101", "vlan 2 to 100000000"),
    ("h3c", " port access vlan 101", " port access vlan 99999"),
    ("h3c", " port access vlan 101", " port trunk permit vlan 2 to 100000000"),
    ("h3c", " import 26 export 3", " import 64 export 3"),
    ("h3c", " import 26 export 3", " import 99 export 3"),
    ("h3c", " import 3 export 3", " import 4095 to 65535 export 3"),
    ("h3c", " priority-flow-control no-drop dot1p 3", " priority-flow-control no-drop dot1p 9"),
    ("h3c", " priority-flow-control dot1p 3 headroom 383", " priority-flow-control dot1p 3 headroom -2"),  # noqa: E501
    ("h3c", " jumboframe enable 9238", " jumboframe enable 99999"),
    ("h3c", " jumboframe enable 9238", " jumboframe enable -1"),
    ("h3c", " peer 10.1.0.2 as-number 65000", " peer 10.1.0.2 as-number -65000"),
    ("h3c", "bgp 65101", "bgp 0"),
    ("h3c", "bgp 65101", "bgp 4294967296"),
    ("h3c", " jumboframe enable 9238", " jumboframe enable " + "9" * 4400),
    ("huawei", "vlan batch 101", "vlan batch 2 to 1000000"),
    ("huawei", "vlan batch 101", "vlan batch 2 to 10000000"),
    ("huawei", "vlan batch 101", "vlan batch 2 to 99999999999999999999"),
    ("huawei", " ip-dscp-inbound 26 phb af3 green", " ip-dscp-inbound 64 phb af3 green"),
    ("huawei", " priority 3", " priority 9"),
    ("huawei", " mtu 9216", " mtu -1"),
    ("huawei", " jumboframe enable 9238", " jumboframe enable -1"),
    ("huawei", "bgp 65101", "bgp 4294967296"),
    ("ruijie", " priority-flow-control nodrop 3", " priority-flow-control nodrop 9"),
    ("ruijie", " priority-flow-control headroom 3 97043", " priority-flow-control headroom 3 -1"),
    ("ruijie", "mls qos map dscp-cos 26 to 3", "mls qos map dscp-cos 99 to 3"),
    ("ruijie", "mls qos map cos-queue 3 to 3", "mls qos map cos-queue 4095 to 65535"),
    ("ruijie", " neighbor 10.1.0.2 remote-as 65000", " neighbor 10.1.0.2 remote-as -1"),
    ("ruijie", " switchport access vlan 101", " switchport access vlan 4095"),
    ("zte", "  switchport access vlan 101", "  switchport access vlan 0"),
    ("zte", "qos dscp-to-priority 26 3", "qos dscp-to-priority 64 3"),
    ("zte", "  pfc priority 3 no-drop", "  pfc priority 9 no-drop"),
    ("zte", "  mtu 9216", "  mtu 99999"),
    ("zte", "router bgp 65101", "router bgp 0"),
    ("zte", "  neighbor 10.1.0.2 remote-as 65000", "  neighbor 10.1.0.2 remote-as 4294967296"),
    ("zte", "qos priority-to-queue 3 3", "qos priority-to-queue 4095 65535"),
]  # fmt: skip


def _edited(vendor: str, old: str, new: str) -> tuple[str, int]:
    lines = (ROOT / f"golden/pod-small-{vendor}/leaf-1.cfg").read_text().split("\n")
    at = lines.index(old)
    lines[at] = new
    return "\n".join(lines), at + 1


def _within_domains(device: dict[str, object]) -> None:
    """No value of the parsed model is outside its field's domain (the model checks them too;
    this says what was read, not what pydantic would refuse)."""
    text = json.dumps(device)
    for big in ("4095", "99999", "4294967296", "1000000", "100000000"):
        assert f": {big}," not in text and f"[{big}," not in text, big


@pytest.mark.parametrize(
    ("vendor", "old", "new"), CASES, ids=[f"{v}:{n.strip()[:40]}" for v, _, n in CASES]
)
def test_a_value_outside_its_domain_is_unread_on_its_line(vendor: str, old: str, new: str) -> None:
    text, line = _edited(vendor, old, new)
    parsed = parse_text(text, file="leaf-1.cfg").config
    assert [u.line for u in parsed.unread] == [line], parsed.unread
    (unread,) = parsed.unread
    assert "out of range" in unread.reason and unread.text == new.strip()
    _within_domains(parsed.device.model_dump(mode="json"))


@pytest.mark.parametrize(
    ("vendor", "old", "new"),
    [c for c in CASES if c[0] in ("h3c", "zte")][::3],
    ids=lambda c: str(c)[:30],
)
def test_lint_reports_it_as_rc116_on_that_line(
    tmp_path: Path, vendor: str, old: str, new: str
) -> None:
    text, line = _edited(vendor, old, new)
    cfg = tmp_path / "leaf-1.cfg"
    cfg.write_text(text)
    result = run("lint", str(cfg), "--format", "json")
    assert result.exit_code == 1 and "Traceback" not in result.output, result.output
    found = json.loads(result.stdout)["findings"]
    assert {"rule": "RC119", "line": line} in [
        {"rule": f["rule"], "line": f["line"]} for f in found
    ]


def test_a_refused_block_takes_its_lines_along(tmp_path: Path) -> None:
    """'vlan 4095' with a ' name' under it: the name is not given to the VLAN above."""
    text, line = _edited("huawei", "vlan 101", "vlan 4095")
    parsed = parse_text(text, file="leaf-1.cfg").config
    assert [u.line for u in parsed.unread] == [line]
    assert all(v.id != 4095 for v in parsed.device.vlans)
    names = {v.id: v.name for v in parsed.device.vlans}
    assert names.get(101, "") == ""  # the refused block's name went nowhere


# -- the codec -------------------------------------------------------------------------------

RANGES = st.lists(st.tuples(st.integers(1, 4094), st.integers(0, 50)), max_size=30).map(
    lambda pairs: numbers.merge((lo, min(4094, lo + n)) for lo, n in pairs)
)


@settings(max_examples=examples(300), deadline=None)
@given(RANGES, st.sampled_from([" to ", "-"]), st.sampled_from([" ", ","]))
def test_rendered_ranges_parse_back(ranges: numbers.Ranges, joiner: str, sep: str) -> None:
    text = sep.join(numbers.render(ranges, joiner))
    assert numbers.parse(text, numbers.VLAN) == ranges
    assert numbers.of(numbers.expand(ranges)) == ranges


@settings(max_examples=examples(300), deadline=None)
@given(st.text(alphabet="0123456789-, to", max_size=60))
def test_any_list_text_is_ranges_in_the_domain_or_a_number_error(text: str) -> None:
    try:
        got = numbers.parse(text, numbers.VLAN)
    except numbers.NumberError as exc:
        assert "\n" not in str(exc)
        return
    assert all(1 <= lo <= hi <= 4094 for lo, hi in got)
    assert list(got) == sorted(got) and all(a[1] + 1 < b[0] for a, b in pairwise(got))


@pytest.mark.parametrize("bound", ["1000000", "10000000", "9" * 20, "9" * 4301, "9" * 100_000])
def test_a_huge_bound_is_refused_by_its_length_not_expanded(bound: str) -> None:
    """'vlan batch 2 to 10000000' was a MemoryError, a 20-digit bound an OverflowError and
    4,301 digits Python's conversion limit; each is one out-of-domain number now."""
    with pytest.raises(numbers.OutOfDomain, match=r"VLAN .+ out of range 1-4094"):
        numbers.parse(f"2 to {bound}", numbers.VLAN)
    with pytest.raises(numbers.OutOfDomain):
        numbers.parse(f"2-{bound},200", numbers.VLAN)
