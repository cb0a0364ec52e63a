"""Rewrites a switch treats as the same configuration: the catalogue the metamorphic property
(tests/test_metamorphic.py) applies to designed fabrics. Each rewrite says where the equivalence
comes from; a reader that tells the two forms apart is wrong, whatever it concludes.

A rewrite takes one config's text and its vendor and gives the text in the other form, or None
where it does not apply (no such line, another vendor).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from ipaddress import IPv4Address, IPv4Network, IPv6Address

Rewrite = Callable[[str, str], str | None]


def _same_name(port: str) -> str:
    return port


@dataclass(frozen=True)
class Form:
    name: str
    rewrite: Rewrite
    source: str
    # a form roce-cfg does not read yet: the property expects it to fail (strict), so the day a
    # reader learns it the entry must move here
    unread: bool = False
    # the name a port of the rewritten form has in the original (findings match up to it)
    rename: Callable[[str], str] = _same_name
    # a rewrite of the whole fabric or of none of it (both ends of a link must change together)
    whole_fabric: bool = False
    # the rewrite changes lines in place or adds them after the config: every line keeps its
    # number, so every finding keeps its line (a reader that miscounts lines is caught)
    keeps_lines: bool = False
    # the rewrite reads as the same device model, field for field (not so where it renames ports,
    # readdresses them or adds a policy): a misreading no rule judges yet is caught too
    same_model: bool = True


def _lines(text: str) -> list[str]:
    return text.splitlines()


def crlf(text: str, vendor: str) -> str | None:
    return text.replace("\n", "\r\n")


_PROMPTS = {
    "h3c": ("<{host}>", "display current-configuration"),
    "huawei": ("<{host}>", "display current-configuration"),
    "ruijie": ("{host}#", "show running-config"),
    "zte": ("{host}#", "show running-config"),
}


def _host(text: str) -> str:
    found = re.search(r"^\s*(?:sysname|hostname)\s+(\S+)", text, re.M)
    return found[1] if found else "switch"


def terminal_capture(text: str, vendor: str) -> str | None:
    """The file as a terminal log keeps it: the prompt and command before, the prompt after,
    trailing blanks on some lines."""
    prompt, command = _PROMPTS[vendor]
    shown = prompt.format(host=_host(text))
    body = [ln + "   " if n % 7 == 3 else ln for n, ln in enumerate(_lines(text))]
    return "\n".join([f"{shown}{command}", *body, shown]) + "\n"


def pager(text: str, vendor: str) -> str | None:
    """Every 23rd line behind the pager prompt the CLI erased with ANSI cursor moves."""
    lines = _lines(text)
    out = [
        f"  ---- More ----\x1b[16D                \x1b[16D{ln}" if n and n % 23 == 0 else ln
        for n, ln in enumerate(lines)
    ]
    return "\n".join(out) + "\n"


def mask_length(text: str, vendor: str) -> str | None:
    """Huawei VRP takes a mask or its length ('ip address <ip-address> { <mask> |
    <mask-length> }') and prints what it was given."""
    if vendor != "huawei":
        return None

    def shorter(m: re.Match[str]) -> str:
        return f"{m[1]}{IPv4Network(f'0.0.0.0/{m[2]}').prefixlen}"

    out = re.sub(r"^(\s*ip address \S+ )(\d+\.\d+\.\d+\.\d+)$", shorter, text, flags=re.M)
    return out if out != text else None


def vlan_batch_listed(text: str, vendor: str) -> str | None:
    """Huawei 'vlan batch { <vlan-id1> [ to <vlan-id2> ] } &<1-10>': a range or its VLANs."""
    if vendor != "huawei":
        return None

    def listed(m: re.Match[str]) -> str:
        low, high = int(m[1]), int(m[2])
        if high - low > 8:
            return m[0]
        return " ".join(str(v) for v in range(low, high + 1))

    def spans(m: re.Match[str]) -> str:
        return re.sub(r"(\d+) to (\d+)", listed, m[1])

    out = re.sub(r"(?<=^vlan batch )(.*)$", spans, text, flags=re.M)
    return out if out != text else None


