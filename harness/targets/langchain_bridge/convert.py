"""Canonical history -> LangChain ``BaseMessage``s, each assistant message as its producing integration holds it.

Every choice is listed in ``harness.targets.langchain``'s docstring; this module only converts.
The provider shapes come from ``harness.kit.shapes``; this maps LangChain's wrappers once.
"""

# pyright: reportMissingImports=false, reportUnknownMemberType=false, reportUnknownVariableType=false
# pyright: reportUnknownArgumentType=false, reportAttributeAccessIssue=false, reportUnknownParameterType=false

from __future__ import annotations

import base64
import json
from collections.abc import Sequence
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage

from harness import model as canon
from harness.contract.rendered import RenderWarning
from harness.kit import shapes
from harness.params import CallParams

__all__ = ["GEMINI_CALL_SIGNATURES", "ORIGIN_PROVIDERS", "messages", "origin"]

#: The LangChain ``model_provider`` name each integration writes into ``response_metadata``.
ORIGIN_PROVIDERS = {
    "anthropic": "anthropic",
    "openai-chat": "openai",
    "openai-responses": "openai",
    "gemini": "google_genai",
    "bedrock": "bedrock_converse",
    "groq": "groq",
    "mistral": "mistralai",
    "deepseek": "deepseek",
}
#: Signature format -> the provider whose integration produced (and sends back) it.
_SIGNED = {
    "anthropic": "anthropic",
    "anthropic-redacted": "anthropic",
    "google": "gemini",
    "openai-responses": "openai-responses",
    "bedrock": "bedrock",
    "bedrock-redacted": "bedrock",
}
#: Model id prefix -> provider, for unsigned thinking that names its model.
_MODEL_FAMILIES = (("claude", "anthropic"), ("gemini", "gemini"), ("deepseek", "deepseek"))


def origin(message: canon.AssistantMessage, provider: str) -> str:
    """The provider whose LangChain integration produced ``message``: its signature's format (a format
    no integration here produces, OpenRouter's ``*-v1``, is ChatOpenAI on OpenRouter's Chat endpoint),
    else Responses item ids, else the model its unsigned thinking names, else the provider rendered for."""
    for part in message.parts:
        if isinstance(part, canon.ThinkingSignaturePart) and part.format in _SIGNED:
            return _SIGNED[part.format]
        if isinstance(part, canon.ThinkingSignaturePart) and part.format:
            return "openai-chat"  # OpenRouter's formats: ChatOpenAI on its Chat endpoint, which keeps no reasoning
    for part in message.parts:
        if isinstance(part, canon.TextPart | canon.ToolCallPart) and part.item_id:
            return "openai-responses"
        if isinstance(part, canon.ThinkingTextPart) and (part.id or "").startswith("rs_"):
            return "openai-responses"
    for part in message.parts:
        if isinstance(part, canon.ThinkingTextPart) and part.model_id:
            for prefix, family in _MODEL_FAMILIES:
                if part.model_id.startswith(prefix):
                    return family
    return provider if provider in ORIGIN_PROVIDERS else "openai-chat"


def _block(part: canon.AnyPart) -> dict[str, Any]:
    """A user-side part as a LangChain standard content block (text, image by URL or base64)."""
    if isinstance(part, canon.TextPart):
        return {"type": "text", "text": part.text}
    if isinstance(part, canon.ImageURLPart | canon.ImageFilePart):
        url, mime, data = shapes.image_data(part)
        return (
            {"type": "image", "url": url}
            if url is not None
            else {"type": "image", "base64": data, "mime_type": mime}
        )
    raise NotImplementedError(f"langchain target: a {part.type} part in user content")


def _content(parts: Sequence[canon.AnyPart]) -> str | list[Any]:
    if len(parts) == 1 and isinstance(parts[0], canon.TextPart):
        return parts[0].text  # what a user writes: HumanMessage("...")
    return [_block(p) for p in parts]


