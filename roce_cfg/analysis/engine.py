"""The rule engine: every registered rule over the views of the switches to lint, whether they
were parsed from configs or come from the design, each hit located in its file and line,
suppressions applied, sorted."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import replace
from functools import partial
from multiprocessing import get_context
from typing import TYPE_CHECKING

from roce_cfg import evidence
from roce_cfg.analysis.context import (
    DeviceView,
    FabricLink,
    FabricView,
    Options,
    concludes,
    links_of,
)
from roce_cfg.analysis.device_cache import DeviceCache
from roce_cfg.analysis.findings import Finding, LintResult
from roce_cfg.analysis.registry import Hit, Rule
from roce_cfg.analysis.rules_input import unread_finding
from roce_cfg.analysis.rules_intent import IntentView
from roce_cfg.analysis.suppress import LintConfig, apply, inline
from roce_cfg.heap import long_lived
from roce_cfg.inputs import Found, Unread
from roce_cfg.model.device import DeviceConfig, lean
from roce_cfg.model.fabric import Fabric, Link
from roce_cfg.model.order import natural
from roce_cfg.parse.cache import ParseCache
from roce_cfg.parse.hints import LintPlan, PlanLink
from roce_cfg.parse.many import workers
from roce_cfg.policy import fabric_roce_dscp
from roce_cfg.yamlsrc import line_of

if TYPE_CHECKING:  # the intent's models: imported by a lint given an intent (analysis/run.py)
    from roce_cfg.intent.loader import LoadedIntent


@long_lived()  # the views and the plan: the rules' allocations need not rescan them
def judge(
    all_rules: list[Rule],
    views: dict[str, DeviceView],
    planned: Fabric | LintPlan | None,
    options: Options,
    loaded: LoadedIntent | None,
    lint_config: LintConfig,
    unread: list[Unread],
    found: Found,
    cache: ParseCache | None = None,
) -> LintResult:
    """Every rule over ``views``, parsed or designed alike: located, suppressed, sorted; the
    device rules' findings kept beside ``cache`` for the next run (device_cache.py)."""
    devices = [v.device for _, v in sorted(views.items())]
    # the device rules need the topology only for the roles parse guessed: without such a
    # role it is built beside them, and they start at once instead of waiting for it
    guessed = any(v.parsed.config.role_from == "inferred" for v in views.values())
    topology = evidence.Topology.of(devices, _links(planned)) if guessed else None
    if topology is not None:
        _topology_roles(views, topology)
    options = _agreed_dscp(views, options)
    iv = _intent_view(loaded, planned, views) if loaded and isinstance(planned, Fabric) else None
    fabric = partial(_fabric_view, views, devices, topology, planned, options)
    kept = _device_cache(all_rules, cache, options)
    findings, fabric_view = _run(all_rules, views, fabric, iv, kept)
    findings += [unread_finding(u) for u in unread]
    per_device = {name: inline(v.text) for name, v in views.items()}
    findings = apply(findings, lint_config, per_device)
    findings.sort(key=Finding.sort_key)
    notes = [f"{v.file}: {note}" for v in views.values() for note in v.parsed.config.notes]
    files = [str(f) for f in found.configs]  # the configs among them: what the parse kept
    result = LintResult(findings, files, sorted(views, key=natural), notes, views)
    result.skipped = found.notes
    assert fabric_view.facts is not None  # _fabric_view's
    result.coverage = fabric_view.facts.coverage.line()
    result.facts = fabric_view.facts
    return result


def _fabric_view(
    views: dict[str, DeviceView],
    devices: list[DeviceConfig],
    topology: evidence.Topology | None,
    planned: Fabric | LintPlan | None,
    options: Options,
) -> FabricView:
    """The fabric as the fabric rules see it: the evidence step (its topology found here
    unless given) and the links with their cable lengths."""
    if topology is None:
        topology = evidence.Topology.of(devices, _links(planned))
    facts = topology.gathered()
    if planned is None:
        links = links_of(facts)
    else:
        # the plan's links in its order, as the evidence step has them (their ends reused)
        cables = [k.cable_m for k in planned.links]
        links = [FabricLink(k.a, k.b, m) for k, m in zip(facts.links, cables, strict=True)]
    return FabricView(views, links, options, planned=planned is not None, facts=facts)