def named_pfc_profile(text: str, vendor: str) -> str | None:
    """Huawei CE: the default PFC profile and a named one applied per port configure the same
    pause ('dcb pfc [ <profilename> ]', 'dcb pfc enable [ <pfcprofile> ] [ mode { auto |
    manual } ]')."""
    if vendor != "huawei" or "\ndcb pfc\n" not in text:
        return None
    text = text.replace("\ndcb pfc\n", "\ndcb pfc roce\n")
    return re.sub(r"^ dcb pfc enable( mode \w+)?$", r" dcb pfc enable roce\1", text, flags=re.M)


def _blocks(text: str) -> list[list[str]]:
    """The config's top-level blocks: a line at column 0 and the indented lines under it."""
    out: list[list[str]] = []
    for line in _lines(text):
        if line[:1] not in (" ", "") or not out:
            out.append([line])
        else:
            out[-1].append(line)
    return out


def _joined(blocks: list[list[str]]) -> str:
    return "\n".join(line for block in blocks for line in block) + "\n"


# H3C lines a port's own settings are made of, that may stand on an aggregate or on its members
# (vendors/h3c.yaml parse.aggregate: inherit and gather)
_MEMBER_SETTINGS = re.compile(r"^ (qos trust|qos (wrr|wfq)|qos wred apply|jumboframe enable)")
_GROUP = re.compile(r"^ port link-aggregation group (\d+)$")


def settings_on_members(text: str, vendor: str) -> str | None:
    """H3C: trust, queue scheduling, WRED and the frame limit printed on an aggregate, or the
    same lines on each of its members and not on it. Attribute configurations made on the
    aggregate are synchronised to its members [H3C-LAG-CG]; the interface-view QoS and jumbo
    commands apply per port [H3C-TPL-A], [H3C-S6850-CG] (vendors/h3c.yaml parse.aggregate)."""
    if vendor != "h3c":
        return None
    blocks = _blocks(text)
    moved: dict[str, list[str]] = {}
    for block in blocks:
        m = re.fullmatch(r"interface (?:Bridge|Route)-Aggregation(\d+)", block[0])
        lines = [ln for ln in block[1:] if _MEMBER_SETTINGS.match(ln)] if m else []
        if m and lines:
            moved[m[1]] = lines
            block[1:] = [ln for ln in block[1:] if ln not in lines]
    changed = False
    for block in blocks:
        group = next((g[1] for ln in block[1:] if (g := _GROUP.match(ln))), None)
        if block[0].startswith("interface ") and group in moved:
            block[1:] = [*block[1:], *moved[group]]
            changed = True
    return _joined(blocks) if changed else None


_OWN = re.compile(r"^ (description|ip address|port link-aggregation group) ")
_PORT = re.compile(r"^interface (?P<type>[A-Za-z-]+)(?P<slot>\d+/\d+/)(?P<n>\d+)$")


def interface_range(text: str, vendor: str) -> str | None:
    """H3C: the lines a run of ports has in common typed once in 'interface range <first> to
    <last>', each port's block keeping its own ('interface range' view: the commands apply to
    every interface of the range [CMW-RANGE])."""
    if vendor != "h3c":
        return None
    out: list[list[str]] = []
    run: list[list[str]] = []
    changed = False

    def flush() -> None:
        nonlocal changed
        common = [ln for ln in run[0][1:] if not _OWN.match(ln)] if run else []
        common = [ln for ln in common if all(ln in b for b in run)]
        if len(run) > 1 and common:
            first, last = run[0][0].split()[1], run[-1][0].split()[1]
            out.extend([[f"interface range {first} to {last}", *common], ["#"]])
            for b in run:
                out.extend([[b[0], *(ln for ln in b[1:] if ln not in common)], ["#"]])
            changed = True
        else:
            out.extend(x for b in run for x in (b, ["#"]))
        run.clear()

    for block in _blocks(text):
        m = _PORT.match(block[0])
        if block == ["#"] and run:
            continue  # the separators of a run are written back with it
        prev = _PORT.match(run[-1][0]) if run else None
        if m is None or (prev and not _next(prev, m)):
            flush()
        if m is None:
            out.append(block)
        else:
            run.append(block)
    flush()
    return _joined(out) if changed else None


