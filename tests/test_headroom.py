"""Headroom formula against examples worked by hand (the arithmetic is in each comment)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from roce_cfg.design.headroom import PAUSE_QUANTA, cable_round_trip_bytes, required_headroom
from roce_cfg.model.fabric import HeadroomTerm

JUMBO_254 = {
    "mtu_sender": 9216,
    "mtu_receiver": 9216,
    "cell_bytes": 254,
    "unit_bytes": 254,
    "mac_phy_delay_bytes": 1024,
    "small_packet_percent": 10,
}


def _headroom(
    speed: int, metres: float, **over: int | None
) -> tuple[int, tuple[HeadroomTerm, ...]]:
    params = {**JUMBO_254, **over}
    return required_headroom(speed_gbps=speed, cable_m=metres, **params)


def test_400g_100m_worked_example() -> None:
    # 400G, 100 m fibre, MTU 9216 both ends, 254 B cells, MAC/PHY 1024 B, 10 % small packets:
    #   cable: 2 x 100 m / 1.98e8 m/s = 1.0101 us x 50e9 B/s = 50505.05 -> 50506 B
    #   peer response: 905 quanta x 64 B = 57920 B
    #   in flight: 50506 + 1024 + 57920 = 109450 B
    #   small-packet overhead: 64 B packet in a 254 B cell -> 254/64 = 3.96875 x;
    #     occupancy 0.9 + 0.1 x 3.96875 = 1.296875 -> 109450 x 0.296875 = 32492.97 -> 32493 B
    #   MTUs: ceil(9216/254) = 37 cells = 9398 B each -> 18796 B
    #   sum 18796 + 109450 + 32493 = 160739 B -> ceil(160739/254) = 633 cells = 160782 B
    total, terms = _headroom(400, 100)
    assert total == 160782
    assert [t.bytes for t in terms] == [9398, 9398, 50506, 1024, 57920, 32493, 43]
    assert sum(t.bytes for t in terms) == total


def test_100g_3m_no_small_packets_kbyte_units() -> None:
    # 100G, 3 m, MTU 4200, 256 B cells, 0 % small packets, configured in KB:
    #   cable: 2 x 3 / 1.98e8 = 30.3 ns x 12.5e9 B/s = 378.8 -> 379 B
    #   response: 394 x 64 = 25216 B; MAC/PHY 1024 B; in flight 26619 B; overhead 0
    #   MTUs: ceil(4200/256) = 17 cells = 4352 B each -> 8704 B
    #   sum 35323 B -> ceil(35323/1024) = 35 KB = 35840 B
    total, _ = required_headroom(
        speed_gbps=100,
        cable_m=3,
        mtu_sender=4200,
        mtu_receiver=4200,
        cell_bytes=256,
        unit_bytes=1024,
        mac_phy_delay_bytes=1024,
        small_packet_percent=0,
    )
    assert total == 35840


@pytest.mark.parametrize("speed", [25, 100, 200, 400])
def test_headroom_grows_with_cable_length(speed: int) -> None:
    def at(metres: float) -> int:
        return _headroom(speed, metres)[0]

    assert at(3) < at(100) < at(1000)


def test_headroom_grows_with_speed() -> None:
    sizes = [_headroom(s, 30, cell_bytes=256, unit_bytes=1024)[0] for s in (25, 100, 200, 400)]
    assert sizes == sorted(sizes) and len(set(sizes)) == 4


def test_cable_bytes_symmetry() -> None:
    assert cable_round_trip_bytes(400, 200) == 2 * cable_round_trip_bytes(400, 100) - 1


def test_unknown_speed_is_refused() -> None:
    with pytest.raises(ValueError, match="pause-quanta"):
        required_headroom(
            speed_gbps=1,
            cable_m=1,
            mtu_sender=1500,
            mtu_receiver=1500,
            cell_bytes=256,
            unit_bytes=256,
            mac_phy_delay_bytes=0,
            small_packet_percent=0,
        )


def test_100g_ieee_interface_delay_worked_example() -> None:
    # 100G, 3 m, MTU 9216, 320 B cells (CE6885 class), KB units, 10 % small packets, MAC/PHY
    # from IEEE 802.3's interface delay bound at 100G (122880 bit times = 15360 B) at both ends:
    #   cable: 2 x 3 / 1.98e8 = 30.3 ns x 12.5e9 B/s = 378.8 -> 379 B
    #   MAC/PHY: 2 x 15360 = 30720 B; response: 394 x 64 = 25216 B
    #   in flight: 379 + 30720 + 25216 = 56315 B
    #   a 64 B packet takes one 320 B cell: 5x; occupancy 0.9 + 0.1 x 5 = 1.4 -> 56315 x 0.4
    #     = 22526 B
    #   MTUs: ceil(9216/320) = 29 cells = 9280 B each -> 18560 B
    #   sum 18560 + 56315 + 22526 = 97401 B -> ceil(97401/1024) = 96 KB = 98304 B
    total, terms = required_headroom(
        speed_gbps=100,
        cable_m=3,
        mtu_sender=9216,
        mtu_receiver=9216,
        cell_bytes=320,
        unit_bytes=1024,
        mac_phy_delay_bytes=None,
        small_packet_percent=10,
    )
    assert total == 98304
    assert [t.bytes for t in terms] == [9280, 9280, 379, 30720, 25216, 22526, 903]
    assert terms[3].name == "MAC/PHY delay, both ends (IEEE 802.3 bound at 100G)"


@pytest.mark.parametrize(
    ("speed", "per_end", "sourced"),
    [(10, 1024, True), (25, 768, True), (40, 3072, True), (100, 15360, True), (400, 15360, False)],
)
def test_mac_phy_delay_per_speed(speed: int, per_end: int, sourced: bool) -> None:
    """Each speed's figure, and a speed with no public figure says that it is assumed."""
    _, terms = _headroom(speed, 3, mac_phy_delay_bytes=None)
    assert terms[3].bytes == 2 * per_end
    assert ("assumed" not in terms[3].name) is sourced


