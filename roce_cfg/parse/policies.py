"""QoS policies (MQC) and queue buffer caps: from the parse templates' common keys (docs/parse.md,
'Common template schema') to what each applied policy does to the traffic it matches.

A policy binds classes (which DSCPs or 802.1p priorities a packet carries) to behaviors (police
or shape it to a rate, re-mark its DSCP or priority, drop it), and acts where it is applied: on
every port (global), on a port, on VLANs, or between the ports of an uplink group. A line that
names what the config does not define (a policy no 'qos policy' declares), or a value that is
no value of its field, is recorded unread on its line: the evidence gate then keeps the rules
that read the section from concluding there.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from roce_cfg.model import numbers
from roce_cfg.model.device import AppliedPolicy, BufferCap, PolicyClass
from roce_cfg.model.numbers import Domain
from roce_cfg.parse.blocks import Block
from roce_cfg.parse.names import Namer
from roce_cfg.platforms.profile import VendorProfile


class Context(Protocol):
    """What this module needs of the normaliser's context (parse/context.Context)."""

    profile: VendorProfile
    namer: Namer
    notes: list[str]
    blocks: list[Block]

    def number(
        self, raw: Any, domain: Domain, default: None, scope: str | None = None
    ) -> int | None: ...

    def ranges(
        self,
        raw: Any,
        domain: Domain,
        scope: str | None = None,
        every: numbers.Ranges | None = None,
    ) -> numbers.Ranges: ...

    def values(self, raw: Any, domain: Domain, scope: str | None = None) -> tuple[int, ...]: ...

    def unreadable(self, reason: str, word: str, scope: str | None = None) -> None: ...


Raw = dict[str, Any]
Direction = Literal["inbound", "outbound"]
DIRECTIONS: tuple[Direction, ...] = ("inbound", "outbound")
# The DSCP keywords both vendors take for a value: the class selectors (RFC 2474), assured
# (RFC 2597) and expedited forwarding (RFC 3246), as the tables of [H3C-CR-CN] remark dscp
# (table 1-5) and [HW-CR] remark dscp list them.
DSCP_NAMES = {
    "default": 0,
    **{f"cs{n}": 8 * n for n in range(1, 8)},
    "ef": 46,
    **{f"af{c}{d}": 8 * c + 2 * d for c in range(1, 5) for d in range(1, 4)},
}
# 'car cir <value> [ kbps | mbps | gbps ]' ([HW-CR] car (traffic behavior view)); Comware prints
# no unit, its CIR is in kb/s ([H3C-CR-CN] car)
RATE_UNITS = {"kbps": 1, "mbps": 1_000, "gbps": 1_000_000}
RATE_KBPS = numbers.Domain("rate in kb/s", 0, 1_600_000_000)
# the packets a policer's red action keeps; any other word there is read as its action
_RED_KEEPS = ("pass", "remark-dscp-pass", "remark-dot1p-pass", "remark-lp-pass", "remark-prec-pass")


def _dicts(value: Any, key: str | None = None) -> list[Raw]:
    """A template group's results as a list of dicts (as context.as_list, which qos.py, a
    caller of this module, imports); with ``key``, those that have it (a group of defaults
    alone, matched nowhere, is ttp's result too)."""
    items = value if isinstance(value, list) else [value]
    return [v for v in items if isinstance(v, dict) and v and (key is None or key in v)]


@dataclass
class _Class:
    dscps: tuple[int, ...] = ()
    priorities: tuple[int, ...] = ()
    any_traffic: bool = False
    other: tuple[str, ...] = ()
    operator: Literal["and", "or"] | None = None


@dataclass
class _Behavior:
    cir_kbps: int | None = None
    drops_excess: bool = False
    shaped: bool = False
    remark_dscp: int | None = None
    remark_priority: int | None = None
    deny: bool = False
    line: int | None = None


@dataclass
class _Lines:
    """Where things are: lines found by their words, in the blocks of one header's name."""

    ctx: Context
    _ports: dict[str, list[Block]] | None = None

    def port_blocks(self, port: str) -> list[Block]:
        if self._ports is None:
            self._ports = {}
            for block in self.ctx.blocks:
                words = block.header.text.split()
                if len(words) == 2 and words[0] == "interface":
                    name = self.ctx.namer.name(words[1]).canonical
                    self._ports.setdefault(name, []).append(block)
        return self._ports.get(port, [])

    def named(self, kind: str, name: str) -> list[Block]:
        """The blocks whose header ends with the words ``kind`` and ``name`` ('behavior X',
        'vlan 10')."""
        return [b for b in self.ctx.blocks if b.header.text.split()[-2:] == [kind, name]]

    def find(self, words: Sequence[str], blocks: Iterable[Block] | None = None) -> int | None:
        """The first line holding ``words`` in this order (others may stand between)."""
        for block in self.ctx.blocks if blocks is None else blocks:
            for line in block.lines:
                have = iter(line.text.split())
                if all(w in have for w in words):
                    return line.no
        return None


