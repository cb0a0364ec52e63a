"""From the parse templates' common schema to a vendor-neutral DeviceConfig.

Every vendor's ``templates/<vendor>/parse/*.ttp`` emits the same keys (documented in
``docs/parse.md``); the differences that remain — size units, timer granularities, which
settings a vendor implies rather than prints — are read from the vendor profile, so this module
has no per-vendor branches.
"""

from __future__ import annotations

import pickle
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cache
from ipaddress import IPv4Address, IPv4Interface, IPv4Network, IPv6Address, IPv6Interface
from typing import Any, Literal, TypeVar

from roce_cfg.model import describe, numbers
from roce_cfg.model.device import (
    Bgp,
    BgpNeighbor,
    DeviceConfig,
    DscpMap,
    EcnQueue,
    Interface,
    Loopback,
    PortDistance,
    PortIpv6,
    PortQos,
    PortVrf,
    PriorityBytes,
    Qos,
    QueueMap,
    Vlan,
    VlanInterface,
    WatchdogCfg,
    assembled,
    lean,
    packet_for,
)
from roce_cfg.model.numbers import Domain, NumberError
from roce_cfg.parse import (
    aggregates,
    ai_ecn,
    breakouts,
    ipv6,
    mlag,
    peer_links,
    pfc_profiles,
    policies,
    scheduling,
    splits,
    statics,
    subinterfaces,
)
from roce_cfg.parse.blocks import Block
from roce_cfg.parse.names import Name, Namer
from roce_cfg.platforms.profile import ModelSpec, VendorProfile, VersionForm

Raw = dict[str, Any]
Role = Literal["leaf", "spine", "superspine", "switch"]
T = TypeVar("T")
# (line number, line) of the first line holding a word, in one interface's blocks or anywhere
Locate = Callable[[str, str | None], tuple[int, str] | None]
# Asked of a Locate, a word starting with this is a whole number list: the line it ends.
LISTED = "\n"
# A config of 100,000 lines could hold as many bad values: the first are listed, the rest
# counted, so the report stays readable and its size bounded.
MAX_UNREAD = 1000


class Unreadable(ValueError):
    """A value in the config that cannot mean what the model needs (bad address, bad range)."""


@dataclass(frozen=True)
class Unread:
    """A line the parse did not read because a value on it is outside its domain."""

    line: int | None
    text: str
    reason: str


def _nowhere(word: str, scope: str | None) -> tuple[int, str] | None:
    return None


@dataclass
class Context:
    profile: VendorProfile
    model_name: str
    model: ModelSpec
    namer: Namer
    notes: list[str] = field(default_factory=list)
    unread: list[Unread] = field(default_factory=list)
    locate: Locate = _nowhere
    more_unread: int = 0
    board: str | None = None  # the model the config names, known to the profile or not
    version: VersionForm | None = None  # the release line its header names
    version_text: str = ""
    action_printed: bool = True
    blocks: list[Block] = field(default_factory=list)  # the config's, for ``line_of``
    # line text -> its numbers not yet claimed; built on the first question (static routes):
    # 100,000 entries a config of 100,000 ports held through the model's peak (issue 27)
    _lines: dict[str, list[int]] | None = None

    def line_of(self, text: str) -> int | None:
        """The number of the first line not yet claimed whose words are ``text``."""
        if self._lines is None:
            self._lines = {}
            for block in self.blocks:
                for line in block.lines:
                    self._lines.setdefault(" ".join(line.text.split()), []).append(line.no)
        found = self._lines.get(text)
        return found.pop(0) if found else None

    def unreadable(self, reason: str, word: str, scope: str | None = None) -> None:
        """The line holding ``word`` says what cannot mean anything (an unknown unit, queue,
        PHB): recorded unread on its line (found by the word, in ``scope``), as if absent, so
        the rest of the config is still read and the gate keeps rules from concluding."""
        found = self.locate(word, scope) if word else None
        self.refuse(found[0] if found else None, found[1] if found else "", reason)

    def refuse(self, line: int | None, text: str, reason: str) -> None:
        """A line that cannot be read at all: reported unread (lint: RC119), never dropped."""
        self.reports += 1
        if len(self.unread) >= MAX_UNREAD:
            self.more_unread += 1
        else:
            self.unread.append(Unread(line, text, reason))

    _qos: dict[tuple[Any, ...], PortQos] = field(default_factory=dict)
    # lines refused or values skipped so far: a result computed while none was is a pure
    # function of its raw lines, and may be reused for the next port that has the same ones
    reports: int = 0
    # a port's QoS lines (as the templates read them) -> its PortQos and ECN queues
    port_qos_seen: dict[tuple[str, str], tuple[PortQos, dict[int, Wred]]] = field(
        default_factory=dict
    )
    # a port's lines but its own (as the templates read them) -> what they say (``_port``)
    port_readings: dict[tuple[bool, bytes], _PortLines] = field(default_factory=dict)

    def port_qos(self, *fields: Any) -> PortQos:
        """One PortQos per distinct setting (it is frozen): ports mostly agree, and a config
        of 100,000 ports then holds a handful of them, not 100,000."""
        found = self._qos.get(fields)
        if found is None:
            names = ("trust_dscp", "pfc", "no_drop", "headroom", "xoff", "watchdog")
            more = ("ecn_queues", "strict_queues", "pfc_waits_for_dcbx")
            kwargs = dict(zip((*names, *more), fields, strict=True))
            found = self._qos[fields] = PortQos(**kwargs)
        return found

    def skip(self, exc: NumberError, scope: str | None = None, listed: str = "") -> None:
        """The line holding ``exc``'s value is not read (as if it were absent): recorded with
        its number, found by the value (in ``scope``'s interface blocks when given); a list's
        error first by the whole list ``listed``, which ends its line (a value alone, '0', is
        on many lines: a description's 'nic0' came first)."""
        self.reports += 1
        found = self.locate(LISTED + listed.strip(), scope) if listed.strip() else None
        found = found or (self.locate(exc.text, scope) if exc.text else None)
        entry = Unread(found[0] if found else None, found[1] if found else "", str(exc))
        if entry in self.unread:
            return
        if len(self.unread) >= MAX_UNREAD:
            self.more_unread += 1
            return
        self.unread.append(entry)

    def number(self, raw: Any, domain: Domain, default: T, scope: str | None = None) -> int | T:
        """``raw`` as a number of ``domain``, or ``default`` with its line recorded unread."""
        if type(raw) is int and domain.low <= raw <= domain.high:
            return raw  # what ttp converted already (most values): no text to read
        try:
            return numbers.number(str(raw).strip(), domain)
        except NumberError as exc:
            self.skip(exc, scope)
            return default

    def ranges(
        self,
        raw: Any,
        domain: Domain,
        scope: str | None = None,
        every: numbers.Ranges | None = None,
    ) -> numbers.Ranges:
        """A printed number list as ranges, or none with its line recorded unread."""
        try:
            return numbers.parse(str(raw), domain, every)
        except NumberError as exc:
            self.skip(exc, scope, str(raw))
            return ()

    def values(self, raw: Any, domain: Domain, scope: str | None = None) -> tuple[int, ...]:
        """A printed list of a small domain's numbers (priorities, DSCP, queues), every one."""
        return numbers.expand(self.ranges(raw, domain, scope))


