"""The user's cache key: every cache entry's name (the parse cache's, the device findings',
the plan's) and the run memo's key are made with it (roce_cfg/memo.py ``stamp``).

It lives in the user's own cache folder, never beside the configs: an entry in a repository's
``.roce-cfg-cache/`` (committed there by anyone) is read only by the user who wrote it. A
forged one, named from public things alone (the release, a config's path and bytes), would
otherwise be read as the parse of that config, and a run memo as lint's whole answer.
"""

from __future__ import annotations

import contextlib
import hmac
import os
import re
import secrets
from pathlib import Path

from roce_cfg.errors import InputError
from roce_cfg.output import write_file
from roce_cfg.safepath import read_bytes

KEY_ENV = "XDG_CACHE_HOME"
_KEY = re.compile(rb"[0-9a-f]{64}")


def key_file() -> Path:
    """Where the user's cache key is kept: ``$XDG_CACHE_HOME/roce-cfg/key`` (``~/.cache``)."""
    try:
        base = Path(os.environ.get(KEY_ENV) or Path.home() / ".cache")
    except (RuntimeError, KeyError):  # no home folder to be found
        raise InputError("no home folder for the cache key (set XDG_CACHE_HOME)") from None
    return base / "roce-cfg" / "key"


def cache_key() -> bytes:
    """The user's cache key, made (private to the user) when there is none; an InputError when
    it can be neither read nor made."""
    path = key_file()
    for _ in range(2):
        with contextlib.suppress(InputError):
            kept = read_bytes(path, what="cache key", max_bytes=256).strip()
            if _KEY.fullmatch(kept):
                return bytes.fromhex(kept.decode())
        write_file(path, secrets.token_hex(32) + "\n", private=True)
    raise InputError("cannot keep a cache key there", file=str(path))


def subkey(use: str) -> bytes:
    """The user's key for one use (the MAC of one cache's entries): HMAC-SHA256 of the use's
    name under the key, so that nothing made for one use serves another; an InputError as
    ``cache_key``'s."""
    return hmac.digest(cache_key(), use.encode(), "sha256")
