"""One pydantic-ai model class per provider id, each on its own provider class with an offline client.

``MODELS`` is the whole table: a provider pydantic-ai supports is one entry (a function from
the model name and the ``OfflineWire`` to the model). Every class named here is pydantic-ai's
own; the clients are the SDKs' own, with the wire's mock transport (httpx / httpx2) or, for
Bedrock's boto3 client, ``harness.kit.aws`` (botocore's ``before-send``
hook). Sources (pydantic-ai-slim 2.68.0, ``pydantic_ai/``):

- ``mistral``: ``models/mistral.py`` ``MistralModel`` on ``providers/mistral.py`` ``MistralProvider``;
- ``groq``: ``models/groq.py`` ``GroqModel`` on ``providers/groq.py`` ``GroqProvider`` (an httpx client);
- ``deepseek``: ``OpenAIChatModel`` on ``providers/deepseek.py`` ``DeepSeekProvider`` (pydantic-ai's own
  pairing: its ``KnownModelName`` ``deepseek:...`` infers ``OpenAIChatModel``); a recording of
  DeepSeek's Responses-compatible endpoint replays through ``OpenAIResponsesModel`` on the same
  provider (``RESPONSES_MODELS``);
- ``cerebras``: ``models/cerebras.py`` ``CerebrasModel`` on ``providers/cerebras.py`` ``CerebrasProvider``;
- ``zai``: ``models/zai.py`` ``ZaiModel`` on ``providers/zai.py`` ``ZaiProvider``;
- ``huggingface``: ``models/huggingface.py`` ``HuggingFaceModel`` on ``providers/huggingface.py``
  ``HuggingFaceProvider`` with an ``AsyncInferenceClient`` whose httpx client is the wire's; the
  router URL is given (``base_url``), else the client would first ask the Hub which inference
  provider serves the model (a second request);
- ``cohere``: ``models/cohere.py`` ``CohereModel`` on ``providers/cohere.py`` ``CohereProvider``;
- ``bedrock``: ``models/bedrock.py`` ``BedrockConverseModel`` on ``providers/bedrock.py``
  ``BedrockProvider`` with an unsigned boto3 ``bedrock-runtime`` client.
"""

# pyright: reportMissingImports=false, reportUnknownMemberType=false, reportUnknownVariableType=false
# pyright: reportUnknownArgumentType=false, reportAttributeAccessIssue=false, reportUnknownParameterType=false

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from harness.kit import OfflineWire, aws

__all__ = ["HF_ROUTER", "MODELS", "RESPONSES_MODELS", "build"]

_KEY = "harness-offline"  # never sent anywhere: the transport is offline
#: Hugging Face's router, OpenAI-compatible (the recordings' host, router.huggingface.co).
HF_ROUTER = "https://router.huggingface.co/v1"


def _anthropic(name: str, wire: OfflineWire) -> Any:
    from pydantic_ai.models.anthropic import AnthropicModel
    from pydantic_ai.providers.anthropic import AnthropicProvider

    return AnthropicModel(name, provider=AnthropicProvider(api_key=_KEY, http_client=wire.httpx2_client()))


def _gemini(name: str, wire: OfflineWire) -> Any:
    from pydantic_ai.models.google import GoogleModel
    from pydantic_ai.providers.google import GoogleProvider

    client = wire.httpx2_client(timeout=600)
    return GoogleModel(name, provider=GoogleProvider(api_key=_KEY, http_client=client))


def _openrouter(name: str, wire: OfflineWire) -> Any:
    from pydantic_ai.models.openrouter import OpenRouterModel
    from pydantic_ai.providers.openrouter import OpenRouterProvider

    return OpenRouterModel(name, provider=OpenRouterProvider(api_key=_KEY, http_client=wire.httpx2_client()))


def _openai_chat(name: str, wire: OfflineWire) -> Any:
    from pydantic_ai.models.openai import OpenAIChatModel
    from pydantic_ai.providers.openai import OpenAIProvider

    return OpenAIChatModel(name, provider=OpenAIProvider(api_key=_KEY, http_client=wire.httpx2_client()))


def _openai_responses(name: str, wire: OfflineWire) -> Any:
    from pydantic_ai.models.openai import OpenAIResponsesModel
    from pydantic_ai.providers.openai import OpenAIProvider

    return OpenAIResponsesModel(name, provider=OpenAIProvider(api_key=_KEY, http_client=wire.httpx2_client()))


def _mistral(name: str, wire: OfflineWire) -> Any:
    from pydantic_ai.models.mistral import MistralModel
    from pydantic_ai.providers.mistral import MistralProvider

    return MistralModel(name, provider=MistralProvider(api_key=_KEY, http_client=wire.httpx2_client()))