def _next(prev: re.Match[str], port: re.Match[str]) -> bool:
    """Whether ``port`` is the port after ``prev`` (same type and slot, the next number)."""
    same = (port["type"], port["slot"]) == (prev["type"], prev["slot"])
    return same and int(port["n"]) == int(prev["n"]) + 1


def saved_range_name(text: str, vendor: str) -> str | None:
    """H3C: a named interface range is saved as its name and members, with nothing under it
    ([CMW-RANGE] 'interface range name'); it sets nothing itself."""
    if vendor != "h3c":
        return None
    ports = [b[0].split()[1] for b in _blocks(text) if _PORT.match(b[0])]
    if len(ports) < 2:
        return None
    blocks = _blocks(text)
    at = next(n for n, b in enumerate(blocks) if b[0].startswith("interface "))
    blocks.insert(at, [f"interface range name ROCE interface {ports[0]} to {ports[1]}", "#"])
    return _joined(blocks)


def _zte_blocks(text: str) -> list[list[str]]:
    """A ZXROS config's '!<if-intf>' interface blocks (each from 'interface X' to its '$')."""
    out: list[list[str]] = []
    block: list[str] | None = None
    for line in _lines(text):
        if line.startswith("interface "):
            block = [line]
        elif block is not None:
            block.append(line)
            if line == "$":
                out.append(block)
                block = None
    return out


def _into_view(
    text: str,
    view: str,
    moved: Callable[[str], bool],
    shared: tuple[str, ...] = (),
) -> str:
    """``text`` with the port lines ``moved`` takes out of each '!<if-intf>' port block, and
    listed again per port in a '!<view>' / 'view' section ('  interface X' / '    <line>'),
    after ``shared`` (the view's own lines, which stand for the same lines of every port)."""
    ports: list[tuple[str, list[str]]] = []
    for block in _zte_blocks(text):
        lines = [ln for ln in block[1:-1] if moved(ln.strip()) and ln.strip() not in shared]
        if lines:
            kept = [block[0], *(ln for ln in block[1:] if not moved(ln.strip()))]
            text = text.replace("\n".join(block) + "\n", "\n".join(kept) + "\n", 1)
            ports.append((block[0], lines))
    section = [f"!<{view}>", view, *(f"  {ln}" for ln in shared)]
    for head, lines in ports:
        section += [f"  {head}", *(f"    {ln.strip()}" for ln in lines), "  $"]
    section += ["$", f"!</{view}>"]
    return text.rstrip("\n") + "\n" + "\n".join(section) + "\n"


_NO_DROP = re.compile(r"^\s*pfc priority (\d+) no-drop$", re.M)


def zte_dcb_view(text: str, vendor: str) -> str | None:
    """ZXROS: a port's 'pfc enable' in a 'dcb' view ('dcb' / '  interface X' / '    pfc
    enable') and the no-drop priorities every PFC port shares as the view's own '  pfc priority
    <p> no-drop', instead of both in the port's block: the form of tests/brownfield/fabrics/
    rj-zte-lag (unconfirmed; what roce-cfg reads it as, vendors/zte.grammar.yaml)."""
    if vendor != "zte" or "\n  pfc enable\n" not in text:
        return None
    sets = {tuple(_NO_DROP.findall("\n".join(b))) for b in _zte_blocks(text) if "  pfc enable" in b}
    if len(sets) != 1 or not next(iter(sets)):
        return None  # ports differ in their no-drop priorities: no one switch-wide list
    shared = tuple(f"pfc priority {p} no-drop" for p in next(iter(sets)))
    return _into_view(text, "dcb", lambda ln: ln == "pfc enable" or ln in shared, shared)


def zte_qos_view(text: str, vendor: str) -> str | None:
    """ZXROS: a port's DSCP trust as '    trust dscp' under 'qos' / '  interface X' instead of
    '  qos trust dscp' in its block (tests/brownfield/fabrics/rj-zte-lag, unconfirmed)."""
    if vendor != "zte" or "\n  qos trust dscp\n" not in text:
        return None
    out = _into_view(text, "qos", lambda ln: ln == "qos trust dscp")
    return out.replace("    qos trust dscp\n", "    trust dscp\n")


