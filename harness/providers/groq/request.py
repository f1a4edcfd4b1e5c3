"""Groq input adapter (provider id ``groq``): ``POST https://api.groq.com/openai/v1/chat/completions``.

The Chat Completions core plus Groq's reasoning parameters (``reasoning_effort`` by model
family, ``reasoning_format``). Groq refuses ``messages[].name``, ``logprobs``,
``logit_bias``, ``top_logprobs`` and ``n`` other than 1 with a 400 (docs: openai
compatibility); the core sends none of them. Reasoning is not sent back
(``thinking-unsupported``), except a Kimi thinking model's, on its assistant tool-call
messages, in Groq's ``reasoning`` field (``harness.mapping.dialects.kimi_or_drop``). Decisions: DECISIONS.md beside this module.
"""

from __future__ import annotations

from harness.contract.warning_codes import Code
from harness.mapping.call_controls import fold_effort
from harness.mapping.chat_completions import JSON, ReasoningMapper
from harness.mapping.dialects import Dialect, DialectAdapter, kimi_or_drop
from harness.mapping.wire import Prepared, Warnings
from harness.params import CallParams
from harness.providers.groq.profile import (
    CONTROLS,
    DEFAULT_MODEL,
    FILES,
    ID_POLICY,
    KIMI_REASONING_FIELD,
    TOOL_NAMES,
    effort_models,
    format_models,
    switch_models,
)

__all__ = ["ADAPTER", "DEFAULT_MODEL", "PROVIDER_ID", "controls"]

PROVIDER_ID = "groq"
#: gpt-oss on Groq knows low/medium/high: minimal folds to low (recorded:
#: groq-gpt-oss-thinking-minimal-folds-to-low).
_EFFORT = {"minimal": "low", "low": "low", "medium": "medium", "high": "high"}


def _reasoning(prepared: Prepared, model: str, params: CallParams) -> ReasoningMapper:
    return kimi_or_drop(
        model, "Groq takes no reasoning back on assistant messages", field=KIMI_REASONING_FIELD
    )


def controls(body: JSON, params: CallParams, warnings: Warnings, model: str) -> None:
    """``reasoning_effort`` and ``reasoning_format`` (docs: console.groq.com/docs/reasoning)."""
    thinking = params.thinking
    if thinking is None:
        return
    if effort_models(model):
        if not thinking.enabled:
            warnings.add(None, None, None, Code.THINKING_CANNOT_DISABLE, "gpt-oss always reasons on Groq")
        else:
            body["reasoning_effort"] = fold_effort(
                thinking.effort or "medium", _EFFORT, warnings, PROVIDER_ID
            )
        body["reasoning_format"] = "parsed" if thinking.include_thoughts else "hidden"
    elif switch_models(model):
        if not thinking.enabled:
            body["reasoning_effort"] = "none"
        else:
            body["reasoning_format"] = "parsed" if thinking.include_thoughts else "hidden"
    elif format_models(model):
        if not thinking.enabled:
            warnings.add(None, None, None, Code.THINKING_CANNOT_DISABLE, f"{model} always reasons on Groq")
        body["reasoning_format"] = "parsed" if thinking.include_thoughts else "hidden"
    else:
        warnings.add(
            None,
            None,
            None,
            Code.THINKING_PARAM_IGNORED,
            f"model '{model}' takes no reasoning parameters on Groq; not sent",
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
    )
)
