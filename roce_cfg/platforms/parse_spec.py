"""What a vendor's saved configs leave unsaid and how they say the rest: the parse side of a
vendor profile (``VendorProfile.parse``, vendors/<vendor>.yaml ``parse:``): factory defaults,
aggregate and sub-interface forms, watchdog defaults per release, port ranges.
"""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from roce_cfg.platforms.routes import StaticRouteSpec


class _Data(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ParseDefaults(_Data):
    """What the switch does where its saved config prints nothing (factory defaults)."""

    pfc_no_drop: tuple[int, ...] = Field(
        default=(), description="no-drop priorities of a PFC port when no config line names any"
    )
    source: str = ""


class AggregateSpec(_Data):
    """Link aggregation: how an aggregate interface is named, and which settings the switch
    applies from the aggregate to its members (and which live on the members only)."""

    types: tuple[str, ...] = Field(description="interface types that are aggregates (Eth-Trunk)")
    names: dict[Literal["access", "routed"], str] = Field(
        description="a member's 'group N' line -> its aggregate, by the member's mode "
        "('Route-Aggregation{n}')"
    )
    modes: dict[str, Literal["access", "routed"]] = Field(
        default_factory=dict, description="aggregate types of one mode whatever they print"
    )
    inherit: tuple[str, ...] = Field(
        default=(),
        description="Interface/PortQos fields members take from their aggregate (mtu, trust_dscp)",
    )
    gather: tuple[str, ...] = Field(
        default=(),
        description="PortQos fields configured on members only: the aggregate has what all of "
        "its members share (strict_queues on Huawei)",
    )
    peer_link_all_vlans: bool = False  # a peer-link carries every VLAN but those it excludes
    source: str = ""
    unsourced: bool = Field(default=False, description="no vendor document confirms the forms")


class SubInterfaceSpec(_Data):
    """Sub-interfaces ('<port><separator><n>') and what they take from the port they ride."""

    separator: str = Field(min_length=1, max_length=1, description="'.' in '400GE1/0/1.100'")
    inherit: tuple[str, ...] = ()  # Interface/PortQos fields taken from the parent port
    source: str = ""


Action = Literal["drop", "forward"]


class WatchdogDefaults(_Data):
    """What a saved config leaves out of the PFC watchdog, and where that is documented."""

    granularity: str | None = Field(
        default=None, description="granularity word in force when no granularity line is printed"
    )
    action: Action | None = Field(
        default=None, description="the recovery action when no action line is printed"
    )
    action_by_model: dict[Action, tuple[str, ...]] = Field(
        default_factory=dict,
        description="the unprinted action per model, by model-name prefix (longest prefix wins)",
    )
    discard_everywhere_with: tuple[str, ...] = Field(
        default=(),
        description="model-name prefixes whose presence on a PFC network requires the 'drop' "
        "recovery action on every device",
    )
    source: str = ""

    def default_action(self, model: str) -> Action | None:
        """The action a switch of ``model`` takes when its config prints none (None: unsourced)."""
        best: tuple[int, Action | None] = (-1, self.action)
        for action, prefixes in self.action_by_model.items():
            for prefix in prefixes:
                if model.startswith(prefix) and len(prefix) > best[0]:
                    best = (len(prefix), action)
        return best[1]


class VersionForm(_Data):
    """A software release line of the vendor: which forms it prints, which defaults it leaves
    unprinted (matched on the version its saved config names in its header)."""

    match: str = Field(description="regex on the version string ('^V300')")
    watchdog_ms: tuple[int, int] | None = Field(
        default=None,
        description="detect/restore ms in force on a PFC switch that prints no watchdog line "
        "(None: no source gives them)",
    )
    granularity_sourced: bool = Field(
        default=True, description="the watchdog's default granularity is documented for it"
    )
    source: str = ""
    note: str = ""


class RangeSpec(_Data):
    """A block whose lines apply to every port of a range it names (Comware 'interface range')."""

    header: str = Field(
        description="regex of the block's first line; group 'ports' holds the ports it names "
        "('A to B C'), empty for a range named before"
    )
    to: str = Field(default="to", description="the word between a span's first and last port")
    source: str = ""


class ParseSpec(_Data):
    """How to read this vendor's saved running-config back (roce_cfg/parse)."""

    defaults: ParseDefaults = ParseDefaults()
    aggregate: AggregateSpec | None = None
    interface_range: RangeSpec | None = None
    sub_interface: SubInterfaceSpec | None = None
    static_route: StaticRouteSpec | None = None
    watchdog_defaults: WatchdogDefaults = WatchdogDefaults()
    version_line: str | None = Field(
        default=None, description="regex of the header line naming the release (group 1)"
    )
    versions: tuple[VersionForm, ...] = Field(
        default=(),
        description="release lines, first match wins; a config naming none is read "
        "without version defaults",
    )

    detect: tuple[str, ...] = Field(
        description="regexes (multi-line); each that matches the text scores one point"
    )
    last_line: str | None = Field(
        default=None, description="regex of the line a complete saved config ends with"
    )
    layout_lines: tuple[str, ...] = Field(
        default=(), description="top-level lines that are layout, not configuration (end, return)"
    )
    known_blocks: tuple[str, ...] = Field(
        description="regexes on a top-level line whose block the parse templates read"
    )
    grammar_blocks: tuple[str, ...] = Field(
        default=(),
        description="known blocks only the grammar reads: kept out of the templates' input "
        "(unindented there, the DFS group's ' priority' would be a PFC profile's)",
    )
    interface_aliases: dict[str, str] = Field(
        default_factory=dict, description="short interface type -> full type (HGE -> HundredGigE)"
    )
    # port types printed besides interface_prefix ('TFGigabitEthernet ': 25 Gb/s), names kept;
    # views listing ports beside own lines (ZXROS 'dcb'), read as '<view> | <line>'; a prompt
    # after last_line starts a capture's session output, not configuration
    port_types: dict[str, Annotated[int, Field(gt=0, le=1600)]] = Field(default_factory=dict)
    port_views: tuple[str, ...] = ()
    capture_prompt: str | None = None
    wrap_width: int | None = Field(
        default=None, description="the CLI wraps saved lines at this column (ZTE: 80)"
    )
    default_port_mode: Literal["access", "routed"] = "access"
    port_modes: dict[str, int] = Field(
        default_factory=dict, description="'port mode <word>' -> the Gb/s the port runs at"
    )
    distance_levels: dict[str, int] = {}  # a port's link-length class word -> metres, at most
    port_watchdog_implied: bool = Field(
        default=False, description="the global watchdog covers every PFC port (no port command)"
    )
    port_ecn_needs_queue_flag: bool = Field(
        default=False, description="a queue bound to a WRED profile also needs its own 'ecn' line"
    )
    watchdog_actions: dict[str, Action] = Field(default_factory=dict)
    pfc_negotiated_modes: tuple[str, ...] = Field(
        default=(),
        description="PFC modes left to DCBX negotiation (Huawei 'dcb pfc enable mode auto'): "
        "without the port's DCBX TLV PFC never comes up",
    )
    routed_trusts_dscp: bool = Field(
        default=False,
        description="a Layer-3 port trusts DSCP with no trust line (Huawei [HW-CR] trust)",
    )
    default_mtu: int = Field(
        default=1500, description="MTU of a port with no MTU line (vendor factory default)"
    )
    default_mtu_source: str | None = Field(
        default=None, description="where default_mtu comes from (None: no source gives it)"
    )
    ip_mtu_bounds_forwarding: bool = Field(
        default=True,
        description="an interface's IPv4 'mtu' bounds the packets the switch forwards; false "
        "where a source says the forwarding chip does not check it (the frame limit does)",
    )
    ipv6_mtu_default: int | Literal["mtu"] = Field(
        default="mtu",
        description="IPv6 MTU of an interface with no 'ipv6 mtu' line: a number, or 'mtu' "
        "(the interface's IP MTU applies)",
    )
    sizes: dict[str, int | Literal["cell"]] = Field(
        default_factory=dict, description="unit words printed after a size (kbytes: 1024)"
    )
    anchors: dict[str, str] = Field(
        default_factory=dict,
        description="block header a finding about a global area points at (ecn: drop-profile); "
        "'<name>.entry': the form of one entry's line in that block ({key}: the entry)",
    )

    def version(self, printed: str) -> VersionForm | None:
        """The release line a config's printed version belongs to."""
        return next((v for v in self.versions if re.search(v.match, printed)), None)
