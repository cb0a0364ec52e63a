"""Every entry of the headroom tables pinned to the figure its source prints (docs/sources.md),
and each helper of the formula to an example worked by hand.

[IEEE-PAUSE]: IEEE 802.3 31B.3.7, the PAUSE reaction time in pause quanta per speed.
[CISCO-CONG]: the same response bounds and the interface delay bounds, in bit times.
[HW-CR]: the ECN buffer-size ranges of CloudEngine, in bytes and in cells (the cell size).
"""

from __future__ import annotations

import pytest

from roce_cfg.design.headroom import (
    ASSUMED_DELAY_FROM,
    INTERFACE_DELAY_BITS,
    PAUSE_QUANTA,
    QUANTA_ASSUMED,
    cable_round_trip_bytes,
    cell_occupancy,
    interface_delay_bytes,
    required_headroom,
    round_up,
)
from roce_cfg.platforms.profile import load_profile
from roce_cfg.vendor import Vendor

# speed (Gb/s) -> pause quanta [IEEE-PAUSE], and the response in bit times [CISCO-CONG] where
# that source prints one
IEEE_QUANTA = {10: 67, 25: 80, 40: 118, 50: 147, 100: 394, 200: 453, 400: 905}
CISCO_RESPONSE_BITS = {25: 40960, 40: 60416, 100: 201728, 400: 463360}
# speed -> interface delay upper bound in bit times [CISCO-CONG]
CISCO_INTERFACE_BITS = {10: 8192, 25: 6144, 40: 24576, 100: 122880}


def _terms(speed: int, **over: int | float | None) -> list[tuple[str, int]]:
    params: dict[str, int | float | None] = {
        "cable_m": 0,
        "mtu_sender": 1024,
        "mtu_receiver": 1024,
        "cell_bytes": 256,
        "unit_bytes": 1,
        "mac_phy_delay_bytes": 0,
        "small_packet_percent": 0,
    }
    params.update(over)
    _, terms = required_headroom(speed_gbps=speed, **params)  # type: ignore[arg-type]
    return [(t.name, t.bytes) for t in terms]


def test_the_table_holds_the_sourced_speeds_and_800g_assumed() -> None:
    assert {s: q for s, q in PAUSE_QUANTA.items() if s not in QUANTA_ASSUMED} == IEEE_QUANTA
    assert QUANTA_ASSUMED == {800: 400}
    assert PAUSE_QUANTA[800] == IEEE_QUANTA[400]


@pytest.mark.parametrize(("speed", "quanta"), sorted(IEEE_QUANTA.items()))
def test_each_speeds_peer_response_is_its_quanta_of_64_bytes(speed: int, quanta: int) -> None:
    # a pause quantum is 512 bit times = 64 bytes at any speed: 25G, 80 quanta -> 5120 B
    name, response = _terms(speed)[4]
    assert (name, response) == (f"peer response {quanta} pause quanta", quanta * 64)


@pytest.mark.parametrize(("speed", "bits"), sorted(CISCO_RESPONSE_BITS.items()))
def test_the_response_bounds_of_the_second_source_agree(speed: int, bits: int) -> None:
    # 100G: 201,728 bit times / 512 = 394 quanta; / 8 = 25,216 B
    assert PAUSE_QUANTA[speed] * 512 == bits
    assert _terms(speed)[4][1] == bits // 8


def test_800g_says_its_figure_is_assumed() -> None:
    name, response = _terms(800)[4]
    assert response == 905 * 64
    assert name == "peer response 905 pause quanta (assumed: the 400G figure, no 800G figure read)"


def test_the_interface_delay_table_is_the_sources() -> None:
    assert INTERFACE_DELAY_BITS == CISCO_INTERFACE_BITS
    assert ASSUMED_DELAY_FROM == 100


