"""The recording loop: render with the reference adapter, send, parse, script tool results, repeat.

One turn is one model call. After each call the response is parsed by the reference
output adapter from the *scrubbed* interaction, the final assistant message and one
scripted result per tool call are appended to the history, and the next request is
rendered from it, so a round-trip cassette holds exactly the requests our adapter
makes for its own parsed output (what I9 prefix stability and I11 round trips need).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from harness.contract.rendered import RenderWarning
from harness.model import HistoryEvent, ToolCallPart
from harness.params import CallParams
from harness.providers import get_parser
from harness.providers.replay import replay_exchange
from harness.record.cassette_io import exchange_from, scrubbed_interaction
from harness.record.client import HttpResponse, RetryPolicy, new_client, send
from harness.record.endpoints import build_request
from harness.record.progress import StreamProgress
from harness.record.tools import ToolScript
from harness.stream.base import CallResult
from harness.targets import get_target

__all__ = ["RecordOptions", "Turn", "record_turns"]


@dataclass(frozen=True)
class RecordOptions:
    provider: str
    history: Sequence[HistoryEvent]
    params: CallParams
    api_key: str
    base_url: str | None = None
    turns: int = 1
    tools: ToolScript = field(default_factory=ToolScript)
    timeout: float = 120.0
    retry: RetryPolicy = field(default_factory=RetryPolicy)

    def __repr__(self) -> str:  # never print the key
        return f"RecordOptions(provider={self.provider!r}, turns={self.turns}, base_url={self.base_url!r})"


@dataclass
class Turn:
    """One recorded call: the scrubbed interaction, its parse, and the render warnings of its request."""

    interaction: dict[str, Any]
    result: CallResult
    warnings: list[RenderWarning]
    chunks: int
    elapsed: float

    @property
    def tool_calls(self) -> list[ToolCallPart]:
        return [p for p in self.result.message.parts if isinstance(p, ToolCallPart)]


Sender = Callable[..., HttpResponse]


def record_turns(
    options: RecordOptions,
    *,
    progress: StreamProgress | None = None,
    on_note: Callable[[str], None] = lambda _note: None,
    sender: Sender = send,
) -> list[Turn]:
    """Record up to ``options.turns`` calls; stops early when a response has no tool calls or failed.

    Every turn goes through one client (``new_client``): one connection and SSL context per
    session, as an agent's SDK client keeps them, not one per turn.
    """
    target = get_target("reference")
    parser = get_parser(options.provider)
    history: list[HistoryEvent] = list(options.history)
    turns: list[Turn] = []
    with new_client(options.timeout) as client:
        for number in range(1, options.turns + 1):
            rendered = target.render(options.provider, history, options.params)
            for warning in rendered.warnings:
                on_note(f"turn {number}: warning: {warning}")
            request = build_request(
                options.provider, rendered.body, options.params, options.api_key, options.base_url
            )
            label = f"turn {number}/{options.turns} {options.provider}"
            sent = {"timeout": options.timeout, "retry": options.retry, "on_retry": on_note, "client": client}
            if progress is not None:
                with progress.track(label) as on_chunk:
                    response = sender(request, on_chunk=on_chunk, **sent)
            else:
                response = sender(request, **sent)
            interaction = scrubbed_interaction(request, response)
            del request  # the only object holding the key besides options
            result = replay_exchange(parser, exchange_from(interaction))
            turn = Turn(interaction, result, list(rendered.warnings), response.chunks, response.elapsed)
            turns.append(turn)
            message = result.message
            on_note(
                f"turn {number}: HTTP {response.status}, {len(response.body)} bytes in {response.chunks} chunks, "
                f"{response.elapsed:.1f} s; stop_reason {message.stop_reason}, {len(turn.tool_calls)} tool call(s)"
            )
            for error in result.errors:
                on_note(f"turn {number}: stream error: {error.error_message}")
            if not turn.tool_calls or message.stop_reason == "error" or number == options.turns:
                break
            history += [message, *options.tools.results_for(message)]
    return turns
