"""The model calls of recorded cassettes, as the stream oracle and the stream tests judge them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from harness.contract.providers import PROVIDERS, home_provider, provider_entry
from harness.contract.routing import route
from harness.contract.wires import PROVIDER_WIRES, sniff_wire, split_responses
from harness.providers.replay import Exchange


@dataclass(frozen=True)
class RecordedCall:
    """One model call of a cassette: ``id`` is ``<provider>-<cassette>-<n>``.

    ``provider`` is the provider whose parser and SDK judge the call: a cassette's own,
    except OpenRouter's Responses endpoint, judged as ``openai-responses`` (the same
    parser rules, and the openai SDK's Responses accumulator is the oracle for that wire).
    ``following`` is the request body of the cassette's next model call (the history that
    replays this response, accepted by the API), None for the last or a converted fixture.
    """

    id: str
    provider: str
    body: bytes
    following: Any = None


def split_calls(provider: str, body: bytes) -> list[bytes]:
    """A body that holds several responses back to back (an AI SDK multi-step fixture
    converted into one interaction) as one body per response; any other body as is."""
    wires = PROVIDER_WIRES.get(provider, ())
    wire = sniff_wire(body) if len(wires) > 1 else (wires[0] if wires else None)
    return split_responses(wire, body) if wire else [body]


def _judge(provider: str, exchange: Exchange) -> str:
    """Whose SDK accumulation judges the call: the provider's own, except on another wire it serves
    (OpenRouter's Responses endpoint) and for a Chat dialect, which publishes no stream accumulator
    (its clients use OpenAI's SDK): those are judged as the wire's own provider."""
    routed = route(exchange.method, exchange.uri)
    if routed is None or routed.provider not in PROVIDERS:
        return provider
    entry = provider_entry(routed.provider)
    if routed.wire != entry.wire or entry.chat is not None:
        return home_provider(routed.wire)
    return provider


def recorded_calls(provider: str, cassette: str, exchanges: Sequence[Exchange]) -> list[RecordedCall]:
    """The model calls of one cassette's model-call exchanges, as crosscheck and stream tests use them."""
    out: list[RecordedCall] = []
    for n, exchange in enumerate(exchanges):
        judge = _judge(provider, exchange)
        bodies = split_calls(judge, exchange.body)
        following = exchanges[n + 1].request_body if n + 1 < len(exchanges) and len(bodies) == 1 else None
        for body in bodies:
            out.append(RecordedCall(f"{provider}-{cassette}-{len(out)}", judge, body, following))
    return out
