"""Restore points in the emulators, as the dialect describes them (``restore`` and
``confirm`` in vendors/<vendor>.yaml, each with its source): Huawei's commit history with
``rollback configuration last <n>`` and ``commit trial <s>`` / ``abort trial``; Comware's
``save <file>``, ``configuration replace file <file>`` and ``configuration commit delay <m>``
/ ``configuration commit``. A command's template becomes a pattern (``command_pattern``:
'{file}' any file name, '{time}' a number the confirm range bounds, a number in the template
any number, ``last 1`` is ``last <n>``). What such a command asks before it acts (the
dialect's ``questions``) the session asks (lab/cli.py). Transport-free like the rest of the
lab: the session calls ``exec_line`` and ``config_line`` and prints what they return."""

from __future__ import annotations

import copy
import re
import threading
from typing import TYPE_CHECKING, Protocol

from roce_cfg.deploy.tree import Tree
from roce_cfg.platforms.dialect import command_pattern

if TYPE_CHECKING:
    from roce_cfg.platforms.dialect import Dialect
    from roce_cfg.platforms.profile import VendorProfile


def _match(templates: tuple[str, ...] | list[str], line: str) -> re.Match[str] | None:
    for t in templates:
        m = command_pattern(t).match(line)
        if m:
            return m
    return None


class Points:
    """A switch's restore points: files saved by name, states before each commit, and the
    state a confirm timer returns to."""

    def __init__(self) -> None:
        self.files: dict[str, str] = {}
        self.history: list[Tree] = []  # the running config before each commit, oldest first
        self.pending: Tree | None = None  # armed confirm timer: the state it reverts to
        self.timer: threading.Timer | None = None
        self.lock = threading.Lock()

    def commit(self, before: Tree) -> None:
        self.history.append(copy.deepcopy(before))
        del self.history[:-80]  # VRP keeps up to 80 rollback points ([HW-CR] last <1-80>)


class Switch(Protocol):
    """A switch as its restore points see it (lab/cli.py's Switch): the running config, the
    profile to read a saved one with, the points themselves."""

    running: Tree
    points: Points

    @property
    def profile(self) -> VendorProfile: ...


class Session(Protocol):
    """A session as the restore and confirm commands see it (lab/cli.py's Session)."""

    candidate: Tree | None

    @property
    def sw(self) -> Switch: ...

    @property
    def dialect(self) -> Dialect: ...

    def refuse(self, why: str) -> str: ...


def arm(sw: Switch, before: Tree, seconds: float) -> None:
    """Start the switch's confirm timer: unless confirmed, it goes back to ``before``."""
    points = sw.points
    with points.lock:
        if points.timer is not None:
            points.timer.cancel()
        points.pending = copy.deepcopy(before)
        points.timer = threading.Timer(seconds, expire, (sw,))
        points.timer.daemon = True
        points.timer.start()


def disarm(sw: Switch) -> None:
    points = sw.points
    with points.lock:
        if points.timer is not None:
            points.timer.cancel()
        points.timer, points.pending = None, None


def expire(sw: Switch) -> None:
    """The confirm timer ran out (or a test says it did): back to the state before it."""
    points = sw.points
    with points.lock:
        if points.pending is None:
            return
        sw.running = points.pending
        points.pending, points.timer = None, None


def exec_line(session: Session, text: str) -> str | None:
    """A user-view restore command (checkpoint or rollback); None when ``text`` is none."""
    sw, d = session.sw, session.dialect
    if text in d.save.commands:
        return None  # 'save force' is the save, not 'save <file>'
    if d.restore.mode == "exec" and _match(d.restore.commands, text):
        return _rollback(session, text)
    m = _match(d.restore.checkpoint, text)
    if m is not None:
        sw.points.files[m.group("file")] = sw.running.render()
        return ""
    return None


def handles(session: Session, text: str) -> bool:
    """Whether ``config_line`` takes ``text`` (without doing it)."""
    d = session.dialect
    if text in d.save.commands:
        return False
    lines = [*d.restore.commands, *d.restore.checkpoint] if d.restore.mode == "config" else []
    if d.confirm is not None:
        lines += [d.confirm.arm, d.confirm.confirm, *([d.confirm.abort] if d.confirm.abort else [])]
    return _match(lines, text) is not None


def config_line(session: Session, text: str) -> str | None:
    """A system-view restore or confirm command; None when ``text`` is none of them."""
    sw, d = session.sw, session.dialect
    if text in d.save.commands:
        return None
    if d.restore.mode == "config" and _match(d.restore.commands, text):
        return _rollback(session, text)
    if d.restore.mode == "config" and _match(d.restore.checkpoint, text):
        return exec_line(session, text)
    confirm = d.confirm
    if confirm is None:
        return None
    m = _match((confirm.arm,), text)
    if m is not None:
        return _arm(session, confirm.at, int(m.group("time")))
    if confirm.abort is not None and text == confirm.abort:
        expire(sw)
        session.candidate = copy.deepcopy(sw.running) if session.candidate is not None else None
        return ""
    if text == confirm.confirm and sw.points.pending is not None:
        disarm(sw)  # a plain 'commit' also commits what the candidate holds (below)
        return None if session.candidate is not None else ""
    return None


def _arm(session: Session, at: str, amount: int) -> str:
    sw = session.sw
    confirm = session.dialect.confirm
    assert confirm is not None
    if not confirm.low <= amount <= confirm.high:
        return session.refuse(f"the timeout is {confirm.low}-{confirm.high} {confirm.unit}")
    seconds = amount * (60 if confirm.unit == "minutes" else 1)
    if at == "commit" and session.candidate is not None:  # 'commit trial': commit, then time
        before = copy.deepcopy(sw.running)
        sw.points.commit(before)
        sw.running = copy.deepcopy(session.candidate)
        arm(sw, before, seconds)
        return ""
    arm(sw, sw.running, seconds)
    return ""


def _rollback(session: Session, text: str) -> str:
    """'rollback configuration last <n>' (the state before the last n commits) or
    'configuration replace file <f>' (the file's config); the switch's error when neither
    exists."""
    sw = session.sw
    m = _match(session.dialect.restore.commands, text)
    assert m is not None
    groups = m.groupdict()
    if groups.get("file") is not None:
        saved = sw.points.files.get(groups["file"])
        if saved is None:
            return session.refuse(f"no file {groups['file']}")
        sw.running = Tree.from_text(saved, sw.profile)
    else:
        n = int(groups.get("n") or 1)
        if not 1 <= n <= len(sw.points.history):
            return session.refuse(f"only {len(sw.points.history)} rollback points")
        sw.running = sw.points.history[-n]
        del sw.points.history[-n:]
    if session.candidate is not None:
        session.candidate = copy.deepcopy(sw.running)
    return ""
