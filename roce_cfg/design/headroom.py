"""PFC headroom: the bytes a receiver must still absorb after it sends PAUSE.

The terms follow shared/design.md and SONiC's buffer calculation: one MTU-sized frame the sender
has started, one the receiver is emitting when it decides to pause, the bytes in flight on the
cable for a round trip, the MAC/PHY pipelines of both ends (IEEE 802.3's interface delay bound
per speed), and the peer's response time (pause quanta of 512 bit times). In-flight bytes can
arrive as small packets that each waste most of a buffer cell, so they are scaled by the cell
occupancy of the vendor's traffic assumption, and the total is rounded up to the unit the switch
configures headroom in.
"""

from __future__ import annotations

import math
from functools import cache

from roce_cfg.model.fabric import HeadroomTerm

#: The peer's response time to a PAUSE, in pause quanta (512 bit times), per speed in Gb/s: IEEE
#: 802.3 31B.3.7's PAUSE reaction timing ([IEEE-PAUSE]). 800G has no figure read: the 400G one
#: is assumed (QUANTA_ASSUMED), and the headroom term says so.
PAUSE_QUANTA: dict[int, int] = {
    10: 67,
    25: 80,
    40: 118,
    50: 147,
    100: 394,
    200: 453,
    400: 905,
    800: 905,
}
QUANTA_ASSUMED: dict[int, int] = {800: 400}  # speed -> the sourced speed whose figure it takes
#: Speed of light in fibre, metres per second.
FIBRE_M_PER_S = 1.98e8

#: Upper bound of one interface's delay (MAC, PCS, FEC, PMA, PMD, transmit plus receive) in bit
#: times, per speed in Gb/s: the IEEE 802.3 figures as tabled for PFC headroom in "Detecting,
#: Troubleshooting, and Preventing Congestion in Storage Networks", chapter 7 ([CISCO-CONG]).
INTERFACE_DELAY_BITS: dict[int, int] = {10: 8192, 25: 6144, 40: 24576, 100: 122880}
#: Speeds with no public figure read take the 100G bound (its RS-FEC makes it the largest of the
#: sourced ones): an assumption, named as such in the headroom terms.
ASSUMED_DELAY_FROM = 100


def interface_delay_bytes(speed_gbps: int) -> tuple[int, str]:
    """Bytes one interface holds in its transmit and receive pipelines, and where the figure
    comes from.

    >>> interface_delay_bytes(100)
    (15360, 'IEEE 802.3 bound at 100G')
    >>> interface_delay_bytes(400)
    (15360, 'assumed: the 100G bound (no 400G figure read)')
    """
    if speed_gbps in INTERFACE_DELAY_BITS:
        return INTERFACE_DELAY_BITS[speed_gbps] // 8, f"IEEE 802.3 bound at {speed_gbps}G"
    bits = INTERFACE_DELAY_BITS[ASSUMED_DELAY_FROM]
    return bits // 8, f"assumed: the {ASSUMED_DELAY_FROM}G bound (no {speed_gbps}G figure read)"


def cable_round_trip_bytes(speed_gbps: int, cable_m: float) -> int:
    """Bytes a port sends during one round trip on the cable.

    >>> cable_round_trip_bytes(100, 99)
    12500
    >>> cable_round_trip_bytes(400, 100)
    50506
    """
    seconds = 2 * cable_m / FIBRE_M_PER_S
    return math.ceil(round(seconds * speed_gbps * 1e9 / 8, 6))


def cell_occupancy(cell_bytes: int, small_packet_percent: int, min_packet_bytes: int) -> float:
    """Buffer bytes used per wire byte for a traffic mix with this share of minimum-size packets.

    >>> cell_occupancy(254, 0, 64)
    1.0
    >>> round(cell_occupancy(254, 100, 64), 5)
    3.96875
    """
    cells_per_small = math.ceil(min_packet_bytes / cell_bytes)
    waste = cells_per_small * cell_bytes / min_packet_bytes
    share = small_packet_percent / 100
    return (1 - share) + share * waste


def round_up(value: int, unit: int) -> int:
    """
    >>> round_up(149795, 254)
    149860
    """
    return -(-value // unit) * unit


def _response_name(speed_gbps: int) -> str:
    """
    >>> _response_name(800)
    'peer response 905 pause quanta (assumed: the 400G figure, no 800G figure read)'
    """
    name = f"peer response {PAUSE_QUANTA[speed_gbps]} pause quanta"
    if speed_gbps in QUANTA_ASSUMED:
        name += (
            f" (assumed: the {QUANTA_ASSUMED[speed_gbps]}G figure, no {speed_gbps}G figure read)"
        )
    return name


@cache
def required_headroom(
    *,
    speed_gbps: int,
    cable_m: float,
    mtu_sender: int,
    mtu_receiver: int,
    cell_bytes: int | None,
    unit_bytes: int,
    mac_phy_delay_bytes: int | None,
    small_packet_percent: int,
    min_packet_bytes: int = 64,
) -> tuple[int, tuple[HeadroomTerm, ...]]:
    """Required headroom in bytes for one lossless priority of one port, with its terms.

    The MAC/PHY term is ``mac_phy_delay_bytes`` where a vendor profile measures it, else both
    ends' interface delay (the receiver's sending the PAUSE, the sender's still holding data).
    ``cell_bytes`` None (a model whose cell size no source gives): the least any cell size needs,
    no frame rounded up to cells and no small-packet overhead, so that less than it is short
    whatever the cell."""
    if speed_gbps not in PAUSE_QUANTA:
        raise ValueError(f"no pause-quanta figure for {speed_gbps}G")
    cell = cell_bytes or 1  # 1-byte 'cells' round nothing up and waste nothing
    cells = f"in {cell_bytes} B cells" if cell_bytes else "(cell size unknown: not rounded)"
    sender = round_up(mtu_sender, cell)
    receiver = round_up(mtu_receiver, cell)
    cable = cable_round_trip_bytes(speed_gbps, cable_m)
    response = PAUSE_QUANTA[speed_gbps] * 512 // 8
    if mac_phy_delay_bytes is None:
        one, why = interface_delay_bytes(speed_gbps)
        mac_phy, mac_phy_name = 2 * one, f"MAC/PHY delay, both ends ({why})"
    else:
        mac_phy, mac_phy_name = mac_phy_delay_bytes, "MAC/PHY delay (vendor profile)"
    in_flight = cable + mac_phy + response
    occupancy = cell_occupancy(cell, small_packet_percent, min_packet_bytes)
    waste = (
        f"{small_packet_percent}% of in-flight bytes" if cell_bytes else "cell size unknown: none"
    )
    overhead = math.ceil(round(in_flight * (occupancy - 1), 6))
    subtotal = sender + receiver + in_flight + overhead
    total = round_up(subtotal, unit_bytes)
    terms = (
        HeadroomTerm(name=f"sender MTU {mtu_sender} B {cells}", bytes=sender),
        HeadroomTerm(name=f"receiver MTU {mtu_receiver} B {cells}", bytes=receiver),
        HeadroomTerm(name=f"cable round trip {cable_m:g} m at {speed_gbps}G", bytes=cable),
        HeadroomTerm(name=mac_phy_name, bytes=mac_phy),
        HeadroomTerm(name=_response_name(speed_gbps), bytes=response),
        HeadroomTerm(name=f"small-packet cell overhead ({waste})", bytes=overhead),
        HeadroomTerm(name=f"rounding up to {unit_bytes} B units", bytes=total - subtotal),
    )
    return total, terms