def read(ctx: Context, raw: Raw) -> tuple[tuple[AppliedPolicy, ...], tuple[BufferCap, ...]]:
    """Every applied policy, in the order global, VLAN, port, uplink group, and every queue
    buffer cap (the global ones first)."""
    lines = _Lines(ctx)
    classes = {str(c["name"]): _classifier(ctx, c) for c in _dicts(raw.get("classifiers"), "name")}
    behaviors = {
        str(b["name"]): _behavior(ctx, b, lines) for b in _dicts(raw.get("behaviors"), "name")
    }
    bound = {
        str(p["name"]): _bound(ctx, p, classes, behaviors, lines)
        for p in _dicts(raw.get("policies"), "name")
    }
    applied = [
        *_global(ctx, raw, bound, lines),
        *_vlans(ctx, raw, bound, lines),
        *_ports(ctx, raw, bound, lines),
        *_uplinks(ctx, raw, lines),
    ]
    caps = [*_global_caps(ctx, raw, lines), *_port_caps(ctx, raw, lines)]
    return tuple(applied), tuple(caps)


def _dscp_list(ctx: Context, text: str, scope: str | None) -> tuple[int, ...]:
    """DSCP values and keywords ('26 cs6'), every one; a word that is neither is unread."""
    out: list[int] = []
    for word in text.split():
        if word.lower() in DSCP_NAMES:
            out.append(DSCP_NAMES[word.lower()])
        else:
            out.extend(ctx.values(word, numbers.DSCP, scope))
    return tuple(sorted(set(out)))


def _classifier(ctx: Context, item: Raw) -> _Class:
    dscps = [d for m in _dicts(item.get("dscp")) for d in _dscp_list(ctx, str(m["values"]), None)]
    prios = [
        p
        for m in _dicts(item.get("priority"))
        for p in ctx.values(str(m["values"]), numbers.PRIORITY)
    ]
    # the operator printed, else the vendor's default where its template names one
    operator = str(item.get("operator", item.get("operator_default", ""))).lower()
    if operator and operator not in ("and", "or"):
        ctx.unreadable(f"unknown classifier operator '{operator}'", operator)
    return _Class(
        dscps=tuple(sorted(set(dscps))),
        priorities=tuple(sorted(set(prios))),
        any_traffic=bool(_dicts(item.get("any"))),
        other=tuple(f"acl {m['words']}" for m in _dicts(item.get("other"))),
        operator="and" if operator == "and" else "or" if operator == "or" else None,
    )


def _behavior(ctx: Context, item: Raw, lines: _Lines) -> _Behavior:
    name = str(item["name"])
    out = _Behavior(deny=str(item.get("filter", "")) == "deny")
    if "cir" in item:
        # the red action a 'car' line leaves out: the vendor's default, where its template
        # names one from a source ('red_default')
        red = str(item.get("red_default", ""))
        out.cir_kbps, out.drops_excess = _car(
            ctx, str(item["cir"]), str(item.get("car", "")), red, name
        )
    elif "gts" in item:
        out.cir_kbps = ctx.number(item["gts"], RATE_KBPS, None)
        out.shaped = out.cir_kbps is not None
    if "remark_dscp" in item:
        found = _dscp_list(ctx, str(item["remark_dscp"]), None)
        out.remark_dscp = found[0] if len(found) == 1 else None
    if "remark_priority" in item:
        out.remark_priority = ctx.number(item["remark_priority"], numbers.PRIORITY, None)
    blocks = lines.named("behavior", name)
    first = next((b.body[0].no for b in blocks if b.body), None)
    out.line = lines.find(("cir",), blocks) or lines.find(("remark",), blocks) or first
    return out


