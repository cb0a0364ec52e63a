"""parse(render(cfg)) == cfg: for every golden switch, and for designs hypothesis makes up."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from roce_cfg.design.designer import design
from roce_cfg.errors import PlanError, RoceCfgError
from roce_cfg.grammar import load_grammar
from roce_cfg.intent.checks import check
from roce_cfg.intent.models import Intent
from roce_cfg.model.device import DeviceConfig
from roce_cfg.parse import Hints, parse_file, parse_text
from roce_cfg.platforms.profile import load_profile
from roce_cfg.render import Renderer
from roce_cfg.vendor import Vendor
from tests.helpers import ROOT, SCENARIOS, examples, load_yaml, run
from tests.roundtrip import as_configured

GOLDEN_CFGS = sorted((ROOT / "golden").glob("*/*.cfg"))


@pytest.mark.parametrize("cfg", GOLDEN_CFGS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_golden_config_parses_to_its_model(cfg: Path) -> None:
    want = DeviceConfig.model_validate(load_yaml(cfg.with_suffix(".yaml")))
    # A super-spine's config cannot say it is one: routed ports and BGP, like a spine.
    role = want.role if want.role == "superspine" else None
    got = parse_file(cfg, hints=Hints(model=want.model, role=role)).config
    assert got.vendor_from == "detected"
    assert got.vendor == want.vendor
    assert got.opaque == ()
    assert got.device == as_configured(want)


@pytest.mark.parametrize("cfg", GOLDEN_CFGS[::7], ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_golden_config_with_link_speeds_from_hints_is_exact(cfg: Path) -> None:
    want = DeviceConfig.model_validate(load_yaml(cfg.with_suffix(".yaml")))
    speeds = {i.name: i.speed_gbps for i in want.interfaces}
    got = parse_file(cfg, hints=Hints(model=want.model, role=want.role, speeds=speeds))
    assert got.config.device == want


MODELS = {v: sorted(load_profile(v).models) for v in Vendor}
SPEEDS = {Vendor.ZTE: [100, 400]}


@st.composite
def intents(draw: st.DrawFn) -> dict[str, Any]:
    leaf_vendor = draw(st.sampled_from(list(Vendor)))
    spine_vendor = draw(st.sampled_from(list(Vendor)))
    single = draw(st.booleans()) and draw(st.booleans())
    nic_speed = draw(st.sampled_from(SPEEDS.get(leaf_vendor, [100, 200, 400])))
    nics = draw(st.integers(1, 4))
    roce_prio = draw(st.integers(1, 4))
    cnp_prio = draw(st.integers(roce_prio + 1, 7))
    extra = draw(st.sets(st.integers(1, cnp_prio - 1), max_size=1))
    roce_dscp = draw(st.integers(0, 63))
    cnp_dscp = draw(st.integers(0, 63).filter(lambda d: d != roce_dscp))
    detect = draw(st.sampled_from([100, 200, 300, 500, 1000]))
    watchdog = draw(
        st.none()
        | st.fixed_dictionaries(
            {
                "detect_ms": st.just(detect),
                "restore_ms": st.sampled_from([detect, detect * 2, detect * 10]),
                "action": st.sampled_from(["drop", "forward"]),
            }
        )
    )
    min_kb = draw(st.integers(50, 2000))
    pfc: dict[str, Any] = {"no_drop": sorted({roce_prio} | extra)}
    if watchdog is not None:
        pfc["watchdog"] = watchdog
    role = lambda v: {"vendor": v.value, "model": draw(st.sampled_from(MODELS[v]))}  # noqa: E731
    fabric: dict[str, Any] = {
        "rails": nics,
        "links": {"server_leaf": {"speed": f"{nic_speed}G", "cable_m": draw(st.integers(1, 50))}},
        "mtu": draw(st.sampled_from([4200, 9000, 9216])),
    }
    if single:
        fabric |= {"topology": "single-switch", "switch": role(leaf_vendor)}
    else:
        fabric |= {
            "topology": "leaf-spine",
            "leaves_per_rail": 1,
            "spines": draw(st.integers(1, 3)),
            "uplinks_per_spine": draw(st.integers(1, 2)),
            "leaf": role(leaf_vendor),
            "spine": role(spine_vendor),
        }
        fabric["links"]["leaf_spine"] = {
            "speed": f"{draw(st.sampled_from([100, 400]))}G",
            "cable_m": draw(st.integers(1, 300)),
        }
    intent: dict[str, Any] = {
        "name": "hyp",
        "servers": {"count": draw(st.integers(1, 6)), "nics": nics, "nic_speed": f"{nic_speed}G"},
        "fabric": fabric,
        "addressing": {
            "loopbacks": "10.0.0.0/24",
            "fabric_p2p": "10.1.0.0/24",
            "rail_subnets": "172.16.0.0/16",
            "rail_vlan_base": draw(st.integers(2, 3000)),
        },
        "lossless": {
            "roce": {"dscp": roce_dscp, "priority": roce_prio},
            "cnp": {"dscp": cnp_dscp, "priority": cnp_prio},
            "pfc": pfc,
            "ecn": {
                "min_kb": min_kb,
                "max_kb": draw(st.integers(min_kb + 1, 8000)),
                "probability": draw(st.integers(1, 100)),
            },
            "headroom": draw(st.sampled_from(["auto", 65536, 200000])),
        },
    }
    if not single:
        intent["routing"] = draw(
            st.sampled_from(
                [
                    {"protocol": "ebgp", "spine_asn": 65000, "leaf_asn_base": 65101},
                    {"protocol": "ebgp", "spine_asn_base": 64601, "leaf_asn_base": 65101},
                ]
            )
        ) | {"max_paths": draw(st.sampled_from([1, 8, 64]))}
    return intent


def rendered_per_vendor_and_role(data: dict[str, Any]) -> Iterator[tuple[DeviceConfig, str]]:
    """Design a drawn intent (hypothesis skips the ones the checks or the designer refuse) and
    render one switch per vendor and role, which keeps each example fast."""
    intent = Intent.model_validate(data)
    assume(not check(intent))
    vendors = {
        r.vendor for r in (intent.fabric.leaf, intent.fabric.spine, intent.fabric.switch) if r
    }
    profiles = {v: load_profile(v) for v in vendors}
    try:
        fabric = design(intent, profiles)
    except PlanError:
        assume(False)
        raise
    seen: set[tuple[Vendor, str]] = set()
    for device in fabric.devices:
        if (device.vendor, device.role) in seen:
            continue
        seen.add((device.vendor, device.role))
        profile = profiles[device.vendor]
        text = Renderer(profile).render(device, profile.models[device.model]).text
        # What generate refuses (a value the grammar rules out for the model) is no config
        # a switch would print; parse reads such a line as unread, not back to the design.
        assume(not load_grammar(device.vendor.value).check(text, device.model).violations)
        yield device, text


@settings(
    max_examples=examples(200),
    deadline=None,
    suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow],
)
@given(intents())
def test_any_designed_device_round_trips(data: dict[str, Any]) -> None:
    for device, text in rendered_per_vendor_and_role(data):
        got = parse_text(text, file=f"{device.hostname}.cfg", hints=Hints(model=device.model))
        assert got.config.vendor == device.vendor
        assert got.config.device == as_configured(device), text


def test_cli_parse_of_generated_pod_with_fabric_json_gives_back_the_design(tmp_path: Path) -> None:
    """generate -> files on disk -> roce-cfg parse --fabric: the exact designed devices."""
    cfg_dir, json_dir = tmp_path / "cfg", tmp_path / "json"
    assert run("generate", str(SCENARIOS["pod-small"]), "-o", str(cfg_dir)).exit_code == 0
    assert (
        run(
            "generate", str(SCENARIOS["pod-small"]), "-o", str(json_dir), "--files", "model"
        ).exit_code
        == 0
    )
    result = run("parse", str(cfg_dir), "--fabric", str(cfg_dir / "fabric.json"))
    assert result.exit_code == 0, result.stderr
    configs = json.loads(result.stdout)["configs"]
    assert len(configs) == 12
    for parsed in configs:
        host = parsed["device"]["hostname"]
        designed = json.loads((json_dir / f"{host}.json").read_text())
        assert parsed["device"] == designed, host
        assert (parsed["model_from"], parsed["role_from"]) == ("given", "given")


@settings(
    max_examples=examples(30),
    deadline=None,
    suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow],
)
@given(intents())
def test_configs_alone_lint_as_with_their_plan(data: dict[str, Any]) -> None:
    """Random lossless policies (DSCPs, priorities, ECN, MTU): the generated configs without
    fabric.json give the findings they give with it (the descriptions and the configs' own
    policy say what the plan says), and no error."""
    import tempfile

    from roce_cfg.analysis import lint
    from roce_cfg.generate import generate
    from roce_cfg.output import write_all

    data["lossless"]["headroom"] = "auto"  # a fixed figure may be short by design
    intent = Intent.model_validate(data)
    assume(not check(intent))
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "intent.yaml"
        source.write_text(yaml.safe_dump(json.loads(intent.model_dump_json(exclude_none=True))))
        try:
            result = generate(source)
        except RoceCfgError:  # a design that does not fit its switches
            assume(False)
            raise
        files = {f"{h}.cfg": t for h, t in result.configs.items()}
        write_all(Path(tmp) / "alone", files)
        files["fabric.json"] = result.fabric.model_dump_json(exclude={"devices"})
        write_all(Path(tmp) / "planned", files)

        def seen(folder: str) -> tuple[list[tuple[str, str, str | None]], set[str]]:
            found = lint([Path(tmp) / folder]).findings
            # the rules a switch whose model is assumed (RC123) does not judge
            unjudged = {
                r for f in found if f.rule == "RC123" for r in re.findall(r"RC\d+", f.message)
            }
            kept = sorted((f.rule, f.device, f.port) for f in found if f.severity != "info")
            return kept, unjudged

        alone, unjudged = seen("alone")
        planned, _ = seen("planned")
        # alone, nothing more; less only where a model the plan states is assumed
        assert [f for f in alone if f not in planned] == []
        assert [f for f in planned if f not in alone and f[0] not in unjudged] == []
        assert not [f for f in alone if f[0] in ("RC109", "RC303", "RC306", "RC201", "RC107")]
