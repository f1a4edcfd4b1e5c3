"""The Chat Completions core: messages, tools and limits as OpenAI Chat Completions and
OpenRouter (which speaks the same API plus extensions) both send them.

Each provider's ``request.py`` adds its own reasoning fields through a ``ReasoningMapper``
and its own parameters; the decisions this core implements are listed in
``harness/providers/openai_chat/DECISIONS.md`` (OpenRouter's adds its own).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from harness.contract.warning_codes import Code
from harness.mapping.controls import allowed_tools, openai_schema_fields, tool_choice, warn_allowed_tools
from harness.mapping.file_support import FileSupport, file_kind
from harness.mapping.files import (
    admit,
    default_filename,
    fits,
    warn_json_as_text,
    warn_moved,
    warn_order_lost,
)
from harness.mapping.openai_family import sendable_image_url
from harness.mapping.provider_parts import place_definitions, server_tool_definitions
from harness.mapping.toolbox import placeholder_user
from harness.mapping.wire import (
    ContentItem,
    PartUnit,
    Prepared,
    ProviderUnit,
    ThinkingUnit,
    Warnings,
    WireAssistant,
    WireToolResult,
    WireUser,
)
from harness.model import CacheBreakpoint, FilePart, ImageFilePart, ImageURLPart, TextPart, ToolCallPart
from harness.params import CallParams, ForcedTool, OutputFormat, ToolChoice, ToolSpec

__all__ = [
    "JSON",
    "ReasoningMapper",
    "base_body",
    "chat_shaped_messages",
    "chat_tool_choice",
    "content_value",
    "function_tool",
    "image_part",
    "render_messages",
    "response_format",
    "system_message",
    "tool_images",
    "warn_thinking",
]

JSON = dict[str, Any]
# Maps the native thinking units of one assistant turn to extra message fields
# (Chat: none, everything warned; OpenRouter: ``reasoning_details``).
ReasoningMapper = Callable[[WireAssistant, list[ThinkingUnit], Warnings], JSON]


# ---------------------------------------------------------------- request level


def base_body(
    prepared: Prepared,
    params: CallParams,
    model: str,
    reasoning: ReasoningMapper,
    *,
    provider: str,
    system_only: bool = False,
    allowed_subset: bool = False,
    system_cache: list[CacheBreakpoint | None] | None = None,
) -> JSON:
    """The fields Chat and OpenRouter share: model, messages, tools, tool choice, output format, limits,
    temperature, stream. ``system_only``: the provider accepts a system message alone.

    A server tool is sent only as the provider's own definition (``web_search_options`` on the
    search models); another provider's is not (``server-tool-unsupported``)."""
    messages = render_messages(prepared, reasoning, system_only=system_only, system_cache=system_cache)
    body: JSON = {"model": model, "messages": messages}
    servers = server_tool_definitions(params, provider, prepared.warnings)
    tools = place_definitions([function_tool(t) for t in prepared.tools], servers)
    if tools:
        body["tools"] = tools
    for _, definition, slot in servers:
        if slot != "tools":  # a top-level field of its own (web_search_options)
            body[slot] = definition
    choice = tool_choice(params, prepared)
    if choice is not None:
        body["tool_choice"] = chat_tool_choice(choice)
    if not allowed_subset:
        warn_allowed_tools(params, prepared, prepared_provider(body))
    else:
        allowed = allowed_tools(params, prepared)
        if allowed is not None and choice in (None, "required"):
            # ChatCompletionAllowedToolChoice (openai 3.54): the subset, the mode auto or required.
            body["tool_choice"] = {
                "type": "allowed_tools",
                "allowed_tools": {
                    "mode": choice or "auto",
                    "tools": [{"type": "function", "function": {"name": n}} for n in allowed],
                },
            }
    if params.output_format is not None:
        body["response_format"] = response_format(params.output_format)
    if params.max_tokens is not None:
        # CreateChatCompletionRequest.max_completion_tokens (max_tokens is deprecated).
        body["max_completion_tokens"] = params.max_tokens
    if params.temperature is not None:
        body["temperature"] = params.temperature
    if params.stream:
        body["stream"] = True
    return body


def prepared_provider(body: JSON) -> str:
    """How a warning names the provider of a Chat-shaped body: by the model it asks for."""
    return f"the provider of model '{body['model']}'"


def function_tool(tool: ToolSpec) -> JSON:
    """ChatCompletionTool / FunctionObject (docs: guides/function-calling)."""
    function: JSON = {"name": tool.name}
    if tool.description:
        function["description"] = tool.description
    function["parameters"] = tool.parameters
    if tool.strict is not None:
        function["strict"] = tool.strict
    return {"type": "function", "function": function}


