"""The capture kit's script: what an engineer types on a real switch to confirm the commands
and undo forms no source documents (``roce-cfg vendors capture VENDOR``).

For every command of the vendor's grammar graded unsourced or partial, and every undo form
that is not sourced, the script enters the command's view the way the grammar says it is
opened, asks the switch's ``?`` help for its words, types one line of it, shows the running
config, then types its removal and shows the running config again. platforms/session.py reads
the saved session back into an overlay that cites what the switch accepted."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from roce_cfg.errors import InputError
from roce_cfg.grammar import Command, Grammar, Param, load_grammar, render_syntax
from roce_cfg.grammar.load import capture_data
from roce_cfg.grammar.syntax import TOKEN, param_of
from roce_cfg.platforms.profile import VendorProfile

# A value of each parameter type the script types: documentation addresses (RFC 5737, 3849),
# a name that says where it came from. Ranged integers take the range's top (VLAN 1 and
# priority 0 are defaults a switch may refuse to remove or set).
SAMPLES = {
    "word": "roce-cfg-capture",
    "text": "roce-cfg capture",
    "ipv4": "192.0.2.1",
    "mask": "255.255.255.0",
    "ipv6": "2001:db8::1",
    "ipv6net": "2001:db8::/64",
    "int": "1",
    "vlans": "4000",
}
# By parameter name, where 1 is no value a switch takes (a frame of 1 byte, equal WRED
# thresholds): still samples; a line refused for its value is retyped with one the switch takes.
BY_NAME = {"bytes": "9000", "min": "1000", "max": "2000", "d": "10", "r": "10", "n": "2"}


def sample(param: Param) -> str:
    """A value the parameter accepts."""
    if param.kind.startswith("/"):
        return regex_sample(param.kind[1:-1])
    if param.allowed:
        return str(param.allowed[-1][1])
    return (
        BY_NAME.get(param.name, SAMPLES[param.kind]) if param.kind == "int" else SAMPLES[param.kind]
    )


def regex_sample(pattern: str) -> str:
    """A short string the regex of a parameter matches (the subset the grammars use:
    literals, ``(?:a|b)`` groups whose first branch is taken, ``\\d`` and ``[...]`` classes,
    ``+`` once, ``*`` once, ``?`` not at all, ``{m,n}`` m times)."""
    out, _ = _sample_seq(pattern, 0)
    return out


def _sample_seq(p: str, i: int) -> tuple[str, int]:
    out = ""
    while i < len(p) and p[i] not in "|)":
        if p.startswith("(?:", i):
            piece, i = _sample_seq(p, i + 3)
            depth = 0
            while i < len(p) and not (p[i] == ")" and depth == 0):  # skip the other branches
                depth += {"(": 1, ")": -1}.get(p[i], 0) if p[i - 1] != "\\" else 0
                i += 1
            i += 1
        elif p[i] == "\\":
            piece, i = ("1" if p[i + 1] == "d" else p[i + 1]), i + 2
        elif p[i] == "[":
            end = p.index("]", i + 1)
            piece, i = p[i + 1], end + 1
        else:
            piece, i = p[i], i + 1
        if i < len(p) and p[i] in "?+*":
            piece, i = ("" if p[i] == "?" else piece), i + 1
        elif i < len(p) and p[i] == "{":  # '{m,n}': m times (once for m = 0)
            end = p.index("}", i)
            piece, i = piece * max(1, int(p[i + 1 : end].split(",")[0] or 1)), end + 1
        out += piece
    return out, i


def literal_words(syntax: str) -> list[str]:
    """The literal words a syntax begins with (up to its first parameter or bracket)."""
    words = []
    for tok in TOKEN.findall(syntax):
        if tok.startswith("<") or tok in "{}[]|":
            break
        words.append(tok)
    return words


def sample_line(cmd: Command, port: str | None = None) -> str:
    """One line of ``cmd``: the spare port where the command names a port, else samples."""
    words = literal_words(cmd.syntax)
    named = any(p.kind.startswith("/") for p in cmd.params.values())
    if port and named and cmd.regex.match(" " + " ".join([*words, *port.split()])):
        return " ".join([*words, *port.split()])
    values = {}
    for tok in TOKEN.findall(cmd.syntax):
        if tok.startswith("<"):
            p = param_of(tok)
            values[p.name] = sample(p)
    line = render_syntax(cmd.syntax, values) or ""
    if not cmd.regex.match(" " + line):
        raise ValueError(f"{cmd.name}: no sample line ('{line}' does not match its syntax)")
    return line


@dataclass
class Group:
    """The commands typed in one view reached one way: its openers, probes, lines, removals."""

    view: str
    path: list[tuple[Command, str]]  # (opener, line) from the root
    before: list[str] = field(default_factory=list)  # probes of the opener, typed before it
    probes: list[str] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    last: list[str] = field(default_factory=list)  # lines that leave the view
    removals: list[str] = field(default_factory=list)
    names: list[str] = field(default_factory=list)

    @property
    def openers(self) -> list[str]:
        return [line for _, line in self.path]

    @property
    def reentry(self) -> list[str]:
        """The way back in: the openers, without the lines that switched the view (typed
        again, the switched port refuses them)."""
        return [line for c, line in self.path if not c.sets]

    def setters(self, negation: str) -> list[str]:
        """The removals of the path's lines that switched the view (RGOS 'no switchport')."""
        found = (_undo(c, line, negation) for c, line in self.path if c.sets)
        return [s for s in found if s]


