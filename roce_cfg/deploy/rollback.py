"""Return a switch to its snapshot after a failed push; see deploy/restore.py for
how "the same as before" is judged. The order: whatever the session holds is dropped (VRP's
uncommitted candidate, config mode), a confirm timer that can be ended at once is ended
(VRP ``abort trial``), then the vendor's restore point (``restore`` in the dialect) or a
full-config restore; then the running config is compared with the snapshot as a whole, and the
saved config with the saved snapshot (saved again when the push's save got through)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass

from netmiko import BaseConnection

from roce_cfg.deploy.restore import Snapshot, differences
from roce_cfg.deploy.session import Cli, PushError
from roce_cfg.deploy.tree import Tree, remediation
from roce_cfg.platforms.profile import VendorProfile


class RollbackError(PushError):
    """The rollback itself failed; ``left`` says how the switch differs from before."""

    def __init__(self, message: str, left: list[str]) -> None:
        super().__init__(message)
        self.left = left


@dataclass
class Progress:
    """How far a push got, which decides how it is undone."""

    checkpoint: bool = False  # the vendor's restore point was taken
    armed: bool = False  # the switch's confirm timer runs
    committed: bool = False  # a commit was sent (its answer may have been lost)


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

    def run(self, conn: BaseConnection) -> BaseConnection:
        """Back to the snapshot, or RollbackError saying what is left."""
        conn = self._usable(conn)
        cli = Cli(conn, self.profile, self.timeout)
        now = self._running(conn)
        try:
            if differences(self.snapshot.running, now, self.profile):
                self._undo(cli, now)
                now = self._running(conn)
            elif self.progress.armed:
                self._disarm(cli)
        except PushError as exc:
            raise RollbackError(str(exc), self.left(conn)) from exc
        left = differences(self.snapshot.running, now, self.profile)
        if left:
            raise RollbackError("the switch still differs from before the push", left)
        self._saved(cli)
        return conn

    def _running(self, conn: BaseConnection) -> str:
        return Cli(conn, self.profile, self.timeout).show(self.profile.dialect.show.running)

    def _usable(self, conn: BaseConnection) -> BaseConnection:
        """This session back in the user view with nothing uncommitted, or a new one."""
        d = self.profile.dialect
        with contextlib.suppress(Exception):
            cli = Cli(conn, self.profile, min(self.timeout, 30.0))
            if d.commit.discard:
                cli.send(d.commit.discard, check=False)
            cli.leave()
            self._running(conn)
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
            cli.enter()
            cli.send(confirm.abort)  # the switch's own timer, ended now: back before the trial
            cli.leave()
            now = self._running(cli.conn)
            if not differences(self.snapshot.running, now, self.profile):
                return
        restore = d.restore
        native = restore.fill(restore.commands)
        ready = self.progress.checkpoint or not restore.checkpoint
        if native and ready and (self.progress.committed or d.commit.model != "candidate"):
            self._type(cli, native, restore.mode == "config")
        else:
            p = self.profile
            back = remediation(
                Tree.from_text(now, p),
                Tree.from_text(self.snapshot.running, p),
                prune=True,
                full=True,
            )
            self._type(cli, back, True)
        if self.progress.armed:
            self._disarm(cli)

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
        cli.enter()
        cli.send(confirm.confirm)
        cli.leave()

    def _saved(self, cli: Cli) -> None:
        """The saved config back at the snapshot's (saved again if the push's save landed)."""
        command = self.profile.dialect.show.saved
        if command is None or self.snapshot.saved is None:
            return
        saved = cli.show(command)
        if not differences(self.snapshot.saved, saved, self.profile):
            return
        try:
            save(cli)
            saved = cli.show(command)
        except PushError as exc:
            raise RollbackError(f"saving the restored config: {exc}", []) from exc
        left = differences(self.snapshot.saved, saved, self.profile)
        if left:
            raise RollbackError(
                "the saved config differs from before the push", [f"saved: {x}" for x in left]
            )

    def left(self, conn: BaseConnection) -> list[str]:
        """How the switch differs from the snapshot after a broken rollback: read again (on a
        new connection if this one is gone); '?' when it cannot be read at all."""
        with contextlib.suppress(Exception):
            return differences(self.snapshot.running, self._running(conn), self.profile)
        with contextlib.suppress(Exception):
            fresh = self.reconnect()
            try:
                return differences(self.snapshot.running, self._running(fresh), self.profile)
            finally:
                fresh.disconnect()
        return ["? the switch could not be read after the rollback"]


class SaveError(PushError):
    kind = "save"


def save(cli: Cli) -> None:
    """Save, and check the switch said it saved (its ``done`` text)."""
    s = cli.profile.dialect.save
    answer = cli.answers(s.commands[0], s.question, s.answer)
    if s.done and s.done not in answer:
        why = cli.refusal(answer) or " ".join(answer.split())[:200] or "no confirmation"
        raise SaveError(f"save: {why}")
