"""The HTML report: one self-contained file (no network at view time) with the topology by
tier (leaves coloured by rail), findings linked to devices and links, the first deadlock cycle
drawn on the topology, the headroom each switch needs against its buffer where that is known,
and headroom against cable length.

The fabric is shipped once, as compact JSON (switch names, a port-name table, links as index
quadruples, port settings deduplicated into profiles), and drawn in the browser by
templates/report/report.js at the page's width, zoomable and pannable. Nothing is repeated per
switch or per view, so the 1,280-switch bench fabric is a few MB, not one SVG per group.

Large fabrics start as an overview (one box per rail's leaves and one for the spines; or per pod
and per plane of super-spines); clicking a box opens that group's switches and links.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Mapping
from html import escape
from socket import inet_ntoa
from typing import Any

import jinja2

from roce_cfg.model import addresses
from roce_cfg.model.device import DeviceConfig, Interface, PriorityBytes
from roce_cfg.report.data import CHECKED, Budget, ReportData
from roce_cfg.resources import templates_dir

PALETTE = [
    "#4e79a7",
    "#f28e2b",
    "#59a14f",
    "#e15759",
    "#76b7b2",
    "#edc948",
    "#b07aa1",
    "#ff9da7",
    "#9c755f",
    "#bab0ac",
]
DETAIL_LIMIT = 200  # switches drawn one by one; above this the overview groups them
NAMED = 3  # a budget row names this many switches in its title; the rest are listed under it


def _tier(role: str) -> int:
    return {"superspine": 0, "spine": 1}.get(role, 2)


def _first_cycle(data: ReportData) -> tuple[dict[tuple[str, str], list[int]], set[str]]:
    """The first deadlock cycle's hops by (device, port) of each link's a end, and the
    switches on it."""
    rep = data.deadlock
    cycle = rep.baseline[0] if rep.baseline else next(iter(rep.opened.values()), [None])[0]
    hop_links: dict[tuple[str, str], list[int]] = defaultdict(list)
    on_cycle: set[str] = set()
    if cycle is not None:
        net = rep.net
        for i in range(len(cycle.nodes)):
            s, lid = cycle.nodes[(i + 1) % len(cycle.nodes)]
            ln = net.links[lid]
            hop_links[(net.names[ln.a], ln.a_port)].append(i + 1)
            on_cycle.add(net.names[s])
    return hop_links, on_cycle


def _pastel(colour: str, share: float = 0.22) -> str:
    """``colour`` mixed into white, opaque: links drawn behind a box do not show through it."""
    rgb = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return "#" + "".join(f"{round(255 - (255 - c) * share):02x}" for c in rgb)


def _switches(data: ReportData) -> dict[str, list[Any]]:
    """Per switch, in the report's order: name, tier (0 super-spine, 1 spine, 2 leaf), rail
    colour (or none), unsuppressed findings."""
    counts: dict[str, int] = defaultdict(int)
    for f in data.findings:
        if not f.suppressed:
            counts[f.device] += 1
    rails = {d.hostname: data.rail_of(d) for d in data.devices}
    rail_ids = sorted({r for r in rails.values() if r is not None})
    colour = {r: _pastel(PALETTE[k % len(PALETTE)]) for k, r in enumerate(rail_ids)}
    spine_like = {"spine", "superspine"}
    return {
        "name": [d.hostname for d in data.devices],
        "tier": [_tier(d.role) for d in data.devices],
        "colour": [
            colour[rails[d.hostname]]  # type: ignore[index]
            if rails[d.hostname] is not None and d.role not in spine_like
            else ""
            for d in data.devices
        ],
        "finds": [counts.get(d.hostname, 0) for d in data.devices],
    }


def _wire(data: ReportData, index: Mapping[str, int]) -> dict[str, list[Any]]:
    """Links as flat [a, a port, b, b port] index quadruples into the switch list and a port-name
    table, and per link end its settings profile (-1: none read) and address. Links to a switch
    the report has no config for are left out of the drawing."""
    settings = _port_settings(data)
    port_ids: dict[str, int] = {}
    profiles: dict[Profile, int] = {}
    links: list[int] = []
    ends: list[int] = []
    addresses: list[str] = []
    hop_links, _ = _first_cycle(data)
    hops: list[list[int]] = []
    for a, ap, b, bp in data.links:
        if a not in index or b not in index:
            continue
        for number in hop_links.get((a, ap), []):
            hops.append([len(links) // 4, number])
        links += [index[a], port_ids.setdefault(ap, len(port_ids))]
        links += [index[b], port_ids.setdefault(bp, len(port_ids))]
        for dev, port in ((a, ap), (b, bp)):
            got = settings.get(dev, {}).get(port)
            addresses.append(got[0] if got else "-")
            ends.append(profiles.setdefault(got[1], len(profiles)) if got else -1)
    return {
        "ports": list(port_ids),
        "links": links,
        "ends": ends,
        "addresses": addresses,
        "profiles": [dict(p) for p in profiles],
        "hops": hops,
    }


def _group_payload(data: ReportData, index: Mapping[str, int]) -> list[dict[str, Any]]:
    """The overview's boxes (empty when every switch is drawn at once): name, tier (0: spines
    or super-spines, drawn on top; 1: leaves or pods), members and the switches its view draws,
    as indexes into the switch list."""
    if len(data.devices) <= DETAIL_LIMIT:
        return []
    names = [d.hostname for d in data.devices]
    roles = {d.hostname: d.role for d in data.devices}
    rails = {d.hostname: data.rail_of(d) for d in data.devices}
    spine_like = {"spine", "superspine"}
    return [
        {
            "name": g,
            "tier": 0 if all(roles[n] in spine_like for n in members) else 1,
            "members": [index[n] for n in members],
            "shown": [index[n] for n in shown],
        }
        for g, (members, shown) in _groups(data, names, roles, rails).items()
    ]


def _bars(data: ReportData) -> str:
    """Headroom needed per switch as a bar; against the buffer (or headroom pool) where its size
    is known, and a plain statement where it is not. Switches with the same figures and model
    share one row, so a 1,280-switch fabric has a handful of rows."""
    rows: dict[tuple[int, int | None, str, str], list[str]] = defaultdict(list)
    for b in data.budgets:
        rows[(b.used, b.capacity, b.what, b.model)].append(b.device)
    if not rows:
        return "<p>No lossless ports.</p>"
    top = max(max(used, cap or 0) for used, cap, _, _ in rows) or 1
    out = [
        '<div class="budget"><p class="legend"><span class="key used"></span> headroom needed '
        '<span class="key cap"></span> buffer or headroom pool, where its size is known '
        '<span class="key unknown"></span> buffer size not published</p>'
    ]
    for (used, cap, what, model), devices in rows.items():
        b = Budget(devices[0], used, cap, what, model)
        out.append(
            f'<div class="brow"><div class="who">{_who(devices)}</div>'
            f'<div class="track">{_bar(b, top)}</div><div class="say">{_say(b)}</div></div>'
        )
    out.append("</div>")
    return "".join(out)


def _who(devices: list[str]) -> str:
    if len(devices) <= NAMED:
        return escape(", ".join(devices))
    head = escape(f"{devices[0]} ... {devices[-1]}")
    rest = escape(", ".join(devices))
    return f"{head} ({len(devices):,} switches)<details><summary>all</summary>{rest}</details>"


def _bar(b: Budget, top: int) -> str:
    used = f'<div class="used{" over" if b.capacity and b.used > b.capacity else ""}" ' + (
        f'style="width:{100 * b.used / top:.2f}%"></div>'
    )
    if b.capacity:
        return f'<div class="cap" style="width:{100 * b.capacity / top:.2f}%"></div>{used}'
    return f'<div class="unknown"></div>{used}'


def _say(b: Budget) -> str:
    need = f"{b.used / 1024:,.0f} KB headroom needed"
    if b.capacity:
        verdict = "over" if b.used > b.capacity else "fits"
        return escape(f"{need} of {b.capacity / 1024:,.0f} KB {b.what}: {verdict}.")
    return escape(
        f"{need}. The {b.model or 'switch'}'s buffer size is not published, so whether this fits "
        "cannot be checked: give it in an overlay (buffer_bytes or headroom_pool_bytes in "
        "vendors/<vendor>.yaml)."
    )


def _scatter(data: ReportData) -> str:
    """Required (filled) and configured (ring) headroom per port priority against its cable,
    one colour per speed; the legend sits above the plot so no point lands on it."""
    pts = data.headroom
    if not pts:
        return "<p>No lossless ports.</p>"
    xmax = max(max(p.cable_m for p in pts), 10.0)
    ymax = max(max(p.required, p.configured or 0) for p in pts) or 1
    speeds = sorted({p.speed_gbps for p in pts})
    colour = {s: PALETTE[i % len(PALETTE)] for i, s in enumerate(speeds)}
    out = [
        '<svg class="scatter" xmlns="http://www.w3.org/2000/svg" width="720" height="330">',
        '<line class="axis" x1="60" y1="290" x2="700" y2="290"/>'
        '<line class="axis" x1="60" y1="60" x2="60" y2="290"/>',
        f'<text x="380" y="322" text-anchor="middle">cable length (m), 0-{xmax:g}</text>',
        f'<text x="10" y="50">headroom (bytes), 0-{ymax:,}</text>',
    ]
    seen = set()
    for p in pts:
        key = (p.speed_gbps, p.cable_m, p.required, p.configured)
        if key in seen:
            continue
        seen.add(key)
        x = 60 + 630 * p.cable_m / xmax
        y = 290 - 220 * p.required / ymax
        out.append(
            f'<circle class="req" cx="{x:.1f}" cy="{y:.1f}" r="4" '
            f'style="fill:{colour[p.speed_gbps]}">'
            f"<title>{p.speed_gbps}G {p.cable_m:g} m: required {p.required} B</title></circle>"
        )
        if p.configured is not None:
            yc = 290 - 220 * p.configured / ymax
            out.append(
                f'<circle class="cfg" cx="{x:.1f}" cy="{yc:.1f}" r="6" '
                f'style="stroke:{colour[p.speed_gbps]}"><title>{p.speed_gbps}G {p.cable_m:g} m: '
                f"configured {p.configured} B</title></circle>"
            )
    for i, s in enumerate(speeds):
        out.append(
            f'<circle cx="{16 + 80 * i}" cy="16" r="4" style="fill:{colour[s]}"/>'
            f'<text x="{24 + 80 * i}" y="20">{s}G</text>'
        )
    x = 40 + 80 * len(speeds)
    out.append(f'<text x="{x}" y="20">filled: required, ring: configured</text></svg>')
    return "".join(out)


def _groups(
    data: ReportData, names: list[str], roles: Mapping[str, str], rails: Mapping[str, int | None]
) -> dict[str, tuple[list[str], list[str]]]:
    """Group name -> (its switches, the switches its view draws).

    Two tiers: the spines, and each rail's leaves drawn under the spines. Three tiers: each pod
    (its leaves and spines), and the super-spines grouped by the spines they face, which is one
    group per plane when the plan has planes, drawn over those spines. Every link is then drawn
    in one view, not in every view."""
    pod_of = data.pods()
    groups: dict[str, tuple[list[str], list[str]]] = {}
    if any(p is not None for p in pod_of.values()):
        near: dict[str, set[str]] = defaultdict(set)
        for a, _, b, _ in data.links:
            near[a].add(b)
            near[b].add(a)
        planes: dict[frozenset[str], list[str]] = defaultdict(list)
        for n in names:
            if roles[n] == "superspine":
                planes[frozenset(near[n])].append(n)
            elif pod_of.get(n) is not None:
                key = f"pod {pod_of[n]}"
                groups.setdefault(key, ([], []))[0].append(n)
        for key, (members, _) in groups.items():
            members.sort(key=lambda n: _tier(roles[n]))
            groups[key] = (members, members)  # a pod's view is its own switches
        label = "plane" if len(planes) > 1 else "super-spines"
        for k, (faced, members) in enumerate(planes.items()):
            name = f"{label} {k}" if len(planes) > 1 else label
            groups[name] = (members, [*members, *sorted(faced, key=names.index)])
        return groups
    spines = [n for n in names if roles[n] in ("spine", "superspine")]
    for n in names:
        if roles[n] in ("spine", "superspine"):
            continue
        key = f"rail {rails[n]}" if rails[n] is not None else "leaves"
        groups.setdefault(key, ([], []))[0].append(n)
    out = {"spines": (spines, spines)} if spines else {}
    out.update({g: (m, [*spines, *m]) for g, (m, _) in groups.items()})
    return out


# A link end's settings as the page shows them, in the page's order (its address aside)
Profile = tuple[tuple[str, str], ...]


def _port_settings(data: ReportData) -> dict[str, dict[str, tuple[str, Profile]]]:
    """device -> port -> its address and its settings, for both ends of every link (shown
    side by side when a link is clicked, so a one-sided PFC or MTU stands out). Ports of one
    shape hold one QoS object (the parse's and the parse cache's): their settings are made
    once (131,072 link ends of the xl fabric)."""
    wanted: dict[str, set[str]] = defaultdict(set)
    for a, ap, b, bp in data.links:
        wanted[a].add(ap)
        wanted[b].add(bp)
    made: dict[tuple[int, int, str, bool, int], Profile] = {}
    out: dict[str, dict[str, tuple[str, Profile]]] = {}
    for d in data.devices:
        want = wanted.get(d.hostname)
        if not want:
            continue
        mine = out[d.hostname] = {}
        for i in d.interfaces:
            if i.name in want:
                key = (i.speed_gbps, i.mtu, i.mode, i.shutdown, id(i.qos))
                profile = made.get(key) or made.setdefault(key, _profile(i))
                mine[i.name] = (_addresses(d, i), profile)
    return out


def _addresses(d: DeviceConfig, i: Interface) -> str:
    """The port's addresses as ipaddress prints them; an IPv4 one alone (a routed link end
    of most fabrics) from its packed form, in half of ipaddress's time (131,072 at xl)."""
    if d.ipv6_ports or i.ipv4 is None:
        return ", ".join(map(str, addresses.of_port(d, i))) or "-"
    return f"{inet_ntoa(i.ipv4.packed)}/{i.ipv4.network.prefixlen}"