def test_a_vendor_figure_replaces_the_ieee_bound() -> None:
    with_ieee, _ = _headroom(100, 3, mac_phy_delay_bytes=None)
    measured, terms = _headroom(100, 3, mac_phy_delay_bytes=1600)
    assert terms[3].name == "MAC/PHY delay (vendor profile)" and measured < with_ieee


def test_headroom_grows_with_speed_on_the_ieee_bounds() -> None:
    sizes = [
        _headroom(s, 30, cell_bytes=256, unit_bytes=1024, mac_phy_delay_bytes=None)[0]
        for s in (25, 100, 200, 400)
    ]
    assert sizes == sorted(sizes) and len(set(sizes)) == 4


@given(
    st.sampled_from(sorted(PAUSE_QUANTA)),
    st.floats(min_value=0.5, max_value=10_000, allow_nan=False),
    st.integers(min_value=1500, max_value=9600),
    st.integers(min_value=1, max_value=1024),
    st.sampled_from([1, 1024]),
    st.integers(min_value=0, max_value=100),
)
def test_an_unknown_cell_size_gives_the_least_any_cell_needs(
    speed: int, cable: float, mtu: int, cell: int, unit: int, small: int
) -> None:
    """A model whose cell size no source gives is judged against this figure: a port short of it
    is short whatever the cell, so it must be at most what every cell size needs."""

    def need(cell_bytes: int | None) -> int:
        return required_headroom(
            speed_gbps=speed,
            cable_m=cable,
            mtu_sender=mtu,
            mtu_receiver=mtu,
            cell_bytes=cell_bytes,
            unit_bytes=unit,
            mac_phy_delay_bytes=None,
            small_packet_percent=small,
        )[0]

    assert need(None) <= need(cell)
    if unit == 1:
        assert need(None) == need(1)  # no rounding and no waste: the same as 1-byte cells