def _device_cache(
    all_rules: list[Rule], cache: ParseCache | None, options: Options
) -> DeviceCache | None:
    if cache is None:
        return None
    device = [r.id for r in all_rules if r.check is not None and r.scope == "device"]
    return DeviceCache.of(cache, device, options)


def _links(planned: Fabric | LintPlan | None) -> Sequence[Link] | Sequence[PlanLink] | None:
    return planned.links if planned is not None else None


def _topology_roles(views: dict[str, DeviceView], facts: evidence.Topology) -> None:
    """Each view's role from the topology where parse only guessed it (evidence.roles)."""
    for v in views.values():
        parsed = v.parsed.config
        device = evidence.with_roles(parsed.device, parsed.role_from == "inferred", facts)
        if device is not parsed.device:
            v.parsed.config = parsed.model_copy(update={"device": device})


def _agreed_dscp(views: dict[str, DeviceView], options: Options) -> Options:
    """``options`` with the RoCE DSCP the configs agree on when none was given, set on every
    view too."""
    if options.roce_dscp is not None:
        return options
    dscp, _ = fabric_roce_dscp((v.device for v in views.values()), None)
    options = replace(options, roce_dscp=dscp)
    for view in views.values():
        view.options = options
    return options


def _run(
    all_rules: list[Rule],
    views: dict[str, DeviceView],
    fabric: Callable[[], FabricView],
    iv: IntentView | None,
    kept: DeviceCache | None = None,
) -> tuple[list[Finding], FabricView]:
    """Every rule with a check over what it looks at: each device, the fabric, the intent;
    the findings per rule, in rule order, wherever the device rules ran (_device_side). The
    device rules need the views alone: they start first, and ``fabric`` (the rest of the
    evidence step) is built while they run. A switch whose device findings ``kept`` holds is
    not judged by them again."""
    checked = [r for r in all_rules if r.check is not None]  # RC502: 'roce-cfg deadlock'
    device = [r for r in checked if r.scope == "device"]
    stored = kept.load(views) if kept else {}
    fresh = {n: v for n, v in views.items() if n not in stored}
    with _device_side(device, fresh) as device_findings:
        fabric_view = fabric()
        found = {r.id: _findings(r, views, fabric_view, iv) for r in checked if r.scope != "device"}
        per_view = {**stored, **device_findings()}
    for i, r in enumerate(device):
        found[r.id] = [
            f for name in views for f in per_view[name][i] if _far_end_concludes(r, f, views)
        ]
    if kept is not None:
        kept.store(views, per_view, fresh)
    return [f for r in checked for f in found[r.id]], fabric_view


def _findings(
    r: Rule,
    views: dict[str, DeviceView],
    fabric_view: FabricView | None = None,
    iv: IntentView | None = None,
) -> list[Finding]:
    """The located findings of one fabric or intent rule (a rule over the intent has none
    without one)."""
    assert r.check is not None
    if r.scope == "fabric":
        return [_locate(r, h, views) for h in r.check(fabric_view) if concludes(r, h, views)]
    if iv is None:
        return []
    findings: list[Finding] = []
    for h in r.check(iv):
        if not concludes(r, h, views):
            continue
        f = _locate(r, h, views)
        if f.file is None and h.device == iv.intent.name:
            f = f.model_copy(update={"file": iv.file})
        findings.append(f)
    return findings


def _device_findings(device: list[Rule], view: DeviceView) -> list[list[Finding]]:
    """One switch's findings of each device rule whose own end concludes (the far end a hit
    names is judged with every switch at hand: _far_end_concludes)."""
    views = {view.name: view}
    per_rule: list[list[Finding]] = []
    for r in device:
        assert r.check is not None
        found = []
        for h in r.check(view):
            if h.device not in (None, view.name):
                raise AssertionError("a device rule's hit is on its own device")
            if concludes(r, replace(h, related_device=None), views, view.name):
                found.append(_locate(r, h, views, view.name))
        per_rule.append(found)
    return per_rule


