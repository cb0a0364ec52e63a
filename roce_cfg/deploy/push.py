"""Push: read the running config, diff it with the intended one, apply the remediation, commit
and save, verify by reading back, and roll back to the state before on any failure."""

from __future__ import annotations

import contextlib
import copy
import difflib
import functools
import re
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal

from netmiko import BaseConnection, ReadTimeout

from roce_cfg.deploy.inventory import Target
from roce_cfg.deploy.restore import Snapshot, differences
from roce_cfg.deploy.rollback import Progress, Restorer, RollbackError, how, save
from roce_cfg.deploy.session import TYPE_AHEAD, Cli, PushError
from roce_cfg.deploy.summary import SectionChange, section_changes
from roce_cfg.deploy.transport import Timeouts, Unusable, connect
from roce_cfg.deploy.tree import Tree, remediation
from roce_cfg.grammar import load_grammar
from roce_cfg.redact import redact

Status = Literal["no changes", "planned", "changed", "rolled back", "rollback-failed", "failed"]
# Outcomes that stop a canary rollout and make push exit non-zero.
FAILED: tuple[Status, ...] = ("failed", "rolled back", "rollback-failed")


@dataclass
class Outcome:
    host: str
    status: Status
    commands: list[str] = field(default_factory=list)
    diff: str = ""
    error: str = ""
    seconds: float = 0.0
    pruned: list[str] = field(default_factory=list)  # commands there only because of --prune
    # negations whose undo form no source documents (the grammar's 'undo ' + line fallback)
    unsourced: list[str] = field(default_factory=list)
    # rollback-failed: how the switch still differs from before the push ('+' added by the push,
    # '-' removed by it), or '?' lines (the commands sent) when it could not be read at all.
    left: list[str] = field(default_factory=list)
    # Why it failed, in one word: unreachable, timeout, garbage, auth-failed, no-prompt (the
    # steps of reaching it, see transport.Unusable), rejected, dropped, save, error.
    kind: str = ""
    saved: bool = False  # changed, and the saved config verified to be the running one
    # What the restore of a failed push did, step by step (a vendor restore point, a discard
    # of uncommitted changes, a full-config restore, a step done again on a new session).
    restore: str = ""
    # After a restore: the running and the saved config compared whole with the snapshot and
    # found the same (True), different (False), or not known (None: not read, not reached).
    running_back: bool | None = None
    saved_back: bool | None = None
    timer: str = ""  # the switch's own confirm timer, still running: what it will do and when
    sections: list[SectionChange] = field(default_factory=list)  # the diff, section by section


@dataclass(frozen=True)
class Credentials:
    username: str
    password: str

    def __repr__(self) -> str:  # never print the password, not even in a traceback
        return f"Credentials(username={self.username!r}, password=<redacted>)"


def changes(
    target: Target, running: str, intended: str, prune: bool = False
) -> tuple[list[str], str]:
    """What a push types to take ``running`` to ``intended``, and the diff it makes."""
    commands, diff, _ = planned(target, running, Tree.from_text(intended, target.profile), prune)
    return commands, diff


def planned(
    target: Target, running: str, want: Tree, prune: bool = False
) -> tuple[list[str], str, list[SectionChange]]:
    """``changes``, and the diff section by section (the dry run's summary); ``want``: the
    intended config read once per push, as the check after the push diffs against it again
    (a remediation reads its intended tree, never changes it)."""
    have = Tree.from_text(running, target.profile)
    commands = remediation(have, want, prune)
    after = copy.deepcopy(have)
    after.apply(commands)
    diff = "".join(
        difflib.unified_diff(
            have.render().splitlines(keepends=True),
            after.render().splitlines(keepends=True),
            f"{target.name} (running)",
            f"{target.name} (after push)",
        )
    )
    return commands, diff, section_changes(have, after)


