"""Canonical history and call params -> pydantic-ai ``ModelMessage``s, settings and request parameters.

Every choice is listed in ``harness.targets.pydantic_ai``'s docstring; this module only converts.
"""

# pyright: reportMissingImports=false, reportUnknownMemberType=false, reportUnknownVariableType=false
# pyright: reportUnknownArgumentType=false, reportAttributeAccessIssue=false, reportUnknownParameterType=false

from __future__ import annotations

import base64
import binascii
import mimetypes
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pydantic_ai import messages as pm
from pydantic_ai.models import ModelRequestParameters
from pydantic_ai.tools import ToolDefinition

from harness import model as canon
from harness.params import CallParams

__all__ = [
    "PROVIDER_NAMES",
    "REDACTED_IDS",
    "bedrock_redacted",
    "model_messages",
    "request_parameters",
    "settings",
]

#: Signature format -> the pydantic-ai ``provider_name`` whose model sends it back.
PROVIDER_NAMES: dict[str, str] = {
    "anthropic": "anthropic",
    "anthropic-redacted": "anthropic",
    "openai-responses": "openai",
    "google": "google",
    "bedrock": "bedrock",
    "bedrock-redacted": "bedrock",
}
#: Signature formats of redacted thinking -> the ``ThinkingPart.id`` pydantic-ai gives it
#: (``_thinking_part.py`` REDACTED_THINKING_PART_IDS; ``models/bedrock.py`` ``_map_reasoning_block``
#: uses ``redacted_content``).
REDACTED_IDS = {"anthropic-redacted": "redacted_thinking", "bedrock-redacted": "redacted_content"}
#: Providers whose pydantic-ai model has no ``max_retries`` setting (it warns and ignores it,
#: ``models/__init__.py`` ``_warn_unsupported_settings``): the offline clients never retry anyway
#: (Bedrock's is built with ``total_max_attempts=1``; huggingface_hub's client does not retry).
NO_RETRY_SETTING = frozenset({"bedrock", "huggingface"})
_OPENROUTER_PAIRED = "anthropic-claude-v1"  # OpenRouter's only format whose signature rides on its text


def _content(part: canon.AnyPart) -> Any:
    if isinstance(part, canon.TextPart):
        return part.text
    if isinstance(part, canon.ImageURLPart):
        if part.url.startswith("data:"):
            return pm.BinaryContent.from_data_uri(part.url)
        return pm.ImageUrl(url=part.url)
    if isinstance(part, canon.ImageFilePart):
        path = Path(part.file_path)
        if not path.is_file():  # pydantic-ai takes image bytes, never a path: nothing to hand it
            raise NotImplementedError(f"pydantic-ai target: image file {part.file_path} is not readable here")
        mime = part.mime_type or mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        return pm.BinaryContent(data=path.read_bytes(), media_type=mime)
    raise NotImplementedError(f"pydantic-ai target: a {part.type} part in user content")


def _developer_text(part: canon.AnyPart) -> canon.AnyPart:
    return part.model_copy(update={"text": part.text + "\n"}) if isinstance(part, canon.TextPart) else part


def _origin(message: canon.AssistantMessage) -> str | None:
    """The pydantic-ai ``provider_name`` the message's own evidence names, else None.

    A native signature format names its provider; Responses item ids (``item_id``, ``rs_``
    thinking ids) name ``openai``. pydantic-ai sends ids and reasoning back only to the
    provider that produced them, which it knows from this name.
    """
    for part in message.parts:
        if isinstance(part, canon.ThinkingSignaturePart) and part.format:
            return PROVIDER_NAMES.get(part.format, "openrouter")
    for part in message.parts:
        if isinstance(part, canon.TextPart | canon.ToolCallPart) and part.item_id:
            return "openai"
        if isinstance(part, canon.ThinkingTextPart) and (part.id or "").startswith("rs_"):
            return "openai"
    return None


def _tool_result(message: canon.ToolResultMessage) -> pm.ToolReturnPart:
    outcome = {"success": "success", "error": "failed", "aborted": "interrupted"}[message.status]
    content: Any = message.output_text
    if message.parts:
        content = [message.output_text, *(_content(p) for p in message.parts)]
    return pm.ToolReturnPart(
        tool_name=message.tool_name, content=content, tool_call_id=message.call_id, outcome=outcome
    )


def _openrouter_thinking(
    text: str, signature: str | None, fmt: str, item_id: str | None
) -> list[pm.ThinkingPart]:
    def part(kind: str, content: str, sig: str | None) -> pm.ThinkingPart:
        details = {"format": fmt, "index": None, "type": kind}
        return pm.ThinkingPart(
            content, id=item_id, signature=sig, provider_name="openrouter", provider_details=details
        )

    if signature is None:
        return [part("reasoning.text", text, None)]
    if fmt == _OPENROUTER_PAIRED:
        return [part("reasoning.text", text, signature)]
    return ([part("reasoning.text", text, None)] if text else []) + [
        part("reasoning.encrypted", "", signature)
    ]


