"""``roce-cfg verify``: read every switch of the inventory (read-only commands only), parse what it
printed with its vendor's display data, and check it against the plan."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from roce_cfg.analysis.findings import Finding, LintResult
from roce_cfg.deploy.inventory import Target
from roce_cfg.deploy.push import Credentials
from roce_cfg.deploy.transport import Timeouts
from roce_cfg.errors import InputError
from roce_cfg.model.fabric import Fabric
from roce_cfg.verify.checks import Observed, Options, run_checks
from roce_cfg.verify.collect import Reading, read_all
from roce_cfg.verify.data import CHECKS, Display, UnreadOutput, load_display, parse
from roce_cfg.verify.rules import RULES

COUNTERS = ("pfc", "queue", "watchdog")  # read twice over a window
SKIPPABLE = (*CHECKS, "counters")


@dataclass
class Settings:
    window_s: float = 0.0
    skip: frozenset[str] = frozenset()
    unsourced: bool = False  # also use display entries without a source (roce-cfg's formats)
    workers: int = 10
    steps: Timeouts = field(default_factory=Timeouts)
    options: Options = field(default_factory=Options)
    overlay: Path | None = None


@dataclass
class Verified:
    result: LintResult
    seconds: float
    switches: int
    notes: list[str] = field(default_factory=list)


def load_plan(source: Path, overlay: Path | None = None) -> Fabric:
    """The plan: an intent (designed here), or a generated folder / its fabric.json, whose
    configs give each switch's planned lossless settings."""
    if source.is_dir() or source.suffix == ".json":
        from roce_cfg.inputs import discover, reading
        from roce_cfg.parse.hints import hints_from_plan, load_fabric

        found = discover(
            [source if source.is_dir() else source.parent], None, overlay, screen=False
        )
        if found.fabric is None:
            raise InputError("no fabric.json (the cabling plan) here", file=str(source))
        fabric = load_fabric(found.fabric)
        devices = []
        with reading(found, None, hints_from_plan(fabric), overlay) as outcomes:
            for _, one in outcomes:  # the plan is whole or refused: the first bad file says why
                if isinstance(one, InputError):
                    raise one
                devices.append(one.config.device)
        return fabric.model_copy(update={"devices": tuple(devices)})
    from roce_cfg.design.designer import plan
    from roce_cfg.intent.loader import load_intent

    return plan(load_intent(source), overlay)[0]


def usable(target: Target, settings: Settings) -> tuple[dict[str, Display], dict[str, str]]:
    """The display entries verify runs on ``target``, and why each other check (or the part of
    a check its command does not print) cannot run."""
    data = load_display(target.profile.vendor, settings.overlay)
    run, cannot = {}, {}
    for check in CHECKS:
        entry = data.checks.get(check)
        if check in settings.skip:
            continue
        if entry is None:
            cannot[check] = f"no display command for {check} on {data.vendor.value}"
        elif entry.status == "unsourced" and not settings.unsourced:
            cannot[check] = f"'{entry.command}' is unsourced: {entry.why} (--unsourced uses it)"
        else:
            run[check] = entry
            if entry.unverifiable:  # read, but part of what the check asks is not printed
                names = ", ".join(entry.unverifiable)
                cannot[f"{check} ({names})"] = f"'{entry.command}' prints no {names}: {entry.why}"
    return run, cannot


def verify(
    plan: Fabric,
    targets: list[Target],
    creds: Credentials,
    settings: Settings,
    progress: Callable[[int, int], None] | None = None,
) -> Verified:
    started = time.perf_counter()
    names = {s.hostname for s in plan.switches}
    notes = [f"{t.name}: not in the plan; not verified" for t in targets if t.name not in names]
    targets = [t for t in targets if t.name in names]
    plans = {t.name: usable(t, settings) for t in targets}
    findings: list[Finding] = []
    configured = {d.hostname for d in plan.devices}
    for t in targets:
        for check, why in plans[t.name][1].items():
            findings.append(_cannot(t.name, f"cannot verify {check}: {why}"))
        if t.name not in configured:  # a fabric.json without its configs: no planned PFC
            findings.append(
                _cannot(
                    t.name,
                    "cannot verify the lossless state: the plan has "
                    "no configuration for this switch",
                )
            )
    first = read_all(
        targets,
        creds,
        lambda t: {c: e.command for c, e in plans[t.name][0].items()},
        workers=settings.workers,
        steps=settings.steps,
        progress=progress,
    )
    entries = {name: p[0] for name, p in plans.items()}
    refusals = {t.name: (*t.profile.error_patterns, t.profile.dialect.error) for t in targets}
    read = Parsing(entries, refusals, findings, settings.overlay)
    obs = Observed(plan, read.all(first), entries, options=settings.options)
    if settings.window_s > 0 and "counters" not in settings.skip:
        _second_read(obs, targets, creds, settings, first, read, progress)
    findings.extend(run_checks(obs))
    findings.sort(key=Finding.sort_key)
    result = LintResult(findings, [], sorted(t.name for t in targets), notes)
    return Verified(result, time.perf_counter() - started, len(targets), notes)