def _profile(i: Interface) -> Profile:
    def pb(items: tuple[PriorityBytes, ...]) -> str:
        return ", ".join(f"{p.priority}: {p.bytes} B" for p in items) or "-"

    q = i.qos
    return (
        ("speed", f"{i.speed_gbps}G"),
        ("MTU", str(i.mtu)),
        ("mode", i.mode + (" (shutdown)" if i.shutdown else "")),
        ("trust DSCP", "yes" if q.trust_dscp else "no"),
        ("PFC", "on" if q.pfc else "off"),
        ("no-drop priorities", ",".join(map(str, q.no_drop)) or "-"),
        ("ECN queues", ",".join(map(str, q.ecn_queues)) or "-"),
        ("headroom", pb(q.headroom)),
        ("PFC trigger (xoff)", pb(q.xoff)),
        ("watchdog", "on" if q.watchdog else "off"),
    )


def _bom(data: ReportData) -> str:
    """The bill of materials as plain tables (empty when only configs, no plan, are known)."""
    bom = data.bom
    if bom is None:
        return ""

    def table(head: list[str], rows: list[list[object]]) -> str:
        th = "".join(f"<th>{escape(h)}</th>" for h in head)
        body = "".join(
            "<tr>" + "".join(f"<td>{escape(str(c))}</td>" for c in r) + "</tr>" for r in rows
        )
        return f'<table class="bom"><tr>{th}</tr>{body}</table>'

    return (
        "<h2>Bill of materials</h2>"
        + table(
            ["tier", "vendor model", "switches"],
            [[t, m, n] for t, ms in bom.switches.items() for m, n in sorted(ms.items())],
        )
        + table(
            ["cables", "speed x length", "count"],
            [["server NIC", k, n] for k, n in bom.nic_cables.items()]
            + [["switch link", k, n] for k, n in bom.link_cables.items()],
        )
        + table(["transceivers", "count"], [[k, n] for k, n in bom.transceivers.items()])
    )


