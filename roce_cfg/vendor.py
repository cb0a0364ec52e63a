"""The vendor names and the overlay variable: kept free of pydantic so the CLI can name them in
its option types without paying for the models at start-up."""

from __future__ import annotations

from enum import StrEnum

OVERLAY_ENV = "ROCE_CFG_VENDOR_DIR"


class Vendor(StrEnum):
    H3C = "h3c"
    HUAWEI = "huawei"
    RUIJIE = "ruijie"
    ZTE = "zte"
