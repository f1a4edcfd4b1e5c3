"""OpenAI Chat Completions request body (OpenAI's, OpenRouter's or a dialect's) -> canonical history and params."""

from __future__ import annotations

from typing import Any

from harness.contract.providers import ChatDialect, provider_entry
from harness.contract.sources import responses_annotation
from harness.importer.common import (
    Calls,
    Json,
    Ledger,
    arr,
    chat_system,
    chat_texts,
    chat_user,
    effort,
    obj,
    openai_output_format,
    openai_tool_choice,
    show,
    tool_spec,
)
from harness.importer.controls import consumed, read_controls
from harness.importer.server_parts import server_tool
from harness.model import (
    AnyPart,
    AssistantMessage,
    HistoryEvent,
    SystemMessage,
    TextPart,
    ThinkingSignaturePart,
    ThinkingTextPart,
    ToolResultMessage,
    UserMessage,
)
from harness.params import CallParams, ForcedTool, OutputFormat, ServerToolSpec, ThinkingParams, ToolChoice

KNOWN = {
    "model",
    "messages",
    "tools",
    "tool_choice",
    "response_format",
    "max_tokens",
    "max_completion_tokens",
    "temperature",
    "stream",
    "web_search_options",
}
#: Values equal to the API default are represented by their absence.
DEFAULTS: Json = {"tool_choice": "auto", "stream": False, "stream_options": {"include_usage": True}, "n": 1}


def _reasoning_details(details: list[Any], path: str, model: str | None, ledger: Ledger) -> list[AnyPart]:
    """OpenRouter ``reasoning_details`` -> thinking text / signature parts in order, each with its ``format``."""
    parts: list[AnyPart] = []
    for i, detail in enumerate(map(obj, details)):
        at = f"{path}[{i}]"
        kind, fmt, part_id = detail.get("type"), detail.get("format"), detail.get("id")
        if kind == "reasoning.text":
            ledger.rest(detail, at, {"type", "format", "id", "text", "signature", "index"})
            parts.append(ThinkingTextPart(id=part_id, text=str(detail.get("text") or ""), model_id=model))
            if detail.get("signature"):
                parts.append(
                    ThinkingSignaturePart(signature=str(detail["signature"]), format=fmt, model_id=model)
                )
        elif kind == "reasoning.summary":
            ledger.rest(detail, at, {"type", "format", "id", "summary", "index"})
            parts.append(ThinkingTextPart(id=part_id, text=str(detail.get("summary") or ""), model_id=model))
        elif kind == "reasoning.encrypted":
            ledger.rest(detail, at, {"type", "format", "id", "data", "index"})
            parts.append(
                ThinkingSignaturePart(
                    id=part_id, signature=str(detail.get("data", "")), format=fmt, model_id=model
                )
            )
        else:
            ledger.note(at, f"reasoning detail type {show(kind)} not representable")
    return parts


def _dialect(provider: str) -> ChatDialect | None:
    """How a Chat Completions dialect departs from OpenAI's (None: OpenAI's own, or OpenRouter)."""
    return provider_entry(provider).chat


def _details(provider: str) -> bool:
    """Whether the provider's Chat reasoning is signed: OpenRouter's ``reasoning_details`` on
    assistant messages, switched by a ``reasoning`` object."""
    return bool(provider_entry(provider).signature_formats)


