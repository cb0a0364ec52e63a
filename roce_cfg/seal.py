"""A cache entry's bytes, read and written, and sealed: one reader and one writer for every
cache's entries (``unpacked``, ``write_cached``), and a MAC before the compressed bytes of the
parse cache's, the run memo's, the device findings' and the plans' entries (``Seal``).

A sealed entry is the MAC (HMAC-SHA256, ``MAC_BYTES`` raw) of its name and its compressed
bytes, under a key derived from the user's key for that kind of entry alone
(roce_cfg/cache_key.py ``subkey``, never written), then those bytes. The MAC is checked before
anything is inflated or decoded: an entry edited in the folder (a CI workspace kept between
jobs, a shared checkout), copied from another entry's name, or of another kind renamed is
refused at the cost of one hash of its compressed bytes, and what it stands for is computed
again. Past the MAC an entry is still validated as ever (bounded, typed): were the user's key
read by someone else, a forged entry could make roce-cfg say wrong things, no more.
"""

from __future__ import annotations

import hmac
import os
import zlib
from dataclasses import dataclass, field
from pathlib import Path

from roce_cfg.cache_key import subkey
from roce_cfg.errors import InputError
from roce_cfg.jsonredact import redact_json
from roce_cfg.jsontext import ascii_json
from roce_cfg.output import write_entry
from roce_cfg.safepath import read_bytes

MAC_BYTES = 32  # HMAC-SHA256's


def unpacked(path: Path, max_bytes: int, max_json: int) -> bytes | None:
    """The document a cache entry in ``path`` holds compressed (``max_bytes`` of it at most,
    ``max_json`` inflated, never through a link); None when it is missing, a link, unreadable,
    larger than any entry roce-cfg writes, or cut short. One reader for every cache's entries.
    The entry's name is roce-cfg's own (no '..', no separator) and its folder is never a link
    (memo.made, and the caches' opening): a link in the entry's own place is all that could
    lead elsewhere, refused by its lstat. (``safepath.within`` resolved every component of
    both paths per entry: 0.07 s of loading 1,280 parse cache entries.)"""
    packed = _packed(path, max_bytes)
    return None if packed is None else _inflated(packed, max_json)


def _packed(path: Path, max_bytes: int) -> bytes | None:
    try:
        if os.path.islink(path):
            return None
        return read_bytes(path, what="cache entry", max_bytes=max_bytes)
    except InputError:
        return None


def _inflated(packed: bytes, max_json: int) -> bytes | None:
    try:
        inflate = zlib.decompressobj()
        doc = inflate.decompress(packed, max_json)
    except zlib.error:
        return None
    return None if inflate.unconsumed_tail or not inflate.eof else doc


def write_cached(target: Path, doc: str, seal: Seal | None = None) -> bool:
    """The JSON document ``doc`` compressed into ``target`` as output.write_file writes (a
    cache's entry), sealed by ``seal`` when given; nothing written, and False, when the
    redactor would change it (the entry would no longer be what was kept) or the write
    fails."""
    doc = ascii_json(doc)
    if redact_json(doc) != doc:
        return False
    packed = zlib.compress(doc.encode("ascii"), 1)
    try:
        write_entry(target, packed if seal is None else seal.mac(target.name, packed) + packed)
    except InputError:
        return False
    return True


@dataclass(frozen=True)
class Seal:
    """The MAC key of one kind of entry: ``subkey`` of its use, a name no other kind shares
    (so an entry of one kind never opens as another's)."""

    key: bytes = field(repr=False)

    @classmethod
    def of(cls, use: str) -> Seal | None:
        """The seal of ``use``'s entries; None when the user's key can be neither read nor
        made (no entry is read or written then)."""
        try:
            return cls(subkey(use))
        except InputError:
            return None

    def mac(self, name: str, packed: bytes) -> bytes:
        """The MAC of an entry named ``name`` holding ``packed``."""
        return hmac.digest(self.key, name.encode() + b"\0" + packed, "sha256")

    def opened(self, path: Path, max_bytes: int, max_json: int) -> bytes | None:
        """The document of the entry in ``path`` when its MAC verifies (``unpacked``'s bounds
        on what follows it); None for any doubt."""
        sealed = _packed(path, max_bytes + MAC_BYTES)
        if sealed is None:
            return None
        packed = sealed[MAC_BYTES:]
        if not hmac.compare_digest(sealed[:MAC_BYTES], self.mac(path.name, packed)):
            return None  # edited, written under another name, or of another kind
        return _inflated(packed, max_json)