def _payload(data: ReportData) -> dict[str, Any]:
    switches = _switches(data)
    index = {n: i for i, n in enumerate(switches["name"])}
    _, on_cycle = _first_cycle(data)
    groups = _group_payload(data, index)
    cycles = [
        {"title": t, "chain": data.deadlock.chain(c), "causes": list(c.causes)}
        for t, cs in [("healthy fabric", data.deadlock.baseline)]
        + [
            (f"after {data.deadlock.scenario_name(s)}", cs)
            for s, cs in data.deadlock.opened.items()
        ]
        for c in cs
    ]
    return {
        "switches": switches,
        **_wire(data, index),
        "cycle": sorted(index[n] for n in on_cycle if n in index),
        "groups": groups,
        "start": "overview" if groups else "all",
        "findings": [
            f.model_dump(mode="json", exclude_none=True, exclude_defaults=True)
            for f in data.findings
        ],
        "cycles": cycles,
    }


def _unverified(data: ReportData) -> str:
    """Where the deadlock analysis could not see, said beside its cycles: 'no cycle' is then
    no all-clear (the findings that say so are lint's, in the table, at lint's severity)."""
    if not data.unverified:
        return ""
    said = f"A cycle may hide where the analysis could not see: {'; '.join(data.unverified)}."
    return f'<p id="unverified" class="f-warning">{escape(said)}</p>'