def _second_read(
    obs: Observed,
    targets: list[Target],
    creds: Credentials,
    settings: Settings,
    first: dict[str, Reading],
    read: Parsing,
    progress: Callable[[int, int], None] | None,
) -> None:
    """Wait out the window after the first read, then read the counters again (of the switches
    that answered it: with none, there is nothing to wait for)."""
    answered = [t for t in targets if not first[t.name].error]
    if not answered:
        return
    time.sleep(settings.window_s)
    entries = {n: {c: e for c, e in es.items() if c in COUNTERS} for n, es in obs.entries.items()}
    again = read_all(
        answered,
        creds,
        lambda t: {c: e.command for c, e in entries[t.name].items()},
        workers=settings.workers,
        steps=settings.steps,
        progress=progress,
    )
    obs.second = read.all(again)
    obs.window_s = settings.window_s
    obs.spans = {n: again[n].at - first[n].at for n in again if again[n].at and first[n].at}


@dataclass
class Parsing:
    """Reads outputs into neutral records; what could not be read becomes a finding."""

    entries: dict[str, dict[str, Display]]
    refusals: dict[str, tuple[str, ...]]  # host -> what its CLI prints for a refused command
    findings: list[Finding]
    overlay: Path | None = None

    def all(self, readings: dict[str, Reading]) -> dict[str, dict[str, list[dict[str, str]]]]:
        out: dict[str, dict[str, list[dict[str, str]]]] = {}
        for host, reading in sorted(readings.items()):
            if reading.error:
                self.findings.append(
                    Finding(
                        rule="RV191",
                        severity=RULES["RV191"].severity,
                        device=host,
                        message=f"not read: {reading.error}",
                    )
                )
                continue
            mine = out.setdefault(host, {})
            for check, why in reading.failed.items():
                self._cannot(host, check, f"failed: {why}")
            for check, text in reading.outputs.items():
                records = self.one(host, check, text)
                if records is not None:
                    mine[check] = records
        return out

    def one(self, host: str, check: str, text: str) -> list[dict[str, str]] | None:
        refused = next((e for e in self.refusals.get(host, ()) if e and e in text), None)
        if refused is not None:
            self._cannot(host, check, f"refused by the switch ({refused})")
            return None
        try:
            return parse(self.entries[host][check], text, self.overlay)
        except UnreadOutput as exc:
            self._cannot(host, check, f"output not readable ({exc})")
            return None

    def _cannot(self, host: str, check: str, why: str) -> None:
        command = self.entries[host][check].command
        self.findings.append(_cannot(host, f"cannot verify {check}: '{command}' {why}"))


def _cannot(host: str, message: str) -> Finding:
    return Finding(rule="RV190", severity=RULES["RV190"].severity, device=host, message=message)


_WINDOW = re.compile(r"^(\d+(?:\.\d+)?)\s*(ms|s|m)?$")


def parse_window(spec: str) -> float:
    """'30s', '2m', '500ms', '0' -> seconds (at most an hour).

    >>> parse_window("30s"), parse_window("500ms"), parse_window("2m")
    (30.0, 0.5, 120.0)
    """
    found = _WINDOW.match(spec.strip())
    if not found:
        raise InputError(f"--window: '{spec[:40]}' is not a duration such as 30s, 500ms, 2m")
    scale = {"ms": 0.001, "s": 1.0, "m": 60.0, None: 1.0}[found.group(2)]
    seconds = float(found.group(1)) * scale
    if seconds > 3600:
        raise InputError("--window: at most 1 hour")
    return seconds


def parse_skip(spec: str) -> frozenset[str]:
    """'queue,watchdog' -> the checks not to run (one of SKIPPABLE each)."""
    names = frozenset(p.strip() for p in spec.split(",") if p.strip())
    unknown = sorted(names - set(SKIPPABLE))
    if unknown:
        raise InputError(f"--skip: no check {unknown[0]!r} (checks: {', '.join(SKIPPABLE)})")
    return names


def after_push(
    configs: Path, targets: list[Target], changed: set[str], creds: Credentials, settings: Settings
) -> Verified | None:
    """'push --verify live': the same checks on the switches push just changed, against the
    plan of the folder it pushed (fabric.json and configs); None when nothing changed."""
    mine = [t for t in targets if t.name in changed]
    if not mine:
        return None
    return verify(load_plan(configs, settings.overlay), mine, creds, settings)
