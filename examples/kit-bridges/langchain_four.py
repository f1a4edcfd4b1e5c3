"""A bridge for a library of LangChain's shape, on the kit: four providers, both directions.

LangChain keeps its own message classes and one integration per provider, each building its own
HTTP client. ``OfflineWire(intercept_all=True)`` reaches those clients, ``harness.kit.shapes``
converts canonical parts to and from each provider's own blocks (what ``AIMessage.content`` holds),
and ``provider_stop``/``usage``/``final_result`` state the output rules; this maps LangChain's
wrappers only. tests/test_kit_bridges.py counts it; the full target is ``harness.targets.langchain``.
"""

# pyright: basic, reportMissingImports=false
from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from langchain_anthropic import ChatAnthropic
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage
from langchain_google_genai import ChatGoogleGenerativeAI
from langchain_openai import ChatOpenAI

import harness
from harness import CallParams, default_model
from harness.kit import OfflineWire, final_result, provider_stop, recorded_call, sent_id, shapes, usage

KEY = "offline"
MAKE = {
    "anthropic": lambda m, p: ChatAnthropic(
        model=m, api_key=KEY, max_retries=0, max_tokens=p.max_tokens or 1024
    ),
    "openai-chat": lambda m, p: ChatOpenAI(model=m, api_key=KEY, max_retries=0, max_tokens=p.max_tokens),
    "openai-responses": lambda m, p: ChatOpenAI(
        model=m, api_key=KEY, max_retries=0, max_tokens=p.max_tokens, use_responses_api=True
    ),
    "gemini": lambda m, p: ChatGoogleGenerativeAI(
        model=m, google_api_key=KEY, max_retries=0, max_output_tokens=p.max_tokens
    ),
}
PROVIDER_NAMES = {"anthropic": "anthropic", "gemini": "google_genai", "openai-responses": "openai"}
CALL_SIGNATURES = "__gemini_function_call_thought_signatures__"  # langchain-google-genai's key


def block(part: Any) -> dict[str, Any]:
    if part.type == "text":
        return {"type": "text", "text": part.text}
    url, mime, data = shapes.image_data(part)
    return {"type": "image", "url": url} if url else {"type": "image", "base64": data, "mime_type": mime}


def content(parts: Sequence[Any]) -> Any:
    return parts[0].text if len(parts) == 1 and parts[0].type == "text" else [block(p) for p in parts]


def ai_message(message: harness.AssistantMessage, index: int, provider: str) -> AIMessage:
    """The AIMessage the integration that produced ``message`` holds: its provider's own blocks."""
    formats = [p.format for p in message.parts if p.type == "thinking_signature" and p.format]
    origin = {"anthropic": "anthropic", "google": "gemini", "openai-responses": "openai-responses"}.get(
        (formats or [""])[0].removesuffix("-redacted"), provider
    )
    calls = [
        {"id": p.call_id, "name": p.tool_name, "args": json.loads(p.arguments_json or "{}")}
        for p in message.parts
        if p.type == "tool_call"
    ]
    extra: dict[str, Any] = {}
    if origin == "anthropic":
        blocks, _ = shapes.anthropic_content(message, index)
    elif origin == "openai-responses":
        items, _ = shapes.responses_items(message, index)
        blocks = [
            {"type": "text", "text": i["content"][0]["text"], "id": i.get("id")}
            if i["type"] == "message"
            else i
            for i in items
        ]
    elif origin == "gemini":
        parts, _ = shapes.gemini_parts(message, index)
        blocks, signatures = [], {}
        for p in parts:
            sig = p.get("thought_signature")
            if "function_call" in p and sig:
                signatures[p["function_call"]["id"]] = sig
            elif p.get("thought"):
                blocks.append(
                    {"type": "thinking", "thinking": p["text"]} | ({"signature": sig} if sig else {})
                )
            elif "text" in p:
                blocks.append(
                    {"type": "text", "text": p["text"]} | ({"extras": {"signature": sig}} if sig else {})
                )
        extra = {CALL_SIGNATURES: signatures} if signatures else {}
    else:
        blocks = [{"type": "text", "text": p.text} for p in message.parts if p.type == "text"]
    metadata = {"model_provider": PROVIDER_NAMES.get(origin, "openai")}
    return AIMessage(content=blocks, tool_calls=calls, additional_kwargs=extra, response_metadata=metadata)