def _count(n: int, one: str, many: str) -> str:
    return f"{n:,} {one if n == 1 else many}"


def render(data: ReportData) -> str:
    payload = _payload(data)
    sev: dict[str, int] = defaultdict(int)
    for f in data.findings:
        sev["suppressed" if f.suppressed else f.severity] += 1
    summary = (
        f"{_count(len(data.devices), 'switch', 'switches')}, "
        f"{_count(len(data.links), 'link', 'links')}; {sev['error']} errors, "
        f"{sev['warning']} warnings, {sev['info']} info"
        + (f" ({sev['suppressed']} suppressed)" if sev["suppressed"] else "")
        + f"; {len(payload['cycles'])} deadlock cycle(s) in {data.deadlock.scenarios} scenario(s)"
    )
    folder = templates_dir() / "report"
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(folder),
        autoescape=False,  # every value below is escaped or JSON already
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
    )
    return env.get_template("report.html.j2").render(
        name=escape(data.name),
        source=escape(data.source),
        checked=escape(CHECKED[data.checked]),
        summary=escape(summary),
        unverified=_unverified(data),
        bars=_bars(data),
        scatter=_scatter(data),
        bom=_bom(data),
        # "<" only occurs inside JSON strings: as \u003c no "</script" or "<!--" can end or
        # confuse the script element, whatever a hostname or a message holds
        data=json.dumps(payload, separators=(",", ":")).replace("<", "\\u003c"),
        style=(folder / "report.css").read_text("utf-8"),
        script=(folder / "report.js").read_text("utf-8").replace("</", "<\\/"),
    )
