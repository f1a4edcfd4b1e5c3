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

from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from harness.contract.providers import CHAT_DIALECTS, PROVIDERS
from harness.importer import anthropic, bedrock, chat, cohere, gemini, responses
from harness.importer.common import Ledger, obj
from harness.model import HistoryEvent
from harness.params import CallParams

__all__ = ["OTHER_WIRES", "PROVIDERS", "Imported", "body_wire", "import_request"]

#: The body format each provider's importer reads.
NATIVE_WIRE = {
    "anthropic": "anthropic",
    "gemini": "gemini",
    "openai-chat": "openai-chat",
    "openai-responses": "openai-responses",
    "openrouter": "openai-chat",
    "bedrock": "bedrock-converse",
    **dict.fromkeys(CHAT_DIALECTS, "openai-chat"),  # the OpenAI-compatible dialects: Chat's body
    "cohere": "cohere-v2",
}

#: Other body formats a provider serves that this importer reads: DeepSeek's Responses-compatible
#: endpoint (``api.deepseek.com/responses``, api-docs.deepseek.com/guides/responses_api) takes
#: OpenAI Responses bodies, read by the Responses reader.
OTHER_WIRES: dict[str, frozenset[str]] = {"deepseek": frozenset({"openai-responses"})}


def body_wire(provider: str, uri: str | None) -> str:
    """The body format of a request to ``uri``: the provider's native one unless the URL routes
    to another format the provider serves (``harness.contract.routing``)."""
    from harness.contract.routing import route

    found = route("POST", uri) if uri else None
    if found is not None and found.provider == provider and found.wire in OTHER_WIRES.get(provider, ()):
        return found.wire
    return NATIVE_WIRE[provider]


@dataclass
class Imported:
    """A request body read back: the history, the params, and what neither could hold (``PATH: reason``)."""

    history: list[HistoryEvent]
    params: CallParams
    unrepresented: list[str] = field(default_factory=list[str])

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
    if provider not in PROVIDERS:
        raise ValueError(f"unknown provider '{provider}' (expected one of: {', '.join(PROVIDERS)})")
    wire = wire or body_wire(provider, uri)
    readable = {NATIVE_WIRE[provider], *OTHER_WIRES.get(provider, ())}
    if wire not in readable:
        raise ValueError(
            f"{provider}: the {wire} body format is not supported (only {', '.join(sorted(readable))})"
        )
    if not isinstance(body, dict):
        raise ValueError(f"request body must be a JSON object, not {type(body).__name__}")
    request, ledger = obj(body), Ledger()
    try:
        if provider == "anthropic":
            history, params = anthropic.history(request, ledger), anthropic.params(request, ledger)
        elif wire == "openai-responses":  # OpenAI's own, or a dialect's Responses-compatible endpoint
            history, params = responses.history(request, ledger), responses.params(request, ledger)
        elif provider in ("openai-chat", "openrouter", *CHAT_DIALECTS):
            history, params = chat.history(request, provider, ledger), chat.params(request, provider, ledger)
        elif provider == "cohere":
            history, params = cohere.history(request, ledger), cohere.params(request, ledger)
        elif provider == "bedrock":  # the model and streaming are the URL (``uri``)
            model, _ = bedrock.model_from_uri(uri)
            history, params = bedrock.history(request, model, ledger), bedrock.params(request, uri, ledger)
        else:
            model, _ = gemini.model_from_uri(uri)
            history, params = gemini.history(request, model, ledger), gemini.params(request, uri, ledger)
    except ValidationError as exc:
        error = exc.errors()[0]
        where = ".".join(str(p) for p in error["loc"]) or "(body)"
        raise ValueError(f"{where}: {error['msg']}") from None
    return Imported(history, params, sorted(set(ledger.lines), key=ledger.lines.index))
