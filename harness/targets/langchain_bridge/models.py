"""LangChain's own chat model classes for each provider, configured from the canonical call params, offline.

Each integration builds its own HTTP client; the bridge hands none (``OfflineWire(intercept_all=True)``
answers every httpx client's default transport for the duration of a call), except Bedrock's boto3
client, which langchain-aws takes as ``client=`` (``harness.kit.offline_boto3_client``).
"""

# pyright: reportMissingImports=false, reportUnknownMemberType=false, reportUnknownVariableType=false
# pyright: reportUnknownArgumentType=false, reportAttributeAccessIssue=false, reportUnknownParameterType=false

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from harness.kit import OfflineWire, offline_boto3_client
from harness.params import CallParams, ForcedTool

__all__ = ["MODELS", "PACKAGES", "build", "tools"]

_KEY = "offline-key"


def _anthropic(name: str, params: CallParams, wire: OfflineWire) -> Any:
    from langchain_anthropic import ChatAnthropic

    kwargs: dict[str, Any] = {}
    thinking = params.thinking
    if thinking is not None and not thinking.enabled:
        kwargs["thinking"] = {"type": "disabled"}
    elif thinking is not None and thinking.budget_tokens is not None:
        kwargs["thinking"] = {"type": "enabled", "budget_tokens": thinking.budget_tokens}
    if params.max_tokens is not None:
        kwargs["max_tokens"] = params.max_tokens
    return ChatAnthropic(model=name, api_key=_KEY, max_retries=0, temperature=params.temperature, **kwargs)


def _openai(name: str, params: CallParams, wire: OfflineWire, *, responses: bool) -> Any:
    from langchain_openai import ChatOpenAI

    kwargs: dict[str, Any] = {"use_responses_api": responses}
    thinking = params.thinking
    if thinking is not None and thinking.enabled and (thinking.effort or thinking.include_thoughts):
        if responses:
            kwargs["reasoning"] = {"effort": thinking.effort} if thinking.effort else {}
            if thinking.include_thoughts:
                kwargs["reasoning"]["summary"] = "auto"
        elif thinking.effort:
            kwargs["reasoning_effort"] = thinking.effort
    return ChatOpenAI(
        model=name,
        api_key=_KEY,
        max_retries=0,
        max_tokens=params.max_tokens,
        temperature=params.temperature,
        **kwargs,
    )


def _gemini(name: str, params: CallParams, wire: OfflineWire) -> Any:
    from langchain_google_genai import ChatGoogleGenerativeAI

    kwargs: dict[str, Any] = {}
    thinking = params.thinking
    if thinking is not None:
        if not thinking.enabled:
            kwargs["thinking_budget"] = 0
        elif thinking.budget_tokens is not None:
            kwargs["thinking_budget"] = thinking.budget_tokens
        if thinking.enabled and thinking.include_thoughts:
            kwargs["include_thoughts"] = True
    if params.temperature is not None:  # None leaves langchain-google-genai's own default
        kwargs["temperature"] = params.temperature
    return ChatGoogleGenerativeAI(
        model=name, google_api_key=_KEY, max_retries=0, max_output_tokens=params.max_tokens, **kwargs
    )


def _bedrock(name: str, params: CallParams, wire: OfflineWire) -> Any:
    from langchain_aws import ChatBedrockConverse

    client = offline_boto3_client(wire)
    kwargs: dict[str, Any] = {}
    thinking = params.thinking
    if thinking is not None and thinking.enabled and thinking.budget_tokens is not None:
        kwargs["additional_model_request_fields"] = {
            "thinking": {"type": "enabled", "budget_tokens": thinking.budget_tokens}
        }
    return ChatBedrockConverse(
        model=name,
        client=client,
        bedrock_client=client,
        region_name="us-east-1",
        max_tokens=params.max_tokens,
        temperature=params.temperature,
        **kwargs,
    )


def _groq(name: str, params: CallParams, wire: OfflineWire) -> Any:
    from langchain_groq import ChatGroq

    kwargs: dict[str, Any] = {} if params.temperature is None else {"temperature": params.temperature}
    return ChatGroq(model=name, api_key=_KEY, max_retries=0, max_tokens=params.max_tokens, **kwargs)


def _mistral(name: str, params: CallParams, wire: OfflineWire) -> Any:
    from langchain_mistralai import ChatMistralAI

    kwargs: dict[str, Any] = {} if params.temperature is None else {"temperature": params.temperature}
    return ChatMistralAI(model=name, api_key=_KEY, max_retries=0, max_tokens=params.max_tokens, **kwargs)


def _deepseek(name: str, params: CallParams, wire: OfflineWire) -> Any:
    from langchain_deepseek import ChatDeepSeek

    return ChatDeepSeek(
        model=name, api_key=_KEY, max_retries=0, max_tokens=params.max_tokens, temperature=params.temperature
    )


#: Provider -> the integration's chat model for it (model name, params, wire -> model).
MODELS: dict[str, Callable[[str, CallParams, OfflineWire], Any]] = {
    "anthropic": _anthropic,
    "openai-chat": lambda n, p, w: _openai(n, p, w, responses=False),
    "openai-responses": lambda n, p, w: _openai(n, p, w, responses=True),
    "gemini": _gemini,
    "bedrock": _bedrock,
    "groq": _groq,
    "mistral": _mistral,
    "deepseek": _deepseek,
}
#: The distribution whose version is the code under audit, per provider.
PACKAGES = {
    "anthropic": "langchain-anthropic",
    "openai-chat": "langchain-openai",
    "openai-responses": "langchain-openai",
    "gemini": "langchain-google-genai",
    "bedrock": "langchain-aws",
    "groq": "langchain-groq",
    "mistral": "langchain-mistralai",
    "deepseek": "langchain-deepseek",
}


def build(provider: str, name: str, params: CallParams, wire: OfflineWire) -> Any:
    """The integration's chat model, with the params' tools bound as a LangChain user binds them."""
    make = MODELS.get(provider)
    if make is None:
        raise NotImplementedError(
            f"langchain target: no LangChain integration here for provider {provider!r}"
        )
    if params.output_format is not None:
        raise NotImplementedError(
            "langchain target: structured output (with_structured_output) is not mapped"
        )
    model = make(name, params, wire)
    return tools(model, params, provider)


def tools(model: Any, params: CallParams, provider: str) -> Any:
    """``bind_tools`` with OpenAI-format function definitions (LangChain's common tool format)."""
    if not params.tools and params.tool_choice is None:
        return model
    definitions = [
        {
            "type": "function",
            "function": {"name": t.name, "description": t.description, "parameters": t.parameters},
        }
        for t in params.tools or []
    ]
    kwargs: dict[str, Any] = {}
    choice = params.tool_choice
    if isinstance(choice, ForcedTool):
        kwargs["tool_choice"] = choice.name
    elif choice == "required":
        kwargs["tool_choice"] = "any"  # LangChain's word for "some tool" on every integration
    elif choice is not None:
        kwargs["tool_choice"] = choice
    strict = {t.strict for t in params.tools or []}
    if provider.startswith("openai") and len(strict) == 1 and None not in strict:
        kwargs["strict"] = strict.pop()
    return model.bind_tools(definitions, **kwargs)
