"""Lint: per-device, headroom, fabric and intent rules over parsed running-configs.

``lint()`` parses the given configs (with hints from fabric.json or the intent when given), runs
every registered rule and returns located findings, suppressions applied.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from pathlib import Path

from roce_cfg.analysis.context import (
    DeviceView,
    FabricLink,
    FabricView,
    LinkEnd,
    Options,
    infer_links,
)
from roce_cfg.analysis.findings import Finding, LintResult
from roce_cfg.analysis.registry import Hit, Rule, rules
from roce_cfg.analysis.rules_intent import IntentView
from roce_cfg.analysis.suppress import DEFAULT_FILE, LintConfig, apply, inline, load
from roce_cfg.errors import InputError
from roce_cfg.generate import plan
from roce_cfg.heap import bulk_objects
from roce_cfg.intent.loader import LoadedIntent, load_intent
from roce_cfg.intent.models import Vendor
from roce_cfg.intent.yamlsrc import line_of
from roce_cfg.model.fabric import Fabric
from roce_cfg.parse import Hints, Parsed
from roce_cfg.parse.hints import hints_from_plan, load_fabric
from roce_cfg.parse.many import parse_many
from roce_cfg.platforms.profile import load_profile

__all__ = ["Finding", "LintResult", "Options", "lint"]


def config_files(paths: Iterable[Path]) -> tuple[list[Path], Path | None]:
    """Config files among ``paths`` (directories expanded) and a fabric.json found beside them."""
    files: list[Path] = []
    fabric: Path | None = None
    for path in paths:
        if path.is_dir():
            for p in sorted(path.iterdir()):
                if p.name == "fabric.json":
                    _regular(p)
                    fabric = fabric or p
                elif (
                    p.is_file()
                    and not p.name.startswith(".")
                    and p.suffix not in (".json", ".yaml")
                ):
                    files.append(p)
        elif path.name == "fabric.json":
            fabric = path
        else:
            files.append(path)
    return files, fabric


def _regular(path: Path) -> None:
    """A fabric.json found in a folder is read whole: a FIFO there would block forever and a
    link to /dev/zero would fill memory up to the size cap."""
    if not path.is_file():
        raise InputError("not a regular file (a fabric.json is one)", file=str(path))


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
) -> LintResult:
    """``designed`` is ``intent``'s fabric when the caller has designed it already."""
    options = options or Options()
    all_rules = rules()
    files, found_fabric = config_files(paths)
    if not files:
        raise InputError("no config files to lint")
    fabric = fabric or (found_fabric if intent is None else None)
    lint_config = _lint_config(config, {r.id for r in all_rules})

    planned: Fabric | None = None
    intent_view_parts = None
    hints: dict[str, Hints] = {}
    if intent is not None:
        loaded = load_intent(intent)
        planned = designed if designed is not None else plan(loaded, overlay)[0]
        hints = hints_from_plan(planned)
        pol = loaded.intent.lossless
        options = replace(
            options,
            roce_dscp=pol.roce.dscp,
            cnp_dscp=pol.cnp.dscp,
        )
        intent_view_parts = loaded
    elif fabric is not None:
        planned = load_fabric(fabric)
        hints = hints_from_plan(planned)
    if planned is not None:
        cables = {(n.switch, n.port): n.cable_m for n in planned.nics}
        for k in planned.links:
            cables[(k.a_device, k.a_port)] = k.cable_m
            cables[(k.b_device, k.b_port)] = k.cable_m
        vlans: dict[int, set[str]] = {}
        for rail in planned.rails:
            vlans.setdefault(rail.vlan, set()).add(rail.switch)
        options = replace(
            options,
            cables={**cables, **options.cables},
            vlan_switches={v: frozenset(s) for v, s in vlans.items()},
        )

    views: dict[str, DeviceView] = {}
    for n, parsed in enumerate(parse_many(files, vendor, hints, overlay), 1):
        if progress is not None:
            progress(n, len(files))
        view = _view(parsed, overlay, options)
        path = files[n - 1]
        if view.name in views:
            raise InputError(
                f"hostname {view.name} also in {views[view.name].file}; one config per switch",
                file=str(path),
            )
        views[view.name] = view

    if options.roce_dscp is None:
        from roce_cfg.policy import fabric_roce_dscp

        dscp, _ = fabric_roce_dscp((v.device for v in views.values()), None)
        options = replace(options, roce_dscp=dscp)
        for view in views.values():
            view.options = options

    if planned is not None:
        links = [
            FabricLink(LinkEnd(k.a_device, k.a_port), LinkEnd(k.b_device, k.b_port), k.cable_m)
            for k in planned.links
        ]
    else:
        links = infer_links(views)
    fabric_view = FabricView(views, links, options, planned=planned is not None)

    iv = _intent_view(intent_view_parts, planned, views) if intent_view_parts and planned else None
    findings: list[Finding] = []
    for r in all_rules:
        if r.scope == "device":
            for view in views.values():
                findings.extend(_locate(r, h, views, view.name) for h in r.check(view))
        elif r.scope == "fabric":
            findings.extend(_locate(r, h, views) for h in r.check(fabric_view))
        elif iv is not None:
            for h in r.check(iv):
                f = _locate(r, h, views)
                if f.file is None and h.device == iv.intent.name:
                    f = f.model_copy(update={"file": iv.file})
                findings.append(f)

    per_device = {name: inline(v.text) for name, v in views.items()}
    findings = apply(findings, lint_config, per_device)
    findings.sort(key=Finding.sort_key)
    notes = [f"{v.file}: {note}" for v in views.values() for note in v.parsed.config.notes]
    return LintResult(findings, [str(f) for f in files], sorted(views), notes, views)


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
    model = profile.models[parsed.config.device.model]
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
    return Finding(
        rule=r.id,
        severity=r.severity,
        device=name,
        file=view.file if view else None,
        line=line,
        port=hit.port,
        message=hit.message,
        related_device=hit.related_device,
        related_port=hit.related_port,
        detail=hit.detail,
    )
