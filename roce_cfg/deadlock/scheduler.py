"""``deadlock --scheduler ADDR``: the address checked, the peer reached within a few seconds
and recognised as a Dask scheduler, before the sweep hands it anything.

Handed to Dask unchecked, an address that is no URL or has another scheme was a ValueError
traceback, a 10,000-character host a UnicodeError, a closed port a 30-second wait, and any TCP
service that is not Dask (a web server) a MemoryError or OverflowError: Dask reads the first
eight bytes a peer sends as the length of its first message. Here each is one line saying why.
"""

from __future__ import annotations

import ipaddress
import re
import socket
import struct
import time

from roce_cfg import dial
from roce_cfg.errors import InputError, printable

SCHEMES = ("tcp", "tls")
# Seconds to connect (name resolution included) and for the peer's first message: a scheduler
# on a network worth sweeping on answers in milliseconds.
CONNECT_S = 3.0
HELLO_S = 3.0
# A scheduler's handshake is a few dozen bytes of msgpack (its compression, Python version and
# pickle protocol); a peer announcing more than this is something else.
MAX_HELLO = 64 * 1024
MAX_ADDRESS = 300
_LABEL = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$")
_ADDRESS = re.compile(
    r"^(?:(?P<scheme>[A-Za-z][A-Za-z0-9+.-]*)://)?"
    r"(?P<host>\[[^\]]*\]|[^:/]*)(?::(?P<port>[^/]*))?$"
)


def _refuse(address: str, why: str) -> InputError:
    shown = printable(address[:80]) + ("..." if len(address) > 80 else "")
    return InputError(f"--scheduler {shown!r}: {why}")


def parse(address: str) -> tuple[str, str, int]:
    """(scheme, host, port) of ``tcp://host:port`` (``tls://``; no scheme is tcp), or an
    InputError saying which part is wrong.

    >>> parse("tcp://10.0.0.5:8786"), parse("sched.example:8786"), parse("tls://[::1]:1")
    (('tcp', '10.0.0.5', 8786), ('tcp', 'sched.example', 8786), ('tls', '::1', 1))
    >>> parse("ftp://x:1")
    Traceback (most recent call last):
    ...
    roce_cfg.errors.InputError: --scheduler 'ftp://x:1': scheme 'ftp'; a Dask scheduler is ...
    """
    if len(address) > MAX_ADDRESS:
        raise _refuse(address, f"{len(address):,} characters; an address is at most {MAX_ADDRESS}")
    m = _ADDRESS.match(address.strip())
    if m is None or any(c.isspace() or not c.isprintable() for c in address.strip()):
        raise _refuse(address, "not an address; expected tcp://host:port")
    scheme = (m["scheme"] or "tcp").lower()
    if scheme not in SCHEMES:
        raise _refuse(
            address, f"scheme {scheme!r}; a Dask scheduler is tcp://host:port or tls://host:port"
        )
    host = _host(address, m["host"])
    port = m["port"]
    if not (
        port and len(port) <= 5 and port.isascii() and port.isdigit() and 1 <= int(port) <= 65535
    ):
        raise _refuse(address, "needs a port 1-65535 (the scheduler's default is 8786)")
    return scheme, host, int(port)


def _host(address: str, host: str) -> str:
    if host.startswith("["):
        try:
            return str(ipaddress.IPv6Address(host[1:-1]))
        except ValueError:
            raise _refuse(address, f"{host} is not an IPv6 address") from None
    try:
        return str(ipaddress.IPv4Address(host))
    except ValueError:
        pass
    labels = host.rstrip(".").split(".")
    if not host or len(host) > 253 or not all(_LABEL.match(label) for label in labels):
        raise _refuse(address, "the host is no IPv4 address, [IPv6] address or DNS name")
    return host


def reach(address: str) -> str:
    """The address in Dask's form (``tcp://host:port``) once a Dask scheduler answers there;
    an InputError saying plainly why not (no such host, nothing listening, no answer in time,
    something other than Dask)."""
    scheme, host, port = parse(address)
    shown = f"[{host}]" if ":" in host else host
    url = f"{scheme}://{shown}:{port}"
    try:
        sock = dial.tcp(host, port, CONNECT_S)
    except dial.Failed as exc:
        raise _refuse(address, f"cannot reach it ({exc})") from None
    with sock:
        if scheme == "tcp":  # TLS speaks first from our side: Dask checks that handshake itself
            _hello(sock, address)
    return url


def _hello(sock: socket.socket, address: str) -> None:
    """A Dask scheduler sends its handshake as soon as a connection opens: a length (8 bytes),
    a frame count and lengths, then a msgpack map holding 'python' and 'pickle-protocol'."""
    head = _recv(sock, 8, address)
    (total,) = struct.unpack("<Q", head)
    if not 16 <= total <= MAX_HELLO:
        raise _refuse(address, f"not a Dask scheduler (it sent {_shown(head)})")
    body = _recv(sock, total, address)
    (frames,) = struct.unpack_from("<Q", body)
    if not 1 <= frames <= 16 or 8 * (1 + frames) > total:
        raise _refuse(address, f"not a Dask scheduler (it sent {_shown(head + body)})")
    first = struct.unpack_from("<Q", body, 8)[0]
    start = 8 * (1 + frames)
    try:
        import msgpack  # type: ignore[import-untyped]

        hello = msgpack.unpackb(bytes(body[start : start + first]), raw=False)
    except Exception:
        hello = None
    if not isinstance(hello, dict) or not {"python", "pickle-protocol"} <= set(hello):
        raise _refuse(address, "not a Dask scheduler (its first message is not Dask's handshake)")


def _recv(sock: socket.socket, n: int, address: str) -> bytes:
    deadline = time.monotonic() + HELLO_S
    data = b""
    while len(data) < n:
        left = deadline - time.monotonic()
        if left <= 0:
            raise _refuse(address, f"not a Dask scheduler (no handshake within {HELLO_S:g} s)")
        sock.settimeout(left)
        try:
            chunk = sock.recv(n - len(data))
        except TimeoutError:
            continue
        except OSError as exc:
            raise _refuse(address, f"the connection failed ({exc.strerror or exc})") from None
        if not chunk:
            raise _refuse(address, "not a Dask scheduler (it closed the connection)")
        data += chunk
    return data


def _shown(data: bytes) -> str:
    return repr(data[:24].decode("latin-1")) + ("..." if len(data) > 24 else "")
