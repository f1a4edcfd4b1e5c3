"""DeepSeek input adapter (provider id ``deepseek``): ``POST https://api.deepseek.com/chat/completions``.

The Chat Completions core plus DeepSeek's reasoning rules (guides/thinking_mode):

- in thinking mode, every assistant message of a tool loop (between two user messages, a
  span in which the model called tools) carries its ``reasoning_content`` in all later
  requests, else 400; a loop turn whose reasoning the history lacks gets ``""``
  (``reasoning-content-empty``);
- outside tool loops the API ignores it, so it is not sent (``reasoning-not-sent``);
- ``deepseek-reasoner`` is thinking mode by name: it cannot be switched off
  (``thinking-cannot-disable``) and its tool loops carry ``reasoning_content`` too.

``thinking: {"type": "enabled"|"disabled"}`` and ``reasoning_effort`` (high/max). Decisions:
DECISIONS.md beside this module.
"""

from __future__ import annotations

from harness.contract.warning_codes import Code
from harness.mapping.call_controls import fold_effort
from harness.mapping.chat_completions import JSON, ReasoningMapper
from harness.mapping.dialects import Dialect, DialectAdapter, send_reasoning_content, tool_loop_turns
from harness.mapping.wire import Prepared, Warnings, WireAssistant
from harness.params import CallParams
from harness.providers.deepseek.profile import (
    CONTROLS,
    DEFAULT_MODEL,
    FILES,
    ID_POLICY,
    MAX_TOKENS_FIELD,
    TOOL_NAMES,
    thinking_by_default,
    thinking_by_name,
)

__all__ = ["ADAPTER", "DEFAULT_MODEL", "PROVIDER_ID", "controls", "thinking_mode"]

PROVIDER_ID = "deepseek"
#: Requested effort -> DeepSeek's (guides/thinking_mode: minimal/low -> low, medium/high -> high).
_EFFORT = {"minimal": "low", "low": "low", "medium": "high", "high": "high"}


def thinking_mode(model: str, params: CallParams) -> bool:
    """Whether the request runs in thinking mode: by the model's name, else the switch when given,
    else the model's default."""
    if thinking_by_name(model):
        return True
    if params.thinking is not None:
        return params.thinking.enabled
    return thinking_by_default(model)


def _reasoning(prepared: Prepared, model: str, params: CallParams) -> ReasoningMapper:
    loops = tool_loop_turns(prepared) if thinking_mode(model, params) else set[int]()

    def required(item: WireAssistant) -> bool:
        return item.index in loops

    return send_reasoning_content(
        model,
        required,
        fill_empty=True,
        why_not="DeepSeek ignores reasoning_content outside a thinking-mode tool loop",
    )


def controls(body: JSON, params: CallParams, warnings: Warnings, model: str) -> None:
    """``thinking`` and ``reasoning_effort`` (guides/thinking_mode, "OpenAI format")."""
    thinking = params.thinking
    if thinking is None:
        return
    if thinking_by_name(model):  # the name is the switch: no thinking parameter is sent
        if not thinking.enabled:
            warnings.add(None, None, None, Code.THINKING_CANNOT_DISABLE, f"{model} is thinking mode by name")
        return
    body["thinking"] = {"type": "enabled" if thinking.enabled else "disabled"}
    if thinking.enabled and thinking.effort is not None:
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
        max_tokens_field=MAX_TOKENS_FIELD,
        stream_usage=True,
    )
)
