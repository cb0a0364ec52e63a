"""verify's display parsing against the format of real switches: every sourced display command
has a sample reproducing a public capture (tests/data/display/SOURCES.md) that its template
reads (tests/test_verify.py checks the records), and the lab answers in that format, line for
line, with the variations the captures show (both column orders, wrapped names and tables,
ECMP next hops, ports without a neighbour)."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from pathlib import Path

import pytest

from roce_cfg.lab.display import World, _row, answer
from roce_cfg.lab.run import switches
from roce_cfg.model.fabric import Fabric
from roce_cfg.vendor import Vendor
from roce_cfg.verify.checks import Observed, check_counters, check_lossless, check_underlay
from roce_cfg.verify.data import asplain, load_display, parse
from roce_cfg.verify.run import load_plan
from tests.helpers import ROOT, SCENARIOS

SAMPLES = ROOT / "tests/data/display"
SOURCED = [
    (v, check)
    for v in Vendor
    for check, entry in sorted(load_display(v).checks.items())
    if entry.status == "sourced"
]


def _real(vendor: Vendor, check: str) -> list[Path]:
    """The samples that reproduce a real capture ('<check>.<variant>.txt')."""
    return sorted((SAMPLES / vendor.value).glob(f"{check}.*.txt"))


@pytest.mark.parametrize(("vendor", "check"), SOURCED, ids=[f"{v.value}-{c}" for v, c in SOURCED])
def test_every_sourced_display_command_has_a_real_format_sample_with_its_source(
    vendor: Vendor, check: str
) -> None:
    samples = _real(vendor, check)
    assert samples, f"no real-format sample for {vendor.value} {check}"
    sources = (SAMPLES / "SOURCES.md").read_text()
    for sample in samples:
        row = next(
            (ln for ln in sources.splitlines() if f"| {vendor.value}/{sample.name} |" in ln), ""
        )
        assert any(
            where in row for where in ("ntc-templates `tests/", "h3c.com/en/", "INTA-project@")
        ), sample.name
        entry = load_display(vendor).checks[check]
        assert parse(entry, sample.read_text()), sample.name  # records, no template error


def test_commands_without_a_public_sample_are_unsourced_and_said_so() -> None:
    sources = (SAMPLES / "SOURCES.md").read_text()
    for vendor in Vendor:
        for entry in load_display(vendor).checks.values():
            if entry.status == "unsourced":
                assert entry.why and f"`{entry.command}" in sources.replace("\n  ", " ")


# -- the lab answers in the real format --------------------------------------------------------
_NUMBERISH = re.compile(r"\S*\d\S*")


def _skeleton(line: str) -> str:
    """A line's shape: anything with a digit in it is a value ('#'), runs of blanks are one."""
    return " ".join(_NUMBERISH.sub("#", line).split())


def _shapes(texts: Iterable[str]) -> set[str]:
    return {_skeleton(ln) for text in texts for ln in text.replace("\r\n", "\n").split("\n")}


@functools.cache
def _lab(vendor: Vendor) -> tuple[Fabric, list[str]]:
    sws = switches(SCENARIOS[f"pod-small-{vendor.value}"], "intended")
    assert isinstance(sws[0].display, World)
    return load_plan(SCENARIOS[f"pod-small-{vendor.value}"]), [s.hostname for s in sws]


@functools.cache
def _outputs(vendor: Vendor, check: str) -> dict[str, str]:
    sws = switches(SCENARIOS[f"pod-small-{vendor.value}"], "intended")
    command = load_display(vendor).checks[check].command
    return {sw.hostname: str(answer(sw, command)) for sw in sws}


@pytest.mark.parametrize(("vendor", "check"), SOURCED, ids=[f"{v.value}-{c}" for v, c in SOURCED])
def test_the_lab_prints_only_lines_the_real_switch_prints(vendor: Vendor, check: str) -> None:
    real = _shapes(p.read_text() for p in _real(vendor, check))
    outputs = _outputs(vendor, check)
    printed = _shapes(outputs.values())
    assert printed - real == set(), f"lines no real {vendor.value} {check} output has"
    entry = load_display(vendor).checks[check]
    for text in outputs.values():  # and verify reads each switch's answer
        assert parse(entry, text.replace("\r\n", "\n"))


@pytest.mark.parametrize(
    ("vendor", "check", "variant"),
    [
        (Vendor.H3C, "lldp", "System Name          Local Interface"),
        (Vendor.H3C, "lldp", "Local Interface Chassis ID"),
        (Vendor.HUAWEI, "lldp", "Neighbor index                     :1"),
        (Vendor.HUAWEI, "lldp", "Neighbor index :1"),
        (Vendor.HUAWEI, "lldp", " has 0 neighbor(s)"),
        (Vendor.H3C, "routes", "\r\n                                             10.1."),
        (Vendor.H3C, "pfc", "Recv    \r\n   Send       Inpps      Outpps"),
        (Vendor.H3C, "bgp", "* - Dynamically created peer"),
        (Vendor.HUAWEI, "pfc", "DeadlockNum\r\n                             Transmitted(Frames)"),
        (Vendor.HUAWEI, "queue", "\r\n Queue statistics info: interface 400GE1/1/2\r\n ---"),
        (Vendor.HUAWEI, "queue", "-\r\n     1         0 "),  # a next queue: no header again
        (Vendor.HUAWEI, "watchdog", "  TurnOff            30  LinkUp\r\n"),
        (Vendor.ZTE, "interfaces", "Admin Phy   Prot  Description      "),
        (Vendor.ZTE, "interfaces", "Duplex/full  400G  up    up    up      "),
    ],
)
def test_the_lab_shows_each_variation_of_the_captures(
    vendor: Vendor, check: str, variant: str
) -> None:
    assert any(variant in text for text in _outputs(vendor, check).values())


