"""Which sections of a config bear on losslessness (the QoS map, PFC, ECN, the watchdog, buffers,
scheduling, MTU, interfaces and aggregates, M-LAG, BGP and statics), and the words that place a
line in them where no grammar entry does: an unread line there keeps the evidence gate
(roce_cfg/gate.py) from concluding.
"""

from __future__ import annotations

import re

# A line that bears on losslessness by its words though no grammar entry places it (below)
LOSSLESS = "lossless"
# Sections where a line roce-cfg does not read may change what is lossless: the QoS map, PFC,
# ECN, the watchdog, buffers, scheduling, MTU, interfaces and aggregates, M-LAG, BGP and statics.
LOSSLESS_SECTIONS = frozenset(
    {
        "qos_maps",
        "pfc",
        "ecn",
        "watchdog",
        "buffers",
        "scheduling",
        "mtu",
        "interfaces",
        "vlan_interfaces",
        "aggregates",
        "mlag",
        "bgp",
        "static_routes",
        "loopback",
        LOSSLESS,
    }
)
# Words that mark a line as bearing on losslessness where neither a command nor an area of the
# vendor's grammar places it (a command no grammar knows, a misspelt one, another release's
# form): in 'other' such a line would leave the gate blind to a setting that may change what is
# lossless. None of these words says for sure what the line sets, so such a line is unread in
# the section LOSSLESS, which leaves every section unread where it is (roce_cfg/gate.py). Short
# words must stand alone; long ones are found inside a word too (a typo glued to a keyword).
_LONG_WORDS = (
    "deadlock",
    "watchdog",
    "priority-flow-control",
    "no-drop",
    "nodrop",
    "lossless",
    "wred",
    "drop-profile",
    "buffer",
    "headroom",
    "strict-priority",
    "priority-queue",
    "scheduler",
    "dscp",
    "dot1p",
    "diffserv",
    "map-table",
    "classifier",
    "behavior",
    "traffic-policy",
    "service-policy",
    "policy-map",
    "class-map",
    "remark",
    "jumboframe",
    "link-aggregation",
    "eth-trunk",
    "smartgroup",
    "aggregateport",
    "lacp",
    "m-lag",
    "drni",
    "dfs-group",
    "peer-link",
    "route-static",
)
_SHORT_WORDS = (
    "pfc",
    "dcb",
    "ecn",
    "red",
    "xoff",
    "xon",
    "wrr",
    "wfq",
    "drr",
    "dwrr",
    "pq",
    "ets",
    "queue",
    "cos",
    "trust",
    "phb",
    "qos",
    "car",
    "mtu",
    "jumbo",
    "port-group",
    "mlag",
    "bgp",
)
_KEYWORD = re.compile(
    "|".join([*map(re.escape, _LONG_WORDS), *(rf"\b{re.escape(w)}\b" for w in _SHORT_WORDS)]),
    re.IGNORECASE,
)


def keyword_section(flat: str) -> str | None:
    """LOSSLESS for a line whose words name a lossless setting, for a line no grammar entry
    places; None for any other.

    >>> keyword_section("zqxqos map-table dscp-dot1p")
    'lossless'
    >>> keyword_section("snmp-agent sys-info version v3") is None
    True
    """
    return LOSSLESS if _KEYWORD.search(flat) else None


OTHER = "other"
