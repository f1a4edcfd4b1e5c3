"""The ``reference`` target: this package's own adapters."""

from __future__ import annotations

from collections.abc import Sequence

from harness.contract.rendered import Rendered
from harness.model import HistoryEvent
from harness.params import CallParams
from harness.providers import PROVIDERS, get_adapter
from harness.providers.replay import Exchange, parser_for, replay_exchange
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

    def replay(self, provider: str, exchange: Exchange, chunk_size: int | None = None) -> CallResult:
        return replay_exchange(parser_for(provider, exchange), exchange, chunk_size)


TARGET = ReferenceTarget()
