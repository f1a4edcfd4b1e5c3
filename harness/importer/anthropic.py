"""Anthropic Messages request body -> canonical history and call params."""

from __future__ import annotations

import base64
from typing import Any

from harness.contract.server_items import (
    ANTHROPIC_SERVER_CALLS,
    anthropic_result,
    call_part,
    is_anthropic_result,
)
from harness.contract.sources import anthropic_citation
from harness.importer.common import (
    Calls,
    Json,
    Ledger,
    arr,
    cache_control,
    effort,
    joined_blocks,
    obj,
    part_positions,
    show,
    tool_spec,
)
from harness.importer.controls import consumed, read_controls
from harness.importer.files import chunked_document, document_options
from harness.importer.server_parts import server_tool
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
from harness.params import (
    CallParams,
    ForcedTool,
    OutputFormat,
    ServerToolSpec,
    ThinkingParams,
    ToolChoice,
    ToolSpec,
)

#: Top-level keys read into the history or params; ``tool_choice`` auto is the API default when tools are given.
KNOWN = {
    "model",
    "system",
    "messages",
    "tools",
    "tool_choice",
    "output_config",
    "max_tokens",
    "thinking",
    "temperature",
    "stream",
    "mcp_servers",
    "container",
    "cache_control",
}
DEFAULTS: Json = {"tool_choice": {"type": "auto"}, "stream": False}


def _text_parts(blocks: list[Any], path: str, ledger: Ledger) -> list[TextPart]:
    """Text blocks as parts, each with its cache breakpoint; another block type is named."""
    parts: list[TextPart] = []
    for i, block in enumerate(map(obj, blocks)):
        at = f"{path}[{i}]"
        if block.get("type") == "text":
            ledger.rest(block, at, {"type", "text", "cache_control"})
            parts.append(
                TextPart(text=str(block.get("text", "")), cache_breakpoint=cache_control(block, at, ledger))
            )
        else:
            ledger.note(at, f"block type {show(block.get('type'))} not representable here")
    return parts


def _added_tool(block: Json, at: str, ledger: Ledger) -> AddedTool | None:
    """A ``tool_addition`` block: a ``tool_reference`` to a deferred tool by name, or a whole
    ``tool_definition`` (name, description, input_schema, strict)."""
    ledger.rest(block, at, {"type", "tool"})
    tool = obj(block.get("tool"))
    if tool.get("type") == "tool_reference":
        ledger.rest(tool, f"{at}.tool", {"type", "name"})
        return AddedTool(name=str(tool.get("name", "")))
    if tool.get("type") == "tool_definition":
        ledger.rest(tool, f"{at}.tool", {"type", "definition"})
        definition = obj(tool.get("definition"))
        ledger.rest(definition, f"{at}.tool.definition", {"name", "description", "input_schema", "strict"})
        description, strict = definition.get("description"), definition.get("strict")
        return AddedTool(
            name=str(definition.get("name", "")),
            description=description if isinstance(description, str) else None,
            parameters=obj(definition.get("input_schema")),
            strict=strict if isinstance(strict, bool) else None,
        )
    ledger.note(f"{at}.tool", f"added tool type {show(tool.get('type'))} not representable")
    return None


def _system_message(blocks: list[Any], path: str, ledger: Ledger) -> SystemMessage:
    """A ``system`` message inside ``messages``: its text, and the tools it adds (``tool_addition``)."""
    texts: list[Any] = []
    added: list[AddedTool] = []
    for i, block in enumerate(map(obj, blocks)):
        if block.get("type") == "tool_addition":
            tool = _added_tool(block, f"{path}[{i}]", ledger)
            if tool is not None:
                added.append(tool)
        elif added:  # ours sends the text (hoisted) apart from the additions
            ledger.note(f"{path}[{i}]", "system text after a tool_addition not representable")
        else:
            texts.append(block)
    return SystemMessage(parts=_text_parts(texts, path, ledger), added_tools=added or None)


def _image(source: Json, path: str, ledger: Ledger) -> ImageURLPart | FilePart | None:
    """Base64 becomes a data URL; a URL stays a URL; a file id is a file part (``image/*``: the
    block does not say the subtype); anything else is named."""
    if source.get("type") == "file":
        ledger.rest(source, path, {"type", "file_id"})
        return FilePart(media_type="image/*", file_id=str(source.get("file_id", "")), provider="anthropic")
    if source.get("type") == "base64":
        ledger.rest(source, path, {"type", "media_type", "data"})
        return ImageURLPart(url=f"data:{source.get('media_type')};base64,{source.get('data')}")
    if source.get("type") == "url":
        ledger.rest(source, path, {"type", "url"})
        return ImageURLPart(url=str(source.get("url")))
    ledger.note(path, f"image source type {show(source.get('type'))} not representable")
    return None