def chat_tool_choice(choice: ToolChoice) -> str | JSON:
    """ChatCompletionToolChoiceOption: ``none``, ``required`` or one named function."""
    if isinstance(choice, ForcedTool):
        return {"type": "function", "function": {"name": choice.name}}
    return choice


def response_format(fmt: OutputFormat) -> JSON:
    """ResponseFormatJsonObject, or ResponseFormatJsonSchema when a schema is given (guides/structured-outputs)."""
    if fmt.json_schema is None:
        return {"type": "json_object"}
    return {"type": "json_schema", "json_schema": openai_schema_fields(fmt)}


# ---------------------------------------------------------------- messages


def render_messages(
    prepared: Prepared,
    reasoning: ReasoningMapper,
    *,
    system_only: bool = False,
    system_cache: list[CacheBreakpoint | None] | None = None,
) -> list[JSON]:
    """The ``messages`` array: system first, then the wire items in order (``chat_shaped_messages``
    with Chat Completions' own assistant and tool messages). ``system_cache``: the breakpoint
    after each system entry, for a provider that takes ``cache_control`` (OpenRouter to Claude
    and Gemini); None: breakpoints are not sent (the adapter warns)."""
    audio_ids = prepared.files.provider == "openai"  # Chat Completions replays its own audio by id
    return chat_shaped_messages(
        prepared,
        lambda item, warnings: assistant_message(item, warnings, reasoning, audio_ids=audio_ids),
        tool_message,
        tool_images,
        merge_assistant,
        system_only=system_only,
        system_cache=system_cache,
    )


def chat_shaped_messages(
    prepared: Prepared,
    assistant: Callable[[WireAssistant, Warnings], JSON | None],
    tool: Callable[[WireToolResult, Warnings], JSON],
    images: Callable[[WireToolResult, Warnings], list[JSON]],
    merge: Callable[[JSON, JSON], None],
    *,
    system_only: bool = False,
    system_cache: list[CacheBreakpoint | None] | None = None,
) -> list[JSON]:
    """A Chat-shaped ``messages`` array (Chat Completions, Cohere v2): system first, then the wire
    items in order, each made by the wire's own ``assistant`` / ``tool`` builders.

    A further piece of the same response is ``merge``d into the assistant message before it.
    Images that a tool message cannot carry (``images``) are held until the run of tool messages
    ends and then sent as one user message (docs: guides/function-calling, guides/images).
    Nothing to send gets a placeholder user message, unless a system message is there and
    the provider accepts it alone (``system_only``; docs/import-check-decisions.md#placeholder-turns).
    """
    warnings = prepared.warnings
    messages: list[JSON] = []
    cache = system_cache is not None
    if cache and any(bp is not None for bp in system_cache or []):
        messages.extend(cached_system_messages(prepared.system, system_cache or []))
    else:
        system = system_message(prepared.system)
        if system is not None:
            messages.append(system)
    held: list[JSON] = []
    previous: JSON | None = None  # the message the previous wire item produced
    for item in prepared.items:
        if not isinstance(item, WireToolResult) and held:
            messages.append({"role": "user", "content": content_value(held)})
            held = []
        if isinstance(item, WireUser):
            message = user_message(item, warnings, prepared.files, cache=cache)
        elif isinstance(item, WireAssistant):
            message = assistant(item, warnings)
            if (
                message is not None
                and item.continues
                and previous is not None
                and previous["role"] == "assistant"
            ):
                merge(previous, message)
                continue
        else:
            message = tool(item, warnings)
            held.extend(images(item, warnings))
            held.extend(tool_files(item, warnings, prepared.files))
        previous = message
        if message is not None:
            messages.append(message)
    if held:
        messages.append({"role": "user", "content": content_value(held)})
    if not messages or (not system_only and all(m["role"] == "system" for m in messages)):
        # The schema requires a message besides the system prompt (``messages`` has minItems 1).
        text = placeholder_user(warnings, "history has nothing to send; sent a placeholder user message")
        messages.append({"role": "user", "content": text})
    return messages


def system_message(system: list[tuple[int | None, str]]) -> JSON | None:
    """ChatCompletionRequestSystemMessage: one message, entries joined with a blank line."""
    texts = [text for _, text in system]
    return {"role": "system", "content": "\n\n".join(texts)} if texts else None


def cached_system_messages(
    system: list[tuple[int | None, str]], marks: list[CacheBreakpoint | None]
) -> list[JSON]:
    """One system message per entry, an entry that ends the cache as a text part with
    ``cache_control`` (OpenRouter's prompt-caching guide: "cache_control in the content array")."""
    out: list[JSON] = []
    for (_, text), bp in zip(system, marks, strict=True):
        if bp is None:
            out.append({"role": "system", "content": text})
        else:
            out.append(
                {
                    "role": "system",
                    "content": [{"type": "text", "text": text, "cache_control": cache_control(bp)}],
                }
            )
    return out


