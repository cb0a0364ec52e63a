"""generate: intent file -> Fabric -> rendered configs, all of them or none."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from roce_cfg.design.designer import Designer, plan, profiles_for
from roce_cfg.errors import GrammarViolation, PlanError, SyntaxProvenanceError
from roce_cfg.grammar import Grammar, grade, grammar_path, load_grammar
from roce_cfg.heap import bulk_objects
from roce_cfg.intent.loader import load_intent
from roce_cfg.jsontext import sorted_json
from roce_cfg.model.device import DeviceConfig
from roce_cfg.model.fabric import Fabric, SectionUse
from roce_cfg.output import staged
from roce_cfg.platforms.profile import VendorProfile
from roce_cfg.render import Renderer
from roce_cfg.safepath import file_name
from roce_cfg.vendor import Vendor


@dataclass
class Generated:
    fabric: Fabric
    configs: dict[str, str]
    warnings: list[SectionUse]


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


class _Render:
    """Renders switches one by one and keeps count of the sections each vendor used."""

    def __init__(self, profiles: dict[Vendor, VendorProfile], overlay: Path | None) -> None:
        self.profiles = profiles
        self.renderers = {v: Renderer(p, overlay) for v, p in profiles.items()}
        self.grammars: dict[Vendor, Grammar] = {v: load_grammar(v.value, overlay) for v in profiles}
        # An overlay's own templates are checked only against the overlay's own grammar: with
        # templates and no grammar of its own, the operator's lines are theirs to vouch for.
        self.enforce = {
            v: overlay is None
            or not (overlay / "templates" / v.value).is_dir()
            or grammar_path(v.value, overlay).is_relative_to(overlay)
            for v in profiles
        }
        self.used: dict[tuple[Vendor, str], int] = defaultdict(int)
        # worst grade per (vendor, section) of the commands it emitted, for the models used
        self.graded: dict[tuple[Vendor, str], str] = {}

    def __call__(self, device: DeviceConfig) -> str:
        _, model = self.profiles[device.vendor].model_spec(device.model)
        out = self.renderers[device.vendor].render(device, model)
        if any(i.breakout_of for i in device.interfaces):
            out.sections.add("breakout")
        for name in out.sections:
            self.used[(device.vendor, name)] += 1
        grammar = self.grammars[device.vendor]
        checked = grammar.check(out.text, device.model)
        if checked.violations and self.enforce[device.vendor]:
            bad = checked.violations[0]
            more = len(checked.violations) - 1
            raise GrammarViolation(
                f"{device.hostname}: {bad}"
                + (f" (and {more} more)" if more else "")
                + f"; vendors/{device.vendor.value}.grammar.yaml; nothing written"
            )
        for section, status in grade(grammar, device.model, checked.used).items():
            key = (device.vendor, section)
            self.graded[key] = _worse(self.graded.get(key, "verified"), status)
        return out.text

    def syntax(self, strict: bool) -> tuple[tuple[SectionUse, ...], list[SectionUse]]:
        """Provenance of every section used, and the unverified ones (refused if ``strict``)."""
        syntax = tuple(
            _use(self.profiles[v], v, name, n, self.graded.get((v, name)))
            for (v, name), n in sorted(self.used.items())
        )
        warnings = [s for s in syntax if s.status == "unverified"]
        if strict and warnings:
            listed = ", ".join(f"{w.vendor.value} {w.section}" for w in warnings)
            raise SyntaxProvenanceError(
                f"--strict-syntax: unverified vendor syntax in {listed}; nothing written"
            )
        return syntax, warnings


def _no_such(only: str, names: list[str]) -> PlanError:
    listed = ", ".join(names[:8])
    return PlanError(("--only",), f"no switch named '{only}' (switches: {listed}, ...)")


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
    render = _Render(profiles, overlay)
    configs: dict[str, str] = {}
    for n, device in enumerate(fabric.devices, 1):
        if progress is not None:
            progress(n, len(fabric.devices))
        if only is None or device.hostname == only:
            configs[device.hostname] = render(device)
    if only is not None and not configs:
        raise _no_such(only, [d.hostname for d in fabric.devices])
    syntax, warnings = render.syntax(strict_syntax)
    return Generated(fabric.model_copy(update={"syntax": syntax}), configs, warnings)


@dataclass
class Written:
    """What ``write_generated`` wrote: the plan (without device models), per-kind counts."""

    fabric: Fabric
    files: int
    warnings: list[SectionUse]
    kinds: dict[tuple[str, str, str], Counter[str]]  # (role, vendor, model) -> counts


@bulk_objects()
def write_generated(
    intent_path: Path,
    output: Path,
    *,
    fmt: str = "cfg",
    overlay: Path | None = None,
    only: str | None = None,
    strict_syntax: bool = False,
    progress: Callable[[int, int], None] | None = None,
    force: bool = False,
) -> Written:
    """``generate`` straight to disk: each switch is designed, rendered and staged in turn and
    then dropped, so memory holds the topology and one switch, not every switch's model and
    text. Nothing lands in ``output`` unless every switch succeeded; a folder holding files
    roce-cfg did not write is refused unless ``force`` (see ``output.staged``)."""
    loaded = load_intent(intent_path)
    profiles = profiles_for(loaded, overlay)
    render = _Render(profiles, overlay)
    kinds: dict[tuple[str, str, str], Counter[str]] = {}
    names: list[str] = []
    try:
        designer = Designer(loaded.intent, profiles)
        total = len(designer.topo.switches)
        # The folder becomes this output (--only: joins roce-cfg's previous output there).
        # Intended configs rendered from the intent (which holds no secrets): push sends
        # them as written, so they are not redacted.
        with staged(output, "replace" if only is None else "update", force, redact=False) as put:
            for n, device in enumerate(designer.devices(), 1):
                if progress is not None:
                    progress(n, total)
                names.append(device.hostname)
                if only is not None and device.hostname != only:
                    continue
                # JSON output still renders: provenance counts the sections a switch would use.
                put(*_device_file(device, render(device), fmt))
                c = kinds.setdefault((device.role, device.vendor.value, device.model), Counter())
                c["switches"] += 1
                c["ports"] += len(device.interfaces)
                c["VLANs"] += len(device.vlans)
            if only is not None and not kinds:
                raise _no_such(only, names)
            syntax, warnings = render.syntax(strict_syntax)
            fabric = designer.fabric().model_copy(update={"syntax": syntax})
            put("fabric.json", _plan_json(fabric))
    except PlanError as err:
        if err.loc == ("--only",):
            raise
        raise loaded.from_plan(err) from None
    return Written(fabric, sum(c["switches"] for c in kinds.values()), warnings, kinds)


def _plan_json(fabric: Fabric) -> str:
    return sorted_json(fabric.model_dump(mode="json", exclude={"devices"})) + "\n"


_RANK = {"verified": 0, "user": 0, "partial": 1, "unverified": 2}


def _worse(a: str, b: str) -> str:
    return a if _RANK.get(a, 2) >= _RANK.get(b, 2) else b


def _use(
    profile: VendorProfile, vendor: Vendor, name: str, switches: int, graded: str | None = None
) -> SectionUse:
    """A section's provenance: the profile's status, lowered to what the grammar grades the
    commands it emitted for the models used (``verified`` only if every one is sourced)."""
    prov = profile.sections.get(name)
    if prov is None:
        return SectionUse(
            vendor=vendor,
            section=name,
            status="unverified",
            note="section has no provenance entry in the vendor profile",
            switches=switches,
        )
    status: str = prov.status
    note = prov.note
    if graded is not None and status != "user" and _worse(status, graded) != status:
        status = graded
        extra = "grammar: not every command of this section is sourced for the models used"
        note = f"{note}; {extra}" if note else extra
    return SectionUse(
        vendor=vendor,
        section=name,
        status=status,
        source=prov.source,
        note=note,
        switches=switches,
    )


def output_files(result: Generated, fmt: str = "cfg") -> dict[str, str]:
    """File name -> text: one config (or model as JSON) per switch and fabric.json."""
    files = dict(
        _device_file(d, result.configs[d.hostname], fmt)
        for d in result.fabric.devices
        if d.hostname in result.configs
    )
    files["fabric.json"] = _plan_json(result.fabric)
    return files


def _device_file(device: DeviceConfig, text: str, fmt: str) -> tuple[str, str]:
    """One switch's file: its config text, or its model as JSON."""
    if fmt == "json":
        return file_name(device.hostname, ".json", what="hostname"), device.model_dump_json(
            indent=2
        ) + "\n"
    return file_name(device.hostname, ".cfg", what="hostname"), text