def _document(block: Json, path: str, ledger: Ledger) -> FilePart | None:
    """A ``document`` block: a PDF by base64, URL or file id, or plain text (kept as its UTF-8 bytes,
    ``text/plain``), or custom content (its text blocks: ``text_chunks``); ``title``, ``context`` and
    ``citations`` kept. A file id names no media type: a PDF (what document blocks take)."""
    ledger.rest(block, path, {"type", "source", "title", "context", "citations"})
    source = obj(block.get("source"))
    title = block.get("title") if isinstance(block.get("title"), str) else None
    options = document_options(block, path, ledger, title)
    kind, at = source.get("type"), f"{path}.source"
    if kind == "base64":
        ledger.rest(source, at, {"type", "media_type", "data"})
        return FilePart(media_type=str(source.get("media_type")), data=str(source.get("data", "")), **options)
    if kind == "url":
        ledger.rest(source, at, {"type", "url"})
        return FilePart(media_type="application/pdf", url=str(source.get("url", "")), **options)
    if kind == "file":
        ledger.rest(source, at, {"type", "file_id"})
        return FilePart(
            media_type="application/pdf",
            file_id=str(source.get("file_id", "")),
            provider="anthropic",
            **options,
        )
    if kind == "text":
        ledger.rest(source, at, {"type", "media_type", "data"})
        data = base64.b64encode(str(source.get("data", "")).encode("utf-8")).decode("ascii")
        return FilePart(media_type=str(source.get("media_type") or "text/plain"), data=data, **options)
    if kind == "content":
        ledger.rest(source, at, {"type", "content"})
        texts: list[str] = []
        for i, item in enumerate(map(obj, arr(source.get("content")))):
            if item.get("type") != "text":
                ledger.note(
                    f"{at}.content[{i}]", f"custom document block {show(item.get('type'))} not representable"
                )
                return None
            ledger.rest(item, f"{at}.content[{i}]", {"type", "text"})
            texts.append(str(item.get("text", "")))
        if not texts:
            ledger.note(f"{at}.content", "an empty custom document not representable")
            return None
        return chunked_document(texts, options)
    ledger.note(at, f"document source type {show(kind)} not representable")
    return None


def _text(block: Json, at: str, ledger: Ledger) -> list[AnyPart]:
    """A text block, then a source per citation (``citations: null`` is no citation)."""
    ledger.rest(block, at, {"type", "text", "citations", "cache_control"})
    parts: list[AnyPart] = [
        TextPart(text=str(block.get("text", "")), cache_breakpoint=cache_control(block, at, ledger))
    ]
    citations = block.get("citations")
    if citations is not None and not isinstance(citations, list):
        ledger.note(f"{at}.citations", f"expected a list, got {show(citations)}")
    parts += [anthropic_citation(obj(c)) for c in arr(citations)]
    return parts


def _assistant(
    blocks: list[Any], path: str, model: str | None, calls: Calls, ledger: Ledger
) -> AssistantMessage:
    parts: list[AnyPart] = []
    for i, block in enumerate(map(obj, blocks)):
        at, kind = f"{path}[{i}]", block.get("type")
        if kind == "text":
            parts += _text(block, at, ledger)
        elif kind in ANTHROPIC_SERVER_CALLS:
            call_id, name = str(block.get("id", "")), str(block.get("name", ""))
            calls.names[call_id] = name
            parts.append(call_part(call_id, name, "anthropic", block.get("input", {}), block))
        elif is_anthropic_result(kind):
            parts.append(anthropic_result(block, calls.name(str(block.get("tool_use_id", "")))))
        elif kind == "thinking":
            ledger.rest(block, at, {"type", "thinking", "signature"})
            parts.append(ThinkingTextPart(text=str(block.get("thinking", "")), model_id=model))
            if block.get("signature"):
                parts.append(
                    ThinkingSignaturePart(
                        signature=str(block["signature"]), format="anthropic", model_id=model
                    )
                )
        elif kind == "redacted_thinking":
            ledger.rest(block, at, {"type", "data"})
            parts.append(
                ThinkingSignaturePart(
                    signature=str(block.get("data", "")), format="anthropic-redacted", model_id=model
                )
            )
        elif kind == "tool_use":
            ledger.rest(block, at, {"type", "id", "name", "input", "cache_control", "caller"})
            call = calls.call(
                str(block.get("id", "")),
                str(block.get("name", "")),
                block.get("input", {}),
                cache_breakpoint=cache_control(block, at, ledger),
            )
            caller = block.get("caller")
            parts.append(
                call.model_copy(update={"caller": obj(caller)}) if isinstance(caller, dict) else call
            )
        else:
            ledger.note(at, f"assistant block type {show(kind)} not representable")
    return AssistantMessage(parts=parts)


