from __future__ import annotations

import atexit
import hashlib
import os
import shutil
import tempfile
from collections import defaultdict
from pathlib import Path

import pytest
from hypothesis import settings

from tests import helpers

ROOT = Path(__file__).resolve().parent.parent

# The parse cache off for the suite, as --no-cache turns it off: a lint of a fixture folder
# writes nothing beside it; tests/test_parse_cache.py turns it on where it tests it.
os.environ.setdefault("ROCE_CFG_NO_CACHE", "1")
# The cache key of the suite's caches in a folder of its own, not the user's (cache_key.py).
_KEYS = tempfile.mkdtemp(prefix="roce-cfg-tests-")
os.environ["XDG_CACHE_HOME"] = _KEYS
atexit.register(shutil.rmtree, _KEYS, ignore_errors=True)

# The README's test command is the quick suite: properties draw a tenth of their examples and the
# `slow` tests (long properties, benchmarks-as-tests) are deselected, so a newcomer sees a first
# green in minutes. `--full` (what .ci/run passes) runs everything at the examples each test asks.
settings.register_profile("quick", max_examples=10)
settings.register_profile("full", max_examples=100)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        help="rewrite golden/ from the current output; review the diff before committing",
    )
    parser.addoption(
        "--full",
        action="store_true",
        help="also run the slow tests, and properties at their full examples (.ci/run does)",
    )


def pytest_configure(config: pytest.Config) -> None:
    helpers.FULL = bool(config.getoption("--full"))
    settings.load_profile("full" if helpers.FULL else "quick")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if helpers.FULL:
        return
    left = {id(item) for item in items if item.get_closest_marker("slow")} | _sampled_out(items)
    if left:
        config.hook.pytest_deselected(items=[item for item in items if id(item) in left])
        items[:] = [item for item in items if id(item) not in left]


def _sampled_out(items: list[pytest.Item]) -> set[int]:
    """The cases a `sample(k)` test leaves to --full: it keeps k of its parametrized cases,
    ranked by a hash of their ids, so each test keeps the same cases every run while different
    tests keep different vendors."""
    groups: dict[tuple[str, str], list[pytest.Item]] = defaultdict(list)
    for item in items:
        if item.get_closest_marker("sample"):
            groups[(str(item.path), getattr(item, "originalname", item.name))].append(item)
    out: set[int] = set()
    for members in groups.values():
        mark = members[0].get_closest_marker("sample")
        keep = int(mark.args[0]) if mark is not None else len(members)
        members.sort(key=lambda item: hashlib.sha256(item.nodeid.encode()).hexdigest())
        out.update(id(item) for item in members[keep:])
    return out


def pytest_report_header(config: pytest.Config) -> str:
    if helpers.FULL:
        return "roce-cfg: full suite (slow tests, properties at full examples)"
    return "roce-cfg: quick suite (slow tests deselected, properties at a tenth; --full runs all)"


@pytest.fixture
def update_golden(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-golden"))