def zte_end(text: str, vendor: str) -> str | None:
    """A ZXROS file closed by 'end' after its last section (tests/brownfield/fabrics/rj-zte-lag
    spine-1; SOURCES.md there: printed by some collectors and releases)."""
    return text.rstrip("\n") + "\nend\n" if vendor == "zte" else None


def zte_spaced_tags(text: str, vendor: str) -> str | None:
    """ZXROS section tags closed as '! </tag>' (the [ZTE-LACP] capture,
    tests/wild/zte/guide-smartgroup-lacp.cfg)."""
    if vendor != "zte":
        return None
    return re.sub(r"^!</", "! </", text, flags=re.M)


def ruijie_pfc_mode_on(text: str, vendor: str) -> str | None:
    """RGOS: ' priority-flow-control mode on' where roce-cfg writes ' priority-flow-control
    enable' (the leaves of tests/brownfield/fabrics/rj-zte-lag; neither form has a source)."""
    if vendor != "ruijie" or " priority-flow-control enable\n" not in text:
        return None
    return text.replace(" priority-flow-control enable\n", " priority-flow-control mode on\n")


def session_output(text: str, vendor: str) -> str | None:
    """A capture that goes on after the config with another command and its output
    (tests/wild/ruijie/s2628g-e-rgos10-capture.cfg: 'sh vl' after 'end'), where the vendor's
    data names its prompt (vendors/<vendor>.yaml parse.capture_prompt)."""
    from roce_cfg.platforms.profile import load_profile
    from roce_cfg.vendor import Vendor

    if load_profile(Vendor(vendor)).parse.capture_prompt is None:
        return None
    prompt, _ = _PROMPTS[vendor]
    shown = prompt.format(host=_host(text))
    output = [
        f"{shown}show vlan",
        "VLAN Name                             Status    Ports",
        "---- -------------------------------- --------- --------------------",
        "   1 VLAN0001                         STATIC    Gi0/1, Gi0/2",
        shown,
    ]
    return text.rstrip("\n") + "\n" + "\n".join(output) + "\n"


# A QoS policy whose only class matches a DSCP neither RoCE nor CNP carries: police it, and
# apply the policy on every port. Its lines are all read (roce_cfg/parse/policies.py), and its
# class touches no lossless traffic, so nothing lossless may change.
_HARMLESS = {
    "h3c": (
        "traffic classifier SCAVENGER operator or\n if-match dscp {dscp}\n#\n"
        "traffic behavior SCAVENGER-LIMIT\n"
        " car cir 1000000 cbs 6250000 ebs 0 green pass red discard\n"
        "#\nqos policy EDGE\n classifier SCAVENGER behavior SCAVENGER-LIMIT\n#\n"
        " qos apply policy EDGE global inbound\n#\n"
    ),
    "huawei": (
        "traffic classifier SCAVENGER type or\n if-match dscp {dscp}\n#\n"
        "traffic behavior SCAVENGER-LIMIT\n car cir 10 gbps red discard\n#\n"
        "traffic policy EDGE\n classifier SCAVENGER behavior SCAVENGER-LIMIT precedence 5\n#\n"
        "traffic-policy EDGE global inbound\n#\n"
    ),
}


def harmless_policy(text: str, vendor: str) -> str | None:
    """A global policy policing a DSCP the config maps nowhere (nor the default RoCE 26 and CNP
    48): a behavior acts only on the packets its classifier matches ([H3C-QOS-CG] QoS policies;
    [HW-CR] traffic classifier, traffic-policy global)."""
    if vendor not in _HARMLESS or "\ninterface " not in text:
        return None
    mapped = {int(n) for n in re.findall(r"^ (?:import|ip-dscp-inbound) (\d+)", text, re.M)}
    dscp = next(d for d in range(8, 64) if d not in mapped | {26, 48})
    block = _HARMLESS[vendor].format(dscp=dscp)
    at = text.index("\ninterface ") + 1
    return text[:at] + block + text[at:]


SUB_VID = 3999  # a dot1q VLAN no designed fabric uses for its rails