def as_list(value: Any) -> list[Raw]:
    if value is None:
        return []
    if isinstance(value, list):
        return [v for v in value if isinstance(v, dict) and v]
    return [value] if isinstance(value, dict) and value else []


@cache
def _prefixlen(mask: str) -> int:
    return IPv4Network(f"0.0.0.0/{mask}").prefixlen


def _iface_addr(ip: str, mask: str) -> IPv4Interface:
    """An address and mask as ipaddress reads them (a ValueError where they are none)."""
    address, prefixlen = _address_of(ip), _prefixlen(mask)
    if isinstance(address, int):
        return numbers.interface(address, prefixlen)
    return IPv4Interface((address, prefixlen))


def _port_address(ctx: Context, ip: str, mask: str, port: str) -> IPv4Interface | None:
    """The port's address, or None (its line unread) where it is no IPv4 address and mask."""
    try:
        return _iface_addr(ip, mask)
    except ValueError:
        ctx.unreadable(f"'{ip} {mask}' is not an IPv4 address and mask", str(ip), port)
        return None


def _address_of(text: str) -> int | str:
    """What ipaddress builds the same address from, cheaper: its number, or the text (read,
    or refused in its words, by ipaddress). ipaddress's own parse of a port's and a peer's
    address was a tenth of an xl file's parse (issue 30). An overlay's template may hand
    over a number (to_int): ipaddress reads that as is."""
    number = numbers.quad_number(text)
    return text if number is None else number


def ipv4(text: str) -> IPv4Address:
    """``IPv4Address(text)``, the usual dotted quad read without ipaddress's parse."""
    return IPv4Address(_address_of(text))


def _size(
    ctx: Context,
    value: Any,
    unit_word: str | None,
    default: int | Literal["cell"],
    scope: str | None = None,
) -> int | None:
    """A size in bytes, or None (its line recorded unread) when it is no byte count."""
    unit: int | Literal["cell"] = default
    if unit_word:
        if unit_word not in ctx.profile.parse.sizes:
            ctx.unreadable(f"unknown size unit '{unit_word}'", unit_word, scope)
            return None
        unit = ctx.profile.parse.sizes[unit_word]
    count = ctx.number(value, numbers.BYTES, None, scope)
    if count is None:
        return None
    size = count * ctx.profile.unit_bytes(unit, ctx.model)
    if size not in numbers.BYTES:
        ctx.skip(numbers.OutOfDomain(str(value), numbers.BYTES), scope)
        return None
    return size


def merge_interfaces(raw: list[Raw], namer: Namer) -> dict[str, tuple[Name, Raw]]:
    """One entry per interface; ZXROS prints an interface twice (if-intf and switchvlan), and
    an interface range's lines come as a block of each of its ports (parse/ranges.py). Lines
    read into a list (a block's 'qos wfq <q> group sp' lines) join the other block's list."""
    merged: dict[str, tuple[Name, Raw]] = {}
    for item in raw:
        if "name" not in item:
            continue
        name = namer.name(str(item["name"]))
        if name.canonical in merged:
            into = merged[name.canonical][1]
            for key, value in item.items():
                before = into.get(key)
                if isinstance(before, list) and isinstance(value, list):
                    into[key] = [*before, *value]
                elif key != "name":
                    into[key] = value
        else:
            merged[name.canonical] = (name, dict(item))
    return merged


def _strict(ctx: Context, item: Raw, scope: str) -> tuple[int, ...]:
    queues: set[int] = set()
    names = ctx.profile.queue_names
    for entry in as_list(item.get("strict")):
        if "name" in entry:
            word = str(entry["name"])
            if word not in names:
                ctx.unreadable(
                    f"unknown queue name '{word}' (known: {', '.join(names)})", word, scope
                )
                continue
            queues.add(names.index(word))
        elif "queue" in entry:
            queues.update(ctx.values(entry["queue"], numbers.QUEUE, scope))
    weighted = _weighted(ctx, item, scope)
    if "drr_last" in item:
        last = ctx.number(item["drr_last"], numbers.QUEUE, len(names) - 1, scope)
        weighted.update(range(last + 1))
    return scheduling.strict(ctx.profile, queues, weighted)


def _weighted(ctx: Context, item: Raw, scope: str) -> set[int]:
    """Queues a line puts in a weighted group ('qos wrr be group 1 byte-count 10'): scheduled
    by weight, so not strict whatever else is printed."""
    names = ctx.profile.queue_names
    out: set[int] = set()
    for entry in as_list(item.get("weighted")):
        word = str(entry.get("name", ""))
        if word in names:
            out.add(names.index(word))
        else:
            ctx.unreadable(f"unknown queue name '{word}' (known: {', '.join(names)})", word, scope)
    return out