def history(body: Json, provider: str, ledger: Ledger) -> list[HistoryEvent]:
    out: list[HistoryEvent] = []
    model = body.get("model") if isinstance(body.get("model"), str) else None
    calls = Calls()
    for m, raw in enumerate(ledger.items(body.get("messages"), "messages")):
        message, path = obj(raw), f"messages[{m}]"
        role, content = message.get("role"), message.get("content")
        if role in ("system", "developer"):
            ledger.rest(message, path, {"role", "content"})
            if provider == "openrouter":
                out.append(SystemMessage(parts=chat_system(content, f"{path}.content", ledger)))
            else:
                texts = chat_texts(content, f"{path}.content", ledger)
                out.append(SystemMessage(parts=[TextPart(text=t) for t in texts]))
        elif role == "user":
            # null name / tool_calls on a user turn (huggingface_hub's ChatCompletionInputMessage
            # serialises every optional field) are the fields absent
            ledger.rest(message, path, {"role", "content"}, {"name": None, "tool_calls": None})
            cached = provider == "openrouter"
            out.append(UserMessage(parts=chat_user(content, f"{path}.content", ledger, cached=cached)))
        elif role == "assistant":
            known = {"role", "content", "tool_calls"}
            if _details(provider):
                known |= {"reasoning_details", "reasoning"}
            if _dialect(provider) is not None:
                known.add("reasoning_content")
            # null name: absent, as on user turns; Mistral's prefix false is its default (a turn
            # the model continues is prefix true, on the last message only); a response's
            # ``refusal: null`` echoed back is no refusal; ``annotations`` are the sources of the
            # message's text (url_citation ...), none when empty
            known.add("annotations")
            ledger.rest(message, path, known, {"name": None, "prefix": False, "refusal": None})
            parts: list[AnyPart] = _reasoning_details(
                arr(message.get("reasoning_details")), f"{path}.reasoning_details", model, ledger
            )
            reasoning = message.get("reasoning_content") if _dialect(provider) is not None else None
            if isinstance(reasoning, str) and reasoning:  # "" marks a turn whose reasoning was not kept
                parts.append(ThinkingTextPart(text=reasoning, model_id=model))
            parts.extend(TextPart(text=t) for t in chat_texts(content, f"{path}.content", ledger))
            parts += _annotations(message.get("annotations"), f"{path}.annotations", provider, parts, ledger)
            for c, raw_call in enumerate(map(obj, arr(message.get("tool_calls")))):
                at = f"{path}.tool_calls[{c}]"
                # mistralai's ToolCall.index defaults to 0 and its SDK sends it: that default is absence
                ledger.rest(
                    raw_call, at, {"id", "type", "function"}, {"index": 0} if provider == "mistral" else None
                )
                function = obj(raw_call.get("function"))
                ledger.rest(function, f"{at}.function", {"name", "arguments"})
                parts.append(
                    calls.call(
                        str(raw_call.get("id", "")),
                        str(function.get("name", "")),
                        function.get("arguments", ""),
                    )
                )
            out.append(AssistantMessage(parts=parts))
        elif role == "tool":
            ledger.rest(message, path, {"role", "content", "tool_call_id", "name"})
            call_id = str(message.get("tool_call_id", ""))
            if isinstance(content, list) and len(arr(content)) > 1:
                ledger.note(
                    f"{path}.content",
                    "several text parts joined into one output_text (boundaries not representable)",
                )
            out.append(
                ToolResultMessage(
                    call_id=call_id,
                    tool_name=str(message.get("name") or calls.name(call_id)),
                    status="success",
                    output_text="".join(chat_texts(content, f"{path}.content", ledger)),
                )
            )
        else:
            ledger.note(path, f"message role {show(role)} not representable")
    return out


def _annotations(value: Any, path: str, provider: str, parts: list[AnyPart], ledger: Ledger) -> list[AnyPart]:
    """An assistant message's ``annotations`` (a response's ``url_citation`` entries echoed back):
    sources of its text, after it; with no text to cite, named."""
    if value is None or value == []:
        return []
    if not isinstance(value, list) or not parts or not isinstance(parts[-1], TextPart):
        ledger.note(path, f"annotations without a text to cite not representable ({show(value)})")
        return []
    return [responses_annotation(obj(a), provider) for a in arr(value)]


def _output_format(value: Any, ledger: Ledger) -> OutputFormat | None:
    """``response_format``: text (the default), json_object, or json_schema with its ``json_schema`` object."""
    if value is None:
        return None
    fmt = obj(value)
    return openai_output_format(fmt, "response_format", ledger, obj(fmt.get("json_schema")))


def _dialect_thinking(body: Json, ledger: Ledger) -> ThinkingParams | None:
    """The dialects' reasoning switches (``harness/providers/<dialect>/request.py``): ``thinking``
    (DeepSeek, Z.ai), ``reasoning_effort`` ("none" is off: Groq Qwen 3, Cerebras) and Groq's
    ``reasoning_format`` (``hidden``: thoughts not wanted; ``raw``, thoughts inside the answer's
    ``<think>`` tags, is a response shape the params cannot hold and our adapter never sends)."""
    switch = obj(body.get("thinking")) if "thinking" in body else None
    raw_effort = body.get("reasoning_effort")
    shown = body.get("reasoning_format")
    if shown == "raw":
        ledger.note("reasoning_format", "'raw' (thoughts inside the content) not representable")
    if switch is None and raw_effort is None and shown is None:
        return None
    if switch is not None:
        ledger.rest(switch, "thinking", {"type", "clear_thinking"})
    if raw_effort == "none" or (switch is not None and switch.get("type") == "disabled"):
        return ThinkingParams(enabled=False)
    return ThinkingParams(
        effort=None if raw_effort is None else effort(raw_effort, "reasoning_effort", ledger),
        include_thoughts=shown != "hidden",
    )