def _far_end_concludes(r: Rule, f: Finding, views: dict[str, DeviceView]) -> bool:
    """Whether the far end a device rule's finding names (if any) was read where the rule reads:
    the second half of ``concludes``, the first judged with the finding's own switch."""
    if f.related_device is None:
        return True
    return concludes(r, Hit("", port=f.related_port, device=f.related_device), views)


# From this many switches the device rules run in a forked child beside the fabric rules
# (at 1,280 switches they took 1.9 s of CPU while the parent's other core idled); below,
# the fork and the findings' pickling cost more than the rules.
ASIDE_FROM = 64

# What the forked child runs, set just before the fork: the child has it without pickling
# (the views as an argument would cost more than the rules).
_side: tuple[list[Rule], dict[str, DeviceView]] = ([], {})


def _per_view() -> dict[str, list[list[Finding]]]:
    """Each switch's device findings (``_side``'s), by name."""
    device, views = _side
    return {name: _device_findings(device, view) for name, view in views.items()}


@contextmanager
def _device_side(
    device: list[Rule], views: dict[str, DeviceView]
) -> Iterator[Callable[[], dict[str, list[list[Finding]]]]]:
    """A call giving the device rules' findings of each of ``views``, per rule: computed by a
    forked child while the block runs the other rules when there are many switches and a
    second core; in this process otherwise, and whenever the child fails (its findings are
    never lost)."""
    global _side
    _side = (device, views)
    try:
        if len(views) < ASIDE_FROM or workers() == 1:
            yield _per_view
            return
        # frozen: the child's collections would otherwise write to (copy) every page they scan
        with long_lived(), ProcessPoolExecutor(1, mp_context=get_context("fork")) as pool:
            future = pool.submit(_per_view)

            def collected() -> dict[str, list[list[Finding]]]:
                try:
                    # unpickled, each finding has its own set of fields: shared again (lean)
                    found = future.result()
                    return {n: [[lean(f) for f in fs] for fs in per] for n, per in found.items()}
                except Exception:  # a broken child, an unpicklable finding: run them here
                    return _per_view()

            yield collected
    finally:
        _side = ([], {})


def _intent_view(loaded: LoadedIntent, planned: Fabric, views: dict[str, DeviceView]) -> IntentView:
    def locate(loc: tuple[str, ...]) -> int | None:
        return line_of(loaded.lines, loc)

    designed = {d.hostname: d for d in planned.devices}
    return IntentView(loaded.intent, designed, views, loaded.file, locate)


def _anchored_line(view: DeviceView, hit: Hit, anchor: str) -> int | None:
    """The line of the hit's entry in the first block under ``anchor`` that holds it (a config
    may carry several DSCP maps and only some hold the entry), else the block's header."""
    entry = view.profile.parse.anchors.get(f"{hit.anchor}.entry") if hit.anchor_key else None
    if entry is not None:
        found = view.source.line_of(anchor, entry.format(key=hit.anchor_key))
        if found is not None:
            return found
    return view.source.line_of(anchor)


def _locate(r: Rule, hit: Hit, views: dict[str, DeviceView], device: str | None = None) -> Finding:
    """The finding of ``hit`` (a device rule's hit belongs to ``device``) with its file and
    line."""
    name = hit.device or device
    view = views.get(name) if name else None
    if name is None:
        raise AssertionError("the engine passes device rules their device")
    line = hit.line
    if view is not None and line is None:
        anchor = view.profile.parse.anchors.get(hit.anchor) if hit.anchor else None
        if hit.port is not None:
            if anchor and hit.anchor and hit.anchor.startswith("port."):
                line = view.source.interface_match(hit.port, anchor)
            line = line or view.source.interface_line(hit.port)
        elif anchor is not None:
            line = _anchored_line(view, hit, anchor)
    detail = hit.detail
    if view is not None and hit.port is not None and r.reads and not hit.of_switch:
        detail = (*detail, *view.origins(r.reads, hit.port))
    # lean: a config of 100,000 ports has hundreds of thousands of findings, each otherwise
    # holding its own set of given fields
    return lean(
        Finding(
            rule=r.id,
            severity=r.severity,
            device=name,
            file=view.file if view else None,
            line=line,
            port=hit.port,
            message=hit.message,
            related_device=hit.related_device,
            related_port=hit.related_port,
            detail=detail,
        )
    )
