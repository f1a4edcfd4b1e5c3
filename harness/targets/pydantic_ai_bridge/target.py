"""pydantic-ai's real model classes, offline: render = capture the request, replay = serve recorded bytes.

Each call goes through ``Model.request`` / ``Model.request_stream`` of pydantic-ai's own
model class for the provider, built on its own provider class with an offline client from
``harness.kit.OfflineWire``; the request body reported is the JSON the SDK put on the wire.
"""

# pyright: reportMissingImports=false, reportUnknownMemberType=false, reportUnknownVariableType=false
# pyright: reportUnknownArgumentType=false, reportAttributeAccessIssue=false, reportUnknownParameterType=false

from __future__ import annotations

import asyncio
import base64
from collections.abc import Sequence
from importlib.metadata import version
from typing import Any

from pydantic_ai import _ssrf  # pyright: ignore[reportPrivateUsage]
from pydantic_ai import messages as pm
from pydantic_ai.messages import repair_messages

from harness import model as canon
from harness.contract.chunking import Chunking
from harness.contract.exchange import Exchange
from harness.contract.providers import PROVIDERS
from harness.contract.rendered import Rendered
from harness.contract.results import CallResult, StreamItem, TextDelta, ThinkingDelta, ToolCallStart
from harness.contract.routing import route
from harness.kit import (
    OfflineWire,
    WireError,
    final_result,
    minted_id_notes,
    recorded_call,
    require_openrouter_chat,
    sent_id,
    usage,
)
from harness.model import HistoryEvent, StopReason
from harness.params import CallParams
from harness.providers import default_model
from harness.targets.pydantic_ai_bridge import convert, models

__all__ = ["TARGET", "PydanticAITarget"]

_FINISH: dict[str, StopReason] = {
    "stop": "stop",
    "length": "length",
    "tool_call": "tool_use",
    "error": "error",
}
#: OpenRouter ids are ``vendor/model``; pydantic-ai refuses a bare id (UserError) before sending anything.
_OPENROUTER_VENDORS = (
    ("claude", "anthropic"),
    ("gemini", "google"),
    ("gemma", "google"),
    ("gpt", "openai"),
    ("o", "openai"),
)


async def _no_download(url: str, **_: Any) -> Any:
    raise NotImplementedError(
        f"pydantic-ai downloads {url} itself to inline it; the bridge never touches the network"
    )


_ssrf.safe_download = _no_download  # pydantic-ai fetches image URLs for some providers (GoogleModel)


def model_name(provider: str, name: str) -> str:
    """The model id pydantic-ai gets: verbatim, except a bare OpenRouter id gets its vendor prefix."""
    if provider != "openrouter" or "/" in name:
        return name
    vendor = next((v for prefix, v in _OPENROUTER_VENDORS if name.startswith(prefix)), None)
    if vendor is None:
        raise NotImplementedError(f"pydantic-ai target: OpenRouter model {name!r} has no vendor prefix")
    return f"{vendor}/{name}"


def _recorded_call(provider: str, exchange: Exchange) -> tuple[str | None, bool]:
    """The recorded call's model and whether its answer is a stream (``harness.kit.recorded_call``:
    Bedrock's from its URL); pydantic-ai's ``BedrockConverseModel`` speaks Converse only."""
    try:
        return recorded_call(provider, exchange)
    except NotImplementedError:
        raise NotImplementedError(
            "pydantic-ai's BedrockConverseModel speaks Converse only; this recording is another Bedrock operation"
        ) from None


def _as_an_agent_sends(model: Any, messages: list[Any], parameters: Any) -> list[Any]:
    """The history an agent run hands the model: pydantic-ai's own repair, as ``_agent_graph`` applies it.

    Before every model request the agent drops orphaned tool results, adds a result for each
    dangling call and merges adjacent messages (``repair_messages``), then lets the model
    prepare the history and repairs again if that changed it.
    """
    messages = repair_messages(messages, repair_last_response=True)
    prepared = model.prepare_messages(messages, parameters)
    return repair_messages(prepared, repair_last_response=True) if prepared is not messages else prepared