def still(target: Target, running: str, want: Tree, prune: bool = False) -> list[str]:
    """What a push would type to take ``running`` to the intended tree ``want`` (``changes``
    without the diff, which a check after the push has no use for)."""
    return remediation(Tree.from_text(running, target.profile), want, prune, spent=True)


def pruned(target: Target, running: str, intended: str, commands: list[str]) -> list[str]:
    """The negations in ``commands`` that only --prune asked for (objects the intent lacks)."""
    p = target.profile
    kept = set(remediation(Tree.from_text(running, p), Tree.from_text(intended, p)))
    return [c for c in commands if c.startswith(p.negation) and c not in kept]


def unsourced_undos(target: Target, commands: list[str]) -> list[str]:
    """The negations in ``commands`` whose undo form the vendor grammar cannot vouch for."""
    p = target.profile
    if not any(c.strip().startswith(p.negation) for c in commands):
        return []  # no negation typed (a switch configured from empty): no walk of the views
    grammar = p.grammar()
    return grammar.unsourced_undos(commands, "", p.dialect.view_exit, p.negation)


def rollback_unsourced(target: Target, running: str, commands: list[str]) -> list[str]:
    """For a vendor whose rollback is a full-config restore (no restore point of its own): the
    negations that undoing ``commands`` would type and no source documents ('rollback: ...')."""
    p = target.profile
    if p.dialect.restore.commands:
        return []  # the switch's own restore point goes back, no negation is typed
    after = Tree.from_text(running, p)
    after.apply(commands)
    back = remediation(after, Tree.from_text(running, p), prune=True, full=True)
    return [f"rollback: {u}" for u in unsourced_undos(target, back)]


def irreversible(target: Target, commands: list[str]) -> frozenset[str]:
    """For a vendor whose rollback is a full-config restore: the commands that restore could
    not take back, port states whose unset form no source gives ('no shutdown' on ZXROS: the
    grammar's ``resting`` has none, so the restore types no guessed opposite). Push types one
    only once every line before it is answered, so a refusal before it never leaves it behind,
    as typing line by line would not."""
    p = target.profile
    if p.dialect.restore.commands:
        return frozenset()  # the switch's own restore point takes back whatever was typed
    key = (p.vendor.value, p.overlay, p.negation)
    return frozenset(c for c in commands if _unrestorable(*key, c.strip()))


# lines repeat on every port and every switch of a vendor: each is judged once
@functools.lru_cache(maxsize=1 << 16)
def _unrestorable(vendor: str, overlay: Path | None, neg: str, line: str) -> bool:
    """``irreversible``'s judgement of one line, in any view its command is typed in."""
    grammar = load_grammar(vendor, overlay)
    word = line.removeprefix(neg).split(" ", 1)[0]
    views = _typed_in(vendor, overlay).get(word, ())
    return any(grammar.resting(v, line, neg) == (True, None) for v in views)


@functools.cache
def _typed_in(vendor: str, overlay: Path | None) -> dict[str, frozenset[str]]:
    """A grammar command's first word -> the views it is typed in (or switches to)."""
    views: dict[str, set[str]] = {}
    for cmd in load_grammar(vendor, overlay).commands:
        for word in cmd.first:
            views.setdefault(word, set()).update((*cmd.views, *((cmd.sets,) if cmd.sets else ())))
    return {word: frozenset(v) for word, v in views.items()}


def _errors(target: Target) -> str:
    p = target.profile
    return "|".join(re.escape(e) for e in (*p.error_patterns, p.dialect.error))


def _running(conn: BaseConnection, target: Target, timeout: float = 120.0) -> str:
    return Cli(conn, target.profile, timeout).show(target.profile.dialect.show.running)


def _connect(target: Target, creds: Credentials, steps: Timeouts) -> BaseConnection:
    return connect(
        target.profile,
        target.address,
        target.port,
        creds.username,
        creds.password,
        steps,
        target.extras,
    )


