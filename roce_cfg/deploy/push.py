"""Push: read the running config, diff it with the intended one, apply the remediation, commit
and save, verify by reading back, and roll back to the state before on any failure."""

from __future__ import annotations

import contextlib
import copy
import difflib
import re
import time
from dataclasses import dataclass, field
from typing import Literal

from netmiko import BaseConnection, ReadTimeout

from roce_cfg.deploy.inventory import Target
from roce_cfg.deploy.transport import Timeouts, Unusable, connect
from roce_cfg.deploy.tree import Tree, remediation
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
    # rollback-failed: how the switch still differs from before the push ('+' added by the push,
    # '-' removed by it), or '?' lines (the commands sent) when it could not be read at all.
    left: list[str] = field(default_factory=list)
    # Why it failed, in one word: unreachable, timeout, garbage, auth-failed, no-prompt (the
    # steps of reaching it, see transport.Unusable), rejected, error.
    kind: str = ""


@dataclass(frozen=True)
class Credentials:
    username: str
    password: str

    def __repr__(self) -> str:  # never print the password, not even in a traceback
        return f"Credentials(username={self.username!r}, password=<redacted>)"


def plan(target: Target, running: str, intended: str, prune: bool = False) -> tuple[list[str], str]:
    have = Tree.from_text(running, target.profile)
    want = Tree.from_text(intended, target.profile)
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
    return commands, diff


def pruned(target: Target, running: str, intended: str, commands: list[str]) -> list[str]:
    """The negations in ``commands`` that only --prune asked for (objects the intent lacks)."""
    p = target.profile
    kept = set(remediation(Tree.from_text(running, p), Tree.from_text(intended, p)))
    return [c for c in commands if c.startswith(p.negation) and c not in kept]


class PushError(Exception):
    kind = "error"


class Rejected(PushError):
    kind = "rejected"


class NoAnswer(PushError):
    kind = "timeout"


class RollbackError(PushError):
    """The rollback itself failed; ``left`` says how the switch differs from before."""

    def __init__(self, message: str, left: list[str]) -> None:
        super().__init__(message)
        self.left = left


def _errors(target: Target) -> str:
    p = target.profile
    return "|".join(re.escape(e) for e in (*p.error_patterns, p.dialect.error))


# Lines written before reading back the answers. Small enough for a switch's input buffer,
# large enough that the round trip per line no longer dominates a 400-line push.
CHUNK = 25


def _send(conn: BaseConnection, target: Target, commands: list[str], timeout: float) -> None:
    """Configure in chunks: write CHUNK lines, then read until a prompt came back for each
    (every line answers with exactly one prompt), and look for the vendor's error text."""
    dialect = target.profile.dialect
    errors = re.compile(_errors(target))
    # The config-mode prompt ends each answer; the next echoed line follows on the same line.
    prompt = re.compile(dialect.prompts.pattern)
    conn.config_mode()
    for i in range(0, len(commands), CHUNK):
        part = commands[i : i + CHUNK]
        conn.write_channel("".join(conn.normalize_cmd(c) for c in part))
        output = _read_prompts(conn, prompt, len(part), timeout)
        bad = errors.search(output)
        if bad:
            # The echoes come back in order: the last one before the error is the culprit.
            culprit, pos = "?", 0
            for c in part:
                at = output.find(c.strip(), pos)
                if at < 0 or at > bad.start():
                    break
                culprit, pos = c.strip(), at + len(c.strip())
            raise Rejected(f"rejected at command: {culprit} ({bad.group(0).strip()})")
    if dialect.commit.model == "candidate":
        conn.commit()
    conn.exit_config_mode()
    conn.save_config()


# What the answers to one chunk of CHUNK lines may add up to: echoes, prompts and error text
# are a few KiB; a switch that talks this much without prompting is not answering.
MAX_ANSWER = 4 << 20
# Prompts are short: a scan that resumes this far back still finds one split across reads.
_PROMPT_TAIL = 256


def _read_prompts(conn: BaseConnection, prompt: re.Pattern[str], count: int, timeout: float) -> str:
    """Read until ``count`` prompts came back. The deadline holds whatever arrives (a switch
    that talks without end, never prompting, is out of time like a silent one), and each read
    is scanned once, not the whole answer again."""
    output = ""
    seen, scanned = 0, 0
    deadline = time.monotonic() + timeout
    while seen < count:
        if time.monotonic() > deadline:
            raise NoAnswer(f"no answer from the switch within {timeout:g} s")
        chunk = conn.read_channel()
        if chunk:
            output += chunk
            if len(output) > MAX_ANSWER:
                raise NoAnswer(
                    f"the switch sent over {MAX_ANSWER >> 20} MiB without the prompts of "
                    f"{count} lines"
                )
            for m in prompt.finditer(output, max(scanned, len(output) - len(chunk) - _PROMPT_TAIL)):
                seen += 1
                scanned = m.end()
            continue
        if getattr(conn.remote_conn, "closed", False):  # is_alive() would write to the CLI
            raise PushError("the switch closed the connection")
        time.sleep(0.005)
    return output