def cache_control(bp: CacheBreakpoint) -> JSON:
    """``cache_control`` as Anthropic takes it (OpenRouter passes it through): ephemeral, ttl if given."""
    out: JSON = {"type": "ephemeral"}
    if bp.ttl is not None:
        out["ttl"] = bp.ttl
    return out


def content_value(parts: list[JSON]) -> str | list[JSON]:
    """A single text part is sent as a plain string; anything else (or a part that ends the
    cache) as the part array."""
    if len(parts) == 1 and parts[0]["type"] == "text" and "cache_control" not in parts[0]:
        text: str = parts[0]["text"]
        return text
    return parts


def user_message(
    item: WireUser, warnings: Warnings, files: FileSupport, *, cache: bool = False
) -> JSON | None:
    """ChatCompletionRequestUserMessage (text, image_url and the dialect's file parts); ``cache``:
    a part that ends the prompt cache carries ``cache_control``."""
    parts: list[JSON] = []
    for ci in item.items:
        part = content_part(ci, warnings, files)
        if part is None:
            continue
        if cache and ci.part.cache_breakpoint is not None:
            part["cache_control"] = cache_control(ci.part.cache_breakpoint)
        parts.append(part)
    if not parts:
        warnings.add(item.index, None, None, Code.EMPTY_MESSAGE, "user message has no content left; dropped")
        return None
    return {"role": "user", "content": content_value(parts)}


def content_part(ci: ContentItem, warnings: Warnings, files: FileSupport) -> JSON | None:
    """One user content part, or None (warned) when it cannot be sent."""
    part = ci.part
    if isinstance(part, FilePart):
        admitted = admit(files, part, ci.message_index, ci.part_index, warnings)
        if admitted is None:
            return None
        if isinstance(admitted, TextPart):
            return {"type": "text", "text": admitted.text}
        return file_part(admitted, files)
    if isinstance(part, TextPart):
        return {"type": "text", "text": part.text}
    return image_part(ci.message_index, ci.part_index, part, warnings)


#: ``input_audio.format``: the two formats Chat Completions takes (InputAudio.format: "wav" | "mp3").
_AUDIO_FORMATS = {
    "audio/wav": "wav",
    "audio/x-wav": "wav",
    "audio/wave": "wav",
    "audio/mpeg": "mp3",
    "audio/mp3": "mp3",
}


def file_part(part: FilePart, files: FileSupport) -> JSON:
    """A file the dialect takes, in its native form (``FileSupport.forms`` names it per kind):

    - ``file``: ChatCompletionRequestMessageContentPartFile ``{file: {file_data | file_id, filename}}``,
      ``file_data`` a base64 data URL (OpenAI, guides/pdf-files) or, on OpenRouter, a URL too;
    - ``input_audio``: ``{input_audio: {data, format}}`` (guides/audio; base64 only);
    - ``document_url``: Mistral's DocumentURLChunk, a URL or a base64 data URL (document understanding);
    - ``video_url``: OpenRouter's ``{video_url: {url}}`` (multimodal/videos).
    """
    form = files.forms.get(file_kind(part.media_type), "file")
    source = f"data:{part.media_type};base64,{part.data}" if part.data is not None else part.url
    if form == "input_audio":
        fmt = _AUDIO_FORMATS.get(part.media_type.lower(), part.media_type.split("/")[-1])
        return {"type": "input_audio", "input_audio": {"data": part.data, "format": fmt}}
    if form == "document_url":
        return {"type": "document_url", "document_url": source}
    if form == "video_url":
        return {"type": "video_url", "video_url": {"url": source}}
    file: JSON = {"file_id": part.file_id} if part.file_id is not None else {"file_data": source}
    name = part.filename or (default_filename(part) if part.data is not None else None)
    if name is not None:  # inline data without a filename: "400 Missing required parameter"
        file["filename"] = name
    return {"type": "file", "file": file}


def image_part(
    message_index: int, part_index: int | None, part: ImageURLPart | ImageFilePart, warnings: Warnings
) -> JSON | None:
    """ChatCompletionRequestMessageContentPartImage: http(s) URL or base64 image data URL (guides/images)."""
    url = sendable_image_url(message_index, part_index, part, warnings)
    return None if url is None else {"type": "image_url", "image_url": {"url": url}}


# ---------------------------------------------------------------- assistant


