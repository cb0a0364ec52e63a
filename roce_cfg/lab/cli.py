"""One emulated switch's command line: modes, views, prompts, config state, commit and save,
the vendor's error text, and injected faults. Transport-free: ``Session.feed`` takes a line
and returns what the switch prints, so the SSH server stays thin. How each vendor's CLI talks
(prompts, commit model, save dialogue) is its dialect (platforms/dialect.py)."""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from roce_cfg.deploy.node import Node
from roce_cfg.deploy.tree import Tree
from roce_cfg.grammar import Command, Grammar, load_grammar, rule_kind
from roce_cfg.lab import commit as points
from roce_cfg.lab import probe
from roce_cfg.lab.display import answer as display_answer
from roce_cfg.platforms.dialect import Question, command_pattern
from roce_cfg.platforms.profile import VendorProfile


@dataclass
class Faults:
    reject: str | None = None  # regex: matching config commands get the vendor's error
    drop_after: int | None = None  # close the connection after this many config commands
    delay_s: float = 0.0  # wait before every answer
    # every answer reaches the client this much later, the lines typed behind it answered
    # meanwhile: a network's round trip, which lines typed ahead do not each wait for
    latency_s: float = 0.0
    refuse_login: bool = False
    # Hosts that are no usable switch CLI, for push's per-host outcomes. 'silent': the TCP
    # connection is accepted and nothing is ever said; 'garbage': text that is neither an SSH
    # banner (before_ssh) nor a prompt (after_login); 'flood': garbage without end.
    before_ssh: Literal["silent", "garbage"] | None = None
    after_login: Literal["silent", "garbage", "flood"] | None = None
    # regex: the session's CLI sticks at a matching line: neither it nor any line typed after
    # it is answered (not even echoed); a new session is answered again
    hang_on: str | None = None
    # A failed push rehearsed: hang up at a line matching a regex (a drop at commit or save); the
    # save or the commit answers an error and does nothing; lines matching a regex are
    # accepted but do not change the config (a verify mismatch).
    drop_on: str | None = None
    drops: int | None = None  # drop_on hangs up this many times, then answers (None: always)
    save_error: bool = False
    commit_error: bool = False
    not_applied: str | None = None


# What the lab prints for its save and commit error faults (its own wording; the commit one
# is what netmiko's huawei_vrpv8 commit() looks for, shared/netmiko-notes.md 1).
SAVE_ERROR = "Error: Failed to save the configuration file."
COMMIT_ERROR = "Error: Failed to generate committed config."


# What a garbage host says: no SSH banner, no prompt terminator ('>', ']', '#').
GARBAGE = "%%% line noise 0x5f3e ~~ ^^ ~~ (no prompt here) %%%\r\n"


class Dropped(Exception):
    """The emulated switch hangs up (fault injection)."""


@dataclass
class Switch:
    """The state that outlives a session: running (and, on VRP, committed) config, saved copy."""

    hostname: str
    profile: VendorProfile
    running: Tree
    faults: Faults = field(default_factory=Faults)
    saved: str = ""
    commands: int = 0
    model: str = ""  # the model the grammar's model limits and ranges apply to ("" = unnamed)
    # "unsourced" mode: accept commands the vendor grammar marks unsourced (Ruijie, ZTE lossless
    # commands), which a strict emulator would refuse as unknown. 'roce-cfg lab' prints it.
    unsourced: bool = True
    # "lenient" mode ('roce-cfg lab --lenient'): a line no grammar entry knows is taken as
    # unknown-but-plausible instead of refused, so a brownfield rehearsal does not stop at a
    # valid line roce-cfg has no grammar for. Wrong views, parameters and ranges stay refused.
    lenient: bool = False
    overlay: Path | None = None  # --vendor-dir: the operator's own grammar merged over ours
    points: points.Points = field(default_factory=points.Points)  # restore points
    display: object = None  # the lab's live state verify's display commands show (lab/display.py)
    typed_ahead: int = 0  # the most whole lines that waited in the input behind the one answered

    @property
    def grammar(self) -> Grammar:
        return load_grammar(self.profile.vendor.value, self.overlay)

    @classmethod
    def start(
        cls,
        hostname: str,
        profile: VendorProfile,
        text: str | None = None,
        *,
        model: str = "",
        unsourced: bool = True,
        lenient: bool = False,
        overlay: Path | None = None,
    ) -> Switch:
        if text:
            tree = Tree.from_text(text, profile)
        else:
            tree = Tree(profile)
            tree.apply([profile.dialect.hostname.format(host=hostname)])
        sw = cls(
            hostname,
            profile,
            tree,
            model=model,
            unsourced=unsourced,
            lenient=lenient,
            overlay=overlay,
        )
        sw.saved = tree.render()
        return sw


