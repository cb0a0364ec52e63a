"""Interface names: the short and spaced forms operators and CLIs print, to one canonical form.

The canonical form is the one the vendor profile renders (``interface_prefix``,
``vlan_interface``, ``loopback_interface``); aliases come from ``parse.interface_aliases``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from roce_cfg.platforms.profile import VendorProfile

# The type ends at its last letter: what follows up to the number holds none. Said greedily
# (not '[A-Za-z-]*?'), the match does not retry the number at every letter: a third of the
# time of naming 100,000 ports; tests/test_parse_peak.py holds the two equal.
_NAME = re.compile(
    r"^(?P<type>\d*[A-Za-z](?:[A-Za-z-]*[A-Za-z])?)[\s-]*"
    r"(?P<num>\d+(?:/\d+)*(?::\d+)?(?:\.\d+)?)$"
)

Kind = Literal["port", "vlan", "loopback", "aggregate", "other"]


@dataclass(frozen=True, slots=True)
class Name:
    canonical: str
    kind: Kind
    speed: int | None = None
    number: str = ""


# Names remembered across the configs read with one profile: a fabric's port names recur in
# every config (a third of naming an xl config's ports went to the regex); a config of unique
# names clears it. Each Namer keeps every name of its own config (the strings shared, for the
# memory of a config of 100,000 ports).
MAX_SHARED = 10_000
MAX_SHARED_CHARS = 64  # an interface name is short; a hostile line is not remembered
_SHARED: dict[int, tuple[VendorProfile, dict[str, Name]]] = {}


def _shared(profile: VendorProfile) -> dict[str, Name]:
    # Profiles are cached per (vendor, overlay) and immutable; identity guards a reused id.
    hit = _SHARED.get(id(profile))
    if hit is None or hit[0] is not profile:
        hit = _SHARED[id(profile)] = (profile, {})
    return hit[1]


def _key(type_: str) -> str:
    return type_.strip().rstrip("-").lower()


class Namer:
    """
    >>> from roce_cfg.vendor import Vendor
    >>> from roce_cfg.platforms.profile import load_profile
    >>> n = Namer(load_profile(Vendor.H3C))
    >>> n.name("HGE1/0/1")
    Name(canonical='HundredGigE1/0/1', kind='port', speed=100, number='1/0/1')
    >>> n.name("vlan-interface 101").canonical
    'Vlan-interface101'
    >>> Namer(load_profile(Vendor.RUIJIE)).name("Hu0/1").canonical
    'HundredGigabitEthernet 0/1'
    >>> Namer(load_profile(Vendor.ZTE)).name("XXVGE-0/2/0/10").canonical
    'xxvgei-0/2/0/10'
    """

    def __init__(self, profile: VendorProfile) -> None:
        self._types: dict[str, tuple[str, Kind, int | None]] = {}
        for speed, prefix in profile.interface_prefix.items():
            self._types[_key(prefix)] = (prefix, "port", speed)
        self._types[_key(profile.vlan_interface)] = (profile.vlan_interface, "vlan", None)
        loop = _NAME.match(profile.loopback_interface)
        if loop:
            sep = profile.loopback_interface[len(loop["type"]) : loop.start("num")]
            self._types[_key(loop["type"])] = (loop["type"] + sep, "loopback", None)
        for prefix, speed in profile.parse.port_types.items():
            self._types.setdefault(_key(prefix), (prefix, "port", speed))
        lag = profile.parse.aggregate
        for type_ in lag.types if lag else ():
            self._types[_key(type_)] = (type_, "aggregate", None)
        for short, full in profile.parse.interface_aliases.items():
            target = self._types.get(_key(full))
            if target:
                self._types[_key(short)] = target
        self._cache: dict[str, Name] = {}
        self._shared = _shared(profile)
        self._words: dict[str, tuple[str, Kind, int | None] | None] = {}  # type as printed

    def _type(self, word: str) -> tuple[str, Kind, int | None] | None:
        if word not in self._words:
            self._words[word] = self._types.get(_key(word))
        return self._words[word]

    def name(self, raw: str) -> Name:
        hit = self._cache.get(raw)
        if hit is None:
            hit = self._shared.get(raw)
            if hit is None:
                hit = self._name(raw)
                if len(raw) <= MAX_SHARED_CHARS:
                    if len(self._shared) >= MAX_SHARED:
                        self._shared.clear()
                    self._shared[raw] = hit
            elif hit.canonical == raw and hit.canonical is not raw:
                hit = Name(raw, hit.kind, hit.speed, hit.number)  # this text's string (below)
            self._cache[raw] = hit
        return hit

    def _name(self, raw: str) -> Name:
        stripped = raw.strip()
        m = _NAME.match(stripped)
        if not m:
            return Name(stripped, "other")
        type_, number = m.group("type", "num")
        known = self._type(type_)
        if known is None:
            return Name(stripped, "other", number=number)
        prefix, kind, speed = known
        canonical = prefix + number
        # A saved config mostly prints the canonical form: then the name is the text it was
        # read from (the cache's key), one string for the source map, the accounting and the
        # port model instead of one each (100,000 ports: 7 MB).
        return Name(raw if canonical == raw else canonical, kind, speed, number)
