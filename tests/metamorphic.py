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
from ipaddress import IPv4Network

Rewrite = Callable[[str, str], str | None]


@dataclass(frozen=True)
class Form:
    name: str
    rewrite: Rewrite
    source: str
    # a form roce-cfg does not read yet: the property expects it to fail (strict), so the day a
    # reader learns it the entry must move here
    unread: bool = False


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


FORMS = (
    Form("crlf", crlf, "a saved file moved through Windows (tests/brownfield h3c-lag leaf-2.cfg)"),
    Form("terminal capture", terminal_capture, "shared/netmiko-notes.md: prompts and commands"),
    Form("pager", pager, "tests/parse/h3c/leaf-s6850-terminal.cfg: '---- More ----' erased"),
    Form("mask length", mask_length, "[HW-CR] ip address (interface view)"),
    Form("vlan batch listed", vlan_batch_listed, "[HW-CR] vlan batch"),
    Form("named PFC profile", named_pfc_profile, "[HW-CR] dcb pfc; dcb pfc enable", unread=True),
    Form("harmless QoS policy", harmless_policy, "[H3C-QOS-CG]; [HW-CR] traffic classifier"),
)
