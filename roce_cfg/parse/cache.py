"""The parse cache: each config's parse kept under a hash of what it was read from, so that a
folder read again re-parses only the configs that changed.

An entry is the ``ParsedConfig`` a parse gave (its device model, notes and unread lines), in
``.roce-cfg-cache/`` inside the folder read (the folder of the first path given). Its name is a
keyed hash (HMAC-SHA256 under the stamp) of the file's bytes and path and the ``--vendor``
given; the stamp is roce-cfg's version and a digest of its code, of its bundled vendor data
(profiles, grammars, parse templates) and of the overlay's files, made with the user's key
(roce_cfg/cache_key.py). Anything else that changes, or any doubt, means a parse: an entry that
cannot be read, decompressed, authenticated or validated, or was written for another path or
with other hints from fabric.json (the entry holds a digest of the hints it was parsed with)
is ignored and replaced. Entries are written through roce_cfg/output.py (atomic, redacted: one
the redactor would change is never written) and read through roce_cfg/safepath.py; the least
recently used go once the folder holds more than ``MAX_BYTES``. A link in place of the folder
turns the cache off: nothing is read or written through it.

What an entry holds: the MAC of its name and compressed bytes (roce_cfg/seal.py), then,
compressed, one JSON document: the sizes of its first two parts, and three parts. The shared
part: the device's QoS, its ports' QoS settings and its ports' shapes (every field of a port
but its name, description and address: the 128 ports of an xl switch have two or three), each
once per distinct value, and its ports' names; switches of one model write the same text,
validated once per run (their ports' names shared too). The own part: the config without its
QoS, ports and BGP peers, and the digest of the hints it was parsed with. Pydantic validates
these two as the model validates its fields. The columns: the hints themselves (compared whole
with the ones given; a port by its index among the names), per port its description, address (a
number and a prefix length) and shape, per peer its address (IPv4 as a number), AS number and
description; each value is checked for the type and domain its field's validation demands
(``_ports``, ``_peers``) as the model is built from it without pydantic (model/fast.py; both
ends of a link share their network): validating 166,400 ports and 131,072 peers one by one was
two thirds of loading the xl fabric's 1,280 entries.

The threat: whoever can write the folder (a shared checkout, a CI workspace kept between jobs,
a repository that commits the folder against its .gitignore) plants or edits entries, to make
a config's findings disappear, or to exhaust memory or crash the run. The defences:

- Names: an entry is looked up under a name only the user's key makes, so an entry planted
  under a name made from public things (the release, a config's path and bytes) is never read.
- Content: each entry carries a MAC (HMAC-SHA256 under a key derived from the user's key for
  this kind of entry alone, never written) over its name and its compressed bytes
  (roce_cfg/seal.py, as every cache's entries), so one that verifies is one this user's
  roce-cfg wrote under that name: one edited, copied from another name or of another kind is
  refused before any of it is inflated or parsed (format v3 sealed the inflated text: a forged
  entry was inflated, up to ``MAX_JSON_BYTES``, first). (The stamp the names are made with is
  no secret: the run memo's and the plans' entries hold it or what it is made from; names alone
  keep out whoever never read one.)
- Bounds: at most ``MAX_ENTRY_BYTES`` are read and ``MAX_JSON_BYTES`` inflated, whatever the
  entry says, before anything is parsed; a count (ports, peers, table indexes) is bounded by
  the size of the document that lists it.
- Types: even an entry that verifies is validated (the tables by pydantic, the columns by
  value; a string must encode as UTF-8, which a lone surrogate escape does not) and only
  plain JSON is decoded, no class chosen by the entry: were the key read by
  someone else, a forged entry could make lint say wrong things about that config, no more.
  Not ``pickle`` (which runs what the data names). Not ``marshal`` either, though it reads the
  xl columns in 0.06 s where ``json`` takes 0.11: it is safe to read only what verified, so
  the MAC would be the one defence left, and an entry must be JSON text for the redactor to
  vouch for it (seal.write_cached), descriptions and all.

Not defended: someone who can read the user's key file (it is private to the user, who can
do anything the user can), or who can replace roce-cfg's own code.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from ipaddress import IPv4Address, IPv4Network
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, create_model

from roce_cfg.cache_key import subkey
from roce_cfg.errors import InputError
from roce_cfg.jsontext import ascii_json, encodable
from roce_cfg.memo import cache_folder, made, stamp, touch
from roce_cfg.model import numbers
from roce_cfg.model.device import BgpNeighbor, Interface, PeerAddress, PortQos, Qos
from roce_cfg.model.fast import address, interface, lean_tree, maker, template, updated
from roce_cfg.parse import Hints, Parsed, ParsedConfig, applied_hint
from roce_cfg.parse.kept_hints import hint_digest, kept_hints, same_hints
from roce_cfg.parse.text import text_of
from roce_cfg.seal import Seal, write_cached
from roce_cfg.vendor import Vendor

FORMAT = "roce-cfg/parse-cache/v4"
SUFFIX = ".json.z"
# A fabric of 1,280 switches takes about 4 MB; past this the least recently used entries go.
MAX_BYTES = 64 * 2**20
# One entry, compressed and as JSON: a config of 100,000 ports is about 15 MB of JSON.
MAX_ENTRY_BYTES = 32 * 2**20
MAX_JSON_BYTES = 512 * 2**20
# What the MAC key is derived for (cache_key.subkey): this cache's entries alone.
_USE = "roce-cfg parse cache entries"
# Its document's head: the sizes of its first two parts; then its three parts.
_HEAD = re.compile(rb"\[([1-9][0-9]{0,9}),([1-9][0-9]{0,9}),")


class _M(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


# A port's own fields, kept in the columns; the others are its shape.
_OWN = ("name", "description", "ipv4")
_SHAPE = tuple(n for n in Interface.model_fields if n not in _OWN)

if TYPE_CHECKING:

    class _Shape(BaseModel):
        qos: int
        trunk_vlans: tuple[tuple[int, int], ...]

else:
    # A port's shape: Interface's fields but its own, each validated as Interface validates it
    # (Interface has no check across fields), its QoS an index into the entry's table.
    _Shape = create_model(
        "_Shape",
        __base__=_M,
        **{
            n: (int, Field(ge=0)) if n == "qos" else (f.annotation, f)
            for n, f in Interface.model_fields.items()
            if n in _SHAPE
        },
    )


class _Shared(_M):
    """The part of an entry that switches of one kind share (validated once per distinct
    text in a run: a few at xl), its QoS: the device's, and its ports' settings and shapes
    once per distinct value."""

    qos: Qos
    port_qos: list[PortQos]
    shapes: list[_Shape]
    # the ports' names, in order: those of a model's ports, the same on every switch of it
    port_names: list[str]


class _Own(_M):
    """The part of an entry that is the switch's own, but its ports' and peers' values."""

    hinted: str  # the name the hints were looked up by
    hint: str  # their digest, what the parse is a function of (``_digest``)
    config: ParsedConfig  # without its device's QoS, ports and BGP peers


