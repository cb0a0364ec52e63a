"""The verify findings (RV1xx): live state against the plan. Their own family beside lint's
RC rules, in the same Rule shape, so SARIF and 'docs/verify.md' describe them alike; they are not
lint rules (lint never runs them) and stay out of lint's registry and rulebook."""

from __future__ import annotations

from roce_cfg.analysis.findings import Severity
from roce_cfg.analysis.registry import Rule

_TABLE: list[tuple[str, str, Severity, str, str, str]] = [
    # id, name, severity, summary, rationale, fix
    (
        "RV101",
        "cable-missing",
        "error",
        "No LLDP neighbour on a planned, up link port",
        "The port is up but LLDP sees nobody: a cable to a box without LLDP, or to nowhere.",
        "Check the cable and LLDP on both ends.",
    ),
    (
        "RV102",
        "cables-swapped",
        "error",
        "Two ports' cables are exchanged",
        "Each port sees the neighbour planned for the other: routed point-to-point subnets and "
        "the deadlock analysis assume the planned cabling.",
        "Swap the two cables back.",
    ),
    (
        "RV103",
        "wrong-neighbour",
        "error",
        "A planned port is cabled to another switch or port",
        "LLDP names a neighbour the plan does not put there.",
        "Move the cable to the planned port (fabric.json links).",
    ),
    (
        "RV104",
        "extra-link",
        "warning",
        "A switch-to-switch link the plan does not have",
        "An unplanned link adds paths the routing and deadlock analysis do not know.",
        "Remove the cable or add the link to the intent.",
    ),
    (
        "RV111",
        "link-down",
        "error",
        "A planned port is down or absent",
        "Every planned link and server port carries traffic; a down one halves a path or cuts a "
        "GPU off its rail.",
        "Check optics, cable and 'shutdown'; the far end is named.",
    ),
    (
        "RV112",
        "link-speed",
        "error",
        "A link runs at another speed than planned",
        "A link that trained lower is a bottleneck and breaks the headroom arithmetic.",
        "Check optics and cable; set the port speed.",
    ),
    (
        "RV121",
        "bgp-down",
        "error",
        "A planned BGP session is not Established",
        "Routes over that link are missing: ECMP is narrower than planned.",
        "Check addresses, AS numbers and the link.",
    ),
    (
        "RV122",
        "bgp-peer-as",
        "error",
        "A BGP peer has another AS than planned",
        "The session runs to the wrong AS: routing policy and the plan disagree.",
        "Fix 'peer ... as-number' on either end.",
    ),
    (
        "RV123",
        "rail-subnet-missing",
        "error",
        "A leaf's rail subnet is not in a spine's table",
        "GPUs on that rail are unreachable through this spine.",
        "Check the leaf's 'network' statement and its sessions to the spine.",
    ),
    (
        "RV131",
        "pfc-not-operational",
        "error",
        "PFC is not operational on a planned priority",
        "PFC configured but not operational (DCBX negotiated it away, or the peer disagrees) "
        "makes the lossless class lossy.",
        "Check DCBX/PFC mode and the far end's PFC priorities.",
    ),
    (
        "RV132",
        "ecn-inactive",
        "error",
        "ECN is not active on the lossless queue",
        "Without ECN marks congestion becomes pauses: PFC storms and head-of-line blocking.",
        "Apply the WRED/ECN profile to the port's lossless queue.",
    ),
    (
        "RV133",
        "watchdog-disarmed",
        "error",
        "The PFC watchdog is not armed on a lossless port",
        "An unarmed watchdog lets a PFC storm or deadlock stall the fabric indefinitely.",
        "Enable PFC deadlock detection on the port.",
    ),
    (
        "RV141",
        "pfc-storm",
        "error",
        "Pause frames received at a storm rate",
        "A port receiving pauses continuously cannot send: a storm spreads back upstream.",
        "Find the storming neighbour (related port); check its NIC/switch and the watchdog.",
    ),
    (
        "RV142",
        "pauses-without-ecn",
        "error",
        "Pauses without ECN marks on the lossless queue",
        "Congestion handled by pauses alone: ECN should mark before PFC pauses.",
        "Check the ECN thresholds (below XOFF) and that ECN is applied to the queue.",
    ),
    (
        "RV143",
        "lossless-drops",
        "error",
        "Drops on a lossless queue",
        "A lossless queue must not drop: headroom too small or PFC not honoured.",
        "Check headroom for the cable length and PFC on both ends.",
    ),
    (
        "RV144",
        "watchdog-fired",
        "error",
        "The PFC watchdog fired",
        "The watchdog broke a pause storm or deadlock by dropping or forwarding lossless traffic.",
        "Find the source of the pauses; see 'roce-cfg deadlock'.",
    ),
    (
        "RV190",
        "cannot-verify",
        "warning",
        "A check could not be made",
        "What cannot be verified is reported, never taken as fine: no sourced display command "
        "for the vendor, or output verify cannot read.",
        "Add a sourced entry to vendors/<vendor>.display.yaml, run with --unsourced to use "
        "roce-cfg's own formats, or --skip the check.",
    ),
    (
        "RV191",
        "switch-unreachable",
        "error",
        "A switch could not be read",
        "Nothing of the switch was verified.",
        "Check reachability and credentials (ROCE_CFG_USERNAME / ROCE_CFG_PASSWORD).",
    ),
]

RULES: dict[str, Rule] = {
    rid: Rule(rid, name, sev, "fabric", summary, why, fix)
    for rid, name, sev, summary, why, fix in _TABLE
}


def rules() -> list[Rule]:
    return [RULES[k] for k in sorted(RULES)]
