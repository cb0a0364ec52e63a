"""PFC headroom: the bytes a receiver must still absorb after it sends PAUSE.

The terms follow shared/design.md and SONiC's buffer calculation: one MTU-sized frame the sender
has started, one the receiver is emitting when it decides to pause, the bytes in flight on the
cable for a round trip, the MAC/PHY pipeline, and the peer's response time (pause quanta of 512
bit times). In-flight bytes can arrive as small packets that each waste most of a buffer cell, so
they are scaled by the cell occupancy of the vendor's traffic assumption, and the total is rounded
up to the unit the switch configures headroom in.
"""

from __future__ import annotations

import math
from functools import cache

from roce_cfg.model.fabric import HeadroomTerm

#: IEEE 802.1Qbb response time of a peer, in pause quanta (512 bit times), per speed in Gb/s.
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
#: Speed of light in fibre, metres per second.
FIBRE_M_PER_S = 1.98e8


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


@cache
def required_headroom(
    *,
    speed_gbps: int,
    cable_m: float,
    mtu_sender: int,
    mtu_receiver: int,
    cell_bytes: int,
    unit_bytes: int,
    mac_phy_delay_bytes: int,
    small_packet_percent: int,
    min_packet_bytes: int = 64,
) -> tuple[int, tuple[HeadroomTerm, ...]]:
    """Required headroom in bytes for one lossless priority of one port, with its terms."""
    if speed_gbps not in PAUSE_QUANTA:
        raise ValueError(f"no pause-quanta figure for {speed_gbps}G")
    sender = round_up(mtu_sender, cell_bytes)
    receiver = round_up(mtu_receiver, cell_bytes)
    cable = cable_round_trip_bytes(speed_gbps, cable_m)
    response = PAUSE_QUANTA[speed_gbps] * 512 // 8
    in_flight = cable + mac_phy_delay_bytes + response
    occupancy = cell_occupancy(cell_bytes, small_packet_percent, min_packet_bytes)
    overhead = math.ceil(round(in_flight * (occupancy - 1), 6))
    subtotal = sender + receiver + in_flight + overhead
    total = round_up(subtotal, unit_bytes)
    terms = (
        HeadroomTerm(name=f"sender MTU {mtu_sender} B in {cell_bytes} B cells", bytes=sender),
        HeadroomTerm(name=f"receiver MTU {mtu_receiver} B in {cell_bytes} B cells", bytes=receiver),
        HeadroomTerm(name=f"cable round trip {cable_m:g} m at {speed_gbps}G", bytes=cable),
        HeadroomTerm(name="MAC/PHY delay", bytes=mac_phy_delay_bytes),
        HeadroomTerm(name=f"peer response {PAUSE_QUANTA[speed_gbps]} pause quanta", bytes=response),
        HeadroomTerm(
            name=f"small-packet cell overhead ({small_packet_percent}% of in-flight bytes)",
            bytes=overhead,
        ),
        HeadroomTerm(name=f"rounding up to {unit_bytes} B units", bytes=total - subtotal),
    )
    return total, terms
