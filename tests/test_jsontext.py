"""``sorted_json`` writes what ``json.dumps(value, indent=2, sort_keys=True)`` writes (fabric.json
of every generate), whatever the tree holds: pydantic's serializer where the two agree,
json.dumps where they would not."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from roce_cfg.generate import generate
from roce_cfg.jsontext import sorted_json
from tests.helpers import SCENARIOS

LEAVES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**80), max_value=2**80),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0.0, -0.0, 1e-4, 9.99e-5, 3.0, 50.0, 1e16, 1e-7]),
    st.text(max_size=12),
    st.sampled_from(["caf\u00e9", "\x7f", "\U0001f600", "a\tb\n", "\x01", '"\\/']),
)
TREES = st.recursive(
    LEAVES,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.text(max_size=6), inner, max_size=4),
    ),
    max_leaves=30,
)


@given(TREES)
def test_sorted_json_is_json_dumps(tree: Any) -> None:
    assert sorted_json(tree) == json.dumps(tree, indent=2, sort_keys=True)


def test_keys_that_are_not_strings_are_written_by_json_dumps() -> None:
    tree = {"b": {2: "x", 1: [{"z": 1, "a": 2}]}, "a": (1, 2)}
    assert sorted_json(tree) == json.dumps(tree, indent=2, sort_keys=True)


def test_fabric_json_is_json_dumps_of_the_plan() -> None:
    from roce_cfg.generate import output_files

    result = generate(SCENARIOS["three-tier"])
    plan = result.fabric.model_dump(mode="json", exclude={"devices"})
    written = output_files(result)["fabric.json"]
    assert written == json.dumps(plan, indent=2, sort_keys=True) + "\n"
