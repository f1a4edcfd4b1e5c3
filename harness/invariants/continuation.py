"""The well-formed next turn I9 appends to a history: what an agent loop would add after it."""

from __future__ import annotations

from collections.abc import Sequence

from harness.model import (
    AssistantMessage,
    DeveloperMessage,
    HistoryEvent,
    TextPart,
    ToolResultMessage,
    Usage,
    UserMessage,
)

__all__ = ["next_turn"]


def next_turn(history: Sequence[HistoryEvent]) -> list[HistoryEvent]:
    """A plain, well-formed continuation: (assistant answer,) user question."""
    question = UserMessage(parts=[TextPart(text="(next question)")])
    last = next(
        (
            e
            for e in reversed(history)
            if isinstance(e, AssistantMessage | UserMessage | ToolResultMessage | DeveloperMessage)
        ),
        None,
    )
    if isinstance(last, AssistantMessage):
        return [question]
    answer = AssistantMessage(
        parts=[TextPart(text="(next answer)")],
        usage=Usage(input_tokens=1, output_tokens=1),
        stop_reason="stop",
    )
    return [answer, question]
