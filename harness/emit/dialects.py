"""Stream emitter of the OpenAI-compatible Chat Completions dialects: Chat chunks (``openai_chat``)
with each dialect's departures, read from its ``ChatDialect`` entry (``harness.contract.providers``).

Representable as for Chat (see ``openai_chat``); reasoning goes out in the dialect's own field:
``delta.reasoning_content`` (DeepSeek, Z.ai), ``delta.reasoning`` (Groq with ``reasoning_format:
parsed``, Cerebras, Hugging Face's router: huggingface_hub's ``ChatCompletionStreamOutputDelta.reasoning``)
or, for ``content``, a ``content`` list holding a ``thinking`` chunk (Magistral's shape,
docs.mistral.ai/capabilities/reasoning).

A dialect's chunk carries its provider's fields only (``tests/test_cassette_fields.py`` reads every
emitted stream against the provider's SDK types): no ``delta.refusal`` (OpenAI's),
``system_fingerprint`` only where the provider sends it, and only the usage details its stream
reports (``ChatDialect.usage_details``); a usage count the stream cannot carry makes the message
not representable, and the projection drops it.

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
from harness.model import AssistantMessage

__all__ = ["DialectEmitter"]

_USAGE_DETAILS = ("cached_input_tokens", "cache_creation_input_tokens", "reasoning_tokens")


class DialectEmitter(ChatEmitter):
    """Chat chunks with the dialect's reasoning field and tool-call deltas, and only its provider's fields."""

    def __init__(self, provider: str, dialect: ChatDialect) -> None:
        self.provider = provider
        self.dialect = dialect
        self.reasoning_field = dialect.reasoning_field

    def check(self, message: AssistantMessage) -> str | None:
        reason = super().check(message)
        if reason is not None or message.usage is None:
            return reason
        for name in _USAGE_DETAILS:
            if getattr(message.usage, name) is not None and name not in self.dialect.usage_details:
                return f"usage.{name} is set; the {self.provider} stream reports none"
        return None

    def first_delta(self) -> dict[str, Any]:
        return {"role": "assistant", "content": ""}  # refusal is OpenAI's field

    def chunk(
        self,
        response_id: str,
        model: str,
        delta: dict[str, Any] | None,
        *,
        finish: str | None = None,
        usage: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        raw = super().chunk(response_id, model, delta, finish=finish, usage=usage)
        if not self.dialect.fingerprint:
            raw.pop("system_fingerprint", None)
        return raw

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
