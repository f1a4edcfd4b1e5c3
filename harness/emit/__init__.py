"""Stream emitters: a canonical assistant message -> the SSE body a provider would send for it.

The inverse of the reference output adapters (``harness.stream``), used by the I11 round
trip (``parse(emit(m)) == m``) and as a source of valid provider streams for fuzzing and
for the official SDKs' accumulators. Emitters are pure: no clock, no randomness.

Round-trip contract, for every provider ``p`` and message ``m`` with
``representable(p, m) is None``::

    parsed = parse_bytes(get_parser(p), emit_stream(p, m, response_id=r)).message
    parsed == m.model_copy(update={"id": None, "created_at": None, "response_id": r})

i.e. ``parts`` (every field, including thinking ``model_id``, which the parser fills
from the stream's model), ``usage`` and ``stop_reason`` round-trip exactly; the message
``id`` and ``created_at`` are not on the wire; ``response_id`` is the stream's. Each
provider module's docstring lists its representability rules; ``common.check_common``
lists the shared ones.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType

from harness.contract.providers import PROVIDERS
from harness.emit import (
    anthropic,
    bedrock,
    cerebras,
    cohere,
    deepseek,
    gemini,
    groq,
    huggingface,
    mistral,
    openai_chat,
    openai_responses,
    openrouter,
    zai,
)
from harness.emit.common import NotRepresentable, message_model
from harness.model import AssistantMessage

__all__ = ["PROVIDERS", "NotRepresentable", "carries_ids", "default_model", "emit_stream", "representable"]

_MODULES: dict[str, ModuleType] = {
    "anthropic": anthropic,
    "gemini": gemini,
    "openai-chat": openai_chat,
    "openai-responses": openai_responses,
    "openrouter": openrouter,
    "bedrock": bedrock,
    # the OpenAI-compatible dialects (issue 27): harness/emit/dialects.py
    "mistral": mistral,
    "groq": groq,
    "deepseek": deepseek,
    "cerebras": cerebras,
    "zai": zai,
    "huggingface": huggingface,
    "cohere": cohere,  # Cohere v2 Chat, a wire of its own
}


def _module(provider: str) -> ModuleType:
    module = _MODULES.get(provider)
    if module is None:
        raise ValueError(f"unknown provider '{provider}' (expected one of: {', '.join(PROVIDERS)})")
    return module


def default_model(provider: str) -> str:
    """The model a stream names when neither the caller nor the message's thinking parts do."""
    model: str = _module(provider).DEFAULT_MODEL
    return model


def carries_ids(provider: str) -> bool:
    """Whether ``provider``'s stream names its response id and model (Bedrock's does not: the
    round trip then expects ``response_id`` None and thinking ``model_id`` None)."""
    carries: Callable[[], bool] | None = getattr(_module(provider), "carries_ids", None)
    return carries is None or carries()


def representable(provider: str, message: AssistantMessage) -> str | None:
    """Why ``provider``'s stream cannot carry ``message`` (so the round trip cannot hold), or None."""
    check: Callable[[AssistantMessage], str | None] = _module(provider).check
    return check(message)


def emit_stream(
    provider: str, message: AssistantMessage, *, response_id: str = "resp_emit", model: str | None = None
) -> bytes:
    """The complete SSE body ``provider`` sends for ``message``; NotRepresentable if it cannot.

    ``model`` defaults to the thinking parts' ``model_id`` (else ``default_model``); it
    must agree with them, since the parser fills ``model_id`` from the stream's model.
    """
    module = _module(provider)
    reason = representable(provider, message)
    if reason is not None:
        raise NotRepresentable(f"{provider}: {reason}")
    if not response_id:
        raise NotRepresentable(f"{provider}: response_id must be non-empty (the parser reads '' as absent)")
    name = message_model(message, model, module.DEFAULT_MODEL)
    emit: Callable[..., bytes] = module.emit
    return emit(message, response_id=response_id, model=name)