def push(
    target: Target,
    intended: str,
    creds: Credentials,
    apply: bool,
    timeout: float = 60.0,
    prune: bool = False,
    timeouts: Timeouts | None = None,
    confirm: int | None = None,
    strict: bool = False,
    window: int = TYPE_AHEAD,
) -> Outcome:
    """Dry run (``apply`` False) or apply one device; never raises, the outcome says it all.
    ``timeouts`` bounds each step (``timeout``: each answer, when ``timeouts`` is not given);
    ``confirm`` (seconds) arms the switch's own confirm timer for the change;
    ``strict`` sends nothing when the change would type a negation no source documents;
    ``window``: configuration lines typed ahead of the answers read (1: one at a time)."""
    steps = timeouts if timeouts is not None else Timeouts(command=timeout)
    start = time.perf_counter()
    outcome = Outcome(target.name, "failed")
    try:
        conn = _connect(target, creds, steps)
    except Exception as exc:
        outcome.error, outcome.kind = _why(exc), _kind(exc)
        outcome.seconds = time.perf_counter() - start
        return _redacted(outcome, target)
    try:
        before = _running(conn, target, steps.command)
        want = Tree.from_text(intended, target.profile)
        outcome.commands, outcome.diff, outcome.sections = planned(target, before, want, prune)
        if prune:
            outcome.pruned = pruned(target, before, intended, outcome.commands)
        outcome.unsourced = unsourced_undos(target, outcome.commands)
        if strict:  # a failed push would be undone with these
            outcome.unsourced += rollback_unsourced(target, before, outcome.commands)
        if not outcome.commands:
            outcome.status = "no changes"
        elif strict and outcome.unsourced:
            outcome.kind = "unsourced-undo"
            outcome.error = (
                f"--strict-syntax: {len(outcome.unsourced)} negation(s) no source documents; "
                "nothing sent"
            )
        elif not apply:
            outcome.status = "planned"
        else:
            conn = _apply(conn, target, creds, before, want, outcome, steps, prune, confirm, window)
    except Exception as exc:
        if not outcome.error:
            outcome.error, outcome.kind = _why(exc), _kind(exc)
    finally:
        with contextlib.suppress(Exception):
            conn.disconnect()
    outcome.seconds = time.perf_counter() - start
    return _redacted(outcome, target)


def _redacted(outcome: Outcome, target: Target) -> Outcome:
    """The running config holds credentials: what the outcome quotes of it (the diff, commands,
    errors naming a command, what a failed rollback left) is redacted before anyone sees it.
    The commands were sent as they were; only their record is redacted."""
    vendor = target.profile.vendor.value
    outcome.diff = redact(outcome.diff, vendor)
    outcome.sections = [replace(s, section=redact(s.section, vendor)) for s in outcome.sections]
    outcome.error = redact(outcome.error, vendor)
    for lines in (outcome.commands, outcome.pruned, outcome.unsourced, outcome.left):
        lines[:] = [redact(c, vendor) for c in lines]
    return outcome


