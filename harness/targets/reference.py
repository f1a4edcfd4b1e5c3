"""The ``reference`` target: this package's own adapters."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from harness.contract.chunking import Chunking
from harness.contract.rendered import Rendered
from harness.model import HistoryEvent
from harness.params import CallParams
from harness.providers import PROVIDERS, get_adapter

if TYPE_CHECKING:
    from harness.providers.replay import Exchange
    from harness.stream.base import CallResult

__all__ = ["TARGET", "ReferenceTarget"]


class ReferenceTarget:
    name = "reference"
    version: str | None = None  # the harness's own adapters: the harness version is the version
    lacks: frozenset[str] = frozenset()

    def providers(self) -> Sequence[str]:
        return PROVIDERS

    def render(self, provider: str, history: Sequence[HistoryEvent], params: CallParams) -> Rendered:
        return get_adapter(provider).render(history, params)

    def replay(self, provider: str, exchange: Exchange, chunk_size: Chunking = None) -> CallResult:
        # Loaded here, not at import: ``harness render`` needs no stream machinery (nor PyYAML).
        from harness.providers.replay import parser_for, replay_exchange

        return replay_exchange(parser_for(provider, exchange), exchange, chunk_size)


TARGET = ReferenceTarget()
