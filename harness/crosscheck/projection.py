"""Project both results onto one comparable shape: parts in order, stop reason, usage, ids.

Signatures are compared as decoded bytes (standard and URL-safe base64 agree), tool-call
arguments as JSON; each SDK's own types are read by its own projection.
"""

from __future__ import annotations

import base64
import binascii
import json
from typing import TYPE_CHECKING, Any, cast

from harness.contract.server_items import (
    ANTHROPIC_SERVER_CALLS,
    RESPONSES_SERVER_ITEMS,
    anthropic_result,
    is_anthropic_result,
    responses_item,
)
from harness.contract.sources import anthropic_citation, gemini_grounding, responses_annotation
from harness.model import (
    FilePart,
    ServerToolCallPart,
    ServerToolResultPart,
    SourcePart,
    TextPart,
    ThinkingSignaturePart,
    ThinkingTextPart,
    ToolCallPart,
    Usage,
)
from harness.stream.base import CallResult

if TYPE_CHECKING:  # the SDKs (and their httpx2) are the optional `oracles` extra: imported on use
    from anthropic.types import Message
    from google.genai.types import GenerateContentResponse
    from openai.types.chat import ChatCompletion
    from openai.types.responses import Response


from harness.contract.providers import PROVIDERS, provider_entry, wire_of
from harness.crosscheck.accumulate import SdkResult

Shape = dict[str, Any]
"""A result projected for comparison (``project_ours``/``project_sdk``)."""
Part = tuple[Any, ...]


def decode_signature(signature: str | bytes) -> bytes | str:
    """Signature bytes, from standard or URL-safe base64; the string itself when it is neither."""
    if isinstance(signature, bytes):
        return signature
    text = signature.strip().replace("-", "+").replace("_", "/")
    try:
        return base64.b64decode(text + "=" * (-len(text) % 4), validate=True)
    except (binascii.Error, ValueError):
        return signature


def _args(arguments: str) -> Any:
    """Tool arguments as JSON, compared by value; unparseable ones as a tagged string."""
    try:
        return json.loads(arguments)
    except json.JSONDecodeError:
        return ("<not JSON>", arguments)


def _usage(
    input_tokens: int,
    output_tokens: int,
    *,
    cached: int | None = None,
    created: int | None = None,
    reasoning: int | None = None,
    total: int | None = None,
) -> dict[str, int | None]:
    return Usage(
        input_tokens=input_tokens,
        output_tokens=output_tokens,
        cached_input_tokens=cached,
        cache_creation_input_tokens=created,
        reasoning_tokens=reasoning,
        total_tokens=total,
    ).model_dump()


def _finish_shape(
    parts: list[Part], stop: str, usage: dict[str, Any], response_id: str | None, model: str | None
) -> Shape:
    """The canonical rules both sides share: a turn that ends in tool calls is ``tool_use``."""
    if stop == "stop" and any(p[0] == "tool_call" for p in parts):
        stop = "tool_use"
    reasoning = any(p[0] in ("thinking", "signature") for p in parts)
    return {
        "parts": parts,
        "stop_reason": stop,
        "usage": usage,
        "response_id": response_id,
        "model_ids": [model] if reasoning and model else [],
        "errors": [],
    }


def _raw(provider: str, raw: Any) -> Any:
    """A provider block as compared: whole for the SDKs that keep every field of it (Anthropic,
    Responses); Gemini's SDK renames and retypes its fields, so there only the kind is compared."""
    if provider == "gemini":
        return None
    return json.loads(json.dumps(raw, sort_keys=True)) if raw is not None else None


def _dump(model: Any) -> Any:
    """An SDK object as the JSON it was read from (fields it was given, API names)."""
    return json.loads(json.dumps(model.to_dict(mode="json"), sort_keys=True))