def _car(
    ctx: Context, cir: str, rest: str, red_default: str, behavior: str
) -> tuple[int | None, bool]:
    """The committed rate in kb/s of a 'car' line, and whether it drops what exceeds it (its
    red action, or the default the vendor's template names)."""
    words = rest.split()
    unit = RATE_UNITS.get(words[0].lower(), 0) if words else 0
    value = ctx.number(cir, RATE_KBPS, None)
    rate = None if value is None else value * (unit or 1)
    red = words[words.index("red") + 1] if "red" in words[:-1] else ""
    if not red:
        if not red_default:
            ctx.notes.append(
                f"traffic behavior {behavior}: 'car' prints no red action and no source gives "
                "the default; taken as discard"
            )
        red = red_default or "discard"
    return rate, red not in _RED_KEEPS


def _bound(
    ctx: Context,
    item: Raw,
    classes: dict[str, _Class],
    behaviors: dict[str, _Behavior],
    lines: _Lines,
) -> tuple[PolicyClass, ...]:
    """A policy's classes with what their behaviors do; a binding naming a classifier or a
    behavior the config does not define is unread."""
    name = str(item["name"])
    out = []
    # 'ranked': bindings that print a precedence (their order, not what they do)
    for bind in [*_dicts(item.get("bindings")), *_dicts(item.get("ranked"))]:
        c, b = str(bind["classifier"]), str(bind["behavior"])
        for kind, word, known in (("classifier", c, classes), ("behavior", b, behaviors)):
            if word not in known:
                ctx.unreadable(f"policy {name}: {kind} '{word}' is not defined", word)
        if c not in classes or b not in behaviors:
            continue
        cls, act = classes[c], behaviors[b]
        out.append(
            PolicyClass(
                policy=name,
                classifier=c,
                behavior=b,
                dscps=cls.dscps,
                priorities=cls.priorities,
                any_traffic=cls.any_traffic,
                other=cls.other,
                operator=cls.operator,
                cir_kbps=act.cir_kbps,
                drops_excess=act.drops_excess,
                shaped=act.shaped,
                remark_dscp=act.remark_dscp,
                remark_priority=act.remark_priority,
                deny=act.deny,
                line=act.line or lines.find(("classifier", c, "behavior", b)),
            )
        )
    return tuple(out)


def _direction(ctx: Context, word: str, scope: str | None) -> Direction | None:
    found = next((d for d in DIRECTIONS if d == word.lower()), None)
    if found is None:
        ctx.unreadable(f"unknown policy direction '{word}'", word, scope)
    return found


def _policy(
    ctx: Context, name: str, bound: dict[str, tuple[PolicyClass, ...]], scope: str | None
) -> tuple[PolicyClass, ...] | None:
    if name not in bound:
        ctx.unreadable(f"QoS policy '{name}' is not defined", name, scope)
        return None
    return bound[name]


def _global(
    ctx: Context, raw: Raw, bound: dict[str, tuple[PolicyClass, ...]], lines: _Lines
) -> list[AppliedPolicy]:
    out = []
    for item in _dicts(raw.get("policy_global")):
        name = str(item["policy"])
        direction = _direction(ctx, str(item["direction"]), None)
        classes = _policy(ctx, name, bound, None)
        if direction is None or classes is None:
            continue
        line = lines.find((name, "global", direction))
        out.append(
            AppliedPolicy(
                name=name, scope="global", direction=direction, classes=classes, line=line
            )
        )
    return out


def _vlans(
    ctx: Context, raw: Raw, bound: dict[str, tuple[PolicyClass, ...]], lines: _Lines
) -> list[AppliedPolicy]:
    """Policies on VLANs: one line naming them ('qos vlan-policy'), or the VLAN's own view."""
    out = []
    flat = [(str(i["vlans"]), i, None) for i in _dicts(raw.get("policy_vlan"))]
    nested = [
        (str(v["vlan"]), a, lines.named("vlan", str(v["vlan"])))
        for v in _dicts(raw.get("policy_vlans"))
        for a in _dicts(v.get("applies"))
    ]
    for spec, item, blocks in [*flat, *nested]:
        name = str(item["policy"])
        line = lines.find((name, str(item["direction"])), blocks)
        if line is None:
            continue  # a line of another view (a port's) the template took for the VLAN's
        direction = _direction(ctx, str(item["direction"]), None)
        classes = _policy(ctx, name, bound, None)
        vlans = ctx.ranges(spec, numbers.VLAN)
        if direction is None or classes is None or not vlans:
            continue
        out.append(
            AppliedPolicy(
                name=name,
                scope="vlan",
                direction=direction,
                vlans=vlans,
                classes=classes,
                line=line,
            )
        )
    return out


