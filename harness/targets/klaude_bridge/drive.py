"""Run klaude-code's real clients offline: render = capture the request, replay = serve recorded bytes.

``TARGET`` is the in-process target the worker serves (``harness.kit.serve``); the
``klaude-code`` entry point forwards to it (``harness.targets.klaude``).

Each call goes through ``client.call(param)`` exactly as klaude's agent step makes it,
so request building (``llm/*/input.py`` + ``build_payload``), the provider SDK's own
serialization and the stream parsing are all klaude's (and its pinned SDKs') code.
The request body reported is the JSON the SDK put on the wire.
"""

# pyright: reportMissingImports=false, reportUnknownMemberType=false, reportUnknownVariableType=false
# pyright: reportUnknownArgumentType=false, reportUnknownParameterType=false, reportAttributeAccessIssue=false

from __future__ import annotations

import asyncio
import tempfile
from collections.abc import Sequence
from importlib.metadata import version
from pathlib import Path
from typing import Any

from klaude_code.llm.registry import create_llm_client
from klaude_code.protocol import message

from harness.contract.chunking import Chunking
from harness.contract.providers import PROVIDERS
from harness.contract.rendered import Rendered
from harness.kit import OfflineWire, is_streamed, recorded_model, require_openrouter_chat
from harness.model import HistoryEvent
from harness.params import CallParams
from harness.providers.replay import Exchange
from harness.stream.base import CallResult
from harness.targets.klaude_bridge import convert_in, convert_out
from harness.targets.klaude_bridge.transport import patched_factories

__all__ = ["TARGET", "Driver", "KlaudeCallError"]


class KlaudeCallError(RuntimeError):
    """klaude-code raised, or ended a render without sending a request."""


class Driver:
    """One event loop and one klaude client per (provider, model), reused across calls."""

    name = "klaude-code"
    #: klaude emits no warnings: its deliberate drops cannot be announced.
    lacks = frozenset({"warnings"})

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.work_dir = Path(tempfile.mkdtemp(prefix="harness-klaude-"))
        self._clients: dict[tuple[str, str], tuple[Any, OfflineWire]] = {}
        self.version: str | None = version("klaude-code")

    def providers(self) -> Sequence[str]:
        """The providers klaude-code has a client protocol for (``convert_in.PROTOCOLS``)."""
        return tuple(p for p in PROVIDERS if p in convert_in.PROTOCOLS)

    def _require(self, provider: str) -> None:
        if provider not in self.providers():
            raise NotImplementedError(
                f"klaude-code target: no klaude-code protocol for provider {provider!r}"
            )

    def _client(self, provider: str, model: str) -> tuple[Any, OfflineWire]:
        self._require(provider)
        key = (provider, model)
        if key not in self._clients:
            wire = OfflineWire()
            with patched_factories(wire):
                client = create_llm_client(convert_in.config(provider, model))
            sdk: Any = getattr(client, "client", None)
            if sdk is not None and hasattr(
                sdk, "max_retries"
            ):  # a recorded failure would only be served again
                sdk.max_retries = 0
            self._clients[key] = (client, wire)
        return self._clients[key]

    async def _drain(self, client: Any, param: Any) -> list[Any]:
        stream = await client.call(param)
        return [item async for item in stream]

    def render(self, provider: str, history: Sequence[HistoryEvent], params: CallParams) -> Rendered:
        self._require(provider)
        model = convert_in.model_id(provider, params)
        client, wire = self._client(provider, model)
        inputs = convert_in.llm_input(history, self.work_dir)
        param = convert_in.call_parameter(provider, inputs, params)
        wire.capture()
        try:
            items = self.loop.run_until_complete(self._drain(client, param))
        except Exception as exc:
            if not wire.requests:
                raise KlaudeCallError(f"klaude-code raised {type(exc).__name__}: {exc}") from None
            items = []
        if len(wire.requests) != 1:
            errors = "; ".join(i.error for i in items if isinstance(i, message.StreamErrorItem))
            raise KlaudeCallError(
                f"klaude-code sent {len(wire.requests)} requests for one call"
                + (f" ({errors})" if errors else "")
            )
        body = wire.requests[0].body
        if not isinstance(body, dict):
            raise KlaudeCallError("klaude-code sent a request body that is not a JSON object")
        return Rendered(body=body, warnings=[])

    def replay(self, provider: str, exchange: Exchange, chunk_size: Chunking = None) -> CallResult:
        self._require(provider)
        require_openrouter_chat(
            provider,
            exchange,
            "klaude-code's OpenRouter client speaks Chat Completions only; this recording is "
            "OpenRouter's {wire} endpoint",
        )
        if not is_streamed(exchange) and exchange.status < 400:
            raise NotImplementedError(
                "klaude-code always streams; a non-streamed response body cannot reach it"
            )
        model = recorded_model(provider, exchange) or convert_in.default_model(provider)
        client, wire = self._client(provider, model)
        user = message.UserMessage(parts=[message.TextPart(text="(replayed response)")])
        param = convert_in.call_parameter(provider, [user], CallParams(model=model))
        wire.serve(exchange, chunk_size)
        try:
            items = self.loop.run_until_complete(self._drain(client, param))
        except Exception as exc:
            raise KlaudeCallError(f"klaude-code raised {type(exc).__name__}: {exc}") from None
        finally:
            wire.capture()
        return convert_out.call_result(items)


TARGET = Driver()
