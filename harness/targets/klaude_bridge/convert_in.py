"""Canonical history + call params -> klaude-code's own message types and call parameters.

Pure type conversion: every choice is listed in :mod:`harness.targets.klaude`, and
anything klaude-code itself does to a history before a call (the session's LLM view,
the agent's message filter) is done by calling klaude-code's code, not copied.
"""

# pyright: reportMissingImports=false, reportUnknownMemberType=false, reportUnknownVariableType=false
# pyright: reportUnknownArgumentType=false, reportUnknownParameterType=false, reportAttributeAccessIssue=false

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from klaude_code.agent.step import LLM_INPUT_MESSAGE_TYPES
from klaude_code.protocol import llm_param, message
from klaude_code.session.session import Session

from harness import model as canon
from harness.params import CallParams, ThinkingParams

__all__ = [
    "PROTOCOLS",
    "SESSION_ID",
    "call_parameter",
    "config",
    "default_model",
    "klaude_history",
    "llm_input",
]

#: Provider id -> klaude-code's LLMClientProtocol value.
PROTOCOLS: dict[str, str] = {
    "anthropic": "anthropic",
    "openai-chat": "openai",
    "openai-responses": "responses",
    "gemini": "google",
    "openrouter": "openrouter",
}
SESSION_ID = "harness-audit-session"
API_KEY = "harness-offline-key"
_EPOCH = datetime(2000, 1, 1)  # created_at is never sent; a fixed value keeps klaude objects reproducible


def default_model(provider: str) -> str:
    """The reference adapters' default, so both targets render the same model when params.model is None."""
    from harness.providers import default_model as reference_default

    return reference_default(provider)


def _signature_formats(parts: Sequence[canon.AnyPart]) -> dict[int, str]:
    """Thinking-text index -> format of the signature that pairs with it (nearest preceding unpaired text)."""
    formats: dict[int, str] = {}
    unpaired: list[int] = []
    for index, part in enumerate(parts):
        if isinstance(part, canon.ThinkingTextPart):
            unpaired.append(index)
        elif isinstance(part, canon.ThinkingSignaturePart) and unpaired:
            text_index = unpaired.pop()
            if part.format:
                formats[text_index] = part.format
    return formats


def _part(part: canon.AnyPart, paired_format: str | None) -> Any:
    if isinstance(part, canon.TextPart):
        return message.TextPart(text=part.text)
    if isinstance(part, canon.ImageURLPart):
        return message.ImageURLPart(url=part.url, id=part.id)
    if isinstance(part, canon.ImageFilePart):
        return message.ImageFilePart(
            file_path=part.file_path, mime_type=part.mime_type, byte_size=part.byte_size, sha256=part.sha256
        )
    if isinstance(part, canon.ThinkingTextPart):
        return message.ThinkingTextPart(
            id=part.id, text=part.text, model_id=part.model_id, format=paired_format
        )
    if isinstance(part, canon.ThinkingSignaturePart):
        return message.ThinkingSignaturePart(
            id=part.id, signature=part.signature, model_id=part.model_id, format=part.format
        )
    return message.ToolCallPart(
        call_id=part.call_id, id=part.item_id, tool_name=part.tool_name, arguments_json=part.arguments_json
    )


def _parts(parts: Sequence[canon.AnyPart]) -> list[Any]:
    formats = _signature_formats(parts)
    return [_part(p, formats.get(i)) for i, p in enumerate(parts)]


def _common(
    event: canon.SystemMessage
    | canon.DeveloperMessage
    | canon.UserMessage
    | canon.AssistantMessage
    | canon.ToolResultMessage,
) -> dict[str, Any]:
    return {"id": event.id, "response_id": event.response_id, "created_at": event.created_at or _EPOCH}


def _event(event: canon.HistoryEvent) -> Any | None:
    if isinstance(event, canon.SystemMessage):
        return message.SystemMessage(parts=_parts(event.parts), **_common(event))
    if isinstance(event, canon.DeveloperMessage):
        return message.DeveloperMessage(parts=_parts(event.parts), **_common(event))
    if isinstance(event, canon.UserMessage):
        return message.UserMessage(parts=_parts(event.parts), **_common(event))
    if isinstance(event, canon.AssistantMessage):
        return message.AssistantMessage(
            parts=_parts(event.parts), stop_reason=event.stop_reason, **_common(event)
        )
    if isinstance(event, canon.ToolResultMessage):
        return message.ToolResultMessage(
            call_id=event.call_id,
            tool_name=event.tool_name,
            status=event.status,
            output_text=event.output_text,
            parts=_parts(event.parts),
            **_common(event),
        )
    if isinstance(event, canon.ErrorEvent):
        return message.StreamErrorItem(error=event.error_message, created_at=event.created_at or _EPOCH)
    return None  # task_metadata: a sidecar klaude-code filters out before any call


def klaude_history(history: Sequence[canon.HistoryEvent]) -> list[Any]:
    """The canonical history as klaude-code's persisted HistoryEvent list."""
    return [converted for event in history if (converted := _event(event)) is not None]


def llm_input(history: Sequence[canon.HistoryEvent], work_dir: Path) -> list[Any]:
    """What klaude's agent step sends: ``Session.get_llm_history()`` filtered by ``LLM_INPUT_MESSAGE_TYPES``."""
    session = Session(
        id=SESSION_ID, work_dir=work_dir, conversation_history=klaude_history(history), prompt_cache_key=None
    )
    return [item for item in session.get_llm_history() if isinstance(item, LLM_INPUT_MESSAGE_TYPES)]


def _thinking(provider: str, thinking: ThinkingParams | None) -> Any | None:
    if thinking is None:
        return None
    if not thinking.enabled:
        return llm_param.Thinking(type="disabled")
    summary = "auto" if thinking.include_thoughts else None
    if provider in ("openai-chat", "openai-responses"):
        # OpenAI reasoning is configured by effort alone; type "enabled" would make klaude's
        # openai_compatible client add a GLM/Kimi-style `thinking` body key.
        return llm_param.Thinking(reasoning_effort=thinking.effort, reasoning_summary=summary)
    return llm_param.Thinking(
        type="enabled",
        budget_tokens=thinking.budget_tokens,
        reasoning_effort=thinking.effort,
        reasoning_summary=summary,
    )


def _tools(params: CallParams) -> list[Any] | None:
    if params.tools is None:
        return None
    return [
        llm_param.ToolSchema(name=t.name, type="function", description=t.description, parameters=t.parameters)
        for t in params.tools
    ]


def model_id(provider: str, params: CallParams) -> str:
    return params.model or default_model(provider)


def call_parameter(provider: str, inputs: list[Any], params: CallParams) -> Any:
    """klaude's LLMCallParameter as agent/step.py builds it (input, system, tools, session id, cache key)."""
    return llm_param.LLMCallParameter(
        input=inputs,
        system=params.system,
        tools=_tools(params),
        session_id=SESSION_ID,
        prompt_cache_key=SESSION_ID,  # what Session.model_post_init derives from the session id
        model_id=model_id(provider, params),
        max_tokens=params.max_tokens,
        temperature=params.temperature,
        thinking=_thinking(provider, params.thinking),
    )


def config(provider: str, model: str) -> Any:
    """A provider config with the SDK's default base URL and a dummy key (never used: no network)."""
    return llm_param.LLMConfigParameter(
        protocol=llm_param.LLMClientProtocol(PROTOCOLS[provider]), api_key=API_KEY, model_id=model
    )
