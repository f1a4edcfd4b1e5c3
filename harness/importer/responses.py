"""OpenAI Responses request body -> canonical history and call params."""

from __future__ import annotations

from typing import Any

from harness.contract.server_items import RESPONSES_INPUT_SERVER_ITEMS, responses_item
from harness.contract.sources import responses_annotation
from harness.importer.common import (
    Calls,
    Json,
    Ledger,
    arr,
    effort,
    joined_blocks,
    obj,
    openai_output_format,
    openai_tool_choice,
    part_positions,
    show,
    tool_spec,
)
from harness.importer.controls import consumed, read_controls
from harness.importer.files import file_from_url, media_type_of
from harness.importer.server_parts import kind_of, server_tool
from harness.model import (
    AddedTool,
    AnyPart,
    AssistantMessage,
    ContentPart,
    FilePart,
    HistoryEvent,
    ImageURLPart,
    SystemMessage,
    TextPart,
    ThinkingSignaturePart,
    ThinkingTextPart,
    ToolResultMessage,
    UserMessage,
)
from harness.params import CallParams, OutputFormat, ServerToolSpec, ThinkingParams, ToolChoice, ToolSpec

#: Responses tool types the provider runs itself (their kind, ``kind_of``); ``image_generation``
#: is a file-producing tool read the same way.
SERVER_KINDS = {"web_search", "file_search", "code_execution", "mcp", "tool_search", "image_generation"}

KNOWN = {
    "model",
    "instructions",
    "input",
    "tools",
    "tool_choice",
    "text",
    "max_output_tokens",
    "reasoning",
    "temperature",
    "stream",
    "store",
}
DEFAULTS: Json = {
    "tool_choice": "auto",
    "stream": False,
    "store": True,
    "include": ["reasoning.encrypted_content"],
}


def _texts(content: Any, text_type: str, path: str, ledger: Ledger) -> list[str]:
    if isinstance(content, str):
        return [content]
    texts: list[str] = []
    for i, part in enumerate(map(obj, arr(content))):
        at = f"{path}[{i}]"
        if part.get("type") == text_type:
            ledger.rest(part, at, {"type", "text", "annotations", "logprobs"}, None)
            for key in ("annotations", "logprobs"):
                if part.get(key):
                    ledger.note(f"{at}.{key}", f"not representable ({show(part[key])})")
            texts.append(str(part.get("text", "")))
        else:
            ledger.note(at, f"content part {show(part.get('type'))} not representable here")
    return texts


def _input_message(item: Json, path: str, ledger: Ledger) -> HistoryEvent | None:
    ledger.rest(item, path, {"type", "role", "content"})
    role, content = item.get("role"), item.get("content")
    if role in ("system", "developer"):
        return SystemMessage(
            parts=[TextPart(text=t) for t in _texts(content, "input_text", f"{path}.content", ledger)]
        )
    if role != "user":
        ledger.note(path, f"message role {show(role)} not representable")
        return None
    if isinstance(content, str):
        return UserMessage(parts=[TextPart(text=content)])
    parts: list[ContentPart] = []
    for i, part in enumerate(map(obj, arr(content))):
        at = f"{path}.content[{i}]"
        if part.get("type") == "input_text":
            ledger.rest(part, at, {"type", "text"})
            parts.append(TextPart(text=str(part.get("text", ""))))
        elif part.get("type") == "input_image" and part.get("image_url"):
            ledger.rest(part, at, {"type", "image_url"}, {"detail": "auto"})
            parts.append(ImageURLPart(url=str(part["image_url"])))
        elif (file := _input_file(part, at, ledger)) is not None:
            parts.append(file)
        else:
            ledger.note(at, f"user content part {show(part.get('type'))} not representable")
    return UserMessage(parts=parts)