class Session:
    def __init__(self, switch: Switch) -> None:
        self.sw = switch
        self.dialect = switch.profile.dialect
        self.config = False
        self.views: list[str] = []
        self.gviews: list[str] = []  # the grammar's name of each entered view
        self.candidate: Tree | None = None  # uncommitted changes (commit model 'candidate')
        self.question: str | None = None
        self.pending: tuple[str, list[Question]] | None = None  # a command awaiting answers
        self.closed = False
        self.hung = False  # stuck on a line (fault hang_on): nothing more is read or answered
        self.emptied: set[str] = set()  # ports whose lines were undone in this session

    # -- prompts ---------------------------------------------------------------------------
    def prompt(self) -> str:
        clean, dirty = self.dialect.commit.marks
        mark = dirty if self.config and self._dirty() else clean
        return self.dialect.prompts.prompt(self.sw.hostname, self.config, self.views, mark)

    def _dirty(self) -> bool:
        return self.candidate is not None and self.candidate.render() != self.sw.running.render()

    def banner(self) -> str:
        return self.prompt()

    # -- input -----------------------------------------------------------------------------
    def feed(self, line: str) -> str:
        """The switch's answer to one line (without the echo), ending with the next prompt."""
        text = line.strip()
        if self.question is not None:
            return self._answer(text)
        if not text:
            return self.prompt()
        view = (self.gviews[-1] if self.gviews else self.sw.grammar.root) if self.config else None
        vendor = self.sw.profile.vendor.value
        probed = probe.answer(text, self.sw, vendor, view, self.dialect.error)  # capture kit
        if probed is not None:
            return probed + "\r\n" + self.prompt()
        out = self._config(text) if self.config else self._exec(text)
        if self.closed or self.question is not None:
            return out
        return (out + "\r\n" if out else "") + self.prompt()

    def _exec(self, text: str) -> str:
        d = self.dialect
        if text in d.paging_off or text == "enable":
            return ""
        self._faults(text)
        if text == d.show.running:
            return self.sw.running.render().replace("\n", "\r\n").rstrip()
        if text == d.show.saved:
            return self.sw.saved.replace("\n", "\r\n").rstrip()
        if self.sw.faults.reject and re.search(self.sw.faults.reject, text):
            return self._error(text)
        if text in d.enter:
            self.config = True
            candidate = d.commit.model == "candidate"
            self.candidate = copy.deepcopy(self.sw.running) if candidate else None
            return ""
        if text in d.save.commands or text == "save":
            if d.save.question is not None:
                self.question = "save"
                return d.save.question
            return self._save()
        asked = self._ask(text)
        if asked is not None:
            return asked
        point = points.exec_line(self, text)
        if point is not None:
            return point
        if text in ("quit", "exit"):
            self.closed = True
            return ""
        shown = display_answer(self.sw, text)
        return shown if shown is not None else self._error(text)

    def _faults(self, text: str) -> None:
        """drop_on: hang up at a matching line once configuration has begun (a drop at the
        commit, the save, its check or a rollback command; not at the login's first lines)."""
        faults = self.sw.faults
        drop = faults.drop_on
        if drop is not None and self.sw.commands > 0 and re.search(drop, text):
            if faults.drops is not None:
                if faults.drops <= 0:
                    return
                faults.drops -= 1
            self.closed = True
            raise Dropped(text)

    def _save(self) -> str:
        if self.sw.faults.save_error:
            return SAVE_ERROR
        self.sw.saved = self.sw.running.render()
        return self.dialect.save.done

    def refuse(self, why: str) -> str:
        """The vendor's error for a restore command the switch cannot carry out, and why."""
        return self._error("") + "\r\nroce-cfg lab: " + why

    def _config(self, text: str) -> str:
        faults = self.sw.faults
        self._faults(text)
        if faults.reject and re.search(faults.reject, text) and points.handles(self, text):
            return self._error(text)  # a restore or confirm line refused: rollback rejected
        asked = self._ask(text)
        if asked is not None:
            return asked
        point = points.config_line(self, text)
        if point is not None:
            return point
        answer = self._session_command(text)
        if answer is not None:
            return answer
        self.sw.commands += 1
        if faults.drop_after is not None and self.sw.commands > faults.drop_after:
            self.closed = True
            raise Dropped(text)
        if faults.reject and re.search(faults.reject, text):
            return self._error(text)
        tree = self.candidate if self.candidate is not None else self.sw.running
        kind = tree.view_kind(text)
        if self.views and kind is not None and kind == tree.view_kind(self.views[0]):
            self.views, self.gviews = [], []  # 'interface B' typed inside interface A moves to B
            self._tidy()
        cmd, refusal = self._judge(text)
        if refusal is not None:
            return refusal
        if cmd is not None and cmd.exits:
            if self.views:
                self.views.pop()
                self.gviews.pop()
            return ""
        locked = self._locked(tree, text)
        if locked is not None:
            return locked
        if faults.not_applied and re.search(faults.not_applied, text) and not tree.is_view(text):
            return ""  # accepted, echoed, and not applied
        tree.apply([*self.views, text] if self.views else [text])
        if self._unprinted(tree, text) or text.startswith(self.sw.profile.negation):
            self.emptied.update(self.views[:1])  # left empty, it is not printed (_tidy)
        grammar = self.sw.grammar
        reset = grammar.reset_target(self.gviews[-1] if self.gviews else grammar.root, text)
        if reset is not None:  # 'default interface <port>': at its defaults, as never configured
            self.emptied.add(reset)
        if tree.is_view(text):
            self.views.append(text)
            self.gviews.append(self._entered(tree, cmd))
        elif cmd is not None and cmd.sets and self.gviews:
            self.gviews[-1] = cmd.sets
        return ""

    def _locked(self, tree: Tree, text: str) -> str | None:
        """The refusal of a staged edit while its apply step is in force (Comware's data
        buffer after 'buffer apply'); None when the line may go in."""
        if self.views:
            return None
        neg = self.sw.profile.negation
        bare = text[len(neg) :] if text.startswith(neg) else text
        for step in self.sw.profile.lint.apply_steps:
            applied = any(re.match(step.apply, c.line) for c in tree.root.children)
            if step.locked and applied and re.match(step.edits, bare):
                why = f"applied: '{step.lift}' first, then edit, then '{step.command}'"
                return self._error(text) + f"\r\nroce-cfg lab: {why} ({step.source})"
        return None

    def _session_command(self, text: str) -> str | None:
        """What a config-mode line that is no configuration does (display, commit, discard,
        save, leaving a view or config mode); None for a configuration line."""
        d = self.dialect
        if text == d.show.running:
            return self.sw.running.render().replace("\n", "\r\n").rstrip()
        if text == d.show.saved:
            return self.sw.saved.replace("\n", "\r\n").rstrip()
        if self.candidate is not None and text in d.commit.commands:
            if self.sw.faults.commit_error:
                return COMMIT_ERROR
            if self._dirty():  # a commit with changes is a rollback point
                self.sw.points.commit(self.sw.running)
            self.sw.running = copy.deepcopy(self.candidate)
            return ""
        if self.candidate is not None and text == d.commit.discard:
            self.candidate = copy.deepcopy(self.sw.running)
            self.views = []
            return ""
        if text in d.save.commands or text == "save":
            return self._exec(text)  # Comware saves from system view too
        if text in d.leave or (text == d.view_exit and not self.views):
            if self._dirty() and d.commit.leave_question is not None:
                self.question = "leave"
                return d.commit.leave_question
            self.config, self.views, self.gviews = False, [], []
            self._tidy()
            return ""
        if text == d.view_exit:
            self.views.pop()
            if self.gviews:
                self.gviews.pop()
            self._tidy()
            return ""
        return None

    def _unprinted(self, tree: Tree, text: str) -> bool:
        """A port state typed at its default ('switchport', Ruijie's 'no shutdown') is not
        printed: a switch lists what differs from the default (the grammar's ``default``)."""
        if not self.gviews:
            return False
        two_state, rest = self.sw.grammar.resting(self.gviews[-1], text, self.sw.profile.negation)
        node: Node | None = tree.root
        for line in self.views:
            node = node.find(line) if node is not None else None
        if not two_state or rest != text or node is None:
            return False
        node.children = [c for c in node.children if c.line != text]
        return True

    def _tidy(self) -> None:
        """A physical port emptied by undoing its lines is not printed, as a port never
        configured is not printed here: emptied by a restore, the port is as it was before.
        (A view typed with nothing in it stays, as typed.)"""
        tree = self.candidate if self.candidate is not None else self.sw.running
        grammar, neg = self.sw.grammar, self.sw.profile.negation
        inside = self.views[0] if self.views else None
        gone = {
            c.line
            for c in tree.root.children
            if c.line in self.emptied
            and c.line != inside
            and not c.children
            and grammar.undo_for(grammar.root, c.line, neg) is None
        }
        self.emptied -= gone
        tree.root.children = [c for c in tree.root.children if c.line not in gone]

    def _judge(self, text: str) -> tuple[Command | None, str | None]:
        """The grammar's verdict on a line typed in the current view, as the switch prints it.
        A negated line must be one of the command's undo forms (the grammar's), not any line
        with the negation word before it."""
        grammar = self.sw.grammar
        view = self.gviews[-1] if self.gviews else grammar.root
        cmd, rule = grammar.judge(view, text, self.sw.model, self.sw.profile.negation)
        kind = rule_kind(rule) if rule is not None else ""
        if kind == "unknown" and self.sw.lenient and _plausible(text):
            return None, None
        if rule is not None:
            why = f"roce-cfg lab: {rule}" + ("; --lenient takes it" if kind == "unknown" else "")
            return None, self._error(text, grammar.errors.get(kind)) + "\r\n" + why
        if cmd is not None and cmd.status == "unsourced" and not self.sw.unsourced:
            return None, self._error(text, grammar.errors.get("unknown"))
        return cmd, None

    def _entered(self, tree: Tree, cmd: Command | None) -> str:
        """The grammar view just entered; a view whose saved lines switch it (Huawei's
        'undo portswitch', Comware's 'port link-mode route') re-enters as switched."""
        grammar = self.sw.grammar
        view = cmd.opens if cmd is not None and cmd.opens else grammar.root
        node: Node | None = tree.root
        for line in self.views:
            node = node.find(line) if node is not None else None
        for child in node.children if node is not None else []:
            found, _ = grammar.match(view, child.line)
            if found is not None and found.sets:
                view = found.sets
        return view

    def _ask(self, text: str) -> str | None:
        """The first question a restore or confirm command asks before it acts (the dialect's
        ``questions``); None when it asks none and acts at once."""
        asked = [q for q in self.dialect.asked(text) if not q.exists or self._exists(q, text)]
        if not asked:
            return None
        self.question, self.pending = "confirm", (text, asked)
        return asked[0].ends

    def _exists(self, question: Question, text: str) -> bool:
        m = command_pattern(question.command).match(text)
        name = m.groupdict().get("file") if m is not None else None
        return name is not None and name in self.sw.points.files

    def _confirmed(self, reply: str) -> str:
        """The command asked about goes ahead once every question has the dialect's answer;
        any other answer abandons it (as a 'n' to a 'Continue?' does)."""
        assert self.pending is not None
        command, asked = self.pending
        self.pending = None
        if not reply.lower().startswith(asked[0].answer.lower()):
            return self.prompt()
        if asked[1:]:
            self.question, self.pending = "confirm", (command, asked[1:])
            return asked[1].ends
        act = points.config_line if self.config else points.exec_line
        done = act(self, command)
        out = self._error(command) if done is None else done
        return (out + "\r\n" if out else "") + self.prompt()

    def _answer(self, text: str) -> str:
        kind, self.question = self.question, None
        if kind == "confirm":
            return self._confirmed(text)
        yes = text.lower().startswith("y")  # the leave question: Y(yes)/N(no)/C(cancel)
        if kind == "save":
            agreed = text.lower().startswith(self.dialect.save.answer.lower())
            out = self._save() if agreed else ""
        elif text.lower().startswith("c"):
            out = ""
        else:
            if yes and self.candidate is not None and self._dirty():
                self.sw.points.commit(self.sw.running)
                self.sw.running = copy.deepcopy(self.candidate)
            self.config, self.views, self.candidate = False, [], None
            out = ""
        return (out + "\r\n" if out else "") + self.prompt()

    def _error(self, text: str, err: str | None = None) -> str:
        err = err or self.dialect.error
        if "^" in err:
            return " " * (len(self.prompt()) + 1) + "^\r\n" + err
        return err


def _plausible(line: str) -> bool:
    """A line that could be a CLI command: printable, bounded, beginning with a letter."""
    return len(line) <= 512 and line[:1].isalpha() and line.isprintable()