def project_ours(result: CallResult) -> Shape:
    """Our final message on the comparable shape."""
    message = result.message
    parts: list[Part] = []
    for part in message.parts:
        if isinstance(part, TextPart):
            parts.append(("text", part.text))
        elif isinstance(part, ThinkingTextPart):
            parts.append(("thinking", part.id, part.text))
        elif isinstance(part, ThinkingSignaturePart):
            parts.append(("signature", part.id, part.format, decode_signature(part.signature)))
        elif isinstance(part, ToolCallPart):
            parts.append(
                ("tool_call", part.call_id, part.tool_name, _args(part.arguments_json), part.item_id)
            )
        elif isinstance(part, ServerToolCallPart):
            parts.append(("server_tool_call", part.call_id, part.tool_name, _raw(part.provider, part.raw)))
        elif isinstance(part, ServerToolResultPart):
            parts.append(("server_tool_result", part.call_id, part.status, _raw(part.provider, part.raw)))
        elif isinstance(part, SourcePart):
            parts.append(("source", part.url, part.title, _raw(part.provider or "", part.raw)))
        elif isinstance(part, FilePart):
            parts.append(("file", part.media_type, part.data))
        else:
            parts.append(("other", part.type))
    models = {
        p.model_id
        for p in message.parts
        if isinstance(p, ThinkingTextPart | ThinkingSignaturePart) and p.model_id
    }
    return {
        "parts": parts,
        "stop_reason": message.stop_reason,
        "usage": (message.usage or Usage()).model_dump(),
        "response_id": message.response_id,
        "model_ids": sorted(models),
        "errors": [e.error_message for e in result.errors],
    }


def project_sdk(provider: str, sdk_result: SdkResult) -> Shape:
    """The SDK's final object on the comparable shape, read with the canonical field rules.

    Provider stop reasons with no canonical counterpart (refusal, content_filter, SAFETY,
    an incomplete response) are kept as the provider's word: mapping them to ``error``
    is our deliberate choice (``safety-stop-is-error``).
    """
    wire = wire_of(provider) if provider in PROVIDERS else None
    if wire == "openai-chat":  # OpenRouter's signed reasoning rides in ``reasoning_details``
        signed = bool(provider_entry(provider).signature_formats)
        return _project_chat(cast("ChatCompletion", sdk_result), signed)
    if wire == "openai-responses":
        return _project_responses(cast("Response", sdk_result))
    if wire == "anthropic":
        return _project_anthropic(cast("Message", sdk_result))
    if wire == "gemini":
        return _project_gemini(cast("list[GenerateContentResponse]", sdk_result))
    raise ValueError(f"unknown provider {provider!r} (expected one of: {', '.join(PROVIDERS)})")


_ANTHROPIC_STOP = {
    "end_turn": "stop",
    "stop_sequence": "stop",
    "pause_turn": "stop",
    "max_tokens": "length",
    "model_context_window_exceeded": "length",
    "tool_use": "tool_use",
}


def _project_anthropic(message: Message) -> Shape:
    parts: list[Part] = []
    names: dict[str, str] = {}
    for block in message.content:
        if block.type == "text":
            if block.text:
                parts.append(("text", block.text))
        elif block.type == "thinking":
            parts.append(("thinking", None, block.thinking))
            if block.signature:
                parts.append(("signature", None, "anthropic", decode_signature(block.signature)))
        elif block.type == "redacted_thinking":
            parts.append(("signature", None, "anthropic-redacted", decode_signature(block.data)))
        elif block.type == "tool_use":
            parts.append(("tool_call", block.id, block.name, block.input, None))
        elif block.type in ANTHROPIC_SERVER_CALLS:
            call: Any = block
            names[call.id] = call.name
            parts.append(("server_tool_call", call.id, call.name, _dump(block)))
        elif is_anthropic_result(block.type):
            result = anthropic_result(_dump(block), names.get(getattr(block, "tool_use_id", ""), ""))
            parts.append(("server_tool_result", result.call_id, result.status, _dump(block)))
        else:
            parts.append(("no_canonical", block.type))
        for citation in getattr(block, "citations", None) or () if block.type == "text" else ():
            source = anthropic_citation(_dump(citation))
            parts.append(("source", source.url, source.title, _dump(citation)))
    usage = message.usage
    read, created = usage.cache_read_input_tokens, usage.cache_creation_input_tokens
    details: Any = getattr(usage, "output_tokens_details", None)
    stop = str(message.stop_reason)
    return _finish_shape(
        parts,
        _ANTHROPIC_STOP.get(stop, stop),
        _usage(
            usage.input_tokens + (read or 0) + (created or 0),
            usage.output_tokens,
            cached=read,
            created=created,
            reasoning=getattr(details, "thinking_tokens", None),
        ),
        message.id,
        message.model,
    )


