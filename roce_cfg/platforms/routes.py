"""How a vendor prints a static route and which route it forwards by (vendors/<vendor>.yaml
``parse.static_route`` and ``route_preference``; read by parse/statics.py and deadlock/net.py).
Here too the provenance status every vendor data entry carries, which profile.py imports."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Status = Literal["verified", "partial", "unverified", "user"]


class _Data(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class RouteOption(_Data):
    """A word a static-route line may carry after its next hop, and what follows it."""

    field: Literal["preference", "tag", "description", "bfd", "track", "permanent", "ecmp", "other"]
    takes: int | Literal["int", "rest"] = Field(
        default=0, description="words after it: a count, one number, or the rest of the line"
    )
    variants: dict[str, int] = Field(
        default_factory=dict,
        description="the word after it picks how many more follow ('track nqa <a> <b>': 2)",
    )


class StaticRouteSpec(_Data):
    """How the vendor prints a static route (roce_cfg/parse/statics.py)."""

    command: str = Field(description="the words a route line starts with ('ip route-static')")
    vrf_word: str | None = Field(default=None, description="'vpn-instance' / 'vrf'")
    settings: tuple[str, ...] = Field(
        default=(),
        description="words after the command that make the line a global setting, not a route "
        "('ip route-static bfd ...' configures a BFD session)",
    )
    bare_preference: bool = Field(
        default=False, description="a bare number after the next hop is the preference (IOS)"
    )
    options: dict[str, RouteOption] = Field(default_factory=dict)
    status: Status = "verified"
    source: str = ""


class RoutePreference(_Data):
    """Which route a switch forwards by when a static and an eBGP route name one prefix: the
    lower preference (administrative distance) wins. ``tie``: a static and an eBGP route of one
    preference load-balance ('ecmp'), do only where the static carries the vendor's inter-protocol
    ECMP word ('flagged'), or no source says ('unknown': both followed, and the verdict says so)."""

    static: int = Field(ge=1, le=255)
    ebgp: int = Field(ge=1, le=255)
    tie: Literal["ecmp", "flagged", "unknown"]
    status: Status = "verified"
    source: str = ""
    note: str = ""
