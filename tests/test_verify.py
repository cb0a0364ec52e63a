"""roce-cfg verify against the SSH emulators: each live fault alone gives exactly its finding,
the healthy lab gives none, and what has no sourced display command is 'cannot verify'."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from roce_cfg.deploy.inventory import Target
from roce_cfg.deploy.push import Credentials
from roce_cfg.lab.display import DisplayFaults, World
from roce_cfg.lab.run import inventory as lab_inventory
from roce_cfg.lab.run import switches
from roce_cfg.lab.server import Lab
from roce_cfg.model.fabric import Fabric, Link
from roce_cfg.vendor import Vendor
from roce_cfg.verify.data import CHECKS, load_display, parse, port_key, speed_gbps
from roce_cfg.verify.run import Settings, Verified, load_plan, parse_skip, parse_window, verify
from tests.helpers import ROOT, SCENARIOS, run

USER, PASSWORD = "netops", "Lab-Pa55-never-printed"
CREDS = Credentials(USER, PASSWORD)
SWITCHES = 4  # in the pods verify reads (_small)
WINDOW = 0.4  # seconds: the lab's counters move at fixed rates (lab/display.py)


@dataclass
class Pod:
    plan: Fabric
    world: World
    targets: list[Target]
    lab: Lab

    def verify(self, **settings: object) -> Verified:
        return verify(self.plan, self.targets, CREDS, Settings(**settings))  # type: ignore[arg-type]


def _small(vendor: str, folder: Path) -> Path:
    """The vendor's pod cut to two rails and two spines: 4 switches to read, not 12, with every
    shape the faults need (a leaf with uplinks to different spines, servers, BGP)."""
    text = SCENARIOS[f"pod-small-{vendor}"].read_text(encoding="utf-8")
    for old, new in (
        ("nics: 8 ", "nics: 2 "),
        ("rails: 8\n", "rails: 2\n"),
        ("spines: 4\n", "spines: 2\n"),
    ):
        assert old in text, old
        text = text.replace(old, new)
    path = folder / f"pod-{vendor}.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def _pod(vendor: str, folder: Path) -> Iterator[Pod]:
    intent = _small(vendor, folder)
    sws = switches(intent, "intended")
    world = sws[0].display
    assert isinstance(world, World)
    with Lab(sws, USER, PASSWORD) as lab:
        targets = [
            Target(n, "127.0.0.1", ep.port, ep.switch.profile)
            for n, ep in sorted(lab.endpoints.items())
        ]
        yield Pod(load_plan(intent), world, targets, lab)


@pytest.fixture(scope="module", params=["h3c", "huawei"])
def pod(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Pod]:
    yield from _pod(request.param, tmp_path_factory.mktemp("verify"))


@pytest.fixture(autouse=True)
def _healthy(request: pytest.FixtureRequest) -> Iterator[None]:
    yield
    if "pod" in request.fixturenames:
        request.getfixturevalue("pod").world.faults.clear()


def _uplinks(plan: Fabric, leaf: str) -> list[Link]:
    return [k for k in plan.links if k.a_device == leaf]


def _found(v: Verified) -> list[tuple[str, str, str | None]]:
    return [(f.rule, f.device, f.port) for f in v.result.findings]


def _partial(pod: Pod) -> list[str]:
    """The checks whose real format leaves part of them unprinted (Huawei's queue statistics:
    no ECN state or marks): one RV190 per switch each, whatever the fabric's health."""
    vendor = pod.targets[0].profile.vendor
    return sorted(c for c, e in load_display(vendor).checks.items() if e.unverifiable)


def _apart(v: Verified, pod: Pod) -> list[tuple[str, str, str | None]]:
    """The findings but the RV190s of ``_partial`` (each checked to be there, once a switch)."""
    parts = tuple(f"cannot verify {c} (" for c in _partial(pod))
    said = [f for f in v.result.findings if f.rule == "RV190" and f.message.startswith(parts)]
    assert sorted(f.device for f in said) == sorted(
        t.name for t in pod.targets for _ in _partial(pod)
    ), v.result.findings
    return [(f.rule, f.device, f.port) for f in v.result.findings if f not in said]


@pytest.mark.sample(1)
def test_the_healthy_lab_gives_no_finding(pod: Pod) -> None:
    v = pod.verify(unsourced=True, window_s=WINDOW)
    assert _apart(v, pod) == [], v.result.findings[:3]
    assert v.switches == len(pod.targets) == SWITCHES
    # read-only: not one line reached a configuration view on any switch
    assert [sw.commands for sw in pod.world.switches.values()] == [0] * SWITCHES


