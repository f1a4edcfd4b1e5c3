"""Stream emitter of the OpenAI-compatible Chat Completions dialects: Chat chunks (``openai_chat``)
with each dialect's departures, read from its ``ChatDialect`` entry (``harness.contract.providers``).

Representable as for Chat (see ``openai_chat``); reasoning goes out in the dialect's own field:
``delta.reasoning_content`` (DeepSeek, Z.ai, Hugging Face's router), ``delta.reasoning`` (Groq with
``reasoning_format: parsed``, Cerebras) or, for ``content``, a ``content`` list holding a ``thinking``
chunk (Magistral's shape, docs.mistral.ai/capabilities/reasoning).

A dialect with ``whole_tool_calls`` sends each tool call whole in one delta. The mistralai SDK's
stream types require the function's ``name`` (and ``arguments``) on every tool-call delta
(mistralai 3.7.0 ``client/models/toolcall.py``: ``function: FunctionCall``;
``client/models/functioncall.py``: ``name: str``), so a Mistral stream cannot carry the name-less
argument fragments of OpenAI's; its SDK refuses them. No Mistral stream with a tool call is recorded.
"""

from __future__ import annotations

from typing import Any

from harness.contract.providers import ChatDialect
from harness.emit.common import pieces
from harness.emit.openai_chat import ChatEmitter, Unit

__all__ = ["DialectEmitter"]


class DialectEmitter(ChatEmitter):
    """Chat chunks with the dialect's reasoning field and tool-call deltas."""

    def __init__(self, dialect: ChatDialect) -> None:
        self.dialect = dialect

    def deltas(self, unit: Unit) -> list[dict[str, Any]]:
        if unit.kind != "tool" or not self.dialect.whole_tool_calls:
            return super().deltas(unit)
        call = unit.call
        assert call is not None
        whole = {"name": call.tool_name, "arguments": call.arguments_json}
        return [
            {"tool_calls": [{"index": unit.index, "id": call.call_id, "type": "function", "function": whole}]}
        ]

    def reasoning_deltas(self, unit: Unit) -> list[dict[str, Any]]:
        assert unit.text is not None
        field = self.dialect.reasoning_field
        if field == "content":  # a content list with one ``thinking`` chunk per delta
            return [
                {"content": [{"type": "thinking", "thinking": [{"type": "text", "text": p}]}]}
                for p in pieces(unit.text)
            ]
        return [{field: p} for p in pieces(unit.text)]
