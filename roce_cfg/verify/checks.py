"""The checks: what the switches report (neutral records, verify/data.py) against the plan.

Each fault is reported once, where it is: a down link is one finding, not also a missing LLDP
neighbour and a BGP session down on both ends; a swap of two cables is one finding, not four
wrong neighbours. Checks run in order (links, cabling, underlay, lossless state, counters) and
later ones skip what an earlier one explained."""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable
from dataclasses import dataclass, field

from roce_cfg.analysis.findings import Finding
from roce_cfg.errors import InputError
from roce_cfg.model.device import DeviceConfig, Interface
from roce_cfg.model.fabric import Fabric, Link
from roce_cfg.verify.data import Display, counter, port_key, speed_gbps
from roce_cfg.verify.rules import RULES

Records = list[dict[str, str]]


# A 1.6 Tb/s port receives at most about 2.4 billion minimum-size frames a second: a storm
# threshold past this can never be met (and 'inf' would silence the check).
MAX_STORM_PPS = 1e10


@dataclass
class Options:
    storm_pps: float = 1000.0  # pauses received per second that count as a storm

    def __post_init__(self) -> None:
        if not (math.isfinite(self.storm_pps) and 1 <= self.storm_pps <= MAX_STORM_PPS):
            raise InputError(
                f"--storm-pps: {self.storm_pps!r} is not a rate of 1 to "
                f"{MAX_STORM_PPS:,.0f} pauses a second"
            )


@dataclass
class Observed:
    """Per host and check: the records read (first read), the second read of a window."""

    plan: Fabric
    first: dict[str, dict[str, Records]]
    entries: dict[str, dict[str, Display]]  # host -> check -> its display data
    second: dict[str, dict[str, Records]] = field(default_factory=dict)
    window_s: float = 0.0  # the window asked for; each switch's own span is in ``spans``
    spans: dict[str, float] = field(default_factory=dict)
    options: Options = field(default_factory=Options)
    findings: list[Finding] = field(default_factory=list)
    down: set[int] = field(default_factory=set)  # indexes of links found down
    sessions_down: set[int] = field(default_factory=set)
    down_ports: set[tuple[str, str]] = field(default_factory=set)

    def has(self, host: str, check: str) -> bool:
        return check in self.first.get(host, {})

    def records(self, host: str, check: str) -> Records:
        return self.first.get(host, {}).get(check, [])

    def add(self, rule: str, device: str, message: str, **kw: object) -> None:
        self.findings.append(
            Finding(rule=rule, severity=RULES[rule].severity, device=device, message=message, **kw)
        )


def _ends(k: Link) -> tuple[tuple[str, str], tuple[str, str]]:
    return (k.a_device, k.a_port), (k.b_device, k.b_port)


def _by_port(records: Records) -> dict[str, dict[str, str]]:
    return {port_key(r["port"]): r for r in records if r.get("port")}


# -- links ------------------------------------------------------------------------------------
def _port_state(obs: Observed, host: str, port: str) -> tuple[str, float | None] | None:
    """('up'|'down'|'absent', speed in Gb/s) as the switch reports it; None: not read."""
    if not obs.has(host, "interfaces"):
        return None
    entry = obs.entries[host]["interfaces"]
    found = _by_port(obs.records(host, "interfaces")).get(port_key(port))
    if found is None:
        return ("absent", None)
    up = found["state"].strip().lower().startswith(entry.lab.up.lower())
    return ("up" if up else "down", speed_gbps(found["speed"], entry.speed_unit))


def check_links(obs: Observed) -> None:
    for n, k in enumerate(obs.plan.links):
        states = [(end, _port_state(obs, *end)) for end in _ends(k)]
        _judge_link(obs, n, states, k.speed_gbps)
    for nic in obs.plan.nics:
        state = _port_state(obs, nic.switch, nic.port)
        if state is not None:
            _judge_port(
                obs, (nic.switch, nic.port), state, nic.speed_gbps, f"{nic.server} nic{nic.nic}"
            )


def _judge_link(
    obs: Observed,
    n: int,
    states: list[tuple[tuple[str, str], tuple[str, float | None] | None]],
    planned: int,
) -> None:
    seen = [(end, s) for end, s in states if s is not None]
    if not seen:
        return
    (a, _), (b, _) = states
    bad = next(((end, s) for end, s in seen if s[0] != "up"), None)
    if bad is not None:
        end, s = bad
        far = b if end == a else a
        obs.down.add(n)
        obs.down_ports.update({a, b})
        obs.add(
            "RV111",
            end[0],
            f"link {s[0]} (planned to {far[0]} {far[1]})",
            port=end[1],
            related_device=far[0],
            related_port=far[1],
        )
        return
    slow = next(((end, s) for end, s in seen if s[1] is not None and s[1] != planned), None)
    if slow is not None:
        end, s = slow
        far = b if end == a else a
        obs.add(
            "RV112",
            end[0],
            f"runs at {s[1]:g}G, planned {planned}G",
            port=end[1],
            related_device=far[0],
            related_port=far[1],
        )


