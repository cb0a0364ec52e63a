"""Pictures of the fabric with a deadlock cycle drawn on it: plain SVG, and one HTML file.

Tiers are rows (spines above leaves), every link a line; the cycle's links are red and numbered
in hop order; links failed in the scenario are dashed. Written by hand rather than with a
layout library: a tiered fabric needs no graph layout, and the output must have no run-time
dependencies (the HTML opens offline).
"""

from __future__ import annotations

from html import escape

from roce_cfg.deadlock.analyse import Cycle, Report
from roce_cfg.deadlock.net import Link, Network

BOX_W, BOX_H, GAP_X, ROW_H, MARGIN = 84, 26, 10, 170, 30
TIERS = {"superspine": 0, "spine": 1, "leaf": 2, "switch": 2}


def _cycle(report: Report) -> Cycle | None:
    if report.baseline:
        return report.baseline[0]
    for cycles in report.opened.values():
        return cycles[0]
    return None


def svg(report: Report, cycle: Cycle | None = None) -> str:
    net = report.net
    cycle = cycle if cycle is not None else _cycle(report)
    pos, width, height = _positions(net)
    failed = set(cycle.scenario) if cycle else set()
    hops: dict[int, list[int]] = {}
    if cycle is not None:
        for i in range(len(cycle.nodes)):
            hops.setdefault(cycle.nodes[(i + 1) % len(cycle.nodes)][1], []).append(i + 1)
    title = (f"deadlock cycle {report.chain(cycle)}" if cycle else "no deadlock cycle") + (
        f" after {report.scenario_name(cycle.scenario)}" if cycle and cycle.scenario else ""
    )
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" data-switches="{len(net.names)}" '
        f'data-links="{len(net.links)}" data-hops="{len(cycle.nodes) if cycle else 0}" '
        'font-family="sans-serif" font-size="10">',
        "<style>.link{stroke:#b8c0cc;stroke-width:1}.failed{stroke:#888;stroke-dasharray:4 3}"
        ".hop{stroke:#d62728;stroke-width:3}.sw rect{fill:#f4f6fa;stroke:#4a5568}"
        ".sw.on rect{fill:#fde2e2;stroke:#d62728;stroke-width:2}.num{fill:#d62728}"
        ".num text{fill:#fff;font-weight:bold}</style>",
        f'<text x="{MARGIN}" y="{MARGIN}" font-size="13">{escape(title)}</text>',
    ]
    labels: list[str] = []
    for ln in net.links:
        cls = "hop" if ln.id in hops else "failed" if ln.id in failed else "link"
        line, numbers = _link(pos, ln, net.names, cls, hops.get(ln.id, []))
        out.append(line)
        labels += numbers
    on = {n[0] for n in cycle.nodes} if cycle else set()
    for s, (x, y) in pos.items():
        name = escape(net.names[s])
        out.append(
            f'<g class="{"sw on" if s in on else "sw"}" data-switch="{name}"><rect x="{x:.1f}" '
            f'y="{y:.1f}" width="{BOX_W}" height="{BOX_H}" rx="4"/><text '
            f'x="{x + BOX_W / 2:.1f}" y="{y + 17:.1f}" text-anchor="middle">{name}</text></g>'
        )
    out.extend(labels)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _positions(net: Network) -> tuple[dict[int, tuple[float, float]], float, float]:
    """Each switch's box, a row per tier, and the picture's width and height."""
    rows: dict[int, list[int]] = {}
    for s, device in enumerate(net.devices):
        rows.setdefault(TIERS.get(device.role, 2), []).append(s)
    widest = max(len(r) for r in rows.values()) if rows else 1
    width = max(480, 2 * MARGIN + widest * (BOX_W + GAP_X))
    height = 2 * MARGIN + 40 + (max(rows) if rows else 0) * ROW_H + BOX_H
    pos: dict[int, tuple[float, float]] = {}
    for tier, members in sorted(rows.items()):
        span = len(members) * (BOX_W + GAP_X) - GAP_X
        x0 = (width - span) / 2
        for k, s in enumerate(members):
            pos[s] = (x0 + k * (BOX_W + GAP_X), MARGIN + 40 + tier * ROW_H)
    return pos, width, height


def _link(
    pos: dict[int, tuple[float, float]], ln: Link, names: list[str], cls: str, hops: list[int]
) -> tuple[str, list[str]]:
    """One link's line, and the numbered circles of the cycle hops that cross it."""
    (ax, ay), (bx, by) = pos[ln.a], pos[ln.b]
    x1, y1 = ax + BOX_W / 2, ay + (BOX_H if ay < by else 0)
    x2, y2 = bx + BOX_W / 2, by + (BOX_H if by < ay else 0)
    line = (
        f'<line class="{cls}" data-link="{ln.id}" x1="{x1:.1f}" y1="{y1:.1f}" '
        f'x2="{x2:.1f}" y2="{y2:.1f}"><title>{escape(ln.name(names))}</title></line>'
    )
    labels = []
    for j, number in enumerate(hops):
        t = 0.35 + 0.3 * j
        cx, cy = x1 + (x2 - x1) * t, y1 + (y2 - y1) * t
        labels.append(
            f'<g class="num" data-hop="{number}"><circle cx="{cx:.1f}" cy="{cy:.1f}" r="8"/>'
            f'<text x="{cx:.1f}" y="{cy + 3.5:.1f}" text-anchor="middle">{number}</text></g>'
        )
    return line, labels


def html(report: Report) -> str:
    """One self-contained page: the picture, every cycle with the cause of each hop."""
    net = report.net
    items = [("healthy fabric", c) for c in report.baseline] + [
        (f"after {report.scenario_name(sc)}", c) for sc, cs in report.opened.items() for c in cs
    ]
    rows = []
    for title, c in items:
        hops = "".join(
            f"<li><code>{escape(report.node_name(n))}</code> {escape(cause)}</li>"
            for n, cause in zip(c.nodes, c.causes, strict=True)
        )
        rows.append(
            f"<section class='cycle'><h3>{escape(title)}</h3>"
            f"<p><code>{escape(report.chain(c))}</code></p><ol>{hops}</ol></section>"
        )
    summary = (
        f"{len(net.names)} switches, {len(net.links)} links, {report.scenarios} scenarios "
        f"checked, {len(items)} deadlock cycle(s)"
    )
    body = "".join(rows) or "<p>No deadlock cycle in any scenario checked.</p>"
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>roce-cfg deadlock report</title>
<style>body{{font-family:sans-serif;margin:1.5em;color:#1a202c}}.figure{{overflow:auto;
border:1px solid #e2e8f0}}code{{background:#f7fafc}}.cycle{{margin:1em 0}}</style></head>
<body><h1>PFC deadlock analysis</h1><p id="summary">{escape(summary)}</p>
<div class="figure">{svg(report)}</div>{body}
<div id="status" data-ready="0" data-errors="0"></div>
<script>
(function () {{
  var status = document.getElementById("status"), errors = 0;
  window.addEventListener("error", function () {{ errors += 1; status.dataset.errors = errors; }});
  var svg = document.querySelector("svg");
  status.dataset.switches = document.querySelectorAll("g.sw").length;
  status.dataset.links = document.querySelectorAll("line").length;
  status.dataset.hops = document.querySelectorAll("g.num").length;
  status.dataset.width = svg ? Math.round(svg.getBoundingClientRect().width) : 0;
  status.dataset.ready = "1";
}})();
</script></body></html>
"""
