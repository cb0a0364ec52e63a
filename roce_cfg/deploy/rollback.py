"""Return a switch to its snapshot after a failed push; see deploy/restore.py for
how "the same as before" is judged. The order: whatever the session holds is dropped (VRP's
uncommitted candidate, config mode), a confirm timer that can be ended at once is ended
(VRP ``abort trial``), then the vendor's restore point (``restore`` in the dialect) or a
full-config restore; then the running config is compared with the snapshot as a whole, and the
saved config with the saved snapshot (saved again when the push's save got through)."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TypeVar

from netmiko import BaseConnection

from roce_cfg.deploy.restore import Snapshot, differences
from roce_cfg.deploy.session import Cli, Dropped, NoAnswer, PushError
from roce_cfg.deploy.tree import Tree, remediation
from roce_cfg.platforms.profile import VendorProfile


class RollbackError(PushError):
    """The rollback itself failed; ``left`` says how the switch differs from before."""

    def __init__(self, message: str, left: list[str]) -> None:
        super().__init__(message)
        self.left = left


# What a lost session raises: the lab's or a switch's hang-up (Dropped), a write to a closed
# socket (OSError), a transport at its end (EOFError). A step that meets one is tried again
# once, on a new session; a refusal or a silence is not (it would be refused again).
LOST = (Dropped, OSError, EOFError)


@dataclass
class Progress:
    """How far a push got, which decides how it is undone."""

    checkpoint: bool = False  # the vendor's restore point was taken
    armed: bool = False  # the switch's confirm timer runs
    committed: bool = False  # a commit was sent (its answer may have been lost)
    saved: bool = False  # a save was sent: the saved config may hold the push
    timer: str = ""  # the command that armed the timer ('commit trial 300')
    fires: float = 0.0  # when it reverts the switch, unless confirmed (epoch seconds)

    def arm(self, command: str, seconds: int) -> None:
        self.armed, self.timer, self.fires = True, command, time.time() + seconds

    def timer_note(self) -> str:
        """What the switch's own timer will do, while it runs ('' once ended or confirmed)."""
        if not self.armed:
            return ""
        at = datetime.fromtimestamp(self.fires, UTC).strftime("%H:%M:%S UTC")
        return (
            f"the switch's own confirm timer ('{self.timer}') still runs: unless the change is "
            f"confirmed, the switch reverts itself to its config before the push at about {at}"
        )


def how(profile: VendorProfile) -> str:
    """The restore method, as the outcome states it."""
    commands = profile.dialect.restore.fill(profile.dialect.restore.commands)
    if commands:
        return "vendor restore point: " + "; ".join(commands)
    return "full-config restore from the snapshot (no sourced restore point for this vendor)"


