"""Per-vendor facts as data: loaded from vendors/<vendor>.yaml (plus a user's overlay)."""

from roce_cfg.platforms.dialect import Dialect
from roce_cfg.platforms.profile import (
    ModelSpec,
    PortGroup,
    SectionProvenance,
    VendorProfile,
    load_profile,
    load_profiles,
)

__all__ = [
    "Dialect",
    "ModelSpec",
    "PortGroup",
    "SectionProvenance",
    "VendorProfile",
    "load_profile",
    "load_profiles",
]