Inject = Callable[[DisplayFaults, Link, Link], None]
FAULTS: dict[str, tuple[Inject, str, bool]] = {
    # name: (inject on leaf-1 given two of its uplinks to different spines, rule, needs window)
    "cable swapped": (lambda f, k, o: setattr(f, "swapped", (k.a_port, o.a_port)), "RV102", False),
    "link down": (lambda f, k, o: f.down.add(k.a_port), "RV111", False),
    "lower speed": (lambda f, k, o: f.speed.update({k.a_port: k.speed_gbps // 4}), "RV112", False),
    "bgp peer down": (lambda f, k, o: f.bgp_down.add(k.a_port), "RV121", False),
    "pfc off (dcbx)": (lambda f, k, o: f.pfc_off.add(k.a_port), "RV131", False),
    "pfc storm": (lambda f, k, o: f.storm.add(k.a_port), "RV141", True),
    "ecn not marking": (lambda f, k, o: f.ecn_off.add(k.a_port), "RV142", True),
    "lossless drops": (lambda f, k, o: f.drops.add(k.a_port), "RV143", True),
    "watchdog not armed": (lambda f, k, o: f.unarmed.add(k.a_port), "RV133", False),
}


@pytest.mark.sample(4)
@pytest.mark.parametrize("fault", list(FAULTS))
def test_each_fault_alone_gives_exactly_its_finding(pod: Pod, fault: str) -> None:
    inject, rule, windowed = FAULTS[fault]
    ups = _uplinks(pod.plan, "leaf-1")
    first = ups[0]
    other = next(k for k in ups if k.b_device != first.b_device)
    inject(pod.world.fault("leaf-1"), first, other)
    v = pod.verify(unsourced=True, window_s=WINDOW if windowed else 0.0)
    queue = load_display(pod.targets[0].profile.vendor).checks["queue"]
    if rule == "RV142" and "ecn_marked" in queue.unverifiable:
        # the format has no ECN-marked count: the RV190 of every switch says so, none is RV142
        assert _apart(v, pod) == []
        return
    assert _apart(v, pod) == [(rule, "leaf-1", first.a_port)], v.result.findings
    finding = next(f for f in v.result.findings if f.rule == rule)
    if rule == "RV102":
        assert finding.related_port == other.a_port
    if rule == "RV141":  # the numbers: pauses in the window, and the watchdog firing
        assert "pauses received" in finding.message and "watchdog fired" in finding.message
        assert any("/s" in d for d in finding.detail)


@pytest.mark.sample(1)
def test_by_default_unsourced_display_formats_are_cannot_verify(pod: Pod) -> None:
    v = pod.verify()
    vendor = pod.targets[0].profile.vendor
    unsourced = {c for c, e in load_display(vendor).checks.items() if e.status == "unsourced"}
    # H3C's queue and watchdog have no public output format; Huawei's are sourced, but its
    # queue statistics print no ECN state or marks
    assert unsourced or _partial(pod)
    assert _apart(v, pod) == [("RV190", t.name, None) for t in pod.targets for _ in unsourced]
    named = tuple(f"cannot verify {c}: " for c in unsourced)
    said = [f for f in v.result.findings if f.message.startswith(named)]
    assert len(said) == len(unsourced) * SWITCHES and all("unsourced" in f.message for f in said)
    assert not v.result.failing("error")  # a healthy fabric passes; what was not checked is listed
    skipped = pod.verify(skip=frozenset(unsourced | set(_partial(pod))))
    assert skipped.result.findings == []


@pytest.mark.parametrize(("vendor", "read"), [("ruijie", set()), ("zte", {"interfaces"})])
def test_ruijie_and_zte_checks_without_a_sourced_command_are_cannot_verify(
    vendor: str, read: set[str], tmp_path: Path
) -> None:
    """Ruijie has no sourced display command; ZTE has its port state and speed ('show interface
    brief', real captures) and nothing else: each other check is one RV190 per switch."""
    assert set(load_display(Vendor(vendor)).checks) == read
    missing = len(CHECKS) - len(read)
    for pod in _pod(vendor, tmp_path):
        v = pod.verify(unsourced=True)
        rules = {f.rule for f in v.result.findings}
        assert rules == {"RV190"}
        assert len(v.result.findings) == missing * len(pod.targets) == missing * SWITCHES
        assert not any(f"cannot verify {c}" in f.message for f in v.result.findings for c in read)
        # nothing checked, nothing found wrong: a warning each; a gate that must not pass on
        # anything unverified asks for it (docs/lint.md, one policy)
        assert not v.result.failing("error")
        assert len(v.result.failing("error", require_verified=True)) == missing * SWITCHES
        # read-only: 'show' commands only, not one line reached a configuration view
        assert [sw.commands for sw in pod.world.switches.values()] == [0] * SWITCHES


def test_a_down_port_and_a_lower_speed_are_found_on_zte_in_its_real_format(tmp_path: Path) -> None:
    """ZTE's 'show interface brief' as the real captures print it (the lab speaks it): each
    link fault alone gives exactly its finding, beside the RV190s of the unsourced checks."""
    for pod in _pod("zte", tmp_path):
        ups = _uplinks(pod.plan, "leaf-1")
        first = ups[0]
        other = next(k for k in ups if k.b_device != first.b_device)
        for fault in ("link down", "lower speed"):
            inject, rule, _ = FAULTS[fault]
            inject(pod.world.fault("leaf-1"), first, other)
            try:
                v = pod.verify()
            finally:
                pod.world.faults.clear()
            found = [f for f in _found(v) if f[0] != "RV190"]
            assert found == [(rule, "leaf-1", first.a_port)], fault
        said = next(f.message for f in v.result.findings if f.rule == "RV112")
        assert f"runs at {first.speed_gbps // 4}G, planned {first.speed_gbps}G" in said


def test_verify_command_formats_and_exit_codes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    intent = _small("h3c", tmp_path)
    for pod in _pod("h3c", tmp_path):
        inv = tmp_path / "inv.yaml"
        inv.write_text(lab_inventory(pod.lab))
        monkeypatch.setenv("ROCE_CFG_USERNAME", USER)
        monkeypatch.setenv("ROCE_CFG_PASSWORD", PASSWORD)
        ok = run("verify", str(intent), "-i", str(inv), "--skip", "queue,watchdog")
        assert ok.exit_code == 0, ok.output
        assert "0 errors" in ok.stdout and "per switch" in ok.stdout
        pod.world.fault("leaf-2").pfc_off.add(_uplinks(pod.plan, "leaf-2")[0].a_port)
        bad = run(
            "verify", str(intent), "-i", str(inv), "--format", "json", "--skip", "queue,watchdog"
        )
        assert bad.exit_code == 1, bad.output
        doc = json.loads(bad.stdout)
        assert doc["format"] == "roce-cfg/verify/v1"
        assert doc["summary"]["devices"] == SWITCHES and doc["summary"]["per_switch_s"] > 0
        assert [f["rule"] for f in doc["findings"]] == ["RV131"]
        sarif = json.loads(run("verify", str(intent), "-i", str(inv), "--format", "sarif").stdout)
        assert {r["ruleId"] for r in sarif["runs"][0]["results"]} == {"RV131", "RV190"}
        junit = run("verify", str(intent), "-i", str(inv), "--format", "junit").stdout
        assert 'name="roce-cfg verify"' in junit and "RV131" in junit
        assert USER not in bad.output and PASSWORD not in bad.output


def test_bad_options_are_one_line_errors() -> None:
    with pytest.raises(Exception, match="not a duration"):
        parse_window("soon")
    with pytest.raises(Exception, match="no check 'cabel'"):
        parse_skip("cabel")
    assert parse_window("500ms") == 0.5
    result = run("verify", str(SCENARIOS["pod-small-h3c"]), "-i", "x.yaml", "--window", "1e9s")
    assert result.exit_code == 2 and "Traceback" not in result.output


SAMPLES = ROOT / "tests/data/display"


@pytest.mark.parametrize(
    "sample", sorted(SAMPLES.glob("*/*.txt")), ids=lambda p: f"{p.parent.name}-{p.stem}"
)
def test_saved_samples_parse_as_their_records(sample: Path) -> None:
    """Output samples written after each source's format (tests/data/display/README.md) read
    back as the records beside them: the parser is not tuned to the lab's own text only."""
    vendor, check = Vendor(sample.parent.name), sample.name.split(".")[0]
    entry = load_display(vendor).checks[check]
    expected = json.loads(sample.with_suffix(".json").read_text())
    assert parse(entry, sample.read_text()) == expected


def test_port_names_join_on_their_number_and_speeds_read_in_their_unit() -> None:
    assert port_key("HGE1/0/25") == port_key("HundredGigE1/0/25") == "1/0/25"
    assert port_key("400GE1/1/1:2") == "1/1/1:2"
    assert speed_gbps("400Gbps-speed", "Mbps") == 400.0
    assert speed_gbps("100000", "Mbps") == 100.0
    assert speed_gbps("auto", "Mbps") is None


def test_push_verify_live_checks_the_switches_it_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from roce_cfg.lab.cli import Switch

    intent = _small("h3c", tmp_path)
    out = tmp_path / "out"
    assert run("generate", str(intent), "-o", str(out)).exit_code == 0
    for pod in _pod("h3c", tmp_path):
        leaf = pod.world.switches["leaf-1"]
        leaf.running = Switch.start("leaf-1", leaf.profile).running  # nothing configured yet
        before = pod.verify(skip=frozenset({"queue", "watchdog"}))
        # an unconfigured leaf: no BGP sessions come up (the spines' side stays down as well)
        assert {f.rule for f in before.result.findings} >= {"RV121", "RV131"}
        inv = tmp_path / "inv.yaml"
        inv.write_text(lab_inventory(pod.lab))
        monkeypatch.setenv("ROCE_CFG_USERNAME", USER)
        monkeypatch.setenv("ROCE_CFG_PASSWORD", PASSWORD)
        pod.world.fault("leaf-1").down.add(_uplinks(pod.plan, "leaf-1")[1].a_port)
        pushed = run("push", str(out), "-i", str(inv), "--apply", "--verify", "live")
        assert pushed.exit_code == 1, pushed.output  # pushed fine; verify found the down link
        text = pushed.stdout
        assert "verify (live) of the changed switches" in text
        assert "RV111" in text and "on 1 switches" in text  # leaf-1 only: the others were in place
        assert {line.split()[1].rstrip(":") for line in text.splitlines() if " RV1" in line} == {
            "RV111",
            "RV190",
        }


def test_lab_fault_option_sets_live_faults_and_refuses_bad_ones() -> None:
    from roce_cfg.errors import InputError
    from roce_cfg.lab.faults import inject

    sws = switches(SCENARIOS["pod-small-h3c"], "empty")
    world = sws[0].display
    assert isinstance(world, World)
    port = _uplinks(world.fabric, "leaf-1")[0].a_port
    notes = inject(
        sws,
        [
            f"leaf-1:pfc-storm={port}",
            f"leaf-1:link-speed={port}@100",
            f"leaf-1:watchdog-off={port}",
        ],
    )
    assert world.fault("leaf-1").storm == {port} and world.fault("leaf-1").speed == {port: 100}
    assert world.fault("leaf-1").unarmed == {port}
    assert len(notes) == 3
    for bad in ("leaf-1:link-down=Nowhere1/0/1", "leaf-1:link-speed=x@0", "nobody:pfc-off=x"):
        with pytest.raises(InputError, match="--fault"):
            inject(sws, [bad])


def test_report_takes_a_verify_result_and_flags_the_miscabled_link(tmp_path: Path) -> None:
    from roce_cfg.analysis.findings import Finding, LintResult
    from roce_cfg.verify.report import render

    intent = SCENARIOS["pod-small-h3c"]
    port = _uplinks(load_plan(intent), "leaf-1")[0].a_port
    swap = Finding(rule="RV102", severity="error", device="leaf-1", port=port,
                   message="cables swapped")  # fmt: skip
    text, _ = render(Verified(LintResult([swap], [], ["leaf-1"]), 1.0, 1), "json", tmp_path)
    result = tmp_path / "verify.json"
    result.write_text(text)
    html = tmp_path / "r.html"
    done = run("report", str(intent), "-o", str(html), "--verify", str(result))
    assert done.exit_code == 0, done.output
    # the report's data: the page's script flags a link with a finding on either end's port
    flagged = {(f["device"], f.get("port")): f["rule"] for f in _report_data(html)["findings"]}
    assert flagged.get(("leaf-1", port)) == "RV102"
    assert run("report", str(intent), "-o", str(html)).exit_code == 0
    assert ("leaf-1", port) not in {
        (f["device"], f.get("port")) for f in _report_data(html)["findings"]
    }
    (tmp_path / "bad.json").write_text('{"format": "roce-cfg/lint/v1", "findings": []}')
    bad = run("report", str(intent), "-o", str(html), "--verify", str(tmp_path / "bad.json"))
    assert bad.exit_code == 2 and "not a roce-cfg verify result" in bad.output


def _report_data(html: Path) -> dict[str, Any]:
    page = html.read_text()
    start = page.index('<script id="data" type="application/json">')
    body = page[page.index(">", start) + 1 : page.index("</script>", start)]
    return json.loads(body.replace("<\\/", "</"))  # type: ignore[no-any-return]


@pytest.mark.sample(1)
def test_a_command_the_switch_refuses_is_cannot_verify_not_an_empty_table(pod: Pod) -> None:
    from roce_cfg.lab.cli import Faults

    sw = pod.world.switches["spine-2"]
    entry = load_display(sw.profile.vendor).checks["routes"]
    sw.faults = Faults(reject=f"^{entry.command}$")  # the vendor's error instead of the table
    try:
        v = pod.verify(skip=frozenset({"pfc", "queue", "watchdog"}))
    finally:
        sw.faults = Faults()
    assert _found(v) == [("RV190", "spine-2", None)]  # not eight missing rail subnets
    assert "refused by the switch" in v.result.findings[0].message


@pytest.mark.sample(1)
def test_a_plan_without_configs_cannot_verify_the_lossless_state(pod: Pod, tmp_path: Path) -> None:
    vendor = pod.targets[0].profile.vendor.value
    out = tmp_path / "out"
    assert run("generate", str(_small(vendor, tmp_path)), "-o", str(out)).exit_code == 0
    bare = tmp_path / "bare"
    bare.mkdir()
    (bare / "fabric.json").write_text((out / "fabric.json").read_text())
    plan = load_plan(bare)
    assert plan.devices == () and load_plan(out).devices  # the folder's configs are the plan's
    v = verify(plan, pod.targets, CREDS, Settings(unsourced=True))
    assert _apart(v, pod) == [("RV190", t.name, None) for t in pod.targets]
    assert sum("no configuration" in f.message for f in v.result.findings) == SWITCHES


def test_cabling_names_a_missing_a_wrong_and_an_extra_neighbour() -> None:
    """The cabling check alone, on records as a switch prints them (abbreviated names)."""
    from roce_cfg.verify.checks import Observed, check_cabling

    plan = load_plan(SCENARIOS["pod-small-h3c"])
    entry = load_display(Vendor.H3C).checks["lldp"]
    ups = _uplinks(plan, "leaf-1")

    def row(port: str, far: str, far_port: str) -> dict[str, str]:
        short = port.replace("FourHundredGigE", "FH")  # joined on the number, not the type
        return {"port": short, "neighbor": far, "neighbor_port": far_port}

    lldp = [row(k.a_port, k.b_device, k.b_port) for k in ups[2:]]  # ups[0]: nothing seen
    lldp.append(row(ups[1].a_port, "spine-4", "FourHundredGigE1/0/9"))  # the wrong switch
    lldp.append(row("FourHundredGigE1/0/20", "leaf-2", "FourHundredGigE1/0/20"))  # unplanned
    obs = Observed(plan, {"leaf-1": {"lldp": lldp}}, {"leaf-1": {"lldp": entry}})
    check_cabling(obs)
    found = sorted((f.rule, f.port, f.related_device, f.related_port) for f in obs.findings)
    assert found == [
        ("RV101", ups[0].a_port, ups[0].b_device, ups[0].b_port),
        ("RV103", ups[1].a_port, "spine-4", "FourHundredGigE1/0/9"),
        ("RV104", "FH1/0/20", "leaf-2", "FourHundredGigE1/0/20"),
    ]


def test_underlay_names_a_peer_with_another_as_and_a_missing_session() -> None:
    from roce_cfg.verify.checks import Observed, check_underlay

    plan = load_plan(SCENARIOS["pod-small-h3c"])
    entry = load_display(Vendor.H3C).checks["bgp"]
    ups = _uplinks(plan, "leaf-1")
    spine_as = next(s.asn for s in plan.switches if s.hostname == ups[0].b_device)
    rows = [
        {"peer": str(k.b_ip.ip), "remote_as": str(spine_as), "state": "Established"}
        for k in ups[2:]
    ]
    rows.append({"peer": str(ups[1].b_ip.ip), "remote_as": "64999", "state": "Established"})
    obs = Observed(plan, {"leaf-1": {"bgp": rows}}, {"leaf-1": {"bgp": entry}})
    check_underlay(obs)
    found = sorted((f.rule, f.port, f.related_device) for f in obs.findings)
    assert found == [
        ("RV121", ups[0].a_port, ups[0].b_device),  # not configured at all
        ("RV122", ups[1].a_port, ups[1].b_device),
    ]
    assert (
        "not configured" in obs.findings[0].message or "not configured" in obs.findings[1].message
    )