def _judge_port(
    obs: Observed, end: tuple[str, str], state: tuple[str, float | None], planned: int, far: str
) -> None:
    if state[0] != "up":
        obs.down_ports.add(end)
        obs.add(
            "RV111",
            end[0],
            f"link {state[0]} (server port to {far})",
            port=end[1],
            related_device=far,
        )
    elif state[1] is not None and state[1] != planned:
        obs.add(
            "RV112",
            end[0],
            f"runs at {state[1]:g}G, planned {planned}G (to {far})",
            port=end[1],
            related_device=far,
        )


# -- cabling ----------------------------------------------------------------------------------
Where = tuple[str, str]  # (device, port key)


def check_cabling(obs: Observed) -> None:
    planned: dict[Where, Where] = {}
    link_of: dict[Where, int] = {}
    for n, k in enumerate(obs.plan.links):
        a, b = ((d, port_key(p)) for d, p in _ends(k))
        planned[a], planned[b] = b, a
        link_of[a] = link_of[b] = n
    names = {(d, port_key(p)): p for k in obs.plan.links for d, p in _ends(k)}
    seen = _neighbours(obs)
    wrong = {
        end: seen[end[0]].get(end[1])
        for end in planned
        if end[0] in seen
        and link_of[end] not in obs.down
        and seen[end[0]].get(end[1]) != planned[end]
    }
    explained = _swaps(obs, planned, wrong, link_of, names)
    for end, got in sorted(wrong.items(), key=lambda x: (x[0], str(x[1]))):
        if end in explained:
            continue
        want = planned[end]
        if got is None:
            obs.add(
                "RV101",
                end[0],
                f"no LLDP neighbour (planned {want[0]} {names[want]})",
                port=names[end],
                related_device=want[0],
                related_port=names[want],
            )
        else:
            obs.add(
                "RV103",
                end[0],
                f"cabled to {got[0]} {names.get(got, got[1])}, planned {want[0]} {names[want]}",
                port=names[end],
                related_device=got[0],
                related_port=names.get(got, got[1]),
            )
    _extras(obs, planned, seen)


def _neighbours(obs: Observed) -> dict[str, dict[str, Where]]:
    """host -> port key -> (neighbour, its port key), for hosts whose LLDP was read."""
    return {
        host: {
            port_key(r["port"]): (r["neighbor"], port_key(r["neighbor_port"]))
            for r in checks["lldp"]
            if r.get("neighbor")
        }
        for host, checks in obs.first.items()
        if "lldp" in checks
    }


def _swaps(
    obs: Observed,
    planned: dict[Where, Where],
    wrong: dict[Where, Where | None],
    link_of: dict[Where, int],
    names: dict[Where, str],
) -> set[Where]:
    """Two ports of one switch that each see the other's planned neighbour: one finding per
    pair of cables (seen from either end); the far ends' wrong neighbours are explained by it."""
    explained: set[Where] = set()
    reported: set[frozenset[int]] = set()
    for p, got in sorted(wrong.items(), key=lambda x: x[0]):
        q = (
            next((e for e, w in planned.items() if w == got and e[0] == p[0]), None)
            if got
            else None
        )
        if q is None or wrong.get(q) != planned[p]:
            continue
        pair = frozenset({link_of[p], link_of[q]})
        explained.update({p, q, planned[p], planned[q]})
        if pair in reported:
            continue
        reported.add(pair)
        obs.add(
            "RV102",
            p[0],
            f"cables of {names[p]} and {names[q]} are swapped (each sees the "
            f"other's planned neighbour)",
            port=names[p],
            related_device=p[0],
            related_port=names[q],
        )
    return explained


def _extras(obs: Observed, planned: dict[Where, Where], seen: dict[str, dict[str, Where]]) -> None:
    switches = {s.hostname for s in obs.plan.switches}
    for host, ports in sorted(seen.items()):
        printed = {port_key(r["port"]): r for r in obs.records(host, "lldp")}
        for key, (far, _) in sorted(ports.items()):
            if (host, key) not in planned and far in switches:
                port, far_port = printed[key]["port"], printed[key]["neighbor_port"]
                obs.add(
                    "RV104",
                    host,
                    f"unplanned link to {far} {far_port}",
                    port=port,
                    related_device=far,
                    related_port=far_port,
                )