@pytest.mark.parametrize("speed", sorted(PAUSE_QUANTA))
def test_each_speeds_interface_delay_and_where_it_comes_from(speed: int) -> None:
    one, why = interface_delay_bytes(speed)
    if speed in CISCO_INTERFACE_BITS:
        # 25G: 6,144 bit times = 768 B at each end
        assert (one, why) == (CISCO_INTERFACE_BITS[speed] // 8, f"IEEE 802.3 bound at {speed}G")
    else:
        assert (one, why) == (15360, f"assumed: the 100G bound (no {speed}G figure read)")
    name, both = _terms(speed, mac_phy_delay_bytes=None)[3]
    assert (name, both) == (f"MAC/PHY delay, both ends ({why})", 2 * one)


@pytest.mark.parametrize(
    ("speed", "metres", "wire_bytes"),
    [
        (10, 99, 1250),  # 2 x 99 m / 1.98e8 m/s = 1 us; x 1.25e9 B/s
        (25, 99, 3125),
        (100, 99, 12500),
        (400, 99, 50000),
        (100, 1, 127),  # 10.1 ns x 12.5e9 = 126.26 -> 127
        (100, 0, 0),
    ],
)
def test_cable_round_trip(speed: int, metres: float, wire_bytes: int) -> None:
    assert cable_round_trip_bytes(speed, metres) == wire_bytes


def test_float_noise_below_a_millionth_of_a_byte_is_not_a_byte() -> None:
    # 2 x 0.1 m at 100G is 12.626... B: 13. An exact product that floats print as 12500.000000001
    # must stay 12500, and a millionth of a byte more is a byte more.
    assert cable_round_trip_bytes(100, 0.1) == 13
    assert cable_round_trip_bytes(100, 99 * (1 + 1e-12)) == 12500
    assert cable_round_trip_bytes(100, 99 * (1 + 1.6e-11)) == 12500  # 12500.0000002 B: noise
    assert cable_round_trip_bytes(100, 99 * (1 + 1e-10)) == 12501  # 12500.00000125 B


@pytest.mark.parametrize(
    ("cell", "percent", "packet", "occupancy"),
    [
        (254, 0, 64, 1.0),
        (254, 100, 64, 254 / 64),  # one 254 B cell per 64 B packet
        (320, 10, 64, 0.9 + 0.1 * 5),  # [HW-CR] CE6885 class: 320 B cells
        (128, 10, 64, 0.9 + 0.1 * 2),  # [HW-CR] CE8851 class: 128 B cells
        (128, 50, 200, 0.5 + 0.5 * 256 / 200),  # a 200 B packet takes two 128 B cells
        (64, 100, 64, 1.0),  # a packet that fills its cell wastes nothing
    ],
)
def test_cell_occupancy(cell: int, percent: int, packet: int, occupancy: float) -> None:
    assert cell_occupancy(cell, percent, packet) == pytest.approx(occupancy, abs=1e-12)


@pytest.mark.parametrize(
    ("value", "unit", "rounded"), [(0, 254, 0), (1, 254, 254), (254, 254, 254), (255, 254, 508)]
)
def test_round_up(value: int, unit: int, rounded: int) -> None:
    assert round_up(value, unit) == rounded


def test_the_cell_sizes_that_a_source_gives() -> None:
    # [HW-CR] ecn: buffer-size 128-16,000,000 B against 1-125,000 cells (CE8851-32CQ8DQ-P class)
    # and 320-34,078,720 B against 1-106,496 cells (CE6885 class)
    models = load_profile(Vendor.HUAWEI).models
    assert models["CE8851-32CQ8DQ-P"].cell_bytes == 16_000_000 // 125_000 == 128
    assert models["CE6885-48YS8CQ"].cell_bytes == 34_078_720 // 106_496 == 320


def test_every_term_of_a_worked_example_with_its_name() -> None:
    # 25G, 10 m, sender MTU 1500, receiver 9216, 208 B cells, 1 KB units, 20 % small packets,
    # MAC/PHY from IEEE 802.3 at 25G (6144 bit times = 768 B a side):
    #   MTUs: ceil(1500/208) = 8 cells = 1664 B; ceil(9216/208) = 45 cells = 9360 B
    #   cable: 2 x 10 / 1.98e8 = 101.01 ns x 3.125e9 B/s = 315.66 -> 316 B
    #   MAC/PHY 1536 B; response 80 x 64 = 5120 B; in flight 316 + 1536 + 5120 = 6972 B
    #   occupancy 0.8 + 0.2 x 208/64 = 1.45 -> 6972 x 0.45 = 3137.4 -> 3138 B
    #   sum 1664 + 9360 + 6972 + 3138 = 21134 B -> 21 KB = 21504 B (370 B of rounding)
    total, terms = required_headroom(
        speed_gbps=25,
        cable_m=10,
        mtu_sender=1500,
        mtu_receiver=9216,
        cell_bytes=208,
        unit_bytes=1024,
        mac_phy_delay_bytes=None,
        small_packet_percent=20,
    )
    assert total == 21504
    assert [(t.name, t.bytes) for t in terms] == [
        ("sender MTU 1500 B in 208 B cells", 1664),
        ("receiver MTU 9216 B in 208 B cells", 9360),
        ("cable round trip 10 m at 25G", 316),
        ("MAC/PHY delay, both ends (IEEE 802.3 bound at 25G)", 1536),
        ("peer response 80 pause quanta", 5120),
        ("small-packet cell overhead (20% of in-flight bytes)", 3138),
        ("rounding up to 1024 B units", 370),
    ]


def test_the_default_minimum_packet_is_64_bytes() -> None:
    # 128 B cells: a 64 B packet wastes one half of its cell (occupancy 2 at 100 % small packets)
    common = {
        "speed_gbps": 100,
        "cable_m": 0,
        "mtu_sender": 128,
        "mtu_receiver": 128,
        "cell_bytes": 128,
        "unit_bytes": 1,
        "mac_phy_delay_bytes": 0,
        "small_packet_percent": 100,
    }
    default, _ = required_headroom(**common)  # type: ignore[arg-type]
    explicit, _ = required_headroom(**common, min_packet_bytes=64)  # type: ignore[arg-type]
    assert default == explicit == 128 + 128 + 2 * 394 * 64


def test_a_speed_without_a_figure_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match=r"^no pause-quanta figure for 1G$"):
        _terms(1)


def test_a_model_without_a_cell_size_gets_the_least_any_cell_needs() -> None:
    # 100G, 3 m, MTU 9216 both ends, cell size unknown, KB units, 10 % small packets, IEEE
    # MAC/PHY: no frame rounded up to cells and no small-packet overhead (1-byte 'cells'):
    #   9216 + 9216 + cable 379 + MAC/PHY 30720 + response 25216 = 74747 B -> 73 KB = 74752 B
    total, terms = required_headroom(
        speed_gbps=100,
        cable_m=3,
        mtu_sender=9216,
        mtu_receiver=9216,
        cell_bytes=None,
        unit_bytes=1024,
        mac_phy_delay_bytes=None,
        small_packet_percent=10,
    )
    assert total == 74752
    assert [(t.name, t.bytes) for t in terms] == [
        ("sender MTU 9216 B (cell size unknown: not rounded)", 9216),
        ("receiver MTU 9216 B (cell size unknown: not rounded)", 9216),
        ("cable round trip 3 m at 100G", 379),
        ("MAC/PHY delay, both ends (IEEE 802.3 bound at 100G)", 30720),
        ("peer response 394 pause quanta", 25216),
        ("small-packet cell overhead (cell size unknown: none)", 0),
        ("rounding up to 1024 B units", 5),
    ]