# The columns: the hints (``_hints``), then one list per field, each of one value per port
# (``port_*``, in the order of the shared part's names) or per peer (``peer_*``).
_PORT_COLUMNS = ("port_descriptions", "port_addresses", "port_prefixlens", "port_shapes")
_PEER_COLUMNS = ("peer_addresses", "peer_asns", "peer_descriptions")
_COLUMNS = (*_PORT_COLUMNS, *_PEER_COLUMNS)
_MAKE_PORT = maker(Interface)
_MAKE_PEER = maker(BgpNeighbor)
_PEER_TEXT: TypeAdapter[Any] = TypeAdapter(PeerAddress)
_ALL_ONES = 0xFFFFFFFF
# a template's copy (fast.template: a split table's copy stays one), looked up once
_copied = dict.copy


def _split(config: ParsedConfig) -> tuple[_Shared, _Own, dict[str, Any]]:
    """``config`` as an entry keeps it: the shared part, its own (hints aside) and the
    columns."""
    qos_at: dict[int, int] = {}  # by identity: the parse shares one object per shape
    port_qos: list[PortQos] = []
    shape_at: dict[tuple[Any, ...], int] = {}
    columns: dict[str, list[Any]] = {name: [] for name in _COLUMNS}
    descriptions, addresses, prefixlens, shapes = (columns[n] for n in _PORT_COLUMNS)
    names: list[str] = []
    for port in config.device.interfaces:
        fields = {**port.__dict__, "qos": qos_at.setdefault(id(port.qos), len(port_qos))}
        if fields["qos"] == len(port_qos):
            port_qos.append(port.qos)
        shapes.append(shape_at.setdefault(tuple(fields[n] for n in _SHAPE), len(shape_at)))
        names.append(port.name)
        descriptions.append(port.description)
        ipv4 = port.ipv4
        addresses.append(None if ipv4 is None else int(ipv4))
        prefixlens.append(None if ipv4 is None else ipv4.network.prefixlen)
    device, bgp = config.device, config.device.bgp
    for peer in bgp.neighbors if bgp is not None else ():
        ip = peer.address
        columns["peer_addresses"].append(int(ip) if isinstance(ip, IPv4Address) else str(ip))
        columns["peer_asns"].append(peer.remote_as)
        columns["peer_descriptions"].append(peer.description)
    bare: dict[str, Any] = {"interfaces": (), "qos": Qos()}
    if bgp is not None:
        bare["bgp"] = updated(bgp, {"neighbors": ()})
    kept = updated(config, {"device": updated(device, bare)})
    shared = _Shared(
        qos=device.qos,
        port_qos=port_qos,
        shapes=[dict(zip(_SHAPE, s, strict=True)) for s in shape_at],
        port_names=names,
    )
    return shared, _Own(hinted="", hint="", config=kept), columns


