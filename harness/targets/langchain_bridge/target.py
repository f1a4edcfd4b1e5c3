"""LangChain's real chat models, offline: render = capture the request, replay = serve recorded bytes.

Each call goes through the integration's own ``ainvoke`` / ``astream`` (LangChain's message
conversion, request building, chunk parsing and chunk accumulation), on an ``OfflineWire``
that intercepts the HTTP clients the integration builds for itself.
"""

# pyright: reportMissingImports=false, reportUnknownMemberType=false, reportUnknownVariableType=false
# pyright: reportUnknownArgumentType=false, reportAttributeAccessIssue=false, reportUnknownParameterType=false

from __future__ import annotations

import base64
import json
from collections.abc import Sequence
from importlib.metadata import version
from typing import Any

from langchain_core.messages import AIMessage, HumanMessage
from langchain_google_genai import _image_utils  # pyright: ignore[reportPrivateUsage]

from harness import model as canon
from harness.contract.chunking import Chunking
from harness.contract.exchange import Exchange
from harness.contract.rendered import Rendered
from harness.contract.results import CallResult, StreamItem, TextDelta, ThinkingDelta, ToolCallStart
from harness.contract.routing import route
from harness.contract.target import TargetRefusal
from harness.kit import (
    OfflineWire,
    final_result,
    minted_id_notes,
    provider_stop,
    recorded_call,
    sent_id,
    shapes,
    usage,
)
from harness.model import HistoryEvent, StopReason
from harness.params import CallParams
from harness.providers import default_model
from harness.targets.langchain_bridge import convert, models

__all__ = ["TARGET", "LangChainTarget"]


def _no_download(self: Any, url: str) -> bytes:
    raise NotImplementedError(
        f"langchain-google-genai downloads {url} itself (_image_utils.ImageBytesLoader) to inline it; "
        "the bridge never touches the network, so this history cannot be rendered offline"
    )


_image_utils.ImageBytesLoader._bytes_from_url = _no_download  # LangChain's own image download, blocked


def _items(chunk: Any) -> list[StreamItem]:
    """The deltas one streamed ``AIMessageChunk`` carries, in order."""
    out: list[StreamItem] = []
    content = chunk.content
    blocks = [content] if isinstance(content, str) else content
    for raw in blocks:
        block: Any = {"type": "text", "text": raw} if isinstance(raw, str) else raw
        if not isinstance(block, dict):
            continue
        kind = block.get("type")
        if kind == "text" and block.get("text"):
            out.append(TextDelta(str(block["text"])))
        elif kind == "thinking" and block.get("thinking"):
            out.append(ThinkingDelta(str(block["thinking"])))
        elif kind == "reasoning":
            for summary in block.get("summary") or []:
                if summary.get("text"):
                    out.append(ThinkingDelta(str(summary["text"])))
        elif kind == "reasoning_content" and (block.get("reasoning_content") or {}).get("text"):
            out.append(ThinkingDelta(str(block["reasoning_content"]["text"])))
    reasoning = chunk.additional_kwargs.get("reasoning_content")
    if isinstance(reasoning, str) and reasoning:
        out.append(ThinkingDelta(reasoning))
    out += [ToolCallStart(c.get("id") or "", c["name"]) for c in chunk.tool_call_chunks if c.get("name")]
    return out


