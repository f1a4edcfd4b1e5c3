"""One home per provider: the reference side's parts, found through the provider table.

Each provider id has an entry in ``harness.contract.providers.PROVIDER_TABLE`` (its facts)
and a folder here (``ProviderEntry.folder``): ``request.py`` (the input adapter, ``ADAPTER``),
``stream.py`` (the stream parser of its own wire, ``PARSER``; ``stream_<wire>.py`` for each
other wire it serves), ``profile.py`` (model facts the mapping depends on) and
``DECISIONS.md``. Every reference-side module gets adapters and parsers from here; judges
read only the table. Modules load on first use, so ``import harness.providers`` stays cheap.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module
from types import ModuleType

from harness.contract.providers import ENDPOINTS, PROVIDER_TABLE, PROVIDERS, ProviderEntry, provider_entry
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
    """Where one provider's parts live: its table entry names the folder and the wires."""

    entry: ProviderEntry

    @property
    def folder(self) -> str:
        return self.entry.folder

    def _module(self, name: str) -> ModuleType:
        return import_module(f"{__name__}.{self.entry.folder}.{name}")

    def adapter(self) -> InputAdapter:
        adapter: InputAdapter = self._module("request").ADAPTER
        return adapter

    def parser(self, wire: str | None = None) -> type[StreamParser]:
        """The parser of ``wire`` (None or an unknown wire: its own)."""
        module = "stream"
        if wire is not None and wire in self.entry.other_wires:
            module = f"stream_{wire.replace('-', '_')}"
        parser: type[StreamParser] = self._module(module).PARSER
        return parser

    def profile(self) -> ModuleType:
        return self._module("profile")

    def endpoint(self, name: str) -> ModuleType:
        """The module of an endpoint serving this provider's wire (``harness.contract.providers.ENDPOINTS``):
        its ``to_endpoint(body, params) -> (body, warnings, notes)``."""
        return self._module(name)


REGISTRY: dict[str, Provider] = {entry.id: Provider(entry) for entry in PROVIDER_TABLE}


def _provider(provider: str) -> Provider:
    return REGISTRY[provider_entry(provider).id]


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
    return provider_entry(provider).default_model


def get_endpoint(provider: str, endpoint: str) -> ModuleType:
    """``harness/providers/<folder>/<endpoint>.py``; KeyError for an endpoint the provider has not."""
    if endpoint not in ENDPOINTS.get(provider, ()):
        raise KeyError(endpoint)
    return REGISTRY[provider].endpoint(endpoint)
