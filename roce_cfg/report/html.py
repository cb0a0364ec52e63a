"""The HTML report: one self-contained file (no network at view time) with the topology by
tier (leaves coloured by rail), findings linked to devices and links, the first deadlock cycle
drawn on the topology, a buffer budget per switch and headroom against cable length.

Large fabrics start as an overview (one box per rail's leaves, one for the spines); clicking a
box opens that group's switches and links.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Mapping
from html import escape
from typing import Any

import jinja2

from roce_cfg.report.data import ReportData
from roce_cfg.resources import templates_dir

W, H, GAP, ROW = 86, 26, 8, 150
PALETTE = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1",
           "#ff9da7", "#9c755f", "#bab0ac"]  # fmt: skip
DETAIL_LIMIT = 200  # switches drawn one by one; above this the overview groups them


def _tier(role: str) -> int:
    return {"superspine": 0, "spine": 1}.get(role, 2)


def _layout(
    names: list[str], roles: Mapping[str, str]
) -> tuple[dict[str, tuple[float, float]], float, float]:
    rows: dict[int, list[str]] = defaultdict(list)
    for n in names:
        rows[_tier(roles[n])].append(n)
    widest = max((len(r) for r in rows.values()), default=1)
    width = max(640.0, 40 + widest * (W + GAP))
    pos: dict[str, tuple[float, float]] = {}
    for tier, members in rows.items():
        x0 = (width - (len(members) * (W + GAP) - GAP)) / 2
        for k, n in enumerate(members):
            pos[n] = (x0 + k * (W + GAP), 30.0 + tier * ROW)
    return pos, width, 30.0 + max(rows, default=0) * ROW + H + 30


def _topology(
    data: ReportData, names: list[str], colours: dict[str, str], counts: dict[str, dict[str, int]]
) -> str:
    roles = {d.hostname: d.role for d in data.devices}
    pos, width, height = _layout(names, roles)
    hop_links, on_cycle = _first_cycle(data)
    # scaled to the page's width (never above natural size): a 3-tier pod fits its box
    out = [
        f'<svg class="topo" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:.0f} '
        f'{height:.0f}" preserveAspectRatio="xMidYMin meet" data-width="{width:.0f}" '
        f'style="width:100%;max-width:{width:.0f}px;height:auto">'
    ]
    keep, labels = set(names), []
    for a, ap, b, bp in data.links:
        if a in keep and b in keep:
            n_find = counts.get(a, {}).get(ap, 0) + counts.get(b, {}).get(bp, 0)
            line, numbers = _link(pos, (a, ap, b, bp), hop_links.get((a, ap), []), n_find)
            out.append(line)
            labels += numbers
    for n in names:
        out.append(_switch_box(n, pos[n], sum(counts.get(n, {}).values()), n in on_cycle,
                               colours.get(n, "#f4f6fa")))  # fmt: skip
    out.extend(labels)
    out.append("</svg>")
    return "".join(out)


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


def _link(
    pos: dict[str, tuple[float, float]],
    ends: tuple[str, str, str, str],
    hops: list[int],
    n_find: int,
) -> tuple[str, list[str]]:
    """One link's line, and the numbered circles of the cycle hops that cross it."""
    a, ap, b, bp = ends
    (ax, ay), (bx, by) = pos[a], pos[b]
    x1, y1 = ax + W / 2, ay + (H if ay < by else 0)
    x2, y2 = bx + W / 2, by + (H if by < ay else 0)
    cls = ("link hop" if hops else "link") + (" flagged" if n_find else "")
    line = (
        f'<line class="{cls}" data-a="{escape(a)}" data-ap="{escape(ap)}" data-b="{escape(b)}" '
        f'data-bp="{escape(bp)}" x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}">'
        f"<title>{escape(a)} {escape(ap)} - {escape(b)} {escape(bp)}</title></line>"
    )
    labels = []
    for j, number in enumerate(hops):
        t = 0.35 + 0.3 * j
        cx, cy = x1 + (x2 - x1) * t, y1 + (y2 - y1) * t
        labels.append(
            f'<g class="num"><circle cx="{cx:.1f}" cy="{cy:.1f}" r="8"/><text x="{cx:.1f}" '
            f'y="{cy + 3.5:.1f}" text-anchor="middle">{number}</text></g>'
        )
    return line, labels


def _switch_box(n: str, at: tuple[float, float], total: int, on_cycle: bool, fill: str) -> str:
    x, y = at
    cls = "sw" + (" cyc" if on_cycle else "") + (" flagged" if total else "")
    badge = (
        f'<circle class="badge" cx="{x + W - 4:.1f}" cy="{y + 2:.1f}" r="7"/><text class="bt" '
        f'x="{x + W - 4:.1f}" y="{y + 5.5:.1f}" text-anchor="middle">{total}</text>'
        if total
        else ""
    )
    return (
        f'<g class="{cls}" data-device="{escape(n)}"><rect x="{x:.1f}" y="{y:.1f}" '
        f'width="{W}" height="{H}" rx="4" style="fill:{fill}"/>'
        f'<text x="{x + W / 2:.1f}" y="{y + 17:.1f}" text-anchor="middle">{escape(n)}</text>'
        f"{badge}</g>"
    )


