"""What the emulated switches print for the display commands 'roce-cfg verify' runs: LLDP from the
lab's cabling (the plan's links), interfaces, BGP and routes from each switch's running config,
PFC, queue and watchdog counters that move with time, and faults per switch and port. The text
is each vendor's display data rendered (vendors/<vendor>.display.yaml ``lab``), so verify's
parser reads the emulator exactly as it reads a switch."""

from __future__ import annotations

import functools
import hashlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from ipaddress import IPv4Address, IPv6Address
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from roce_cfg.model.device import DeviceConfig, Interface
from roce_cfg.model.fabric import Fabric, Link
from roce_cfg.parse import parse_text
from roce_cfg.verify.data import Display, Layout, load_display, read_only

if TYPE_CHECKING:
    from roce_cfg.deploy.tree import Tree
    from roce_cfg.platforms.profile import VendorProfile


class Switch(Protocol):
    """A switch as its display commands see it (lab/cli.py's Switch): its name, its running
    config, and the lab's live state it shows (``display``, the World set up by ``attach``)."""

    hostname: str
    running: Tree
    display: object

    @property
    def profile(self) -> VendorProfile: ...


# Counter rates per second of a healthy port under load, and of the faults that change them.
PAUSE_PPS = 10  # PFC pauses sent and received per lossless priority
MARK_PPS = 100  # ECN-marked packets on the lossless queue
PASS_PPS = 100_000
STORM_PPS = 50_000  # pauses received from a storming neighbour
DROP_PPS = 100  # drops on a lossless queue
TRIGGER_PS = 5  # watchdog triggers during a storm
QUEUES = 8  # the queues of a port
PACKET_BYTES = 1000


@dataclass
class DisplayFaults:
    """Live faults of one switch, by port name (what 'display' shows; config is untouched)."""

    swapped: tuple[str, str] | None = None  # the cables of two ports exchanged
    down: set[str] = field(default_factory=set)  # link down (both ends see it)
    speed: dict[str, int] = field(default_factory=dict)  # trained at this Gb/s (both ends)
    bgp_down: set[str] = field(default_factory=set)  # the session over this port is down
    pfc_off: set[str] = field(default_factory=set)  # PFC operationally off (DCBX)
    storm: set[str] = field(default_factory=set)  # pauses received rising, watchdog firing
    ecn_off: set[str] = field(default_factory=set)  # the lossless queue does not mark
    drops: set[str] = field(default_factory=set)  # the lossless queue drops
    unarmed: set[str] = field(default_factory=set)  # the PFC watchdog does not guard the port


@dataclass
class World:
    """The lab as its switches see it: the plan's cabling, every switch, the faults."""

    fabric: Fabric
    switches: dict[str, Switch]
    faults: dict[str, DisplayFaults] = field(default_factory=dict)
    started: float = field(default_factory=time.monotonic)
    overlay: Path | None = None

    def fault(self, host: str) -> DisplayFaults:
        return self.faults.setdefault(host, DisplayFaults())

    def seconds(self) -> float:
        return time.monotonic() - self.started

    @functools.cached_property
    def cabling(self) -> dict[tuple[str, str], tuple[str, str]]:
        """(device, port) -> (far device, far port), both directions, as planned."""
        ends: dict[tuple[str, str], tuple[str, str]] = {}
        for k in self.fabric.links:
            ends[(k.a_device, k.a_port)] = (k.b_device, k.b_port)
            ends[(k.b_device, k.b_port)] = (k.a_device, k.a_port)
        return ends

    @functools.cached_property
    def links_at(self) -> dict[str, list[tuple[str, Link]]]:
        """device -> (its port, the link) for every planned link end."""
        out: dict[str, list[tuple[str, Link]]] = {}
        for k in self.fabric.links:
            out.setdefault(k.a_device, []).append((k.a_port, k))
            out.setdefault(k.b_device, []).append((k.b_port, k))
        return out

    @functools.cached_property
    def planned_speed(self) -> dict[tuple[str, str], int]:
        speeds = {(n.switch, n.port): n.speed_gbps for n in self.fabric.nics}
        for k in self.fabric.links:
            speeds[(k.a_device, k.a_port)] = speeds[(k.b_device, k.b_port)] = k.speed_gbps
        return speeds

    def wired(self, host: str, port: str) -> tuple[str, str] | None:
        """Where the cable in ``port`` really goes (a swap on either end moves it)."""
        swap = self.fault(host).swapped
        if swap is not None and port in swap:
            other = swap[1] if port == swap[0] else swap[0]
            return self.cabling.get((host, other))
        far = self.cabling.get((host, port))
        if far is None:
            return None
        far_swap = self.fault(far[0]).swapped
        if far_swap is not None and far[1] in far_swap:
            # the far switch's cables are exchanged: our cable lands in its other port
            other = far_swap[1] if far[1] == far_swap[0] else far_swap[0]
            return (far[0], other)
        return far

    def _either(self, host: str, port: str, kind: str) -> bool:
        """A link fault injected on either end of the link."""
        if port in getattr(self.fault(host), kind):
            return True
        far = self.wired(host, port)
        return far is not None and far[1] in getattr(self.fault(far[0]), kind)

    def is_down(self, host: str, port: str) -> bool:
        return self._either(host, port, "down")

    def speed(self, host: str, port: str) -> int:
        for h, p in ((host, port), self.wired(host, port) or ("", "")):
            trained = self.fault(h).speed.get(p) if h else None
            if trained is not None:
                return trained
        return self.planned_speed.get((host, port), 0)

    # The running config each switch started from when that is the plan's own ('--start
    # intended'): while it is unchanged the plan's model of it is used, not a parse per switch
    # (a spine's routes need every peer's config: parsing 40 of them delayed its answer > 10 s).
    initial: dict[str, str] = field(default_factory=dict)

    @functools.cached_property
    def planned(self) -> dict[str, DeviceConfig]:
        return {d.hostname: d for d in self.fabric.devices}

    def device(self, host: str) -> DeviceConfig:
        sw = self.switches[host]
        text = sw.running.render()
        if self.initial.get(host) == text and host in self.planned:
            return self.planned[host]
        return _running(text, sw.profile.vendor.value, self.overlay)