def routes(grammar: Grammar, port: str | None) -> dict[str, list[tuple[Command, str]]]:
    """View -> the (command, line) openers typed from the root to reach it (breadth first:
    the shortest way), a view switched by a line in it (RGOS 'no switchport') included."""
    found: dict[str, list[tuple[Command, str]]] = {grammar.root: []}
    todo = [grammar.root]
    while todo:
        view = todo.pop(0)
        for cmd in grammar.commands:
            target = cmd.opens or cmd.sets
            if view in cmd.views and target and target not in found:
                found[target] = [*found[view], (cmd, sample_line(cmd, port))]
                todo.append(target)
    return found


def wanted(cmd: Command) -> bool:
    """A command the kit confirms: no source for it, or for its undo form."""
    undo_open = cmd.undo is not None and cmd.undo.status != "sourced"
    return cmd.status != "sourced" or undo_open


def groups(grammar: Grammar, negation: str, port: str | None) -> list[Group]:
    """The script's groups, one per way into a view holding a command to confirm, shortest
    first; a view's opener to confirm is typed on the way into the view it opens."""
    ways = routes(grammar, port)
    found: dict[tuple[str, ...], Group] = {}
    for cmd in grammar.commands:
        view = next((v for v in cmd.views if v in ways), None)
        if not wanted(cmd) or view is None:
            continue
        line = sample_line(cmd, port)
        path = [*ways[view], (cmd, line)] if cmd.opens else ways[view]
        key = tuple(ln for _, ln in path)
        group = found.setdefault(key, Group(cmd.opens or view, path))
        _add(group, cmd, line, negation)
    return sorted(found.values(), key=lambda g: len(g.path))


def _add(group: Group, cmd: Command, line: str, negation: str) -> None:
    words = literal_words(cmd.syntax) or line.split()[:1]
    asked = [words[0], " ".join(words)]
    removal = _undo(cmd, line, negation)
    if removal is not None and cmd.undo is not None and cmd.undo.status != "sourced":
        asked.append(" ".join(literal_words(cmd.undo.commands[0].syntax)[:2]) or removal.split()[0])
    probes = group.before if cmd.opens else group.probes  # asked in the view it is typed in
    probes += [f"{w} ?" for w in dict.fromkeys(asked) if f"{w} ?" not in probes]
    group.names.append(cmd.name)
    if cmd.opens:  # typed on the way in (the group's path), removed by the last group
        return
    (group.last if cmd.exits else group.lines).append(line)  # a line leaving the view: last
    if removal is not None:
        group.removals.insert(0, removal)