def _overview(data: ReportData, groups: dict[str, list[str]], roles: Mapping[str, str]) -> str:
    """One box per group (a rail's leaves, the spines); the box opens the group's detail."""
    names = list(groups)
    width = max(640, 40 + len(names) * 150)
    out = [f'<svg class="topo" xmlns="http://www.w3.org/2000/svg" width="{width}" height="230">']
    for k, g in enumerate(names):
        x = 20 + k * 150
        y = 30 if roles.get(groups[g][0]) in ("spine", "superspine") else 150
        out.append(
            f'<g class="group" data-group="{escape(g)}"><rect x="{x}" y="{y}" width="140" '
            f'height="40" rx="6"/><text x="{x + 70}" y="{y + 17}" text-anchor="middle">'
            f'{escape(g)}</text><text x="{x + 70}" y="{y + 32}" text-anchor="middle">'
            f"{len(groups[g])} switches</text></g>"
        )
    out.append("</svg>")
    return "".join(out)


def _bars(data: ReportData) -> str:
    rows = data.budgets
    if not rows:
        return "<p>No lossless ports.</p>"
    # A bar needs a scale: only switches whose buffer size is known get one (a bar of used
    # headroom against nothing would read as full); the others say what to give.
    top = max((max(b.used, b.capacity) for b in rows if b.capacity), default=0) or 1
    height = 22 * len(rows) + 20
    out = [f'<svg class="bars" xmlns="http://www.w3.org/2000/svg" width="720" height="{height}">']
    for i, b in enumerate(rows):
        y = 10 + 22 * i
        out.append(f'<text x="0" y="{y + 13}">{escape(b.device)}</text>')
        if not b.capacity:
            out.append(
                f'<text class="unknown" x="150" y="{y + 13}">{b.used / 1024:.0f} KB headroom; '
                "buffer size unknown: give it in an overlay (buffer_bytes or "
                "headroom_pool_bytes in vendors/&lt;vendor&gt;.yaml)</text>"
            )
            continue
        used = 420 * b.used / top
        cap = 420 * b.capacity / top
        over = b.used > b.capacity
        out.append(
            f'<rect class="cap" x="150" y="{y}" width="{cap:.1f}" height="16"/>'
            f'<rect class="used{" over" if over else ""}" x="150" y="{y + 3}" '
            f'width="{used:.1f}" height="10"/>'
            f'<text x="{160 + max(used, cap):.1f}" y="{y + 13}">{b.used / 1024:.0f} KB / '
            f"{b.capacity / 1024:.0f} KB {b.what}</text>"
        )
    out.append("</svg>")
    return "".join(out)


def _scatter(data: ReportData) -> str:
    pts = data.headroom
    if not pts:
        return "<p>No lossless ports.</p>"
    xmax = max(max(p.cable_m for p in pts), 10.0)
    ymax = max(max(p.required, p.configured or 0) for p in pts) or 1
    speeds = sorted({p.speed_gbps for p in pts})
    colour = {s: PALETTE[i % len(PALETTE)] for i, s in enumerate(speeds)}
    out = ['<svg class="scatter" xmlns="http://www.w3.org/2000/svg" width="720" height="300">',
           '<line class="axis" x1="60" y1="260" x2="700" y2="260"/>'
           '<line class="axis" x1="60" y1="20" x2="60" y2="260"/>',
           f'<text x="380" y="292" text-anchor="middle">cable length (m), 0-{xmax:g}</text>',
           f'<text x="10" y="15">headroom (bytes), 0-{ymax:,}</text>']  # fmt: skip
    seen = set()
    for p in pts:
        key = (p.speed_gbps, p.cable_m, p.required, p.configured)
        if key in seen:
            continue
        seen.add(key)
        x = 60 + 640 * p.cable_m / xmax
        y = 260 - 240 * p.required / ymax
        out.append(
            f'<circle class="req" cx="{x:.1f}" cy="{y:.1f}" r="4" '
            f'style="fill:{colour[p.speed_gbps]}">'
            f"<title>{p.speed_gbps}G {p.cable_m:g} m: required {p.required} B</title></circle>"
        )
        if p.configured is not None:
            yc = 260 - 240 * p.configured / ymax
            out.append(
                f'<circle class="cfg" cx="{x:.1f}" cy="{yc:.1f}" r="6" '
                f'style="stroke:{colour[p.speed_gbps]}"><title>{p.speed_gbps}G {p.cable_m:g} m: '
                f"configured {p.configured} B</title></circle>"
            )
    for i, s in enumerate(speeds):
        out.append(
            f'<circle cx="{80 + 90 * i}" cy="40" r="4" style="fill:{colour[s]}"/>'
            f'<text x="{88 + 90 * i}" y="44">{s}G</text>'
        )
    out.append('<text x="520" y="44">filled: required, ring: configured</text></svg>')
    return "".join(out)


