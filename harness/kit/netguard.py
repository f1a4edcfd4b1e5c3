"""Offline means offline: while the harness drives a target, no socket reaches the network.

A target's SDK clients get the kit's transport (``OfflineWire``), which never opens a socket.
Code under audit can still ignore the client it was given (litellm did, for OpenRouter, for
its Chat -> Responses switch and to fetch Gemini image URLs): offline that is a crash deep in
an HTTP library, and on a CI with network a real, billed call. ``offline(target)`` makes any
such attempt fail at once, with one line naming the host and the target.

How: the approach of pytest-socket (https://github.com/miketheman/pytest-socket,
``socket_allow_hosts``: it replaces ``socket.socket.connect`` with a guard), at the socket
level so that every library is covered (httpx, aiohttp, requests, urllib3, raw sockets), not
one HTTP client, and without needing pytest (the CLI uses it too):

- ``socket.socket.connect`` and ``connect_ex`` refuse every internet address (IPv4 and IPv6,
  loopback included: a target has no business with a local server either); Unix sockets and
  socket pairs (asyncio's self-pipe) stay usable;
- ``socket.getaddrinfo`` and ``socket.create_connection`` refuse to resolve or connect to any
  host, so a DNS lookup leaves nothing on the wire either.

Each refusal raises ``NetworkBlocked`` (not an ``OSError``, so no library retries it as a
connection error) and is noted on the guard, so a caller can still fail the call when the
code under audit swallowed the exception. Guards nest (the innermost target is named) and
the originals come back when the outermost one exits.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Generator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, cast

__all__ = ["NetworkBlocked", "OfflineGuard", "offline"]

_INTERNET = (socket.AF_INET, socket.AF_INET6)


class NetworkBlocked(RuntimeError):
    """A target tried to reach the network while the harness drove it offline."""


@dataclass
class OfflineGuard:
    """One ``offline`` block: the target it is for and the attempts refused during it (one line each)."""

    target: str
    attempts: list[str] = field(default_factory=lambda: [])

    def refuse(self, host: object, port: object) -> NetworkBlocked:
        line = (
            f"target '{self.target}' tried to open a network connection to {host}:{port}; the harness "
            "runs targets offline: give your code the client harness.kit.OfflineWire provides"
        )
        self.attempts.append(line)
        return NetworkBlocked(line)


_lock = threading.Lock()
_stack: list[OfflineGuard] = []
_originals: dict[str, Any] = {}


def _current() -> OfflineGuard:
    return _stack[-1]


def _address(address: Any) -> tuple[object, object]:
    """(host, port) of an internet address tuple; anything else is named as it is."""
    parts = cast(tuple[object, ...], address) if isinstance(address, tuple) else ()
    return (parts[0], parts[1]) if len(parts) >= 2 else (cast(object, address), "?")


def _connect(self: socket.socket, address: Any) -> None:
    if self.family in _INTERNET:
        raise _current().refuse(*_address(address))
    _originals["connect"](self, address)


def _connect_ex(self: socket.socket, address: Any) -> int:
    if self.family in _INTERNET:
        raise _current().refuse(*_address(address))
    result: int = _originals["connect_ex"](self, address)
    return result


def _getaddrinfo(host: Any, port: Any, *args: Any, **kwargs: Any) -> Any:
    raise _current().refuse(host, port)


def _create_connection(address: Any, *args: Any, **kwargs: Any) -> Any:
    raise _current().refuse(*_address(address))


def _install() -> None:
    _originals.update(
        connect=socket.socket.connect,
        connect_ex=socket.socket.connect_ex,
        getaddrinfo=socket.getaddrinfo,
        create_connection=socket.create_connection,
    )
    socket.socket.connect = _connect  # type: ignore[method-assign]
    socket.socket.connect_ex = _connect_ex  # type: ignore[method-assign]
    socket.getaddrinfo = _getaddrinfo
    socket.create_connection = _create_connection


def _uninstall() -> None:
    socket.socket.connect = _originals["connect"]  # type: ignore[method-assign]
    socket.socket.connect_ex = _originals["connect_ex"]  # type: ignore[method-assign]
    socket.getaddrinfo = _originals["getaddrinfo"]
    socket.create_connection = _originals["create_connection"]
    _originals.clear()


@contextmanager
def offline(target: str) -> Generator[OfflineGuard]:
    """No internet socket while the block runs; each attempt raises ``NetworkBlocked`` naming host and target."""
    guard = OfflineGuard(target)
    with _lock:
        if not _stack:
            _install()
        _stack.append(guard)
    try:
        yield guard
    finally:
        with _lock:
            _stack.remove(guard)
            if not _stack:
                _uninstall()