def _routed_block(m: re.Match[str]) -> str:
    """One routed port's block as its port (queues, PFC, frame, MTU, trust) and a dot1q
    sub-interface holding its address (with the same MTU and DSCP domain)."""
    name, body = m[1], m[2]
    lines = body.splitlines()
    address = [ln for ln in lines if ln.startswith(" ip address ")]
    if not address:
        return m[0]
    kept = [ln for ln in lines if ln not in address]
    sub = [f" dot1q termination vid {SUB_VID}", *address]
    sub += [ln for ln in lines if ln.startswith((" mtu ", " trust upstream "))]
    parent = "\n".join([f"interface {name}", *kept])
    return f"{parent}\n#\ninterface {name}.{SUB_VID}\n" + "\n".join(sub) + "\n"


def routed_port_as_sub_interface(text: str, vendor: str) -> str | None:
    """Huawei CE: a routed port's address on a dot1q sub-interface of it instead. The port's
    queues carry the sub-interface's frames: 'dcb pfc enable', 'qos drr', 'qos queue N
    wred/ecn' and 'jumboframe enable' exist in the physical views only, 'mtu', 'trust upstream'
    and 'ip address' in the sub-interface's too ([HW-CR] dot1q termination vid and the views
    those commands list). Lossless findings match with the sub-interface named as its port."""
    if vendor != "huawei":
        return None
    block = re.compile(r"^interface (\d+GE[\d/:]+)\n((?: .*\n)+)", re.M)
    out = block.sub(_routed_block, text)
    return out if out != text else None


def _parent_name(port: str) -> str:
    return port.removesuffix(f".{SUB_VID}")


# IPv4 addresses as IPv6 ones of the documentation prefix, the IPv4 number in the low 32 bits:
# a /31 stays a link's two ends (/127), a /32 a host (/128), every subnet keeps its members
_V6_BASE = int(IPv6Address("2001:DB8::"))
_QUAD = r"\d+\.\d+\.\d+\.\d+"


def _v6(ip: str) -> str:
    return str(IPv6Address(_V6_BASE | int(IPv4Address(ip)))).upper()


def _v6_net(ip: str, mask: str, sep: str = " ") -> str:
    """A prefix as the vendor prints an IPv6 one ('<ipv6> <length>' on VRP and Comware,
    '<ipv6>/<length>' in the IOS shape); a default stays a default."""
    plen = IPv4Network(f"0.0.0.0/{mask}").prefixlen
    return f"{_v6(ip)}{sep}{plen + 96}" if plen else f"::{sep}0"


def _v6_interface(block: list[str], mtu6: bool = True, enable: bool = True) -> list[str]:
    """An interface block with its IPv4 address as an IPv6 one ('ipv6 address X/LEN', the
    shape every vendor's source prints) and, where the vendor keeps the two apart, its IPv6 MTU
    set as its IP MTU; 'ipv6 enable' before the address where the vendor needs it (VRP)."""
    mtu = next((ln.split()[1] for ln in block if re.fullmatch(r" +mtu \d+", ln)), None)
    out: list[str] = []
    for ln in block:
        m = re.fullmatch(r"( +)ip address (\S+) (\S+)", ln)
        if m is None:
            out.append(ln)
            continue
        ip, plen = _v6_net(m[2], m[3]).split()
        out += [f"{m[1]}ipv6 enable"] if enable else []
        out.append(f"{m[1]}ipv6 address {ip}/{plen}")
        out += [f"{m[1]}ipv6 mtu {mtu}"] if mtu and mtu6 else []
    return out


def _v6_peers(ln: str, word: str) -> str:
    """A peer's line ('peer <ip> ...' / 'neighbor <ip> ...') with the peer's IPv6 address."""
    m = re.fullmatch(rf"( +{word} )({_QUAD})( .+)", ln)
    return f"{m[1]}{_v6(m[2])}{m[3]}" if m else ln


def _v6_bgp_vrp(block: list[str]) -> list[str]:
    """The BGP block with IPv6 peers and the IPv4 family's lines in 'ipv6-family unicast' (the
    printed shape of [HW-CG] 'Example for Configuring Basic BGP4+ Functions')."""
    out: list[str] = []
    for ln in block:
        n = re.fullmatch(r"( +network )(\S+) (\S+)", ln)
        if ln == " ipv4-family unicast":
            out += [ln, " #", " ipv6-family unicast"]
        elif n:
            out.append(f"{n[1]}{_v6_net(n[2], n[3])}")
        else:
            out.append(_v6_peers(ln, "peer"))
    return out


