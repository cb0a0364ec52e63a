"""Push against hosts that are no usable switch: a closed port, a port that never speaks or
speaks no SSH, a login that fails, a session with no prompt or only noise, a command never
answered. Each step is bounded, each host gets its own outcome, the rest of the batch is done."""

from __future__ import annotations

import socket
import time
from pathlib import Path

import pytest

from roce_cfg.deploy import fanout
from roce_cfg.deploy.inventory import Target
from roce_cfg.deploy.inventory import load as load_inventory
from roce_cfg.deploy.push import Credentials
from roce_cfg.deploy.transport import Timeouts, Unusable, connect
from roce_cfg.errors import InputError
from roce_cfg.lab.cli import Faults, Switch
from roce_cfg.lab.server import Lab
from roce_cfg.platforms.profile import load_profile
from roce_cfg.vendor import Vendor
from tests.helpers import ROOT, run

USER, PASSWORD = "netops", "Lab-Pa55-never-printed"
CREDS = Credentials(USER, PASSWORD)
FAST = Timeouts(connect=2, banner=2, auth=3, prompt=3, command=5)
H3C = load_profile(Vendor.H3C)
LEAF = (ROOT / "golden" / "pod-small-h3c" / "leaf-1.cfg").read_text()

# host -> (fault, the outcome it must get)
HOSTS: dict[str, tuple[Faults, str]] = {
    "good": (Faults(), "planned"),
    "silent-tcp": (Faults(before_ssh="silent"), "timeout"),
    "noise-tcp": (Faults(before_ssh="garbage"), "garbage"),
    "wrong-login": (Faults(refuse_login=True), "auth-failed"),
    "silent-cli": (Faults(after_login="silent"), "no-prompt"),
    "noise-cli": (Faults(after_login="garbage"), "garbage"),
    "flood-cli": (Faults(after_login="flood"), "garbage"),
    "hangs": (Faults(hang_on="display current-configuration"), "timeout"),
}


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _lab() -> Lab:
    switches = []
    for name, (faults, _) in HOSTS.items():
        sw = Switch.start(name, H3C)
        sw.faults = faults
        switches.append(sw)
    return Lab(switches, USER, PASSWORD)


@pytest.mark.slow
def test_each_host_gets_its_own_outcome_within_its_step_bounds(tmp_path: Path) -> None:
    configs = tmp_path / "out"
    configs.mkdir()
    names = [*HOSTS, "closed"]
    for name in names:
        (configs / f"{name}.cfg").write_text(LEAF.replace("sysname leaf-1", f"sysname {name}"))
    with _lab() as lab:
        ports = {name: ep.port for name, ep in lab.endpoints.items()}
        ports["closed"] = _closed_port()
        targets = [Target(n, "127.0.0.1", ports[n], H3C) for n in names]
        start = time.monotonic()
        outcomes = fanout.run(targets, configs, CREDS, apply=False, workers=8, timeouts=FAST)
        took = time.monotonic() - start
    got = {o.host: (o.kind or o.status) for o in outcomes}
    want = {name: expected for name, (_, expected) in HOSTS.items()} | {"closed": "unreachable"}
    assert got == want, {o.host: o.error for o in outcomes}
    good = next(o for o in outcomes if o.host == "good")
    assert good.status == "planned" and good.commands  # the rest of the batch unharmed
    for o in outcomes:
        # No step may take longer than its bound (plus the slack of a loaded machine).
        assert o.seconds < FAST.banner + FAST.auth + FAST.prompt + FAST.command + 3, o
        if o.host != "good":
            assert o.status == "failed" and o.error and "Traceback" not in o.error
    assert took < 30  # in parallel: the slowest host's bound, not the sum
    assert PASSWORD not in "".join(o.error for o in outcomes)


def test_inventory_extras_set_the_step_timeouts(tmp_path: Path) -> None:
    sw = Switch.start("silent-tcp", H3C)
    sw.faults = Faults(before_ssh="silent")
    with Lab([sw], USER, PASSWORD) as lab:
        port = lab.endpoints["silent-tcp"].port
        start = time.monotonic()
        with pytest.raises(Unusable) as caught:
            connect(H3C, "127.0.0.1", port, USER, PASSWORD, Timeouts(banner=30),
                    (("banner_timeout", 1),))  # fmt: skip
        assert time.monotonic() - start < 5
        assert caught.value.kind == "timeout" and "within 1 s" in str(caught.value)


