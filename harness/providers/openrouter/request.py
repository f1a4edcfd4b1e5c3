"""OpenRouter input adapter (provider id ``openrouter``).

OpenRouter's ``POST /api/v1/chat/completions`` is the OpenAI Chat Completions API plus
extensions (https://openrouter.ai/docs/api-reference/chat-completion; SDK model
``openrouter.components.chatrequest.ChatRequest``). Everything Chat already does is
reused from the Chat Completions core (``harness.mapping.chat_completions``); this module adds the reasoning round trip and OpenRouter's
own parameters.

Decisions (where DESIGN.md left room), each with its scenario and function, and the
warning codes emitted here: DECISIONS.md beside this module.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from harness.contract.rendered import Rendered
from harness.contract.warning_codes import Code
from harness.mapping import chat_completions as chat
from harness.mapping.cache import system_breakpoints, warn_breakpoints
from harness.mapping.call_controls import apply_controls
from harness.mapping.prepare import prepare
from harness.mapping.toolbox import signature_problem, thinking_text_problem
from harness.mapping.wire import ThinkingUnit, Warnings, WireAssistant
from harness.model import HistoryEvent, ThinkingSignaturePart, ThinkingTextPart
from harness.params import CallParams, ThinkingParams
from harness.providers.openrouter.profile import (
    CONTROLS,
    DEFAULT_MODEL,
    EXPLICIT_CACHE_MODELS,
    FILES,
    ID_POLICY,
    SIGNATURE_ON_TEXT,
    TOOL_NAMES,
)

__all__ = ["ADAPTER", "DEFAULT_MODEL", "ID_POLICY", "PROVIDER_ID", "OpenRouterAdapter", "reasoning_config"]

PROVIDER_ID = "openrouter"

JSON = dict[str, Any]


class OpenRouterAdapter:
    provider: str = PROVIDER_ID

    def render(self, history: Sequence[HistoryEvent], params: CallParams) -> Rendered:
        prepared = prepare(history, params, PROVIDER_ID, ID_POLICY, TOOL_NAMES, files=FILES)
        model = params.model or DEFAULT_MODEL

        def reasoning(item: WireAssistant, units: list[ThinkingUnit], warnings: Warnings) -> JSON:
            return reasoning_details(item, units, warnings, model)

        explicit = model.startswith(EXPLICIT_CACHE_MODELS)
        marks = system_breakpoints(history, params, prepared.system) if explicit else None
        body = chat.base_body(prepared, params, model, reasoning, provider=PROVIDER_ID, system_cache=marks)
        warn_breakpoints(
            history,
            params,
            prepared.warnings,
            PROVIDER_ID,
            automatic=not explicit,
            handled=frozenset({"system", "user", "developer"}) if explicit else frozenset(),
        )
        config = reasoning_config(params.thinking, prepared.warnings)
        if config is not None:
            body["reasoning"] = config
        apply_controls(body, params, CONTROLS, prepared.warnings)
        return Rendered(body, list(prepared.warnings))


ADAPTER = OpenRouterAdapter()


# ---------------------------------------------------------------- request level


def reasoning_config(thinking: ThinkingParams | None, warnings: Warnings) -> JSON | None:
    """ChatRequest.reasoning (docs: reasoning-tokens, "Controlling reasoning tokens")."""
    if thinking is None:
        return None
    if not thinking.enabled:
        return {"effort": "none"}
    out: JSON = {}
    if thinking.effort is not None:
        out["effort"] = thinking.effort
        if thinking.budget_tokens is not None:
            warnings.add(
                None,
                None,
                None,
                Code.THINKING_BUDGET_IGNORED,
                "OpenRouter takes effort or max_tokens, not both; effort sent, budget_tokens ignored",
            )
    elif thinking.budget_tokens is not None:
        out["max_tokens"] = thinking.budget_tokens
    else:
        out["enabled"] = True
    if not thinking.include_thoughts:
        out["exclude"] = True
    return out


# ---------------------------------------------------------------- reasoning_details


def reasoning_details(item: WireAssistant, units: list[ThinkingUnit], warnings: Warnings, model: str) -> JSON:
    """``reasoning_details`` for one assistant turn; units that cannot be sent are warned and left out."""
    details: list[JSON] = []
    ordinal = 0
    for unit in units:
        problem = unit_problem(unit, model)
        if problem is not None:
            code, why = problem
            chat.warn_thinking(item.index, [unit], warnings, code, why)
            continue
        details.extend(unit_details(unit, ordinal, item.call_ids))
        ordinal += 1
    return {"reasoning_details": details} if details else {}


def unit_problem(unit: ThinkingUnit, model: str) -> tuple[Code, str] | None:
    """(warning code, reason) when a unit is not native reasoning for this model; None if it is."""
    if unit.signature is None:
        return Code.THINKING_UNSIGNED, "reasoning text has no signature, so it cannot be replayed as native"
    problem = signature_problem(unit.signature, PROVIDER_ID, model)
    if problem is not None:
        return Code.THINKING_FOREIGN, problem
    if unit.text is not None:
        problem = thinking_text_problem(unit.text, model)
        if problem is not None:
            return Code.THINKING_MODEL_MISMATCH, problem
    return None


def unit_details(unit: ThinkingUnit, index: int, call_ids: dict[str, str]) -> list[JSON]:
    """The ReasoningDetail entries of one native unit, in the shape OpenRouter streams for its format."""
    sig = unit.signature
    assert sig is not None  # unit_problem() rejected unsigned units
    text = unit.text
    if text is None:
        return [encrypted_detail(sig, None, index, call_ids)]
    if sig.format in SIGNATURE_ON_TEXT:
        return [signed_text_detail(text, sig, index, call_ids)]
    entries: list[JSON] = []
    if text.text:
        entries.append(text_detail(text, str(sig.format), index, call_ids))
    entries.append(encrypted_detail(sig, text, index, call_ids))
    return entries


def signed_text_detail(
    text: ThinkingTextPart, sig: ThinkingSignaturePart, index: int, call_ids: dict[str, str]
) -> JSON:
    """ReasoningDetailText with its signature (Anthropic thinking block)."""
    entry: JSON = {"type": "reasoning.text", "text": text.text, "signature": sig.signature}
    return _common(entry, text.id or sig.id, sig.format, index, call_ids)


def text_detail(text: ThinkingTextPart, fmt: str, index: int, call_ids: dict[str, str]) -> JSON:
    """ReasoningDetailSummary for Responses-family formats, else ReasoningDetailText without signature."""
    if fmt.endswith("-responses-v1"):
        entry: JSON = {"type": "reasoning.summary", "summary": text.text}
    else:
        entry = {"type": "reasoning.text", "text": text.text}
    return _common(entry, text.id, fmt, index, call_ids)


def encrypted_detail(
    sig: ThinkingSignaturePart, text: ThinkingTextPart | None, index: int, call_ids: dict[str, str]
) -> JSON:
    """ReasoningDetailEncrypted: opaque reasoning state sent back byte-exact."""
    entry: JSON = {"type": "reasoning.encrypted", "data": sig.signature}
    return _common(entry, sig.id or (text.id if text else None), sig.format, index, call_ids)


def _common(entry: JSON, part_id: str | None, fmt: str | None, index: int, call_ids: dict[str, str]) -> JSON:
    """id (remapped like its tool call when it names one), format and index."""
    if part_id:
        entry["id"] = call_ids.get(part_id, part_id)
    if fmt:
        entry["format"] = fmt
    entry["index"] = index
    return entry
