"""asyncssh servers on 127.0.0.1, one per emulated switch, speaking each vendor's CLI closely
enough for netmiko: byte-exact echo, CR/LF handling, prompts without a trailing newline, and
lines typed ahead of the answers queued and answered in order (each echo, then its answer and
the next prompt), as a switch's CLI reads its input one line at a time."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass

import asyncssh

from roce_cfg.lab.cli import GARBAGE, Dropped, Session, Switch


class _Server(asyncssh.SSHServer):
    def __init__(self, switch: Switch, username: str, password: str) -> None:
        self.switch, self.username, self.password = switch, username, password

    def begin_auth(self, username: str) -> bool:
        return True

    def password_auth_supported(self) -> bool:
        return True

    def validate_password(self, username: str, password: str) -> bool:
        if self.switch.faults.refuse_login:
            return False
        return username == self.username and password == self.password


def _handler(switch: Switch) -> Callable[[asyncssh.SSHServerProcess[str]], object]:
    async def handle(process: asyncssh.SSHServerProcess[str]) -> None:
        mode = switch.faults.after_login
        if mode is not None:
            await _no_prompt(process, mode)
            return
        session = Session(switch)
        wire = _Wire(process, switch.faults.latency_s)
        wire.write(session.banner())
        pending = ""
        try:
            while not session.closed:
                data = await process.stdin.read(4096)
                if not data:
                    break
                if session.hung:
                    continue  # a CLI stuck on a line reads no further one
                pending += data
                out: list[str] = []  # the answers to the lines at hand, written together
                while not session.closed and not session.hung:
                    line, pending = _next_line(pending)
                    if line is None:
                        break
                    switch.typed_ahead = max(switch.typed_ahead, _lines_in(pending))
                    if switch.faults.delay_s:
                        wire.write("".join(out))  # out before the pause
                        out = []
                        await asyncio.sleep(switch.faults.delay_s)
                    answer = _answer(session, line)
                    if answer is None:
                        wire.write("".join(out))
                        await wire.drain()
                        process.close()
                        return
                    out.append(answer)
                wire.write("".join(out))
        except (asyncssh.BreakReceived, asyncssh.TerminalSizeChanged, BrokenPipeError):
            pass
        await wire.drain()
        process.exit(0)

    return handle


class _Wire:
    """What the switch prints on its way to the client: at once, or (fault ``latency_s``) that
    much later without holding up the lines behind it, as over a network with a round trip."""

    def __init__(self, process: asyncssh.SSHServerProcess[str], latency: float) -> None:
        self.process, self.latency = process, latency
        self.queue: asyncio.Queue[tuple[float, str | None]] = asyncio.Queue()
        self.task = asyncio.create_task(self._deliver()) if latency else None

    def write(self, text: str) -> None:
        if self.task is None:
            if text:
                self.process.stdout.write(text)
            return
        self.queue.put_nowait((asyncio.get_running_loop().time() + self.latency, text))

    async def drain(self) -> None:
        """Everything written has arrived."""
        if self.task is not None:
            self.queue.put_nowait((0.0, None))  # after what is queued: the queue keeps order
            await self.task

    async def _deliver(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            due, text = await self.queue.get()
            await asyncio.sleep(max(0.0, due - loop.time()))
            if text is None:
                return
            if text:
                with contextlib.suppress(BrokenPipeError, ConnectionError):
                    self.process.stdout.write(text)


def _next_line(pending: str) -> tuple[str | None, str]:
    """The first whole line of ``pending`` (ended by CR, LF or CR LF) and what follows it."""
    cut = min((i for i in (pending.find("\r"), pending.find("\n")) if i >= 0), default=-1)
    if cut < 0:
        return None, pending
    line, rest = pending[:cut], pending[cut + 1 :]
    if pending[cut] == "\r" and rest.startswith("\n"):
        rest = rest[1:]
    return line, rest


def _lines_in(pending: str) -> int:
    return pending.count("\n") or pending.count("\r")


def _answer(session: Session, line: str) -> str | None:
    """What the switch prints for one line it reads: the echo and the answer ('' for a line it
    hangs on: nothing, then or later; None when it hangs up). Lines typed ahead wait in the
    input until their turn, as on a switch's CLI, so each answer follows its own line's echo."""
    hang = session.sw.faults.hang_on
    if hang and re.search(hang, line):
        session.hung = True
        return ""
    try:
        return line + "\r\n" + session.feed(line)
    except Dropped:
        return None


async def _no_prompt(process: asyncssh.SSHServerProcess[str], mode: str) -> None:
    """Logged in, but never a prompt: silence, or noise answering every line."""
    try:
        if mode == "flood":
            while True:
                process.stdout.write(GARBAGE * 200)
                await process.stdout.drain()
        if mode == "garbage":
            process.stdout.write(GARBAGE)
        while await process.stdin.read(4096):
            if mode == "garbage":
                process.stdout.write(GARBAGE * 3)
    except (asyncssh.Error, BrokenPipeError, ConnectionError):
        pass
    process.exit(0)


async def _not_ssh(mode: str, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """A TCP port that is no SSH server: says nothing, or noise instead of a banner."""
    try:
        if mode == "garbage":
            writer.write(GARBAGE.encode() * 3)
            await writer.drain()
        while await reader.read(4096):
            pass
    except ConnectionError:
        pass
    writer.close()


@dataclass
class Endpoint:
    hostname: str
    port: int
    switch: Switch


class Lab:
    """Emulators in a background event loop; ``with Lab(...) as lab:`` in tests."""

    def __init__(self, switches: list[Switch], username: str, password: str) -> None:
        self.switches = switches
        self.username, self.password = username, password
        self.endpoints: dict[str, Endpoint] = {}
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._servers: list[asyncssh.SSHAcceptor] = []
        self._plain: list[asyncio.Server] = []
        self.notes: list[str] = []  # what 'roce-cfg lab' says about its faults

    async def _start(self) -> None:
        key = asyncssh.generate_private_key("ssh-ed25519")
        for sw in self.switches:
            if sw.faults.before_ssh is not None:
                plain = await asyncio.start_server(
                    functools.partial(_not_ssh, sw.faults.before_ssh), "127.0.0.1", 0
                )
                self._plain.append(plain)
                port = plain.sockets[0].getsockname()[1]
                self.endpoints[sw.hostname] = Endpoint(sw.hostname, port, sw)
                continue
            server = await asyncssh.create_server(
                lambda sw=sw: _Server(sw, self.username, self.password),
                "127.0.0.1",
                0,
                server_host_keys=[key],
                process_factory=_handler(sw),
                line_editor=False,
                encoding="utf-8",
            )
            port = server.sockets[0].getsockname()[1]
            self._servers.append(server)
            self.endpoints[sw.hostname] = Endpoint(sw.hostname, port, sw)

    def start(self) -> Lab:
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self._start(), self._loop).result(timeout=60)
        return self

    def stop(self) -> None:
        async def close() -> None:
            for s in self._servers:
                s.close()
                await s.wait_closed()
            for p in self._plain:
                p.close()
            # Sessions still open (a host that never shows a prompt keeps its client waiting)
            # end with the lab, not as tasks destroyed while pending.
            tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for t in tasks:
                t.cancel()
            if tasks:
                await asyncio.wait(tasks, timeout=5)

        asyncio.run_coroutine_threadsafe(close(), self._loop).result(timeout=30)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=10)

    def __enter__(self) -> Lab:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