_CHAT_STOP = {"stop": "stop", "length": "length", "tool_calls": "tool_use", "function_call": "tool_use"}


def _project_chat(completion: ChatCompletion, reasoning_details: bool) -> Shape:
    """The SDK joins each delta field into one string: reasoning, then text, refusal, tool calls."""
    choice = next((c for c in completion.choices if c.index == 0), None)
    if choice is None:  # nothing accumulated (an error-only body): no parts, no finish
        return _finish_shape([], "<no choice 0>", _usage(0, 0), completion.id, completion.model)
    message = choice.message
    extra: dict[str, Any] = message.model_extra or {}
    details: list[dict[str, Any]] = (extra.get("reasoning_details") or []) if reasoning_details else []
    parts: list[Part] = []
    if details:
        parts += _openrouter_reasoning(details)
    else:
        reasoning = extra.get("reasoning_content") or extra.get("reasoning")
        if reasoning:
            parts.append(("thinking", None, reasoning))
    if message.content:
        parts.append(("text", message.content))
    annotations: list[Any] = list(message.annotations or []) or list(extra.get("annotations") or [])
    for annotation in annotations:  # url_citation (search models, OpenRouter's web plugin), files
        dumped = _dump(annotation) if hasattr(annotation, "to_dict") else annotation
        source = responses_annotation(dumped)
        parts.append(("source", source.url, source.title, json.loads(json.dumps(dumped, sort_keys=True))))
    parts += _executed_tools(extra.get("executed_tools"))
    if message.refusal:
        parts.append(("refusal", message.refusal))
    for call in message.tool_calls or ():
        # Mistral's non-streamed tool calls carry no ``type`` (cassettes/mistral/, tool_choice
        # required): the SDK keeps them as function calls with ``type`` unset, so they count.
        function: Any = getattr(call, "function", None)
        if getattr(call, "type", None) in ("function", None) and function is not None:
            parts.append(("tool_call", call.id, function.name, _args(function.arguments), None))
    usage = completion.usage
    shaped_usage = _usage(0, 0)
    if usage is not None:
        prompt, done = usage.prompt_tokens_details, usage.completion_tokens_details
        usage_extra: dict[str, Any] = usage.model_extra or {}
        cached = prompt.cached_tokens if prompt else None
        shaped_usage = _usage(
            usage.prompt_tokens,
            usage.completion_tokens,
            cached=cached if cached is not None else usage_extra.get("prompt_cache_hit_tokens"),
            created=getattr(prompt, "cache_write_tokens", None),
            reasoning=done.reasoning_tokens if done else None,
            total=usage.total_tokens,
        )
    stop = str(choice.finish_reason)
    return _finish_shape(parts, _CHAT_STOP.get(stop, stop), shaped_usage, completion.id, completion.model)


