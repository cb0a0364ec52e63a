"""The lint command's work: the configs parsed (with hints from fabric.json or the intent when
given), or the designed switches taken as their parse would give them, each made a view, and
the views judged by the rule engine (engine.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from roce_cfg.analysis.context import DeviceView, Options
from roce_cfg.analysis.engine import judge
from roce_cfg.analysis.findings import LintResult
from roce_cfg.analysis.registry import rules
from roce_cfg.analysis.suppress import DEFAULT_FILE, LintConfig, load
from roce_cfg.errors import InputError
from roce_cfg.heap import bulk_objects
from roce_cfg.inputs import Found, Unread, discover, reading
from roce_cfg.model.device import DeviceConfig
from roce_cfg.model.fabric import Fabric
from roce_cfg.parse import Hints, Parsed, ParsedConfig, redacted
from roce_cfg.parse.cache import ParseCache
from roce_cfg.parse.hints import EarlyPlan, LintPlan, hints_from_plan, with_speeds
from roce_cfg.parse.plan_cache import lint_plan
from roce_cfg.platforms.profile import load_profile
from roce_cfg.safepath import file_name
from roce_cfg.vendor import Vendor

if TYPE_CHECKING:  # the intent's loader and the designer: imported by a lint given an intent
    from roce_cfg.intent.loader import LoadedIntent


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
    cache: ParseCache | None = None,
) -> LintResult:
    """``designed`` is ``intent``'s fabric when the caller has designed it already; ``found``
    is ``paths`` discovered when the caller has done that (and printed its notes); ``cache``
    holds the parses of configs read before (roce_cfg/parse/cache.py)."""
    all_rules = rules()
    found = found or discover(paths, vendor, overlay, screen=False)
    if not found.configs and not found.unread:
        raise InputError("no config files to lint")
    fabric = fabric or (found.fabric if intent is None else None)
    lint_config = _lint_config(config, {r.id for r in all_rules})
    loaded = _loaded(intent) if intent is not None else None
    plan = _Plan.of(loaded, fabric, designed, overlay, cache)
    hints = with_speeds(plan.hints, options.speeds) if options else plan.hints
    failed: list[Unread] = []
    with reading(found, vendor, hints, overlay, progress, cache) as parsed:
        planned = plan.validated()  # while the workers parse; a bad plan stops them
        options = _with_plan(options or Options(), loaded, planned)
        views = _views(parsed, overlay, options, failed)
    unread = [*found.unread, *failed]  # the screen's refusals first, as discovery reports them
    if not views and not unread:  # a folder of notes, READMEs, dumps: no config at all
        raise InputError("no config files to lint")
    if not views:  # nothing usable at all: the input is bad, not the fabric
        raise unread[0].as_error()
    return judge(all_rules, views, planned, options, loaded, lint_config, unread, found, cache)


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
    (most of the time of an xl report). The text stays for the lines findings cite
    (read on demand, only for devices with findings) and for RC404's count, which a rendered
    config meets by construction. ``report --round-trip`` checks that both ways agree."""
    all_rules = rules()
    lint_config = _lint_config(config, {r.id for r in all_rules})
    loaded = _loaded(intent)
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
    return judge(all_rules, views, designed, options, loaded, lint_config, [], found)


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


def _loaded(intent: Path) -> LoadedIntent:
    """The intent read; its loader (the intent's models) imported only when there is one:
    a lint of a folder neither reads nor imports them."""
    from roce_cfg.intent.loader import load_intent

    return load_intent(intent)


class _Plan:
    """The plan the configs are checked against: the intent's design, or a fabric.json (only
    what lint reads of it: 40 MB at xl, parse/hints.py) whose hints come first, so that the
    parse can start on them while it is validated (``EarlyPlan``), or kept in the parse cache's
    folder when fabric.json has not changed (parse/plan_cache.py)."""

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
        cache: ParseCache | None,
    ) -> _Plan:
        if loaded is not None:
            from roce_cfg.design.designer import plan

            return cls(designed if designed is not None else plan(loaded, overlay)[0])
        return cls(None, lint_plan(fabric, cache)) if fabric is not None else cls(None)

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


def _lint_config(path: Path | None, known: set[str]) -> LintConfig:
    if path is not None:
        return load(path, known)
    default = Path(DEFAULT_FILE)
    return load(default, known) if default.is_file() else LintConfig()


def _view(parsed: Parsed, overlay: Path | None, options: Options) -> DeviceView:
    profile = load_profile(parsed.config.vendor, overlay)
    model = profile.spec_of(parsed.config.device.model)  # a stand-in for an unknown model
    return DeviceView(parsed, profile, model, parsed.text, options)
