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


# Words as descriptions hold them: a letter first, so no word is itself a '<n>m' token.
WORDS = st.lists(st.from_regex(r"[A-Za-z][A-Za-z0-9]{0,9}", fullmatch=True), max_size=4)
SEPARATORS = st.sampled_from(["_", "-", " ", "/", "__", " - "])
METRES = st.one_of(
    st.integers(min_value=1, max_value=10_000).map(float),
    st.integers(min_value=1, max_value=9_999).map(lambda n: n / 10),
)
# How cabling teams and operators write a length, around the figure '{n}'
LENGTH_FORMS = st.sampled_from(
    [
        "{n}m",
        "{n}M",
        "({n}m)",
        "[{n}m]",
        "len:{n}m",
        "length={n}m",
        "cable_len={n}m",
        "dist:{n}m",
        "cable {n} m",
        "Length {n} M",
    ]
)


@given(WORDS, SEPARATORS, LENGTH_FORMS, METRES, SEPARATORS, WORDS)
def test_a_length_token_among_other_words_is_read(
    before: list[str], sep1: str, form: str, metres: float, sep2: str, after: list[str]
) -> None:
    token = form.format(n=f"{metres:g}")
    text = sep1.join([*before, token]) + "".join(sep2 + word for word in after)
    assert describe.cable(text) == metres, text


# Numbers that are not lengths: speeds, ids, millimetres, megabits, addresses, minutes
NOT_LENGTHS = st.sampled_from(
    [
        "{n}G",
        "{n}GE",
        "{n}g",
        "ID{n}M",
        "id{n}m",
        "{n}mm",
        "{n}Mbps",
        "{n}MB",
        "{n}min",
        "vlan{n}",
        "10.1.{n}.1",
        "1,{n}m",
        "v1.{n}m",
        "{n}ms",
        "x{n}m",
        "{n}m2",
        "{n}GE1/0/{n}",
    ]
)


@given(WORDS, SEPARATORS, NOT_LENGTHS, st.integers(min_value=1, max_value=9_999), WORDS)
def test_numbers_that_are_not_lengths_are_not_read(
    before: list[str], sep: str, form: str, n: int, after: list[str]
) -> None:
    text = sep.join([*before, form.format(n=n), *after])
    assert describe.cable(text) is None, text
