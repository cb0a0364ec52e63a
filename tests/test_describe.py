"""The port-description codec reads back what it writes, and bounds what it reads."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from roce_cfg.model import describe

NAMES = st.from_regex(r"[a-z][a-z0-9-]{0,15}", fullmatch=True)
PORTS = st.from_regex(r"[A-Za-z]{2,20}[0-9]{1,2}(/[0-9]{1,2}){1,2}(:[1-4])?", fullmatch=True)
SPEEDS = st.sampled_from([10, 25, 40, 50, 100, 200, 400, 800])
CABLES = st.floats(min_value=0.5, max_value=10_000, allow_nan=False).map(lambda m: round(m, 1))


@given(NAMES, PORTS, SPEEDS, CABLES)
def test_what_design_writes_parse_and_lint_read_back(
    device: str, port: str, speed: int, cable: float
) -> None:
    text = describe.encode(f"{device}:{port}", speed, cable)
    assert len(text) <= describe.DESCRIPTION_MAX
    assert describe.speed(text) == speed
    assert describe.cable(text) == float(f"{cable:g}")
    assert describe.far_end(text) == (device, port)


def test_numbers_past_their_domain_are_not_read() -> None:
    """A 5,000-digit figure is neither converted (int() refuses past 4,300 digits) nor read."""
    huge = "9" * 5000
    assert describe.speed(f"speed={huge}G") is None
    assert describe.cable(f"cable={huge}m") is None
    assert describe.speed("speed=1601G") is None
