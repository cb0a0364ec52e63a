"""Hand-over documents: Markdown for the fabric and each switch, and the cabling plan as CSV."""

from __future__ import annotations

import csv
import io
import re
from collections import defaultdict
from collections.abc import Sequence
from urllib.parse import quote

from roce_cfg.advise import BillOfMaterials
from roce_cfg.errors import printable
from roce_cfg.model import describe
from roce_cfg.model.device import DeviceConfig, Interface
from roce_cfg.model.fabric import Fabric
from roce_cfg.report.data import CHECKED, HeadroomPoint, ReportData
from roce_cfg.safepath import file_names

FIXED = ("index.md", "cabling.csv")


class Md(str):
    """Markdown made here (a link to a switch's page): a table keeps it as it is."""


# What a value read from a config could turn into Markdown or HTML: links and images ('[',
# ']'), raw HTML and autolinks ('<', '>', '&' of an entity), emphasis, code spans, table
# cells ('|'), headings, maths. CommonMark renders a backslash before any ASCII punctuation as
# that character, so the page reads the same, inert.
_MD_ACTIVE = re.compile(r"([\\`*_{}\[\]<>#!|~&$])")
# GFM also links a bare 'https://x' and 'www.x': the ':' and the '.' that make them escaped
_BARE_LINK = re.compile(r"(?<=[A-Za-z]):(?=//)|(?<=www)\.", re.IGNORECASE)


def md(value: object) -> str:
    r"""A value from a config (a sysname, a description) as inert Markdown text: one line (a
    control character as \xNN), every character that could start a link, an image, HTML,
    emphasis, a code span or a table cell escaped.

    >>> print(md("[x](javascript:alert(1))"), md("a|b"), md("<img src=x onerror=alert(1)>"))
    \[x\](javascript:alert(1)) a\|b \<img src=x onerror=alert(1)\>
    >>> print(md("see https://www.example.com"), md("far:server-1:nic0"))
    see https\://www\.example.com far:server-1:nic0
    """
    text = printable(str(value))
    return _BARE_LINK.sub(lambda m: "\\" + m[0], _MD_ACTIVE.sub(r"\\\1", text))