def test_a_long_lldp_system_name_is_wrapped_as_comware_does_and_read_whole() -> None:
    entry = load_display(Vendor.H3C).checks["lldp"]
    name = "pod1-spine-2.dc1.example.net"
    item = {"port": "HGE1/0/26", "chassis": "3822-d6aa-0002", "neighbor": name,
            "neighbor_port": "HundredGigE1/0/1"}  # fmt: skip
    rows = _row(entry.lab, item)
    assert rows[1:] == ["mple.net"] and rows[0].startswith("pod1-spine-2.dc1.exa HGE1/0/26")
    text = "\n".join([*entry.lab.head, *rows]) + "\n"
    assert parse(entry, text) == [
        {"port": "HGE1/0/26", "neighbor": name, "neighbor_port": "HundredGigE1/0/1"}
    ]


def test_an_as_number_in_asdot_is_the_planned_one() -> None:
    assert asplain("635.66") == str(635 * 65536 + 66)
    plan = load_plan(SCENARIOS["pod-small-huawei"])
    entry = load_display(Vendor.HUAWEI).checks["bgp"]
    ups = [k for k in plan.links if k.a_device == "leaf-1"]
    asn = {s.hostname: s.asn for s in plan.switches}
    rows = [
        {"peer": str(k.b_ip.ip), "remote_as": f"{asn[k.b_device] >> 16}.{asn[k.b_device] & 0xFFFF}",
         "state": "Established"}
        for k in ups
    ]  # fmt: skip
    obs = Observed(plan, {"leaf-1": {"bgp": rows}}, {"leaf-1": {"bgp": entry}})
    check_underlay(obs)
    assert [f for f in obs.findings if f.rule == "RV122"] == []


def test_a_field_naming_no_value_of_its_template_is_refused_when_loaded(tmp_path: Path) -> None:
    from roce_cfg.errors import InputError

    text = (ROOT / "vendors/h3c.display.yaml").read_text()
    (tmp_path / "vendors").mkdir()
    bad = text.replace("NEIGHBOR_NAME+NAME_TAIL", "NEIGHBOR_NAME+NAME_TALE")
    (tmp_path / "vendors/h3c.display.yaml").write_text(bad)
    with pytest.raises(InputError, match=r"checks\.lldp\.fields: NAME_TALE not a value of"):
        load_display(Vendor.H3C, tmp_path)


def test_a_state_the_format_does_not_print_is_read_from_what_it_lists() -> None:
    """Huawei's 'display dcb pfc' prints no PFC state, only the queues PFC runs on: a planned
    priority it lists passes, one it leaves out (the lab's 'pfc off') is RV131."""
    entry = load_display(Vendor.HUAWEI).checks["pfc"]
    assert entry.fields["oper"] is None
    plan = load_plan(SCENARIOS["pod-small-huawei"])
    sws = {s.hostname: s for s in switches(SCENARIOS["pod-small-huawei"], "intended")}
    world = sws["leaf-1"].display
    assert isinstance(world, World)
    port = next(k.a_port for k in plan.links if k.a_device == "leaf-1")
    listed = parse(entry, str(answer(sws["leaf-1"], entry.command)).replace("\r\n", "\n"))
    assert any(r["port"] == port for r in listed)
    world.fault("leaf-1").pfc_off.add(port)
    try:
        text = str(answer(sws["leaf-1"], entry.command)).replace("\r\n", "\n")
    finally:
        world.faults.clear()
    rows = parse(entry, text)
    assert rows and all(r["port"] != port for r in rows)
    obs = Observed(plan, {"leaf-1": {"pfc": rows}}, {"leaf-1": {"pfc": entry}})
    check_lossless(obs)
    assert [(f.rule, f.port) for f in obs.findings] == [("RV131", port)]
    obs = Observed(plan, {"leaf-1": {"pfc": listed}}, {"leaf-1": {"pfc": entry}})
    check_lossless(obs)
    assert [f for f in obs.findings if f.rule == "RV131"] == []


def test_only_a_state_or_a_counter_may_be_left_unprinted(tmp_path: Path) -> None:
    from roce_cfg.errors import InputError

    text = (ROOT / "vendors/huawei.display.yaml").read_text()
    (tmp_path / "vendors").mkdir()
    bad = text.replace("{port: INTERFACE, oper: null", "{port: null, oper: null")
    assert bad != text
    (tmp_path / "vendors/huawei.display.yaml").write_text(bad)
    with pytest.raises(InputError, match=r"checks\.pfc\.fields: port cannot be null"):
        load_display(Vendor.HUAWEI, tmp_path)


