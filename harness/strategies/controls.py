"""Strategies for the call controls and prompt-cache breakpoints of a request.

``call_params_with_controls`` draws ``CallParams`` that set any of the sampling, tool-choice,
reasoning, tier, cache and server-side-state controls (each absent by default, as the providers'
defaults are); ``with_cache_breakpoints`` puts breakpoints where clients put them: after the
latest user turn and, optionally, after the system prompt and the tools.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from hypothesis import strategies as st

from harness.model import CacheBreakpoint, HistoryEvent, TextPart, UserMessage
from harness.params import CallParams, ThinkingParams, ToolSpec

__all__ = ["breakpoints", "call_params_with_controls", "with_cache_breakpoints"]

#: A breakpoint with the provider's default lifetime, 5 minutes or 1 hour.
breakpoints = st.sampled_from([CacheBreakpoint(), CacheBreakpoint(ttl="5m"), CacheBreakpoint(ttl="1h")])
_TOOLS = [ToolSpec(name="read"), ToolSpec(name="search")]


T = TypeVar("T")


def _maybe(values: st.SearchStrategy[T]) -> st.SearchStrategy[T | None]:
    """A control is set, or left to the provider (absent)."""
    return st.none() | values


@st.composite
def call_params_with_controls(draw: st.DrawFn) -> CallParams:
    """Params setting some call controls; each drawn value is inside every provider's range or is
    one a provider clamps or warns for (never one the canonical model refuses)."""
    tools = draw(st.sampled_from([None, _TOOLS]))
    return CallParams(
        tools=tools,
        top_p=draw(_maybe(st.sampled_from([0.1, 0.9, 1.0]))),
        top_k=draw(_maybe(st.sampled_from([1, 40]))),
        presence_penalty=draw(_maybe(st.sampled_from([-1.0, 0.0, 0.5, 2.0]))),
        frequency_penalty=draw(_maybe(st.sampled_from([0.0, 0.25]))),
        stop=draw(
            _maybe(
                st.lists(st.sampled_from(["END", "\n\nUser:", "###"]), min_size=1, max_size=5, unique=True)
            )
        ),
        seed=draw(_maybe(st.sampled_from([0, 42]))),
        allowed_tools=draw(_maybe(st.just(["read"]))) if tools else None,
        parallel_tool_calls=draw(_maybe(st.booleans())) if tools else None,
        service_tier=draw(_maybe(st.sampled_from(["auto", "default", "flex"]))),
        cache_key=draw(_maybe(st.just("session-1"))),
        thinking=draw(
            _maybe(
                st.builds(
                    ThinkingParams,
                    effort=st.sampled_from(["none", "low", "high", "xhigh", "max"]),
                    summary=st.sampled_from([None, "concise", "detailed"]),
                    context=st.sampled_from([None, "all_turns"]),
                )
            )
        ),
    )


def with_cache_breakpoints(
    history: Sequence[HistoryEvent], bp: CacheBreakpoint | None = None
) -> list[HistoryEvent]:
    """The history with a breakpoint on the last text of its latest user turn (the cache of the
    conversation so far), as Claude Code and pydantic-ai place it; unchanged without one."""
    out = list(history)
    for index in range(len(out) - 1, -1, -1):
        event = out[index]
        if isinstance(event, UserMessage):
            texts = [i for i, p in enumerate(event.parts) if isinstance(p, TextPart) and p.text.strip()]
            if not texts:
                return out
            parts = list(event.parts)
            parts[texts[-1]] = parts[texts[-1]].model_copy(
                update={"cache_breakpoint": bp or CacheBreakpoint()}
            )
            out[index] = event.model_copy(update={"parts": parts})
            return out
    return out