def _content_parts(provider: str, message: AIMessage) -> list[canon.AnyPart]:
    """Text, thinking and signatures of LangChain's message, read as the integration wrote them."""
    content = message.content
    raw: list[Any] = [content] if isinstance(content, str) else list(content)
    # a streamed message's content mixes blocks and bare strings (text deltas LangChain appended as is)
    blocks = [
        {"type": "text", "text": b} if isinstance(b, str) else b for b in raw if isinstance(b, str | dict)
    ]
    if provider == "anthropic":
        return shapes.parts_from_anthropic([b for b in blocks if b.get("type") != "tool_use"])
    if provider == "openai-responses":
        items = [
            {
                "type": "message",
                "id": b.get("id"),
                "content": [{"type": "output_text", "text": b.get("text", "")}],
            }
            if b.get("type") == "text"
            else b
            for b in blocks
            if b.get("type") in ("text", "reasoning")
        ]
        return shapes.parts_from_responses(items)
    if provider == "gemini":
        parts: list[Any] = []
        for b in blocks:
            signature = b.get("signature") or (b.get("extras") or {}).get("signature")
            if b.get("type") in ("text", "thinking"):
                text = b.get("text") if b["type"] == "text" else b.get("thinking")
                parts.append(
                    {"text": text or "", "thought": b["type"] == "thinking", "thought_signature": signature}
                )
        return shapes.parts_from_gemini(parts)
    if provider == "bedrock":
        out: list[canon.AnyPart] = []
        for b in blocks:
            if b.get("type") == "text" and b.get("text"):
                out.append(canon.TextPart(text=str(b["text"])))
            elif b.get("type") == "reasoning_content":
                reasoning: Any = b.get("reasoning_content") or {}
                if reasoning.get("text"):
                    out.append(canon.ThinkingTextPart(text=str(reasoning["text"])))
                if reasoning.get("signature"):
                    out.append(
                        canon.ThinkingSignaturePart(signature=str(reasoning["signature"]), format="bedrock")
                    )
                redacted = reasoning.get("redacted_content")
                if (
                    isinstance(redacted, bytes) and redacted
                ):  # the canonical form: base64, as on the JSON wire
                    signature = base64.b64encode(redacted).decode("ascii")
                    out.append(canon.ThinkingSignaturePart(signature=signature, format="bedrock-redacted"))
        return out
    text = "".join(str(b.get("text", "")) for b in blocks if b.get("type") == "text")
    return shapes.parts_from_chat(
        {"content": text, "reasoning_content": message.additional_kwargs.get("reasoning_content")}
    )


def _raw_arguments(message: AIMessage) -> dict[str, str]:
    """Tool-call arguments as the provider sent them, where LangChain keeps the string beside its parsed
    dict: a streamed message's ``tool_call_chunks``, or the raw Chat ``tool_calls`` in ``additional_kwargs``.
    An empty string there is no evidence (Anthropic sends a call's whole input up front, and LangChain's
    chunk then holds ``""``): the caller falls back to the parsed arguments."""
    raw: dict[str, str] = {}
    for call in message.additional_kwargs.get("tool_calls") or []:
        arguments = (call.get("function") or {}).get("arguments")
        if call.get("id") and isinstance(arguments, str):
            raw[call["id"]] = arguments
    for chunk in getattr(message, "tool_call_chunks", None) or []:
        if chunk.get("id") and isinstance(chunk.get("args"), str):
            raw[chunk["id"]] = chunk["args"]
    return raw


def _calls(provider: str, message: AIMessage) -> list[canon.AnyPart]:
    """Tool calls as LangChain parsed them (valid and invalid), with the Responses item ids and Gemini
    call signatures the integration kept beside them."""
    content = message.content if isinstance(message.content, list) else []
    item_ids = {
        b.get("call_id"): b.get("id")
        for b in content
        if isinstance(b, dict) and b.get("type") == "function_call"
    }
    signatures = message.additional_kwargs.get(convert.GEMINI_CALL_SIGNATURES) or {}
    raw = _raw_arguments(message)
    out: list[canon.AnyPart] = []
    calls = [(c["id"], c["name"], raw.get(c["id"]) or json.dumps(c["args"])) for c in message.tool_calls]
    calls += [(c.get("id"), c.get("name"), str(c.get("args") or "")) for c in message.invalid_tool_calls]
    for call_id, name, arguments in calls:
        out.append(
            canon.ToolCallPart(
                call_id=call_id or "",
                tool_name=name or "",
                arguments_json=arguments,
                item_id=item_ids.get(call_id),
            )
        )
        if provider == "gemini" and signatures.get(call_id):
            out.append(canon.ThinkingSignaturePart(signature=str(signatures[call_id]), format="google"))
    return out


def _stop(message: AIMessage) -> tuple[StopReason | None, list[str]]:
    metadata = message.response_metadata
    said = next(
        (str(metadata[k]) for k in ("stop_reason", "finish_reason", "stopReason") if metadata.get(k)), None
    )
    if said is None and metadata.get("status") == "incomplete":
        said = str((metadata.get("incomplete_details") or {}).get("reason") or "incomplete")
    elif said is None and metadata.get("status"):
        said = str(metadata["status"])
    return provider_stop(said)


