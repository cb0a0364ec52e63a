"""The device rules' findings kept per switch, so that lint of a folder where one config changed
runs the device rules on that switch alone.

A device rule looks at one switch's view and nothing else: its parse (a function of the config's
bytes, path, the --vendor given, the hints from fabric.json or the intent, and roce-cfg's code
and vendor data: the parse cache's digest, ``Parsed.digest``), the role the topology gave it where
the parse only guessed one, and lint's options (the cable lengths and rail VLANs of the plan, the
DSCPs given or agreed by the fabric). An entry (``dev-<key>.json.z`` beside the parse cache's
entries, counted in its bound) holds, per device rule, the findings located in that switch's file
whose own end concludes (roce_cfg/analysis/context.py's ``concludes``); the far end a finding
names is judged again on every run, since that switch may have changed. Its key is a hash of all
of the above; anything else, or any doubt (an entry that cannot be read or validated, another
rule list), means the rules run. Written through roce_cfg/output.py, read through
roce_cfg/safepath.py, as the parse cache's entries.
"""

from __future__ import annotations

import dataclasses
import hashlib
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from roce_cfg.analysis.context import DeviceView, Options
from roce_cfg.analysis.findings import Finding
from roce_cfg.errors import InputError
from roce_cfg.memo import made, touch
from roce_cfg.model.device import lean
from roce_cfg.output import write_cached
from roce_cfg.parse.cache import MAX_BYTES, SUFFIX, ParseCache, trim
from roce_cfg.safepath import read_bytes

FORMAT = "roce-cfg/device-findings/v1"
PREFIX = "dev-"
# A switch of 100,000 ports may have hundreds of thousands of findings.
MAX_ENTRY_BYTES = 32 * 2**20
MAX_JSON_BYTES = 512 * 2**20

# The findings of one switch: one list per device rule, in the rules' order.
PerRule = list[list[Finding]]


class _Entry(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    format: Literal["roce-cfg/device-findings/v1"]
    key: str
    rules: list[str]
    findings: list[list[Finding]]


@dataclass(frozen=True)
class DeviceCache:
    """Where the entries are, and what every key of this run shares: the parse cache's stamp,
    the device rules and lint's options."""

    folder: Path
    shared: str
    rules: tuple[str, ...]

    @classmethod
    def of(cls, cache: ParseCache, rules: Sequence[str], options: Options) -> DeviceCache:
        h = hashlib.blake2b(digest_size=20)
        h.update(f"{FORMAT}\0{cache.stamp}\0{','.join(rules)}\0".encode())
        h.update(options_digest(options).encode())
        return cls(cache.folder, h.hexdigest(), tuple(rules))

    def key(self, view: DeviceView) -> str | None:
        """The entry name of ``view``'s findings; None when its parse has no digest."""
        digest = view.parsed.digest
        if not digest:
            return None
        role = f"{view.device.role}\0{view.parsed.config.role_from}"
        h = hashlib.blake2b(f"{self.shared}\0{digest}\0{role}".encode(), digest_size=20)
        return f"{PREFIX}{h.hexdigest()}{SUFFIX}"

    def load(self, view: DeviceView) -> PerRule | None:
        """The findings kept for ``view``, when an entry holds for it."""
        key = self.key(view)
        entry = self._entry(key) if key else None
        if entry is None or entry.key != key or tuple(entry.rules) != self.rules:
            return None
        if len(entry.findings) != len(self.rules):
            return None
        if any(f.device != view.name or f.file != view.file for fs in entry.findings for f in fs):
            return None
        touch(self.folder / str(key))
        return [[lean(f) for f in fs] for fs in entry.findings]

    def _entry(self, key: str) -> _Entry | None:
        try:
            packed = read_bytes(
                self.folder / key, what="cache entry", max_bytes=MAX_ENTRY_BYTES, root=self.folder
            )
            inflate = zlib.decompressobj()
            doc = inflate.decompress(packed, MAX_JSON_BYTES)
            if inflate.unconsumed_tail or not inflate.eof:
                return None
            return _Entry.model_validate_json(doc)
        except (InputError, zlib.error, ValidationError, ValueError):
            return None  # missing, foreign or corrupt: the rules run

    def store(self, view: DeviceView, findings: PerRule) -> None:
        key = self.key(view)
        if key is None or self.folder.is_symlink():
            return
        entry = _Entry(format=FORMAT, key=key, rules=list(self.rules), findings=findings)
        try:
            doc = entry.model_dump_json()
        except ValueError:  # a value JSON cannot hold: this switch's rules run every time
            return
        if made(self.folder):
            write_cached(self.folder / key, doc)

    def trim(self) -> None:
        """The least recently used entries (parses and findings alike) removed until the
        folder holds the parse cache's bound."""
        trim(self.folder, MAX_BYTES)


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
