"""Prompt-cache breakpoints: where the canonical history asks the cache to end, and what a
provider without explicit breakpoints says about them.

A breakpoint sits on a part, on a message (the cache ends after its last wire block), on a tool
definition or on the system prompt (``CallParams.system_cache_breakpoint``, or a part of a
system message); ``CallParams.cache_breakpoint`` lets the provider place one itself. Providers
with explicit breakpoints (Anthropic ``cache_control``, Bedrock ``cachePoint``, OpenRouter to
the models that take ``cache_control``) look each one up here by the canonical indexes their
wire blocks keep; providers that cache prefixes on their own (OpenAI, DeepSeek, Gemini
implicit caching...) take none and warn ``cache-breakpoint-automatic`` once per breakpoint
(docs/mapping-decisions.md#cache-breakpoints).
"""

from __future__ import annotations

from collections.abc import Sequence

from harness.contract.warning_codes import Code
from harness.mapping.call_controls import ControlNames
from harness.mapping.wire import Warnings
from harness.model import CacheBreakpoint, HistoryEvent
from harness.params import CallParams

__all__ = [
    "breakpoint_at",
    "count_breakpoints",
    "message_breakpoint",
    "system_breakpoints",
    "warn_breakpoints",
    "warn_by_profile",
]


def breakpoint_at(
    history: Sequence[HistoryEvent], message: int | None, part: int | None
) -> CacheBreakpoint | None:
    """The breakpoint on part ``part`` of message ``message`` (None when either is unknown)."""
    if message is None or part is None or not 0 <= message < len(history):
        return None
    parts = getattr(history[message], "parts", None)
    if not isinstance(parts, list) or not 0 <= part < len(parts):  # pyright: ignore[reportUnknownArgumentType]
        return None
    found: CacheBreakpoint | None = getattr(parts[part], "cache_breakpoint", None)  # pyright: ignore[reportUnknownArgumentType]
    return found


def message_breakpoint(history: Sequence[HistoryEvent], message: int | None) -> CacheBreakpoint | None:
    """The breakpoint on the whole message ``message``."""
    if message is None or not 0 <= message < len(history):
        return None
    found: CacheBreakpoint | None = getattr(history[message], "cache_breakpoint", None)
    return found


def system_breakpoints(
    history: Sequence[HistoryEvent], params: CallParams, system: Sequence[tuple[int | None, str]]
) -> list[CacheBreakpoint | None]:
    """One entry per collected system text (``Prepared.system``): the breakpoint after it.

    ``params.system`` takes ``system_cache_breakpoint``; a system message's text takes its
    part's breakpoint, and the message's own breakpoint goes on its last text sent.
    """
    out: list[CacheBreakpoint | None] = []
    for position, (index, text) in enumerate(system):
        if index is None:
            out.append(params.system_cache_breakpoint)
            continue
        found: CacheBreakpoint | None = None
        parts = getattr(history[index], "parts", [])
        for part in parts:
            if getattr(part, "text", None) == text and getattr(part, "cache_breakpoint", None) is not None:
                found = part.cache_breakpoint
        later = [i for i, _ in system[position + 1 :]]
        if found is None and index not in later:
            found = message_breakpoint(history, index)
        out.append(found)
    return out


#: Where a breakpoint sits, for ``warn_breakpoints``'s ``handled``: a role (``user``,
#: ``system``, ``assistant``, ``tool``, ``developer``), ``tools`` or ``request``.
Place = str


def _every(
    history: Sequence[HistoryEvent], params: CallParams
) -> list[tuple[int | None, int | None, str | None, str, Place]]:
    """Every breakpoint the caller set: (message, part, part type, where, place) in request order."""
    found: list[tuple[int | None, int | None, str | None, str, Place]] = []
    for tool in params.tools or []:
        if tool.cache_breakpoint is not None:
            found.append((None, None, None, f"tool '{tool.name}'", "tools"))
    if params.system_cache_breakpoint is not None:
        found.append((None, None, None, "the system prompt", "system"))
    for index, event in enumerate(history):
        role = str(getattr(event, "role", ""))
        parts: list[object] = list(getattr(event, "parts", None) or [])
        for p, part in enumerate(parts):
            if getattr(part, "cache_breakpoint", None) is not None:
                found.append((index, p, str(getattr(part, "type", "")), "a part", role))
        if getattr(event, "cache_breakpoint", None) is not None:
            found.append((index, None, None, "a message", role))
    if params.cache_breakpoint is not None:
        found.append((None, None, None, "the request (automatic placement)", "request"))
    return found


def count_breakpoints(history: Sequence[HistoryEvent], params: CallParams) -> int:
    """How many breakpoints the caller set, everywhere."""
    return len(_every(history, params))


def warn_breakpoints(
    history: Sequence[HistoryEvent],
    params: CallParams,
    warnings: Warnings,
    provider: str,
    *,
    automatic: bool,
    handled: frozenset[Place] = frozenset(),
) -> None:
    """Each breakpoint the adapter does not place is not sent, with a warning.

    ``automatic``: the provider caches prefixes on its own (``cache-breakpoint-automatic``,
    policy); otherwise it has no prompt cache the request can steer there
    (``cache-breakpoint-dropped``). ``handled``: the places the adapter maps itself.
    """
    code = Code.CACHE_BREAKPOINT_AUTOMATIC if automatic else Code.CACHE_BREAKPOINT_DROPPED
    why = (
        f"{provider} caches request prefixes on its own and takes no breakpoint; not sent"
        if automatic
        else f"{provider} takes no cache breakpoint there; not sent"
    )
    for message, part, part_type, where, place in _every(history, params):
        if place not in handled:
            warnings.add(message, part, part_type, code, f"cache breakpoint on {where}: {why}")


def warn_by_profile(
    history: Sequence[HistoryEvent], params: CallParams, warnings: Warnings, names: ControlNames
) -> None:
    """A provider whose profile says it takes no explicit breakpoint warns for each one."""
    if names.cache != "explicit":
        warn_breakpoints(history, params, warnings, names.provider, automatic=names.cache == "automatic")