def _groq(name: str, wire: OfflineWire) -> Any:
    from pydantic_ai.models.groq import GroqModel
    from pydantic_ai.providers.groq import GroqProvider

    # GroqProvider asserts an httpx.AsyncClient (providers/groq.py, _set_http_client)
    return GroqModel(name, provider=GroqProvider(api_key=_KEY, http_client=wire.httpx_client()))


def _deepseek(name: str, wire: OfflineWire) -> Any:
    from pydantic_ai.models.openai import OpenAIChatModel
    from pydantic_ai.providers.deepseek import DeepSeekProvider

    return OpenAIChatModel(name, provider=DeepSeekProvider(api_key=_KEY, http_client=wire.httpx2_client()))


def _deepseek_responses(name: str, wire: OfflineWire) -> Any:
    from pydantic_ai.models.openai import OpenAIResponsesModel
    from pydantic_ai.providers.deepseek import DeepSeekProvider

    return OpenAIResponsesModel(
        name, provider=DeepSeekProvider(api_key=_KEY, http_client=wire.httpx2_client())
    )


def _cerebras(name: str, wire: OfflineWire) -> Any:
    from pydantic_ai.models.cerebras import CerebrasModel
    from pydantic_ai.providers.cerebras import CerebrasProvider

    return CerebrasModel(name, provider=CerebrasProvider(api_key=_KEY, http_client=wire.httpx2_client()))


def _zai(name: str, wire: OfflineWire) -> Any:
    from pydantic_ai.models.zai import ZaiModel
    from pydantic_ai.providers.zai import ZaiProvider

    return ZaiModel(name, provider=ZaiProvider(api_key=_KEY, http_client=wire.httpx2_client()))


def _huggingface(name: str, wire: OfflineWire) -> Any:
    from huggingface_hub import AsyncInferenceClient
    from pydantic_ai.models.huggingface import HuggingFaceModel
    from pydantic_ai.providers.huggingface import HuggingFaceProvider

    client = AsyncInferenceClient(api_key=_KEY, base_url=HF_ROUTER)
    # AsyncInferenceClient keeps its httpx client here once opened (_get_async_client); it is the wire's
    client._async_client = wire.httpx_client()  # pyright: ignore[reportPrivateUsage]
    return HuggingFaceModel(name, provider=HuggingFaceProvider(hf_client=client, api_key=_KEY))


def _cohere(name: str, wire: OfflineWire) -> Any:
    from pydantic_ai.models.cohere import CohereModel
    from pydantic_ai.providers.cohere import CohereProvider

    # CohereProvider hands an httpx.AsyncClient to cohere's AsyncClientV2 (providers/cohere.py)
    return CohereModel(name, provider=CohereProvider(api_key=_KEY, http_client=wire.httpx_client()))


def _bedrock(name: str, wire: OfflineWire) -> Any:
    from pydantic_ai.models.bedrock import BedrockConverseModel
    from pydantic_ai.providers.bedrock import BedrockProvider

    return BedrockConverseModel(name, provider=BedrockProvider(bedrock_client=aws.offline_boto3_client(wire)))


#: Provider id -> pydantic-ai's model for it (model name, wire -> model). One entry per provider.
MODELS: dict[str, Callable[[str, OfflineWire], Any]] = {
    "anthropic": _anthropic,
    "gemini": _gemini,
    "openai-chat": _openai_chat,
    "openai-responses": _openai_responses,
    "openrouter": _openrouter,
    "bedrock": _bedrock,
    "mistral": _mistral,
    "groq": _groq,
    "deepseek": _deepseek,
    "cerebras": _cerebras,
    "zai": _zai,
    "huggingface": _huggingface,
    "cohere": _cohere,
}


#: Providers that also serve a Responses-compatible endpoint pydantic-ai speaks, with its model
#: for it: DeepSeek's (``providers/deepseek.py`` lines 71-87 tune ``OpenAIResponsesModel`` for it).
RESPONSES_MODELS: dict[str, Callable[[str, OfflineWire], Any]] = {"deepseek": _deepseek_responses}


def build(provider: str, name: str, wire: OfflineWire, *, responses: bool = False) -> Any:
    """pydantic-ai's model for ``provider`` (its Responses endpoint's when ``responses``);
    NotImplementedError for a provider or endpoint it has no model for."""
    make = (RESPONSES_MODELS if responses else MODELS).get(provider)
    if make is None:
        raise NotImplementedError(f"pydantic-ai target: no pydantic-ai model for provider {provider!r}")
    return make(name, wire)
