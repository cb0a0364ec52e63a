"""netmiko connections with the per-platform options that keep them fast and correct, as the
vendor's dialect states them (``dialect.netmiko``; shared/netmiko-notes.md): default connection
options (Comware: command verification) and a config-mode check with a read pattern (VRP v8,
RGOS); every platform enters enable mode after login (the ZXROS driver never does).

Reaching a switch is bounded step by step (``Timeouts``), and a failure says which step failed
(``Unusable.kind``): the TCP connection (unreachable, timeout), the SSH banner (timeout, garbage:
the port answers something that is not SSH), the login (auth-failed), the first prompt
(no-prompt: logged in, nothing comes back; garbage: text, but no prompt). netmiko has no bound
on its session preparation against a silent host (it retries reads of 20 s each), so the login
and prompt steps run in a thread that is abandoned, its socket closed, when their time is up.
"""

from __future__ import annotations

import contextlib
import logging
import re
import socket
import threading
import time
from dataclasses import dataclass, fields, replace
from typing import Any, Literal

from netmiko import BaseConnection, NetmikoAuthenticationException
from netmiko.ssh_dispatcher import CLASS_MAPPER

from roce_cfg import dial
from roce_cfg.deploy import sshmac
from roce_cfg.errors import InputError
from roce_cfg.platforms.dialect import ConfigCheck
from roce_cfg.platforms.profile import VendorProfile

# paramiko and netmiko log what the sockets closed under them say; with no handler, Python would
# print it on stderr, past roce-cfg's (redacting) output. Each outcome says what failed.
for _name in ("paramiko", "netmiko"):
    logging.getLogger(_name).addHandler(logging.NullHandler())

Kind = Literal["unreachable", "timeout", "garbage", "auth-failed", "no-prompt"]


class Unusable(Exception):
    """The switch could not be reached or talked to; ``kind`` says at which step."""

    def __init__(self, kind: Kind, message: str) -> None:
        super().__init__(message)
        self.kind = kind


@dataclass(frozen=True)
class Timeouts:
    """Seconds each step may take."""

    connect: float = 10.0  # TCP connection
    banner: float = 15.0  # the SSH banner after it
    auth: float = 15.0  # SSH key exchange and login
    prompt: float = 20.0  # the first CLI prompt after login (and paging off)
    command: float = 120.0  # each answer: the running config, each chunk of configuration

    @classmethod
    def parse(cls, spec: str, base: Timeouts | None = None) -> Timeouts:
        """'connect=5,prompt=10' over ``base`` (defaults).

        >>> Timeouts.parse("connect=2, command=30").connect
        2.0
        """
        names = [f.name for f in fields(cls)]
        values: dict[str, float] = {}
        for part in (p.strip() for p in spec.split(",") if p.strip()):
            name, _, value = part.partition("=")
            try:
                seconds = float(value)
            except ValueError:
                seconds = -1.0
            if name.strip() not in names or not 0 < seconds <= 3600:
                raise InputError(
                    f"--timeouts: '{part}' is not STEP=SECONDS with STEP one of "
                    f"{', '.join(names)} and 0 < SECONDS <= 3600"
                )
            values[name.strip()] = seconds
        return replace(base or cls(), **values)


# Inventory ``connection_options.netmiko.extras`` that roce-cfg passes on: the step timeouts
# under netmiko's names, and options that change how, not where or as whom, it connects.
TIMEOUT_EXTRAS = {
    "conn_timeout": "connect",
    "banner_timeout": "banner",
    "auth_timeout": "auth",
    "read_timeout_override": "command",
}
PASSED_EXTRAS = {
    "fast_cli": "flag",
    "global_cmd_verify": "flag",
    "keepalive": "seconds",
    "session_timeout": "seconds",
    "blocking_timeout": "seconds",
    "global_delay_factor": "seconds",
}


def _valid(kind: str, value: Any) -> bool:
    if kind == "flag":
        return isinstance(value, bool)
    return isinstance(value, int | float) and not isinstance(value, bool) and 0 <= value <= 3600


def _checked(base: type[BaseConnection], check: ConfigCheck | None) -> type[BaseConnection]:
    """``base`` whose config-mode check reads up to the dialect's pattern: the stock one of
    some drivers reads with none and waits about 2 s for silence on every call."""
    if check is None:
        return base
    string, prompt = check.check_string, check.pattern

    class Checked(base):  # type: ignore[valid-type,misc]
        def check_config_mode(
            self, check_string: str = string, pattern: str = prompt, force_regex: bool = False
        ) -> bool:
            return BaseConnection.check_config_mode(
                self, check_string=check_string, pattern=pattern
            )

    return Checked


