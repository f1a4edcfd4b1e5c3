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
from dataclasses import dataclass
from functools import cache
from types import ModuleType

from harness.contract.providers import PROVIDERS, provider_entry
from harness.emit import anthropic, bedrock, cohere, gemini, openai_chat, openai_responses, openrouter
from harness.emit.common import NotRepresentable, message_model
from harness.emit.dialects import DialectEmitter
from harness.model import AssistantMessage

__all__ = ["PROVIDERS", "NotRepresentable", "carries_ids", "default_model", "emit_stream", "representable"]

#: The emitter of each wire (``WireEntry.id``): a module with ``check(message)``,
#: ``emit(message, *, response_id, model)`` and, when its stream names no response id or
#: model, ``carries_ids() -> False``.
_WIRES: dict[str, ModuleType] = {
    "anthropic": anthropic,
    "gemini": gemini,
    "openai-chat": openai_chat,
    "openai-responses": openai_responses,
    "bedrock-converse": bedrock,
    "cohere-v2": cohere,
}
#: Providers whose stream departs from their wire's beyond what a ``ChatDialect`` says.
_PROVIDERS: dict[str, ModuleType] = {"openrouter": openrouter}


@dataclass(frozen=True)
class _Emitter:
    check: Callable[[AssistantMessage], str | None]
    emit: Callable[..., bytes]
    carries_ids: bool


@cache
def _emitter(provider: str) -> _Emitter:
    """A provider's emitter: its own, a Chat dialect's (from its table entry), or its wire's."""
    entry = provider_entry(provider)  # ValueError naming the valid ids
    if entry.chat is not None:
        dialect = DialectEmitter(provider, entry.chat)
        return _Emitter(dialect.check, dialect.emit, True)
    module = _PROVIDERS.get(provider) or _WIRES[entry.wire]
    carries: Callable[[], bool] | None = getattr(module, "carries_ids", None)
    return _Emitter(module.check, module.emit, carries is None or carries())


def default_model(provider: str) -> str:
    """The model a stream names when neither the caller nor the message's thinking parts do."""
    return provider_entry(provider).stream_models[0]


def carries_ids(provider: str) -> bool:
    """Whether ``provider``'s stream names its response id and model (Bedrock's does not: the
    round trip then expects ``response_id`` None and thinking ``model_id`` None)."""
    return _emitter(provider).carries_ids


def representable(provider: str, message: AssistantMessage) -> str | None:
    """Why ``provider``'s stream cannot carry ``message`` (so the round trip cannot hold), or None."""
    return _emitter(provider).check(message)


def emit_stream(
    provider: str, message: AssistantMessage, *, response_id: str = "resp_emit", model: str | None = None
) -> bytes:
    """The complete SSE body ``provider`` sends for ``message``; NotRepresentable if it cannot.

    ``model`` defaults to the thinking parts' ``model_id`` (else ``default_model``); it
    must agree with them, since the parser fills ``model_id`` from the stream's model.
    """
    emitter = _emitter(provider)
    reason = emitter.check(message)
    if reason is not None:
        raise NotRepresentable(f"{provider}: {reason}")
    if not response_id:
        raise NotRepresentable(f"{provider}: response_id must be non-empty (the parser reads '' as absent)")
    name = message_model(message, model, default_model(provider))
    return emitter.emit(message, response_id=response_id, model=name)
