"""AWS Bedrock Converse request body -> canonical history and call params.

The body as sent to ``POST /model/{modelId}/converse[-stream]``: the model and streaming are
the URL (``uri``), never body fields. Blocks per the bedrock-runtime service model:
``text``, ``image {format, source.bytes}`` (base64 in JSON), ``reasoningContent``
(``reasoningText {text, signature}`` or ``redactedContent``), ``toolUse`` and ``toolResult``
(``status: error``).
"""

from __future__ import annotations

import json
import re
from typing import Any, cast
from urllib.parse import unquote, urlsplit

from harness.contract.server_items import call_part, result_part
from harness.importer.common import Calls, Json, Ledger, arr, effort, joined_blocks, obj, part_positions, show
from harness.importer.controls import consumed, read_controls
from harness.importer.files import DocumentOptions, chunked_document, document_options
from harness.importer.server_parts import server_tool
from harness.model import (
    AnyPart,
    AssistantMessage,
    CacheBreakpoint,
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

__all__ = ["history", "model_from_uri", "params"]

KNOWN = {
    "messages",
    "system",
    "toolConfig",
    "inferenceConfig",
    "additionalModelRequestFields",
    "outputConfig",
}
_PATH = re.compile(r"/model/([^/]+)/(converse|converse-stream)$")


def model_from_uri(uri: str | None) -> tuple[str | None, bool]:
    """(model id, streamed) from ``/model/{modelId}/converse[-stream]``; (None, False) without a URL."""
    match = _PATH.search(urlsplit(uri or "").path)
    if match is None:
        return None, False
    return unquote(match.group(1)), match.group(2) == "converse-stream"


def _cache_point(block: Json, path: str, ledger: Ledger) -> CacheBreakpoint:
    """A ``cachePoint`` block: ``type`` default and an optional ``ttl`` (CachePointBlock)."""
    ledger.rest(block, path, {"cachePoint"})
    point = obj(block.get("cachePoint"))
    ledger.rest(point, f"{path}.cachePoint", {"type", "ttl"})
    if point.get("type") != "default":
        ledger.note(
            f"{path}.cachePoint.type", f"cache point type {show(point.get('type'))} not representable"
        )
    ttl = point.get("ttl")
    return CacheBreakpoint(ttl=ttl if isinstance(ttl, str) else None)


def _ends_cache(items: list[Any], bp: CacheBreakpoint, path: str, ledger: Ledger) -> None:
    """The breakpoint on the item the cache point follows (the last one read); none: named."""
    if not items or getattr(items[-1], "cache_breakpoint", "absent") is not None:
        ledger.note(path, "a cache point with no block of its own before it not representable")
        return
    items[-1] = items[-1].model_copy(update={"cache_breakpoint": bp})


def _image(block: Json, path: str, ledger: Ledger) -> ImageURLPart | FilePart | None:
    """Bytes become a data URL; an ``s3Location`` image is a file part (a cloud URI)."""
    image = obj(block.get("image"))
    ledger.rest(image, f"{path}.image", {"format", "source"})
    source = obj(image.get("source"))
    s3 = obj(source.get("s3Location"))
    if s3:
        ledger.rest(source, f"{path}.image.source", {"s3Location"})
        ledger.rest(s3, f"{path}.image.source.s3Location", {"uri"})
        return FilePart(media_type=f"image/{image.get('format')}", uri=str(s3.get("uri", "")))
    if "bytes" not in source:
        ledger.note(
            f"{path}.image.source", f"image source {show(source)} not representable (bytes or s3Location)"
        )
        return None
    ledger.rest(source, f"{path}.image.source", {"bytes"})
    return ImageURLPart(url=f"data:image/{image.get('format')};base64,{source.get('bytes')}")


#: DocumentBlock / VideoBlock ``format`` -> media type (the service model's enums).
_FORMATS: dict[str, dict[str, str]] = {
    "document": {
        "pdf": "application/pdf",
        "csv": "text/csv",
        "doc": "application/msword",
        "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "xls": "application/vnd.ms-excel",
        "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "html": "text/html",
        "txt": "text/plain",
        "md": "text/markdown",
    },
    "video": {
        "mkv": "video/x-matroska",
        "mov": "video/quicktime",
        "mp4": "video/mp4",
        "webm": "video/webm",
        "flv": "video/x-flv",
        "mpeg": "video/mpeg",
        "mpg": "video/mpeg",
        "wmv": "video/x-ms-wmv",
        "three_gp": "video/3gpp",
    },
}


def _file(block: Json, kind: str, path: str, ledger: Ledger) -> FilePart | None:
    """A ``document`` (name kept as the title; ``context``, ``citations``; by bytes, ``s3Location``
    or its own text blocks, ``source.content``) or ``video`` block (bytes or ``s3Location``)."""
    inner = obj(block.get(kind))
    at = f"{path}.{kind}"
    document: set[str] = {"name", "context", "citations"} if kind == "document" else set()
    ledger.rest(inner, at, {"format", "source"} | document)
    fmt = str(inner.get("format", ""))
    # A media type where the enum value belongs (pydantic-ai sent "video/mp4", accepted): that type.
    media = _FORMATS[kind].get(fmt) or (fmt if fmt in _FORMATS[kind].values() else None)
    if media is None:
        ledger.note(f"{at}.format", f"{kind} format {show(fmt)} not representable")
        return None
    title = inner.get("name") if isinstance(inner.get("name"), str) else None
    options = (
        document_options(inner, at, ledger, title) if kind == "document" else DocumentOptions(title=title)
    )
    source = obj(inner.get("source"))
    s3 = obj(source.get("s3Location"))
    if s3:
        ledger.rest(source, f"{at}.source", {"s3Location"})
        ledger.rest(s3, f"{at}.source.s3Location", {"uri"})
        return FilePart(media_type=media, uri=str(s3.get("uri", "")), **options)
    if kind == "document" and "content" in source and media == "text/plain":
        ledger.rest(source, f"{at}.source", {"content"})
        texts: list[str] = []
        for i, item in enumerate(map(obj, arr(source.get("content")))):
            ledger.rest(item, f"{at}.source.content[{i}]", {"text"})
            texts.append(str(item.get("text", "")))
        if texts:
            return chunked_document(texts, options)
    ledger.rest(source, f"{at}.source", {"bytes"})
    return FilePart(media_type=media, data=str(source.get("bytes", "")), **options)


def _assistant(
    blocks: list[Any], path: str, model: str | None, calls: Calls, ledger: Ledger
) -> AssistantMessage:
    parts: list[AnyPart] = []
    for i, block in enumerate(map(obj, blocks)):
        at = f"{path}[{i}]"
        if "text" in block:
            ledger.rest(block, at, {"text"})
            parts.append(TextPart(text=str(block["text"])))
        elif "reasoningContent" in block:
            ledger.rest(block, at, {"reasoningContent"})
            reasoning = obj(block["reasoningContent"])
            ledger.rest(reasoning, f"{at}.reasoningContent", {"reasoningText", "redactedContent"})
            if "reasoningText" in reasoning:
                text = obj(reasoning["reasoningText"])
                ledger.rest(text, f"{at}.reasoningContent.reasoningText", {"text", "signature"})
                parts.append(ThinkingTextPart(text=str(text.get("text", "")), model_id=model))
                if text.get("signature"):
                    parts.append(
                        ThinkingSignaturePart(
                            signature=str(text["signature"]), format="bedrock", model_id=model
                        )
                    )
            if "redactedContent" in reasoning:
                parts.append(
                    ThinkingSignaturePart(
                        signature=str(reasoning["redactedContent"]), format="bedrock-redacted", model_id=model
                    )
                )
        elif "toolUse" in block and obj(block["toolUse"]).get("type") == "server_tool_use":
            # A system tool's call (Nova code interpreter), kept whole with its result block.
            use = obj(block["toolUse"])
            call_id, name = str(use.get("toolUseId", "")), str(use.get("name", ""))
            calls.names[call_id] = name
            parts.append(call_part(call_id, name, "bedrock", use.get("input", {}), block))
        elif "toolResult" in block:  # in an assistant turn: a system tool's result
            result = obj(block["toolResult"])
            call_id = str(result.get("toolUseId", ""))
            status = "error" if result.get("status") == "error" else "success"
            parts.append(result_part(call_id, calls.name(call_id), "bedrock", status, block))
        elif "cachePoint" in block:
            _ends_cache(cast(list[Any], parts), _cache_point(block, at, ledger), at, ledger)
        elif "toolUse" in block:
            ledger.rest(block, at, {"toolUse"})
            use = obj(block["toolUse"])
            ledger.rest(use, f"{at}.toolUse", {"toolUseId", "name", "input"})
            parts.append(
                calls.call(str(use.get("toolUseId", "")), str(use.get("name", "")), use.get("input", {}))
            )
        else:
            ledger.note(at, f"assistant block {show(sorted(block))} not representable")
    return AssistantMessage(parts=parts)


def _tool_result(block: Json, path: str, calls: Calls, ledger: Ledger) -> ToolResultMessage:
    result = obj(block.get("toolResult"))
    ledger.rest(result, f"{path}.toolResult", {"toolUseId", "content", "status"}, {"status": "success"})
    texts: list[str] = []
    images: list[ImageURLPart | FilePart] = []
    positions: list[int] = []  # the text blocks before each image or file
    structured: Any = None
    for i, item in enumerate(map(obj, arr(result.get("content")))):
        at = f"{path}.toolResult.content[{i}]"
        if "text" in item:
            ledger.rest(item, at, {"text"})
            texts.append(str(item["text"]))
        elif "json" in item and structured is None:
            ledger.rest(item, at, {"json"})
            structured = item["json"]
        elif "image" in item:
            ledger.rest(item, at, {"image"})
            image = _image(item, at, ledger)
            if image is not None:
                images.append(image)
                positions.append(len(texts))
        elif "document" in item or "video" in item:
            kind = "document" if "document" in item else "video"
            ledger.rest(item, at, {kind})
            file = _file(item, kind, at, ledger)
            if file is not None:
                images.append(file)
                positions.append(len(texts))
        else:
            ledger.note(at, f"toolResult content {show(sorted(item))} not representable")
    call_id = str(result.get("toolUseId", ""))
    text, blocks = joined_blocks(texts)
    if structured is not None and not texts:
        text = json.dumps(structured, ensure_ascii=False)  # the value's text, for text-only providers
    return ToolResultMessage(
        call_id=call_id,
        tool_name=calls.name(call_id),
        status="error" if result.get("status") == "error" else "success",
        output_text=text,
        output_json=structured,
        text_blocks=blocks,
        parts=list(images),
        part_positions=part_positions(positions, texts),
    )


def history(body: Json, model: str | None, ledger: Ledger) -> list[HistoryEvent]:
    """System blocks first, then messages in order; a user turn's toolResult blocks become tool
    messages before its other content."""
    out: list[HistoryEvent] = []
    system: list[TextPart] = []
    for i, block in enumerate(map(obj, ledger.items(body.get("system"), "system"))):
        if "text" in block:
            ledger.rest(block, f"system[{i}]", {"text"})
            system.append(TextPart(text=str(block["text"])))
        elif "cachePoint" in block:
            _ends_cache(
                cast(list[Any], system), _cache_point(block, f"system[{i}]", ledger), f"system[{i}]", ledger
            )
        else:
            ledger.note(f"system[{i}]", f"system block {show(sorted(block))} not representable")
    if system:
        out.append(SystemMessage(parts=system))
    calls = Calls()
    for m, raw in enumerate(ledger.items(body.get("messages"), "messages")):
        message, path = obj(raw), f"messages[{m}]"
        ledger.rest(message, path, {"role", "content"})
        blocks, role = arr(message.get("content")), message.get("role")
        if role == "assistant":
            out.append(_assistant(blocks, f"{path}.content", model, calls, ledger))
            continue
        if role != "user":
            ledger.note(path, f"message role {show(role)} not representable")
            continue
        user: list[ContentPart] = []
        last_is_result = False
        for i, block in enumerate(map(obj, blocks)):
            at = f"{path}.content[{i}]"
            if "cachePoint" in block:
                bp = _cache_point(block, at, ledger)
                _ends_cache(cast(list[Any], out if last_is_result else user), bp, at, ledger)
                continue
            last_is_result = "toolResult" in block
            if "text" in block:
                ledger.rest(block, at, {"text"})
                user.append(TextPart(text=str(block["text"])))
            elif "image" in block:
                ledger.rest(block, at, {"image"})
                image = _image(block, at, ledger)
                if image is not None:
                    user.append(image)
            elif "document" in block or "video" in block:
                kind = "document" if "document" in block else "video"
                ledger.rest(block, at, {kind})
                file = _file(block, kind, at, ledger)
                if file is not None:
                    user.append(file)
            elif "toolResult" in block:
                ledger.rest(block, at, {"toolResult"})
                out.append(_tool_result(block, at, calls, ledger))
            else:
                ledger.note(at, f"user block {show(sorted(block))} not representable")
        if user:
            out.append(UserMessage(parts=user))
    return out


def _tools(config: Json, ledger: Ledger) -> tuple[list[ToolSpec], ToolChoice | None, list[ServerToolSpec]]:
    ledger.rest(config, "toolConfig", {"tools", "toolChoice"})
    tools: list[ToolSpec] = []
    servers: list[ServerToolSpec] = []
    for i, raw in enumerate(map(obj, ledger.items(config.get("tools"), "toolConfig.tools"))):
        path = f"toolConfig.tools[{i}]"
        if "systemTool" in raw and len(raw) == 1:  # a tool Bedrock runs (nova_code_interpreter ...)
            name = str(obj(raw["systemTool"]).get("name", ""))
            kind = "code_execution" if "code_interpreter" in name else name
            servers.append(server_tool(kind, "bedrock", raw, i))
            continue
        if "cachePoint" in raw:
            _ends_cache(cast(list[Any], tools), _cache_point(raw, path, ledger), path, ledger)
            continue
        ledger.rest(raw, path, {"toolSpec"})
        spec = obj(raw.get("toolSpec"))
        ledger.rest(spec, f"{path}.toolSpec", {"name", "description", "inputSchema", "strict"})
        schema = obj(spec.get("inputSchema"))
        ledger.rest(schema, f"{path}.toolSpec.inputSchema", {"json"})
        strict = spec.get("strict")
        tools.append(
            ToolSpec(
                name=str(spec.get("name", "")),
                description=str(spec.get("description") or ""),
                parameters=obj(schema.get("json")),
                strict=strict if isinstance(strict, bool) else None,
            )
        )
    choice = obj(config.get("toolChoice"))
    ledger.rest(choice, "toolConfig.toolChoice", {"auto", "any", "tool"})
    if "tool" in choice:
        return tools, ForcedTool(name=str(obj(choice["tool"]).get("name", ""))), servers
    return tools, "required" if "any" in choice else None, servers


def params(body: Json, uri: str | None, ledger: Ledger) -> CallParams:
    ledger.rest(body, "", KNOWN | consumed("bedrock"))
    model, streamed = model_from_uri(uri)
    inference = obj(body.get("inferenceConfig"))
    ledger.rest(
        inference, "inferenceConfig", {"maxTokens", "temperature"} | consumed("bedrock", "inferenceConfig")
    )
    extra = obj(body.get("additionalModelRequestFields"))
    adaptive = obj(extra.get("thinking")).get("type") == "adaptive"
    ledger.rest(
        extra,
        "additionalModelRequestFields",
        {"thinking", "reasoning_effort", "reasoning_config", "top_k", "inferenceConfig"}
        | ({"output_config"} if adaptive else set()),
    )
    top_k = _top_k(extra, ledger)
    thinking: ThinkingParams | None = None
    config = obj(extra.get("thinking"))
    if config:
        ledger.rest(config, "additionalModelRequestFields.thinking", {"type", "budget_tokens"})
        level = obj(extra.get("output_config")) if adaptive else {}
        ledger.rest(level, "additionalModelRequestFields.output_config", {"effort"})
        if config.get("type") not in ("enabled", "disabled", "adaptive"):
            kind = show(config.get("type"))
            ledger.note(
                "additionalModelRequestFields.thinking.type", f"thinking type {kind} not representable"
            )
        thinking = ThinkingParams(
            enabled=config.get("type") != "disabled",
            budget_tokens=config.get("budget_tokens"),
            adaptive=True if adaptive else None,
            effort=effort(level.get("effort"), "additionalModelRequestFields.output_config.effort", ledger),
        )
    for key in ("reasoning_effort", "reasoning_config"):
        if key in extra:
            thinking = ThinkingParams(
                effort=effort(extra[key], f"additionalModelRequestFields.{key}", ledger)
            )
    tools, choice, servers = (
        _tools(obj(body.get("toolConfig")), ledger) if "toolConfig" in body else ([], None, [])
    )
    return CallParams(
        model=model,
        tools=tools or None,
        server_tools=servers or None,
        tool_choice=choice,
        output_format=_output_format(obj(body.get("outputConfig")), ledger),
        max_tokens=inference.get("maxTokens"),
        thinking=thinking,
        temperature=inference.get("temperature"),
        stream=streamed,
        top_k=top_k,
        **read_controls(body, "bedrock", ledger),
    )


def _output_format(config: Json, ledger: Ledger) -> OutputFormat | None:
    """Converse's structured output: ``outputConfig.textFormat`` of type ``json_schema``, whose
    ``structure.jsonSchema.schema`` is the JSON Schema as a string (botocore JsonSchemaDefinition)."""
    if not config:
        return None
    ledger.rest(config, "outputConfig", {"textFormat"})
    text_format = obj(config.get("textFormat"))
    ledger.rest(text_format, "outputConfig.textFormat", {"type", "structure"})
    if text_format.get("type") != "json_schema":
        ledger.note("outputConfig.textFormat.type", f"{show(text_format.get('type'))} not representable")
        return None
    structure = obj(text_format.get("structure"))
    ledger.rest(structure, "outputConfig.textFormat.structure", {"jsonSchema"})
    definition = obj(structure.get("jsonSchema"))
    at = "outputConfig.textFormat.structure.jsonSchema"
    ledger.rest(definition, at, {"schema", "name", "description"})
    try:
        schema = json.loads(str(definition.get("schema")))
    except ValueError:
        ledger.note(f"{at}.schema", "not a JSON document")
        return None
    if not isinstance(schema, dict):
        ledger.note(f"{at}.schema", f"expected a JSON Schema object, got {show(schema)}")
        return None
    name, description = definition.get("name"), definition.get("description")
    return OutputFormat(
        json_schema=cast(dict[str, Any], schema),
        name=name if isinstance(name, str) else None,
        description=description if isinstance(description, str) else None,
    )


def _top_k(extra: Json, ledger: Ledger) -> int | None:
    """A model's own ``top_k`` field (Anthropic ``top_k``, Nova ``inferenceConfig.topK``)."""
    nova = obj(extra.get("inferenceConfig"))
    ledger.rest(nova, "additionalModelRequestFields.inferenceConfig", {"topK"})
    value = extra.get("top_k", nova.get("topK"))
    if value is None or (isinstance(value, int) and not isinstance(value, bool) and value >= 0):
        return value
    ledger.note("additionalModelRequestFields.top_k", f"top_k {show(value)} not representable")
    return None
