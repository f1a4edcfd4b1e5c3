"""The agent-loop contract checker: what a history breaks of the tool call/result pairing rules."""

from __future__ import annotations

from collections.abc import Sequence

from harness.model import (
    AssistantMessage,
    HistoryEvent,
    ToolCallPart,
    ToolResultMessage,
    UserMessage,
)


def loop_contract_violations(history: Sequence[HistoryEvent], *, finished: bool = True) -> list[str]:
    """What breaks the agent-loop contract (empty for ``agent_loops`` output).

    Every tool call of an assistant message that was not interrupted has exactly one
    result, with the same id and tool name, after it and before the next assistant or
    user message; no result answers an unknown or already-answered call; call ids are
    unique. With ``finished=False`` (a loop mid-step, as ``well_formed_turn`` leaves it)
    the newest assistant message's calls may still be waiting.
    """
    problems: list[str] = []
    seen: set[str] = set()
    open_calls: dict[str, ToolCallPart] = {}
    owner: int | None = None

    def close(at: int) -> None:
        if owner is not None and open_calls:
            problems.append(f"message {owner}: calls {sorted(open_calls)} unanswered before message {at}")
        open_calls.clear()

    for index, event in enumerate(history):
        if isinstance(event, AssistantMessage):
            close(index)
            owner = index
            for part in event.parts:
                if isinstance(part, ToolCallPart):
                    if part.call_id in seen:
                        problems.append(f"message {index}: call id {part.call_id!r} used twice")
                    seen.add(part.call_id)
                    if event.stop_reason != "aborted":
                        open_calls[part.call_id] = part
        elif isinstance(event, ToolResultMessage):
            call = open_calls.pop(event.call_id, None)
            if call is None:
                problems.append(f"message {index}: result for {event.call_id!r} answers no open call")
            elif call.tool_name != event.tool_name:
                problems.append(
                    f"message {index}: result names {event.tool_name!r}, the call {call.tool_name!r}"
                )
        elif isinstance(event, UserMessage):
            close(index)
    if open_calls and finished:
        problems.append(f"message {owner}: calls {sorted(open_calls)} never answered")
    return problems