@functools.lru_cache(maxsize=4096)
def _running(text: str, vendor: str, overlay: Path | None) -> DeviceConfig:
    """The switch's running config in the neutral model (cached by its text)."""
    from roce_cfg.vendor import Vendor

    return parse_text(text, vendor=Vendor(vendor), overlay=overlay).config.device


def attach(
    switches: Sequence[Switch], fabric: Fabric, overlay: Path | None = None, intended: bool = False
) -> World:
    """Give each emulator the lab's world, so it answers verify's display commands;
    ``intended``: the switches start from the plan's configs."""
    world = World(fabric, {sw.hostname: sw for sw in switches}, overlay=overlay)
    if intended:
        world.initial = {sw.hostname: sw.running.render() for sw in switches}
    for sw in switches:
        sw.display = world
    return world


def answer(sw: Switch, text: str) -> str | None:
    """The switch's output for a display command verify runs; None for any other line."""
    world = sw.display
    if not isinstance(world, World) or not read_only(text):
        return None
    data = load_display(sw.profile.vendor, world.overlay)
    for check, entry in data.checks.items():
        if " ".join(text.split()) == entry.command:
            items = _listed(entry, RENDER[check](world, sw.hostname, entry))
            return _format(entry, items, world, sw.hostname).replace("\n", "\r\n").rstrip()
    return None


