"""QoS policies (MQC) and queue buffer caps as the model holds them (roce_cfg/parse/policies.py):
what each applied policy does to the traffic it matches, where, and what is left unread."""

from __future__ import annotations

from pathlib import Path

from roce_cfg.parse import parse_file, parse_text
from tests.helpers import ROOT

MIX = ROOT / "tests/brownfield/fabrics/mix-3tier"
H3C = (ROOT / "golden/pod-small-h3c/leaf-1.cfg").read_text("utf-8")
HUAWEI = (ROOT / "golden/pod-small-huawei/leaf-1.cfg").read_text("utf-8")


def _unread(text: str, vendor_file: str = "leaf-1.cfg") -> dict[int, str]:
    cfg = parse_text(text, file=vendor_file).config
    facts = {n: f.section for f in cfg.accounting.unread_facts for n in f.lines}
    return facts


def test_a_global_policer_on_the_cnp_class() -> None:
    qos = parse_file(MIX / "leaf-p1-2.cfg").config.device.qos
    (policy,) = qos.policies
    assert (policy.name, policy.scope, policy.direction, policy.line) == (
        "GLOBAL-IN",
        "global",
        "inbound",
        365,
    )
    (cls,) = policy.classes
    assert (cls.classifier, cls.behavior, cls.dscps, cls.operator) == (
        "CNP",
        "CNP-LIMIT",
        (48,),
        "and",
    )
    assert (cls.cir_kbps, cls.drops_excess, cls.shaped, cls.line) == (100_000, True, False, 30)


def test_a_port_remark_and_a_huawei_global_policer_in_gbps() -> None:
    (remark,) = parse_file(MIX / "spine-p2-1.cfg").config.device.qos.policies
    assert (remark.scope, remark.direction, remark.ports) == (
        "port",
        "outbound",
        ("FourHundredGigE1/0/2",),
    )
    assert (remark.classes[0].dscps, remark.classes[0].remark_dscp) == ((26,), 10)
    parsed = parse_file(MIX / "ss-2.cfg").config
    (police,) = parsed.device.qos.policies
    assert (police.classes[0].dscps, police.classes[0].cir_kbps) == ((8,), 10_000_000)
    # no red action printed and no source for VRP's default: taken as discard, and said so
    assert police.classes[0].drops_excess
    assert any("no source gives the default" in n for n in parsed.notes)


def test_a_static_queue_cap_in_bytes() -> None:
    (cap,) = parse_file(MIX / "spine-p1-2.cfg").config.device.qos.buffer_caps
    assert (cap.port, cap.queue, cap.value, cap.unit, cap.line) == (
        "100GE1/0/2",
        3,
        100 * 1024,
        "bytes",
        74,
    )


def test_dscp_keywords_and_a_percent_cap_on_comware() -> None:
    extra = (
        "#\ntraffic classifier C operator or\n if-match dscp cs6 af31\n if-match service-dot1p 5\n"
        "#\ntraffic behavior B\n remark dot1p 1\n#\nqos policy P\n classifier C behavior B\n"
        "#\n qos vlan-policy P vlan 101 inbound\n#\n buffer egress cell queue 3 shared ratio 20\n"
    )
    qos = parse_text(H3C.replace("#\nvlan 101", extra + "#\nvlan 101", 1)).config.device.qos
    (policy,) = qos.policies
    assert (policy.scope, policy.vlans, policy.direction) == ("vlan", ((101, 101),), "inbound")
    cls = policy.classes[0]
    assert (cls.dscps, cls.priorities, cls.operator, cls.remark_priority) == (
        (26, 48),
        (5,),
        "or",
        1,
    )
    assert [(c.queue, c.value, c.unit, c.port) for c in qos.buffer_caps] == [
        (3, 20, "percent", None)
    ]


def test_a_policy_that_is_not_defined_is_unread_on_its_line() -> None:
    text = H3C.replace(
        " priority-flow-control deadlock enable\n",
        " priority-flow-control deadlock enable\n qos apply policy NOWHERE inbound\n",
        1,
    )
    cfg = parse_text(text, file="leaf-1.cfg").config
    assert cfg.device.qos.policies == ()
    line = text.splitlines().index(" qos apply policy NOWHERE inbound") + 1
    assert [u.line for u in cfg.unread] == [line]
    assert _unread(text)[line] == "qos_maps"  # the gate keeps qos_maps rules silent there


def test_a_dscp_out_of_range_is_refused() -> None:
    extra = "traffic classifier C type or\n if-match dscp 64\n#\n"
    text = HUAWEI.replace("dcb pfc\n", extra + "dcb pfc\n", 1)
    cfg = parse_text(text, file="leaf-1.cfg").config
    line = text.splitlines().index(" if-match dscp 64") + 1
    assert line in [u.line for u in cfg.unread]


def test_a_vlan_view_policy_is_not_taken_for_the_port_before_it() -> None:
    """The templates see lines without their indentation: a VLAN block after a port must not
    lend the port its 'traffic-policy' line."""
    policy = (
        "traffic classifier C type or\n if-match dscp 8\n#\ntraffic behavior B\n car cir 10 gbps\n"
        "#\ntraffic policy P\n classifier C behavior B\n#\n"
    )
    text = HUAWEI.replace("dcb pfc\n", policy + "dcb pfc\n", 1).replace(
        "\nreturn", "\nvlan 20\n traffic-policy P outbound\n#\nreturn", 1
    )
    qos = parse_text(text, file="leaf-1.cfg").config.device.qos
    assert [(p.scope, p.vlans, p.ports) for p in qos.policies] == [("vlan", ((20, 20),), ())]


def test_a_pfc_uplink_group_moves_dscp_and_priority() -> None:
    cfg = parse_file(ROOT / "tests/wild/huawei/ce-doc-pfc-deadlock-leaf1.cfg").config
    (group,) = cfg.device.qos.policies
    assert (group.scope, group.direction, group.ports) == (
        "uplink",
        "transit",
        ("100GE1/0/1", "100GE1/0/2"),
    )
    moves = [(c.dscps, c.remark_dscp, c.remark_priority) for c in group.classes]
    assert moves == [((24,), 32, 4), ((32,), 16, 2)]


def test_no_policy_no_new_keys_in_the_dump(tmp_path: Path) -> None:
    """Goldens stay byte for byte: a switch without policies or caps dumps as before."""
    dumped = parse_text(H3C).config.device.qos.model_dump()
    assert "policies" not in dumped and "buffer_caps" not in dumped