# -- underlay ---------------------------------------------------------------------------------
def check_underlay(obs: Observed) -> None:
    asn = {s.hostname: s.asn for s in obs.plan.switches}
    for n, k in enumerate(obs.plan.links):
        if n in obs.down:
            continue
        for (dev, port), (far, _) in (_ends(k), _ends(k)[::-1]):
            if not obs.has(dev, "bgp"):
                continue
            peer = str(k.seen_from(dev)[3].ip)
            entry = obs.entries[dev]["bgp"]
            found = next((r for r in obs.records(dev, "bgp") if r["peer"] == peer), None)
            if found is None or found["state"].lower() != entry.lab.established.lower():
                obs.sessions_down.add(n)
                state = found["state"] if found else "not configured"
                obs.add(
                    "RV121",
                    dev,
                    f"BGP session to {far} ({peer}) is {state}",
                    port=port,
                    related_device=far,
                )
                break
            if asn.get(far) is not None and found["remote_as"] != str(asn[far]):
                obs.add(
                    "RV122",
                    dev,
                    f"peer {peer} ({far}) is AS {found['remote_as']}, planned {asn[far]}",
                    port=port,
                    related_device=far,
                )
                break
    _rail_routes(obs)


def _rail_routes(obs: Observed) -> None:
    spines = {s.hostname for s in obs.plan.switches if s.role == "spine"}
    between: dict[frozenset[str], list[int]] = {}
    for n, k in enumerate(obs.plan.links):
        between.setdefault(frozenset({k.a_device, k.b_device}), []).append(n)
    tables = {
        spine: {(r["network"], r["length"]) for r in obs.records(spine, "routes")}
        for spine in spines
        if obs.has(spine, "routes")
    }
    for rail in obs.plan.rails:
        for spine, have in sorted(tables.items()):
            links = between.get(frozenset({spine, rail.switch}), [])
            if not links or all(n in obs.down or n in obs.sessions_down for n in links):
                continue  # not adjacent, or explained: every session between them is reported
            if (str(rail.subnet.network_address), str(rail.subnet.prefixlen)) not in have:
                obs.add(
                    "RV123",
                    spine,
                    f"rail {rail.rail} subnet {rail.subnet} of {rail.switch} "
                    "not in the routing table",
                    related_device=rail.switch,
                )


# -- lossless state ---------------------------------------------------------------------------
def lossless_ports(device: DeviceConfig) -> Iterable[tuple[Interface, int, int]]:
    """(port, priority, queue) for each planned PFC priority of each lossless port."""
    queue_of = {m.priority: m.queue for m in device.qos.queue_map}
    for i in device.interfaces:
        if i.qos.pfc and not i.shutdown:
            for p in i.qos.no_drop or device.qos.no_drop:
                yield i, p, queue_of.get(p, p)


def check_lossless(obs: Observed) -> None:
    for device in obs.plan.devices:
        host = device.hostname
        if host not in obs.first:
            continue
        pfc = {(port_key(r["port"]), r["priority"]): r for r in obs.records(host, "pfc")}
        queues = {(port_key(r["port"]), r["queue"]): r for r in obs.records(host, "queue")}
        dogs = {(port_key(r["port"]), r["priority"]): r for r in obs.records(host, "watchdog")}
        ecn = {e.queue for e in device.qos.ecn}
        for iface, prio, queue in lossless_ports(device):
            if (host, iface.name) in obs.down_ports:
                continue
            key = port_key(iface.name)
            _state(
                obs,
                host,
                iface.name,
                "pfc",
                pfc.get((key, str(prio))),
                "oper",
                "enabled",
                f"PFC not operational on priority {prio}",
                "RV131",
            )
            if queue in (set(iface.qos.ecn_queues) or ecn):
                _state(
                    obs,
                    host,
                    iface.name,
                    "queue",
                    queues.get((key, str(queue))),
                    "ecn",
                    "enabled",
                    f"ECN not active on lossless queue {queue}",
                    "RV132",
                )
            if device.qos.watchdog is not None and iface.qos.watchdog:
                _state(
                    obs,
                    host,
                    iface.name,
                    "watchdog",
                    dogs.get((key, str(prio))),
                    "armed",
                    "enabled",
                    f"PFC watchdog not armed on priority {prio}",
                    "RV133",
                )