def _undo(cmd: Command, line: str, negation: str) -> str | None:
    m = cmd.regex.match(" " + line)
    values = {k: v.strip() for k, v in (m.groupdict() if m else {}).items() if v is not None}
    return cmd.negate(values, line, negation)


def made(grammar: Grammar, found: list[Group], negation: str) -> list[tuple[list[str], str]]:
    """What removes the views the script made, deepest first: (the openers of the view it is
    typed in, the removal), or the line that resets one (a physical port). A view opened by
    a line without a value of its own ('dcb', 'qos') may hold the switch's own settings from
    before: it is left."""
    out: dict[tuple[str, ...], tuple[int, list[str], str]] = {}
    for g in found:
        for depth, (cmd, line) in enumerate(g.path):
            key = tuple(g.openers[: depth + 1])
            if not cmd.opens or not cmd.params or key in out:
                continue
            reset = grammar.reset_for(cmd.views[0], line)
            removal = _undo(cmd, line, negation) if cmd.undo is not None else reset
            if removal:
                out[key] = (depth, g.openers[:depth], removal)
    return [(parent, removal) for _, parent, removal in sorted(out.values(), key=lambda x: -x[0])]


RISK = """\
! roce-cfg capture kit: {vendor} ({os}). {count} commands or undo forms no source confirms.
! RISK: these lines change the switch's configuration. Run them on a lab switch, or at least
! on a spare port that carries no traffic (--port names it; now: {port}).
! Each group adds its settings and then removes them; a line the switch refuses changes nothing.
! The last group removes the views the script made (VLAN, WRED profile, BGP instance ...) and
! resets the port; views without a value of their own ('dcb', 'qos' ...) are left as they are.
! The values are samples: a line refused for its value, retype with one the switch takes.
! How: turn on your terminal's session log, paste one group at a time (lines starting with '!'
! are notes: leave them out). After a '?' line the switch shows its help and keeps the words
! typed: clear them (Ctrl-U) before the next line. Save the log, then:
!   roce-cfg vendors capture {vendor} --read SESSION.log -o my-overlay
"""


def script(profile: VendorProfile, overlay: Path | None = None, port: str | None = None) -> str:
    """The capture script of the profile's vendor (see the module)."""
    vendor = profile.vendor.value
    grammar = load_grammar(vendor, overlay)
    d, neg = profile.dialect, profile.negation
    found = groups(grammar, neg, port)
    if port and not any(" ".join(port.split()) in ln for g in found for ln in g.openers):
        raise InputError(f"'{port}': no {vendor} interface command takes it", path="--port")
    count = sum(1 for c in grammar.commands if wanted(c))
    where = port or "a sample name; give yours with --port"
    out = [RISK.format(vendor=vendor, os=profile.os, count=count, port=where)]
    data = capture_data(vendor)
    if not data:
        raise InputError(
            f"vendors capture: vendors/{vendor}.grammar.yaml has no 'capture' data (how its "
            "show version names the model and release): only a vendor with it can be captured"
        )
    shown = data["show_version"]
    out += ["! 1. The model and software release the overlay will cite", shown, ""]
    enter, leave = d.enter[0], d.leave[0]
    for n, g in enumerate(found, 2):
        out.append(f"! {n}. view {g.view}: {', '.join(g.names)}")
        *way, last = g.openers or [""]
        out += [enter, *way, *g.before, *([last] if last else []), *g.probes]
        out += [*g.lines, *g.last, leave, d.show.running]
        undo = [*g.removals, *reversed(g.setters(neg))]
        out += [enter, *g.reentry, *undo, leave, d.show.running] if undo else []
        out.append("")
    out.append(f"! {len(found) + 2}. remove what the script made")
    for parent, removal in made(grammar, found, neg):
        out += [enter, *parent, removal, leave]
    out += [d.show.running, ""]
    return "\n".join(out)