def _v6_bgp_comware(block: list[str]) -> list[str]:
    """Comware 7: IPv6 peers in the instance view, the family renamed 'address-family ipv6
    unicast' with its networks '<ipv6> <length>' ([CMW-BGP6])."""
    out: list[str] = []
    for ln in block:
        n = re.fullmatch(r"( +network )(\S+) (\S+)", ln)
        if ln == " address-family ipv4 unicast":
            out.append(" address-family ipv6 unicast")
        elif n:
            out.append(f"{n[1]}{_v6_net(n[2], n[3])}")
        else:
            out.append(_v6_peers(ln, "peer"))
    return out


def _v6_bgp_rgos(block: list[str]) -> list[str]:
    """RGOS (IOS shape, unsourced): IPv6 neighbors, 'address-family ipv6 unicast' with its
    networks '<ipv6>/<length>'."""
    out: list[str] = []
    for ln in block:
        n = re.fullmatch(r"( +network )(\S+) mask (\S+)", ln)
        if ln == " address-family ipv4 unicast":
            out.append(" address-family ipv6 unicast")
        elif n:
            out.append(f"{n[1]}{_v6_net(n[2], n[3], '/')}")
        else:
            out.append(_v6_peers(ln, "neighbor"))
    return out


# ZXROS prints the IPv4 family's lines straight under 'router bgp' ([ZTE-6120H-SCRIPT])
_ZTE_FAMILY = re.compile(r"  (maximum-paths |network |neighbor \S+ (activate|default-originate))")


def _v6_bgp_zxros(block: list[str]) -> list[str]:
    """ZXROS (IOS shape, unsourced): IPv6 neighbors under 'router bgp', the family's lines in
    an 'address-family ipv6' block closed by its '$' (the block's own '$' follows at column 0)."""
    head: list[str] = []
    family: list[str] = []
    for ln in block:
        n = re.fullmatch(r"  network (\S+) (\S+)", ln)
        if n:
            family.append(f"    network {_v6_net(n[1], n[2], '/')}")
        elif _ZTE_FAMILY.match(ln):
            family.append("  " + _v6_peers(ln, "neighbor"))
        else:
            head.append(_v6_peers(ln, "neighbor"))
    return [*head, "  address-family ipv6", *family, "  $"]


@dataclass(frozen=True)
class _V6Shape:
    """How one vendor prints the IPv6 twin of its IPv4 lines."""

    bgp_head: str  # the BGP block's first line
    bgp: Callable[[list[str]], list[str]]
    static: str  # the IPv4 static's words
    static6: str  # the IPv6 static's words
    sep: str  # between an IPv6 prefix and its length
    mtu6: bool  # an 'ipv6 mtu' of its own (else the interface's MTU applies)
    enable: bool = False  # 'ipv6 enable' before the address


_V6_SHAPES = {
    "huawei": _V6Shape(
        r"bgp \d+", _v6_bgp_vrp, "ip route-static", "ipv6 route-static", " ", True, True
    ),
    "h3c": _V6Shape(r"bgp \d+", _v6_bgp_comware, "ip route-static", "ipv6 route-static", " ", True),
    "ruijie": _V6Shape(r"router bgp \d+", _v6_bgp_rgos, "ip route", "ipv6 route", "/", False),
    "zte": _V6Shape(r"router bgp \d+", _v6_bgp_zxros, "ip route", "ipv6 route", "/", False),
}


def _v6_static(shape: _V6Shape, line: str) -> str:
    m = re.fullmatch(rf"( ?){shape.static} ({_QUAD}) (\S+) ({_QUAD})(.*)", line)
    if m is None:
        return line
    return f"{m[1]}{shape.static6} {_v6_net(m[2], m[3], shape.sep)} {_v6(m[4])}{m[5]}"


