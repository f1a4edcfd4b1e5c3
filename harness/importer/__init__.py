"""Recorded request bodies -> canonical histories: the inverse of the input adapters, written without them.

``import_request(provider, body)`` reads a provider request body back into the canonical
model (harness.model) and call params (harness.params). It keeps every id, signature
(with its ``format`` and the request's model as ``model_id``), image, tool call and result,
the system prompt, tools and the sampling/thinking settings; whatever it cannot represent
it names in ``unrepresented``, one line per JSON path, and never drops silently. A value
equal to the API's documented default (for example ``tool_choice: auto``) is represented
by its absence. Judge-side: nothing here imports the reference adapters or stream parsers.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from harness.contract.providers import PROVIDER_TABLE, PROVIDERS, provider_entry
from harness.importer import anthropic, bedrock, chat, cohere, gemini, responses
from harness.importer.common import Json, Ledger, obj
from harness.model import HistoryEvent
from harness.params import CallParams

__all__ = ["OTHER_WIRES", "PROVIDERS", "Imported", "body_wire", "import_request"]

#: Wires a provider serves whose bodies this importer does not read for it: OpenRouter's
#: Responses endpoint (the importer reads OpenRouter's Chat extensions only).
_NOT_READ: dict[str, frozenset[str]] = {"openrouter": frozenset({"openai-responses"})}

#: Other body formats a provider serves that this importer reads: DeepSeek's Responses-compatible
#: endpoint (``api.deepseek.com/responses``, api-docs.deepseek.com/guides/responses_api) takes
#: OpenAI Responses bodies, read by the Responses reader.
OTHER_WIRES: dict[str, frozenset[str]] = {
    e.id: read
    for e in PROVIDER_TABLE
    if (read := frozenset(e.other_wires) - _NOT_READ.get(e.id, frozenset[str]()))
}


def body_wire(provider: str, uri: str | None) -> str:
    """The body format of a request to ``uri``: the provider's native one unless the URL routes
    to another format the provider serves (``harness.contract.routing``)."""
    from harness.contract.routing import route

    found = route("POST", uri) if uri else None
    if found is not None and found.provider == provider and found.wire in OTHER_WIRES.get(provider, ()):
        return found.wire
    return provider_entry(provider).wire


_Read = tuple[list[HistoryEvent], CallParams]


def _anthropic(request: Json, provider: str, uri: str | None, ledger: Ledger) -> _Read:
    return anthropic.history(request, ledger), anthropic.params(request, ledger)


def _responses(request: Json, provider: str, uri: str | None, ledger: Ledger) -> _Read:
    """OpenAI's own, or a dialect's Responses-compatible endpoint."""
    return responses.history(request, ledger), responses.params(request, ledger)


def _chat(request: Json, provider: str, uri: str | None, ledger: Ledger) -> _Read:
    return chat.history(request, provider, ledger), chat.params(request, provider, ledger)


def _cohere(request: Json, provider: str, uri: str | None, ledger: Ledger) -> _Read:
    return cohere.history(request, ledger), cohere.params(request, ledger)


def _bedrock(request: Json, provider: str, uri: str | None, ledger: Ledger) -> _Read:
    """The model and streaming are the URL (``uri``)."""
    model, _ = bedrock.model_from_uri(uri)
    return bedrock.history(request, model, ledger), bedrock.params(request, uri, ledger)


def _gemini(request: Json, provider: str, uri: str | None, ledger: Ledger) -> _Read:
    """The model and streaming are the URL (``uri``)."""
    model, _ = gemini.model_from_uri(uri)
    return gemini.history(request, model, ledger), gemini.params(request, uri, ledger)


#: The reader of each wire's request bodies.
_READERS: dict[str, Callable[[Json, str, str | None, Ledger], _Read]] = {
    "anthropic": _anthropic,
    "gemini": _gemini,
    "openai-chat": _chat,
    "openai-responses": _responses,
    "bedrock-converse": _bedrock,
    "cohere-v2": _cohere,
}


@dataclass
class Imported:
    """A request body read back: the history, the params, and what neither could hold (``PATH: reason``)."""

    history: list[HistoryEvent]
    params: CallParams
    unrepresented: list[str] = field(default_factory=lambda: [])

    @property
    def complete(self) -> bool:
        return not self.unrepresented


def import_request(provider: str, body: Any, *, wire: str | None = None, uri: str | None = None) -> Imported:
    """A provider request body -> ``Imported``.

    ``wire`` is the body's format; None: the one ``uri`` routes to (``body_wire``), else the
    provider's native one (OpenRouter also speaks the Responses format, which this importer
    does not read for it; DeepSeek's Responses bodies it does). ``uri`` also matters for Gemini
    and Bedrock, whose model and streaming live in the URL. Raises ValueError for an unknown
    provider, an unsupported wire or a body that is not a JSON object.
    """
    native = provider_entry(provider).wire  # ValueError naming the valid ids
    wire = wire or body_wire(provider, uri)
    readable = {native, *OTHER_WIRES.get(provider, ())}
    if wire not in readable:
        raise ValueError(
            f"{provider}: the {wire} body format is not supported (only {', '.join(sorted(readable))})"
        )
    if not isinstance(body, dict):
        raise ValueError(f"request body must be a JSON object, not {type(body).__name__}")
    request, ledger = obj(body), Ledger()
    try:
        history, params = _READERS[wire](request, provider, uri, ledger)
    except ValidationError as exc:
        error = exc.errors()[0]
        where = ".".join(str(p) for p in error["loc"]) or "(body)"
        raise ValueError(f"{where}: {error['msg']}") from None
    return Imported(history, params, sorted(set(ledger.lines), key=ledger.lines.index))
