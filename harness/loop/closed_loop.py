"""Closed loop on recorded round trips: does our request N+1 equal the one the real API accepted?

A recorded round trip (a cassette with 2+ model calls) holds, for each call N, the
request the recording client sent and the response it got; request N+1 is the wire form
of the history *including response N*, and the API answered it with HTTP 200. So:

    history_N  = import_conversation(request N)    (the canonical history before call N)
    reply_N    = our output adapter on response N  (harness.stream)
    appended   = what import_conversation(request N+1) holds after its last assistant turn
                 (the tool results / user turns the client added)
    ours_N+1   = our input adapter on history_N + [reply_N] + appended,
                 with the params read from request N+1

and ``diff_json(request N+1, ours_N+1)`` (``harness.loop.jsondiff``) must be empty except for the differences
the registry accepts for the closed loop (``harness.accepted``, ``for_judge("closed-loop")``): each names one
provider, one JSON path pattern, the kind of difference and, almost always, a predicate on the two values, with
the reason it is harmless.
Content (text, tool ids, arguments, signatures, tool result text, order of messages and
blocks) is never allowed to differ; anything not allowed is a mapping finding.

``harness.importer.import_conversation`` decodes a provider *request* body back into the
canonical model (the reader ``harness import-request`` uses). It raises ``ValueError`` on
conversation content the importer cannot represent rather than dropping it, so a loop
never closes by losing content.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from harness.accepted.registry import for_judge
from harness.contract.providers import wire_of
from harness.contract.rendered import RenderWarning
from harness.importer import body_wire
from harness.importer.conversation import import_conversation
from harness.loop.jsondiff import DiffContext, JsonDifference, diff_json
from harness.model import (
    AssistantMessage,
    Message,
    ToolCallPart,
    ToolResultMessage,
)
from harness.providers import get_adapter, get_parser
from harness.providers.replay import Exchange, load_exchanges, replay_exchange

__all__ = ["LoopReport", "close_loop", "close_pair", "reproduce_request"]

Json = dict[str, Any]


def _obj(value: Any) -> Json:
    return cast(Json, value) if isinstance(value, dict) else {}


# ================================================================ the loop


@dataclass
class LoopReport:
    """Response ``turn`` (1-based) closed into request ``turn + 1``: the differences and our warnings."""

    cassette: str
    provider: str
    turn: int
    differences: list[JsonDifference]
    warnings: list[RenderWarning]
    rendered: Json
    recorded: Json

    @property
    def findings(self) -> list[JsonDifference]:
        """Differences no allowance accepts: mapping bugs until shown otherwise."""
        return [d for d in self.differences if d.allowed_by is None]

    def __str__(self) -> str:
        lines = [f"{self.provider} {self.cassette}: response {self.turn} -> request {self.turn + 1}"]
        lines += [f"  {d}" for d in self.differences] or ["  (identical)"]
        return "\n".join(lines)


def _last_assistant(history: list[Message]) -> int:
    for index in range(len(history) - 1, -1, -1):
        if isinstance(history[index], AssistantMessage):
            return index
    raise ValueError("request N+1 holds no assistant turn, so it does not replay response N")


def _calls_of(message: AssistantMessage) -> list[ToolCallPart]:
    return [p for p in message.parts if isinstance(p, ToolCallPart)]


def _minted_ids(recorded: AssistantMessage, ours: AssistantMessage, response: bytes) -> dict[str, str]:
    """Pair calls by position; ids neither side got from the response were minted by each client."""
    text = response.decode("utf-8", errors="replace")
    minted: dict[str, str] = {}
    for rec, our in zip(_calls_of(recorded), _calls_of(ours), strict=False):
        if (
            rec.call_id != our.call_id
            and rec.tool_name == our.tool_name
            and rec.call_id not in text
            and our.call_id not in text
        ):
            minted[rec.call_id] = our.call_id
    return minted


def _rename_results(turns: list[Message], minted: dict[str, str]) -> list[Message]:
    """Point the recorded results at our minted ids (only ids both clients minted for the same call)."""
    out: list[Message] = []
    for message in turns:
        if isinstance(message, ToolResultMessage) and message.call_id in minted:
            message = message.model_copy(update={"call_id": minted[message.call_id]})
        out.append(message)
    return out


def _renderable(provider: str, exchange: Exchange) -> None:
    """Refuse a recorded request in a body format the reference does not render for ``provider``
    (DeepSeek's Responses-compatible endpoint: the importer reads it, the ``deepseek`` adapter
    renders Chat Completions), rather than diff two formats."""
    wire = body_wire(provider, exchange.uri)
    if wire != wire_of(provider):
        raise ValueError(
            f"{provider}: the reference renders only the {wire_of(provider)} format; "
            f"this request is in the {wire} format"
        )


def close_pair(provider: str, cassette: str, turn: int, first: Exchange, second: Exchange) -> LoopReport:
    """Close response ``turn`` (exchange ``first``) into the request of exchange ``second``."""
    _renderable(provider, second)
    history, _ = import_conversation(provider, first.request_body, first.uri)
    reply = replay_exchange(get_parser(provider), first).message
    recorded_history, params = import_conversation(provider, second.request_body, second.uri)
    last = _last_assistant(recorded_history)
    recorded_reply = recorded_history[last]
    assert isinstance(recorded_reply, AssistantMessage)
    minted = _minted_ids(recorded_reply, reply, first.body)
    appended = _rename_results(recorded_history[last + 1 :], minted)
    rendered = get_adapter(provider).render([*history, reply, *appended], params)
    ctx = DiffContext(provider, cassette, minted)
    recorded = _obj(second.request_body)
    differences = diff_json(recorded, rendered.body, ctx, for_judge("closed-loop"))
    return LoopReport(cassette, provider, turn, differences, rendered.warnings, rendered.body, recorded)


def close_loop(provider: str, cassette_path: str | Path) -> list[LoopReport]:
    """One report per consecutive pair of model calls in a cassette (none for a single call)."""
    path = Path(cassette_path)
    calls = [e for e in load_exchanges(path, provider) if e.is_model_call]
    return [close_pair(provider, path.stem, n + 1, calls[n], calls[n + 1]) for n in range(len(calls) - 1)]


def reproduce_request(provider: str, cassette: str, exchange: Exchange) -> list[JsonDifference]:
    """Our render of ``import_conversation(recorded)`` against the recorded request itself.

    Checks the decoder that seeds the loop: whatever it reads must render back to the
    same request, up to the allowlist.
    """
    history, params = import_conversation(provider, exchange.request_body, exchange.uri)
    _renderable(provider, exchange)
    rendered = get_adapter(provider).render(history, params)
    return diff_json(
        _obj(exchange.request_body), rendered.body, DiffContext(provider, cassette), for_judge("closed-loop")
    )