def _executed_tools(entries: Any) -> list[Part]:
    """Groq's ``executed_tools`` as the SDK's generic merge left them (one entry per ``index``): the
    call (its entry), its result once it has an ``output``, and the search results it found."""
    parts: list[Part] = []
    for position, entry in enumerate(cast(list[Any], entries or [])):
        if not isinstance(entry, dict):
            continue
        found = cast(dict[str, Any], entry)
        call_id = f"executed_tools[{found.get('index', position)}]"
        parts.append(("server_tool_call", call_id, str(found.get("type") or "tool"), _raw("", found)))
        if found.get("output") is not None:
            parts.append(("server_tool_result", call_id, "success", None))
            results: Any = cast(dict[str, Any], found.get("search_results") or {}).get("results") or []
            for result in cast(list[Any], results):
                if isinstance(result, dict):
                    hit = cast(dict[str, Any], result)
                    parts.append(("source", hit.get("url"), hit.get("title"), _raw("", hit)))
    return parts


def _openrouter_reasoning(details: list[dict[str, Any]]) -> list[Part]:
    """``reasoning_details`` as the SDK's generic merge left them (one entry per index)."""
    parts: list[Part] = []
    for detail in details:
        kind, fmt, item_id = detail.get("type"), detail.get("format") or "unknown", detail.get("id")
        if kind == "reasoning.text":
            parts.append(("thinking", item_id, detail.get("text") or ""))
            if detail.get("signature"):
                parts.append(("signature", item_id, fmt, decode_signature(detail["signature"])))
        elif kind == "reasoning.summary":
            parts.append(("thinking", item_id, detail.get("summary") or ""))
        elif kind == "reasoning.encrypted" and detail.get("data"):
            parts.append(("signature", item_id, fmt, decode_signature(detail["data"])))
        else:
            parts.append(("no_canonical", kind))
    return parts


def _project_responses(response: Response) -> Shape:
    parts: list[Part] = []
    names: dict[str, str] = {}
    for item in response.output:
        if item.type == "reasoning":
            parts += [("thinking", item.id, s.text) for s in item.summary if s.text]
            parts += [("thinking", item.id, c.text) for c in item.content or () if c.text]
            if item.encrypted_content:
                parts.append(
                    ("signature", item.id, "openai-responses", decode_signature(item.encrypted_content))
                )
        elif item.type == "message":
            for content in item.content:
                if content.type == "output_text":
                    if content.text:
                        parts.append(("text", content.text))
                    for annotation in content.annotations or ():
                        source = responses_annotation(_dump(annotation))
                        parts.append(("source", source.url, source.title, _dump(annotation)))
                elif content.refusal:
                    parts.append(("refusal", content.refusal))
        elif item.type == "function_call":
            parts.append(("tool_call", item.call_id, item.name, _args(item.arguments), item.id))
        elif item.type in RESPONSES_SERVER_ITEMS:
            for part in responses_item(_dump(item), names):
                if isinstance(part, ServerToolCallPart):
                    parts.append(("server_tool_call", part.call_id, part.tool_name, _dump(item)))
                elif isinstance(part, ServerToolResultPart):
                    raw = _dump(item) if part.raw is not None else None
                    parts.append(("server_tool_result", part.call_id, part.status, raw))
        else:
            parts.append(("no_canonical", item.type))
    stop = str(response.status)
    if stop == "completed":
        stop = "stop"
    elif stop == "incomplete":
        reason = response.incomplete_details.reason if response.incomplete_details else None
        stop = "length" if reason == "max_output_tokens" else f"incomplete:{reason}"
    usage = response.usage
    shaped_usage = _usage(0, 0)
    if usage is not None:
        shaped_usage = _usage(
            usage.input_tokens,
            usage.output_tokens,
            cached=usage.input_tokens_details.cached_tokens,
            created=getattr(usage.input_tokens_details, "cache_write_tokens", None),
            reasoning=usage.output_tokens_details.reasoning_tokens,
            total=usage.total_tokens,
        )
    return _finish_shape(parts, stop, shaped_usage, response.id, response.model)


_GEMINI_STOP = {"STOP": "stop", "MAX_TOKENS": "length"}
_GEMINI_PART_FIELDS = frozenset({"text", "thought", "thought_signature", "function_call"})


