"""Everything the documents and the HTML report show, gathered once from an intent or a folder
of configs: devices, links, rails, lint findings, deadlock cycles, headroom and buffer budgets."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from roce_cfg.advise import BillOfMaterials, bill_of_materials
from roce_cfg.analysis import Finding, lint, lint_designed
from roce_cfg.analysis.context import DeviceView
from roce_cfg.analysis.rules_deadlock import BEYOND_LINT, deadlock_findings, not_covered
from roce_cfg.analysis.rules_headroom import needs
from roce_cfg.deadlock import Source, from_parsed, from_plan
from roce_cfg.deadlock.analyse import Report as DeadlockReport
from roce_cfg.deadlock.run import Failures
from roce_cfg.deadlock.run import run as run_deadlock
from roce_cfg.generate import Generated, generate
from roce_cfg.heap import bulk_objects, long_lived
from roce_cfg.intent.loader import load_intent
from roce_cfg.model.device import DeviceConfig
from roce_cfg.model.fabric import Fabric
from roce_cfg.model.order import natural
from roce_cfg.output import write_all
from roce_cfg.parse.cache import ParseCache
from roce_cfg.parse.whole_plan import KeptPlan, whole_plan
from roce_cfg.redact import redact
from roce_cfg.safepath import file_name


@dataclass
class HeadroomPoint:
    device: str
    port: str
    speed_gbps: int
    cable_m: float
    priority: int
    required: int
    configured: int | None


@dataclass
class Budget:
    device: str
    used: int  # headroom over all lossless port priorities
    capacity: int | None  # headroom pool, or packet buffer, when known
    what: str
    model: str = ""  # vendor and model, named where the buffer size is not published


@dataclass
class ReportData:
    name: str
    source: str
    devices: list[DeviceConfig]
    links: list[tuple[str, str, str, str]]
    findings: list[Finding]
    deadlock: DeadlockReport
    plan: Fabric | None = None
    # a folder's fabric.json as the HTML page reads it, kept in the cache folder (``plan`` None)
    kept: KeptPlan | None = None
    configs: Mapping[str, str] = field(default_factory=dict)  # hostname -> config text
    headroom: list[HeadroomPoint] = field(default_factory=list)
    budgets: list[Budget] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # files of the folder that were skipped
    checked: Literal["designed", "parsed"] = "parsed"  # what was linted: a key of CHECKED
    # what the deadlock verdict does not cover (configs not read, switches partly read, gaps)
    unverified: list[str] = field(default_factory=list)
    _rails: dict[str, int | None] = field(default_factory=dict, repr=False)

    @property
    def bom(self) -> BillOfMaterials | None:
        """The bill of materials, when the fabric's plan (intent or fabric.json) is known."""
        if self.plan is not None:
            return bill_of_materials(self.plan)
        return bill_of_materials(self.kept.plan) if self.kept is not None else None

    def pods(self) -> dict[str, int | None]:
        """Each planned switch's pod (none without a plan)."""
        if self.plan is not None:
            return {s.hostname: s.pod for s in self.plan.switches}
        if self.kept is not None:
            return self.kept.by_switch(self.kept.pods)
        return {}

    def rail_of(self, device: DeviceConfig) -> int | None:
        if self.plan is not None or self.kept is not None:
            if not self._rails:
                self._rails = self._planned_rails()
            rail = self._rails.get(device.hostname)
            if rail is not None:
                return rail
        vlans = sorted({i.access_vlan for i in device.interfaces if i.access_vlan})
        return vlans[0] if vlans else None

    def _planned_rails(self) -> dict[str, int | None]:
        if self.plan is not None:
            return {s.hostname: s.rail for s in self.plan.switches}
        assert self.kept is not None  # rail_of's
        return self.kept.by_switch(self.kept.rails)


#: What the findings were judged on, as ``report --format json`` (key ``checked``), the page and
#: the documents' index say it.
CHECKED = {
    "designed": "the switches as designed (the model their configs were rendered from; their "
    "rendered lines checked against the vendor grammar)",
    "parsed": "the configs as parsed from their text",
}


