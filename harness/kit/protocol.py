"""The JSON-lines protocol between a ``WorkerTarget`` and its worker process (``harness.kit.serve``).

Everything here is plain data over the contract types, so both sides (two interpreters with
different dependency sets) import only this module and ``harness.contract``.
"""

from __future__ import annotations

import base64
import json
from typing import Any, cast

from harness.codec import dumps_history, loads_history
from harness.contract.exchange import Exchange
from harness.contract.rendered import Rendered, RenderWarning
from harness.contract.results import (
    CallResult,
    StreamItem,
    TextDelta,
    ThinkingDelta,
    ToolCallStart,
    item_to_json,
)
from harness.model import AssistantMessage, ErrorEvent, HistoryEvent
from harness.params import CallParams

__all__ = [
    "decode_exchange",
    "decode_render_request",
    "decode_rendered",
    "decode_result",
    "dumps",
    "encode_exchange",
    "encode_render_request",
    "encode_rendered",
    "encode_result",
]

Json = dict[str, Any]


def encode_render_request(provider: str, history: list[HistoryEvent], params: CallParams) -> Json:
    return {
        "op": "render",
        "provider": provider,
        "history": dumps_history(history),
        "params": params.model_dump(mode="json"),
    }


def decode_render_request(request: Json) -> tuple[str, list[HistoryEvent], CallParams]:
    history = loads_history(str(request["history"]), source="<worker request>")
    return str(request["provider"]), history, CallParams.model_validate(request["params"])


def encode_exchange(exchange: Exchange) -> Json:
    return {
        "body": base64.b64encode(exchange.body).decode("ascii"),
        "headers": exchange.headers,
        "method": exchange.method,
        "request_body": exchange.request_body,
        "status": exchange.status,
        "uri": exchange.uri,
    }


def decode_exchange(data: Json) -> Exchange:
    return Exchange(
        method=str(data["method"]),
        uri=str(data["uri"]),
        request_body=data["request_body"],
        status=int(data["status"]),
        headers={
            str(k): [str(v) for v in vs] for k, vs in cast(dict[str, list[Any]], data["headers"]).items()
        },
        body=base64.b64decode(str(data["body"])),
    )


def encode_rendered(rendered: Rendered) -> Json:
    return {"body": rendered.body, "warnings": [w.to_json() for w in rendered.warnings]}


def decode_rendered(data: Json) -> Rendered:
    warnings = [RenderWarning(**cast(dict[str, Any], w)) for w in cast(list[Any], data["warnings"])]
    return Rendered(body=cast(Json, data["body"]), warnings=warnings)


def encode_result(result: CallResult) -> Json:
    return {
        "errors": [e.model_dump(mode="json") for e in result.errors],
        "items": [item_to_json(i) for i in result.items],
        "message": result.message.model_dump(mode="json"),
        "notes": list(result.notes),
    }


def _item(data: Json) -> StreamItem:
    kind = data["type"]
    if kind == "tool_call_start":
        return ToolCallStart(call_id=str(data["call_id"]), tool_name=str(data["tool_name"]))
    if kind == "thinking_delta":
        return ThinkingDelta(text=str(data["text"]))
    return TextDelta(text=str(data["text"]))


def decode_result(data: Json) -> CallResult:
    return CallResult(
        message=AssistantMessage.model_validate(data["message"]),
        items=[_item(cast(Json, i)) for i in cast(list[Any], data["items"])],
        errors=[ErrorEvent.model_validate(e) for e in cast(list[Any], data["errors"])],
        notes=[str(n) for n in cast(list[Any], data["notes"])],
    )


def dumps(message: Json) -> str:
    """One protocol line (no embedded newlines)."""
    return json.dumps(message, ensure_ascii=False, separators=(",", ":")) + "\n"
