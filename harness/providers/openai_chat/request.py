"""OpenAI Chat Completions input adapter (provider id ``openai-chat``).

Maps a prepared canonical history to a ``POST /v1/chat/completions`` body
(https://platform.openai.com/docs/api-reference/chat/create; OpenAPI schema
``CreateChatCompletionRequest``, SDK type ``CompletionCreateParamsStreaming``).
The OpenRouter adapter reuses these functions (its API is this one plus extensions),
so each mapping concern is a small public function.

Decisions (where DESIGN.md left room):

- ``params.model`` None -> ``DEFAULT_MODEL`` (``gpt-4.1-mini``, a current general chat model).
- System prompt: one ``system`` message first, its entries joined with a blank line. Not
  ``developer`` even for reasoning models: OpenAI maps ``system`` to ``developer`` for
  o-series/gpt-5 itself, while gateways speaking this API reject ``developer`` (field
  lesson 7); ``system`` works everywhere.
- Content rule (user, tool): a string when the message is exactly one text part, else an
  array of ``text`` / ``image_url`` parts. The rule reads only the message itself, so the
  same canonical message renders the same bytes whatever follows (I9).
- Images: http(s) URLs and base64 ``image/*`` data URLs both go as ``image_url.url``;
  anything else is dropped (``image-url-unsupported``); files on disk are never read
  (``image-file-not-inlined``).
- Assistant: text parts concatenated into one ``content`` string (a streamed reply is one
  text); ``content`` omitted when the turn is only tool calls (the spec requires content
  "unless tool_calls is specified"). ``tool_calls[].function.arguments`` is
  ``arguments_json`` verbatim. Chat has no reasoning field: every thinking part is dropped
  (``thinking-unsupported``), never re-sent as text (field lesson 1). Images cannot be
  replayed in assistant content (``assistant-image-dropped``). An assistant turn left with
  neither text nor tool calls is dropped (``empty-message``).
- Tool call ids: at most 40 characters (OpenAI rejects longer ``tool_calls[].id`` with
  ``string_above_max_length``; field lesson 6); longer ids are mapped consistently.
- Pieces of one response stored as adjacent assistant messages (``WireAssistant.continues``,
  seed 001) become one assistant message (``merge_assistant``): Chat requires the tool
  messages to follow the one message holding the ``tool_calls`` they answer.
- Tool results: ``{"role": "tool", "tool_call_id", "content"}`` with ``output_text`` as
  content. Developer text appended to a result stays INSIDE the tool message as extra
  ``text`` parts (the design says developer parts join the preceding tool message; a
  separate user message would make it a message of its own). Chat tool messages take
  text only, so the result's images and developer images go in one ``user`` message right
  after the run of tool messages (``tool-image-moved``). Chat has no error flag: the text
  is sent unchanged (it already says what happened) and a ``tool-status-not-sent``
  warning records the lost status.
- Params: ``max_completion_tokens`` (``max_tokens`` is deprecated), ``stream`` plus
  ``stream_options.include_usage`` (usage arrives only when asked for), function tools
  (``description`` only when non-empty), ``reasoning_effort`` from ``thinking.effort``
  only when thinking is enabled and the model is not a known non-reasoning model
  (``gpt-4*``, ``gpt-3.5*``, ``chatgpt-4o*``: OpenAI rejects reasoning parameters there;
  see ``accepts_reasoning``), ``temperature`` as given. Chat has no thinking budget and
  no explicit "off": ``thinking-param-ignored`` says so.

Warning codes emitted here (besides those from ``prepare()``): image-file-not-inlined,
image-url-unsupported, assistant-image-dropped, thinking-unsupported, tool-image-moved,
tool-status-not-sent, empty-message, thinking-param-ignored.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any, cast

from harness.mapping.adapter import Rendered
from harness.mapping.prepare import (
    ContentItem,
    IdPolicy,
    PartUnit,
    Prepared,
    ThinkingUnit,
    Warnings,
    WireAssistant,
    WireToolResult,
    WireUser,
    parse_data_url,
    prepare,
    warn_image_file,
)
from harness.model import HistoryEvent, ImageFilePart, ImageURLPart, TextPart, ToolCallPart
from harness.params import CallParams, ThinkingParams, ToolSpec
from harness.providers.openai_chat.profile import DEFAULT_MODEL

__all__ = [
    "ADAPTER",
    "DEFAULT_MODEL",
    "ID_POLICY",
    "PROVIDER_ID",
    "OpenAIChatAdapter",
    "ReasoningMapper",
    "accepts_reasoning",
    "base_body",
    "content_value",
    "drop_thinking",
    "function_tool",
    "image_part",
    "render_messages",
    "system_message",
]

PROVIDER_ID = "openai-chat"
# ChatCompletionMessageToolCall.id: the API enforces maxLength 40 (not in the spec).
ID_POLICY = IdPolicy(max_length=40)
# OpenAI model families without reasoning: they reject ``reasoning_effort`` / ``reasoning``
# and Responses' ``include: ["reasoning.encrypted_content"]`` ("Encrypted content is not
# supported with this model"; pydantic/pydantic-ai PR 2867, ShishirPatil/gorilla issue 1148).
# A denylist: an unknown model keeps the reasoning fields it was asked for.
_NON_REASONING_MODEL = re.compile(r"(?:openai/)?(?:gpt-4|gpt-3\.5|chatgpt-4o)")

JSON = dict[str, Any]
# Maps the native thinking units of one assistant turn to extra message fields
# (Chat: none, everything warned; OpenRouter: ``reasoning_details``).
ReasoningMapper = Callable[[WireAssistant, list[ThinkingUnit], Warnings], JSON]


class OpenAIChatAdapter:
    provider: str = PROVIDER_ID

    def render(self, history: Sequence[HistoryEvent], params: CallParams) -> Rendered:
        prepared = prepare(history, params, PROVIDER_ID, ID_POLICY)
        warnings = prepared.warnings
        body = base_body(prepared, params, params.model or DEFAULT_MODEL, drop_thinking)
        if params.stream:
            # ChatCompletionStreamOptions: the final usage chunk only comes when asked for.
            body["stream_options"] = {"include_usage": True}
        effort = reasoning_effort(params.thinking, warnings, params.model or DEFAULT_MODEL)
        if effort is not None:
            body["reasoning_effort"] = effort
        return Rendered(body, list(warnings))


ADAPTER = OpenAIChatAdapter()


# ---------------------------------------------------------------- request level


def base_body(prepared: Prepared, params: CallParams, model: str, reasoning: ReasoningMapper) -> JSON:
    """The fields Chat and OpenRouter share: model, messages, tools, limits, temperature, stream."""
    body: JSON = {"model": model, "messages": render_messages(prepared, reasoning)}
    if prepared.tools:
        body["tools"] = [function_tool(t) for t in prepared.tools]
    if params.max_tokens is not None:
        # CreateChatCompletionRequest.max_completion_tokens (max_tokens is deprecated).
        body["max_completion_tokens"] = params.max_tokens
    if params.temperature is not None:
        body["temperature"] = params.temperature
    if params.stream:
        body["stream"] = True
    return body


def function_tool(tool: ToolSpec) -> JSON:
    """ChatCompletionTool / FunctionObject (docs: guides/function-calling)."""
    function: JSON = {"name": tool.name}
    if tool.description:
        function["description"] = tool.description
    function["parameters"] = tool.parameters
    return {"type": "function", "function": function}


def accepts_reasoning(model: str) -> bool:
    """False for OpenAI model families known to have no reasoning (``gpt-4*``, ``gpt-3.5*``, ``chatgpt-4o*``)."""
    return _NON_REASONING_MODEL.match(model) is None


def reasoning_effort(thinking: ThinkingParams | None, warnings: Warnings, model: str) -> str | None:
    """CreateChatCompletionRequest.reasoning_effort (docs: guides/reasoning); Chat has no budget."""
    if thinking is None:
        return None
    if thinking.enabled and thinking.effort is not None and not accepts_reasoning(model):
        warnings.add(
            None,
            None,
            None,
            "thinking-param-ignored",
            f"model '{model}' is not a reasoning model and rejects reasoning_effort; not sent",
        )
        return None
    if not thinking.enabled:
        warnings.add(
            None,
            None,
            None,
            "thinking-param-ignored",
            "Chat Completions has no switch to turn reasoning off; reasoning_effort not sent",
        )
        return None
    if thinking.effort is None and thinking.budget_tokens is not None:
        warnings.add(
            None,
            None,
            None,
            "thinking-param-ignored",
            "Chat Completions has no reasoning token budget; budget_tokens ignored (set effort instead)",
        )
    return thinking.effort


# ---------------------------------------------------------------- messages


PLACEHOLDER_USER_TEXT = "(conversation start)"


def render_messages(prepared: Prepared, reasoning: ReasoningMapper) -> list[JSON]:
    """The ``messages`` array: system first, then the wire items in order.

    Images that a tool message cannot carry are held until the run of tool messages
    ends and then sent as one user message (docs: guides/function-calling, guides/images).
    """
    warnings = prepared.warnings
    messages: list[JSON] = []
    system = system_message(prepared.system)
    if system is not None:
        messages.append(system)
    held: list[JSON] = []
    previous: JSON | None = None  # the message the previous wire item produced
    for item in prepared.items:
        if not isinstance(item, WireToolResult) and held:
            messages.append({"role": "user", "content": held})
            held = []
        if isinstance(item, WireUser):
            message = user_message(item, warnings)
        elif isinstance(item, WireAssistant):
            message = assistant_message(item, warnings, reasoning)
            if (
                message is not None
                and item.continues
                and previous is not None
                and previous["role"] == "assistant"
            ):
                merge_assistant(previous, message)
                continue
        else:
            message = tool_message(item, warnings)
            held.extend(tool_images(item, warnings))
        previous = message
        if message is not None:
            messages.append(message)
    if held:
        messages.append({"role": "user", "content": held})
    if not any(m["role"] != "system" for m in messages):
        # The schema requires a message besides the system prompt (minItems; finding F3).
        warnings.add(
            None,
            None,
            None,
            "placeholder-user",
            "history has nothing to send; sent a placeholder user message",
        )
        messages.append({"role": "user", "content": PLACEHOLDER_USER_TEXT})
    return messages


def system_message(system: list[tuple[int | None, str]]) -> JSON | None:
    """ChatCompletionRequestSystemMessage: one message, entries joined with a blank line."""
    texts = [text for _, text in system]
    return {"role": "system", "content": "\n\n".join(texts)} if texts else None


def content_value(parts: list[JSON]) -> str | list[JSON]:
    """A single text part is sent as a plain string; anything else as the part array."""
    if len(parts) == 1 and parts[0]["type"] == "text":
        text: str = parts[0]["text"]
        return text
    return parts


def user_message(item: WireUser, warnings: Warnings) -> JSON | None:
    """ChatCompletionRequestUserMessage (text and image_url parts)."""
    parts = [p for p in (content_part(ci, warnings) for ci in item.items) if p is not None]
    if not parts:
        warnings.add(item.index, None, None, "empty-message", "user message has no content left; dropped")
        return None
    return {"role": "user", "content": content_value(parts)}


def content_part(ci: ContentItem, warnings: Warnings) -> JSON | None:
    """One user content part, or None (warned) when it cannot be sent."""
    if isinstance(ci.part, TextPart):
        return {"type": "text", "text": ci.part.text}
    return image_part(ci.message_index, ci.part_index, ci.part, warnings)


def image_part(
    message_index: int, part_index: int | None, part: ImageURLPart | ImageFilePart, warnings: Warnings
) -> JSON | None:
    """ChatCompletionRequestMessageContentPartImage: http(s) URL or base64 image data URL (guides/images)."""
    if isinstance(part, ImageFilePart):
        warn_image_file(warnings, message_index, part_index, part)
        return None
    url = part.url
    data = parse_data_url(url)
    if url.startswith(("http://", "https://")) or (data is not None and data[0].startswith("image/")):
        return {"type": "image_url", "image_url": {"url": url}}
    warnings.add(
        message_index,
        part_index,
        "image_url",
        "image-url-unsupported",
        "image URL is neither http(s) nor a base64 image data URL; dropped",
    )
    return None


# ---------------------------------------------------------------- assistant


def assistant_message(item: WireAssistant, warnings: Warnings, reasoning: ReasoningMapper) -> JSON | None:
    """ChatCompletionRequestAssistantMessage: content string and/or tool_calls, plus reasoning fields."""
    texts: list[str] = []
    calls: list[JSON] = []
    thinking: list[ThinkingUnit] = []
    for unit in item.units:
        if isinstance(unit, ThinkingUnit):
            thinking.append(unit)
        elif isinstance(unit.part, TextPart):
            texts.append(unit.part.text)
        elif isinstance(unit.part, ToolCallPart):
            calls.append(tool_call(unit.part, item.call_ids))
        else:
            _warn_assistant_image(item.index, unit, warnings)
    if not texts and not calls:
        warn_thinking(
            item.index, thinking, warnings, "empty-message", "the turn has no text or tool call left"
        )
        warnings.add(
            item.index,
            None,
            None,
            "empty-message",
            "assistant message has no text or tool call left; dropped",
        )
        return None
    message: JSON = {"role": "assistant"}
    if texts:
        message["content"] = "".join(texts)
    if calls:
        message["tool_calls"] = calls
    message.update(reasoning(item, thinking, warnings))
    return message


def merge_assistant(into: JSON, piece: JSON) -> None:
    """Fold a further piece of the same response into its assistant message.

    Chat requires the tool messages to follow the one assistant message holding every
    ``tool_calls`` entry they answer ("messages with role 'tool' must be a response to a
    preceeding message with 'tool_calls'"), so seed 001's per-block pieces become one.
    Strings concatenate, lists extend.
    """
    for key, value in piece.items():
        if key == "role":
            continue
        if key not in into:
            into[key] = value
        elif isinstance(value, list):
            entries = cast(list[JSON], value)
            into[key] = [*into[key], *_continue_indexes(into[key], entries)]
        elif isinstance(value, str):
            into[key] = into[key] + value


def _continue_indexes(before: list[JSON], after: list[JSON]) -> list[JSON]:
    """Entries carrying an ordinal ``index`` (OpenRouter ``reasoning_details``) keep counting on."""
    start = 1 + max((e["index"] for e in before if isinstance(e.get("index"), int)), default=-1)
    return [{**e, "index": e["index"] + start} if isinstance(e.get("index"), int) else e for e in after]


def tool_call(part: ToolCallPart, call_ids: dict[str, str]) -> JSON:
    """ChatCompletionMessageToolCall; arguments stay the model's JSON string."""
    return {
        "id": call_ids.get(part.call_id, part.call_id),
        "type": "function",
        "function": {"name": part.tool_name, "arguments": part.arguments_json},
    }


def _warn_assistant_image(index: int, unit: PartUnit, warnings: Warnings) -> None:
    """Assistant content is text/refusal only: images cannot be replayed there."""
    warnings.add(
        index,
        unit.index,
        unit.part.type,
        "assistant-image-dropped",
        "Chat assistant messages cannot carry images; dropped",
    )


def drop_thinking(item: WireAssistant, units: list[ThinkingUnit], warnings: Warnings) -> JSON:
    """Chat Completions has no reasoning field on input: every thinking part is dropped, with a warning."""
    warn_thinking(
        item.index, units, warnings, "thinking-unsupported", "Chat Completions cannot carry reasoning"
    )
    return {}


def warn_thinking(index: int, units: list[ThinkingUnit], warnings: Warnings, code: str, why: str) -> None:
    """One warning per thinking part (text and signature) of the given units."""
    for unit in units:
        if unit.text is not None:
            warnings.add(index, unit.text_index, "thinking_text", code, f"{why}; thinking text dropped")
        if unit.signature is not None:
            warnings.add(index, unit.signature_index, "thinking_signature", code, f"{why}; signature dropped")


# ---------------------------------------------------------------- tool results


def tool_message(item: WireToolResult, warnings: Warnings) -> JSON:
    """ChatCompletionRequestToolMessage: output_text, plus appended developer text as extra text parts."""
    if item.is_error and not item.synthesized:
        warnings.add(
            item.index,
            None,
            None,
            "tool-status-not-sent",
            f"Chat tool messages have no error flag; status '{item.status}' is only visible through the output text",
        )
    parts: list[JSON] = [{"type": "text", "text": item.output_text}] if item.output_text else []
    for ci in item.appended:
        if isinstance(ci.part, TextPart):
            parts.append({"type": "text", "text": ci.part.text})
    content: str | list[JSON] = content_value(parts) if parts else item.output_text
    return {"role": "tool", "tool_call_id": item.call_id, "content": content}


def tool_images(item: WireToolResult, warnings: Warnings) -> list[JSON]:
    """The result's images and developer images, which a Chat tool message cannot carry."""
    out: list[JSON] = []
    for ci in [*item.images, *item.appended]:
        if isinstance(ci.part, TextPart):
            continue
        part = image_part(ci.message_index, ci.part_index, ci.part, warnings)
        if part is None:
            continue
        warnings.add(
            ci.message_index,
            ci.part_index,
            "image_url",
            "tool-image-moved",
            "Chat tool messages take text only; image sent in a user message right after the tool results",
        )
        out.append(part)
    return out
