"""Lint: per-device, headroom, fabric and intent rules over parsed running-configs.

``lint()`` parses the given configs (with hints from fabric.json or the intent when given), runs
every registered rule and returns located findings, suppressions applied.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import replace
from functools import partial
from multiprocessing import get_context
from pathlib import Path

from roce_cfg import evidence

# The rule modules register their rules with the registry as they are imported.
from roce_cfg.analysis import (  # noqa: F401
    rules_accounting,
    rules_deadlock,
    rules_device,
    rules_fabric,
    rules_gaps,
    rules_headroom,
    rules_input,
    rules_intent,
    rules_mlag,
    rules_policy,
    rules_watchdog,
)
from roce_cfg.analysis.context import (
    DeviceView,
    FabricLink,
    FabricView,
    Options,
    concludes,
    links_of,
)
from roce_cfg.analysis.findings import Finding, LintResult
from roce_cfg.analysis.registry import Hit, Rule, rules
from roce_cfg.analysis.rules_input import unread_finding
from roce_cfg.analysis.rules_intent import IntentView
from roce_cfg.analysis.suppress import DEFAULT_FILE, LintConfig, apply, inline, load
from roce_cfg.design import plan
from roce_cfg.errors import InputError
from roce_cfg.heap import bulk_objects, long_lived
from roce_cfg.inputs import Found, Unread, discover, reading
from roce_cfg.intent.loader import LoadedIntent, load_intent
from roce_cfg.model.device import DeviceConfig, lean
from roce_cfg.model.fabric import Fabric, Link
from roce_cfg.model.order import natural
from roce_cfg.parse import Hints, Parsed, ParsedConfig, redacted
from roce_cfg.parse.hints import (
    EarlyPlan,
    LintPlan,
    PlanLink,
    hints_from_plan,
    validated_plan,
    with_speeds,
)
from roce_cfg.parse.many import workers
from roce_cfg.platforms.profile import load_profile
from roce_cfg.policy import fabric_roce_dscp
from roce_cfg.safepath import file_name
from roce_cfg.vendor import Vendor
from roce_cfg.yamlsrc import line_of

__all__ = ["Finding", "LintResult", "Options", "lint", "lint_designed"]


@bulk_objects()
def lint(
    paths: list[Path],
    *,
    intent: Path | None = None,
    fabric: Path | None = None,
    options: Options | None = None,
    vendor: Vendor | None = None,
    overlay: Path | None = None,
    config: Path | None = None,
    progress: Callable[[int, int], None] | None = None,
    designed: Fabric | None = None,
    found: Found | None = None,
) -> LintResult:
    """``designed`` is ``intent``'s fabric when the caller has designed it already; ``found``
    is ``paths`` discovered when the caller has done that (and printed its notes)."""
    all_rules = rules()
    found = found or discover(paths, vendor, overlay, screen=False)
    if not found.configs and not found.unread:
        raise InputError("no config files to lint")
    fabric = fabric or (found.fabric if intent is None else None)
    lint_config = _lint_config(config, {r.id for r in all_rules})
    loaded = load_intent(intent) if intent is not None else None
    plan = _Plan.of(loaded, fabric, designed, overlay)
    hints = with_speeds(plan.hints, options.speeds) if options else plan.hints
    failed: list[Unread] = []
    with reading(found, vendor, hints, overlay, progress) as parsed:
        planned = plan.validated()  # while the workers parse; a bad plan stops them
        options = _with_plan(options or Options(), loaded, planned)
        views = _views(parsed, overlay, options, failed)
    unread = [*found.unread, *failed]  # the screen's refusals first, as discovery reports them
    if not views and not unread:  # a folder of notes, READMEs, dumps: no config at all
        raise InputError("no config files to lint")
    if not views:  # nothing usable at all: the input is bad, not the fabric
        raise unread[0].as_error()
    return _judge(all_rules, views, planned, options, loaded, lint_config, unread, found)


@bulk_objects()
def lint_designed(
    designed: Fabric,
    configs: Mapping[str, str],
    intent: Path,
    *,
    overlay: Path | None = None,
    config: Path | None = None,
) -> LintResult:
    """Lint the switches of ``configs`` (hostname -> rendered text) as designed: the model they
    were rendered from, judged by the rules a parsed config meets, without parsing the text back
    (most of the time of an xl report, issue 30). The text stays for the lines findings cite
    (read on demand, only for devices with findings) and for RC404's count, which a rendered
    config meets by construction. ``report --round-trip`` checks that both ways agree."""
    all_rules = rules()
    lint_config = _lint_config(config, {r.id for r in all_rules})
    loaded = load_intent(intent)
    options = _with_plan(Options(), loaded, designed)
    hints = hints_from_plan(designed)
    views: dict[str, DeviceView] = {}
    for device in designed.devices:
        text = configs.get(device.hostname)
        if text is not None:
            parsed = _as_parsed(device, text, hints.get(device.hostname, Hints()), overlay)
            views[device.hostname] = _view(parsed, overlay, options)
    if not views:
        raise InputError("no switch to lint")
    found = Found(configs=[Path(v.file) for v in views.values()])
    return _judge(all_rules, views, designed, options, loaded, lint_config, [], found)


def _as_parsed(device: DeviceConfig, text: str, hint: Hints, overlay: Path | None) -> Parsed:
    """The designed ``device`` as the parse of its rendered ``text`` would give it, named as
    generate names its file."""
    file = file_name(device.hostname, ".cfg", what="hostname")
    config = ParsedConfig(
        source=file,
        lines=len(text.splitlines()),
        vendor=device.vendor,
        vendor_from="detected",
        model_from="given" if hint.model else "config",
        role_from="given" if hint.role else "inferred",
        device=redacted(device, device.vendor.value),
    )
    return Parsed(config, None, text, overlay)


@long_lived()  # the views and the plan: the rules' allocations need not rescan them
def _judge(
    all_rules: list[Rule],
    views: dict[str, DeviceView],
    planned: Fabric | LintPlan | None,
    options: Options,
    loaded: LoadedIntent | None,
    lint_config: LintConfig,
    unread: list[Unread],
    found: Found,
) -> LintResult:
    """Every rule over ``views``, parsed or designed alike: located, suppressed, sorted."""
    devices = [v.device for _, v in sorted(views.items())]
    # the device rules need the topology only for the roles parse guessed: without such a
    # role it is built beside them, and they start at once (issue 30)
    guessed = any(v.parsed.config.role_from == "inferred" for v in views.values())
    topology = evidence.Topology.of(devices, _links(planned)) if guessed else None
    if topology is not None:
        _topology_roles(views, topology)
    options = _agreed_dscp(views, options)
    iv = _intent_view(loaded, planned, views) if loaded and isinstance(planned, Fabric) else None
    fabric = partial(_fabric_view, views, devices, topology, planned, options)
    findings, fabric_view = _run(all_rules, views, fabric, iv)
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


def _links(planned: Fabric | LintPlan | None) -> Sequence[Link] | Sequence[PlanLink] | None:
    return planned.links if planned is not None else None


def _topology_roles(views: dict[str, DeviceView], facts: evidence.Topology) -> None:
    """Each view's role from the topology where parse only guessed it (evidence.roles)."""
    for v in views.values():
        parsed = v.parsed.config
        device = evidence.with_roles(parsed.device, parsed.role_from == "inferred", facts)
        if device is not parsed.device:
            v.parsed.config = parsed.model_copy(update={"device": device})