def _response(message: canon.AssistantMessage, provider: str) -> pm.ModelResponse:
    parts: list[Any] = []
    pending: canon.ThinkingTextPart | None = None  # thinking text waiting for its signature

    def flush() -> None:
        nonlocal pending
        if pending is not None:
            parts.append(pm.ThinkingPart(pending.text, id=pending.id))
            pending = None

    for part in message.parts:
        if isinstance(part, canon.ThinkingTextPart):
            flush()
            pending = part
        elif isinstance(part, canon.ThinkingSignaturePart):
            fmt = part.format or ""
            if fmt == "google":  # a Gemini signature belongs to the part before it
                flush()
                if parts:
                    parts[-1].provider_name = "google"
                    parts[-1].provider_details = {"thought_signature": part.signature}
                continue
            text, item_id = (pending.text, pending.id) if pending is not None else ("", part.id)
            pending = None
            if provider == "openrouter" and fmt not in PROVIDER_NAMES:
                parts.extend(_openrouter_thinking(text, part.signature, fmt, item_id))
            else:
                item_id = REDACTED_IDS.get(fmt, item_id)
                signature = bedrock_redacted(part.signature) if fmt == "bedrock-redacted" else part.signature
                parts.append(
                    pm.ThinkingPart(
                        text, id=item_id, signature=signature, provider_name=PROVIDER_NAMES.get(fmt)
                    )
                )
        else:
            flush()
            if isinstance(part, canon.TextPart):
                parts.append(pm.TextPart(part.text, id=part.item_id))
            elif isinstance(part, canon.ToolCallPart):
                parts.append(
                    pm.ToolCallPart(part.tool_name, part.arguments_json, part.call_id, id=part.item_id)
                )
            else:  # an image the model produced: pydantic-ai's FilePart holds bytes only
                content = _content(part)
                if not isinstance(content, pm.BinaryContent):
                    raise NotImplementedError("pydantic-ai target: an image URL in an assistant message")
                parts.append(pm.FilePart(content=content))
    flush()
    _sign_first_summary(parts)
    return pm.ModelResponse(
        parts=parts, provider_response_id=message.response_id, provider_name=_origin(message)
    )


def bedrock_redacted(signature: str) -> str:
    """A Bedrock ``redactedContent`` blob (canonical: the base64 text of the JSON wire) as pydantic-ai holds it.

    ``BedrockConverseModel`` keeps the blob's bytes decoded as UTF-8 text and encodes them
    back when it sends the history (``models/bedrock.py`` ``_map_reasoning_block`` and
    ``_map_thinking_part``); bytes that are not UTF-8 have no such text.
    """
    try:
        return base64.b64decode(signature, validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError) as exc:
        raise NotImplementedError(
            "pydantic-ai target: pydantic-ai holds Bedrock redacted content as UTF-8 text; this blob is not"
        ) from exc


def _sign_first_summary(parts: list[Any]) -> None:
    """pydantic-ai's shape for a Responses reasoning item with several summaries (``map_reasoning_item``).

    Each summary is a ``ThinkingPart`` with the item's id and ``provider_name="openai"``, and the
    encrypted content sits on the *first* of them; the canonical history puts the signature
    after the last text. Move it, so pydantic-ai rebuilds the item it would have recorded.
    """
    for signed in [
        p for p in parts if isinstance(p, pm.ThinkingPart) and p.signature and p.provider_name == "openai"
    ]:
        same = [p for p in parts if isinstance(p, pm.ThinkingPart) and p.id is not None and p.id == signed.id]
        for part in same:
            part.provider_name = "openai"
        if same and same[0] is not signed and same[0].signature is None:
            same[0].signature, signed.signature = signed.signature, None


def model_messages(history: Sequence[canon.HistoryEvent], params: CallParams, provider: str) -> list[Any]:
    """One ``ModelRequest`` per run of non-assistant messages, one ``ModelResponse`` per assistant message."""
    out: list[Any] = []
    request: list[Any] = [pm.SystemPromptPart(params.system)] if params.system else []

    def close_request() -> None:
        if request:
            out.append(pm.ModelRequest(parts=list(request)))
            request.clear()

    for event in history:
        if isinstance(event, canon.AssistantMessage):
            close_request()
            out.append(_response(event, provider))
        elif isinstance(event, canon.SystemMessage):
            request.append(pm.SystemPromptPart("\n".join(p.text for p in event.parts)))
        elif isinstance(event, canon.UserMessage):
            request.append(pm.UserPromptPart([_content(p) for p in event.parts]))
        elif isinstance(event, canon.DeveloperMessage):  # canonical rule: each text with a trailing newline
            request.append(pm.UserPromptPart([_content(_developer_text(p)) for p in event.parts]))
        elif isinstance(event, canon.ToolResultMessage):
            request.append(_tool_result(event))
        # error and task_metadata events are sidecars, never sent
    close_request()
    return out


def settings(provider: str, params: CallParams) -> dict[str, Any]:
    """``ModelSettings``: retries off, max_tokens, temperature, thinking (see the target's docstring)."""
    out: dict[str, Any] = {} if provider in NO_RETRY_SETTING else {"max_retries": 0}
    if params.max_tokens is not None:
        out["max_tokens"] = params.max_tokens
    if params.temperature is not None:
        out["temperature"] = params.temperature
    thinking = params.thinking
    if thinking is None:
        return out
    if not thinking.enabled:
        out["thinking"] = False
        return out
    out["thinking"] = thinking.effort or True
    if thinking.budget_tokens is not None and provider == "anthropic":
        out["anthropic_thinking"] = {"type": "enabled", "budget_tokens": thinking.budget_tokens}
    if provider == "gemini" and (thinking.budget_tokens is not None or not thinking.include_thoughts):
        config: dict[str, Any] = {"include_thoughts": thinking.include_thoughts}
        if thinking.budget_tokens is not None:
            config["thinking_budget"] = thinking.budget_tokens
        out["google_thinking_config"] = config
    if provider == "openai-responses" and thinking.include_thoughts:
        out["openai_reasoning_summary"] = "auto"
    return out


def request_parameters(params: CallParams) -> ModelRequestParameters:
    tools = [
        ToolDefinition(name=t.name, description=t.description, parameters_json_schema=dict(t.parameters))
        for t in params.tools or []
    ]
    return ModelRequestParameters(function_tools=tools, allow_text_output=True)