def messages(history: Sequence[harness.HistoryEvent], params: CallParams, provider: str) -> list[Any]:
    out: list[Any] = [SystemMessage(params.system)] if params.system else []
    for index, event in enumerate(history):
        role = getattr(event, "role", None)  # error and task-metadata events are never sent
        if isinstance(event, harness.AssistantMessage):
            out.append(ai_message(event, index, provider))
        elif isinstance(event, harness.ToolResultMessage):
            status = "success" if event.status == "success" else "error"
            out.append(
                ToolMessage(
                    event.output_text, tool_call_id=event.call_id, name=event.tool_name, status=status
                )
            )
        elif role in ("system", "developer", "user"):
            developer = {"__openai_role__": "developer"} if role == "developer" else {}
            wrap = HumanMessage if role == "user" else SystemMessage
            out.append(wrap(content(event.parts), additional_kwargs=developer))  # type: ignore[union-attr]
    return out


def parts(provider: str, message: AIMessage) -> list[Any]:
    """LangChain's message read back through the provider's shape, then its parsed tool calls."""
    raw = [message.content] if isinstance(message.content, str) else message.content
    blocks: list[Any] = [{"type": "text", "text": b} if isinstance(b, str) else b for b in raw]
    if provider == "anthropic":
        out = shapes.parts_from_anthropic([b for b in blocks if b.get("type") != "tool_use"])
    elif provider == "openai-responses":
        items = [
            {"type": "message", "id": b.get("id"), "content": [{"type": "output_text", "text": b["text"]}]}
            if b.get("type") == "text"
            else b
            for b in blocks
            if b.get("type") in ("text", "reasoning")
        ]
        out = shapes.parts_from_responses(items)
    elif provider == "gemini":
        out = shapes.parts_from_gemini(
            [
                {
                    "text": b.get("text") or b.get("thinking") or "",
                    "thought": b["type"] == "thinking",
                    "thought_signature": b.get("signature") or (b.get("extras") or {}).get("signature"),
                }
                for b in blocks
                if b.get("type") in ("text", "thinking")
            ]
        )
    else:
        out = shapes.parts_from_chat(
            {"content": "".join(b.get("text", "") for b in blocks if b.get("type") == "text")}
        )
    item_ids = {b.get("call_id"): b.get("id") for b in blocks if b.get("type") == "function_call"}
    signatures = message.additional_kwargs.get(CALL_SIGNATURES) or {}
    for call in message.tool_calls:
        arguments, item_id = json.dumps(call["args"]), item_ids.get(call["id"])
        out.append(
            harness.ToolCallPart(
                call_id=call["id"], tool_name=call["name"], arguments_json=arguments, item_id=item_id
            )
        )
        if signatures.get(call["id"]):
            out += shapes.parts_from_gemini([{"thought_signature": signatures[call["id"]]}])
    return out


class LangChainFour:
    name = "langchain-four"
    version = None
    warning_channels = frozenset({"warnings", "logging"})  # LangChain announces drops with warnings.warn

    def __init__(self) -> None:
        self.wire = OfflineWire(intercept_all=True)

    def providers(self) -> Sequence[str]:
        return tuple(MAKE)

    async def call(self, model: Any, history: list[Any], stream: bool) -> Any:
        if not stream:
            return await model.ainvoke(history)
        whole = None
        async for chunk in model.astream(history):
            whole = chunk if whole is None else whole + chunk
        return whole

    def render(
        self, provider: str, history: Sequence[harness.HistoryEvent], params: CallParams
    ) -> harness.Rendered:
        model = MAKE[provider](params.model or default_model(provider), params)
        if params.tools:
            model = model.bind_tools([{"name": t.name, "description": t.description, "parameters": t.parameters}
                                      for t in params.tools])  # fmt: skip
        return self.wire.render(self.call(model, messages(history, params, provider), params.stream))

    def replay(
        self, provider: str, exchange: harness.Exchange, chunk_size: harness.Chunking = None
    ) -> harness.CallResult:
        name, stream = recorded_call(provider, exchange)
        model = MAKE[provider](name or default_model(provider), CallParams())
        self.wire.serve(exchange, chunk_size)
        try:
            message = self.wire.run(self.call(model, [HumanMessage("(replay)")], stream))
        except Exception as exc:  # an HTTP error, a body LangChain cannot read
            return final_result([], provider_stop=None, usage=None, errors=[f"{type(exc).__name__}: {exc}"])
        meta, u = message.response_metadata, message.usage_metadata or {}
        stop, errors = provider_stop(
            meta.get("stop_reason") or meta.get("finish_reason") or meta.get("status")
        )
        details = u.get("input_token_details") or {}
        return final_result(
            parts(provider, message),
            provider_stop=stop,
            usage=usage(
                u.get("input_tokens", 0),
                u.get("output_tokens", 0),
                cached_input_tokens=details.get("cache_read"),
                cache_creation_input_tokens=details.get("cache_creation"),
                reasoning_tokens=(u.get("output_token_details") or {}).get("reasoning"),
            ),
            errors=errors,
            response_id=sent_id(meta.get("id"), exchange),
        )


TARGET = LangChainFour()