def _tool_result(block: Json, path: str, calls: Calls, ledger: Ledger) -> ToolResultMessage:
    ledger.rest(block, path, {"type", "tool_use_id", "content", "is_error", "cache_control"})
    content = block.get("content", "")
    items: list[Any] = [{"type": "text", "text": content}] if isinstance(content, str) else arr(content)
    texts: list[str] = []
    images: list[ImageURLPart | FilePart] = []
    positions: list[int] = []  # the text blocks before each image or file
    discovered: list[str] = []
    for i, item in enumerate(map(obj, items)):
        at = f"{path}.content[{i}]"
        if item.get("type") == "tool_reference":
            ledger.rest(item, at, {"type", "tool_name"})
            discovered.append(str(item.get("tool_name", "")))
        elif discovered:  # ours sends them after the text and images
            ledger.note(at, "content after a tool_reference not representable (references go last)")
        elif item.get("type") == "text":
            ledger.rest(item, at, {"type", "text"})
            texts.append(str(item.get("text", "")))
        elif item.get("type") == "image":
            ledger.rest(item, at, {"type", "source"})
            image = _image(obj(item.get("source")), f"{at}.source", ledger)
            if image is not None:
                images.append(image)
                positions.append(len(texts))
        elif item.get("type") == "document":
            document = _document(item, at, ledger)
            if document is not None:
                images.append(document)
                positions.append(len(texts))
        else:
            ledger.note(at, f"tool_result content type {show(item.get('type'))} not representable")
    call_id = str(block.get("tool_use_id", ""))
    text, blocks = joined_blocks(texts)
    return ToolResultMessage(
        call_id=call_id,
        tool_name=calls.name(call_id),
        status="error" if block.get("is_error") else "success",
        output_text=text,
        text_blocks=blocks,
        parts=list(images),
        part_positions=part_positions(positions, texts),
        discovered_tools=discovered or None,
        cache_breakpoint=cache_control(block, path, ledger),
    )


def history(body: Json, ledger: Ledger) -> list[HistoryEvent]:
    """Messages in order; a user turn's tool_result blocks become tool messages before its other content.

    A ``system`` message inside ``messages`` stays a system message at its place in the history.
    """
    out: list[HistoryEvent] = []
    model = body.get("model") if isinstance(body.get("model"), str) else None
    system = body.get("system")
    if isinstance(system, str) and system:
        out.append(SystemMessage(parts=[TextPart(text=system)]))
    elif isinstance(system, list) and system:
        out.append(SystemMessage(parts=_text_parts(arr(system), "system", ledger)))
    calls = Calls()
    for m, raw in enumerate(ledger.items(body.get("messages"), "messages")):
        message, path = obj(raw), f"messages[{m}]"
        ledger.rest(message, path, {"role", "content"})
        content, role = message.get("content"), message.get("role")
        blocks: list[Any] = [{"type": "text", "text": content}] if isinstance(content, str) else arr(content)
        if role == "system":  # a system message inside messages, in place (accepted by some models)
            out.append(_system_message(blocks, f"{path}.content", ledger))
            continue
        if role not in ("user", "assistant"):
            ledger.note(path, f"message role {show(role)} not representable")
            continue
        if role == "assistant":
            out.append(_assistant(blocks, f"{path}.content", model, calls, ledger))
            continue
        user: list[ContentPart] = []
        for i, block in enumerate(map(obj, blocks)):
            at, kind = f"{path}.content[{i}]", block.get("type")
            if kind == "text":
                ledger.rest(block, at, {"type", "text", "cache_control"})
                user.append(
                    TextPart(
                        text=str(block.get("text", "")), cache_breakpoint=cache_control(block, at, ledger)
                    )
                )
            elif kind == "image":
                ledger.rest(block, at, {"type", "source", "cache_control"})
                image = _image(obj(block.get("source")), f"{at}.source", ledger)
                if image is not None:
                    user.append(
                        image.model_copy(update={"cache_breakpoint": cache_control(block, at, ledger)})
                    )
            elif kind == "document":
                document = _document(block, at, ledger)
                if document is not None:
                    user.append(document)
            elif kind == "tool_result":
                out.append(_tool_result(block, at, calls, ledger))
            elif kind == "container_upload":  # a file id put in the code-execution container
                ledger.rest(block, at, {"type", "file_id", "cache_control"})
                user.append(
                    FilePart(
                        media_type="application/octet-stream",
                        file_id=str(block.get("file_id", "")),
                        provider="anthropic",
                        purpose="container",
                        cache_breakpoint=cache_control(block, at, ledger),
                    )
                )
            else:
                ledger.note(at, f"user block type {show(kind)} not representable")
        if user:
            out.append(UserMessage(parts=user))
    return out


