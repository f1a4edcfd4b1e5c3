"""I3 one-assistant-per-call: each model call is exactly one assistant message with usage and stop_reason.

History side (seed 000 decision 5): every persisted assistant message carries its call's
``usage`` and ``stop_reason``; two messages never share a ``response_id`` (one call, one
message); the stop reason does not lie (``tool_use`` means the message calls a tool, and
a message that calls tools did not just ``stop``).

Stream side (DESIGN "Adapters, Output"): whatever the stream does (completes, is cut
short, fails with an HTTP error, is empty) the target's output side yields one final
message with usage and a stop reason, ``error`` plus an error event when it went wrong,
and never raises. Usage the stream never carried (input tokens for an empty stream) is
invented data: ``degrade`` (``harness.contract.usage``).
"""

from __future__ import annotations

from collections.abc import Sequence

from harness.contract.exchange import Exchange
from harness.contract.results import CallResult
from harness.contract.usage import invented_usage
from harness.invariants.base import CheckContext, Violation, snippet
from harness.invariants.streams import emit_for, replay_bytes, sse_exchange, stream_exchange
from harness.model import AssistantMessage, HistoryEvent, ToolCallPart

__all__ = ["check_one_assistant_per_call", "history_violations"]

ID = "I3"


def check_one_assistant_per_call(ctx: CheckContext) -> list[Violation]:
    return history_violations(ctx.history) + _streams(ctx)


def history_violations(history: Sequence[HistoryEvent]) -> list[Violation]:
    """The history side of I3 (no target involved): what the history itself breaks, provider None."""
    out: list[Violation] = []
    seen: dict[str, int] = {}
    for index, event in enumerate(history):
        if not isinstance(event, AssistantMessage):
            continue
        missing = [name for name in ("usage", "stop_reason") if getattr(event, name) is None]
        example = {"role": "assistant", "usage": event.usage and event.usage.model_dump(exclude_none=True)}
        example["stop_reason"] = event.stop_reason
        if missing:
            out.append(
                _history_violation(index, f"assistant message has no {' and no '.join(missing)}", example)
            )
        calls = any(isinstance(p, ToolCallPart) for p in event.parts)
        if event.stop_reason == "tool_use" and not calls:
            out.append(
                _history_violation(index, "stop_reason tool_use but the message calls no tool", example)
            )
        elif event.stop_reason == "stop" and calls:
            out.append(_history_violation(index, "the message calls tools but stop_reason is stop", example))
        rid = event.response_id
        if rid is not None:
            if rid in seen:
                out.append(
                    _history_violation(
                        index,
                        f"shares response_id '{rid}' with message {seen[rid]}: one call, one assistant message",
                        {"response_id": rid},
                    )
                )
            seen.setdefault(rid, index)
    return out


def _history_violation(index: int, reason: str, example: object) -> Violation:
    return Violation(ID, None, index, reason, snippet(example), "policy")


def _final(
    ctx: CheckContext, index: int | None, what: str, result: CallResult, body: bytes, *, failed: bool
) -> list[Violation]:
    """The final message of one call: usage and stop reason set, no count the stream never
    carried (``invented_usage``); ``error`` plus an error event on failure."""
    out: list[Violation] = []
    message = result.message
    example = {
        "stop_reason": message.stop_reason,
        "usage": message.usage is not None,
        "errors": len(result.errors),
    }
    missing = [name for name in ("usage", "stop_reason") if getattr(message, name) is None]
    if missing:
        out.append(
            ctx.violation(
                ID,
                index,
                f"{what}: the final message has no {' and no '.join(missing)}",
                example,
                kind="degrade",
            )
        )
    for line in invented_usage(message.usage, body):
        out.append(ctx.violation(ID, index, f"{what}: {line}", example, kind="degrade"))
    if failed and (message.stop_reason not in ("error", "aborted") or not result.errors):
        out.append(
            ctx.violation(
                ID, index, f"{what}: expected stop_reason error and an error event", example, kind="degrade"
            )
        )
    return out


def _streams(ctx: CheckContext) -> list[Violation]:
    out: list[Violation] = []
    failures = {
        "an HTTP 500 response": sse_exchange(
            b'{"error": {"message": "overloaded"}}', 500, "application/json"
        ),
        "an empty stream": sse_exchange(b""),
    }
    for what, exchange in failures.items() if ctx.probes else ():
        out += _replay_final(ctx, None, what, exchange, failed=True)
    for index, event in enumerate(ctx.history):
        if not isinstance(event, AssistantMessage):
            continue
        body = emit_for(ctx, event, index)
        if body is None:
            continue
        full = replay_bytes(ctx, ID, index, stream_exchange(ctx, index, body))
        if isinstance(full, Violation):
            out.append(full)
            continue
        out += _final(ctx, index, "the emitted stream", full, body, failed=False)
        half = body[: len(body) // 2]
        cut = replay_bytes(ctx, ID, index, stream_exchange(ctx, index, half))
        if isinstance(cut, Violation):
            out.append(cut)
        else:  # a cut that lost something must say so; one after the final event loses nothing
            failed = cut.message != full.message
            out += _final(ctx, index, "the emitted stream cut in half", cut, half, failed=failed)
    return out


def _replay_final(
    ctx: CheckContext, index: int | None, what: str, exchange: Exchange, *, failed: bool
) -> list[Violation]:
    result = replay_bytes(ctx, ID, index, exchange)
    if isinstance(result, Violation):
        return [result]
    return _final(ctx, index, what, result, exchange.body, failed=failed)
