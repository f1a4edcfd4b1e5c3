"""Targets for the audit's tests: the reference with a change to every request body, and the audits
``test_audit`` and ``test_audit_compare`` both read, computed once per run (``once_per_run``: under
xdist, by whichever worker asks first)."""

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
from tests.support.once import once_per_run

__all__ = ["REFERENCE_AUDIT_PROVIDERS", "ToyTarget", "reference_audit", "without_max_tokens"]


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
    return once_per_run(
        "audit-without-max-tokens",
        lambda: run_audit(ToyTarget("toy", "1", {"max_tokens": None}), examples=2, cassettes=None),
    )


#: The providers of the shared reference audit: a native thinking wire and a Responses-style one.
REFERENCE_AUDIT_PROVIDERS = ("anthropic", "openai-responses")


@functools.cache
def reference_audit() -> AuditResult:
    """The reference's audit (five generated histories, the bundled cassettes) for
    ``REFERENCE_AUDIT_PROVIDERS``: shared, read only, by the audit's determinism test (which runs
    its own second audit to compare) and by compare's tests."""
    return once_per_run(
        "audit-reference",
        lambda: run_audit(get_target("reference"), list(REFERENCE_AUDIT_PROVIDERS), examples=5),
    )