def _item(event: Any) -> StreamItem | None:
    if isinstance(event, pm.PartStartEvent):
        part = event.part
        if isinstance(part, pm.TextPart) and part.content:
            return TextDelta(part.content)
        if isinstance(part, pm.ThinkingPart) and part.content:
            return ThinkingDelta(part.content)
        if isinstance(part, pm.ToolCallPart):
            return ToolCallStart(part.tool_call_id, part.tool_name)
    elif isinstance(event, pm.PartDeltaEvent):
        delta = event.delta
        if isinstance(delta, pm.TextPartDelta) and delta.content_delta:
            return TextDelta(delta.content_delta)
        if isinstance(delta, pm.ThinkingPartDelta) and delta.content_delta:
            return ThinkingDelta(delta.content_delta)
    return None


#: pydantic-ai ``provider_name`` -> the canonical signature format (the inverse of ``convert.PROVIDER_NAMES``).
_FORMATS = {"anthropic": "anthropic", "openai": "openai-responses", "google": "google", "bedrock": "bedrock"}


def _signature_format(part: pm.ThinkingPart) -> str | None:
    if part.provider_name == "openrouter":  # pydantic-ai keeps OpenRouter's own format in provider_details
        return (part.provider_details or {}).get("format")
    fmt = _FORMATS.get(part.provider_name or "")
    redacted = f"{fmt}-redacted"
    if convert.REDACTED_IDS.get(redacted) == part.id:
        return redacted
    return fmt


def _signature(part: pm.ThinkingPart, fmt: str | None) -> str:
    """The signature as the canonical history holds it (Bedrock's redacted blob: base64, as on the JSON wire)."""
    signature = str(part.signature)
    if fmt == "bedrock-redacted":
        return base64.b64encode(signature.encode("utf-8")).decode("ascii")
    return signature


def _parts(response: pm.ModelResponse, exchange: Exchange) -> list[canon.AnyPart]:
    out: list[canon.AnyPart] = []
    for part in response.parts:
        if isinstance(part, pm.TextPart):
            out.append(canon.TextPart(text=part.content, item_id=sent_id(part.id, exchange)))
        elif isinstance(part, pm.ThinkingPart):
            if part.content:
                out.append(canon.ThinkingTextPart(id=sent_id(part.id, exchange), text=part.content))
            if part.signature:
                fmt = _signature_format(part)
                out.append(
                    canon.ThinkingSignaturePart(
                        id=sent_id(part.id, exchange), signature=_signature(part, fmt), format=fmt
                    )
                )
        elif isinstance(part, pm.ToolCallPart):
            out.append(
                canon.ToolCallPart(
                    call_id=part.tool_call_id,
                    tool_name=part.tool_name,
                    arguments_json=part.args if isinstance(part.args, str) else part.args_as_json_str(),
                    item_id=sent_id(part.id, exchange),
                )
            )
        signature = (getattr(part, "provider_details", None) or {}).get("thought_signature")
        if signature and not isinstance(part, pm.ThinkingPart):
            out.append(canon.ThinkingSignaturePart(signature=signature, format="google"))
    return out


def _result(
    response: pm.ModelResponse | None, items: list[StreamItem], errors: list[str], exchange: Exchange
) -> CallResult:
    if response is None:
        return final_result(
            [],
            provider_stop=None,
            usage=None,
            errors=errors or ["pydantic-ai returned no response"],
            items=items,
        )
    parts = _parts(response, exchange)
    u = response.usage
    reasoning = u.details.get("reasoning_tokens")
    errors = list(errors)
    if response.finish_reason == "content_filter":  # the shared rule: a safety stop is an error
        errors.append("pydantic-ai: finish_reason content_filter (the provider withheld the answer)")
    return final_result(
        parts,
        provider_stop=_FINISH.get(response.finish_reason or ""),
        usage=usage(
            u.input_tokens,
            u.output_tokens,
            cached_input_tokens=u.cache_read_tokens,
            cache_creation_input_tokens=u.cache_write_tokens,
            reasoning_tokens=reasoning,
        ),
        errors=errors,
        items=items,
        response_id=sent_id(response.provider_response_id, exchange),
        notes=minted_id_notes(parts, exchange),
    )