def _reasoning(item: Json, path: str, model: str | None, ledger: Ledger) -> list[AnyPart]:
    """A reasoning item: its summary texts, its ``reasoning_text`` content, then the encrypted
    content as the signature, all with the item id.

    ``content`` holds the reasoning text itself where the server sends it back in full
    (OpenAI's open-weight models; DeepSeek's Responses-compatible endpoint, whose reasoning
    items carry ``content: [{type: reasoning_text}]`` and ``encrypted_content: null``:
    cassettes/deepseek/models__test_deepseek_responses__test_deepseek_responses[function_tool_stream].yaml
    request 2, accepted).
    """
    ledger.rest(item, path, {"type", "id", "summary", "encrypted_content", "content"})
    item_id = item.get("id")
    parts: list[AnyPart] = []
    for i, summary in enumerate(map(obj, arr(item.get("summary")))):
        ledger.rest(summary, f"{path}.summary[{i}]", {"type", "text"})
        parts.append(ThinkingTextPart(id=item_id, text=str(summary.get("text", "")), model_id=model))
    for i, block in enumerate(map(obj, arr(item.get("content")))):
        where = f"{path}.content[{i}]"
        ledger.rest(block, where, {"type", "text"})
        if block.get("type") != "reasoning_text":
            ledger.note(where, f"reasoning content of type {show(block.get('type'))} not representable")
            continue
        parts.append(ThinkingTextPart(id=item_id, text=str(block.get("text", "")), model_id=model))
    if item.get("encrypted_content"):
        parts.append(
            ThinkingSignaturePart(
                id=item_id,
                signature=str(item["encrypted_content"]),
                format="openai-responses",
                model_id=model,
            )
        )
    elif not parts:
        ledger.note(
            path,
            "reasoning item without summary, content or encrypted_content not representable (its id alone)",
        )
    return parts


def _input_file(part: Json, at: str, ledger: Ledger) -> FilePart | None:
    """``input_file`` (file_data as a data URL, file_url or file_id; filename), or ``input_image``
    by file id (an image file: ``image/*``, the part names no subtype); None for any other part."""
    if part.get("type") == "input_image" and isinstance(part.get("file_id"), str):
        ledger.rest(part, at, {"type", "file_id"}, {"detail": "auto"})
        return FilePart(media_type="image/*", file_id=part["file_id"], provider="openai")
    if part.get("type") != "input_file":
        return None
    ledger.rest(part, at, {"type", "file_data", "file_id", "file_url", "filename"})
    name = part.get("filename") if isinstance(part.get("filename"), str) else None
    if isinstance(part.get("file_id"), str):
        media = media_type_of(name, "application/pdf")
        return FilePart(media_type=media, file_id=part["file_id"], provider="openai", filename=name)
    if isinstance(part.get("file_url"), str):
        return FilePart(
            media_type=media_type_of(name or part["file_url"], "application/pdf"),
            url=part["file_url"],
            filename=name,
        )
    return file_from_url(str(part.get("file_data", "")), "application/pdf", name)


def _tool_result(item: Json, path: str, calls: Calls, ledger: Ledger) -> ToolResultMessage:
    """A function_call_output: string output, or input_text parts (one, else named) and input_image parts."""
    ledger.rest(item, path, {"type", "call_id", "output"})
    call_id, output = str(item.get("call_id", "")), item.get("output")
    texts: list[str] = []
    images: list[ImageURLPart | FilePart] = []
    positions: list[int] = []  # the text blocks before each image or file
    for i, part in enumerate(map(obj, [] if isinstance(output, str) else arr(output))):
        at = f"{path}.output[{i}]"
        if part.get("type") == "input_text":
            ledger.rest(part, at, {"type", "text"})
            texts.append(str(part.get("text", "")))
        elif part.get("type") == "input_image" and part.get("image_url"):
            ledger.rest(part, at, {"type", "image_url"}, {"detail": "auto"})
            images.append(ImageURLPart(url=str(part["image_url"])))
            positions.append(len(texts))
        elif (file := _input_file(part, at, ledger)) is not None:
            images.append(file)
            positions.append(len(texts))
        else:
            ledger.note(at, f"output part {show(part.get('type'))} not representable")
    text, blocks = (output, None) if isinstance(output, str) else joined_blocks(texts)
    return ToolResultMessage(
        call_id=call_id,
        tool_name=calls.name(call_id),
        status="success",
        output_text=text,
        text_blocks=blocks,
        parts=list(images),
        part_positions=part_positions(positions, texts),
    )