def _listed(ctx: Context, item: Raw, key: str, domain: Domain, scope: str) -> tuple[int, ...]:
    """Numbers from repeated lines ('pfc priority 3 no-drop' twice, or '... dot1p 3 4')."""
    if not item.get(key):
        return ()
    found = [
        ctx.ranges(entry.get("values", entry.get("queue", "")), domain, scope)
        for entry in as_list(item.get(key))
    ]
    return numbers.expand(numbers.merge(r for rs in found for r in rs))


@dataclass
class Wred:
    min_bytes: int
    max_bytes: int
    probability: int
    unit: Literal["bytes", "percent", "device"] = "bytes"


def _wred_tables(ctx: Context, raw: Raw) -> tuple[dict[str, dict[int, Wred]], dict[str, Wred]]:
    """Per-queue tables (queue -> thresholds, ECN queues only) and ECN profiles by name."""
    tables: dict[str, dict[int, Wred]] = {}
    profiles: dict[str, Wred] = {}
    for item in as_list(raw.get("wred")):
        name = str(item.get("name", ""))
        entries = as_list(item.get("entries"))
        if entries:
            flags = as_list(item.get("ecn_flags"))
            ecn = {ctx.number(f["queue"], numbers.QUEUE, -1, "@ecn") for f in flags}
            table: dict[int, Wred] = {}
            for e in entries:
                queue = ctx.number(e["queue"], numbers.QUEUE, -1, "@ecn")
                wred = _wred(ctx, e)
                if queue in ecn and wred is not None:
                    table[queue] = wred
            tables[name] = table
        else:
            wred = _profile(ctx, item)
            if wred is not None:
                profiles[name] = wred
    return tables, profiles


def _profile(ctx: Context, item: Raw) -> Wred | None:
    """An ECN profile's thresholds: its ECN line, else its green WRED thresholds (a queue
    flagged for ECN marks at them), in bytes or in percent of the queue's buffer."""
    if item.get("ecn") and "min" in item:
        return _wred(ctx, item)
    if "green_min" in item:
        return _wred(ctx, {**item, "min": item["green_min"], "max": item["green_max"]})
    if "min_pct" in item:
        low = ctx.number(item["min_pct"], numbers.PERCENT, None, "@ecn")
        high = ctx.number(item["max_pct"], numbers.PERCENT, None, "@ecn")
        probability = ctx.number(item["probability"], numbers.PERCENT, None, "@ecn")
        if low is None or high is None or probability is None:
            return None
        return Wred(low, high, probability, "percent")
    return None


def _wred(ctx: Context, item: Raw) -> Wred | None:
    """One queue's or profile's thresholds; None when a value on its line is unreadable."""
    unit = ctx.profile.ecn_unit_bytes
    low = _size(ctx, item["min"], None, unit, "@ecn")
    high = _size(ctx, item["max"], None, unit, "@ecn")
    probability = ctx.number(item["probability"], numbers.PERCENT, None, "@ecn")
    if low is None or high is None or probability is None:
        return None
    return Wred(low, high, probability)


def _ecn_queues(
    ctx: Context,
    item: Raw,
    tables: dict[str, dict[int, Wred]],
    profiles: dict[str, Wred],
    scope: str,
) -> dict[int, Wred]:
    out: dict[int, Wred] = {}
    table = item.get("wred_table")
    if table:
        out.update(tables.get(str(table), {}))
    if not item.get("queue_profiles"):
        return out
    flagged = set(_listed(ctx, item, "ecn_flags", numbers.QUEUE, scope))
    for bind in as_list(item.get("queue_profiles")):
        queue, prof = ctx.number(bind["queue"], numbers.QUEUE, -1, scope), str(bind["profile"])
        if queue < 0 or prof not in profiles:
            continue
        if ctx.profile.parse.port_ecn_needs_queue_flag and queue not in flagged:
            continue
        out[queue] = profiles[prof]
    return out


def _breakout_parent(ctx: Context, name: Name) -> str | None:
    if ":" not in name.number:
        return None
    base = name.number.split(":")[0]
    for group in ctx.model.ports:
        if not group.has_legs_named(name.speed):
            continue
        pattern = re.escape(group.label).replace(re.escape("{n}"), r"(\d+)")
        m = re.fullmatch(pattern, base)
        if m and group.first <= port_number(m[1]) < group.first + group.count:
            return ctx.profile.interface_prefix[group.speed] + base
    return None


def port_number(digits: str) -> int:
    """A port number from an interface name; -1 when it is no port number (4,301 digits)."""
    try:
        return numbers.number(digits, numbers.PORT_NUMBER)
    except NumberError:
        return -1


def _watchdog(ctx: Context, raw: Raw) -> WatchdogCfg | None:
    entries = as_list(raw.get("watchdog_entries"))
    if entries:
        first = entries[0]
        return _timed(
            ctx,
            ctx.number(first["detect_ms"], numbers.MILLISECONDS, None, "@watchdog"),
            ctx.number(first["restore_ms"], numbers.MILLISECONDS, None, "@watchdog"),
            _action(ctx, [first]),
        )
    timer = as_list(raw.get("watchdog_timer"))
    if timer:  # milliseconds given directly (Huawei 'dcb pfc deadlock-detect timer')
        recovery = as_list(raw.get("watchdog_recovery_timer"))
        return _timed(
            ctx,
            ctx.number(timer[0]["detect_ms"], numbers.MILLISECONDS, None, "@watchdog"),
            ctx.number(recovery[0]["restore_ms"], numbers.MILLISECONDS, None, "@watchdog")
            if recovery
            else _version_ms(ctx, 1),
            _action(ctx, as_list(raw.get("watchdog_action"))),
        )
    return _stepped(ctx, raw)