def _sample(vendor: Vendor, name: str) -> list[dict[str, str]]:
    check = name.split(".")[0]
    return parse(load_display(vendor).checks[check], (SAMPLES / vendor.value / name).read_text())


def test_the_watchdog_status_of_a_real_huawei_switch_is_its_armed_state() -> None:
    """'display dcb pfc deadlock trigger status' as the command reference prints it: LinkUp is
    a guarded queue of an up port; TurnOff (the deadlock control turned PFC off) and a planned
    queue it does not list are RV133; a second queue under a blank belongs to the port above."""
    plan = load_plan(SCENARIOS["pod-small-huawei"])
    rows = _sample(Vendor.HUAWEI, "watchdog.cr-example.txt")
    first = [(r["port"], r["priority"]) for r in rows][:2]
    assert first == [("400GE1/1/1", "3"), ("400GE1/1/1", "4")]
    entry = load_display(Vendor.HUAWEI).checks["watchdog"]
    obs = Observed(plan, {"leaf-1": {"watchdog": rows}}, {"leaf-1": {"watchdog": entry}})
    check_lossless(obs)
    said = {f.port: f.message for f in obs.findings if f.rule == "RV133"}
    assert said["400GE1/1/1"].endswith("(TurnOff)") and "400GE1/1/2" not in said
    assert "port not in 'display dcb pfc deadlock trigger status'" in said["400GE1/1/4"]


def test_what_a_real_huawei_switch_does_not_print_is_never_read_as_fine() -> None:
    """The queue statistics give drops per queue (RV143) and no ECN state or marks: pauses
    with no mark to read are no RV142, an ECN queue with no state to read no pass either."""
    plan = load_plan(SCENARIOS["pod-small-huawei"])
    entries = {c: load_display(Vendor.HUAWEI).checks[c] for c in ("pfc", "queue")}
    assert set(entries["queue"].unverifiable) == {"ecn", "ecn_marked"}
    after = {c: _sample(Vendor.HUAWEI, f"{c}.cr-example.txt") for c in entries}
    counts = ("rx_pause", "tx_pause", "triggers", "dropped")
    before = {
        c: [r | {k: "0" for k in counts if k in r} for r in rows] for c, rows in after.items()
    }
    obs = Observed(plan, {"leaf-1": before}, {"leaf-1": entries}, {"leaf-1": after}, 1.0)
    check_lossless(obs)
    check_counters(obs)
    found = [(f.rule, f.port) for f in obs.findings if f.rule in ("RV132", "RV142", "RV143")]
    assert found == [("RV143", "400GE1/1/2")]
    assert "dropped 2048 packets" in next(f.message for f in obs.findings if f.rule == "RV143")
    # the storm on 400GE1/1/2 names the deadlocks 'display dcb pfc' counted (DeadlockNum 2)
    storm = {f.port: f.message for f in obs.findings if f.rule == "RV141"}
    assert "watchdog fired 2 times" in storm["400GE1/1/2"]


def test_the_port_state_and_speed_of_a_real_zte_switch_are_read_from_phy_and_bw() -> None:
    """'show interface brief' as the captures print it: Phy is the link (a port shut,
    'down down down', and one enabled without link, 'up down down', are both down: RV111);
    BW is the speed it runs at (an up port at 100G of a planned 400G link: RV112)."""
    from roce_cfg.verify.checks import check_links

    plan = load_plan(SCENARIOS["pod-small-zte"])
    entry = load_display(Vendor.ZTE).checks["interfaces"]
    shut = {"0/1/0/3", "0/1/0/4", "0/1/0/27", "0/1/0/28"}
    for name, down in (("brief", shut), ("no-description", {"0/1/0/2"})):
        rows = _sample(Vendor.ZTE, f"interfaces.{name}.txt")
        listed = {r["port"].removeprefix("cdgei-") for r in rows}
        obs = Observed(plan, {"leaf-1": {"interfaces": rows}}, {"leaf-1": {"interfaces": entry}})
        check_links(obs)
        found = {(f.rule, f.port.removeprefix("cdgei-")) for f in obs.findings if f.port}
        said = {(rule, port) for rule, port in found if port in listed}
        slow = {("RV112", "0/1/0/26")} if name == "brief" else set()
        assert said == {("RV111", p) for p in down} | slow, name
    said_of = {f.port: f.message for f in obs.findings if f.rule == "RV111"}
    assert said_of["cdgei-0/1/0/2"].startswith("link down (server port")


def test_a_command_that_is_not_read_only_is_refused_when_loaded(tmp_path: Path) -> None:
    from roce_cfg.errors import InputError

    text = (ROOT / "vendors/zte.display.yaml").read_text()
    (tmp_path / "vendors").mkdir()
    bad = text.replace("command: show interface brief", "command: shutdown interface brief")
    assert bad != text
    (tmp_path / "vendors/zte.display.yaml").write_text(bad)
    with pytest.raises(InputError, match=r"checks\.interfaces\.command"):
        load_display(Vendor.ZTE, tmp_path)
