"""One home per provider: the registry of the reference side's provider parts.

Each provider id (pinned in ``harness.contract.providers``, the single list of ids)
has a folder here: ``request.py`` (the input adapter), ``stream.py`` (the stream parser;
OpenRouter also ``stream_responses.py`` for its Responses endpoint), ``profile.py``
(model facts) and ``DECISIONS.md``. Every reference-side module gets adapters, parsers
and default models from this registry; judges keep reading only the contract's list.
Modules load on first use, so ``import harness.providers`` stays cheap.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib import import_module
from types import ModuleType

from harness.contract.providers import ENDPOINTS, PROVIDERS
from harness.mapping.adapter import InputAdapter
from harness.stream.base import StreamParser

__all__ = [
    "PROVIDERS",
    "REGISTRY",
    "Provider",
    "default_model",
    "get_adapter",
    "get_endpoint",
    "get_parser",
    "get_profile",
]


@dataclass(frozen=True)
class Provider:
    """Where one provider's parts live (the registry's key is its id): its folder and, per wire
    format it serves, its parser module."""

    folder: str
    #: Wire format -> parser module in the folder; ``None`` is the provider's own (default) wire.
    streams: dict[str | None, str] = field(default_factory=lambda: {None: "stream"})

    def _module(self, name: str) -> ModuleType:
        return import_module(f"{__name__}.{self.folder}.{name}")

    def adapter(self) -> InputAdapter:
        adapter: InputAdapter = self._module("request").ADAPTER
        return adapter

    def parser(self, wire: str | None = None) -> type[StreamParser]:
        parser: type[StreamParser] = self._module(self.streams.get(wire, self.streams[None])).PARSER
        return parser

    def profile(self) -> ModuleType:
        return self._module("profile")

    def endpoint(self, name: str) -> ModuleType:
        """The module of an endpoint serving this provider's wire (``harness.contract.providers.ENDPOINTS``):
        its ``to_endpoint(body, params) -> (body, warnings, notes)``."""
        return self._module(name)


REGISTRY: dict[str, Provider] = {
    "anthropic": Provider("anthropic"),
    "gemini": Provider("gemini"),
    "openai-chat": Provider("openai_chat"),
    "openai-responses": Provider("openai_responses"),
    # OpenRouter serves Chat Completions (its default) and the Responses format.
    "openrouter": Provider("openrouter", {None: "stream", "openai-responses": "stream_responses"}),
    "bedrock": Provider("bedrock"),  # AWS Bedrock Converse; streams are AWS event-stream frames
    # OpenAI-compatible Chat Completions dialects (issue 27), each a thin folder on the core.
    "mistral": Provider("mistral"),
    "groq": Provider("groq"),
    # DeepSeek also serves a Responses-compatible endpoint.
    "deepseek": Provider("deepseek", {None: "stream", "openai-responses": "stream_responses"}),
    "cerebras": Provider("cerebras"),
    "zai": Provider("zai"),
    "huggingface": Provider("huggingface"),
    "cohere": Provider("cohere"),  # Cohere v2 Chat, a wire of its own
}
if tuple(REGISTRY) != PROVIDERS:  # the pinned ids are the one list; the registry follows it
    raise RuntimeError("harness.providers.REGISTRY must list exactly harness.contract.providers.PROVIDERS")


def _provider(provider: str) -> Provider:
    if provider not in REGISTRY:
        raise ValueError(f"unknown provider '{provider}' (expected one of: {', '.join(PROVIDERS)})")
    return REGISTRY[provider]


def get_adapter(provider: str) -> InputAdapter:
    """The reference adapter for a provider id; ValueError naming the valid ids otherwise."""
    return _provider(provider).adapter()


def get_parser(provider: str, wire: str | None = None) -> type[StreamParser]:
    """The reference parser class for a provider id (a fresh instance per model call).

    ``wire`` picks between a provider's wire formats (OpenRouter: ``openai-chat``, the
    default, or ``openai-responses``); None or the provider's own format is the default.
    """
    return _provider(provider).parser(wire)


def get_profile(provider: str) -> ModuleType:
    """The provider's model facts (``profile.py``)."""
    return _provider(provider).profile()


def default_model(provider: str) -> str:
    """The model a request names when ``params.model`` is None (public as ``harness.default_model``).

    A bridge uses it for the same default (``params.model or harness.default_model(provider)``),
    so its request and the reference's name the same model; ValueError for an unknown provider.
    """
    model: str = get_profile(provider).DEFAULT_MODEL
    return model


def get_endpoint(provider: str, endpoint: str) -> ModuleType:
    """``harness/providers/<folder>/<endpoint>.py``; KeyError for an endpoint the provider has not."""
    if endpoint not in ENDPOINTS.get(provider, ()):
        raise KeyError(endpoint)
    return REGISTRY[provider].endpoint(endpoint)