def _tool_choice(value: Any, ledger: Ledger) -> ToolChoice | None:
    """``auto`` (the default) is None, ``any`` is required, ``none`` stays, ``tool`` forces its name."""
    choice = obj(value)
    kind = choice.get("type")
    if value is None or kind not in ("auto", "any", "none", "tool"):
        if value is not None:
            ledger.note("tool_choice", f"not representable ({show(value)})")
        return None
    # disable_parallel_tool_use is read as parallel_tool_calls (params)
    known = {"type", "name"} if kind == "tool" else {"type"}
    ledger.rest(choice, "tool_choice", known | ({"disable_parallel_tool_use"} if kind != "none" else set()))
    if kind == "tool":
        return ForcedTool(name=str(choice.get("name", "")))
    return None if kind == "auto" else "required" if kind == "any" else "none"


def _output_format(value: Any, ledger: Ledger, adaptive: set[str]) -> OutputFormat | None:
    """``output_config.format`` ``{"type": "json_schema", "schema"}``; other ``output_config`` keys are named."""
    if value is None:
        return None
    config = obj(value)
    ledger.rest(config, "output_config", {"format", *adaptive})
    fmt = obj(config.get("format"))
    if not fmt:
        return None
    ledger.rest(fmt, "output_config.format", {"type", "schema"})
    if fmt.get("type") != "json_schema":
        ledger.note("output_config.format.type", f"format type {show(fmt.get('type'))} not representable")
        return None
    schema = fmt.get("schema")
    return OutputFormat(json_schema=obj(schema) if schema is not None else None)


def params(body: Json, ledger: Ledger) -> CallParams:
    ledger.rest(body, "", KNOWN | consumed("anthropic"), DEFAULTS)
    thinking: ThinkingParams | None = None
    config = obj(body.get("thinking"))
    if config.get("type") == "disabled":
        thinking = ThinkingParams(enabled=False)
    elif config:
        ledger.rest(config, "thinking", {"type", "budget_tokens", "display"})
        if config.get("type") not in ("enabled", "adaptive"):
            ledger.note("thinking.type", f"thinking type {show(config.get('type'))} not representable")
        if config.get("display") not in (None, "omitted"):
            ledger.note("thinking.display", f"display {show(config.get('display'))} not representable")
        adaptive = config.get("type") == "adaptive"
        level = obj(body.get("output_config")).get("effort") if adaptive else None
        thinking = ThinkingParams(
            budget_tokens=config.get("budget_tokens"),
            include_thoughts=config.get("display") != "omitted",
            adaptive=True if adaptive else None,
            effort=effort(level, "output_config.effort", ledger),
        )
    tools: list[ToolSpec] = []
    servers: list[ServerToolSpec] = []
    for i, raw in enumerate(ledger.items(body.get("tools"), "tools")):
        tool = obj(raw)
        native = tool.get("type")
        if isinstance(native, str) and native != "custom":  # a provider-defined tool, kept whole
            servers.append(server_tool(native, "anthropic", tool, i))
            continue
        # ``type: custom`` names a client tool, as its absence does (anthropic ToolParam.type)
        plain = {k: v for k, v in tool.items() if not (k == "type" and v == "custom")}
        known = {"defer_loading", "allowed_callers"}
        spec = tool_spec(plain, "input_schema", f"tools[{i}]", ledger, known, cached=True)
        deferred, callers = tool.get("defer_loading"), tool.get("allowed_callers")
        tools.append(
            spec.model_copy(
                update={
                    "defer_loading": deferred if isinstance(deferred, bool) else None,
                    "allowed_callers": [str(c) for c in arr(callers)] if isinstance(callers, list) else None,
                }
            )
        )
    for i, raw in enumerate(ledger.items(body.get("mcp_servers"), "mcp_servers")):
        servers.append(server_tool("mcp", "anthropic", obj(raw), i, "mcp_servers"))
    return CallParams(
        model=body.get("model"),
        tools=tools or None,
        server_tools=servers or None,
        container=body.get("container"),
        tool_choice=_tool_choice(body.get("tool_choice"), ledger),
        output_format=_output_format(
            body.get("output_config"),
            ledger,
            {"effort"} if obj(body.get("thinking")).get("type") == "adaptive" else set(),
        ),
        max_tokens=body.get("max_tokens"),
        thinking=thinking,
        temperature=body.get("temperature"),
        stream=bool(body.get("stream", False)),
        cache_breakpoint=cache_control(body, "", ledger),
        parallel_tool_calls=False
        if obj(body.get("tool_choice")).get("disable_parallel_tool_use") is True
        else None,
        **read_controls(body, "anthropic", ledger),
    )