def _running(conn: BaseConnection, target: Target, timeout: float = 120.0) -> str:
    command = target.profile.dialect.show.running
    try:
        return str(conn.send_command(command, read_timeout=timeout))
    except ReadTimeout:  # netmiko waits for the echo, then the answer: each up to the timeout
        raise NoAnswer(
            f"no answer to '{command}' (waited {timeout:g} s for its echo, then its output)"
        ) from None


def _connect(target: Target, creds: Credentials, steps: Timeouts) -> BaseConnection:
    return connect(
        target.profile, target.address, target.port, creds.username, creds.password, steps,
        target.extras,
    )  # fmt: skip


def push(
    target: Target,
    intended: str,
    creds: Credentials,
    apply: bool,
    timeout: float = 60.0,
    prune: bool = False,
    timeouts: Timeouts | None = None,
) -> Outcome:
    """Dry run (``apply`` False) or apply one device; never raises, the outcome says it all.
    ``timeouts`` bounds each step (``timeout``: each answer, when ``timeouts`` is not given)."""
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
        outcome.commands, outcome.diff = plan(target, before, intended, prune)
        if prune:
            outcome.pruned = pruned(target, before, intended, outcome.commands)
        if not outcome.commands:
            outcome.status = "no changes"
        elif not apply:
            outcome.status = "planned"
        else:
            conn = _apply(conn, target, creds, before, intended, outcome, steps, prune)
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
    outcome.error = redact(outcome.error, vendor)
    for lines in (outcome.commands, outcome.pruned, outcome.left):
        lines[:] = [redact(c, vendor) for c in lines]
    return outcome


def _apply(
    conn: BaseConnection,
    target: Target,
    creds: Credentials,
    before: str,
    intended: str,
    outcome: Outcome,
    steps: Timeouts,
    prune: bool,
) -> BaseConnection:
    """Send, verify, and on any failure roll back; the outcome records both errors."""
    try:
        _send(conn, target, outcome.commands, steps.command)
        left, _ = plan(target, _running(conn, target, steps.command), intended, prune)
        if left:
            raise PushError(f"verify: {len(left)} command(s) still differ after the push")
        outcome.status = "changed"
        return conn
    except Exception as exc:
        outcome.error, outcome.kind = _why(exc), _kind(exc)
    try:
        conn = _rollback(conn, target, creds, before, steps)
        outcome.status = "rolled back"
    except RollbackError as exc:
        outcome.status, outcome.left = "rollback-failed", exc.left
        outcome.error += f"; rollback failed: {exc}"
    except Exception as exc:  # not even the state could be read: what was sent may be there
        outcome.status = "rollback-failed"
        outcome.left = [f"? {c}" for c in outcome.commands]
        outcome.error += f"; rollback failed: {_why(exc)}"
    return conn


def _rollback(
    conn: BaseConnection, target: Target, creds: Credentials, before: str, steps: Timeouts
) -> BaseConnection:
    """Back to ``before``: drop an uncommitted candidate, then push the inverse remediation.
    It prunes: an object the push added (a new peer) goes too, though ``before`` lacks it."""
    discard = target.profile.dialect.commit.discard
    with contextlib.suppress(Exception):
        if conn.check_config_mode():
            if discard:
                conn.send_command_timing(discard)
            conn.exit_config_mode()
    try:
        now = _running(conn, target, steps.command)
    except Exception:
        conn = _connect(target, creds, steps)
        now = _running(conn, target, steps.command)
    back, _ = plan(target, now, before, prune=True)
    try:
        if back:
            _send(conn, target, back, steps.command)
        now = _running(conn, target, steps.command)
    except Exception as exc:
        raise RollbackError(_why(exc), _left(conn, target, creds, before, now, steps)) from exc
    if plan(target, now, before, prune=True)[0]:
        raise RollbackError("the switch still differs from before", _changes(target, before, now))
    return conn


def _left(
    conn: BaseConnection,
    target: Target,
    creds: Credentials,
    before: str,
    last: str,
    steps: Timeouts,
) -> list[str]:
    """How the switch differs from ``before`` after a broken rollback: read again (on a new
    connection if the old one is gone); failing that, the last state read."""
    with contextlib.suppress(Exception):
        return _changes(target, before, _running(conn, target, steps.command))
    with contextlib.suppress(Exception):
        fresh = _connect(target, creds, steps)
        try:
            return _changes(target, before, _running(fresh, target, steps.command))
        finally:
            fresh.disconnect()
    return _changes(target, before, last)


def _changes(target: Target, before: str, now: str) -> list[str]:
    """Lines of ``now`` that ``before`` lacks ('+') and the reverse ('-'), as the switch
    prints them."""
    a = Tree.from_text(before, target.profile).render().splitlines()
    b = Tree.from_text(now, target.profile).render().splitlines()
    return [
        d[0] + " " + d[1:].strip()
        for d in difflib.unified_diff(a, b, lineterm="", n=0)
        if d[:1] in "+-" and not d.startswith(("+++", "---"))
    ]


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