class PydanticAITarget:
    """The Target protocol over pydantic-ai's model classes; one event loop, one model per (provider, model)."""

    name = "pydantic-ai"
    lacks = frozenset({"warnings"})  # pydantic-ai drops and rewrites parts silently (no warning channel)

    def __init__(self) -> None:
        self.version: str | None = version("pydantic-ai-slim")
        self._loop = asyncio.new_event_loop()
        self._models: dict[tuple[str, str, bool], tuple[Any, OfflineWire]] = {}

    def providers(self) -> Sequence[str]:
        return PROVIDERS

    def _get(self, provider: str, name: str | None, responses: bool = False) -> tuple[Any, OfflineWire]:
        """The model for ``name``, else the reference adapters' default (both targets then render the same model)."""
        if provider not in PROVIDERS:
            raise NotImplementedError(f"pydantic-ai target: unsupported provider {provider!r}")
        name = model_name(provider, name or default_model(provider))
        key = (provider, name, responses)
        if key not in self._models:
            wire = OfflineWire()
            self._models[key] = (models.build(provider, name, wire, responses=responses), wire)
        return self._models[key]

    async def _stream(
        self, model: Any, messages: list[Any], settings: Any, parameters: Any
    ) -> tuple[Any, list[StreamItem], list[str]]:
        items: list[StreamItem] = []
        response: Any = None
        async with model.request_stream(messages, settings, parameters) as stream:
            try:
                async for event in stream:
                    if (item := _item(event)) is not None:
                        items.append(item)
            except Exception as exc:  # a failure mid-stream: keep what arrived, say why
                return stream.get(), items, [f"pydantic-ai raised {type(exc).__name__}: {exc}"]
            response = stream.get()
        return response, items, []

    async def _call(
        self, model: Any, messages: list[Any], settings: Any, parameters: Any, stream: bool
    ) -> tuple[Any, list[StreamItem], list[str]]:
        try:
            if stream:
                return await self._stream(model, messages, settings, parameters)
            return await model.request(messages, settings, parameters), [], []
        except NotImplementedError:
            raise
        except Exception as exc:  # an HTTP error or a response pydantic-ai could not read
            return (
                None,
                [],
                [f"pydantic-ai raised {type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"],
            )

    def render(self, provider: str, history: Sequence[HistoryEvent], params: CallParams) -> Rendered:
        model, wire = self._get(provider, params.model)
        parameters = convert.request_parameters(params)
        messages = _as_an_agent_sends(model, convert.model_messages(history, params, provider), parameters)
        settings = convert.settings(provider, params)
        wire.capture()
        _, _, errors = self._loop.run_until_complete(
            self._call(model, messages, settings, parameters, params.stream)
        )
        if not wire.requests:
            raise WireError(errors[0] if errors else "pydantic-ai sent no request")
        return Rendered(body=wire.only_body(), warnings=[])

    def replay(self, provider: str, exchange: Exchange, chunk_size: Chunking = None) -> CallResult:
        require_openrouter_chat(
            provider,
            exchange,
            "pydantic-ai's OpenRouterModel speaks Chat Completions only; this is OpenRouter's {wire} endpoint",
        )
        recorded, stream = _recorded_call(provider, exchange)
        found = route(exchange.method, exchange.uri)
        responses = (
            provider in models.RESPONSES_MODELS and found is not None and found.wire == "openai-responses"
        )
        model, wire = self._get(provider, recorded, responses)
        user = pm.ModelRequest(parts=[pm.UserPromptPart("(replayed response)")])
        wire.serve(exchange, chunk_size)
        response, items, errors = self._loop.run_until_complete(
            self._call(
                model,
                [user],
                convert.settings(provider, CallParams()),
                convert.request_parameters(CallParams()),
                stream,
            )
        )
        return _result(response, items, errors, exchange)


TARGET = PydanticAITarget()