def _stepped(ctx: Context, raw: Raw) -> WatchdogCfg | None:
    """A watchdog counted in steps of a granularity: separate detect/restore lines, or both on
    one line (VRP V200); with no timer line at all, the release's unprinted default."""
    both = as_list(raw.get("watchdog_both"))
    detect = as_list(raw.get("watchdog_detect")) or both
    restore = as_list(raw.get("watchdog_restore")) or [
        {"steps": b["back"]} for b in both if "back" in b
    ]
    gran = as_list(raw.get("watchdog"))
    if not detect:
        # a granularity alone times no detection: the watchdog watches no priority
        return None if gran else _unprinted(ctx, raw)
    unit = _granularity(ctx, str(gran[0].get("granularity", "")) if gran else "")
    action = _action(ctx, as_list(raw.get("watchdog_action")))
    if unit is None or action is None:
        return None
    steps = ctx.number(detect[0]["steps"], numbers.MILLISECONDS, None, "@watchdog")
    back = (
        ctx.number(restore[0]["steps"], numbers.MILLISECONDS, None, "@watchdog") if restore else 0
    )
    return _timed(
        ctx, None if steps is None else steps * unit, None if back is None else back * unit, action
    )


def _granularity(ctx: Context, word: str) -> int | None:
    """Milliseconds of a granularity word; none printed is the vendor's documented default;
    None (its line unread) for a word that is no granularity."""
    granularities = ctx.profile.watchdog_timer.granularities_ms
    if not word:
        word = ctx.profile.parse.watchdog_defaults.granularity or ""
        if word and ctx.version is not None and not ctx.version.granularity_sourced:
            ctx.notes.append(ctx.version.note or f"watchdog unit assumed {word} ms (unsourced)")
    if word in granularities:
        return granularities[word]
    if word.isascii() and word.isdigit() and len(word) < 7 and int(word) in granularities.values():
        return int(word)
    ctx.unreadable(f"unknown watchdog granularity '{word}'", word, "@watchdog")
    return None


def _action(ctx: Context, printed: list[Raw]) -> Literal["drop", "forward"] | None:
    """The printed recovery action, or the model's documented default when none is printed
    (VRP V300 and Comware leave the default out); unsourced defaults are said, never guessed
    silently. None (its line unread) for a word that is no action."""
    actions = ctx.profile.parse.watchdog_actions
    word = str(printed[0].get("action", "")) if printed else ""
    if word:
        if word not in actions:
            ctx.unreadable(f"unknown watchdog action '{word}'", word, "@watchdog")
            return None
        return actions[word]
    defaults = ctx.profile.parse.watchdog_defaults
    model = ctx.board or ctx.model_name
    action = defaults.default_action(model)
    ctx.action_printed = False
    if action is None:
        ctx.notes.append(
            f"cannot verify: the PFC watchdog's recovery action is not printed and no source "
            f"gives the default on {model}; 'forward' (the unsafe one) assumed"
        )
        return "forward"
    ctx.notes.append(
        f"watchdog recovery action not printed: {model} defaults to {action} ({defaults.source})"
    )
    return action


def _version_ms(ctx: Context, which: int) -> int:
    """The release's unprinted default detect (0) or restore (1) time; 0 when unsourced."""
    timers = ctx.version.watchdog_ms if ctx.version is not None else None
    return timers[which] if timers is not None else 0


def _unprinted(ctx: Context, raw: Raw) -> WatchdogCfg | None:
    """A PFC switch that prints no watchdog timer runs its release's default (VRP V300: 100 ms
    detect and restore), when a source gives one; otherwise there is no watchdog to read."""
    ports = as_list(raw.get("interfaces"))
    if (
        raw.get("pfc") is None
        and raw.get("pfc_profiles") is None
        and not any(p.get(k) for p in ports for k in _PFC_KEYS)
    ):
        return None  # no PFC, no watchdog to speak of
    if ctx.version is None or ctx.version.watchdog_ms is None:
        if ctx.version is not None:
            ctx.notes.append(
                f"cannot verify: no PFC watchdog line, and the default of {ctx.version_text} "
                "(on or off, its timers) is not in a source"
            )
        return None
    detect, restore = ctx.version.watchdog_ms
    action = _action(ctx, as_list(raw.get("watchdog_action")))
    ctx.notes.append(
        f"no PFC watchdog timer printed: {ctx.version_text} defaults to {detect} ms detect, "
        f"{restore} ms restore ({ctx.version.source})"
    )
    return _timed(ctx, detect, restore, action)


def _timed(
    ctx: Context,
    detect: int | None,
    restore: int | None,
    action: Literal["drop", "forward"] | None,
) -> WatchdogCfg | None:
    """The watchdog, or None when a time or the action on its lines is unread (or a time past
    an hour in steps)."""
    for ms in (detect, restore):
        if ms is not None and ms not in numbers.MILLISECONDS:
            ctx.skip(numbers.OutOfDomain(str(ms), numbers.MILLISECONDS), "@watchdog")
            return None
    if detect is None or restore is None or action is None:
        return None
    return WatchdogCfg(
        detect_ms=detect, restore_ms=restore, action=action, action_printed=ctx.action_printed
    )


def _ecn(tables: dict[int, Wred], device_set: tuple[int, ...]) -> tuple[EcnQueue, ...]:
    """The ECN queues: their thresholds as printed, else set by the switch (AI ECN)."""
    set_by_switch = {q: Wred(0, 0, 0, "device") for q in device_set if q not in tables}
    return tuple(
        EcnQueue(
            queue=q,
            min_bytes=w.min_bytes,
            max_bytes=w.max_bytes,
            probability=w.probability,
            unit=w.unit,
        )
        for q, w in sorted({**tables, **set_by_switch}.items())
    )


