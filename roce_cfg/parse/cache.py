"""The parse cache: each config's parse kept under a hash of what it was read from, so that a
folder read again re-parses only the configs that changed.

An entry is the ``ParsedConfig`` a parse gave (its device model, notes and unread lines) as
pydantic's JSON, compressed, its ports' QoS settings kept once per distinct value (a table the
ports index: most ports of a switch share one, and validating each port's copy was half of
loading an entry), in ``.roce-cfg-cache/`` inside the folder read (the folder of the
first path given). Its name is a hash of the file's bytes and path, the ``--vendor`` given and
the stamp: roce-cfg's version and a digest of its code, of its bundled vendor data (profiles,
grammars, parse templates) and of the overlay's files. Anything else that changes, or any doubt,
means a parse: an entry that cannot be read, decompressed or validated, or was written under
another stamp, for another path, or with other hints from fabric.json (the entry names the
hints it was parsed with) is ignored and replaced. Entries are written through
roce_cfg/output.py (atomic, redacted: one the redactor would change is never written) and read
through roce_cfg/safepath.py; the least recently used go once the folder holds more than
``MAX_BYTES``. A link in place of the folder turns the cache off: nothing is read or written
through it.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from ipaddress import IPv4Interface
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model

from roce_cfg.errors import InputError
from roce_cfg.memo import cache_folder, made, stamp, touch, unpacked
from roce_cfg.model import numbers
from roce_cfg.model.device import Interface, PortQos
from roce_cfg.model.fast import interface, lean_tree, recast, updated
from roce_cfg.output import write_cached
from roce_cfg.parse import Hints, Parsed, ParsedConfig, applied_hint
from roce_cfg.parse.context import Role
from roce_cfg.parse.text import text_of
from roce_cfg.vendor import Vendor

FORMAT = "roce-cfg/parse-cache/v2"
SUFFIX = ".json.z"
# A fabric of 1,280 switches takes about 5 MB; past this the least recently used entries go.
MAX_BYTES = 64 * 2**20
# One entry, compressed and as JSON: a config of 100,000 ports is 70 MB of JSON.
MAX_ENTRY_BYTES = 32 * 2**20
MAX_JSON_BYTES = 512 * 2**20


class _M(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class _Hint(_M):
    """The hints a config was parsed with, and the name they were looked up by."""

    name: str
    model: str | None
    role: Role | None
    speeds: dict[str, int]

    @classmethod
    def of(cls, name: str, hint: Hints) -> _Hint:
        return cls(name=name, model=hint.model, role=hint.role, speeds=dict(hint.speeds))


# A port's IPv4 address as an entry keeps it: its number and prefix length (any pair in these
# bounds is an IPv4Interface), built without reading a dotted quad's text back (a quarter of
# validating an entry's ports).
_Number = tuple[Annotated[int, Field(ge=0, le=0xFFFFFFFF)], Annotated[int, Field(ge=0, le=32)]]

if TYPE_CHECKING:

    class _Port(BaseModel):
        ipv4: _Number | None
        qos: int
        trunk_vlans: tuple[tuple[int, int], ...]

else:
    # A port as an entry keeps it: Interface's fields, each validated as Interface validates
    # it (Interface has no check across fields), its address a number, its QoS an index into
    # the entry's table.
    _Port = create_model(
        "_Port",
        __base__=_M,
        **{
            n: (_Number | None, None) if n == "ipv4" else (f.annotation, f)
            for n, f in Interface.model_fields.items()
            if n != "qos"
        },
        qos=(int, Field(ge=0)),
    )


def _number(address: IPv4Interface | None) -> _Number | None:
    return None if address is None else (int(address), address.network.prefixlen)


class _Entry(_M):
    format: Literal["roce-cfg/parse-cache/v2"]
    stamp: str
    source: str
    hint: _Hint
    config: ParsedConfig  # without its device's ports: they are ``ports``
    qos: list[PortQos]
    ports: list[_Port]

    @classmethod
    def of(cls, stamp: str, hint: _Hint, config: ParsedConfig) -> _Entry:
        table: dict[int, int] = {}  # by identity: the parse shares one object per shape
        qos: list[PortQos] = []
        ports: list[_Port] = []
        for port in config.device.interfaces:
            at = table.setdefault(id(port.qos), len(qos))
            if at == len(qos):
                qos.append(port.qos)
            ports.append(recast(_Port, port, {"qos": at, "ipv4": _number(port.ipv4)}))
        device = updated(config.device, {"interfaces": ()})
        kept = updated(config, {"device": device})
        return cls(
            format=FORMAT,
            stamp=stamp,
            source=config.source,
            hint=hint,
            config=kept,
            qos=qos,
            ports=ports,
        )

    def parsed_config(self) -> ParsedConfig | None:
        """The config the entry holds, its ports rebuilt; None when a port's index is past
        the table, or its trunk VLANs are not ranges as a parse makes them (validation lets
        overlapping ones through, which lint's ``numbers.expand`` refuses)."""
        table = self.qos
        if any(
            p.qos >= len(table) or (p.trunk_vlans and not numbers.canonical(p.trunk_vlans))
            for p in self.ports
        ):
            return None
        for qos in table:
            lean_tree(qos)  # the ports' walk passes them by (recast)
        ports = tuple(
            recast(Interface, p, {"qos": table[p.qos], "ipv4": p.ipv4 and interface(*p.ipv4)})
            for p in self.ports
        )
        device = updated(self.config.device, {"interfaces": ports})
        return updated(self.config, {"device": device})


HintsArg = Mapping[str, Hints] | Hints | None


@dataclass(frozen=True)
class ParseCache:
    """The cache folder and the stamp its entries must carry to be trusted."""

    folder: Path
    stamp: str

    def key(self, path: Path, data: bytes, vendor: Vendor | None) -> str:
        """The entry name of ``path``'s parse from ``data``, with ``vendor`` given or not."""
        h = hashlib.blake2b(digest_size=20)
        given = vendor.value if vendor is not None else ""
        h.update(f"{self.stamp}\0{given}\0".encode())
        h.update(os.fsencode(str(path)) + b"\0")
        h.update(data)
        return h.hexdigest() + SUFFIX

    def stored(self) -> frozenset[str]:
        """The names of the entries stored (one may still be refused when loaded)."""
        if self.folder.is_symlink():
            return frozenset()
        try:
            return frozenset(n for n in os.listdir(self.folder) if n.endswith(SUFFIX))
        except OSError:  # no folder yet, or not one
            return frozenset()

    def load(
        self, key: str, path: Path, data: bytes, hints: HintsArg, overlay: Path | None
    ) -> Parsed | None:
        """The parse of ``path`` (``data``, its bytes) stored under ``key``, when one is there
        and holds for these hints."""
        entry = self._entry(key)
        if entry is None or entry.stamp != self.stamp or entry.source != str(path):
            return None
        config = entry.parsed_config()
        if config is None or config.source != entry.source:
            return None
        if _Hint.of(entry.hint.name, applied_hint(hints, entry.hint.name)) != entry.hint:
            return None  # fabric.json says something else of this switch now
        # the key holds the bytes: the parse that stored the entry decoded them, checks and all
        text = text_of(data)
        if text is None:  # pragma: no cover - a parse stored it, so they decode
            return None
        touch(self.folder / key)
        lean_tree(config)  # ports of one shape share their QoS (the table's): leaned once
        parsed = Parsed(config, None, text, overlay, entry.hint.name)
        parsed.digest = _digest(key, entry.hint)
        return parsed

    def _entry(self, key: str) -> _Entry | None:
        doc = unpacked(self.folder / key, MAX_ENTRY_BYTES, MAX_JSON_BYTES)
        try:
            return None if doc is None else _Entry.model_validate_json(doc)
        except (ValidationError, ValueError):
            return None  # missing, foreign or corrupt: parsed again

    def store(self, key: str, parsed: Parsed, hints: HintsArg) -> None:
        """``parsed`` kept under ``key``, and given its digest (what it is a function of)."""
        hint = _Hint.of(parsed.hinted, applied_hint(hints, parsed.hinted))
        parsed.digest = _digest(key, hint)
        entry = _Entry.of(self.stamp, hint, parsed.config)
        try:
            doc = entry.model_dump_json()
        except ValueError:  # pydantic's PydanticSerializationError is one
            return  # a value JSON cannot hold: this config is parsed every time
        if made(self.folder):
            write_cached(self.folder / key, doc)

    def trim(self) -> None:
        """The least recently used entries removed until the folder holds ``MAX_BYTES``."""
        trim(self.folder, MAX_BYTES)


def _digest(key: str, hint: _Hint) -> str:
    """What a parse is a function of: the entry's key (the stamp, the path, the bytes, the
    --vendor given) and the hints it was parsed with."""
    given = json.dumps(hint.model_dump(), sort_keys=True)  # the speeds in any order alike
    h = hashlib.blake2b(f"{key}\0{given}".encode(), digest_size=20)
    return h.hexdigest()


def trim(folder: Path, max_bytes: int) -> None:
    """The entries of ``folder`` removed least recently used first until they hold at most
    ``max_bytes``; one another run removed meanwhile is no error."""
    if folder.is_symlink() or not folder.is_dir():
        return
    found: list[tuple[float, int, Path]] = []
    try:
        with os.scandir(folder) as listing:
            for e in listing:
                if e.name.endswith(SUFFIX) and e.is_file(follow_symlinks=False):
                    st = e.stat(follow_symlinks=False)
                    found.append((st.st_mtime, st.st_size, Path(e.path)))
    except OSError:
        return
    total = sum(size for _, size, _ in found)
    for _, size, path in sorted(found):
        if total <= max_bytes:
            break
        with contextlib.suppress(OSError):
            path.unlink()
        total -= size


def open_cache(
    paths: Sequence[Path], overlay: Path | None, *, enabled: bool = True
) -> tuple[ParseCache | None, str | None]:
    """The cache for reading ``paths`` (None when off), and a warning when it had to be off: a
    link in place of its folder, an overlay whose files cannot be hashed."""
    if not enabled or not paths:
        return None, None
    folder = cache_folder(paths)
    if folder.is_symlink():
        why = "a symlink; roce-cfg never reads or writes its cache through a link"
        return None, f"{folder}: {why} (the parse cache is off)"
    try:
        # what a parse read besides the config itself: roce-cfg's code and data, the overlay
        kept = hashlib.blake2b(f"{FORMAT}\0{stamp(folder, overlay)}".encode(), digest_size=20)
    except InputError as exc:
        return None, f"{exc.one_line()} (the parse cache is off)"
    return ParseCache(folder, kept.hexdigest()), None