def _output_message(item: Json, path: str, ledger: Ledger) -> list[AnyPart]:
    """An assistant output message: each ``output_text`` with its item id and phase, then a source
    per annotation (``url_citation``, ``file_citation`` ...)."""
    item_id, phase = item.get("id"), item.get("phase")
    content = item.get("content")
    if isinstance(content, str):
        return [TextPart(text=content, item_id=item_id, phase=phase)]
    parts: list[AnyPart] = []
    for i, part in enumerate(map(obj, arr(content))):
        at = f"{path}.content[{i}]"
        if part.get("type") != "output_text":
            ledger.note(at, f"content part {show(part.get('type'))} not representable here")
            continue
        ledger.rest(part, at, {"type", "text", "annotations", "logprobs"}, None)
        if part.get("logprobs"):
            ledger.note(f"{at}.logprobs", f"not representable ({show(part['logprobs'])})")
        parts.append(TextPart(text=str(part.get("text", "")), item_id=item_id, phase=phase))
        parts += [responses_annotation(obj(a)) for a in arr(part.get("annotations"))]
    return parts


def _additional_tools(item: Json, path: str, ledger: Ledger) -> SystemMessage:
    """An ``additional_tools`` item (role ``developer``): function tools added at this point."""
    ledger.rest(item, path, {"type", "role", "tools"})
    if item.get("role") != "developer":
        ledger.note(f"{path}.role", f"role {show(item.get('role'))} not representable")
    added: list[AddedTool] = []
    for i, tool in enumerate(map(obj, arr(item.get("tools")))):
        at = f"{path}.tools[{i}]"
        if tool.get("type") != "function":
            ledger.note(at, f"added tool type {show(tool.get('type'))} not representable")
            continue
        ledger.rest(tool, at, {"type", "name", "description", "parameters", "strict"})
        description, strict = tool.get("description"), tool.get("strict")
        added.append(
            AddedTool(
                name=str(tool.get("name", "")),
                description=description if isinstance(description, str) else None,
                parameters=obj(tool.get("parameters")),
                strict=strict if isinstance(strict, bool) else None,
            )
        )
    return SystemMessage(parts=[], added_tools=added or None)


def history(body: Json, ledger: Ledger) -> list[HistoryEvent]:
    """Consecutive assistant-side items (message, reasoning, function_call) form one assistant message."""
    out: list[HistoryEvent] = []
    model = body.get("model") if isinstance(body.get("model"), str) else None
    if body.get("instructions"):
        out.append(SystemMessage(parts=[TextPart(text=str(body["instructions"]))]))
    items = body.get("input")
    if isinstance(items, str):
        return [*out, UserMessage(parts=[TextPart(text=items)])]
    calls = Calls()
    turn: list[AnyPart] = []

    def flush() -> None:
        if turn:
            out.append(AssistantMessage(parts=list(turn)))
            turn.clear()

    for n, item in enumerate(map(obj, ledger.items(items, "input"))):
        path, kind, role = f"input[{n}]", item.get("type", "message"), item.get("role")
        if kind == "message" and role == "assistant" and isinstance(item.get("content"), str):
            flush()  # a string-content assistant item (EasyInputMessage) is one whole assistant message
            ledger.rest(item, path, {"type", "role", "content"})
            out.append(AssistantMessage(parts=[TextPart(text=str(item["content"]))]))
        elif kind == "message" and role == "assistant":
            ledger.rest(item, path, {"type", "role", "content", "id", "phase", "status"}, None)
            turn.extend(_output_message(item, path, ledger))
        elif kind == "reasoning":
            turn.extend(_reasoning(item, path, model, ledger))
        elif kind == "function_call":
            # status is the API's echo of a finished call: completed (or null) says nothing more
            done: set[str] = {"status"} if item.get("status") in (None, "completed") else set()
            ledger.rest(item, path, {"type", "call_id", "name", "arguments", "id", "namespace"} | done)
            call = calls.call(
                str(item.get("call_id", "")),
                str(item.get("name", "")),
                item.get("arguments", ""),
                item.get("id"),
            )
            namespace = item.get("namespace")
            turn.append(
                call.model_copy(update={"namespace": namespace}) if isinstance(namespace, str) else call
            )
        elif kind == "additional_tools":
            flush()
            out.append(_additional_tools(item, path, ledger))
        elif kind in RESPONSES_INPUT_SERVER_ITEMS:
            turn.extend(responses_item(item, calls.names))
        elif kind == "function_call_output":
            flush()
            out.append(_tool_result(item, path, calls, ledger))
        elif kind == "message":
            flush()
            message = _input_message(item, path, ledger)
            if message is not None:
                out.append(message)
        else:
            ledger.note(path, f"input item type {show(kind)} not representable")
    flush()
    return out