def code(value: object) -> str:
    """``value`` as one inline code span: fenced by more backticks than it holds in a row."""
    text = printable(str(value))
    fence = "`" * (max((len(r) for r in re.findall("`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def fenced(text: str) -> str:
    """``text`` as a code block no line of it can close (its fence outnumbers every backtick
    run in it)."""
    fence = "`" * max(3, max((len(r) for r in re.findall("`+", text)), default=0) + 1)
    return f"{fence}\n{text}\n{fence}\n"


def _table(headers: list[str], rows: Sequence[Sequence[object]]) -> str:
    def cell(v: object) -> str:
        if isinstance(v, Md):
            return str(v)
        return md("" if v is None else v)

    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


CABLING_COLUMNS = ["kind", "a_device", "a_port", "b_device", "b_port", "speed_gbps", "cable_m"]
CABLING_COLUMNS += ["rail", "vlan", "a_ip", "b_ip"]
PORT_COLUMNS = ["port", "description", "mode", "VLAN", "address", "MTU", "speed", "PFC"]
PORT_COLUMNS += ["no-drop", "headroom", ""]


class _Inert:
    """A csv writer whose cells cannot be formulas: a spreadsheet opening cabling.csv runs a
    cell starting with '=', '+', '-', '@' (a sysname '=HYPERLINK(...)'); such a text cell is
    quoted with a leading apostrophe, as OWASP advises (numbers stay numbers)."""

    def __init__(self, out: io.StringIO) -> None:
        self._w = csv.writer(out, lineterminator="\n")

    def writerow(self, row: Sequence[object]) -> None:
        self._w.writerow([_cell(v) for v in row])


def _cell(v: object) -> object:
    if isinstance(v, str) and v[:1] in ("=", "+", "-", "@", "\t", "\r"):
        try:
            float(v)
        except ValueError:
            return "'" + v
    return v


def cabling_csv(data: ReportData) -> str:
    out = io.StringIO()
    w = _Inert(out)
    w.writerow(CABLING_COLUMNS)
    plan = data.plan
    if plan is not None:
        for n in plan.nics:
            w.writerow(
                [
                    "server",
                    f"{n.server}:nic{n.nic}",
                    f"nic{n.nic}",
                    n.switch,
                    n.port,
                    n.speed_gbps,
                    n.cable_m,
                    n.rail,
                    n.vlan,
                    n.ip,
                    n.gateway,
                ]
            )
        for k in plan.links:
            w.writerow(
                [
                    k.kind,
                    k.a_device,
                    k.a_port,
                    k.b_device,
                    k.b_port,
                    k.speed_gbps,
                    k.cable_m,
                    "",
                    "",
                    k.a_ip,
                    k.b_ip,
                ]
            )
    else:
        ports = {(d.hostname, i.name): i for d in data.devices for i in d.interfaces}
        for a, ap, b, bp in data.links:
            w.writerow(["fabric", a, ap, b, bp, *_parsed(ports.get((a, ap)), ports.get((b, bp)))])
    return out.getvalue()


def _parsed(pa: Interface | None, pb: Interface | None) -> list[object]:
    """What the configs say of a link: speed (both ends' when they differ), the cable length a
    description states (roce-cfg's 'cable=<n>m' or a '<n>m' token), the two addresses."""
    speeds = sorted({p.speed_gbps for p in (pa, pb) if p is not None and p.speed_gbps})
    lengths = [describe.cable(p.description) for p in (pa, pb) if p is not None]
    cable = next((m for m in lengths if m is not None), None)
    ips = [p.ipv4.ip if p is not None and p.ipv4 is not None else "" for p in (pa, pb)]
    speed = "/".join(str(s) for s in speeds)
    return [speed, "" if cable is None else f"{cable:g}", "", "", *ips]


def _policy(d: DeviceConfig) -> str:
    q = d.qos
    ecn = "; ".join(
        f"{e.queue}: set by the switch"
        if e.unit == "device"
        else f"{e.queue}: {e.min_bytes}/{e.max_bytes}, {e.probability}"
        for e in q.ecn
    )
    wd = q.watchdog
    watchdog = f"detect {wd.detect_ms} ms, restore {wd.restore_ms} ms, {wd.action}" if wd else ""
    pool = f"{q.headroom_pool_bytes} B" if q.headroom_pool_bytes else "none configured"
    rows: list[list[object]] = [
        ["DSCP -> priority", ", ".join(f"{m.dscp}->{m.priority}" for m in q.dscp_map)],
        ["priority -> queue", ", ".join(f"{m.priority}->{m.queue}" for m in q.queue_map)],
        ["no-drop priorities", ", ".join(map(str, q.no_drop)) or "none"],
        ["strict-priority queues", ", ".join(map(str, q.strict_queues)) or "none"],
        ["ECN (queue: Kmin/Kmax B, max %)", ecn or "none"],
        ["PFC watchdog", watchdog or "none"],
        ["headroom pool", pool],
    ]
    return _table(["setting", "value"], rows)


def _policies(devices: Sequence[DeviceConfig]) -> list[str]:
    """The lossless policy per group of switches that share it, the largest group first; the
    switches outside it are flagged, so that one switch's map never stands for the fabric."""
    groups: dict[str, list[str]] = defaultdict(list)
    for d in devices:
        groups[_policy(d)].append(d.hostname)
    ordered = sorted(groups.items(), key=lambda g: (-len(g[1]), g[1]))
    if len(ordered) == 1:
        return [f"All {len(devices)} switches:\n", ordered[0][0]]
    out = []
    for n, (table, names) in enumerate(ordered):
        odd = "" if n == 0 else " — **differs from the most common policy**"
        out.append(f"{', '.join(map(md, names))} ({len(names)}){odd}:\n")
        out.append(table)
    return out


def fabric_md(data: ReportData, pages: dict[str, str] | None = None) -> str:
    """The fabric's page; ``pages`` maps hostnames to their pages' file names."""
    pages = pages if pages is not None else page_names(data)
    parts = [
        f"# Fabric {md(data.name)}\n",
        f"Source: {code(data.source)}.\n",
        f"Linted: {CHECKED[data.checked]}.\n",
        *_switches(data, pages),
    ]
    if data.plan is not None and data.plan.rails:
        parts.append("## Rails\n")
        parts.append(
            _table(
                ["rail", "VLAN", "switch", "subnet", "gateway"],
                [[r.rail, r.vlan, r.switch, r.subnet, r.gateway] for r in data.plan.rails],
            )
        )
    if data.plan is not None and data.plan.links:
        parts += _links(data.plan)
    if data.bom is not None:
        parts += _bom(data.bom)
    if data.devices:
        parts.append("## Lossless policy\n")
        parts += _policies(data.devices)
    parts.append("## Buffer budget per switch\n")
    parts.append(
        _table(
            ["switch", "headroom used (B)", "available (B)", "of"],
            [[b.device, b.used, b.capacity or "unknown", b.what] for b in data.budgets],
        )
    )
    parts.append("## Findings\n")
    parts.append(_summary(data))
    return "\n".join(parts)


def _switches(data: ReportData, pages: dict[str, str]) -> list[str]:
    roles: dict[str, int] = defaultdict(int)
    for d in data.devices:
        roles[f"{d.role} ({d.vendor.value} {d.model})"] += 1
    found: dict[str, int] = defaultdict(int)
    for f in data.findings:
        found[f.device] += 1
    rows = [
        [
            Md(f"[{md(d.hostname)}]({quote(pages[d.hostname])})"),
            d.role,
            d.vendor.value,
            d.model,
            d.loopback.ipv4 if d.loopback else "",
            d.bgp.asn if d.bgp else "",
            len(d.interfaces),
            found[d.hostname],
        ]
        for d in data.devices
    ]
    return [
        "## Switches\n",
        _table(["role (vendor model)", "count"], [[k, v] for k, v in sorted(roles.items())]),
        _table(["switch", "role", "vendor", "model", "loopback", "ASN", "ports", "findings"], rows),
    ]


def _links(plan: Fabric) -> list[str]:
    asn = {s.hostname: s.asn for s in plan.switches}
    rows = [
        [
            k.a_device,
            k.a_port,
            k.a_ip,
            asn.get(k.a_device),
            k.b_device,
            k.b_port,
            k.b_ip,
            asn.get(k.b_device),
            f"{k.speed_gbps}G",
            f"{k.cable_m:g} m",
        ]
        for k in plan.links
    ]
    head = ["a", "port", "address", "AS", "b", "port", "address", "AS", "speed", "cable"]
    return ["## Uplinks and BGP sessions\n", _table(head, rows)]


def _bom(bom: BillOfMaterials) -> list[str]:
    switches = [[t, m, n] for t, ms in bom.switches.items() for m, n in sorted(ms.items())]
    cables = [["server NIC", k, n] for k, n in bom.nic_cables.items()]
    cables += [["switch link", k, n] for k, n in bom.link_cables.items()]
    return [
        "## Bill of materials\n",
        _table(["tier", "vendor model", "switches"], switches),
        _table(["cables", "speed x length", "count"], cables),
        _table(["transceivers", "count"], [[k, n] for k, n in bom.transceivers.items()]),
    ]


def _summary(data: ReportData) -> str:
    counts: dict[str, int] = defaultdict(int)
    for f in data.findings:
        counts["suppressed" if f.suppressed else f.severity] += 1
    return (
        f"{counts['error']} errors, {counts['warning']} warnings, {counts['info']} info "
        f"({counts['suppressed']} suppressed); deadlock: {data.deadlock.scenarios} scenario(s) "
        f"checked, {len(data.deadlock.baseline) + sum(map(len, data.deadlock.opened.values()))} "
        "cycle(s). Cabling: [cabling.csv](cabling.csv).\n"
    )


def switch_md(data: ReportData, d: DeviceConfig) -> str:
    kind = f"{md(d.role)}, {md(d.vendor.value)} {md(d.model)}"
    parts = [f"# {md(d.hostname)}\n", f"{kind}. [Fabric](index.md).\n"]
    parts += _ports(d)
    need = [p for p in data.headroom if p.device == d.hostname]
    if need:
        parts += _headroom(need)
    if d.vlans:
        parts.append("## VLANs\n")
        parts.append(_table(["VLAN", "name"], [[v.id, v.name] for v in d.vlans]))
    if d.bgp:
        parts.append(f"## BGP (AS {md(d.bgp.asn)}, router-id {md(d.bgp.router_id)})\n")
        parts.append(
            _table(
                ["neighbour", "remote AS", "description"],
                [[n.address, n.remote_as, n.description] for n in d.bgp.neighbors],
            )
        )
    parts.append("## Lossless policy\n")
    parts.append(_policy(d))
    mine = [f for f in data.findings if f.device == d.hostname]
    parts.append("## Findings\n")
    parts.append(
        _table(
            ["rule", "severity", "line", "port", "message"],
            [[f.rule, f.severity, f.line or "", f.port or "", f.message] for f in mine],
        )
        if mine
        else "None.\n"
    )
    config = data.configs.get(d.hostname)
    if config:
        parts.append("## Configuration\n")
        parts.append(fenced(config.rstrip()))
    return "\n".join(parts)


def _ports(d: DeviceConfig) -> list[str]:
    ports = [
        [
            i.name,
            i.description,
            i.mode,
            i.access_vlan or "",
            i.ipv4 or "",
            i.mtu,
            f"{i.speed_gbps}G",
            "yes" if i.qos.pfc else "no",
            ",".join(map(str, i.qos.no_drop)),
            "; ".join(f"p{h.priority}: {h.bytes} B" for h in i.qos.headroom),
            "shut" if i.shutdown else "",
        ]
        for i in d.interfaces
    ]
    head = PORT_COLUMNS
    return ["## Ports\n", _table(head, ports)]


def _headroom(need: list[HeadroomPoint]) -> list[str]:
    rows = [
        [
            p.port,
            p.priority,
            f"{p.speed_gbps}G",
            f"{p.cable_m:g} m",
            p.required,
            p.configured if p.configured is not None else "switch default",
        ]
        for p in need
    ]
    head = ["port", "priority", "speed", "cable", "required (B)", "configured (B)"]
    return ["## Headroom: required against configured\n", _table(head, rows)]


def page_names(data: ReportData) -> dict[str, str]:
    """Hostname -> its page's file name. Hostnames come from configs: one that is a path
    (``sysname ../../x``) gets a file name inside the folder, and two that would share a
    page (or take index.md's) are an error, not an overwrite."""
    hosts = [d.hostname for d in data.devices]
    return file_names(hosts, ".md", what="hostname", taken=FIXED)


def documents(data: ReportData) -> dict[str, str]:
    pages = page_names(data)
    files = {"index.md": fabric_md(data, pages), "cabling.csv": cabling_csv(data)}
    for d in data.devices:
        files[pages[d.hostname]] = switch_md(data, d)
    return files