def _apply(
    conn: BaseConnection,
    target: Target,
    creds: Credentials,
    before: str,
    want: Tree,
    outcome: Outcome,
    steps: Timeouts,
    prune: bool,
    confirm: int | None = None,
    window: int = TYPE_AHEAD,
) -> BaseConnection:
    """Snapshot, change, verify, confirm, save, verify the save; on any failure back to the
    snapshot (deploy/rollback.py). The outcome records both errors and what is left."""
    p = target.profile
    progress = Progress()
    cli = Cli(conn, p, steps.command)
    cli.at_user_view()
    saved = cli.show(p.dialect.show.saved) if p.dialect.show.saved else None
    try:
        fenced = irreversible(target, outcome.commands) if window > 1 else frozenset()
        _change(cli, outcome.commands, progress, confirm, window, fenced)
        left = still(target, _running(conn, target, steps.command), want, prune)
        if left:
            raise PushError(f"verify: {len(left)} command(s) still differ after the push")
        _confirm(cli, progress)
        progress.saved = True
        save(cli)
        _verify_saved(cli)
        outcome.status, outcome.saved = "changed", True
        return conn
    except Exception as exc:
        outcome.error, outcome.kind = _why(exc), _kind(exc)
    restorer = Restorer(
        p, Snapshot(before, saved), progress, steps.command, lambda: _connect(target, creds, steps)
    )
    try:
        conn = restorer.run(conn)
        outcome.status = "rolled back"
    except RollbackError as exc:
        outcome.status, outcome.left = "rollback-failed", exc.left
        outcome.error += f"; rollback failed: {exc}"
    except Exception as exc:  # not even the state could be read: what was sent may be there
        outcome.status = "rollback-failed"
        outcome.left = [f"? {c}" for c in cli.sent]
        outcome.error += f"; rollback failed: {_why(exc)}"
    outcome.restore = "; ".join(restorer.done) or f"{how(p)}: not reached"
    outcome.running_back, outcome.saved_back = restorer.running_back, restorer.saved_back
    if progress.armed:
        outcome.timer = progress.timer_note()
        outcome.error += f"; {outcome.timer}"
    return conn


def _change(
    cli: Cli,
    commands: list[str],
    progress: Progress,
    confirm: int | None,
    window: int,
    fenced: frozenset[str] = frozenset(),
) -> None:
    """The restore point first, then every line with its answer read (up to ``window`` typed
    ahead), the commit (armed with the switch's timer when ``confirm`` seconds are asked for),
    back to the user view."""
    d = cli.profile.dialect
    for c in d.restore.fill(d.restore.checkpoint):
        cli.send(c)
    progress.checkpoint = True
    cli.enter()
    arm = d.confirm.arm.format(time=d.confirm.amount(confirm)) if d.confirm and confirm else None
    seconds = d.confirm.seconds(confirm) if d.confirm and confirm else 0
    if arm is not None and d.confirm is not None and d.confirm.at == "start":
        progress.arm(arm, seconds)  # before it is sent: its answer may be lost, not its effect
        cli.send(arm)
    cli.send_all(commands, window, fenced)
    if d.commit.model == "candidate":
        progress.committed = True
        by_trial = arm is not None and d.confirm is not None and d.confirm.at == "commit"
        if by_trial and arm:
            progress.arm(arm, seconds)
        cli.send(arm if by_trial and arm else d.commit.commands[0])
    cli.leave()


def _confirm(cli: Cli, progress: Progress) -> None:
    confirm = cli.profile.dialect.confirm
    if not progress.armed or confirm is None:
        return
    cli.enter()
    cli.send(confirm.confirm)
    cli.leave()
    progress.armed = False


def _verify_saved(cli: Cli) -> None:
    """The startup config is the running one after the save ('display saved-configuration')."""
    d = cli.profile.dialect
    if d.show.saved is None:
        return
    saved = cli.show(d.show.saved)
    running = cli.show(d.show.running)
    left = [] if saved == running else differences(running, saved, cli.profile)
    if left:
        raise PushError(f"save: the saved config differs from the running one ({len(left)} lines)")


def _kind(exc: BaseException) -> str:
    if isinstance(exc, Unusable | PushError):
        return exc.kind
    if isinstance(exc, ReadTimeout | TimeoutError):
        return "timeout"
    return "error"


def _why(exc: BaseException) -> str:
    if isinstance(exc, Unusable):
        if exc.kind == "auth-failed":
            return f"{exc} (check ROCE_CFG_USERNAME / ROCE_CFG_PASSWORD)"
        return str(exc)
    text = str(exc).strip().splitlines()
    first = text[0] if text else type(exc).__name__
    if "Authentication" in type(exc).__name__ or "uthentication" in first:
        return "authentication failed (check ROCE_CFG_USERNAME / ROCE_CFG_PASSWORD)"
    name = "PushError" if isinstance(exc, PushError) else type(exc).__name__
    return f"{name}: {first}"[:300]
