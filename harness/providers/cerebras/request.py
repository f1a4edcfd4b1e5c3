"""Cerebras input adapter (provider id ``cerebras``): ``POST https://api.cerebras.ai/v1/chat/completions``.

The Chat Completions core plus ``reasoning_effort`` for reasoning models (``"none"`` turns
GLM's reasoning off, recorded). Responses carry reasoning in ``message.reasoning``; it is not
sent back (``thinking-unsupported``). Decisions: DECISIONS.md beside this module.
"""

from __future__ import annotations

from harness.contract.warning_codes import Code
from harness.mapping.call_controls import fold_effort
from harness.mapping.chat_completions import JSON, ReasoningMapper
from harness.mapping.dialects import Dialect, DialectAdapter, drop_reasoning
from harness.mapping.wire import Prepared, Warnings
from harness.params import CallParams
from harness.providers.cerebras.profile import (
    CONTROLS,
    DEFAULT_MODEL,
    FILES,
    ID_POLICY,
    TOOL_NAMES,
    reasoning_models,
)

__all__ = ["ADAPTER", "DEFAULT_MODEL", "PROVIDER_ID", "controls"]

PROVIDER_ID = "cerebras"
_EFFORT = {"minimal": "low", "low": "low", "medium": "medium", "high": "high"}


def _reasoning(prepared: Prepared, model: str, params: CallParams) -> ReasoningMapper:
    return drop_reasoning("Cerebras takes no reasoning field back on assistant messages")


def controls(body: JSON, params: CallParams, warnings: Warnings, model: str) -> None:
    thinking = params.thinking
    if thinking is None:
        return
    if not reasoning_models(model):
        warnings.add(
            None,
            None,
            None,
            Code.THINKING_PARAM_IGNORED,
            f"model '{model}' takes no reasoning parameters on Cerebras; not sent",
        )
        return
    if not thinking.enabled:
        body["reasoning_effort"] = "none"
    elif thinking.effort is not None:
        body["reasoning_effort"] = fold_effort(thinking.effort, _EFFORT, warnings, PROVIDER_ID)


ADAPTER = DialectAdapter(
    Dialect(
        provider=PROVIDER_ID,
        files=FILES,
        ids=ID_POLICY,
        names=TOOL_NAMES,
        reasoning=_reasoning,
        controls=controls,
        call_controls=CONTROLS,
    )
)
