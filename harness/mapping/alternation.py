"""Strict user/assistant alternation, shared by the wires that require it (Anthropic Messages,
Bedrock Converse): runs of one role merge into one message.

A user run puts its tool results first (they must lead the message after a tool-use turn);
merging assistant messages of distinct model responses is warned (``assistant-merged``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, ClassVar, Literal, Protocol, TypeVar

from harness.contract.warning_codes import Code
from harness.mapping.wire import Warnings, same_response

__all__ = ["RoleTurn", "merge_role_runs"]


class RoleTurn(Protocol):
    """A wire message being built: its role, its canonical index, blocks and the ids merged into it."""

    __dataclass_fields__: ClassVar[dict[str, Any]]
    role: Literal["user", "assistant", "system"]  # system: Anthropic's tool additions in place
    index: int | None
    sources: list[tuple[str | None, str | None]]

    @property
    def blocks(self) -> list[Any]: ...


T = TypeVar("T", bound=RoleTurn)


def merge_role_runs(
    messages: list[T], warnings: Warnings, *, is_result: Callable[[Any], bool], merged: str
) -> list[T]:
    """``messages`` with runs of one role merged (new messages; the arguments are not changed).

    ``is_result`` tells a tool-result block (sorted first, stably, in a user message);
    ``merged`` is the warning's wording, ``{index}`` standing for the message merged into.
    """
    out: list[T] = []
    for msg in messages:
        prev = out[-1] if out else None
        if prev is None or prev.role != msg.role:
            out.append(dataclasses.replace(msg, blocks=list(msg.blocks), sources=list(msg.sources)))
            continue
        if msg.role == "assistant" and not any(
            same_response(a, b) for a in prev.sources for b in msg.sources
        ):
            warnings.add(msg.index, None, None, Code.ASSISTANT_MERGED, merged.format(index=prev.index))
        prev.blocks.extend(msg.blocks)
        prev.sources.extend(msg.sources)
    for msg in out:
        if msg.role == "user":
            msg.blocks.sort(key=lambda b: not is_result(b))
    return out