def _maps(ctx: Context, raw: Raw) -> tuple[tuple[DscpMap, ...], tuple[QueueMap, ...]]:
    dscp: dict[int, int] = {}
    queue: dict[int, int] = {}
    names = ctx.profile.queue_names
    for group in as_list(raw.get("maps")):
        table = str(group.get("table", ""))
        for entry in as_list(group.get("entries")) or [group]:
            if "from" not in entry:
                continue
            domain = numbers.PRIORITY if table == "priority_queue" else numbers.DSCP
            sources = ctx.values(entry["from"], domain, "@dscp_map")
            to_raw = str(entry["to"])
            if not sources:
                continue
            if table == "dscp_phb":
                if to_raw not in names:
                    reason = f"unknown PHB '{to_raw}' (known: {', '.join(names)})"
                    ctx.unreadable(reason, to_raw, "@dscp_map")
                    continue
                q = names.index(to_raw)
                for d in sources:
                    dscp[d] = q
                queue[q] = q
                continue
            to_domain = numbers.PRIORITY if table == "dscp_priority" else numbers.QUEUE
            targets = ctx.values(to_raw, to_domain, "@dscp_map")
            if not targets:
                continue
            if len(targets) == 1:
                targets = targets * len(sources)
            if len(targets) != len(sources):
                reason = f"map '{entry['from']} to {to_raw}' pairs unequal lists"
                ctx.unreadable(reason, to_raw.split()[0], "@dscp_map")
                continue
            target = dscp if table == "dscp_priority" else queue
            target.update(zip(sources, targets, strict=True))
    return (
        tuple(DscpMap(dscp=d, priority=p) for d, p in sorted(dscp.items())),
        tuple(QueueMap(priority=p, queue=q) for p, q in sorted(queue.items())),
    )


def _vlans(ctx: Context, raw: Raw) -> tuple[Vlan, ...]:
    """Declared VLANs. Ranges from every 'vlan batch' / 'vlan A to B' line are merged before
    they are expanded: 99,000 lines of '2 to 4094' cost 99,000 pairs, not 405 million ids."""
    spans: list[tuple[int, int]] = []
    for batch in as_list(raw.get("vlan_batch")):
        spans.extend(ctx.ranges(batch.get("spec", ""), numbers.VLAN))
    names: dict[int, str] = {}
    for item in as_list(raw.get("vlans")):
        if "range" in item:
            spans.extend(ctx.ranges(item["range"], numbers.VLAN))
        elif "id" in item:
            vid = ctx.number(item["id"], numbers.VLAN, None)
            if vid is not None:
                names[vid] = str(item.get("name", ""))
    for vid in numbers.expand(numbers.merge(spans)):
        names.setdefault(vid, "")
    return tuple(Vlan(id=v, name=n) for v, n in sorted(names.items()))


def _bgp(ctx: Context, raw: Raw, loopback: Loopback | None) -> Bgp | None:
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


def _first_int(ctx: Context, item: Raw, keys: tuple[str, ...], default: int, scope: str) -> int:
    """The first of ``keys`` the item has (every one of them checked: a bad value on a line the
    first key shadows is still reported)."""
    found = [ctx.number(item[key], numbers.MTU, None, scope) for key in keys if key in item]
    return next((n for n in found if n is not None), default)


def _union(values: Iterable[tuple[int, ...]]) -> tuple[int, ...]:
    out: set[int] = set()
    for v in values:
        out.update(v)
    return tuple(sorted(out))


def _per_priority(ctx: Context, item: Raw, key: str, scope: str) -> tuple[PriorityBytes, ...]:
    """Bytes per priority ('headroom', 'xoff'); a line with a value outside its domain is
    unread, the others are kept."""
    out = []
    for h in as_list(item.get(key)):
        priority = ctx.number(h["priority"], numbers.PRIORITY, None, scope)
        size = _size(ctx, h["value"], h.get("unit"), ctx.profile.headroom_unit_bytes, scope)
        if priority is not None and size is not None:
            out.append(PriorityBytes(priority=priority, bytes=size))
    return tuple(out)


def _trunk(ctx: Context, item: Raw, every: numbers.Ranges, scope: str) -> numbers.Ranges:
    """A trunk's VLANs as printed: '101 200', '2 5 to 6' (H3C [H3C-TPL-B] port trunk permit
    vlan, Huawei [HW-CG] port trunk allow-pass vlan) or '101-104,200' (ZTE [ZTE-GUIDE]
    switchport trunk vlan). 'all' ([HW-CR] "port trunk allow-pass vlan" takes it; H3C prints
    it) is ``every`` VLAN the switch has: a trunk forwards only VLANs that exist. One entry
    per line (``trunk_lists``; an overlay template may still join them into ``trunk_vlans``):
    the lines' ranges are merged, never a string of all of them built."""
    lists = [e.get("vlans", "") for e in as_list(item.get("trunk_lists"))]
    if "trunk_vlans" in item:
        lists.append(item["trunk_vlans"])
    permitted = numbers.merge(
        r for text in lists for r in ctx.ranges(text, numbers.VLAN, scope, every)
    )
    # 'undo port trunk permit vlan 1' [H3C-TPL-B]: the VLANs named leave the permitted set
    removed = [e.get("vlans", "") for e in as_list(item.get("trunk_removed"))]
    if not removed:
        return permitted
    gone = numbers.merge(
        r for text in removed for r in ctx.ranges(text, numbers.VLAN, scope, every)
    )
    return numbers.without(permitted, gone)


@dataclass(frozen=True)
class _Globals:
    """What the config states once and its ports refer to."""

    tables: dict[str, dict[int, Wred]]
    profiles: dict[str, Wred]
    no_drop: tuple[int, ...]
    watchdog: WatchdogCfg | None
    every_vlan: numbers.Ranges
    speeds: dict[str, int]
    pfc: pfc_profiles.Profiles = field(default_factory=pfc_profiles.Profiles)
    splits: dict[str, int] = field(default_factory=dict)  # split parent -> its legs' Gb/s
    ai_ecn: tuple[int, ...] = ()  # queues that mark ECN at thresholds the switch sets


