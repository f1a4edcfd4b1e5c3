"""Gemini ``generateContent`` request body (plus its URL, which holds the model) -> canonical history and params."""

from __future__ import annotations

import json
import posixpath
import re
from typing import Any, Literal
from urllib.parse import urlsplit

from harness.contract.gemini_names import camel
from harness.contract.server_items import GEMINI_SERVER_PARTS, gemini_server_part
from harness.importer.common import Calls, Json, Ledger, arr, obj, show
from harness.importer.controls import consumed, read_controls
from harness.importer.gemini_schema import json_schema_of
from harness.importer.server_parts import server_tool
from harness.model import (
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
from harness.oracles.normalise import normalise_body
from harness.params import (
    CallParams,
    ForcedTool,
    OutputFormat,
    ServerToolSpec,
    ThinkingParams,
    ToolChoice,
    ToolSpec,
)

KNOWN = {"contents", "systemInstruction", "tools", "toolConfig", "generationConfig"}
CONFIG_KNOWN = {
    "maxOutputTokens",
    "temperature",
    "thinkingConfig",
    "responseMimeType",
    "responseJsonSchema",
    "responseSchema",
}
CONFIG_DEFAULTS: Json = {"responseModalities": ["TEXT"]}
_LEVELS: dict[str, Literal["minimal", "low", "medium", "high"]] = {
    "MINIMAL": "minimal",
    "LOW": "low",
    "MEDIUM": "medium",
    "HIGH": "high",
}


#: Image types an image URL's extension implies: a ``fileData.mimeType`` equal to it is carried by the URL.
_IMAGE_EXTENSIONS = {
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".gif": "image/gif",
    ".webp": "image/webp",
    ".heic": "image/heic",
    ".heif": "image/heif",
}


def _implied_mime(url: str) -> str | None:
    return _IMAGE_EXTENSIONS.get(posixpath.splitext(urlsplit(url).path)[1].lower())


def _is_image(mime: Any) -> bool:
    return isinstance(mime, str) and mime.lower().startswith("image/")


#: A Files API file's URI (``files.get``): read back as that provider's file id ``files/<id>``.
_FILES_API = re.compile(r"https://generativelanguage\.googleapis\.com/v1beta/(files/[^/?#]+)\Z")


def _file_data(uri: str, mime: str) -> FilePart:
    """A ``fileData`` reference: a Files API URI is a Gemini file id, ``gs://`` a cloud URI, else a URL."""
    found = _FILES_API.match(uri)
    if found is not None:
        return FilePart(media_type=mime, file_id=found.group(1), provider="gemini")
    if "://" in uri and not uri.lower().startswith(("http://", "https://")):
        return FilePart(media_type=mime, uri=uri)
    return FilePart(media_type=mime, url=uri)


def _content_part(part: Json, path: str, ledger: Ledger) -> ContentPart | None:
    if "text" in part:
        ledger.rest(part, path, {"text"})
        return TextPart(text=str(part["text"]))
    inline = camel(obj(part.get("inlineData")))
    video = part.get("videoMetadata")
    meta: dict[str, Any] | None = dict(obj(video)) if isinstance(video, dict) else None
    if inline:
        if not _is_image(inline.get("mimeType")):
            ledger.rest(part, path, {"inlineData", "videoMetadata"})
            ledger.rest(inline, f"{path}.inlineData", {"mimeType", "data"})
            file = FilePart(media_type=str(inline.get("mimeType")), data=str(inline.get("data", "")))
            return file.model_copy(update={"video_metadata": meta})
        ledger.rest(part, path, {"inlineData"})
        ledger.rest(inline, f"{path}.inlineData", {"mimeType", "data"})
        return ImageURLPart(url=f"data:{inline.get('mimeType')};base64,{inline.get('data')}")
    file_data = camel(obj(part.get("fileData")))
    if file_data:
        uri = str(file_data.get("fileUri", ""))
        mime = file_data.get("mimeType") or _implied_mime(uri)
        if mime is not None and (not _is_image(mime) or mime != _implied_mime(uri)):
            ledger.rest(part, path, {"fileData", "videoMetadata"})
            ledger.rest(file_data, f"{path}.fileData", {"fileUri", "mimeType"})
            return _file_data(uri, str(mime)).model_copy(update={"video_metadata": meta})
        ledger.rest(part, path, {"fileData"})
        ledger.rest(file_data, f"{path}.fileData", {"fileUri"}, {"mimeType": _implied_mime(uri)})
        return ImageURLPart(url=uri)
    ledger.note(path, f"part with keys {sorted(part)} not representable")
    return None


def _model_parts(
    raw_parts: list[Any], recorded: list[Any], path: str, model: str | None, calls: Calls, ledger: Ledger
) -> list[AnyPart]:
    """Model parts; a part's ``thoughtSignature`` becomes a ``google`` signature part right after it.
    ``recorded``: the same parts as sent (before the schema reading renamed snake_case keys)."""
    parts: list[AnyPart] = []
    for i, raw in enumerate(map(obj, raw_parts)):
        part, at = camel(raw), f"{path}[{i}]"
        signature = part.pop("thoughtSignature", None)
        call = camel(obj(part.get("functionCall")))
        server = next((key for key in GEMINI_SERVER_PARTS if key in part), None)
        if server is not None:
            sent = {k: v for k, v in obj(recorded[i] if i < len(recorded) else part).items()}
            sent.pop("thoughtSignature", None)
            sent.pop("thought_signature", None)
            parts.append(gemini_server_part(server, camel(obj(part.get(server))), sent, calls.names))
        elif call:
            ledger.rest(part, at, {"functionCall"})
            ledger.rest(call, f"{at}.functionCall", {"id", "name", "args"})
            if not call.get("id"):
                ledger.note(
                    f"{at}.functionCall.id", "absent: the canonical call id is required (none invented)"
                )
            parts.append(
                calls.call(str(call.get("id") or ""), str(call.get("name", "")), call.get("args", {}))
            )
        elif part.get("thought") and "text" in part:
            ledger.rest(part, at, {"thought", "text"})
            parts.append(ThinkingTextPart(text=str(part["text"]), model_id=model))
        else:
            content = _content_part(part, at, ledger)
            if content is not None:
                parts.append(content)
        if signature:
            parts.append(ThinkingSignaturePart(signature=str(signature), format="google", model_id=model))
    return parts


#: Gemini tool entries the provider runs itself (https://ai.google.dev/gemini-api/docs/google-search,
#: code-execution, url-context, file-search), and the model parts of its server-side invocations
#: (``toolCall`` / ``toolResponse`` with ``includeServerSideToolInvocations``; code execution's
#: ``executableCode`` / ``codeExecutionResult``).
SERVER_TOOL_KEYS = {
    "googleSearch",
    "googleSearchRetrieval",
    "codeExecution",
    "urlContext",
    "fileSearch",
    "googleMaps",
    "computerUse",
    "enterpriseWebSearch",
}


def _tool_result(response: Json, path: str, ledger: Ledger) -> ToolResultMessage:
    """``response`` is free-form JSON. A lone ``output`` / ``error`` string is the text (``error``:
    status error); any other object is the structured value (``output_json``, the object itself,
    as the adapter sends it back), its text the object's JSON. ``parts``: images and files."""
    ledger.rest(response, path, {"id", "name", "response", "parts"})
    payload = obj(response.get("response"))
    status: Literal["success", "error"] = "success"
    structured: Any = payload
    text = json.dumps(payload, ensure_ascii=False) if payload else ""
    if len(payload) == 1 and next(iter(payload)) in ("output", "error", "return_value", "result"):
        key, value = next(iter(payload.items()))
        status = "error" if key == "error" else "success"
        if isinstance(value, str):
            structured, text = None, value
    images: list[ImageURLPart | FilePart] = []
    for i, raw in enumerate(map(obj, arr(response.get("parts")))):
        image = _content_part(camel(raw), f"{path}.parts[{i}]", ledger)
        if isinstance(image, ImageURLPart | FilePart):
            images.append(image)
        elif image is not None:
            ledger.note(f"{path}.parts[{i}]", "text part in a function response not representable")
    if not response.get("id"):
        ledger.note(f"{path}.id", "absent: the canonical call id is required (none invented)")
    return ToolResultMessage(
        call_id=str(response.get("id") or ""),
        tool_name=str(response.get("name") or ""),
        status=status,
        output_text=text,
        output_json=structured,
        parts=list(images),
    )


def history(body: Json, model: str | None, ledger: Ledger) -> list[HistoryEvent]:
    recorded = arr(body.get("contents"))  # server parts are kept as sent, spelling included
    body = normalise_body("gemini", body)  # the schema oracle's reading: snake_case names too
    out: list[HistoryEvent] = []
    system = obj(body.get("systemInstruction"))
    if system:
        ledger.rest(system, "systemInstruction", {"parts", "role"})
        texts: list[TextPart] = []
        for i, part in enumerate(map(obj, arr(system.get("parts")))):
            content = _content_part(part, f"systemInstruction.parts[{i}]", ledger)
            if isinstance(content, TextPart):
                texts.append(content)
        out.append(SystemMessage(parts=texts))
    calls = Calls()
    for c, raw in enumerate(map(obj, ledger.items(body.get("contents"), "contents"))):
        path = f"contents[{c}]"
        ledger.rest(raw, path, {"role", "parts"})
        if raw.get("role") == "model":
            out.append(
                AssistantMessage(
                    parts=_model_parts(
                        arr(raw.get("parts")),
                        arr(obj(recorded[c] if c < len(recorded) else {}).get("parts")),
                        f"{path}.parts",
                        model,
                        calls,
                        ledger,
                    )
                )
            )
            continue
        user: list[ContentPart] = []
        for i, part in enumerate(map(camel, map(obj, arr(raw.get("parts"))))):
            at = f"{path}.parts[{i}]"
            response = camel(obj(part.get("functionResponse")))
            if response:
                ledger.rest(part, at, {"functionResponse"})
                out.append(_tool_result(response, f"{at}.functionResponse", ledger))
            else:
                content = _content_part(part, at, ledger)
                if content is not None:
                    user.append(content)
        if user:
            out.append(UserMessage(parts=user))
    return out


def model_from_uri(uri: str | None) -> tuple[str | None, bool]:
    """``.../models/M:streamGenerateContent`` -> (M, True); the body itself names no model."""
    match = re.search(r"models/([^:/?]+):(stream)?[gG]enerateContent", uri or "")
    return (match.group(1), match.group(2) is not None) if match else (None, False)


def _invocations(value: Any) -> bool | None:
    """``toolConfig.includeServerSideToolInvocations``: the server tools' calls and responses as parts."""
    flag = camel(obj(value)).get("includeServerSideToolInvocations")
    return flag if isinstance(flag, bool) else None


def _tool_choice(value: Any, ledger: Ledger) -> tuple[ToolChoice | None, list[str] | None]:
    """``functionCallingConfig.mode``: AUTO (the default) is None, NONE none, ANY required, VALIDATED
    validated, and ANY with one ``allowedFunctionNames`` forces it; several names with ANY or
    VALIDATED are the allowed subset. Other keys are named."""
    if value is None:
        return None, None
    config = camel(obj(value))
    ledger.rest(config, "toolConfig", {"functionCallingConfig", "includeServerSideToolInvocations"})
    calling = camel(obj(config.get("functionCallingConfig")))
    ledger.rest(calling, "toolConfig.functionCallingConfig", {"mode", "allowedFunctionNames"})
    mode, names = str(calling.get("mode", "AUTO")).upper(), arr(calling.get("allowedFunctionNames"))
    if mode == "ANY" and len(names) == 1 and isinstance(names[0], str):
        return ForcedTool(name=names[0]), None
    if not names and mode in ("AUTO", "NONE", "ANY", "VALIDATED"):
        modes: dict[str, ToolChoice | None] = {
            "AUTO": None,
            "NONE": "none",
            "ANY": "required",
            "VALIDATED": "validated",
        }
        return modes[mode], None
    if mode in ("ANY", "VALIDATED") and all(isinstance(n, str) for n in names):
        return ("required" if mode == "ANY" else "validated"), [str(n) for n in names]
    ledger.note("toolConfig.functionCallingConfig", f"not representable ({show(calling)})")
    return None, None


def _output_format(config: Json, ledger: Ledger) -> OutputFormat | None:
    """``responseMimeType: application/json`` with an optional ``responseJsonSchema``; text/plain is the default."""
    mime, schema = config.get("responseMimeType"), config.get("responseJsonSchema")
    if "responseSchema" in config:  # Gemini's own Schema form, read as the JSON Schema it equals
        if schema is not None:
            ledger.note("generationConfig.responseSchema", "beside responseJsonSchema not representable")
            return None
        schema = json_schema_of(config["responseSchema"], "generationConfig.responseSchema", ledger)
        if schema is None:
            return None
    if mime in (None, "text/plain") and schema is None:
        return None
    if mime != "application/json":
        ledger.note(
            "generationConfig.responseMimeType", f"{show(mime)} not representable (only application/json)"
        )
        return None
    return OutputFormat(json_schema=obj(schema) if schema is not None else None)


def params(body: Json, uri: str | None, ledger: Ledger) -> CallParams:
    recorded = arr(body.get("tools"))  # server tools are kept as sent, spelling included
    body = normalise_body("gemini", body)  # the schema oracle's reading: snake_case names too
    ledger.rest(body, "", KNOWN | consumed("gemini"))
    model, stream = model_from_uri(uri)
    specs: list[ToolSpec] = []
    servers: list[ServerToolSpec] = []
    for t, tool in enumerate(map(camel, map(obj, ledger.items(body.get("tools"), "tools")))):
        server = next((key for key in tool if key in SERVER_TOOL_KEYS), None)
        if server is not None and len(tool) == 1:  # a provider-executed tool, kept whole
            servers.append(server_tool(server, "gemini", obj(recorded[t]) if t < len(recorded) else tool, t))
            continue
        ledger.rest(tool, f"tools[{t}]", {"functionDeclarations"})
        for d, raw in enumerate(map(camel, map(obj, arr(tool.get("functionDeclarations"))))):
            at = f"tools[{t}].functionDeclarations[{d}]"
            ledger.rest(raw, at, {"name", "description", "parametersJsonSchema", "parameters"})
            schema = raw.get("parametersJsonSchema")
            if "parameters" in raw:  # Gemini's own Schema form, read as the JSON Schema it equals
                if schema is not None:
                    ledger.note(f"{at}.parameters", "beside parametersJsonSchema not representable")
                else:
                    schema = json_schema_of(raw["parameters"], f"{at}.parameters", ledger)
            specs.append(
                ToolSpec(
                    name=str(raw.get("name", "")),
                    description=str(raw.get("description") or ""),
                    parameters=obj(schema) if schema is not None else {"type": "object", "properties": {}},
                )
            )
    config = camel(obj(body.get("generationConfig")))
    ledger.rest(
        config, "generationConfig", CONFIG_KNOWN | consumed("gemini", "generationConfig"), CONFIG_DEFAULTS
    )
    thinking: ThinkingParams | None = None
    thinking_config = camel(obj(config.get("thinkingConfig")))
    if thinking_config:
        ledger.rest(
            thinking_config,
            "generationConfig.thinkingConfig",
            {"thinkingBudget", "thinkingLevel", "includeThoughts"},
        )
        budget, level = thinking_config.get("thinkingBudget"), thinking_config.get("thinkingLevel")
        if level is not None and str(level).upper() not in _LEVELS:
            ledger.note(
                "generationConfig.thinkingConfig.thinkingLevel", f"level {show(level)} not representable"
            )
        thinking = (
            ThinkingParams(enabled=False)
            if budget == 0
            else ThinkingParams(
                budget_tokens=budget if isinstance(budget, int) and budget >= 0 else None,
                effort=_LEVELS.get(str(level).upper()),
                include_thoughts=bool(thinking_config.get("includeThoughts")),
            )
        )
        if isinstance(budget, int) and budget < 0:
            ledger.note(
                "generationConfig.thinkingConfig.thinkingBudget", f"dynamic budget {budget} not representable"
            )
    choice, allowed = _tool_choice(body.get("toolConfig"), ledger)
    return CallParams(
        model=model,
        tools=specs or None,
        server_tools=servers or None,
        server_tool_invocations=_invocations(body.get("toolConfig")),
        tool_choice=choice,
        allowed_tools=allowed,
        output_format=_output_format(config, ledger),
        max_tokens=config.get("maxOutputTokens"),
        thinking=thinking,
        temperature=config.get("temperature"),
        stream=stream,
        **read_controls({**body, "generationConfig": config}, "gemini", ledger),
    )