def _ports(
    shared: _Shared, columns: dict[str, list[Any]], networks: dict[int, IPv4Network]
) -> tuple[Interface, ...] | None:
    """The ports the columns list, each value checked as Interface's validation checks it
    (a name and a description are strings, an address a number and a prefix length in
    range) and its shape's index in range; None at the first that is not. An address's
    network is taken from ``networks`` when one of another port is there (fast.interface):
    the far end's, at the other end of a link (half of them at xl)."""
    blank = dict.fromkeys(Interface.model_fields)  # in the fields' order: ``_OWN`` stay None
    templates = [
        template(Interface, {**blank, **s.__dict__, "qos": shared.port_qos[s.qos]})
        for s in shared.shapes
    ]
    count, make = len(templates), _MAKE_PORT
    ports = []
    for name, description, number, prefixlen, at in zip(
        shared.port_names, *(columns[n] for n in _PORT_COLUMNS), strict=True
    ):
        if type(description) is not str or type(at) is not int:
            return None
        if not 0 <= at < count:
            return None
        fields = _copied(templates[at])
        fields["name"] = name
        fields["description"] = description
        if number is not None or prefixlen is not None:
            if type(number) is not int or type(prefixlen) is not int:
                return None
            if not (0 <= number <= _ALL_ONES and 0 <= prefixlen <= 32):
                return None
            fields["ipv4"] = interface(number, prefixlen, networks)
        ports.append(make(fields))
    return tuple(ports)