class _Plan:
    """The plan the configs are checked against: the intent's design, or a fabric.json (only
    what lint reads of it: 40 MB at xl, parse/hints.py) whose hints come first, so that the
    parse can start on them while it is validated (``EarlyPlan``)."""

    def __init__(
        self, planned: Fabric | LintPlan | None, early: EarlyPlan[LintPlan] | None = None
    ) -> None:
        self._planned, self._early = planned, early
        self.hints = early.hints if early else hints_from_plan(planned) if planned else {}

    @classmethod
    def of(
        cls,
        loaded: LoadedIntent | None,
        fabric: Path | None,
        designed: Fabric | None,
        overlay: Path | None,
    ) -> _Plan:
        if loaded is not None:
            return cls(designed if designed is not None else plan(loaded, overlay)[0])
        return cls(None, EarlyPlan(fabric, validated_plan)) if fabric is not None else cls(None)

    def validated(self) -> Fabric | LintPlan | None:
        """The plan; an InputError when fabric.json is not one."""
        return self._early.validated() if self._early else self._planned


def _with_plan(
    options: Options, loaded: LoadedIntent | None, planned: Fabric | LintPlan | None
) -> Options:
    """The intent's DSCPs; the plan's cable lengths (the user's win) and rail VLANs."""
    if loaded is not None:
        pol = loaded.intent.lossless
        options = replace(options, roce_dscp=pol.roce.dscp, cnp_dscp=pol.cnp.dscp)
    if planned is None:
        return options
    cables = {(n.switch, n.port): n.cable_m for n in planned.nics}
    for k in planned.links:
        cables[(k.a_device, k.a_port)] = k.cable_m
        cables[(k.b_device, k.b_port)] = k.cable_m
    vlans: dict[int, set[str]] = {}
    for rail in planned.rails:
        vlans.setdefault(rail.vlan, set()).add(rail.switch)
    return replace(
        options,
        cables={**cables, **options.cables},
        vlan_switches={v: frozenset(s) for v, s in vlans.items()},
    )