def _legacy_choice(value: Any, ledger: Ledger) -> ToolChoice | None:
    """Legacy ``function_call``: ``auto`` / null (the default), ``none``, or ``{"name"}`` forcing it."""
    if value is None or value == "auto":
        return None
    if value == "none":
        return "none"
    named = obj(value)
    ledger.rest(named, "function_call", {"name"})
    if isinstance(named.get("name"), str):
        return ForcedTool(name=named["name"])
    ledger.note("function_call", f"not representable ({show(value)})")
    return None


#: The type prefix of OpenRouter's server tools (openrouter.ai/docs: web search, advisor), which
#: OpenRouter runs itself; recorded accepted: traffic/pydantic-ai/models__test_openrouter__test_openrouter_advisor_tool.yaml#0.
_OPENROUTER_SERVER = "openrouter:"


def params(body: Json, provider: str, ledger: Ledger) -> CallParams:
    dialect = _dialect(provider)
    known = set(KNOWN) | ({"reasoning"} if _details(provider) else {"reasoning_effort"})
    if "functions" in body and "tools" not in body:
        known |= {"functions", "function_call"}  # the legacy form, read as tools (import-check names it)
    if dialect is not None:
        known |= {"thinking", "reasoning_format"}
    ledger.rest(body, "", known | consumed(provider), DEFAULTS)
    thinking: ThinkingParams | None = None
    if _details(provider) and "reasoning" in body:
        config = obj(body["reasoning"])
        ledger.rest(config, "reasoning", {"effort", "max_tokens", "exclude", "enabled"})
        if config.get("effort") == "none" or config.get("enabled") is False:
            thinking = ThinkingParams(enabled=False)
        else:
            thinking = ThinkingParams(
                effort=effort(config.get("effort"), "reasoning.effort", ledger),
                budget_tokens=config.get("max_tokens"),
                include_thoughts=not config.get("exclude", False),
            )
    elif dialect is not None:
        thinking = _dialect_thinking(body, ledger)
    elif body.get("reasoning_effort") is not None:
        thinking = ThinkingParams(effort=effort(body["reasoning_effort"], "reasoning_effort", ledger))
    tools: list[Any] = []
    servers: list[ServerToolSpec] = []
    for i, raw in enumerate(map(obj, ledger.items(body.get("tools"), "tools"))):
        kind = raw.get("type")
        if provider == "openrouter" and isinstance(kind, str) and kind.startswith(_OPENROUTER_SERVER):
            # OpenRouter's own server tools ({type: "openrouter:web_search", parameters}), kept whole
            servers.append(server_tool(kind.removeprefix(_OPENROUTER_SERVER), provider, raw, i))
            continue
        ledger.rest(raw, f"tools[{i}]", {"type", "function"})
        tools.append(tool_spec(obj(raw.get("function")), "parameters", f"tools[{i}].function", ledger, set()))
    legacy = "functions" in known and "functions" in body
    for i, raw in enumerate(map(obj, ledger.items(body.get("functions"), "functions") if legacy else [])):
        tools.append(tool_spec(raw, "parameters", f"functions[{i}]", ledger, set()))
    if isinstance(body.get("web_search_options"), dict):  # the search models' web search, kept whole
        servers.append(
            server_tool("web_search", provider, obj(body["web_search_options"]), None, "web_search_options")
        )
    return CallParams(
        model=body.get("model"),
        tools=tools or None,
        server_tools=servers or None,
        tool_choice=_legacy_choice(body.get("function_call"), ledger)
        if legacy
        else openai_tool_choice(
            "required"  # the dialect's own word for it (Mistral's "any")
            if dialect is not None and body.get("tool_choice") == dialect.required_choice
            else body.get("tool_choice"),
            "tool_choice",
            ledger,
            nested=True,
        ),
        output_format=_output_format(body.get("response_format"), ledger),
        max_tokens=body.get("max_completion_tokens", body.get("max_tokens")),
        thinking=thinking,
        temperature=body.get("temperature"),
        stream=bool(body.get("stream", False)),
        **read_controls(body, provider, ledger),
    )