def assistant_message(
    item: WireAssistant, warnings: Warnings, reasoning: ReasoningMapper, *, audio_ids: bool = False
) -> JSON | None:
    """ChatCompletionRequestAssistantMessage: content string and/or tool_calls, plus reasoning fields.

    ``audio_ids``: the provider's own assistant audio goes back as ``audio: {id}`` (OpenAI,
    guides/audio: "the assistant message ... audio.id"); any other file or image is warned."""
    texts: list[str] = []
    calls: list[JSON] = []
    thinking: list[ThinkingUnit] = []
    audio: JSON | None = None
    for unit in item.units:
        if isinstance(unit, ThinkingUnit):
            thinking.append(unit)
        elif isinstance(unit, ProviderUnit):
            continue  # prepare keeps none for a Chat provider (harness.mapping.provider_parts)
        elif isinstance(unit.part, TextPart):
            texts.append(unit.part.text)
        elif isinstance(unit.part, ToolCallPart):
            calls.append(tool_call(unit.part, item.call_ids))
        elif (
            audio_ids
            and audio is None
            and isinstance(unit.part, FilePart)
            and unit.part.id is not None
            and file_kind(unit.part.media_type) == "audio"
        ):
            audio = {"id": unit.part.id}
        else:
            _warn_assistant_image(item.index, unit, warnings)
    if not texts and not calls and audio is None:
        warn_thinking(
            item.index, thinking, warnings, Code.EMPTY_MESSAGE, "the turn has no text or tool call left"
        )
        warnings.add(
            item.index,
            None,
            None,
            Code.EMPTY_MESSAGE,
            "assistant message has no text or tool call left; dropped",
        )
        return None
    message: JSON = {"role": "assistant"}
    if texts:
        message["content"] = "".join(texts)
    if calls:
        message["tool_calls"] = calls
    if audio is not None:
        message["audio"] = audio
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
    """Assistant content is text/refusal only: images and files cannot be replayed there."""
    what = "files (only the provider's own audio, by id)" if isinstance(unit.part, FilePart) else "images"
    warnings.add(
        index,
        unit.index,
        unit.part.type,
        Code.ASSISTANT_IMAGE_DROPPED,
        f"Chat assistant messages cannot carry {what}; dropped",
    )


def warn_thinking(index: int, units: list[ThinkingUnit], warnings: Warnings, code: Code, why: str) -> None:
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
            Code.TOOL_STATUS_NOT_SENT,
            f"Chat tool messages have no error flag; status '{item.status}' is only visible through the output text",
        )
    if item.output_json is not None:
        warn_json_as_text(warnings, item.index, "Chat Completions")
    warn_order_lost(warnings, item, "Chat Completions")
    parts: list[JSON] = [{"type": "text", "text": item.output_text}] if item.output_text else []
    for ci in item.appended:
        if isinstance(ci.part, TextPart):
            parts.append({"type": "text", "text": ci.part.text})
    content: str | list[JSON] = content_value(parts) if parts else item.output_text
    return {"role": "tool", "tool_call_id": item.call_id, "content": content}


#: The warning for an image a Chat tool message cannot carry.
CHAT_TOOL_IMAGE_MOVED = (
    "Chat tool messages take text only; image sent in a user message right after the tool results"
)


def tool_images(item: WireToolResult, warnings: Warnings, moved: str = CHAT_TOOL_IMAGE_MOVED) -> list[JSON]:
    """The result's images and developer images, which a Chat-shaped tool message cannot carry
    (``moved``: the wire's own words for the warning)."""
    out: list[JSON] = []
    for ci in [*item.images, *item.appended]:
        if isinstance(ci.part, TextPart | FilePart):
            continue
        part = image_part(ci.message_index, ci.part_index, ci.part, warnings)
        if part is None:
            continue
        warnings.add(
            ci.message_index,
            ci.part_index,
            "image_url",
            Code.TOOL_IMAGE_MOVED,
            moved,
        )
        out.append(part)
    return out


def tool_files(item: WireToolResult, warnings: Warnings, files: FileSupport) -> list[JSON]:
    """The result's files (and developer files), which a Chat-shaped tool message cannot carry:
    sent, in order, in the user message right after the tool results (``tool-file-moved``), as
    the dialect takes them in a user message (or dropped, warned, where it takes none)."""
    out: list[JSON] = []
    for ci in [*item.images, *item.appended]:
        if not isinstance(ci.part, FilePart):
            continue
        if fits(files, ci.part, in_tool=False):
            warn_moved(
                warnings,
                ci.message_index,
                ci.part_index,
                "sent in a user message right after the tool results",
            )
        part = content_part(ci, warnings, files)
        if part is not None:
            out.append(part)
    return out
