"""Issue 29 from the command line: 'roce-cfg lab --fault', its clean stop on SIGINT and SIGTERM
(also started as a background job that ignores SIGINT), and 'push --format json'."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from roce_cfg.errors import InputError
from roce_cfg.lab.faults import parse
from tests.helpers import ROOT, SCENARIOS, run

USER, PASSWORD = "netops", "Lab-Pa55-never-printed"
ENV = {**os.environ, "ROCE_CFG_USERNAME": USER, "ROCE_CFG_PASSWORD": PASSWORD}


def test_fault_specs_parse_and_bad_ones_are_one_line_errors() -> None:
    assert parse("leaf-1:reject=^peer .* enable") == ("leaf-1", "reject", "^peer .* enable")
    assert parse("leaf-1:drop-after=150") == ("leaf-1", "drop_after", 150)
    assert parse("spine-1:save-error") == ("spine-1", "save_error", True)
    assert parse("leaf-2:delay=0.5") == ("leaf-2", "delay_s", 0.5)
    for bad, why in [
        ("leaf-1", "HOST:KIND"),
        ("leaf-1:explode", "KIND one of"),
        ("leaf-1:reject=(", "not a regex"),
        ("leaf-1:drop-after=-3", "whole number"),
        ("leaf-1:delay=1e9", "0-600"),
        ("leaf-1:save-error=yes", "takes no value"),
    ]:
        with pytest.raises(InputError, match=why):
            parse(bad)


def _lab(tmp_path: Path, *extra: str, ignore_sigint: bool = False) -> subprocess.Popen[bytes]:
    inventory = tmp_path / "inv.yaml"
    cmd = [sys.executable, "-m", "roce_cfg", "lab", "--intent",
           str(SCENARIOS["pod-small-h3c"]), "--inventory-out", str(inventory), *extra]  # fmt: skip
    # A shell starts 'roce-cfg lab &' with SIGINT ignored; Popen can do the same.
    pre = (lambda: signal.signal(signal.SIGINT, signal.SIG_IGN)) if ignore_sigint else None
    proc = subprocess.Popen(cmd, cwd=ROOT, env=ENV, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, preexec_fn=pre)  # fmt: skip
    deadline = time.monotonic() + 120
    while not inventory.is_file() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.1)
    assert inventory.is_file(), proc.stderr.read().decode() if proc.stderr else ""
    return proc


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_lab_stops_cleanly_on_a_signal_even_as_a_background_job(
    tmp_path: Path, sig: signal.Signals
) -> None:
    proc = _lab(tmp_path, ignore_sigint=True)
    proc.send_signal(sig)
    try:
        code = proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert code == 0
    assert proc.stderr is not None and "Traceback" not in proc.stderr.read().decode()


def test_a_rehearsed_reject_from_the_cli_is_rolled_back_and_reported_as_json(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    proc = _lab(tmp_path, "--fault", "leaf-1:reject=^peer .* enable")
    try:
        out = tmp_path / "out"
        assert run("generate", str(SCENARIOS["pod-small-h3c"]), "-o", str(out)).exit_code == 0
        inventory = yaml.safe_load((tmp_path / "inv.yaml").read_text())
        inventory["hosts"] = {
            k: v for k, v in inventory["hosts"].items() if k in ("leaf-1", "leaf-2")
        }
        (tmp_path / "two.yaml").write_text(yaml.safe_dump(inventory))
        monkeypatch.setenv("ROCE_CFG_USERNAME", USER)
        monkeypatch.setenv("ROCE_CFG_PASSWORD", PASSWORD)
        result = run("push", str(out), "-i", str(tmp_path / "two.yaml"), "--apply",
                     "--format", "json")  # fmt: skip
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    assert result.exit_code == 3, result.output
    doc = json.loads(result.stdout)
    switches = {s["host"]: s for s in doc["switches"]}
    leaf1, leaf2 = switches["leaf-1"], switches["leaf-2"]
    assert leaf1["status"] == "rolled back" and leaf1["failed"] and leaf1["left"] == []
    assert "peer" in leaf1["error"] and "enable" in leaf1["error"]
    assert leaf1["restore"].startswith("vendor restore point: configuration replace file")
    assert leaf2["status"] == "changed" and leaf2["saved"] and not leaf2["failed"]
    assert leaf2["commands"] and leaf2["seconds"] > 0
    assert doc["counts"] == {"changed": 1, "rolled back": 1}
    assert PASSWORD not in result.output


def test_the_confirm_timeout_is_put_in_each_switchs_unit_and_range() -> None:
    from roce_cfg.platforms.profile import load_profile
    from roce_cfg.vendor import Vendor

    h3c = load_profile(Vendor.H3C).dialect.confirm
    huawei = load_profile(Vendor.HUAWEI).dialect.confirm
    assert h3c is not None and huawei is not None
    assert h3c.arm.format(time=h3c.amount(300)) == "configuration commit delay 5"
    assert h3c.amount(61) == 2  # minutes, rounded up: never shorter than asked
    assert huawei.arm.format(time=huawei.amount(300)) == "commit trial 300"
    assert huawei.amount(10) == 60  # VRP's floor ([HW-CR] commit trial <60-65535>)
    assert load_profile(Vendor.RUIJIE).dialect.confirm is None  # no sourced timer
