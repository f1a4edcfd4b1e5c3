"""Hugging Face router input adapter (provider id ``huggingface``):
``POST https://router.huggingface.co/{provider}/v1/chat/completions`` (or ``/v1/chat/completions``).

The Chat Completions core with ``max_tokens``. The router has no reasoning parameters of its
own, and reasoning is not sent back (``thinking-unsupported``), except a Kimi thinking model's
``reasoning_content`` on its assistant tool-call messages (``harness.mapping.dialects.kimi_or_drop``). Decisions: DECISIONS.md.
"""

from __future__ import annotations

from harness.contract.warning_codes import Code
from harness.mapping.chat_completions import JSON, ReasoningMapper
from harness.mapping.dialects import Dialect, DialectAdapter, kimi_or_drop
from harness.mapping.wire import Prepared, Warnings
from harness.params import CallParams
from harness.providers.huggingface.profile import (
    CONTROLS,
    DEFAULT_MODEL,
    FILES,
    ID_POLICY,
    MAX_TOKENS_FIELD,
    TOOL_NAMES,
)

__all__ = ["ADAPTER", "DEFAULT_MODEL", "PROVIDER_ID", "controls"]

PROVIDER_ID = "huggingface"


def _reasoning(prepared: Prepared, model: str, params: CallParams) -> ReasoningMapper:
    return kimi_or_drop(model, "Hugging Face's router takes no reasoning back on assistant messages")


def controls(body: JSON, params: CallParams, warnings: Warnings, model: str) -> None:
    if params.thinking is not None:
        warnings.add(
            None,
            None,
            None,
            Code.THINKING_PARAM_IGNORED,
            "Hugging Face's router has no reasoning parameters; not sent",
        )


ADAPTER = DialectAdapter(
    Dialect(
        provider=PROVIDER_ID,
        files=FILES,
        ids=ID_POLICY,
        names=TOOL_NAMES,
        reasoning=_reasoning,
        controls=controls,
        call_controls=CONTROLS,
        max_tokens_field=MAX_TOKENS_FIELD,
    )
)