def _ports(
    ctx: Context, raw: Raw, bound: dict[str, tuple[PolicyClass, ...]], lines: _Lines
) -> list[AppliedPolicy]:
    out = []
    for port in _dicts(raw.get("policy_ports")):
        applies = _dicts(port.get("applies"))
        if not applies:
            continue
        name = ctx.namer.name(str(port["name"])).canonical
        for item in applies:
            policy = str(item["policy"])
            direction = _direction(ctx, str(item["direction"]), name)
            classes = _policy(ctx, policy, bound, name)
            if direction is None or classes is None:
                continue
            line = lines.find((policy, direction), lines.port_blocks(name))
            if line is None:
                continue  # a line of another view (a VLAN's) the template took for the port's
            out.append(
                AppliedPolicy(
                    name=policy,
                    scope="port",
                    direction=direction,
                    ports=(name,),
                    classes=classes,
                    line=line,
                )
            )
    return out


def _uplinks(ctx: Context, raw: Raw, lines: _Lines) -> list[AppliedPolicy]:
    """PFC uplink groups: traffic that comes in on one member and goes out on another has its
    DSCP and priority changed ('adjust original-dscp <d> to priority <p> dscp <d2>')."""
    out = []
    for group in _dicts(raw.get("uplink_groups")):
        name = str(group["name"])
        ports = tuple(
            ctx.namer.name(str(m["port"])).canonical for m in _dicts(group.get("members"))
        )
        classes = []
        for adjust in _dicts(group.get("adjusts")):
            dscp = _dscp_list(ctx, str(adjust["dscp"]), None)
            to = _dscp_list(ctx, str(adjust["to"]), None)
            priority = ctx.number(adjust["priority"], numbers.PRIORITY, None)
            if len(dscp) != 1 or len(to) != 1 or priority is None:
                continue
            line = lines.find(("original-dscp", str(adjust["dscp"]), str(adjust["to"])))
            classes.append(
                PolicyClass(
                    policy=name,
                    classifier=f"original-dscp {dscp[0]}",
                    behavior="adjust",
                    dscps=dscp,
                    remark_dscp=to[0],
                    remark_priority=priority,
                    line=line,
                )
            )
        out.append(
            AppliedPolicy(
                name=name,
                scope="uplink",
                direction="transit",
                ports=ports,
                classes=tuple(classes),
                line=lines.find(("group", name)),
            )
        )
    return out


def _global_caps(ctx: Context, raw: Raw, lines: _Lines) -> list[BufferCap]:
    """Caps every port's queue shares: a percentage of the shared buffer."""
    out = []
    for item in _dicts(raw.get("queue_caps")):
        queue = ctx.number(item["queue"], numbers.QUEUE, None)
        percent = ctx.number(item["percent"], numbers.PERCENT, None)
        if queue is None or percent is None:
            continue
        line = lines.find(("buffer", "queue", str(item["queue"]), str(item["percent"])))
        out.append(BufferCap(queue=queue, value=percent, unit="percent", line=line))
    return out


def _port_caps(ctx: Context, raw: Raw, lines: _Lines) -> list[BufferCap]:
    out = []
    for port in _dicts(raw.get("policy_ports")):
        static, dynamic = _dicts(port.get("caps")), _dicts(port.get("dynamic_caps"))
        if not static and not dynamic:
            continue
        name = ctx.namer.name(str(port["name"])).canonical
        blocks = lines.port_blocks(name)
        for item in [*static, *dynamic]:
            words = ("buffer", "queue", str(item["queue"]), str(item["value"]))
            line = lines.find(words, blocks)
            cap = _cap(ctx, item, name, item in dynamic) if line is not None else None
            if cap is not None:
                out.append(cap.model_copy(update={"line": line}))
    return out


def _cap(ctx: Context, item: Raw, port: str, dynamic: bool) -> BufferCap | None:
    queue = ctx.number(item["queue"], numbers.QUEUE, None, port)
    if dynamic:
        step = ctx.number(item["value"], numbers.PERCENT, None, port)
        if queue is None or step is None:
            return None
        return BufferCap(queue=queue, port=port, value=step, unit="dynamic")
    unit_word = str(item.get("unit", ""))
    unit = ctx.profile.parse.sizes.get(unit_word)
    if unit_word and not isinstance(unit, int):
        ctx.unreadable(f"unknown size unit '{unit_word}'", unit_word, port)
        return None
    count = ctx.number(item["value"], numbers.BYTES, None, port)
    if queue is None or count is None or count * (unit or 1) not in numbers.BYTES:
        return None
    return BufferCap(queue=queue, port=port, value=count * (unit or 1), unit="bytes")