@dataclass
class _Ports:
    loopback: Loopback | None = None
    ports: list[Interface] = field(default_factory=list)
    svis: list[VlanInterface] = field(default_factory=list)
    ecn: dict[int, Wred] = field(default_factory=dict)
    # port -> its aggregation lines (group, minimum members, peer-link, M-LAG id)
    lag_lines: dict[str, Raw] = field(default_factory=dict)
    vrfs: list[PortVrf] = field(default_factory=list)
    distances: list[PortDistance] = field(default_factory=list)
    # a port split into breakout legs -> the leg type its 'using' line names
    split: dict[str, str] = field(default_factory=dict)
    ipv6: list[PortIpv6] = field(default_factory=list)
    unscheduled: list[str] = field(default_factory=list)  # ports with no scheduling line


def build(
    raw: Raw, ctx: Context, hostname: str, role: Role | None, speeds: dict[str, int]
) -> DeviceConfig:
    """One device from its sections: system, interfaces, QoS, VLANs, BGP, static routes.
    ``raw``'s interfaces are consumed."""
    systems = as_list(raw.get("system"))
    if systems and systems[0].get("hostname"):
        hostname = str(systems[0]["hostname"])
    else:
        ctx.notes.append(f"no hostname in the config; '{hostname}' taken from the file name")
    tables, profiles = _wred_tables(ctx, raw)
    pfc = pfc_profiles.read(ctx, raw)
    _switch_frame(raw)
    declared = _vlans(ctx, raw)
    watchdog, every = _watchdog(ctx, raw), numbers.of(v.id for v in declared)
    legs, marked = splits.read(ctx, raw), ai_ecn.queues(ctx, raw)
    g = _Globals(tables, profiles, pfc.default, watchdog, every, speeds, pfc, legs, marked)
    found = _interfaces(raw, ctx, g)
    found.ports = breakouts.split(ctx, found.ports, found.split)
    found.ports, lags = aggregates.resolve(ctx, found.ports, found.lag_lines)
    members = {a.name: a.members for a in lags}
    found.ports, subs = subinterfaces.resolve(ctx, found.ports, members)
    qos = _qos(ctx, raw, g, found)
    bgp = _bgp(ctx, raw, found.loopback)
    if role is None:
        has_access = any(p.mode == "access" for p in found.ports)
        role = ("leaf" if bgp else "switch") if has_access else "spine"
    static = statics.read(
        ctx, as_list(raw.get("static_routes")), as_list(raw.get("static_routes6"))
    )
    return DeviceConfig(
        hostname=hostname,
        vendor=ctx.profile.vendor,
        model=ctx.model_name,
        role=role,
        lldp=bool(as_list(raw.get("lldp"))),
        loopback=found.loopback,
        interfaces=tuple(found.ports),
        vlans=declared,
        vlan_interfaces=tuple(sorted(found.svis, key=lambda s: s.vlan)),
        qos=qos,
        bgp=bgp,
        static_routes=static,
        aggregates=lags,
        mlag=mlag.read(ctx, raw),
        port_vrfs=tuple(found.vrfs),
        ipv6_ports=tuple(found.ipv6),
        sub_interfaces=subs,
        port_distances=tuple(found.distances),
        scheduling_unknown=scheduling.unknown_ports(found.unscheduled, found.ports),
    )


def _switch_frame(raw: Raw) -> None:
    """A switch-wide frame limit (ZXAN 'eth-switch max-frame-length') is the frame limit of
    every interface that states none of its own."""
    frames = as_list(raw.pop("frame", None))
    if not frames or "bytes" not in frames[-1]:
        return
    for item in as_list(raw.get("interfaces")):
        item.setdefault("frame", frames[-1]["bytes"])


def _interfaces(raw: Raw, ctx: Context, g: _Globals) -> _Ports:
    """Loopback, VLAN interfaces and ports, in the config's order."""
    found = _Ports()
    loop_name = ctx.namer.name(ctx.profile.loopback_interface).canonical
    # Taken out of ``raw`` and dropped as their ports are built: the templates' items and the
    # models of 100,000 ports are not all held at once (issue 27, cause 9).
    merged = merge_interfaces(as_list(raw.pop("interfaces", None)), ctx.namer)
    for key in list(merged):
        name, item = merged.pop(key)
        if "vrf" in item:
            found.vrfs.append(PortVrf(port=name.canonical, vrf=str(item["vrf"])))
        metres = _distance(ctx, item, name.canonical)
        if metres is not None:
            found.distances.append(PortDistance(port=name.canonical, metres=metres))
        addr = (
            _port_address(ctx, item["ip"], item["mask"], name.canonical)
            if "ip" in item and "mask" in item
            else None
        )
        addr6 = ipv6.of_item(ctx, item, name.canonical) if "ip6s" in item else None
        if name.kind == "loopback":
            if addr is None and addr6 is None:
                ctx.notes.append(f"{name.canonical}: loopback without an address, ignored")
            elif found.loopback is None or name.canonical == loop_name:
                if found.loopback is not None:
                    ctx.notes.append(f"{found.loopback.name}: second loopback, not modelled")
                found.loopback = Loopback(name=name.canonical, ipv4=addr, ipv6=addr6)
            else:
                ctx.notes.append(f"{name.canonical}: second loopback, not modelled")
        elif name.kind == "vlan":
            _svi(ctx, name, item, (addr, addr6), found)
        else:
            port = _port(ctx, g, name, item, addr, found.ecn)
            if scheduling.unknown(ctx.profile, item):
                found.unscheduled.append(port.name)
            if addr6 is not None or "mtu6" in item:
                found.ipv6.append(ipv6.entry(ctx, item, port.name, addr6))
            found.ports.append(ipv6.port(ctx, port, item, addr6) if addr6 else port)
            lag = {k: item[k] for k in aggregates.KEYS if k in item}
            if lag or name.kind == "aggregate":
                # what the port prints: which settings it and its aggregate give each other
                found.lag_lines[name.canonical] = {**lag, aggregates.PRINTED: frozenset(item)}
            if "split" in item:
                found.split[name.canonical] = str(item["split"])
    return found


