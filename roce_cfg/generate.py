"""generate: intent file -> Fabric -> rendered configs, held in memory until all succeed."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from roce_cfg.design import design
from roce_cfg.errors import PlanError, SyntaxProvenanceError
from roce_cfg.heap import bulk_objects
from roce_cfg.intent.loader import LoadedIntent, load_intent
from roce_cfg.intent.models import Vendor
from roce_cfg.model.fabric import Fabric, SectionUse
from roce_cfg.platforms.profile import VendorProfile, load_profile
from roce_cfg.render import Renderer


@dataclass
class Generated:
    fabric: Fabric
    configs: dict[str, str]
    warnings: list[SectionUse]


@bulk_objects()
def plan(loaded: LoadedIntent, overlay: Path | None) -> tuple[Fabric, dict[Vendor, VendorProfile]]:
    fab = loaded.intent.fabric
    roles = [r for r in (fab.leaf, fab.spine, fab.switch) if r is not None]
    profiles = {r.vendor: load_profile(r.vendor, overlay) for r in roles}
    try:
        return design(loaded.intent, profiles), profiles
    except PlanError as err:
        raise loaded.from_plan(err) from None


@bulk_objects()
def generate(
    intent_path: Path,
    *,
    overlay: Path | None = None,
    only: str | None = None,
    strict_syntax: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> Generated:
    loaded = load_intent(intent_path)
    fabric, profiles = plan(loaded, overlay)
    return render_fabric(
        fabric, profiles, overlay=overlay, only=only, strict_syntax=strict_syntax, progress=progress
    )


@bulk_objects()
def render_fabric(
    fabric: Fabric,
    profiles: dict[Vendor, VendorProfile],
    *,
    overlay: Path | None = None,
    only: str | None = None,
    strict_syntax: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> Generated:
    """Every switch's configuration text (or only one), with the provenance of its sections."""
    renderers = {v: Renderer(p, overlay) for v, p in profiles.items()}
    configs: dict[str, str] = {}
    used: dict[tuple[Vendor, str], int] = defaultdict(int)
    for n, device in enumerate(fabric.devices, 1):
        if progress is not None:
            progress(n, len(fabric.devices))
        if only is not None and device.hostname != only:
            continue
        profile = profiles[device.vendor]
        _, model = profile.model_spec(device.model)
        out = renderers[device.vendor].render(device, model)
        if any(i.breakout_of for i in device.interfaces):
            out.sections.add("breakout")
        configs[device.hostname] = out.text
        for name in out.sections:
            used[(device.vendor, name)] += 1
    if only is not None and not configs:
        names = ", ".join(d.hostname for d in fabric.devices[:8])
        raise PlanError(("--only",), f"no switch named '{only}' (switches: {names}, ...)")
    syntax = tuple(_use(profiles[v], v, name, n) for (v, name), n in sorted(used.items()))
    warnings = [s for s in syntax if s.status == "unverified"]
    if strict_syntax and warnings:
        listed = ", ".join(f"{w.vendor.value} {w.section}" for w in warnings)
        raise SyntaxProvenanceError(
            f"--strict-syntax: unverified vendor syntax in {listed}; nothing written"
        )
    return Generated(fabric.model_copy(update={"syntax": syntax}), configs, warnings)


def _use(profile: VendorProfile, vendor: Vendor, name: str, switches: int) -> SectionUse:
    prov = profile.sections.get(name)
    if prov is None:
        return SectionUse(
            vendor=vendor,
            section=name,
            status="unverified",
            note="section has no provenance entry in the vendor profile",
            switches=switches,
        )
    return SectionUse(
        vendor=vendor,
        section=name,
        status=prov.status,
        source=prov.source,
        note=prov.note,
        switches=switches,
    )


def output_files(result: Generated, fmt: str = "cfg") -> dict[str, str]:
    """File name -> text: one config (or model as JSON) per switch and fabric.json."""
    files: dict[str, str] = {}
    for device in result.fabric.devices:
        if device.hostname not in result.configs:
            continue
        if fmt == "json":
            files[f"{device.hostname}.json"] = device.model_dump_json(indent=2) + "\n"
        else:
            files[f"{device.hostname}.cfg"] = result.configs[device.hostname]
    plan = result.fabric.model_dump(mode="json", exclude={"devices"})
    files["fabric.json"] = json.dumps(plan, indent=2, sort_keys=True) + "\n"
    return files
