"""Targets for the audit's tests: the reference with a change to every request body, and one shared audit of it."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from harness.audit import AuditResult, run_audit
from harness.contract.chunking import Chunking
from harness.contract.exchange import Exchange
from harness.contract.rendered import Rendered
from harness.contract.results import CallResult
from harness.model import HistoryEvent
from harness.params import CallParams
from harness.targets import get_target

__all__ = ["ToyTarget", "without_max_tokens"]


class ToyTarget:
    """The reference adapters for anthropic, with an optional change to every request body."""

    lacks: frozenset[str] = frozenset()

    def __init__(self, name: str, version: str, change: dict[str, Any] | None = None) -> None:
        self.name, self.version, self.change = name, version, change or {}
        self._reference = get_target("reference")

    def providers(self) -> Sequence[str]:
        return ["anthropic"]

    def render(self, provider: str, history: Sequence[HistoryEvent], params: CallParams) -> Rendered:
        rendered = self._reference.render(provider, history, params)
        return Rendered({**rendered.body, **self.change}, rendered.warnings)

    def replay(self, provider: str, exchange: Exchange, chunk_size: Chunking = None) -> CallResult:
        return self._reference.replay(provider, exchange, chunk_size)


@functools.cache
def without_max_tokens() -> AuditResult:
    """One audit of a target that writes an explicit null max_tokens (I8 and the schema oracles
    fail): shared, read only, by the baseline and report-form tests of the audit and by those of compare."""
    return run_audit(ToyTarget("toy", "1", {"max_tokens": None}), examples=2, cassettes=None)