def _svi(
    ctx: Context,
    name: Name,
    item: Raw,
    addrs: tuple[IPv4Interface | None, IPv6Interface | None],
    found: _Ports,
) -> None:
    """A VLAN interface, when it has an address and its number is a VLAN."""
    scope = name.canonical
    vid = ctx.number(name.number, numbers.VLAN, None, scope)
    mtu = _first_int(ctx, item, ("mtu",), ctx.profile.parse.default_mtu, scope)
    addr, addr6 = addrs
    if addr6 is not None:
        mtu = ipv6.mtu(ctx, item, scope, mtu, both=addr is not None)
    if vid is None:
        return  # its line is unread
    if addr is None and addr6 is None:
        ctx.notes.append(f"{scope}: VLAN interface without an address, ignored")
        return
    description = str(item.get("description", ""))
    found.svis.append(
        VlanInterface(vlan=vid, ipv4=addr, mtu=mtu, description=description, ipv6=addr6)
    )


def _port(
    ctx: Context,
    g: _Globals,
    name: Name,
    item: dict[str, Any],
    addr: IPv4Interface | None,
    ecn: dict[int, Wred],
) -> Interface:
    """One switch port; the WRED profiles its queues apply join ``ecn``."""
    description = str(item.get("description", ""))
    hinted = g.speeds.get(name.canonical)
    read = _port_lines(ctx, g, item, name.canonical, bool(hinted))
    ecn.update(read.ecn)
    parent = splits.parent_of(name.canonical, g.splits) or _breakout_parent(ctx, name)
    # a leg's speed is its split line's: its name may be its parent's type ('400GE1/0/7:1')
    split = g.splits.get(parent) if parent else None
    speed = hinted or read.speed or split or describe.speed(description) or name.speed or 0
    own = {
        "name": name.canonical,
        "description": description,
        "ipv4": addr,
        "speed_gbps": speed,
        "breakout_of": parent,
    }
    first = read.port
    if first is not None and type(speed) is int and 0 <= speed <= numbers.SPEED.high:
        # the port's own values are of their fields' types (a name, words, an address), its
        # speed checked above; the rest is the first port's, validated: validating every
        # port again was a sixth of an xl config's normalising (issue 30)
        return assembled(Interface, {**first.__dict__, **own}, first.__pydantic_fields_set__)
    port = lean(
        Interface(
            mode=read.mode,
            access_vlan=read.access_vlan,
            trunk_vlans=read.trunk_vlans,
            mtu=read.mtu,
            frame_bytes=read.frame,
            shutdown=read.shutdown,
            qos=read.qos,
            **own,
        )
    )
    if first is None:
        read.port = port
    return port


# Every key of a port's template output that is the port's own (its name, its words, its
# address); what the others say is read once per config for every port that repeats them.
_OWN_KEYS = frozenset(("name", "description", "ip", "mask", *ipv6.OWN_KEYS))
# distinct port readings a config keeps: its ports mostly repeat a handful of sets of lines; a
# hostile config of 100,000 different ones is read port by port past these
MAX_PORT_READINGS = 1024


@dataclass
class _PortLines:
    """What a port's lines other than its own say (``_OWN_KEYS``), and the first port read
    with them."""

    mode: Literal["routed", "access"]
    access_vlan: int | None
    trunk_vlans: numbers.Ranges
    mtu: int
    frame: int | None
    speed: int | None  # what its own lines set; None as well when a hint gives its speed
    shutdown: bool
    qos: PortQos
    ecn: dict[int, Wred]
    port: Interface | None = None


def _port_lines(ctx: Context, g: _Globals, item: Raw, scope: str, hinted: bool) -> _PortLines:
    """The port's reading; the 130 ports of an xl leaf repeat the same lines but for their
    names, descriptions and addresses, and reading each port's was a third of its parse (issue
    30). A reading that refused a value is not reused: that is reported per port, on its line."""
    # pickled, not repr'd (a third of the cost): equal bytes are equal values of equal types
    rest = {k: v for k, v in item.items() if k not in _OWN_KEYS}
    key = (hinted, pickle.dumps(rest, pickle.HIGHEST_PROTOCOL))
    found = ctx.port_readings.get(key)
    if found is None:
        reports = ctx.reports
        found = _read_port_lines(ctx, g, item, scope, hinted)
        if ctx.reports == reports and len(ctx.port_readings) < MAX_PORT_READINGS:
            ctx.port_readings[key] = found
    return found


def _read_port_lines(ctx: Context, g: _Globals, item: Raw, scope: str, hinted: bool) -> _PortLines:
    spec = ctx.profile.parse
    # a sub-interface terminating dot1q is a Layer 3 one ([HW-CR] dot1q termination vid: in
    # the sub-interface views; a Layer 2 sub-interface is another form)
    if item.get("routed") or "dot1q_vid" in item:
        mode: Literal["routed", "access"] = "routed"
    elif item.get("switched") or "access_vlan" in item:
        mode = "access"
    else:
        mode = spec.default_port_mode
    # read in the order the lines' refused values were always reported in
    frame = ctx.number(item["frame"], numbers.FRAME, None, scope) if "frame" in item else None
    access = mode == "access"
    access_vlan = ctx.number(item.get("access_vlan", 1), numbers.VLAN, 1, scope) if access else None
    trunk = _trunk(ctx, item, g.every_vlan, scope) if access else ()
    peer = peer_links.carried(ctx, item, g.every_vlan, scope) if access else None
    trunk = trunk if peer is None else peer
    mtu = _ip_mtu(ctx, item, mode, frame, scope)
    # a hinted speed wins: the port's own speed line is then not read (nor refused)
    speed = None if hinted else _configured_speed(ctx, item, scope)
    qos, ecn = _port_qos(ctx, g, item, mode, scope)
    return _PortLines(
        mode, access_vlan, trunk, mtu, frame, speed, bool(item.get("shutdown")), qos, ecn
    )