@dataclass
class Restorer:
    profile: VendorProfile
    snapshot: Snapshot
    progress: Progress
    timeout: float
    reconnect: Callable[[], BaseConnection]
    done: list[str] = field(default_factory=list)  # what the restore did, as the outcome says
    running_back: bool | None = None  # None: not known (not read)
    saved_back: bool | None = None

    def run(self, conn: BaseConnection) -> BaseConnection:
        """Back to the snapshot, or RollbackError saying what is left (and, when the running
        config is back but the saved one is not, saying so)."""
        self.conn = self._usable(conn)
        try:
            now = self._again("restoring the running config", self._running_back)
        except PushError as exc:
            raise RollbackError(str(exc), self.left(self.conn)) from exc
        except LOST as exc:
            raise RollbackError(_first(exc), self.left(self.conn)) from exc
        left = differences(self.snapshot.running, now, self.profile)
        self.running_back = not left
        if left:
            raise RollbackError(self._still(left), left)
        try:
            self._again("checking the saved config", self._saved)
        except (*LOST, NoAnswer) as exc:
            self._unread_saved(exc)
        return self.conn

    def _again(self, step: str, work: Callable[[], T]) -> T:
        """``work``, tried once more on a new session when its session is lost."""
        if getattr(self.conn.remote_conn, "closed", False):  # lost in an earlier step
            self._fresh()
        try:
            return work()
        except LOST as exc:
            why = _first(exc)
        self._fresh()
        self.done.append(f"{step}: the session was lost ({why}); done again on a new one")
        return work()

    def _fresh(self) -> None:
        with contextlib.suppress(Exception):
            self.conn.disconnect()
        self.conn = self.reconnect()
        Cli(self.conn, self.profile, self.timeout).at_user_view()

    def _running(self) -> str:
        return self._show(self.conn, self.profile.dialect.show.running)

    def _show(self, conn: BaseConnection, command: str) -> str:
        return Cli(conn, self.profile, self.timeout).show(command)

    def _running_back(self) -> str:
        """The running config read, put back when it differs, and read again."""
        cli = Cli(self.conn, self.profile, self.timeout)
        now = self._running()
        if differences(self.snapshot.running, now, self.profile):
            self._undo(cli, now)
            now = self._running()
        elif self.progress.armed:
            self._disarm(cli)
        if not any(d.startswith(_METHODS) for d in self.done):
            self.done.insert(0, self._nothing())
        return now

    def _nothing(self) -> str:
        d = self.profile.dialect
        if d.commit.model == "candidate" and not self.progress.committed:
            discarded = f"the uncommitted changes were discarded ({d.commit.discard})"
            return f"nothing was committed: {discarded}"
        return "nothing to undo: the running config was as before the push"

    def _usable(self, conn: BaseConnection) -> BaseConnection:
        """This session back in the user view with nothing uncommitted, or a new one."""
        d = self.profile.dialect
        with contextlib.suppress(Exception):
            cli = Cli(conn, self.profile, min(self.timeout, 30.0))
            if d.commit.discard:
                cli.send(d.commit.discard, check=False)
            cli.leave()
            self._show(conn, d.show.running)
            return conn
        with contextlib.suppress(Exception):
            conn.disconnect()
        fresh = self.reconnect()
        Cli(fresh, self.profile, self.timeout).at_user_view()
        return fresh

    def _undo(self, cli: Cli, now: str) -> None:
        d = self.profile.dialect
        confirm = d.confirm
        if self.progress.armed and confirm is not None and confirm.abort:
            # the switch's own timer, ended now: back before the trial
            self._step(f"{ABORTED} ({confirm.abort})", cli, [confirm.abort], True)
            self.progress.armed = False
            now = self._running()
            if not differences(self.snapshot.running, now, self.profile):
                return
        restore = d.restore
        native = restore.fill(restore.commands)
        ready = self.progress.checkpoint or not restore.checkpoint
        if native and ready and (self.progress.committed or d.commit.model != "candidate"):
            self._step(how(self.profile), cli, native, restore.mode == "config")
        else:
            p = self.profile
            back = remediation(
                Tree.from_text(now, p),
                Tree.from_text(self.snapshot.running, p),
                prune=True,
                full=True,
            )
            self._step(f"{FULL} ({len(back)} lines; no sourced restore point)", cli, back, True)
        if self.progress.armed:
            self._disarm(cli)

    def _step(self, name: str, cli: Cli, commands: list[str], config: bool) -> None:
        """Type one way back, recorded as tried, and as failed when it fails."""
        self.done.append(name)
        try:
            self._type(cli, commands, config)
        except PushError:
            self.done[-1] += ": failed"
            raise

    def _type(self, cli: Cli, commands: list[str], config: bool) -> None:
        d = self.profile.dialect
        if config:
            cli.enter()
        for c in commands:
            cli.send(c)
        if config and d.commit.model == "candidate":
            cli.send(d.commit.commands[0])
        if config:
            cli.leave()

    def _disarm(self, cli: Cli) -> None:
        """Stop a confirm timer that has no abort (Comware): confirm the restored state, so the
        timer cannot later roll back to a state of its own."""
        confirm = self.profile.dialect.confirm
        if confirm is None or confirm.abort:
            return
        name = f"the confirm timer stopped at the restored state ({confirm.confirm})"
        self._step(name, cli, [confirm.confirm], True)
        self.progress.armed = False

    def _saved(self) -> None:
        """The saved config back at the snapshot's (saved again if the push's save landed)."""
        command = self.profile.dialect.show.saved
        if command is None or self.snapshot.saved is None:
            return
        cli = Cli(self.conn, self.profile, self.timeout)
        saved = self._show(self.conn, command)
        if not differences(self.snapshot.saved, saved, self.profile):
            self.saved_back = True
            return
        try:
            save(cli)
            saved = self._show(self.conn, command)
        except PushError as exc:
            if isinstance(exc, LOST):
                raise
            self.saved_back = False
            raise RollbackError(
                f"{BACK}; saving it again failed: {exc}", [f"saved: ? {_first(exc)}"]
            ) from exc
        left = differences(self.snapshot.saved, saved, self.profile)
        self.saved_back = not left
        if left:
            raise RollbackError(
                f"{BACK}; the saved config differs from before the push",
                [f"saved: {x}" for x in left],
            )
        self.done.append("saved config saved again from the restored running config")

    def _unread_saved(self, exc: BaseException) -> None:
        """The saved config could not be read back, twice. Untouched when push never saved;
        else put back by saving the restored running config when that is what it was; else
        named as the one that may differ."""
        why = _first(exc)
        if not self.progress.saved:
            self.done.append(
                f"saved config not read back ({why}); push never saved, so it is as before"
            )
            return
        if differences(self.snapshot.saved or "", self.snapshot.running, self.profile):
            raise RollbackError(
                f"{BACK}; the saved config could not be read ({why}) and may hold the push: its "
                "save was sent, and before the push it was not the running config, so saving "
                "again cannot restore it",
                [f"saved: ? may hold the pushed config (unreadable: {why})"],
            )
        try:
            self._again(
                "saving the restored config",
                lambda: save(Cli(self.conn, self.profile, self.timeout)),
            )
        except (PushError, *LOST) as again:
            raise RollbackError(
                f"{BACK}; the saved config could not be read ({why}) and may hold the push; "
                f"saving the restored config failed: {_first(again)}",
                [f"saved: ? may hold the pushed config (unreadable: {why})"],
            ) from again
        raise RollbackError(
            f"{BACK}; the saved config could not be read ({why}): saved again from the restored "
            "running config (the saved one before the push; the switch confirmed the save), "
            "but not read back",
            [f"saved: ? saved again, not read back ({why})"],
        )

    def _still(self, left: list[str]) -> str:
        """Why the running config is not back: lines left, and among them port states the
        restore could not name (an unset port's state without a source)."""
        grammar, neg = self.profile.grammar(), self.profile.negation
        unset = []
        for x in left:
            path = tuple(x[2:].split(" > "))
            view = grammar.view_of(path[:-1], [])
            if x.startswith("+ ") and grammar.resting(view, path[-1], neg) == (True, None):
                unset.append(path[-1])
        why = "the switch still differs from before the push"
        if unset:
            vendor = self.profile.vendor.value
            why += (
                f" ({len(unset)} port state line(s) such as '{unset[0]}' the push set where the "
                f"switch printed none before: no source says which state an unset {vendor} "
                "port is in, so the restore typed no guessed opposite)"
            )
        return why

    def left(self, conn: BaseConnection) -> list[str]:
        """How the switch differs from the snapshot after a broken rollback: read again (on a
        new connection if this one is gone); '?' when it cannot be read at all."""
        with contextlib.suppress(Exception):
            return differences(
                self.snapshot.running,
                self._show(conn, self.profile.dialect.show.running),
                self.profile,
            )
        with contextlib.suppress(Exception):
            fresh = self.reconnect()
            try:
                now = self._show(fresh, self.profile.dialect.show.running)
                return differences(self.snapshot.running, now, self.profile)
            finally:
                fresh.disconnect()
        return ["? the switch could not be read after the rollback"]


# How the outcome names each way back (Restorer.done).
ABORTED = "the confirm timer ended at once"
FULL = "full-config restore from the snapshot"
_METHODS = (ABORTED, FULL, "vendor restore point")
BACK = "running config back as before the push (compared whole with the snapshot)"
T = TypeVar("T")


def _first(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return (text[0] if text else type(exc).__name__)[:200]


class SaveError(PushError):
    kind = "save"


def save(cli: Cli) -> None:
    """Save, and check the switch said it saved (its ``done`` text)."""
    s = cli.profile.dialect.save
    answer = cli.answers(s.commands[0], s.question, s.answer)
    if s.done and s.done not in answer:
        why = cli.refusal(answer) or " ".join(answer.split())[:200] or "no confirmation"
        raise SaveError(f"save: {why}")
