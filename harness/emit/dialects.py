"""Stream emitters of the OpenAI-compatible dialects: Chat Completions chunks
(``harness.emit.openai_chat``) with each dialect's reasoning field and default model.

Representable as for Chat (see ``openai_chat``); reasoning goes out in the dialect's own
field: ``delta.reasoning_content`` (DeepSeek, Z.ai), ``delta.reasoning`` (Groq with
``reasoning_format: parsed``, Cerebras, Hugging Face's router: huggingface_hub's
``ChatCompletionStreamOutputDelta.reasoning``) or, for Mistral, a ``content`` list holding a
``thinking`` chunk (Magistral's shape, docs.mistral.ai/capabilities/reasoning).

A dialect's chunk carries its provider's fields only (``tests/test_cassette_fields.py``
reads every emitted stream against the provider's SDK types): no ``delta.refusal`` (OpenAI's),
``system_fingerprint`` only where the provider sends it (not Mistral), and only the usage
details its stream reports (``USAGE_DETAILS``); a usage count the stream cannot carry makes the
message not representable, and the projection drops it.
"""

from __future__ import annotations

from typing import Any

from harness.emit.common import pieces
from harness.emit.openai_chat import ChatEmitter, Unit
from harness.model import AssistantMessage

__all__ = ["DialectEmitter", "MistralEmitter"]


#: The usage details each dialect's stream reports, by the name the canonical ``Usage`` gives them:
#: its SDK's chunk types (groq 1.7, cerebras-cloud-sdk 1.91: ``prompt_tokens_details.cached_tokens``
#: and ``completion_tokens_details.reasoning_tokens``; huggingface_hub 2.4: none), or what the
#: provider sends beyond its SDK (Mistral: ``prompt_tokens_details.cached_tokens``, recorded in
#: cassettes/mistral). DeepSeek and Z.ai publish no SDK: as Chat.
USAGE_DETAILS: dict[str, frozenset[str]] = {
    "groq": frozenset({"cached_input_tokens", "reasoning_tokens"}),
    "cerebras": frozenset({"cached_input_tokens", "reasoning_tokens"}),
    "mistral": frozenset({"cached_input_tokens"}),
    "huggingface": frozenset(),
    "deepseek": frozenset({"cached_input_tokens", "cache_creation_input_tokens", "reasoning_tokens"}),
    "zai": frozenset({"cached_input_tokens", "cache_creation_input_tokens", "reasoning_tokens"}),
}
#: The dialects whose chunks carry no ``system_fingerprint`` (mistralai's ``CompletionChunk`` has none).
NO_FINGERPRINT = frozenset({"mistral"})


class DialectEmitter(ChatEmitter):
    """Chat chunks with the dialect's reasoning field, and only its provider's fields."""

    def __init__(self, provider: str, default_model: str, reasoning_field: str) -> None:
        self.provider = provider
        self.default_model_name = default_model  # the stream's model when nothing else names one
        self.reasoning_field = reasoning_field

    def check(self, message: AssistantMessage) -> str | None:
        reason = super().check(message)
        if reason is not None or message.usage is None:
            return reason
        carried = USAGE_DETAILS[self.provider]
        for name in ("cached_input_tokens", "cache_creation_input_tokens", "reasoning_tokens"):
            if getattr(message.usage, name) is not None and name not in carried:
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
        if self.provider in NO_FINGERPRINT:
            raw.pop("system_fingerprint", None)
        return raw


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
        super().__init__("mistral", default_model, "content")

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