def _project_gemini(chunks: list[GenerateContentResponse]) -> Shape:
    """Every chunk's parts in arrival order, unmerged; a signature right after its own part."""
    parts: list[Part] = []
    usage, finish, response_id, model = None, None, None, None
    blocked: str | None = None
    grounding: list[Part] = []
    for chunk in chunks:
        usage = chunk.usage_metadata or usage
        response_id = chunk.response_id or response_id
        model = chunk.model_version or model
        if chunk.prompt_feedback and chunk.prompt_feedback.block_reason:
            blocked = chunk.prompt_feedback.block_reason.value
        for candidate in chunk.candidates or ():
            if candidate.index not in (None, 0):
                continue
            finish = candidate.finish_reason or finish
            for part in candidate.content.parts or () if candidate.content else ():
                call = part.function_call
                server = _gemini_server(part)
                if server is not None:
                    parts.append(server)
                elif call is not None:
                    parts.append(("tool_call", call.id, call.name, call.args or {}, None))
                elif part.text and part.thought:
                    parts.append(("thinking", None, part.text))
                elif part.text:
                    parts.append(("text", part.text))
                elif part.inline_data is not None and part.inline_data.data is not None:
                    data = base64.b64encode(part.inline_data.data).decode("ascii")
                    parts.append(("file", part.inline_data.mime_type, data))
                elif part.text is None:
                    kinds = sorted(part.model_dump(exclude_none=True).keys() - _GEMINI_PART_FIELDS)
                    if kinds:
                        parts.append(("no_canonical", ",".join(kinds)))
                if part.thought_signature:
                    parts.append(("signature", None, "google", part.thought_signature))
        for candidate in chunk.candidates or ():  # grounding: the answer's sources, after it
            if candidate.index in (None, 0):
                grounding += _gemini_sources(candidate)
    parts += grounding
    stop = "stop"
    if blocked:
        stop = f"blocked:{blocked}"
    elif finish is not None:
        stop = _GEMINI_STOP.get(finish.value, finish.value)
    shaped_usage = _usage(0, 0)
    if usage is not None:
        thoughts = usage.thoughts_token_count
        shaped_usage = _usage(
            (usage.prompt_token_count or 0) + (usage.tool_use_prompt_token_count or 0),
            (usage.candidates_token_count or 0) + (thoughts or 0),
            cached=usage.cached_content_token_count,
            reasoning=thoughts,
            total=usage.total_token_count,
        )
    return _finish_shape(parts, stop, shaped_usage, response_id, model)


def _gemini_server(part: Any) -> Part | None:
    """A server-side invocation part (code execution, a server tool's call or response) by kind."""
    for key, kind in (
        ("executable_code", "server_tool_call"),
        ("tool_call", "server_tool_call"),
        ("code_execution_result", "server_tool_result"),
        ("tool_response", "server_tool_result"),
    ):
        value = getattr(part, key, None)
        if value is not None:
            call_id = getattr(value, "id", None) or ""
            if kind == "server_tool_call":
                tool = getattr(value, "tool_type", None)
                name = str(getattr(tool, "value", tool) or "code_execution").lower()
                return (kind, call_id, name, None)
            outcome = getattr(value, "outcome", None)
            failed = outcome is not None and str(getattr(outcome, "value", outcome)) != "OUTCOME_OK"
            return (kind, call_id, "error" if failed else "success", None)
    return None


def _gemini_sources(candidate: Any) -> list[Part]:
    """A candidate's grounding and URL-context metadata as sources, as our parser reads them."""
    out: list[Part] = []
    for field in ("grounding_metadata", "url_context_metadata"):
        metadata = getattr(candidate, field, None)
        if metadata is not None:
            dumped = metadata.model_dump(mode="json", by_alias=True, exclude_none=True)
            out += [("source", s.url, s.title, None) for s in gemini_grounding(dumped)]
    return out
