"""BGP: the AS, router ID, peers (their own lines and those of a peer group), networks and default
routes, of either address family (parse/ipv6.py reads the IPv6 forms).
"""

from __future__ import annotations

from ipaddress import IPv4Address, IPv6Address

from roce_cfg.model import numbers
from roce_cfg.model.device import Bgp, BgpNeighbor, Loopback
from roce_cfg.parse import ipv6
from roce_cfg.parse.context import Context, Raw, as_list
from roce_cfg.parse.values import ipv4


def read_bgp(ctx: Context, raw: Raw, loopback: Loopback | None) -> Bgp | None:
    items = as_list(raw.get("bgp"))
    if not items:
        return None
    b = items[0]
    asn = ctx.number(b["asn"], numbers.ASN, None, "@bgp")
    if asn is None:
        return None  # the 'bgp <asn>' line is unread, and with it the whole BGP block
    descr = {str(d["address"]): str(d["description"]) for d in ipv6.both(b, "descriptions")}
    neighbors = []
    for p in ipv6.both(b, "peers"):
        remote_as = ctx.number(p["remote_as"], numbers.ASN, None, "@bgp")
        if remote_as is not None:
            neighbors.append(
                BgpNeighbor(
                    address=ipv6.address(str(p["address"])),
                    remote_as=remote_as,
                    description=descr.get(str(p["address"]), ""),
                )
            )
    neighbors += _group_peers(ctx, b, asn, {n.address for n in neighbors}, descr)
    router_id = _router_id(ctx, b, loopback)
    networks = tuple(ipv6.networks(ctx, b))
    default_to = tuple(ipv6.address(str(d["address"])) for d in ipv6.both(b, "defaults"))
    return Bgp(
        asn=asn,
        router_id=router_id,
        neighbors=tuple(neighbors),
        networks=networks,
        default_to=default_to,
        max_paths=ctx.number(b.get("max_paths", 1), numbers.PATHS, 1, "@bgp"),
    )


def _router_id(ctx: Context, b: Raw, loopback: Loopback | None) -> IPv4Address:
    """The BGP router ID: its 'router-id' line, else the IPv4 loopback's address the switch
    picks. With neither (an IPv6-only switch) the ID is not known: 0.0.0.0 stands in, and a
    note says so; it only orders equal BGP paths in the deadlock analysis. A 'router-id' line
    that is there but unread is an unread line of the BGP section: the gate keeps rules and
    the deadlock verdict from concluding on that switch's routes."""
    if "router_id" in b:
        return ipv4(str(b["router_id"]))
    if loopback is not None and loopback.ipv4 is not None:
        ctx.notes.append("bgp router-id not set; the switch picks one (loopback assumed)")
        return loopback.ipv4.ip
    ctx.notes.append(
        "bgp router-id not read and no IPv4 loopback to take it from: the router ID is not "
        "known (0.0.0.0 stands in; equal BGP paths are ordered by it)"
    )
    return IPv4Address(0)


def _group_peers(
    ctx: Context, b: Raw, asn: int, known: set[IPv4Address | IPv6Address], descr: dict[str, str]
) -> list[BgpNeighbor]:
    """Peers added to a peer group ('peer <ip> group <g>' [HPE-5710-L3]): their AS is the one
    the line gives, else their own 'peer <ip> as-number', else the group's ('peer <g>
    as-number'), else the local AS for an IBGP group (a group is IBGP unless created
    'external')."""
    typed = [*as_list(b.get("groups")), *as_list(b.get("untyped_groups"))]
    kinds = {str(g["name"]): str(g.get("kind", "internal")) for g in typed}
    group_as = {str(g["name"]): g["remote_as"] for g in as_list(b.get("group_as"))}
    out: list[BgpNeighbor] = []
    for m in [*as_list(b.get("member_as")), *as_list(b.get("members"))]:
        address, group = ipv4(str(m["address"])), str(m.get("name", ""))
        if address in known:
            continue  # its own 'peer <ip> as-number' line names its AS
        raw = m.get("remote_as", group_as.get(group))
        if raw is None and kinds.get(group) == "internal":
            raw = asn
        if raw is None:
            why = f"BGP peer {address} in group '{group}', which gives it no AS"
            ctx.unreadable(why, str(m["address"]), "@bgp")
            continue
        remote = ctx.number(raw, numbers.ASN, None, "@bgp")
        if remote is not None:
            known.add(address)
            out.append(
                BgpNeighbor(
                    address=address, remote_as=remote, description=descr.get(str(address), "")
                )
            )
    return out
