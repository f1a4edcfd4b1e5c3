"""Stream emitters of the OpenAI-compatible dialects: Chat Completions chunks
(``harness.emit.openai_chat``) with each dialect's reasoning field and default model.

Representable as for Chat (see ``openai_chat``); reasoning goes out in the dialect's own
field: ``delta.reasoning_content`` (DeepSeek, Z.ai, Hugging Face's router), ``delta.reasoning``
(Groq with ``reasoning_format: parsed``, Cerebras) or, for Mistral, a ``content`` list holding
a ``thinking`` chunk (Magistral's shape, docs.mistral.ai/capabilities/reasoning).
"""

from __future__ import annotations

from typing import Any

from harness.emit.common import pieces
from harness.emit.openai_chat import ChatEmitter, Unit

__all__ = ["DialectEmitter", "MistralEmitter"]


class DialectEmitter(ChatEmitter):
    """Chat chunks with the dialect's reasoning field."""

    def __init__(self, default_model: str, reasoning_field: str) -> None:
        self.default_model_name = default_model  # the stream's model when nothing else names one
        self.reasoning_field = reasoning_field

    def reasoning_deltas(self, unit: Unit) -> list[dict[str, Any]]:
        assert unit.text is not None
        return [{self.reasoning_field: p} for p in pieces(unit.text)]


class MistralEmitter(DialectEmitter):
    """Mistral: thinking as a ``content`` list with one ``thinking`` chunk per delta; each tool
    call whole in one delta.

    The mistralai SDK's stream types require the function's ``name`` (and ``arguments``) on every
    tool-call delta (mistralai 3.7.0 ``client/models/toolcall.py``: ``function: FunctionCall``;
    ``client/models/functioncall.py``: ``name: str``), so a Mistral stream cannot carry the
    name-less argument fragments of OpenAI's; its SDK refuses them. No Mistral stream with a tool
    call is recorded.
    """

    def __init__(self, default_model: str) -> None:
        super().__init__(default_model, "content")

    def deltas(self, unit: Unit) -> list[dict[str, Any]]:
        if unit.kind != "tool":
            return super().deltas(unit)
        call = unit.call
        assert call is not None
        whole = {"name": call.tool_name, "arguments": call.arguments_json}
        return [
            {"tool_calls": [{"index": unit.index, "id": call.call_id, "type": "function", "function": whole}]}
        ]

    def reasoning_deltas(self, unit: Unit) -> list[dict[str, Any]]:
        assert unit.text is not None
        return [
            {"content": [{"type": "thinking", "thinking": [{"type": "text", "text": p}]}]}
            for p in pieces(unit.text)
        ]
