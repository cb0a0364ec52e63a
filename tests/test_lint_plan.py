"""Issue 30 item 4: lint reads of fabric.json only what it checks configs against
(parse/hints.py LintPlan), the same hints and addresses as the whole plan, bounded as before."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from roce_cfg.errors import InputError
from roce_cfg.parse.hints import (
    IfAddress,
    _if_address,
    _if_address_as_ipaddress_reads_it,
    early_hints,
    hints_from_plan,
    load_fabric,
    load_lint_plan,
    plan_data,
)
from tests.helpers import ROOT, run


@pytest.fixture(scope="module")
def fabric_json(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("plan") / "out"
    assert run("generate", str(ROOT / "examples/pod-small.yaml"), "-o", str(out)).exit_code == 0
    return out / "fabric.json"


def test_the_lint_plan_holds_what_the_whole_plan_holds(fabric_json: Path) -> None:
    whole, lint = load_fabric(fabric_json), load_lint_plan(fabric_json)
    assert hints_from_plan(lint) == hints_from_plan(whole)
    assert [(k.a_device, k.a_port, k.a_ip.ip, k.b_device, k.b_port, k.b_ip.ip, k.cable_m)
            for k in lint.links] == [
        (k.a_device, k.a_port, k.a_ip.ip, k.b_device, k.b_port, k.b_ip.ip, k.cable_m)
        for k in whole.links
    ]  # fmt: skip
    assert [(n.switch, n.port, n.cable_m) for n in lint.nics] == [
        (n.switch, n.port, n.cable_m) for n in whole.nics
    ]
    assert [(r.vlan, r.switch) for r in lint.rails] == [(r.vlan, r.switch) for r in whole.rails]


@pytest.mark.parametrize(
    ("address", "reason"),
    [
        ("10.0.0.300/31", "links.0.a_ip"),
        ("10.0.0.1/33", "links.0.a_ip"),
        (31, "links.0.a_ip"),
    ],
)
def test_a_bad_link_address_is_refused(
    fabric_json: Path, tmp_path: Path, address: object, reason: str
) -> None:
    doc = json.loads(fabric_json.read_text())
    doc["links"][0]["a_ip"] = address
    bad = tmp_path / "fabric.json"
    bad.write_text(json.dumps(doc))
    with pytest.raises(InputError, match=re.escape(f"not a roce-cfg fabric.json: {reason}")):
        load_lint_plan(bad)


def test_a_netmask_address_reads_as_its_address(fabric_json: Path, tmp_path: Path) -> None:
    doc = json.loads(fabric_json.read_text())
    ip = doc["links"][0]["a_ip"].split("/")[0]
    doc["links"][0]["a_ip"] = f"{ip}/255.255.255.254"
    other = tmp_path / "fabric.json"
    other.write_text(json.dumps(doc))
    assert str(load_lint_plan(other).links[0].a_ip.ip) == ip


@pytest.mark.parametrize(
    "text",
    ["0.0.0.0", "255.255.255.255", "10.64.0.1/31", "199.249.230.9/32", "01.2.3.4", "1.2.3.04/31",
     "256.1.1.1/31", "1.2.3", "1.2.3.4.5", "1..3.4", "", " 1.2.3.4", "1.2.3.4\n", "1.2.3.\u0664",
     "0x1.2.3.4", "1.2.3.+4", "1.2.3.1000", "250.249.200.199/0", "1.2.3.4/", "1.2.3.4/05",
     "1.2.3.4/33", "1.2.3.4/033", "1.2.3.4/\u0663", "1.2.3.4/255.255.255.254", "1.2.3.4/31\n"],
)  # fmt: skip
def test_link_addresses_read_as_ipaddress_reads_them(text: str) -> None:
    # The usual form is read without ipaddress's parse (its cost at xl): it must accept, refuse
    # and give the messages that reading gives, leading zeros and non-ASCII digits included.
    def outcome(read: Callable[[str], IfAddress]) -> tuple[IfAddress | None, str | None]:
        try:
            return read(text), None
        except ValueError as exc:
            return None, str(exc)

    assert outcome(_if_address) == outcome(_if_address_as_ipaddress_reads_it)


def test_the_early_hints_are_the_validated_plans(fabric_json: Path) -> None:
    """The workers of lint, parse and deadlock parse on the hints read before fabric.json is
    validated (as lint reads it, or whole): the same."""
    early = early_hints(plan_data(fabric_json))
    assert early == hints_from_plan(load_lint_plan(fabric_json))
    assert early == hints_from_plan(load_fabric(fabric_json))


@pytest.mark.parametrize("speed", ["100", 100.0, True])
def test_no_early_hints_from_a_value_validation_would_change(
    fabric_json: Path, tmp_path: Path, speed: object
) -> None:
    doc = json.loads(fabric_json.read_text())
    doc["links"][0]["speed_gbps"] = speed
    other = tmp_path / "fabric.json"
    other.write_text(json.dumps(doc))
    assert early_hints(plan_data(other)) is None


@pytest.fixture
def pooled(monkeypatch: pytest.MonkeyPatch) -> Callable[[bool], None]:
    """Parse pod-small's configs in the worker pool (``True``) or in this process."""
    from roce_cfg.parse import many

    def use(pool: bool) -> None:
        monkeypatch.setattr(many, "PARALLEL_FROM", 2 if pool else 10**6)
        monkeypatch.setattr(many, "workers", lambda: 2)

    return use


@pytest.mark.parametrize("command", ["lint", "parse", "deadlock"])
@pytest.mark.parametrize(
    ("field", "value"),
    [("a_ip", "10.0.0.300/31"), ("speed_gbps", 0), ("speed_gbps", "fast"), ("a_device", 7)],
)
def test_a_bad_plan_is_refused_while_the_workers_parse(
    fabric_json: Path,
    tmp_path: Path,
    pooled: Callable[[bool], None],
    field: str,
    value: object,
    command: str,
) -> None:
    """fabric.json is validated while the workers already parse (when its hints read early):
    a bad one is still the command's one-line error and exit code 2, whether the parse ran
    pooled, and nothing is printed on stdout."""
    folder = tmp_path / "out"
    shutil.copytree(fabric_json.parent, folder)
    doc = json.loads(fabric_json.read_text())
    doc["links"][0][field] = value
    (folder / "fabric.json").write_text(json.dumps(doc))
    extra = ["--fabric", str(folder / "fabric.json")] if command == "parse" else []
    outcomes = []
    for pool in (True, False):
        pooled(pool)
        r = run(command, str(folder), *extra)
        outcomes.append((r.exit_code, r.stdout, r.stderr))
    assert outcomes[0] == outcomes[1]
    assert outcomes[0][:2] == (2, "")
    assert f"not a roce-cfg fabric.json: links.0.{field}" in outcomes[0][2]


def test_a_plan_read_late_lints_as_one_read_early(
    fabric_json: Path, tmp_path: Path, pooled: Callable[[bool], None]
) -> None:
    """A speed validation coerces ('100' -> 100) gives no early hints: the plan is validated
    before the parse, with the same findings."""
    folder = tmp_path / "out"
    shutil.copytree(fabric_json.parent, folder)
    doc = json.loads(fabric_json.read_text())
    pooled(True)
    early = run("lint", str(folder), "--format", "json")
    doc["links"][0]["speed_gbps"] = str(doc["links"][0]["speed_gbps"])
    (folder / "fabric.json").write_text(json.dumps(doc))
    late = run("lint", str(folder), "--format", "json")
    assert (late.exit_code, late.output) == (early.exit_code, early.output)
