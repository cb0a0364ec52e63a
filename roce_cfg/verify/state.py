"""The checks of what runs over the wiring: the underlay (BGP sessions, rail routes), the
lossless state of each port, and the counters over a window."""

from __future__ import annotations

from collections.abc import Iterable

from roce_cfg.model.device import DeviceConfig, Interface
from roce_cfg.verify.data import asplain, counter, port_key
from roce_cfg.verify.observed import Observed, ends_of, far_end


# -- underlay ---------------------------------------------------------------------------------
def check_underlay(obs: Observed) -> None:
    asn = {s.hostname: s.asn for s in obs.plan.switches}
    for n, k in enumerate(obs.plan.links):
        if n in obs.down:
            continue
        for (dev, port), (far, _) in (ends_of(k), ends_of(k)[::-1]):
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
            if asn.get(far) is not None and asplain(found["remote_as"]) != str(asn[far]):
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
    if name in entry.unverifiable:
        return  # not printed: its 'cannot verify' finding says so
    good = getattr(entry.lab, word).lower()
    if record is None:
        obs.add(rule, host, f"{message} (port not in '{entry.command}')", port=port)
    elif entry.fields[name] is not None and record[name].lower() != good:  # null: listed is on
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


_COUNTERS = {
    "pfc": ("rx_pause", "tx_pause", "triggers"),
    "queue": ("ecn_marked", "dropped"),
    "watchdog": ("triggers",),
}


def _printed(obs: Observed, host: str, check: str) -> tuple[str, ...]:
    """The counters of ``check`` the switch's format prints: one it does not (null, or
    unverifiable) is never read as a count of nothing."""
    entry = obs.entries.get(host, {}).get(check)
    if entry is None:
        return ()
    return tuple(c for c in _COUNTERS[check] if entry.fields.get(c) is not None)


def check_counters(obs: Observed) -> None:
    if obs.window_s <= 0:
        return
    for device in obs.plan.devices:
        host = device.hostname
        if host not in obs.second:
            continue
        pfc = _deltas(obs, host, "pfc", ("port", "priority"), _printed(obs, host, "pfc"))
        queue = _deltas(obs, host, "queue", ("port", "queue"), _printed(obs, host, "queue"))
        # the watchdog's triggers from its own command, else from the PFC table that counts
        # the deadlocks it broke (VRP's DeadlockNum)
        fired = "pfc" if "triggers" in _printed(obs, host, "pfc") else "watchdog"
        dogs = _deltas(obs, host, fired, ("port", "priority"), _printed(obs, host, fired))
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
    far = far_end(obs.plan, host, port)
    related = {"related_device": far[0], "related_port": far[1]} if far else {}
    fired = dog.get("triggers", 0) if dog else 0
    if pfc and pfc.get("rx_pause", 0) / w >= obs.options.storm_pps:
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
    paused = (pfc.get("rx_pause", 0) + pfc.get("tx_pause", 0)) if pfc else 0
    if queue is not None and "ecn_marked" in queue and paused and not queue["ecn_marked"]:
        obs.add(
            "RV142",
            host,
            f"{paused} pauses on priority {prio} and no ECN mark on queue {q} in {w:.1f} s",
            port=port,
        )
    if queue is not None and queue.get("dropped"):
        obs.add(
            "RV143",
            host,
            f"lossless queue {q} dropped {queue['dropped']} packets in {w:.1f} s",
            port=port,
        )