def _views(
    parsed: Iterable[tuple[Path, Parsed | InputError]],
    overlay: Path | None,
    options: Options,
    unread: list[Unread],
) -> dict[str, DeviceView]:
    """One view per parsed config; a file that cannot be parsed, or a second config of one
    hostname, goes to ``unread`` (a finding on that file) and the others are still read."""
    views: dict[str, DeviceView] = {}
    for path, one in parsed:
        if isinstance(one, InputError):
            unread.append(Unread.of(path, one))
            continue
        view = _view(one, overlay, options)
        if view.name in views:
            why = f"hostname {view.name} also in {views[view.name].file}; one config per switch"
            unread.append(Unread(path, why))
            continue
        views[view.name] = view
    return views


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
) -> tuple[list[Finding], FabricView]:
    """Every rule with a check over what it looks at: each device, the fabric, the intent;
    the findings per rule, in rule order, wherever the device rules ran (_device_side). The
    device rules need the views alone: they start first, and ``fabric`` (the rest of the
    evidence step) is built while they run."""
    checked = [r for r in all_rules if r.check is not None]  # RC502: 'roce-cfg deadlock'
    device = [r for r in checked if r.scope == "device"]
    with _device_side(device, views) as device_findings:
        fabric_view = fabric()
        found = {r.id: _findings(r, views, fabric_view, iv) for r in checked if r.scope != "device"}
        found.update(zip([r.id for r in device], device_findings(), strict=True))
    return [f for r in checked for f in found[r.id]], fabric_view


def _findings(
    r: Rule,
    views: dict[str, DeviceView],
    fabric_view: FabricView | None = None,
    iv: IntentView | None = None,
) -> list[Finding]:
    """The located findings of one rule (a rule over the intent has none without one)."""
    assert r.check is not None
    if r.scope == "device":
        return [
            _locate(r, h, views, v.name)
            for v in views.values()
            for h in r.check(v)
            if concludes(r, h, views, v.name)
        ]
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


# From this many switches the device rules run in a forked child beside the fabric rules
# (issue 30: 1.9 s of CPU at 1,280 switches while the parent's other core idled); below,
# the fork and the findings' pickling cost more than the rules.
ASIDE_FROM = 64

# What the forked child runs, set just before the fork: the child has it without pickling
# (the views as an argument would cost more than the rules).
_side: tuple[list[Rule], dict[str, DeviceView]] = ([], {})


def _per_rule() -> list[list[Finding]]:
    device, views = _side
    return [_findings(r, views) for r in device]


@contextmanager
def _device_side(
    device: list[Rule], views: dict[str, DeviceView]
) -> Iterator[Callable[[], list[list[Finding]]]]:
    """A call giving the device rules' findings, one list per rule: computed by a forked child
    while the block runs the other rules when the fabric is large and there is a second core;
    in this process otherwise, and whenever the child fails (its findings are never lost)."""
    global _side
    _side = (device, views)
    try:
        if len(views) < ASIDE_FROM or workers() == 1:
            yield _per_rule
            return
        # frozen: the child's collections would otherwise write to (copy) every page they scan
        with long_lived(), ProcessPoolExecutor(1, mp_context=get_context("fork")) as pool:
            future = pool.submit(_per_rule)

            def collected() -> list[list[Finding]]:
                try:
                    # unpickled, each finding has its own set of fields: shared again (lean)
                    return [[lean(f) for f in per_rule] for per_rule in future.result()]
                except Exception:  # a broken child, an unpicklable finding: run them here
                    return _per_rule()

            yield collected
    finally:
        _side = ([], {})


def _intent_view(loaded: LoadedIntent, planned: Fabric, views: dict[str, DeviceView]) -> IntentView:
    def locate(loc: tuple[str, ...]) -> int | None:
        return line_of(loaded.lines, loc)

    designed = {d.hostname: d for d in planned.devices}
    return IntentView(loaded.intent, designed, views, loaded.file, locate)


def _lint_config(path: Path | None, known: set[str]) -> LintConfig:
    if path is not None:
        return load(path, known)
    default = Path(DEFAULT_FILE)
    return load(default, known) if default.is_file() else LintConfig()


def _view(parsed: Parsed, overlay: Path | None, options: Options) -> DeviceView:
    profile = load_profile(parsed.config.vendor, overlay)
    model = profile.spec_of(parsed.config.device.model)  # a stand-in for an unknown model
    return DeviceView(parsed, profile, model, parsed.text, options)


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
            line = view.source.line_of(anchor)
    detail = hit.detail
    if view is not None and hit.port is not None and r.reads and not hit.of_switch:
        detail = (*detail, *view.origins(r.reads, hit.port))
    # lean: a config of 100,000 ports has hundreds of thousands of findings (issue 27)
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
