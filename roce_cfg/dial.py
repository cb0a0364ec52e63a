"""A TCP connection within a deadline, name resolution included: the one dialler of push (to
switches) and of ``deadlock --scheduler`` (to a Dask scheduler)."""

from __future__ import annotations

import socket
import threading
import time
from typing import Any, Literal

Kind = Literal["timeout", "unreachable"]


class Failed(Exception):
    """No connection; ``kind`` says whether the deadline passed or the peer said no."""

    def __init__(self, kind: Kind, message: str) -> None:
        super().__init__(message)
        self.kind = kind


def resolve(host: str, port: int, timeout: float) -> str:
    """The address to dial. getaddrinfo takes no timeout (a dead resolver holds it for the
    resolver's own retries, 5 s each): it runs in a daemon thread the step's deadline waits on."""
    found: list[Any] = []

    def work() -> None:
        try:
            found.append(socket.getaddrinfo(host, port, type=socket.SOCK_STREAM))
        except (OSError, UnicodeError) as exc:
            found.append(exc)

    worker = threading.Thread(target=work, name=f"resolve {host[:60]}", daemon=True)
    worker.start()
    worker.join(timeout)
    if not found:
        raise Failed("timeout", f"{host}: no name resolution within {timeout:g} s")
    if isinstance(found[0], BaseException):
        exc = found[0]
        raise Failed("unreachable", f"{host}:{port}: {getattr(exc, 'strerror', None) or exc}")
    return str(found[0][0][4][0])


def tcp(host: str, port: int, timeout: float) -> socket.socket:
    """A connected socket to ``host:port``, or Failed within ``timeout`` seconds in all."""
    started = time.monotonic()
    address = resolve(host, port, timeout)
    timeout = max(0.1, timeout - (time.monotonic() - started))
    try:
        return socket.create_connection((address, port), timeout=timeout)
    except TimeoutError:
        raise Failed(
            "timeout", f"no TCP connection to {host}:{port} within {timeout:g} s"
        ) from None
    except OSError as exc:
        raise Failed("unreachable", f"{host}:{port}: {exc.strerror or exc}") from None