def test_inventory_connection_options_reach_the_target(tmp_path: Path) -> None:
    inventory = tmp_path / "inv.yaml"
    inventory.write_text(
        "groups:\n  fabric:\n    connection_options:\n      netmiko:\n"
        "        extras: {conn_timeout: 3, fast_cli: false}\n"
        "hosts:\n  leaf-1: {hostname: 127.0.0.1, port: 2222, groups: [fabric], "
        "data: {vendor: h3c}}\n"
    )
    (target,) = load_inventory(inventory)
    assert dict(target.extras) == {"conn_timeout": 3, "fast_cli": False}


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ("hosts: {a: [1, 2]}", "hosts.a: is not a mapping"),
        ("hosts: {a: {port: ssh, data: {vendor: h3c}}}", "hosts.a.port: 'ssh' is not a TCP port"),
        ("hosts: {a: {port: 70000, data: {vendor: h3c}}}", "hosts.a.port: 70000"),
        ("hosts: {a: {groups: g1, data: {vendor: h3c}}}", "hosts.a.groups: is not a list"),
        ("hosts: {a: {groups: [nope], data: {vendor: h3c}}}", "hosts.a.groups: no group nope"),
        ("groups: [x]\nhosts: {a: {data: {vendor: h3c}}}", "groups: is not a mapping"),
        ("defaults: 3\nhosts: {a: {data: {vendor: h3c}}}", "defaults: is not a mapping"),
        ("hosts: {a: {data: [1]}}", "hosts.a.data: is not a mapping"),
        ("hosts: {a: {hostname: [1], data: {vendor: h3c}}}", "hosts.a.hostname"),
        ("hosts: {a: {data: {vendor: h3c}, connection_options: 5}}", "connection_options"),
        (
            "hosts: {a: {data: {vendor: h3c}, connection_options: {netmiko: {extras: "
            "{password: x}}}}}",
            "does not pass 'password' to netmiko",
        ),
        (
            "hosts: {a: {data: {vendor: h3c}, connection_options: {netmiko: {extras: "
            "{conn_timeout: -1}}}}}",
            "conn_timeout: -1 is not a valid value",
        ),
    ],
)
def test_a_malformed_inventory_is_one_line_exit_2(
    body: str, says: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    inventory = tmp_path / "inv.yaml"
    inventory.write_text(body + "\n")
    with pytest.raises(InputError, match=says.replace("(", r"\(")):
        load_inventory(inventory)
    configs = tmp_path / "out"
    configs.mkdir()
    monkeypatch.setenv("ROCE_CFG_USERNAME", USER)
    monkeypatch.setenv("ROCE_CFG_PASSWORD", PASSWORD)
    result = run("push", str(configs), "-i", str(inventory))
    assert result.exit_code == 2
    assert says in result.output and "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_push_cli_names_each_failed_step_and_exits_3(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    configs = tmp_path / "out"
    configs.mkdir()
    for name in ("good", "silent-cli", "closed"):
        (configs / f"{name}.cfg").write_text(LEAF)
    sw_good, sw_silent = Switch.start("good", H3C), Switch.start("silent-cli", H3C)
    sw_silent.faults = Faults(after_login="silent")
    monkeypatch.setenv("ROCE_CFG_USERNAME", USER)
    monkeypatch.setenv("ROCE_CFG_PASSWORD", PASSWORD)
    with Lab([sw_good, sw_silent], USER, PASSWORD) as lab:
        hosts = {"good": lab.endpoints["good"].port, "silent-cli": lab.endpoints["silent-cli"].port,
                 "closed": _closed_port()}  # fmt: skip
        inventory = tmp_path / "inv.yaml"
        inventory.write_text(
            "hosts:\n"
            + "".join(
                f"  {n}: {{hostname: 127.0.0.1, port: {p}, data: {{vendor: h3c}}}}\n"
                for n, p in hosts.items()
            )
        )
        result = run("push", str(configs), "-i", str(inventory), "--timeouts", "prompt=2,auth=3")
    assert result.exit_code == 3, result.output
    assert "failed (unreachable)" in result.stdout
    assert "failed (no-prompt)" in result.stdout
    assert "planned" in result.stdout
    bad = run("push", str(configs), "-i", str(inventory), "--timeouts", "prompt=fast")
    assert bad.exit_code == 2 and "--timeouts: 'prompt=fast'" in bad.output


def test_timeouts_default_and_parse() -> None:
    assert Timeouts.parse("") == Timeouts()
    assert Timeouts.parse("connect=1.5").connect == 1.5
    for bad in ("connect", "nope=3", "auth=0", "command=99999"):
        with pytest.raises(InputError):
            Timeouts.parse(bad)
