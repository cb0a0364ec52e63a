"""What a parse gives, per file: the device model with the parse's notes, the blocks kept as text,
the lines not read and the accounting of every line (``roce-cfg parse --format json``).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from roce_cfg.model.device import DeviceConfig
from roce_cfg.parse.accounting import Accounting
from roce_cfg.vendor import Vendor

FORMAT = "roce-cfg/parse/v2"


class _M(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class OpaqueBlock(_M):
    """A block roce-cfg does not model, kept verbatim (secrets redacted)."""

    line: int
    end_line: int
    header: str
    text: str


class UnreadLine(_M):
    """A line not read: a value on it is outside its field's domain, so the line is taken as
    absent (lint reports it as RC119)."""

    line: int | None
    text: str
    reason: str


class ParsedConfig(_M):
    """What ``roce-cfg parse`` prints per file (``--format json``: one of these per config)."""

    source: str
    lines: int
    vendor: Vendor
    vendor_from: Literal["detected", "given"]
    model_from: Literal["given", "config", "port layout", "default"]
    role_from: Literal["given", "inferred"]
    device: DeviceConfig
    opaque: tuple[OpaqueBlock, ...] = ()
    notes: tuple[str, ...] = ()
    unread: tuple[UnreadLine, ...] = ()
    # every line understood, known-unmanaged or unread (parse/accounting.py; lint RC404, RC405)
    accounting: Accounting = Accounting()
