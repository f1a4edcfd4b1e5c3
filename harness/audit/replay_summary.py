"""A replayed call reduced to what two output adapters must agree on, deterministically.

Text and thinking are joined (adapters may split parts differently), signatures are kept
by format and digest (they run to kilobytes), tool calls by name and parsed arguments.
A call id is kept only when the provider sent it (it occurs in the recorded body):
an adapter that mints ids for calls without one (Gemini) may mint them any way it likes.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from harness.contract.exchange import Exchange
from harness.contract.results import CallResult
from harness.model import TextPart, ThinkingSignaturePart, ThinkingTextPart, ToolCallPart

__all__ = ["compare", "summarize"]

Json = dict[str, Any]


def _arguments(raw: str) -> Any:
    try:
        return json.loads(raw) if raw.strip() else {}
    except json.JSONDecodeError:
        return {"(unparsed)": raw}


def summarize(result: CallResult, exchange: Exchange) -> Json:
    parts = result.message.parts
    usage = result.message.usage
    return {
        "errors": len(result.errors),
        "signatures": [
            {"format": p.format, "sha256": hashlib.sha256(p.signature.encode()).hexdigest()[:16]}
            for p in parts
            if isinstance(p, ThinkingSignaturePart)
        ],
        "stop_reason": result.message.stop_reason,
        "text": "".join(p.text for p in parts if isinstance(p, TextPart)),
        "thinking": "".join(p.text for p in parts if isinstance(p, ThinkingTextPart)),
        "tool_calls": [
            {
                "arguments": _arguments(p.arguments_json),
                "call_id": p.call_id if p.call_id and p.call_id.encode() in exchange.body else "(minted)",
                "name": p.tool_name,
            }
            for p in parts
            if isinstance(p, ToolCallPart)
        ],
        "usage": None
        if usage is None
        else {"input_tokens": usage.input_tokens, "output_tokens": usage.output_tokens},
    }


def _short(value: object) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= 160 else text[:159] + "…"


def compare(target: Json, reference: Json, keys: tuple[str, ...] | None = None) -> list[str]:
    """One line per field where the summaries differ: ``field: target X, reference Y``."""
    names = keys or tuple(sorted(set(target) | set(reference)))
    return [
        f"{name}: target {_short(target.get(name))}, reference {_short(reference.get(name))}"
        for name in names
        if target.get(name) != reference.get(name)
    ]
