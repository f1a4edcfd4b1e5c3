"""Which recorded responses the test suite actually replayed, and which committed ones nobody did.

Design (cassette hygiene): a response is identified by its *content* (method, status
and the SHA-256 of the decoded body), not by file name or index. Tests load
cassettes in many ways (``replay_file``, ``load_exchanges`` + ``replay_exchange``, a
target's ``replay``, copies served by a loopback server, vcrpy playback), and
content-addressing counts all of them without those tests knowing about the registry.

Filling it takes one hook: while a pytest session runs, the plugin wraps
``harness.providers.replay.replay_exchange`` (every reference replay goes through it) and notes
each exchange it is given; the ``harness_cassette`` fixture notes the interactions
vcrpy played. At the end of the session, ``unplayed`` lists the model-call
interactions of the committed cassettes that were never noted. Non-model calls (e.g.
``GET /models`` kept in an imported recording) are not replayable and are exempt.
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import harness.providers.replay as replay_module
from harness.contract.chunking import Chunking
from harness.providers.replay import Exchange, load_exchanges

__all__ = ["PlayRegistry", "fingerprint", "install_tracking", "unplayed"]


def fingerprint(method: str, status: int, body: bytes) -> str:
    if body[:2] == b"\x1f\x8b":
        body = gzip.decompress(body)
    digest = hashlib.sha256(body).hexdigest()
    return f"{method.upper()} {status} {digest}"


@dataclass
class PlayRegistry:
    """Fingerprints of every response replayed in this session (one registry per pytest session)."""

    played: set[str] = field(default_factory=lambda: set())

    def note_exchange(self, exchange: Exchange) -> None:
        self.played.add(fingerprint(exchange.method, exchange.status, exchange.body))

    def note_vcr_cassette(self, cassette: Any) -> None:
        """Note the interactions a vcrpy cassette played (or recorded) during one test."""
        data = cast(list[tuple[Any, dict[str, Any]]], cassette.data)
        counts = cast(dict[int, int], cassette.play_counts)
        loaded = int(getattr(cassette, "_loaded_count", len(data)))
        for index, (request, response) in enumerate(data):
            if counts.get(index, 0) > 0 or index >= loaded:
                stored: dict[str, Any] = response.get("body") or {}
                body: Any = stored.get("string") or b""
                raw = body.encode("utf-8") if isinstance(body, str) else bytes(cast(bytes, body))
                self.played.add(fingerprint(str(request.method), int(response["status"]["code"]), raw))

    def was_played(self, exchange: Exchange) -> bool:
        return fingerprint(exchange.method, exchange.status, exchange.body) in self.played


def install_tracking(registry: PlayRegistry) -> Callable[[], None]:
    """Wrap ``replay_exchange`` where it is defined and wherever it was already imported; returns the undo.

    Modules imported later (test modules, at collection) import the wrapper itself.
    """
    original = replay_module.replay_exchange

    @functools.wraps(original)
    def tracked(parser_class: Any, exchange: Exchange, chunk_size: Chunking = None) -> Any:
        registry.note_exchange(exchange)
        return original(parser_class, exchange, chunk_size)

    rebound = [
        module for module in list(sys.modules.values()) if vars(module).get("replay_exchange") is original
    ]
    for module in rebound:
        module.replay_exchange = tracked  # pyright: ignore[reportAttributeAccessIssue]

    def undo() -> None:
        for module in rebound:
            if vars(module).get("replay_exchange") is tracked:
                module.replay_exchange = original  # pyright: ignore[reportAttributeAccessIssue]

    return undo


def unplayed(cassettes: Iterable[Path], registry: PlayRegistry, root: Path | None = None) -> list[str]:
    """One line per model-call interaction no test replayed: ``path: interactions[i] METHOD URI``."""
    lines: list[str] = []
    for path in cassettes:
        provider = path.parent.name
        shown = path.relative_to(root) if root is not None and path.is_relative_to(root) else path
        for index, exchange in enumerate(load_exchanges(path, provider)):
            if exchange.is_model_call and not registry.was_played(exchange):
                lines.append(
                    f"{shown}: interactions[{index}] {exchange.method} {exchange.uri}: never replayed"
                )
    return lines
