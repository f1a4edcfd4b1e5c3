"""What each invariant needs in a history to judge anything: why a history gives it nothing.

A check whose subject is absent (I1 with no developer message) would pass on nothing, so
the audit and ``harness.testing`` report it skipped with this reason instead (each
registry entry names its subject: ``Invariant.subject``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from harness.model import (
    AssistantMessage,
    DeveloperMessage,
    FilePart,
    HistoryEvent,
    ServerToolCallPart,
    ServerToolResultPart,
    SourcePart,
    ThinkingSignaturePart,
    ThinkingTextPart,
    ToolCallPart,
    ToolResultMessage,
    UserMessage,
)

__all__ = [
    "Subject",
    "developer_messages",
    "failures_or_interrupts",
    "server_tools",
    "sources",
    "thinking",
    "tool_calls",
    "tool_results",
]

#: Why a history gives a check nothing to judge, or None when it has the check's subject.
Subject = Callable[[Sequence[HistoryEvent]], str | None]


def _parts(history: Sequence[HistoryEvent]) -> list[object]:
    return [p for e in history if isinstance(e, AssistantMessage) for p in e.parts]


def developer_messages(history: Sequence[HistoryEvent]) -> str | None:
    present = any(isinstance(e, DeveloperMessage) for e in history)
    return None if present else "no developer message in the history"


def thinking(history: Sequence[HistoryEvent]) -> str | None:
    present = any(isinstance(p, ThinkingTextPart | ThinkingSignaturePart) for p in _parts(history))
    return None if present else "no thinking or signature part in the history"


def tool_results(history: Sequence[HistoryEvent]) -> str | None:
    present = any(isinstance(e, ToolResultMessage) for e in history)
    return None if present else "no tool result in the history"


def failures_or_interrupts(history: Sequence[HistoryEvent]) -> str | None:
    present = any(isinstance(e, AssistantMessage) and e.stop_reason == "aborted" for e in history) or any(
        isinstance(e, ToolResultMessage) and e.status != "success" for e in history
    )
    return None if present else "no interrupted turn and no failed tool in the history"


def tool_calls(history: Sequence[HistoryEvent]) -> str | None:
    present = any(isinstance(p, ToolCallPart) for p in _parts(history)) or any(
        isinstance(e, ToolResultMessage) for e in history
    )
    return None if present else "no tool call or result in the history"


def server_tools(history: Sequence[HistoryEvent]) -> str | None:
    present = any(isinstance(p, ServerToolCallPart | ServerToolResultPart) for p in _parts(history))
    return None if present else "no provider-executed tool call or result in the history"


def sources(history: Sequence[HistoryEvent]) -> str | None:
    present = any(isinstance(p, SourcePart) for p in _parts(history))
    return None if present else "no source or citation in the history"


def files(history: Sequence[HistoryEvent]) -> str | None:
    present = any(
        isinstance(e, UserMessage | DeveloperMessage | ToolResultMessage)
        and any(isinstance(p, FilePart) for p in e.parts)
        for e in history
    ) or any(isinstance(e, ToolResultMessage) and e.output_json is not None for e in history)
    return None if present else "no file part and no structured tool result in the history"