def check_extras(extras: Any, where: str, file: str) -> tuple[tuple[str, Any], ...]:
    """An inventory's netmiko extras, checked: a one-line error for a key roce-cfg does not
    pass on or a value of the wrong type."""
    if extras is None:
        return ()
    if not isinstance(extras, dict):
        raise InputError("is not a mapping", file=file, path=where)
    known = sorted({*TIMEOUT_EXTRAS, *PASSED_EXTRAS})
    for key, value in extras.items():
        if key in TIMEOUT_EXTRAS:
            ok = _valid("seconds", value) and value > 0
        elif key in PASSED_EXTRAS:
            ok = _valid(PASSED_EXTRAS[key], value)
        else:
            raise InputError(
                f"roce-cfg does not pass '{key}' to netmiko (it passes: {', '.join(known)})",
                file=file,
                path=where,
            )
        if not ok:
            raise InputError(f"{key}: {value!r} is not a valid value", file=file, path=where)
    return tuple(sorted(extras.items()))


def connect(
    profile: VendorProfile,
    host: str,
    port: int,
    username: str,
    password: str,
    timeouts: Timeouts | None = None,
    extras: tuple[tuple[str, Any], ...] = (),
    enable: bool = True,
) -> BaseConnection:
    """A logged-in connection at the CLI prompt, or ``Unusable`` naming the step that failed.
    ``enable`` False stays where the login lands (verify: Comware's netmiko 'enable' is
    system-view, a configuration view)."""
    steps = timeouts or Timeouts()
    sshmac.install()
    passed = {k: v for k, v in extras if k in PASSED_EXTRAS}
    steps = replace(
        steps, **{TIMEOUT_EXTRAS[k]: float(v) for k, v in extras if k in TIMEOUT_EXTRAS}
    )
    sock = _tcp(host, port, steps.connect)
    try:
        _banner(sock, host, port, steps.banner)
        return _login(profile, sock, host, port, username, password, steps, passed, enable)
    except BaseException:
        with contextlib.suppress(OSError):
            sock.close()
        raise


def _tcp(host: str, port: int, timeout: float) -> socket.socket:
    try:
        sock = dial.tcp(host, port, timeout)
    except dial.Failed as exc:
        raise Unusable(exc.kind, str(exc)) from None
    # As OpenSSH does for interactive sessions: without it, each small write of the CLI dialogue
    # waits on the peer's delayed ACK (measured on the emulators: a login 267 -> 185 ms).
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


def _banner(sock: socket.socket, host: str, port: int, timeout: float) -> None:
    """Wait for the SSH banner without consuming it (paramiko reads it next)."""
    deadline = time.monotonic() + timeout
    seen, changed = b"", time.monotonic()
    while (left := deadline - time.monotonic()) > 0:
        sock.settimeout(min(left, 0.5))
        try:
            data = sock.recv(4096, socket.MSG_PEEK)
        except TimeoutError:
            continue
        except OSError as exc:
            raise Unusable("unreachable", f"{host}:{port}: {exc.strerror or exc}") from None
        if data == b"":
            raise Unusable("unreachable", f"{host}:{port} closed the connection before SSH began")
        if b"SSH-" in data:
            sock.settimeout(None)
            return
        if data != seen:
            seen, changed = data, time.monotonic()
        elif len(seen) >= 4096 or time.monotonic() - changed > 1.0:
            break  # a line or more, then nothing more for a second: it will not become SSH
        time.sleep(0.02)
    if seen:
        raise Unusable(
            "garbage", f"{host}:{port} answers, but not SSH: {seen[:40].decode('latin-1')!r}"
        )
    raise Unusable("timeout", f"{host}:{port}: no SSH banner within {timeout:g} s")