def _peers(columns: dict[str, list[Any]]) -> tuple[BgpNeighbor, ...] | None:
    """The BGP peers the columns list, each value checked as BgpNeighbor's validation checks
    it: an IPv4 address as a number in range, an IPv6 one as its text (pydantic reads it), an
    AS number in its domain, a description a string; None at the first that is not."""
    low, high, make = numbers.ASN.low, numbers.ASN.high, _MAKE_PEER
    blank = template(BgpNeighbor, dict.fromkeys(BgpNeighbor.model_fields))
    peers = []
    for number, asn, description in zip(*(columns[n] for n in _PEER_COLUMNS), strict=True):
        if type(asn) is not int or not low <= asn <= high or type(description) is not str:
            return None
        fields = _copied(blank)
        if type(number) is int and 0 <= number <= _ALL_ONES:
            fields["address"] = address(number)
        elif type(number) is str:
            fields["address"] = _PEER_TEXT.validate_python(number)
        else:
            return None
        fields["remote_as"] = asn
        fields["description"] = description
        peers.append(make(fields))
    return tuple(peers)


def _config(
    shared: _Shared, own: _Own, columns: dict[str, list[Any]], networks: dict[int, IPv4Network]
) -> ParsedConfig | None:
    """The config an entry holds, its QoS, ports and peers put back; None when a value of
    the columns is not what its field takes."""
    ports, peers = _ports(shared, columns, networks), _peers(columns)
    if ports is None or peers is None:
        return None
    config = own.config
    lean_tree(config)  # before its QoS, ports and peers join it: those are lean already
    device = config.device
    changes: dict[str, Any] = {"interfaces": ports, "qos": shared.qos}
    if device.bgp is not None:
        changes["bgp"] = updated(device.bgp, {"neighbors": peers})
    elif peers:
        return None
    return updated(config, {"device": updated(device, changes)})


def _digest(key: str, hint: str) -> str:
    """What a parse is a function of: the entry's key (the stamp, the path, the bytes, the
    --vendor given) and the hints it was parsed with (their digest)."""
    return hashlib.blake2b(f"{key}\0{hint}".encode(), digest_size=20).hexdigest()


HintsArg = Mapping[str, Hints] | Hints | None
# A shared part and the index of each port's name in it (``kept_hints``).
_Part = tuple[_Shared, dict[str, int]]
_Opened = tuple[_Part, _Own, dict[str, Any]]


def _index(names: list[str]) -> dict[str, int]:
    return {name: at for at, name in enumerate(names)}