def ipv6_addressing(text: str, vendor: str) -> str | None:
    """The same fabric addressed in IPv6, as each vendor prints it: 'ipv6 address X/LEN' (and
    'ipv6 mtu' where the vendor keeps one) on each interface, IPv6 peers, the family's networks
    and activations in the vendor's IPv6 address family, IPv6 statics. Links pair by their
    /127s, sessions by their peers, routes by their prefixes as they did in IPv4; the router ID
    stays a 32-bit ID. VRP: [HW-CR] ipv6 enable, ipv6 address, ipv6 mtu, peer as-number (BGP
    view) (IPv6), network (BGP-IPv6 unicast address family view), ipv6 route-static. Comware 7:
    [CMW-IPV6-CR], [CMW-BGP6], [CMW-STATIC6]. RGOS and ZXROS: the IOS shape their grammars
    grade unsourced (vendors/ruijie.grammar.yaml, vendors/zte.grammar.yaml)."""
    shape = _V6_SHAPES.get(vendor)
    if shape is None or not re.search(r"^ +ip address ", text, re.M):
        return None
    blocks = _blocks(text)
    for n, block in enumerate(blocks):
        if block[0].startswith("interface "):
            blocks[n] = _v6_interface(block, shape.mtu6, shape.enable)
        elif re.fullmatch(shape.bgp_head, block[0]):
            blocks[n] = shape.bgp(block)
        else:
            blocks[n] = [_v6_static(shape, ln) for ln in block]
    return _joined(blocks)


FORMS = (
    Form(
        "crlf",
        crlf,
        "a saved file moved through Windows (tests/brownfield h3c-lag leaf-2.cfg)",
        keeps_lines=True,
    ),
    Form("terminal capture", terminal_capture, "shared/netmiko-notes.md: prompts and commands"),
    Form(
        "pager",
        pager,
        "tests/parse/h3c/leaf-s6850-terminal.cfg: '---- More ----' erased",
        keeps_lines=True,
    ),
    Form("mask length", mask_length, "[HW-CR] ip address (interface view)", keeps_lines=True),
    Form("vlan batch listed", vlan_batch_listed, "[HW-CR] vlan batch"),
    Form(
        "named PFC profile", named_pfc_profile, "[HW-CR] dcb pfc; dcb pfc enable", keeps_lines=True
    ),
    Form("settings on members", settings_on_members, "[H3C-LAG-CG]; vendors/h3c.yaml aggregate"),
    Form("interface range", interface_range, "[CMW-RANGE] interface range"),
    Form("saved range name", saved_range_name, "[CMW-RANGE] interface range name"),
    Form("ZTE dcb view", zte_dcb_view, "tests/brownfield/fabrics/rj-zte-lag (unconfirmed)"),
    Form("ZTE qos view", zte_qos_view, "tests/brownfield/fabrics/rj-zte-lag (unconfirmed)"),
    Form(
        "ZTE end",
        zte_end,
        "tests/brownfield/fabrics/rj-zte-lag spine-1 and its SOURCES.md",
        keeps_lines=True,
    ),
    Form("ZTE spaced tags", zte_spaced_tags, "[ZTE-LACP] '! </LACP>'", keeps_lines=True),
    Form(
        "Ruijie PFC mode on",
        ruijie_pfc_mode_on,
        "tests/brownfield/fabrics/rj-zte-lag leaves",
        keeps_lines=True,
    ),
    Form(
        "session output",
        session_output,
        "tests/wild/ruijie/s2628g-e-rgos10-capture.cfg",
        keeps_lines=True,
    ),
    Form(
        "harmless QoS policy",
        harmless_policy,
        "[H3C-QOS-CG]; [HW-CR] traffic classifier",
        same_model=False,
    ),
    Form(
        "routed port vs parent + dot1q sub-interface",
        routed_port_as_sub_interface,
        "[HW-CR] dot1q termination vid; dcb pfc enable, qos queue ecn, jumboframe enable "
        "(physical views only); mtu, trust upstream, ip address (sub-interface views)",
        rename=_parent_name,
        same_model=False,
    ),
    Form(
        "IPv6 addressing",
        ipv6_addressing,
        "[HW-CR] ipv6 address; [HW-CG] BGP4+ example; [CMW-IPV6-CR], [CMW-BGP6], [CMW-STATIC6]; "
        "RGOS/ZXROS: the IOS shape (unsourced)",
        whole_fabric=True,
        same_model=False,
    ),
)
