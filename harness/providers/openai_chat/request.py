"""OpenAI Chat Completions input adapter (provider id ``openai-chat``).

Maps a prepared canonical history to a ``POST /v1/chat/completions`` body
(https://platform.openai.com/docs/api-reference/chat/create; OpenAPI schema
``CreateChatCompletionRequest``, SDK type ``CompletionCreateParamsStreaming``).
The messages, tools and limits come from the Chat Completions core
(``harness.mapping.chat_completions``), which OpenRouter builds on too.

Decisions (where DESIGN.md left room), each with its scenario and function, and the
warning codes emitted here: DECISIONS.md beside this module.
"""

from __future__ import annotations

from collections.abc import Sequence

from harness.contract.rendered import Rendered
from harness.contract.warning_codes import Code
from harness.mapping.cache import warn_by_profile
from harness.mapping.call_controls import apply_controls
from harness.mapping.chat_completions import JSON, base_body, warn_thinking
from harness.mapping.prepare import prepare
from harness.mapping.wire import ThinkingUnit, Warnings, WireAssistant
from harness.model import HistoryEvent
from harness.params import CallParams, ThinkingParams
from harness.providers.openai_chat.profile import (
    ACCEPTS_SYSTEM_ONLY,
    CONTROLS,
    DEFAULT_MODEL,
    ID_POLICY,
    TOOL_NAMES,
    accepts_reasoning,
    files_for,
)

__all__ = [
    "ADAPTER",
    "DEFAULT_MODEL",
    "PROVIDER_ID",
    "OpenAIChatAdapter",
    "drop_thinking",
    "reasoning_effort",
]

PROVIDER_ID = "openai-chat"


class OpenAIChatAdapter:
    provider: str = PROVIDER_ID

    def render(self, history: Sequence[HistoryEvent], params: CallParams) -> Rendered:
        prepared = prepare(
            history,
            params,
            PROVIDER_ID,
            ID_POLICY,
            TOOL_NAMES,
            files=files_for(params.model or DEFAULT_MODEL),
        )
        warnings = prepared.warnings
        body = base_body(
            prepared,
            params,
            params.model or DEFAULT_MODEL,
            drop_thinking,
            provider=PROVIDER_ID,
            system_only=ACCEPTS_SYSTEM_ONLY,
            allowed_subset=True,
        )
        if params.stream:
            # ChatCompletionStreamOptions: the final usage chunk only comes when asked for.
            body["stream_options"] = {"include_usage": True}
        effort = reasoning_effort(params.thinking, warnings, params.model or DEFAULT_MODEL)
        if effort is not None:
            body["reasoning_effort"] = effort
        apply_controls(body, params, CONTROLS, warnings)
        warn_by_profile(history, params, warnings, CONTROLS)
        return Rendered(body, list(warnings))


ADAPTER = OpenAIChatAdapter()


def reasoning_effort(thinking: ThinkingParams | None, warnings: Warnings, model: str) -> str | None:
    """CreateChatCompletionRequest.reasoning_effort (docs: guides/reasoning); Chat has no budget."""
    if thinking is None:
        return None
    if thinking.enabled and thinking.effort is not None and not accepts_reasoning(model):
        warnings.add(
            None,
            None,
            None,
            Code.THINKING_PARAM_IGNORED,
            f"model '{model}' is not a reasoning model and rejects reasoning_effort; not sent",
        )
        return None
    if not thinking.enabled:
        warnings.add(
            None,
            None,
            None,
            Code.THINKING_PARAM_IGNORED,
            "Chat Completions has no switch to turn reasoning off; reasoning_effort not sent",
        )
        return None
    if thinking.effort is None and thinking.budget_tokens is not None:
        warnings.add(
            None,
            None,
            None,
            Code.THINKING_BUDGET_IGNORED,
            "Chat Completions has no reasoning token budget; budget_tokens ignored (set effort instead)",
        )
    return thinking.effort


def drop_thinking(item: WireAssistant, units: list[ThinkingUnit], warnings: Warnings) -> JSON:
    """Chat Completions has no reasoning field on input: every thinking part is dropped, with a warning."""
    warn_thinking(
        item.index, units, warnings, Code.THINKING_UNSUPPORTED, "Chat Completions cannot carry reasoning"
    )
    return {}