@dataclass(frozen=True)
class ParseCache:
    """The cache folder, the stamp its entries' names are made with, and the key of their
    MACs (``seal``: derived from the user's key, never written)."""

    folder: Path
    stamp: str
    seal: Seal = field(repr=False)
    # the shared parts validated in this run, by their text (authenticated: written by us)
    _shared: dict[bytes, _Part] = field(default_factory=dict, compare=False, repr=False)
    # the ports' networks built in this run (fast.interface)
    _networks: dict[int, IPv4Network] = field(default_factory=dict, compare=False, repr=False)

    def key(self, path: Path, data: bytes, vendor: Vendor | None) -> str:
        """The entry name of ``path``'s parse from ``data``, with ``vendor`` given or not:
        HMAC-SHA256 under the stamp (half blake2b's time on this hardware: it hashes every
        config of a folder, twice in a warm lint)."""
        given = vendor.value if vendor is not None else ""
        message = b"%s\0%s\0%s" % (given.encode(), os.fsencode(str(path)), data)
        return hmac.digest(self.stamp.encode(), message, "sha256")[:20].hex() + SUFFIX

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
        opened = self._opened(key)
        if opened is None:
            return None
        (shared, index), own, columns = opened
        if not same_hints(columns["hint"], applied_hint(hints, own.hinted), index):
            return None  # fabric.json says something else of this switch now
        try:
            config = _config(shared, own, columns, self._networks)
        except ValueError:  # columns of unequal lengths (zip's), a peer's text refused
            return None
        if config is None or config.source != str(path):
            return None
        # the key holds the bytes: the parse that stored the entry decoded them, checks and all
        text = text_of(data)
        if text is None:  # pragma: no cover - a parse stored it, so they decode
            return None
        touch(self.folder / key)
        parsed = Parsed(config, None, text, overlay, own.hinted)
        parsed.digest = _digest(key, own.hint)
        return parsed

    def _opened(self, key: str) -> _Opened | None:
        """The parts of the entry under ``key``, when it is one this user's roce-cfg wrote
        under that name (its MAC verifies, before it is inflated) and they decode as it
        wrote them."""
        doc = self._authentic(key)
        head = _HEAD.match(doc) if doc is not None else None
        if doc is None or head is None:
            return None
        rest = doc[head.end() :]
        first, second = int(head[1]), int(head[2])
        at = first + 1 + second + 1  # the columns'
        if (rest[first : first + 1], rest[at - 1 : at], rest[-1:]) != (b",", b",", b"]"):
            return None
        text = rest[at:-1]
        try:
            shared = self._shared_part(rest[:first])
            own = _Own.model_validate_json(rest[first + 1 : at - 1])
            columns = json.loads(text)
        except (ValidationError, ValueError, RecursionError):
            return None
        if not isinstance(columns, dict) or columns.keys() != {"hint", *_COLUMNS}:
            return None
        if not all(type(columns[c]) is list for c in _COLUMNS) or not encodable(text, columns):
            return None
        return shared, own, columns

    def _authentic(self, key: str) -> bytes | None:
        """The document of the entry under ``key``, inflated once its MAC verifies."""
        return self.seal.opened(self.folder / key, MAX_ENTRY_BYTES, MAX_JSON_BYTES)

    def _shared_part(self, text: bytes) -> _Part:
        """The shared part ``text`` holds, validated once per distinct text; a ValueError
        when its port settings are not what a parse makes."""
        found = self._shared.get(text)
        if found is None:
            shared = _Shared.model_validate_json(text)
            table = shared.port_qos
            for s in shared.shapes:
                # trunk VLANs as a parse makes them: validation lets overlapping ranges
                # through, which lint's ``numbers.expand`` refuses
                if s.qos >= len(table) or (s.trunk_vlans and not numbers.canonical(s.trunk_vlans)):
                    raise ValueError("a port shape that no parse makes")
            lean_tree(shared)
            found = self._shared[text] = (shared, _index(shared.port_names))
        return found

    def store(self, key: str, parsed: Parsed, hints: HintsArg) -> None:
        """``parsed`` kept under ``key``, and given its digest (what it is a function of)."""
        hint = applied_hint(hints, parsed.hinted)
        digest = hint_digest(parsed.hinted, hint)
        parsed.digest = _digest(key, digest)
        doc = self._document(parsed, hint, digest)
        if doc is not None and made(self.folder):
            write_cached(self.folder / key, doc, self.seal)

    def _document(self, parsed: Parsed, hint: Hints, digest: str) -> str | None:
        """The document of ``parsed``'s entry, as JSON text (``store`` seals it compressed);
        None when a value is one JSON cannot hold (that config is parsed every time)."""
        shared, own, columns = _split(parsed.config)
        own = own.model_copy(update={"hinted": parsed.hinted, "hint": digest})
        try:
            parts = [ascii_json(part.model_dump_json()) for part in (shared, own)]
        except ValueError:  # pydantic's PydanticSerializationError is one
            return None
        columns = {"hint": kept_hints(hint, _index(shared.port_names)), **columns}
        rest = f"{parts[0]},{parts[1]},{json.dumps(columns, separators=(',', ':'))}]"
        return f"[{len(parts[0])},{len(parts[1])},{rest}"

    def trim(self) -> None:
        """The least recently used entries removed until the folder holds ``MAX_BYTES``."""
        trim(self.folder, MAX_BYTES)


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
        seal = Seal(subkey(_USE))
    except InputError as exc:
        return None, f"{exc.one_line()} (the parse cache is off)"
    return ParseCache(folder, kept.hexdigest(), seal), None
