"""The device rules' findings kept per switch, so that lint of a folder where one config changed
runs the device rules on that switch alone.

A device rule looks at one switch's view and nothing else: its parse (a function of the config's
bytes, path, the --vendor given, the hints from fabric.json or the intent, and roce-cfg's code
and vendor data: the parse cache's digest, ``Parsed.digest``), the role the topology gave it where
the parse only guessed one, and lint's options (the cable lengths and rail VLANs of the plan, the
DSCPs given or agreed by the fabric). Per switch a key hashes all of these; its findings are, per
device rule, those located in its file whose own end concludes (roce_cfg/analysis/context.py's
``concludes``): the far end a finding names is judged again on every run, since that switch may
have changed. The last run's findings of every switch are one entry (``dev-<hash>.json.z``
beside the parse cache's entries, counted in its bound), named by what its keys share (the
stamp, the options, the device rules), rewritten when a switch's key is not in it or one of its
switches is gone: it holds the switches of that run alone. Anything else, or any doubt (an entry
that cannot be read or validated, findings of another switch), means the rules run. Written
through roce_cfg/output.py, read through roce_cfg/safepath.py, as the parse cache's entries,
and sealed (roce_cfg/seal.py, under a key for these entries alone): an entry edited in the folder
to replay a failing switch as clean, or copied from another entry's name, is refused before it
is inflated, and the rules run.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from roce_cfg.analysis.context import DeviceView, Options
from roce_cfg.analysis.findings import Finding
from roce_cfg.memo import made, touch
from roce_cfg.model.device import lean
from roce_cfg.parse.cache import MAX_BYTES, SUFFIX, ParseCache, trim
from roce_cfg.seal import Seal, write_cached

FORMAT = "roce-cfg/device-findings/v3"
# What the MAC key of these entries is derived for (cache_key.subkey): these entries alone.
_USE = "device findings"
PREFIX = "dev-"
# A fabric of 100,000-port switches may have millions of findings.
MAX_ENTRY_BYTES = 64 * 2**20
MAX_JSON_BYTES = 1024 * 2**20

# The findings of one switch: one list per device rule, in the rules' order.
PerRule = list[list[Finding]]


class _Entry(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    format: Literal["roce-cfg/device-findings/v3"]
    shared: str
    rules: list[str]
    # each switch's key (``DeviceCache.key``) -> its findings
    switches: dict[str, PerRule]


@dataclass
class DeviceCache:
    """Where the entry is, what every switch's key shares (the parse cache's stamp, the
    device rules and lint's options) and the seal of its entries."""

    folder: Path
    shared: str
    rules: tuple[str, ...]
    seal: Seal
    _kept: dict[str, PerRule] = field(default_factory=dict)

    @classmethod
    def of(cls, cache: ParseCache, rules: Sequence[str], options: Options) -> DeviceCache | None:
        """The entry of these rules and options beside ``cache``; None without a seal."""
        seal = Seal.of(_USE)
        if seal is None:
            return None
        h = hashlib.blake2b(digest_size=20)
        h.update(f"{FORMAT}\0{cache.stamp}\0{','.join(rules)}\0".encode())
        h.update(options_digest(options).encode())
        return cls(cache.folder, h.hexdigest(), tuple(rules), seal)

    @property
    def path(self) -> Path:
        return self.folder / f"{PREFIX}{self.shared}{SUFFIX}"

    def key(self, view: DeviceView) -> str | None:
        """The key of ``view``'s findings; None when its parse has no digest."""
        digest = view.parsed.digest
        if not digest:
            return None
        role = f"{view.device.role}\0{view.parsed.config.role_from}"
        return hashlib.blake2b(f"{digest}\0{role}".encode(), digest_size=20).hexdigest()

    def load(self, views: dict[str, DeviceView]) -> dict[str, PerRule]:
        """The findings kept for each of ``views`` the entry holds, by switch name."""
        entry = self._entry()
        if entry is None:
            return {}
        self._kept = entry.switches
        found: dict[str, PerRule] = {}
        for name, view in views.items():
            kept = entry.switches.get(self.key(view) or "")
            if kept is not None and _of(kept, view, len(self.rules)):
                found[name] = [[lean(f) for f in fs] for fs in kept]
        touch(self.path)
        return found

    def _entry(self) -> _Entry | None:
        doc = self.seal.opened(self.path, MAX_ENTRY_BYTES, MAX_JSON_BYTES)
        try:
            if doc is None:
                return None
            entry = _Entry.model_validate_json(doc)
        except (ValidationError, ValueError):
            return None  # missing, foreign or corrupt: the rules run
        return entry if (entry.shared, tuple(entry.rules)) == (self.shared, self.rules) else None

    def store(
        self, views: dict[str, DeviceView], found: dict[str, PerRule], judged: Collection[str]
    ) -> None:
        """The findings of every one of ``views`` kept (those of ``judged`` new), unless the
        entry holds just these."""
        switches = {k: found[n] for n, v in views.items() if (k := self.key(v)) is not None}
        if not judged and switches.keys() == self._kept.keys():
            return  # the same keys: the same findings (each key holds all they stand on)
        if self.folder.is_symlink():
            return
        entry = _Entry(format=FORMAT, shared=self.shared, rules=list(self.rules), switches=switches)
        try:
            doc = entry.model_dump_json()
        except ValueError:  # a value JSON cannot hold: the rules run every time
            return
        if made(self.folder) and write_cached(self.path, doc, self.seal):
            self._kept = switches
            trim(self.folder, MAX_BYTES)  # the entry counts towards the parse cache's bound


def _of(kept: PerRule, view: DeviceView, rules: int) -> bool:
    """Whether ``kept`` are findings of ``view``'s switch and file, one list per rule."""
    return len(kept) == rules and all(
        f.device == view.name and f.file == view.file for fs in kept for f in fs
    )


def options_digest(options: Options) -> str:
    """A hash of every field of lint's options."""
    h = hashlib.blake2b(digest_size=20)
    for f in dataclasses.fields(options):
        h.update(f"{f.name}={_canonical(getattr(options, f.name))!r}\0".encode())
    return h.hexdigest()


def _canonical(value: object) -> object:
    """``value`` printed alike for alike content: a set sorted (it iterates in the order of
    its strings' hashes, another in each process). A mapping keeps the order it was filled in,
    the plan's: another order of the same means the rules run again, never a wrong answer
    (sorting the xl plan's 163,840 cable lengths took 0.2 s of every run)."""
    if isinstance(value, set | frozenset):
        return sorted(value)
    if isinstance(value, dict) and any(isinstance(v, set | frozenset) for v in value.values()):
        return {k: _canonical(v) for k, v in value.items()}
    return value