def _output_format(value: Any, ledger: Ledger) -> OutputFormat | None:
    """``text.format``: text (the default), json_object, or json_schema; other ``text`` keys are named."""
    if value is None:
        return None
    text = obj(value)
    ledger.rest(text, "text", {"format"})
    return openai_output_format(obj(text.get("format")), "text.format", ledger) if "format" in text else None


def _tool_choice(value: Any, ledger: Ledger) -> tuple[ToolChoice | None, list[str] | None]:
    """``tool_choice``: the options and a forced function, or ``allowed_tools`` (ToolChoiceAllowed:
    the subset of function tools, the mode ``auto`` or ``required``)."""
    choice = obj(value)
    if choice.get("type") != "allowed_tools":
        return openai_tool_choice(value, "tool_choice", ledger, nested=False), None
    ledger.rest(choice, "tool_choice", {"type", "mode", "tools"})
    names: list[str] = []
    for i, tool in enumerate(map(obj, arr(choice.get("tools")))):
        ledger.rest(tool, f"tool_choice.tools[{i}]", {"type", "name"})
        if tool.get("type") == "function" and isinstance(tool.get("name"), str):
            names.append(tool["name"])
        else:
            ledger.note(f"tool_choice.tools[{i}]", f"allowed tool {show(tool)} not representable")
    mode = choice.get("mode")
    if mode not in ("auto", "required"):
        ledger.note("tool_choice.mode", f"mode {show(mode)} not representable")
    return ("required" if mode == "required" else None), names


def params(body: Json, ledger: Ledger) -> CallParams:
    ledger.rest(body, "", KNOWN | consumed("openai-responses"), DEFAULTS)
    thinking: ThinkingParams | None = None
    if "reasoning" in body:
        config = obj(body["reasoning"])
        ledger.rest(config, "reasoning", {"effort", "summary", "context"})
        summary, context = config.get("summary"), config.get("context")
        if summary not in (None, "auto", "concise", "detailed"):
            ledger.note("reasoning.summary", f"summary {show(summary)} not representable")
        if context not in (None, "auto", "current_turn", "all_turns"):
            ledger.note("reasoning.context", f"context {show(context)} not representable")
        thinking = ThinkingParams(
            effort=effort(config.get("effort"), "reasoning.effort", ledger),
            include_thoughts=summary is not None,
            summary=summary if summary in ("concise", "detailed") else None,
            context=context if context in ("auto", "current_turn", "all_turns") else None,
        )
    tools: list[ToolSpec] = []
    servers: list[ServerToolSpec] = []
    for i, raw in enumerate(map(obj, ledger.items(body.get("tools"), "tools"))):
        native = raw.get("type")
        if isinstance(native, str) and kind_of(native) in SERVER_KINDS:
            servers.append(server_tool(native, "openai-responses", raw, i))
            continue
        if native != "function":
            ledger.note(f"tools[{i}]", f"tool type {show(native)} not representable")
            continue
        spec = tool_spec(raw, "parameters", f"tools[{i}]", ledger, {"type", "defer_loading"})
        deferred = raw.get("defer_loading")
        tools.append(
            spec.model_copy(update={"defer_loading": deferred if isinstance(deferred, bool) else None})
        )
    choice, allowed = _tool_choice(body.get("tool_choice"), ledger)
    return CallParams(
        model=body.get("model"),
        tools=tools or None,
        server_tools=servers or None,
        tool_choice=choice,
        allowed_tools=allowed,
        output_format=_output_format(body.get("text"), ledger),
        max_tokens=body.get("max_output_tokens"),
        thinking=thinking,
        temperature=body.get("temperature"),
        stream=bool(body.get("stream", False)),
        **read_controls(body, "openai-responses", ledger),
    )
