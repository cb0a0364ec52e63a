"""report takes the evidence step's facts lint gathered (roce_cfg/deadlock/source.py
``from_parsed``'s ``gathered``) only when they were gathered over the very switch models it
reads, in its order; otherwise it gathers them again, and either way they are the facts a
gather of its own would give."""

from __future__ import annotations

from pathlib import Path

from roce_cfg import evidence
from roce_cfg.analysis import lint
from roce_cfg.deadlock.source import from_parsed
from roce_cfg.parse import Parsed
from roce_cfg.parse.hints import load_fabric
from tests import cachepod

generated, pod = cachepod.generated, cachepod.pod  # the fixtures this module uses


def _linted(pod: Path) -> tuple[evidence.Evidence, list[Parsed]]:
    result = lint([pod])
    assert isinstance(result.facts, evidence.Evidence)
    return result.facts, [v.parsed for v in result.views.values()]


def test_lints_facts_serve_the_same_switches(pod: Path) -> None:
    facts, parsed = _linted(pod)
    plan = load_fabric(pod / "fabric.json")
    src = from_parsed(parsed, plan, None, str(pod), facts)
    assert src.facts is facts
    assert src.facts == evidence.gather([p.config.device for p in parsed], plan.links)


def test_facts_over_other_switches_or_another_order_are_gathered_again(pod: Path) -> None:
    facts, parsed = _linted(pod)
    plan = load_fabric(pod / "fabric.json")
    backwards = parsed[::-1]
    src = from_parsed(backwards, plan, None, str(pod), facts)
    assert src.facts is not facts
    assert src.facts == evidence.gather([p.config.device for p in backwards], plan.links)
    # a switch's model replaced since (a role found by the topology): not the facts' switch
    first = parsed[0]
    first.config = first.config.model_copy(update={"device": first.config.device.model_copy()})
    assert from_parsed(parsed, plan, None, str(pod), facts).facts is not facts


def test_facts_gathered_with_a_plan_serve_no_source_without_one(pod: Path) -> None:
    """lint takes a fabric.json deeper in the folder when the folder has none of its own; the
    report reads the folder's own only: its source has no plan, and the facts are its own."""
    facts, parsed = _linted(pod)
    src = from_parsed(parsed, None, None, str(pod), facts)
    assert src.facts is not facts
    assert src.facts == evidence.gather([p.config.device for p in parsed], None)
