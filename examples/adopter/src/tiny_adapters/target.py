"""The ``tiny`` target (entry point ``harness.targets``): what the harness calls to audit this project."""

from __future__ import annotations

from collections.abc import Sequence

from harness import CallParams, CallResult, Chunking, Exchange, HistoryEvent, Rendered, get_target
from tiny_adapters.chat import render


class TinyTarget:
    name = "tiny"
    version: str | None = "0.1.0"
    lacks: frozenset[str] = frozenset()

    def providers(self) -> Sequence[str]:
        return ("openai-chat",)

    def render(self, provider: str, history: Sequence[HistoryEvent], params: CallParams) -> Rendered:
        if provider != "openai-chat":
            raise NotImplementedError(provider)
        return render(history, params)

    def replay(self, provider: str, exchange: Exchange, chunk_size: Chunking = None) -> CallResult:
        """Responses are read with the harness's reference stream parser: this example only writes requests.

        A project with its own stream parser calls it here, and the cassette tests judge it.
        """
        return get_target("reference").replay(provider, exchange, chunk_size)


TARGET = TinyTarget()
