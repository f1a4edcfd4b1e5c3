"""The ``tiny`` target (entry point ``harness.targets``): what the harness calls to audit this project."""

from __future__ import annotations

from collections.abc import Sequence

from harness import CallParams, CallResult, Chunking, Exchange, HistoryEvent, Rendered
from tiny_adapters.chat import render


class TinyTarget:
    name = "tiny"
    version: str | None = "0.1.0"
    #: tiny only writes requests: it has no stream parser, so the harness judges none. Its replay
    #: checks (and I3, I6, I11, which replay streams) are reported as not run, with this reason.
    lacks: frozenset[str] = frozenset({"parser"})

    def providers(self) -> Sequence[str]:
        return ("openai-chat",)

    def render(self, provider: str, history: Sequence[HistoryEvent], params: CallParams) -> Rendered:
        if provider != "openai-chat":
            raise NotImplementedError(provider)
        return render(history, params)

    def replay(self, provider: str, exchange: Exchange, chunk_size: Chunking = None) -> CallResult:
        """Never called: ``lacks`` declares no parser. A project with a stream parser calls it here,
        drops ``"parser"`` from ``lacks``, and every recorded response is then replayed through it."""
        raise NotImplementedError("tiny has no stream parser")


TARGET = TinyTarget()