def _tool_calls(parts: Sequence[canon.AnyPart]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """``AIMessage.tool_calls`` (arguments parsed, as LangChain holds them) and ``invalid_tool_calls``."""
    calls: list[dict[str, Any]] = []
    invalid: list[dict[str, Any]] = []
    for part in parts:
        if isinstance(part, canon.ToolCallPart):
            try:
                args = json.loads(part.arguments_json or "{}")
            except json.JSONDecodeError as exc:
                args, error = None, str(exc)
            else:
                error = None if isinstance(args, dict) else "arguments are not a JSON object"
            if error is None:
                calls.append({"type": "tool_call", "id": part.call_id, "name": part.tool_name, "args": args})
            else:
                invalid.append(
                    {"type": "invalid_tool_call", "id": part.call_id, "name": part.tool_name,
                     "args": part.arguments_json, "error": error}
                )  # fmt: skip
    return calls, invalid


def _held_nowhere(message: canon.AssistantMessage, index: int, keeps: Any, shape: str) -> list[RenderWarning]:
    """The bridge's own warning for each part the producing integration's message has no place for."""
    return [
        RenderWarning(
            index,
            pidx,
            part.type,
            "unmappable-part",
            f"a LangChain AIMessage of {shape} holds no {part.type}",
        )
        for pidx, part in enumerate(message.parts)
        if not keeps(part)
    ]


def _chat_keeps(part: canon.AnyPart) -> bool:
    return isinstance(part, canon.TextPart | canon.ToolCallPart)


def _reasoning_chat_keeps(part: canon.AnyPart) -> bool:
    """ChatDeepSeek and ChatGroq keep the reasoning text (``reasoning_content``), never a signature."""
    return isinstance(part, canon.TextPart | canon.ToolCallPart | canon.ThinkingTextPart)


def _bedrock_keeps(part: canon.AnyPart) -> bool:
    if isinstance(part, canon.ThinkingSignaturePart):
        return part.format in ("bedrock", "bedrock-redacted")
    return isinstance(part, canon.TextPart | canon.ToolCallPart | canon.ThinkingTextPart)


def _ai(message: canon.AssistantMessage, index: int, provider: str) -> tuple[AIMessage, list[RenderWarning]]:
    source = origin(message, provider)
    metadata: dict[str, Any] = {"model_provider": ORIGIN_PROVIDERS[source]}
    if message.response_id:
        metadata["id"] = message.response_id
    calls, invalid = _tool_calls(message.parts)
    extra: dict[str, Any] = {}
    content: str | list[Any]
    warnings: list[RenderWarning]
    if source == "anthropic":
        blocks, warnings = shapes.anthropic_content(message, index)
        text_only = len(blocks) == 1 and blocks[0]["type"] == "text"
        content = blocks[0]["text"] if text_only else blocks
    elif source == "openai-responses":
        items, warnings = shapes.responses_items(message, index)
        content = [_responses_block(item) for item in items]
    elif source == "gemini":
        content, extra, warnings = _gemini(message, index)
    elif source == "bedrock":
        content = _bedrock(message)
        warnings = _held_nowhere(message, index, _bedrock_keeps, "langchain-aws")
    else:  # Chat Completions shapes: openai-chat, groq, mistral, deepseek
        reasons = source in ("deepseek", "groq")  # ChatOpenAI and ChatMistralAI keep no reasoning text
        keeps = _reasoning_chat_keeps if reasons else _chat_keeps
        warnings = _held_nowhere(message, index, keeps, "a Chat Completions integration")
        content = "".join(p.text for p in message.parts if isinstance(p, canon.TextPart))
        reasoning = "".join(p.text for p in message.parts if isinstance(p, canon.ThinkingTextPart))
        if reasoning and reasons:
            extra["reasoning_content"] = reasoning  # where ChatDeepSeek and ChatGroq keep it
    message_out = AIMessage(
        content=content,
        tool_calls=calls,
        invalid_tool_calls=invalid,
        additional_kwargs=extra,
        response_metadata=metadata,
    )
    return message_out, [_bridge(w) for w in warnings]


def _bridge(warning: RenderWarning) -> RenderWarning:
    """A part the bridge could not put into the message LangChain would hold: said as the bridge's own."""
    return RenderWarning(
        warning.message_index,
        warning.part_index,
        warning.part_type,
        f"bridge-{warning.code}",
        f"the langchain bridge: {warning.reason} (no LangChain user holds it there)",
    )


def _responses_block(item: dict[str, Any]) -> dict[str, Any]:
    """A Responses output item as langchain-openai's ``responses/v1`` content holds it (text flattened)."""
    if item["type"] != "message":
        return item
    (text,) = item["content"]
    return {"type": "text", "text": text["text"], "annotations": []} | (
        {"id": item["id"]} if "id" in item else {}
    )


#: langchain-google-genai's key for Gemini function-call thought signatures (by tool call id).
GEMINI_CALL_SIGNATURES = "__gemini_function_call_thought_signatures__"


def _gemini(
    message: canon.AssistantMessage, index: int
) -> tuple[str | list[Any], dict[str, Any], list[RenderWarning]]:
    """langchain-google-genai's own shape (``_parse_response_candidate``): thinking blocks with their
    signature, text as a string unless a signature or a thinking block needs blocks, call signatures by id."""
    parts, warnings = shapes.gemini_parts(message, index)
    blocks: list[Any] = []
    signatures: dict[str, str] = {}
    for part in parts:
        signature = part.get("thought_signature")
        if "function_call" in part:
            if signature:
                signatures[part["function_call"]["id"]] = signature
        elif part.get("thought"):
            blocks.append(
                {"type": "thinking", "thinking": part["text"]}
                | ({"signature": signature} if signature else {})
            )
        elif "text" in part:
            blocks.append(
                {"type": "text", "text": part["text"]}
                | ({"extras": {"signature": signature}} if signature else {})
            )
        else:
            url = part.get("inline_data") or part.get("file_data") or {}
            blocks.append({"type": "image", "base64": url.get("data"), "mime_type": url.get("mime_type")})
    extra = {GEMINI_CALL_SIGNATURES: signatures} if signatures else {}
    if all(b["type"] == "text" and "extras" not in b for b in blocks):
        return "".join(b["text"] for b in blocks), extra, warnings
    return blocks, extra, warnings


def _bedrock(message: canon.AssistantMessage) -> list[Any]:
    """langchain-aws's ``_bedrock_to_lc`` shape: text, ``reasoning_content`` (text and signature, or
    redacted bytes), ``tool_use``."""
    out: list[Any] = []
    parts = message.parts
    for pidx, part in enumerate(parts):
        following = parts[pidx + 1] if pidx + 1 < len(parts) else None
        if isinstance(part, canon.TextPart):
            out.append({"type": "text", "text": part.text})
        elif isinstance(part, canon.ThinkingTextPart):
            reasoning: dict[str, Any] = {"text": part.text}
            if isinstance(following, canon.ThinkingSignaturePart) and following.format == "bedrock":
                reasoning["signature"] = following.signature
            out.append({"type": "reasoning_content", "reasoning_content": reasoning})
        elif isinstance(part, canon.ThinkingSignaturePart) and part.format == "bedrock-redacted":
            # as langchain-aws's own output holds it (_bedrock_to_lc): the blob's bytes, snake_case key
            redacted = base64.b64decode(part.signature)
            out.append({"type": "reasoning_content", "reasoning_content": {"redacted_content": redacted}})
        elif isinstance(part, canon.ToolCallPart):
            try:
                arguments = json.loads(part.arguments_json)
            except json.JSONDecodeError:
                arguments = {}
            out.append({"type": "tool_use", "id": part.call_id, "name": part.tool_name, "input": arguments})
    return out


def messages(
    history: Sequence[canon.HistoryEvent], params: CallParams, provider: str
) -> tuple[list[BaseMessage], list[RenderWarning]]:
    """The history as a LangChain user's list of messages (see the target's docstring for each choice),
    and a warning for each part no message a LangChain user holds has a place for (the bridge's own)."""
    out: list[BaseMessage] = [SystemMessage(params.system)] if params.system else []
    warnings: list[RenderWarning] = []
    for index, event in enumerate(history):
        if isinstance(event, canon.SystemMessage):
            out.append(SystemMessage("\n".join(p.text for p in event.parts)))
        elif isinstance(event, canon.DeveloperMessage):  # as convert_to_messages reads {"role": "developer"}
            out.append(
                SystemMessage(_content(event.parts), additional_kwargs={"__openai_role__": "developer"})
            )
        elif isinstance(event, canon.UserMessage):
            out.append(HumanMessage(_content(event.parts)))
        elif isinstance(event, canon.AssistantMessage):
            message, dropped = _ai(event, index, provider)
            out.append(message)
            warnings += dropped
        elif isinstance(event, canon.ToolResultMessage):
            content: str | list[Any] = event.output_text
            if event.parts:
                content = [{"type": "text", "text": event.output_text}, *(_block(p) for p in event.parts)]
            status = "success" if event.status == "success" else "error"
            out.append(ToolMessage(content, tool_call_id=event.call_id, name=event.tool_name, status=status))
            if event.output_json is not None:  # a LangChain user keeps it as the artifact, never sent
                warnings.append(
                    RenderWarning(
                        index,
                        None,
                        "tool",
                        "bridge-tool-json-not-sent",
                        "the langchain bridge: a ToolMessage sends its content (the result's text); the "
                        "structured value would be its artifact, which no integration sends",
                    )
                )
        # error and task_metadata events are sidecars, never sent
    return out, warnings