def _state(
    obs: Observed,
    host: str,
    port: str,
    check: str,
    record: dict[str, str] | None,
    name: str,
    word: str,
    message: str,
    rule: str,
) -> None:
    if not obs.has(host, check):
        return  # not read: its 'cannot verify' finding says so
    entry = obs.entries[host][check]
    good = getattr(entry.lab, word).lower()
    if record is None:
        obs.add(rule, host, f"{message} (port not in '{entry.command}')", port=port)
    elif record[name].lower() != good:
        obs.add(rule, host, f"{message} ({record[name]})", port=port)


# -- counters over a window -------------------------------------------------------------------
def _deltas(
    obs: Observed, host: str, check: str, keys: tuple[str, ...], values: tuple[str, ...]
) -> dict[tuple[str, ...], dict[str, int]]:
    """Per record key, how much each counter rose between the two reads (resets left out)."""
    before = {
        tuple(port_key(r[k]) if k == "port" else r[k] for k in keys): r
        for r in obs.first.get(host, {}).get(check, [])
    }
    out: dict[tuple[str, ...], dict[str, int]] = {}
    for r in obs.second.get(host, {}).get(check, []):
        key = tuple(port_key(r[k]) if k == "port" else r[k] for k in keys)
        old = before.get(key)
        if old is None:
            continue
        rise = {v: (counter(r[v]) or 0) - (counter(old[v]) or 0) for v in values}
        if all(x >= 0 for x in rise.values()):
            out[key] = rise
    return out


def check_counters(obs: Observed) -> None:
    if obs.window_s <= 0:
        return
    for device in obs.plan.devices:
        host = device.hostname
        if host not in obs.second:
            continue
        pfc = _deltas(obs, host, "pfc", ("port", "priority"), ("rx_pause", "tx_pause"))
        queue = _deltas(obs, host, "queue", ("port", "queue"), ("ecn_marked", "dropped"))
        dogs = _deltas(obs, host, "watchdog", ("port", "priority"), ("triggers",))
        for iface, prio, q in lossless_ports(device):
            if (host, iface.name) in obs.down_ports:
                continue
            k = port_key(iface.name)
            _port_counters(
                obs,
                host,
                iface.name,
                prio,
                q,
                pfc.get((k, str(prio))),
                queue.get((k, str(q))),
                dogs.get((k, str(prio))),
            )


def _port_counters(
    obs: Observed,
    host: str,
    port: str,
    prio: int,
    q: int,
    pfc: dict[str, int] | None,
    queue: dict[str, int] | None,
    dog: dict[str, int] | None,
) -> None:
    w = obs.spans.get(host) or obs.window_s
    far = _far_end(obs.plan, host, port)
    related = {"related_device": far[0], "related_port": far[1]} if far else {}
    fired = dog["triggers"] if dog else 0
    if pfc and pfc["rx_pause"] / w >= obs.options.storm_pps:
        detail = [
            f"received {pfc['rx_pause']} pause frames in {w:.1f} s ({pfc['rx_pause'] / w:.0f}/s)"
        ]
        if fired:
            detail.append(f"watchdog triggered {fired} times")
        obs.add(
            "RV141",
            host,
            f"PFC storm on priority {prio}: {pfc['rx_pause']} pauses received "
            f"in {w:.1f} s" + (f", watchdog fired {fired} times" if fired else ""),
            port=port,
            detail=tuple(detail),
            **related,
        )
    elif fired:
        obs.add(
            "RV144",
            host,
            f"PFC watchdog fired {fired} times on priority {prio} in {w:.1f} s",
            port=port,
            **related,
        )
    paused = (pfc["rx_pause"] + pfc["tx_pause"]) if pfc else 0
    if queue is not None and paused and not queue["ecn_marked"]:
        obs.add(
            "RV142",
            host,
            f"{paused} pauses on priority {prio} and no ECN mark on queue {q} in {w:.1f} s",
            port=port,
        )
    if queue is not None and queue["dropped"]:
        obs.add(
            "RV143",
            host,
            f"lossless queue {q} dropped {queue['dropped']} packets in {w:.1f} s",
            port=port,
        )


@functools.cache
def _far_ends(plan: Fabric) -> dict[tuple[str, str], tuple[str, str]]:
    ends = {(k.a_device, k.a_port): (k.b_device, k.b_port) for k in plan.links}
    return ends | {far: near for near, far in ends.items()}


def _far_end(plan: Fabric, host: str, port: str) -> tuple[str, str] | None:
    return _far_ends(plan).get((host, port))


CHECKS = (check_links, check_cabling, check_underlay, check_lossless, check_counters)


def run_checks(obs: Observed) -> list[Finding]:
    for check in CHECKS:
        check(obs)
    return obs.findings
