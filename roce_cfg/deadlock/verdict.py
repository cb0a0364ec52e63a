"""What a deadlock verdict covers, in the words the user reads (text and JSON of `roce-cfg
deadlock`): the routing simulated, what it leaves out, the destinations taken to carry no RoCE
or assumed to carry it, and the routes of the configs it could not follow."""

from __future__ import annotations

from typing import Any

from roce_cfg.deadlock.net import Network

SIMULATED = (
    "eBGP (shortest AS path, AS-path loop prevention, ECMP up to max-paths over parallel links)",
    "static routes to linked switches, out of the fabric and to NULL0",
    "default routes advertised by BGP ('network 0.0.0.0 0', 'default-route-advertise', "
    "'default-originate')",
    "at each switch the longest prefix, then the lower route preference of the vendor "
    "(vendors/<vendor>.yaml route_preference), equal ones all followed",
    "flooding within VLANs on switch-to-switch ports",
    "a PFC pause holds back only the priority it names (each switch's DSCP map)",
    "traffic all-to-all between the RoCE destinations",
)
NOT_MODELLED = (
    "route maps and policies (a default advertised under one is left unread)",
    "local preference, MED, weight, BGP preference or distance settings",
    "allowas-in",
    "iBGP",
    "policy-based routing",
    "OSPF, IS-IS and other IGPs",
    "static routes of other VRFs",
    "IPv6",
    "transient states during convergence",
    "PFC storms from hosts",
)
LISTED = 12  # entries named per list; the rest are counted


def _some(items: list[str]) -> str:
    shown = ", ".join(items[:LISTED])
    more = len(items) - LISTED
    return shown + (f" and {more} more" if more > 0 else "")


def lines(net: Network) -> list[str]:
    """The verdict's lines on what it covers (printed before the last line)."""
    plain = sum(bool(p) for p in net.originated[: len(net.names)])
    out = [
        "routing simulated: eBGP, static and BGP default routes, by longest prefix then route "
        f"preference; {len(net.flows) + plain} RoCE traffic classes ({plain} plain eBGP)",
        f"not modelled: {'; '.join(NOT_MODELLED)}",
    ]
    if net.not_roce:
        out.append(
            f"no RoCE simulated to (no PFC on the port that reaches them): {_some(net.not_roce)}"
        )
    if net.assumed:
        out.append(f"RoCE assumed to (no subnet of a switch read holds them): {_some(net.assumed)}")
    if net.unmodelled:
        out.append(f"routes not followed as configured: {_some(net.unmodelled)}")
    if net.unsure:
        out.append(f"unconfirmed: {_some(net.unsure)}")
    return out


def doc(net: Network) -> dict[str, Any]:
    """The same for the JSON document (every entry, no count cut)."""
    plain = sum(bool(p) for p in net.originated[: len(net.names)])
    return {
        "classes": len(net.flows) + plain,
        "plain": plain,
        "simulated": list(SIMULATED),
        "not_modelled": list(NOT_MODELLED),
        "no_roce": list(net.not_roce),
        "assumed_roce": list(net.assumed),
        "not_followed": list(net.unmodelled),
        "unconfirmed": list(net.unsure),
    }