def _login(
    profile: VendorProfile,
    sock: socket.socket,
    host: str,
    port: int,
    username: str,
    password: str,
    steps: Timeouts,
    passed: dict[str, Any],
    enable: bool = True,
) -> BaseConnection:
    params: dict[str, Any] = {
        "host": host,
        "port": port,
        "username": username,
        "password": password,
        "use_keys": False,
        "allow_agent": False,
        "sock": sock,
        "conn_timeout": steps.connect,
        "banner_timeout": steps.banner,
        "auth_timeout": steps.auth,
        "fast_cli": True,
        **passed,
    }
    spec = profile.dialect.netmiko
    for key, value in spec.extras.items():
        params.setdefault(key, value)  # the inventory's extras win
    progress: dict[str, Any] = {"step": "login", "since": time.monotonic(), "bytes": 0}
    cls = _watched(_checked(CLASS_MAPPER[spec.device_type], spec.config_check), progress)
    done: dict[str, Any] = {}
    finished = threading.Event()  # set as the login ends

    def work() -> None:
        try:
            done["conn"] = _enabled(cls(**params), enable)
        except BaseException as exc:  # handed to the waiting thread
            done["error"] = exc
        finally:
            finished.set()

    thread = threading.Thread(target=work, name=f"connect {host}:{port}", daemon=True)
    thread.start()
    _watch(finished, progress, steps, sock, host, port)
    if "error" in done:
        raise _classified(done["error"], progress, host, port)
    progress["step"] = "done"
    conn: BaseConnection = done["conn"]
    return conn


def _watch(
    finished: threading.Event,
    progress: dict[str, Any],
    steps: Timeouts,
    sock: socket.socket,
    host: str,
    port: int,
) -> None:
    """Wait for the login to end, each step within its time, or close its socket and raise
    ``Unusable``. The end is waited on, not polled: a join every 50 ms made each login end
    25 ms late on average (a second of a 200-switch push with 10 workers)."""
    while not finished.wait(0.05):
        step, since = progress["step"], progress["since"]
        limit = steps.auth if step == "login" else steps.prompt
        if not finished.is_set() and step == "prompt" and progress["bytes"] > PROMPT_BYTES:
            with contextlib.suppress(OSError):
                sock.close()  # a flood: netmiko would keep all of it while it looks for a prompt
            raise Unusable(
                "garbage", f"{host}:{port}: logged in, then {PROMPT_BYTES} bytes and no prompt"
            )
        if not finished.is_set() and time.monotonic() - since > limit:
            with contextlib.suppress(OSError):
                sock.close()  # the abandoned attempt dies with its socket
            raise _unusable(step, progress, host, port, f"within {limit:g} s")


def _enabled(conn: BaseConnection, enable: bool) -> BaseConnection:
    if enable and not conn.check_enable_mode():
        conn.enable()  # ZXROS's driver configures from '#' only
    return conn


def _watched(base: type[BaseConnection], progress: dict[str, Any]) -> type[BaseConnection]:
    """``base`` reporting which step it is in and how much the switch said since login."""

    class Watched(base):  # type: ignore[valid-type,misc]
        def establish_connection(self, *args: Any, **kwargs: Any) -> None:
            super().establish_connection(*args, **kwargs)
            progress.update(step="prompt", since=time.monotonic())

        def read_channel(self) -> str:
            data = str(super().read_channel())
            if progress["step"] != "done":  # not after login: a push reads a chunk per window
                progress["bytes"] += len(data.strip())
                progress["tail"] = (progress.get("tail", "") + data)[-200:]
            return data

    return Watched


# What a switch may say between login and its first prompt (a banner, a message of the day)
# before it counts as garbage.
PROMPT_BYTES = 1 << 20
# Something a prompt ends with, at the end of a line: '<leaf-1>', '[~leaf-1]', 'leaf-1#'.
_PROMPTISH = re.compile(r"[>\]#]\s*$", re.MULTILINE)


def _unusable(step: str, progress: dict[str, Any], host: str, port: int, why: str) -> Unusable:
    if step == "login":
        return Unusable("timeout", f"{host}:{port}: SSH login not done {why}")
    if _PROMPTISH.search(progress.get("tail", "")):
        return Unusable("timeout", f"{host}:{port}: logged in, but too slow to answer {why}")
    if progress["bytes"]:
        return Unusable("garbage", f"{host}:{port}: logged in, but no prompt in its answer {why}")
    return Unusable("no-prompt", f"{host}:{port}: logged in, but nothing came back {why}")


def _classified(exc: BaseException, progress: dict[str, Any], host: str, port: int) -> Exception:
    if isinstance(exc, NetmikoAuthenticationException):
        return Unusable("auth-failed", f"authentication failed on {host}:{port}")
    if progress["step"] == "prompt":
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        return _unusable("prompt", progress, host, port, f"({first[:80]})")
    if isinstance(exc, Exception):
        return exc
    return RuntimeError(str(exc))