def _groups(
    data: ReportData, names: list[str], roles: Mapping[str, str], rails: Mapping[str, int | None]
) -> dict[str, tuple[list[str], list[str]]]:
    """Group name -> (its switches, the switches its view draws).

    Two tiers: the spines, and each rail's leaves drawn under the spines. Three tiers: each pod
    (its leaves and spines), and the super-spines grouped by the spines they face, which is one
    group per plane when the plan has planes, drawn over those spines. Every link is then drawn
    in one view, not in every view."""
    pod_of = {s.hostname: s.pod for s in data.plan.switches} if data.plan is not None else {}
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


def _port_settings(data: ReportData) -> dict[str, dict[str, dict[str, str]]]:
    """device -> port -> setting -> value, for both ends of every link (shown side by side
    when a link is clicked, so a one-sided PFC or MTU stands out)."""
    wanted: dict[str, set[str]] = defaultdict(set)
    for a, ap, b, bp in data.links:
        wanted[a].add(ap)
        wanted[b].add(bp)

    def pb(items: tuple[Any, ...]) -> str:
        return ", ".join(f"{i.priority}: {i.bytes} B" for i in items) or "-"

    out: dict[str, dict[str, dict[str, str]]] = {}
    for d in data.devices:
        for i in d.interfaces:
            if i.name not in wanted.get(d.hostname, ()):
                continue
            q = i.qos
            out.setdefault(d.hostname, {})[i.name] = {
                "speed": f"{i.speed_gbps}G",
                "MTU": str(i.mtu),
                "mode": i.mode + (" (shutdown)" if i.shutdown else ""),
                "address": str(i.ipv4) if i.ipv4 else "-",
                "trust DSCP": "yes" if q.trust_dscp else "no",
                "PFC": "on" if q.pfc else "off",
                "no-drop priorities": ",".join(map(str, q.no_drop)) or "-",
                "ECN queues": ",".join(map(str, q.ecn_queues)) or "-",
                "headroom": pb(q.headroom),
                "PFC trigger (xoff)": pb(q.xoff),
                "watchdog": "on" if q.watchdog else "off",
            }
    return out


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


def render(data: ReportData) -> str:
    names = [d.hostname for d in data.devices]
    views, start = _views(data, names)
    cycles = [
        {"title": t, "chain": data.deadlock.chain(c), "causes": list(c.causes)}
        for t, cs in [("healthy fabric", data.deadlock.baseline)]
        + [
            (f"after {data.deadlock.scenario_name(s)}", cs)
            for s, cs in data.deadlock.opened.items()
        ]
        for c in cs
    ]
    payload: dict[str, Any] = {
        "findings": [f.model_dump(mode="json") for f in data.findings],
        "cycles": cycles,
        "start": start,
        "ports": _port_settings(data),
    }
    sev: dict[str, int] = defaultdict(int)
    for f in data.findings:
        sev["suppressed" if f.suppressed else f.severity] += 1
    summary = (
        f"{len(names)} switches, {len(data.links)} links; {sev['error']} errors, "
        f"{sev['warning']} warnings, {sev['info']} info; {len(cycles)} deadlock cycle(s) in "
        f"{data.deadlock.scenarios} scenario(s)"
    )
    templates = "".join(
        f'<template data-view="{escape(k)}">{v}</template>' for k, v in views.items()
    )
    blob = json.dumps(payload).replace("</", "<\\/")
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(templates_dir() / "report"),
        autoescape=False,  # every value below is escaped or JSON already
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
    )
    return env.get_template("report.html.j2").render(
        name=escape(data.name),
        source=escape(data.source),
        summary=escape(summary),
        templates=templates,
        bars=_bars(data),
        scatter=_scatter(data),
        bom=_bom(data),
        data=blob,
    )


def _views(data: ReportData, names: list[str]) -> tuple[dict[str, str], str]:
    """The topology drawings (all switches, or an overview and one per group) and the first."""
    roles = {d.hostname: d.role for d in data.devices}
    rails = {d.hostname: data.rail_of(d) for d in data.devices}
    rail_ids = sorted({r for r in rails.values() if r is not None})
    colours = {
        n: PALETTE[rail_ids.index(r) % len(PALETTE)] + "33"
        for n, r in rails.items()
        if r is not None and roles[n] != "spine"
    }
    counts: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for f in data.findings:
        if not f.suppressed:
            counts[f.device][f.port or ""] += 1
    if len(names) <= DETAIL_LIMIT:
        return {"all": _topology(data, names, colours, counts)}, "all"
    groups = _groups(data, names, roles, rails)
    views = {"overview": _overview(data, {g: m for g, (m, _) in groups.items()}, roles)}
    for g, (_, shown) in groups.items():
        views[g] = _topology(data, shown, colours, counts)
    return views, "overview"