def _listed(entry: Display, items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The items the command lists: where its format prints no state (a null field), the
    switch lists only the items where that state is on."""
    hidden = [k for k, v in entry.fields.items() if v is None]
    return [i for i in items if all(i.get(k) != entry.lab.disabled for k in hidden)]


def _format(entry: Display, items: list[dict[str, Any]], world: World, host: str) -> str:
    """The lab's text: the layout's head, a row per item (an item with nothing to list and the
    next item of a key in their own forms), long values and lines wrapped as the layout says.
    Where a command has two real layouts, switches alternate between them by name."""
    lab = entry.lab
    layout: Layout = lab
    if lab.alt is not None and int(hashlib.sha256(host.encode()).hexdigest(), 16) % 2:
        layout = lab.alt
    device = world.device(host)
    facts = {
        "count": len(items),
        "keys": len({i.get("key", n) for n, i in enumerate(items)}),
        "established": sum(i.get("state") == lab.established for i in items),
        "asn": device.bgp.asn if device.bgp else 0,
        "router_id": device.bgp.router_id if device.bgp else "0.0.0.0",
    }
    lines = [h.format(**facts) for h in layout.head]
    last = None
    for item in items:
        if item.get("empty"):
            lines.append(lab.empty.format(**item))
        elif lab.again and item.get("key") is not None and item.get("key") == last:
            lines.append(lab.again.format(**item))
        else:
            lines.extend(_row(layout, item))
        last = item.get("key")
    lines += layout.tail
    text = "\n".join(lines) + "\n"
    return "\n".join(_cut(line, layout.width) for line in text.split("\n"))


def _row(layout: Layout, item: dict[str, Any]) -> list[str]:
    """One item's row; a value longer than its column goes on in lines of its own."""
    item, rest = dict(item), []
    for name, width in layout.wrap.items():
        value = str(item.get(name, ""))
        item[name] = value[:width]
        rest += [value[i : i + width] for i in range(width, len(value), width)]
    return [layout.row.format(**item), *rest]


def _cut(line: str, width: int) -> str:
    """A line wider than the terminal, cut into lines of ``width`` (0: as it is)."""
    if not width or len(line) <= width:
        return line
    return "\n".join(line[i : i + width] for i in range(0, len(line), width))


def _chassis(host: str) -> str:
    digest = hashlib.sha256(host.encode()).hexdigest()
    return f"{digest[0:4]}-{digest[4:8]}-{digest[8:12]}"


def _mac(host: str, port: str) -> str:
    digest = hashlib.sha256(f"{host} {port}".encode()).hexdigest()
    return f"{digest[0:4]}-{digest[4:8]}-{digest[8:12]}"


def _ports(world: World, host: str) -> list[str]:
    return sorted(p for h, p in world.planned_speed if h == host)


def _lldp(world: World, host: str, entry: Display) -> list[dict[str, Any]]:
    """A neighbour per cabled port whose far switch is in the lab; a port without one only
    where the format lists it ('has 0 neighbor(s)')."""
    cabled = {p for p, _ in world.links_at.get(host, [])}
    rows: list[dict[str, Any]] = []
    for port in _ports(world, host):
        far = world.wired(host, port) if port in cabled else None
        if far is None or world.is_down(host, port) or far[0] not in world.switches:
            if entry.lab.empty:
                rows.append({"port": port, "empty": True})
            continue
        rows.append(
            {"port": port, "chassis": _chassis(far[0]), "neighbor": far[0], "neighbor_port": far[1]}
        )
    return rows


def _interfaces(world: World, host: str, entry: Display) -> list[dict[str, Any]]:
    """Every planned port (the hardware is there, configured or not); 'shutdown' takes it down
    (administratively, where the format says so), a link fault takes it down."""
    lab = entry.lab
    shut = {i.name for i in world.device(host).interfaces if i.shutdown}
    rows = []
    for port in _ports(world, host):
        down = port in shut or world.is_down(host, port)
        speed = world.speed(host, port)
        state = (lab.shut or lab.down) if port in shut else lab.down if down else lab.up
        rate = {"speed": speed, "speed_mbps": speed * 1000}
        rows.append(
            {
                "port": port,
                "state": state,
                "admin": lab.down if port in shut else lab.up,  # where a column of its own
                "protocol": lab.down if down else lab.up,
                "speed_text": (lab.speed_down if down else lab.speed_up).format(**rate),
                "kbps": speed * 1_000_000,
                "mac": _mac(host, port),
                **rate,
            }
        )
    return rows


def _sessions(world: World, host: str) -> list[tuple[str, int, bool, str | None, str]]:
    """(peer address, configured AS, established, far device, our port) per configured
    neighbour."""
    device = world.device(host)
    by_ip: dict[IPv4Address | IPv6Address, tuple[str, str]] = {
        k.seen_from(host)[3].ip: (port, k.seen_from(host)[1])
        for port, k in world.links_at.get(host, [])
    }
    out = []
    for n in device.bgp.neighbors if device.bgp else ():
        port, far = by_ip.get(n.address, ("", ""))
        up = bool(port) and far in world.switches and _peers_back(world, host, far, device)
        up = up and not world.is_down(host, port) and not world._either(host, port, "bgp_down")
        out.append((str(n.address), n.remote_as, up, far or None, port))
    return out


def _peers_back(world: World, host: str, far: str, device: DeviceConfig) -> bool:
    """The far switch's running config has a session to us (our AS, one of our addresses)."""
    far_bgp = world.device(far).bgp
    if far_bgp is None or device.bgp is None:
        return False
    ours = {i.ipv4.ip for i in device.interfaces if i.ipv4 is not None}
    return any(n.address in ours and n.remote_as == device.bgp.asn for n in far_bgp.neighbors)


def _bgp(world: World, host: str, entry: Display) -> list[dict[str, Any]]:
    rows = []
    for peer, remote_as, up, far, _ in _sessions(world, host):
        networks = world.device(far).bgp if up and far else None
        rows.append(
            {
                "peer": peer,
                "remote_as": remote_as,
                "state": entry.lab.established if up else entry.lab.down,
                "prefixes": len(networks.networks) if networks else 0,
                "rcvd": 10 if up else 0,
                "sent": 10 if up else 0,
                "outq": 0,
                "updown": "01:00:00",
            }
        )
    return rows


def _routes(world: World, host: str, entry: Display) -> list[dict[str, Any]]:
    """Each network a peer advertises, by destination: a network learnt from several peers
    is one destination with a next hop per peer (ECMP)."""
    rows = []
    for peer, _, up, far, port in _sessions(world, host):
        far_bgp = world.device(far).bgp if up and far else None
        for net in far_bgp.networks if far_bgp else ():
            prefix = f"{net.network_address}/{net.prefixlen}"
            rows.append(
                {
                    "network": net.network_address,
                    "length": net.prefixlen,
                    "prefix": prefix,
                    "key": prefix,
                    "next_hop": peer,
                    "via": port or "-",
                }
            )
    return sorted(rows, key=lambda r: (r["network"], r["length"], r["next_hop"]))


def _lossless(world: World, host: str) -> list[tuple[Interface, int, int]]:
    """(port, priority, queue) for every PFC priority of every lossless port."""
    device = world.device(host)
    queue_of = {m.priority: m.queue for m in device.qos.queue_map}
    return [
        (i, p, queue_of.get(p, p))
        for i in device.interfaces
        if i.qos.pfc and not i.shutdown
        for p in (i.qos.no_drop or device.qos.no_drop)
    ]


def _pfc(world: World, host: str, entry: Display) -> list[dict[str, Any]]:
    t, faults, rows = world.seconds(), world.fault(host), []
    for iface, prio, _ in _lossless(world, host):
        storm = STORM_PPS if iface.name in faults.storm else 0
        off = iface.name in faults.pfc_off
        rows.append(
            {
                "port": iface.name,
                "priority": prio,
                "priorities": ",".join(str(p) for p in iface.qos.no_drop) or str(prio),
                "oper": entry.lab.disabled if off else entry.lab.enabled,
                "rx_pause": int(t * (PAUSE_PPS + storm)),
                "tx_pause": int(t * PAUSE_PPS),
                "triggers": int(t * TRIGGER_PS) if iface.name in faults.storm else 0,
            }
        )
    return rows


def _queue(world: World, host: str, entry: Display) -> list[dict[str, Any]]:
    """Every queue of every lossless port, as switches list them: the lossless ones pass
    traffic, mark where ECN is on, and drop under the 'lossless-drops' fault."""
    t, faults, rows = world.seconds(), world.fault(host), []
    device = world.device(host)
    ecn_queues = {e.queue for e in device.qos.ecn}
    lossless: dict[str, tuple[Interface, set[int]]] = {}
    for iface, _, queue in _lossless(world, host):
        lossless.setdefault(iface.name, (iface, set()))[1].add(queue)
    for name, (iface, queues) in lossless.items():
        marking = set(iface.qos.ecn_queues) or ecn_queues
        for queue in range(QUEUES):
            on = queue in queues
            marks = MARK_PPS if on and queue in marking and name not in faults.ecn_off else 0
            drops = DROP_PPS if on and name in faults.drops else 0
            rows.append(
                {
                    "port": name,
                    "key": name,
                    "queue": queue,
                    "ecn": entry.lab.enabled if queue in marking else entry.lab.disabled,
                    "ecn_marked": int(t * marks),
                    "pir": world.speed(host, name) * 1_000_000,  # kb/s, the port's rate
                    **_rates("passed", "pass", t, PASS_PPS if on else 0),
                    **_rates("dropped", "drop", t, drops),
                }
            )
    return rows


def _rates(count: str, rate: str, t: float, pps: int) -> dict[str, int]:
    """A counter over ``t`` seconds at ``pps`` in packets and bytes, and its rates."""
    return {
        count: int(t * pps),
        f"{count}_bytes": int(t * pps) * PACKET_BYTES,
        f"{rate}_pps": pps,
        f"{rate}_bps": pps * PACKET_BYTES * 8,
    }


def _watchdog(world: World, host: str, entry: Display) -> list[dict[str, Any]]:
    t, faults, rows = world.seconds(), world.fault(host), []
    armed = world.device(host).qos.watchdog is not None
    for iface, prio, _ in _lossless(world, host):
        on = armed and iface.qos.watchdog and iface.name not in faults.unarmed
        rows.append(
            {
                "port": iface.name,
                "key": iface.name,
                "priority": prio,
                "armed": entry.lab.enabled if on else entry.lab.disabled,
                "triggers": int(t * TRIGGER_PS) if iface.name in faults.storm else 0,
            }
        )
    return rows


RENDER: dict[str, Callable[[World, str, Display], list[dict[str, Any]]]] = {
    "lldp": _lldp,
    "interfaces": _interfaces,
    "bgp": _bgp,
    "routes": _routes,
    "pfc": _pfc,
    "queue": _queue,
    "watchdog": _watchdog,
}
