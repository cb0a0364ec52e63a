"""The checks of the wiring: links up at their speed, and each cable where the plan puts it
(a swap of two cables one finding, not four wrong neighbours)."""

from __future__ import annotations

from roce_cfg.verify.data import port_key, speed_gbps
from roce_cfg.verify.observed import Observed, by_port, ends_of


# -- links ------------------------------------------------------------------------------------
def _port_state(obs: Observed, host: str, port: str) -> tuple[str, float | None] | None:
    """('up'|'down'|'absent', speed in Gb/s) as the switch reports it; None: not read."""
    if not obs.has(host, "interfaces"):
        return None
    entry = obs.entries[host]["interfaces"]
    found = by_port(obs.records(host, "interfaces")).get(port_key(port))
    if found is None:
        return ("absent", None)
    up = found["state"].strip().lower().startswith(entry.lab.up.lower())
    return ("up" if up else "down", speed_gbps(found["speed"], entry.speed_unit))


def check_links(obs: Observed) -> None:
    for n, k in enumerate(obs.plan.links):
        states = [(end, _port_state(obs, *end)) for end in ends_of(k)]
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
        a, b = ((d, port_key(p)) for d, p in ends_of(k))
        planned[a], planned[b] = b, a
        link_of[a] = link_of[b] = n
    names = {(d, port_key(p)): p for k in obs.plan.links for d, p in ends_of(k)}
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