def _result(
    provider: str, message: AIMessage | None, items: list[StreamItem], errors: list[str], exchange: Exchange
) -> CallResult:
    if message is None:
        return final_result(
            [],
            provider_stop=None,
            usage=None,
            errors=errors or ["LangChain returned no message"],
            items=items,
        )
    parts = [*_content_parts(provider, message), *_calls(provider, message)]
    stop, safety = _stop(message)
    u = message.usage_metadata or {}
    inputs, outputs = u.get("input_token_details") or {}, u.get("output_token_details") or {}
    return final_result(
        parts,
        provider_stop=stop,
        usage=None
        if not u
        else usage(
            u.get("input_tokens", 0),
            u.get("output_tokens", 0),
            cached_input_tokens=inputs.get("cache_read"),
            cache_creation_input_tokens=inputs.get("cache_creation"),
            reasoning_tokens=outputs.get("reasoning"),
        ),
        errors=[*errors, *safety],
        items=items,
        response_id=sent_id(message.response_metadata.get("id"), exchange),
        notes=minted_id_notes(parts, exchange),
    )


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return f"LangChain raised {type(exc).__name__}: {text.splitlines()[0] if text else ''}"


class LangChainTarget:
    """The Target protocol over LangChain's chat model integrations."""

    name = "langchain"
    #: LangChain's integrations announce drops with ``warnings.warn`` (and some with ``logging``); the
    #: bridge returns its own (a part no LangChain message holds), coded ``bridge-*``.
    warning_channels = frozenset({"returned", "warnings", "logging"})
    lacks = frozenset[str]()

    def __init__(self) -> None:
        self.version: str | None = version("langchain-core")
        self._wire = OfflineWire(intercept_all=True)

    def providers(self) -> Sequence[str]:
        return tuple(models.MODELS)

    async def _call(
        self, model: Any, messages: list[Any], stream: bool
    ) -> tuple[Any, list[StreamItem], list[str]]:
        if not stream:
            return await model.ainvoke(messages), [], []
        items: list[StreamItem] = []
        whole: Any = None
        try:
            async for chunk in model.astream(messages):
                items += _items(chunk)
                whole = chunk if whole is None else whole + chunk
        except NotImplementedError:
            raise
        except Exception as exc:  # a failure mid-stream: keep what arrived, say why
            if whole is None and not self._wire.requests:
                raise  # nothing was sent: the conversion itself raised (render reports it)
            return whole, items, [_first_line(exc)]
        return whole, items, []

    async def _send(self, model: Any, messages: list[Any], stream: bool) -> None:
        """One render call. LangChain's own ``ValueError`` raised before anything is sent is the
        integration refusing an input it does not support, on purpose (``TargetRefusal``)."""
        try:
            await self._call(model, messages, stream)
        except ValueError as exc:
            if type(exc) is not ValueError or self._wire.requests:
                raise
            raise TargetRefusal(f"LangChain refused: {str(exc).strip().splitlines()[0]}") from exc

    def render(self, provider: str, history: Sequence[HistoryEvent], params: CallParams) -> Rendered:
        name = params.model or default_model(provider)
        model = models.build(provider, name, params, self._wire)
        messages, warnings = convert.messages(history, params, provider)
        return self._wire.render(self._send(model, messages, params.stream), warnings)

    def replay(self, provider: str, exchange: Exchange, chunk_size: Chunking = None) -> CallResult:
        found = route(exchange.method, exchange.uri)
        if provider != "openai-responses" and found is not None and found.wire == "openai-responses":
            raise NotImplementedError(
                f"LangChain's integration for {provider} speaks Chat Completions only; this is a Responses recording"
            )
        recorded, stream = recorded_call(provider, exchange)
        model = models.build(provider, recorded or default_model(provider), CallParams(), self._wire)
        self._wire.serve(exchange, chunk_size)
        try:
            message, items, errors = self._wire.run(
                self._call(model, [HumanMessage("(replayed response)")], stream)
            )
        except NotImplementedError:
            raise
        except Exception as exc:  # an HTTP error or a response LangChain could not read
            message, items, errors = None, [], [_first_line(exc)]
        return _result(provider, message, items, errors, exchange)


TARGET = LangChainTarget()
