"""Numbers at their edges (roce_cfg/model/numbers.py, the one codec for numbers and number
lists): every domain's bounds pinned on both sides (a mutant that lets DSCP 64 or AS 0 through
fails here), every malformed range form refused with its reason, and per vendor a table of edge
lines planted in a golden config: a line past a bound or with a malformed list is not read
(parse lists it unread on its line, lint reports RC119 there), a line at the bound is read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from roce_cfg.model import numbers
from roce_cfg.model.numbers import Domain, NumberError, OutOfDomain
from tests.helpers import ROOT, run

# Every domain of the codec and its bounds: a domain added without a row fails below.
BOUNDS = {
    "VLAN": (1, 4094),
    "DSCP": (0, 63),
    "PRIORITY": (0, 7),
    "QUEUE": (0, 7),
    "ASN": (1, 4_294_967_295),
    "PERCENT": (0, 100),
    "MTU": (46, 65_535),
    "FRAME": (64, 65_535),
    "BYTES": (0, 2**40),
    "MILLISECONDS": (0, 3_600_000),
    "PATHS": (1, 1024),
    "GROUP": (0, 65_535),
    "SPEED": (1, 1600),
    "SPEED_MBPS": (10, 1_600_000),
    "PORT_NUMBER": (0, 99_999),
    "ROUTE_PREFERENCE": (1, 255),
    "ROUTE_TAG": (0, 4_294_967_295),
}
DOMAINS = {n: d for n, d in vars(numbers).items() if isinstance(d, Domain)}


def test_every_domain_is_pinned() -> None:
    assert sorted(DOMAINS) == sorted(BOUNDS)


@pytest.mark.parametrize("name", sorted(BOUNDS))
def test_a_domain_takes_its_bounds_and_refuses_one_past_each(name: str) -> None:
    domain, (low, high) = DOMAINS[name], BOUNDS[name]
    assert (domain.low, domain.high) == (low, high)
    assert numbers.number(str(low), domain) == low
    assert numbers.number(str(high), domain) == high
    for past in (low - 1, high + 1):
        with pytest.raises(OutOfDomain, match="out of range"):
            numbers.number(str(past), domain)
    assert numbers.parse(f"{low} to {high}", domain) == ((low, high),)
    with pytest.raises(OutOfDomain):
        numbers.parse(f"{low} to {high + 1}", domain)
    assert numbers.parse("all", domain) == ((low, high),)


NUMBERS = [
    # (text, domain, the number or the error's type and words)
    ("0007", "VLAN", 7),
    ("63", "DSCP", 63),
    ("64", "DSCP", (OutOfDomain, "DSCP 64 out of range 0-63")),
    ("0", "ASN", (OutOfDomain, "AS number 0 out of range")),
    ("4294967296", "ASN", (OutOfDomain, "out of range")),
    ("9" * 4301, "VLAN", (OutOfDomain, "(4,301 digits)")),
    ("0" * 30 + "5", "VLAN", 5),
    ("-1", "MTU", (OutOfDomain, "MTU -1")),
    ("+5", "VLAN", (NumberError, "is not a number")),
    ("\uff15", "VLAN", (NumberError, "is not a number")),  # a fullwidth digit
    ("\u00b9", "VLAN", (NumberError, "is not a number")),  # superscript one: isdigit() says yes
    ("1e3", "VLAN", (NumberError, "is not a number")),
    ("0x10", "VLAN", (NumberError, "is not a number")),
    ("", "VLAN", (NumberError, "is not a number")),
    (" 5", "VLAN", (NumberError, "is not a number")),
    ("5.0", "VLAN", (NumberError, "is not a number")),
]


@pytest.mark.parametrize(("text", "domain", "want"), NUMBERS, ids=[t[:12] for t, *_ in NUMBERS])
def test_one_number_at_its_edges(text: str, domain: str, want: object) -> None:
    if isinstance(want, int):
        assert numbers.number(text, DOMAINS[domain]) == want
        return
    kind, words = want  # type: ignore[misc]
    with pytest.raises(kind) as info:
        numbers.number(text, DOMAINS[domain])
    assert words in str(info.value)


LISTS = [
    ("2 5 to 7", ((2, 2), (5, 7))),
    ("101-104,200 103", ((101, 104), (200, 200))),
    ("1-3 4-6", ((1, 6),)),  # adjacent ranges merge
    ("5 5 5", ((5, 5),)),
    ("5,", ((5, 5),)),
    ("", ()),
    ("4094", ((4094, 4094),)),
    ("1 to 4094", ((1, 4094),)),
    ("5 to", "has no upper end"),
    ("5 to to 7", "has no upper end"),
    ("1 to 3 5 to", "has no upper end"),
    ("to 5", "has no lower end"),
    ("to", "has no lower end"),
    ("1 to 3 to 7", "has more than two ends"),
    ("5-", "has no upper end"),
    ("1-3-5", "has more than two ends"),
    ("1--3", "has more than two ends"),
    ("-1-3", "has no lower end"),
    ("7 to 3", "runs backwards"),
    ("7-3", "runs backwards"),
    ("0", "out of range"),
    ("4095", "out of range"),
    ("2 to 4095", "out of range"),
    ("2 to " + "9" * 30, "out of range"),
    ("5 x 7", "is not a number"),
    ("5 - 7", "is not a number"),
    ("all 5", "is not a number"),
]


@pytest.mark.parametrize(("text", "want"), LISTS, ids=[t[:16] or "empty" for t, _ in LISTS])
def test_a_number_list_at_its_edges(text: str, want: object) -> None:
    if isinstance(want, tuple):
        assert numbers.parse(text, numbers.VLAN) == want
        return
    with pytest.raises(NumberError) as info:
        numbers.parse(text, numbers.VLAN)
    assert str(want) in str(info.value)
    assert "\n" not in str(info.value)


# (vendor, a line of the golden leaf-1, what takes its place, read?)
EDGES = [
    ("huawei", "vlan batch 101", "vlan batch 101 4094", True),
    ("huawei", "vlan batch 101", "vlan batch 1 to 4094", True),
    ("huawei", "vlan batch 101", "vlan batch 5 to", False),
    ("huawei", "vlan batch 101", "vlan batch to 5", False),
    ("huawei", "vlan batch 101", "vlan batch 1 to 3 to 7", False),
    ("huawei", "vlan batch 101", "vlan batch 7 to 3", False),
    ("huawei", "vlan batch 101", "vlan batch 0", False),
    ("huawei", "vlan batch 101", "vlan batch 4095", False),
    ("huawei", " ip-dscp-inbound 26 phb af3 green", " ip-dscp-inbound 63 phb af3 green", True),
    ("huawei", " ip-dscp-inbound 26 phb af3 green", " ip-dscp-inbound 64 phb af3 green", False),
    ("huawei", "bgp 65101", "bgp 4294967295", True),
    ("huawei", "bgp 65101", "bgp 0", False),
    ("huawei", "bgp 65101", "bgp 4294967296", False),
    ("h3c", " import 26 export 3", " import 63 export 3", True),
    ("h3c", " import 26 export 3", " import 64 export 3", False),
    ("h3c", " port access vlan 101", " port trunk permit vlan 2 to 4094", True),
    ("h3c", " port access vlan 101", " port trunk permit vlan 5 to", False),
    ("h3c", " port access vlan 101", " port trunk permit vlan 1 to 3 to 7", False),
    ("h3c", "bgp 65101", "bgp 1", True),
    ("h3c", "bgp 65101", "bgp 0", False),
    ("ruijie", "mls qos map dscp-cos 26 to 3", "mls qos map dscp-cos 63 to 3", True),
    ("ruijie", "mls qos map dscp-cos 26 to 3", "mls qos map dscp-cos 64 to 3", False),
    ("ruijie", " switchport access vlan 101", " switchport access vlan 4094", True),
    ("ruijie", " switchport access vlan 101", " switchport access vlan 4095", False),
    ("ruijie", "router bgp 65101", "router bgp 0", False),
    ("zte", "qos dscp-to-priority 26 3", "qos dscp-to-priority 63 3", True),
    ("zte", "qos dscp-to-priority 26 3", "qos dscp-to-priority 64 3", False),
    ("zte", "  switchport access vlan 101", "  switchport trunk vlan 2-4094", True),
    ("zte", "  switchport access vlan 101", "  switchport trunk vlan 5-", False),
    ("zte", "  switchport access vlan 101", "  switchport trunk vlan 1-3-7", False),
    # the words of a list with one end located in the switchvlan block, not the port's
    ("zte", "  switchport access vlan 101", "  switchport trunk vlan 5 to", False),
    # a backwards range located by its words, not by its low end ('3' is on many lines)
    ("zte", "  switchport access vlan 101", "  switchport trunk vlan 3-2", False),
    # an out-of-domain list located by the whole list ending its line ('nic0' ends in 0 too)
    ("zte", "  switchport access vlan 101", "  switchport trunk vlan 0", False),
    ("zte", "router bgp 65101", "router bgp 0", False),
]


def _planted(tmp: Path, vendor: str, line: str, instead: str) -> tuple[Path, int]:
    lines = (ROOT / "golden" / f"pod-small-{vendor}" / "leaf-1.cfg").read_text().split("\n")
    at = lines.index(line)
    lines[at] = instead
    path = tmp / "leaf-1.cfg"
    path.write_text("\n".join(lines))
    return path, at + 1


@pytest.mark.parametrize(
    ("vendor", "line", "instead", "read"), EDGES, ids=[f"{v}:{i.strip()}" for v, _, i, _ in EDGES]
)
def test_an_edge_line_is_read_or_reported_on_its_line(
    vendor: str, line: str, instead: str, read: bool, tmp_path: Path
) -> None:
    path, no = _planted(tmp_path, vendor, line, instead)
    result = run("parse", str(path))
    assert result.exit_code == 0, result.output
    unread = {
        u["line"]: u["reason"] for c in json.loads(result.stdout)["configs"] for u in c["unread"]
    }
    assert (no not in unread) is read, (instead, unread.get(no))
    if not read:
        assert "\n" not in unread[no] and unread[no]
        linted = run("lint", str(path), "--format", "json")
        found = {(f["rule"], f["line"]) for f in json.loads(linted.stdout)["findings"]}
        assert ("RC119", no) in found


# What a malformed list's error shows and locates: the words as printed, no more (the parse
# finds the line holding them), each word cut at 24 characters and the whole at 40.
@pytest.mark.parametrize(
    ("text", "message", "located"),
    [
        ("to 5 6", "range 'to 5' has no lower end", "to 5"),
        ("to " + "9" * 50, f"range 'to {'9' * 37}' has no lower end", f"to {'9' * 37}"),
        ("1 to 3 to", "range '1 to 3 to' has more than two ends", "1 to 3 to"),
        ("1 to 3 to 7 9", "range '1 to 3 to 7' has more than two ends", "1 to 3 to 7"),
        (
            "1" * 30 + " to 3 to 7",
            f"range '{'1' * 24} to 3 to 7' has more than two ends",
            f"{'1' * 24} to 3 to 7",
        ),
        ("7 to 3", "range 7 to 3 runs backwards", "7 to 3"),
        ("2 7 to 3 9", "range 7 to 3 runs backwards", "7 to 3"),
    ],
)
def test_a_malformed_list_shows_and_locates_its_words(
    text: str, message: str, located: str
) -> None:
    with pytest.raises(NumberError) as caught:
        numbers.parse(text, numbers.VLAN)
    assert (str(caught.value), caught.value.text) == (message, located)