@bulk_objects()  # millions of models alive at xl: default thresholds rescan them
def gather(
    source: Path,
    failures: Failures | None = None,
    *,
    round_trip: bool = False,
    cache: ParseCache | None = None,
    page: bool = False,
) -> ReportData:
    """From an intent (designed and rendered here) or a folder of configs (with fabric.json
    when it has one), those ``cache`` holds not parsed again. An intent's switches are linted
    as designed; ``round_trip`` parses the rendered configs back and lints those instead (a
    self-check: the findings must agree). ``page``: only what the HTML page shows of a
    folder's fabric.json is needed (``ReportData.kept`` when the cache folder keeps it)."""
    failures = failures or Failures()
    if source.is_file() and source.suffix in (".yaml", ".yml"):
        return _of_intent(source, failures, round_trip)
    folder = source.parent if source.name == "fabric.json" else source
    result = lint([folder], cache=cache)
    fabric_json = folder / "fabric.json"
    # the documents read all of fabric.json: it is kept for the page alone
    kept = cache if page else None
    planned = whole_plan(fabric_json, kept) if fabric_json.is_file() else None
    rows = planned.plan if isinstance(planned, KeptPlan) else planned
    # The configs lint just parsed, not a second parse: the analyser's default DSCP (26).
    parsed = [v.parsed for v in result.views.values()]
    # the same fabric.json's links as lint's: its evidence serves when over the same switches
    src = from_parsed(parsed, rows, None, str(folder), result.facts)
    data = _data(folder.name, str(folder), result.views, result.findings, src, failures)
    if isinstance(planned, KeptPlan):
        data.kept = planned
    else:
        data.plan = planned
    data.notes = result.skipped
    data.configs = Redacted(result.views)
    return data


class Redacted(Mapping[str, str]):
    """Each switch's config text redacted (saved running-configs hold credentials) when it is
    first read: the documents show each switch's, the HTML page none (redacting the 1,280
    configs of the xl fabric was a second of every report)."""

    def __init__(self, views: Mapping[str, DeviceView]) -> None:
        self._views = views
        self._done: dict[str, str] = {}

    def __getitem__(self, name: str) -> str:
        done = self._done.get(name)
        if done is None:
            view = self._views[name]
            done = self._done[name] = redact(view.text, view.parsed.config.vendor.value)
        return done

    def __iter__(self) -> Iterator[str]:
        return iter(self._views)

    def __len__(self) -> int:
        return len(self._views)


def _of_intent(source: Path, failures: Failures, round_trip: bool) -> ReportData:
    generated = generate(source)  # rendered, and every line checked against the grammar
    with long_lived():  # the design lives to the end: lint and deadlock need not rescan it
        if round_trip:
            views, findings = _parsed_back(source, generated)
        else:
            result = lint_designed(generated.fabric, generated.configs, source)
            views, findings = result.views, result.findings
        dscp = load_intent(source).intent.lossless.roce.dscp
        src = from_plan(generated.fabric, dscp, str(source))
        data = _data(generated.fabric.name, str(source), views, findings, src, failures)
    data.checked = "parsed" if round_trip else "designed"
    data.plan = generated.fabric
    data.configs = dict(generated.configs)
    return data


def _parsed_back(source: Path, generated: Generated) -> tuple[dict[str, DeviceView], list[Finding]]:
    """Lint of the rendered configs written out and parsed back, files named as generate names
    them (fabric.json is not needed: lint checks them against the design it is given)."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "configs"
        files = {
            file_name(h, ".cfg", what="hostname"): text for h, text in generated.configs.items()
        }
        write_all(folder, files, redact=False)
        result = lint([folder], intent=source, designed=generated.fabric)
    findings = [
        f.model_copy(update={"file": Path(f.file).name if f.file and tmp in f.file else f.file})
        for f in result.findings
    ]
    return result.views, findings


def _data(
    name: str,
    origin: str,
    views: dict[str, DeviceView],
    findings: list[Finding],
    src: Source,
    failures: Failures,
) -> ReportData:
    report = run_deadlock(src, failures)
    result = deadlock_findings(src, report)
    points: list[HeadroomPoint] = []
    budgets: list[Budget] = []
    for host, view in sorted(views.items(), key=lambda kv: natural(kv[0])):
        ns = needs(view)
        points.extend(
            HeadroomPoint(
                host,
                n.port.name,
                n.port.speed_gbps,
                n.cable_m,
                n.priority,
                n.required,
                n.configured,
            )
            for n in ns
        )
        used = sum(n.configured if n.configured is not None else n.required for n in ns)
        pool = view.device.qos.headroom_pool_bytes or view.model.headroom_pool_bytes
        capacity = pool or view.model.buffer_bytes
        what = "headroom pool" if pool else "packet buffer" if capacity else "not published"
        model = f"{view.device.vendor.value} {view.device.model}"
        budgets.append(Budget(host, used, capacity, what, model))
    # One list, as 'lint --deadlock' gives it: lint's findings and the analysis's own rules.
    beyond = [f for f in result.findings if f.rule in BEYOND_LINT]
    return ReportData(
        name=name,
        source=origin,
        devices=[views[h].device for h in sorted(views, key=natural)],
        links=src.links,
        findings=sorted([*findings, *beyond], key=Finding.sort_key),
        deadlock=report,
        headroom=points,
        budgets=budgets,
        unverified=not_covered(result),
    )