def _distance(ctx: Context, item: Raw, scope: str) -> int | None:
    """The link length the port's own config bounds ('long-distance mode level-100': 100 km,
    ``parse.distance_levels``); None when it does not say, or (its line unread) says a word
    that is no level."""
    word = item.get("distance_level")
    if word is None:
        return None
    metres = ctx.profile.parse.distance_levels.get(str(word))
    if metres is None:
        ctx.unreadable(f"unknown link distance level '{word}'", str(word), scope)
    return metres


def _configured_speed(ctx: Context, item: Raw, scope: str) -> int | None:
    """The speed the port's own lines set ('speed 40000' in Mb/s, 'port mode 10G'): what it
    runs at, whatever its cage's name says (issue 26: a 400G cage with a 100G module)."""
    if "speed_mbps" in item:
        mbps = ctx.number(item["speed_mbps"], numbers.SPEED_MBPS, None, scope)
        return mbps // 1000 if mbps is not None and mbps >= 1000 else None
    return ctx.profile.parse.port_modes.get(str(item.get("port_mode", "")))


def _ip_mtu(ctx: Context, item: dict[str, Any], mode: str, frame: int | None, scope: str) -> int:
    """The IP MTU of a port: its 'mtu' (packet) line; of a Layer-2 port without one, the packet
    its frame limit (or the model's default frame limit) carries in a tagged frame."""
    carried = frame or ctx.model.frame_default_bytes
    if mode == "access" and "mtu" not in item and carried is not None:
        return packet_for(carried)
    return _first_int(ctx, item, ("mtu",), ctx.profile.parse.default_mtu, scope)


# The keys of a port's template output that turn PFC on (one of them is enough).
_PFC_KEYS = ("pfc", "pfc_mode", "pfc_profile", "antilocking_pfc")
# Every key of a port's template output that its QoS is read from (``_port_qos_read``).
_QOS_KEYS = (
    *_PFC_KEYS, "dcbx", "trust_dscp", "watchdog", "wred_table", "queue_profiles",
    "ecn_flags", "no_drop", "headroom", "xoff", "strict", "drr_last", "weighted",
)  # fmt: skip


def _port_qos(
    ctx: Context, g: _Globals, item: dict[str, Any], mode: str, scope: str
) -> tuple[PortQos, dict[int, Wred]]:
    """The port's QoS and its ECN queues. Ports mostly repeat the same QoS lines (an xl leaf:
    128 ports, one set of lines), so a set read without a refused value is read once per
    config (a refused value is reported per port, with that port's line)."""
    key = (mode, repr([item.get(k) for k in _QOS_KEYS]))
    seen = ctx.port_qos_seen.get(key)
    if seen is None:
        reports = ctx.reports
        seen = _port_qos_read(ctx, g, item, mode, scope)
        if ctx.reports == reports:
            ctx.port_qos_seen[key] = seen
    return seen


def _port_qos_read(
    ctx: Context, g: _Globals, item: dict[str, Any], mode: str, scope: str
) -> tuple[PortQos, dict[int, Wred]]:
    spec = ctx.profile.parse
    named, by_name = pfc_profiles.applied(ctx, g.pfc, item, scope)
    pfc = bool(item.get("pfc") or item.get("pfc_mode")) or named
    port_ecn = _ecn_queues(ctx, item, g.tables, g.profiles, scope)
    no_drop = _listed(ctx, item, "no_drop", numbers.PRIORITY, scope) or by_name
    if pfc and not no_drop:
        # the default PFC profile's priorities are not printed (Huawei 'dcb pfc': 3)
        no_drop = g.no_drop or spec.defaults.pfc_no_drop
    implied_wd = spec.port_watchdog_implied and pfc and g.watchdog is not None
    qos = ctx.port_qos(
        # a routed port may trust DSCP without saying so (Huawei Layer-3 ports)
        bool(item.get("trust_dscp")) or (mode == "routed" and spec.routed_trusts_dscp),
        pfc,
        no_drop,
        _per_priority(ctx, item, "headroom", scope),
        _per_priority(ctx, item, "xoff", scope),
        bool(item.get("watchdog")) or implied_wd,
        # AI ECN marks the queue on every PFC port (ai_ecn.py)
        tuple(sorted({*port_ecn, *(g.ai_ecn if pfc else ())})),
        _strict(ctx, item, scope),
        item.get("pfc_mode") in spec.pfc_negotiated_modes and not item.get("dcbx"),
    )
    return qos, port_ecn


def _qos(ctx: Context, raw: Raw, g: _Globals, found: _Ports) -> Qos:
    """The device-wide QoS: maps, no-drop priorities, watchdog, ECN, strict queues, pool."""
    dscp_map, queue_map = _maps(ctx, raw)
    pools = as_list(raw.get("pool"))
    unit = ctx.profile.headroom_unit_bytes  # as the per-port headroom when no unit is printed
    pool = _size(ctx, pools[0]["value"], pools[0].get("unit"), unit, "@pool") if pools else None
    ports = found.ports
    applied, caps = policies.read(ctx, raw)
    return Qos(
        dscp_map=dscp_map,
        queue_map=queue_map,
        # the priorities the PFC ports pause (each its profile's), else the default profile's
        no_drop=_union(p.qos.no_drop for p in ports if p.qos.pfc) or g.no_drop,
        watchdog=g.watchdog,
        ecn=_ecn(found.ecn, g.ai_ecn),
        strict_queues=_union(p.qos.strict_queues for p in ports),
        headroom_pool_bytes=pool,
        policies=applied,
        buffer_caps=caps,
    )
