"""I17 cache-breakpoints: every prompt-cache breakpoint is kept in the request, after the block
it ends, or named by a warning.

A breakpoint on a part, a message, a tool definition, the system prompt or the request must
reach the provider's own marker (Anthropic and OpenRouter ``cache_control``, Bedrock
``cachePoint`` blocks) or carry a ``cache-*`` warning (a provider that caches on its own, a
block that cannot carry one, the limit of breakpoints). Kept: the request holds at least as
many markers as breakpoints not warned. Placed: a breakpoint on a text part sits on that text
(Anthropic, OpenRouter: the text block has ``cache_control``; Bedrock: the ``cachePoint``
follows the text block). A moved or dropped breakpoint costs the cache on every later call
(``degrade`` on the wires with explicit breakpoints; ``policy`` elsewhere, where the provider
caches prefixes on its own and only the warning is missing).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from typing import Any

from harness.contract.providers import wire_of
from harness.invariants.base import CheckContext, Violation, as_dict, as_list
from harness.model import HistoryEvent, TextPart, ToolResultMessage

__all__ = ["breakpoints", "check_cache_breakpoints", "markers"]

ID = "I17"
_CODES = frozenset({"cache-breakpoint-automatic", "cache-breakpoint-dropped", "cache-ttl-unsupported"})
#: Wires whose cache ends only where the request says (Anthropic ``cache_control``, Bedrock ``cachePoint``).
_EXPLICIT = frozenset({"anthropic", "bedrock-converse"})


def breakpoints(history: Sequence[HistoryEvent]) -> list[tuple[int, int | None, Any]]:
    """(message, part or None for the whole message, the part) of every breakpoint in the
    history; a message's own breakpoint counts once with its last part's."""
    out: list[tuple[int, int | None, Any]] = []
    for index, event in enumerate(history):
        parts: list[Any] = list(getattr(event, "parts", None) or [])
        marked = [(p, part) for p, part in enumerate(parts) if part.cache_breakpoint is not None]
        out += [(index, p, part) for p, part in marked]
        last_marked = bool(marked) and marked[-1][0] == len(parts) - 1
        if getattr(event, "cache_breakpoint", None) is not None and not (
            last_marked and not isinstance(event, ToolResultMessage)
        ):
            out.append((index, None, None))
    return out


def _walk(node: Any) -> Iterator[Any]:
    yield node
    found = as_dict(node)
    if found is not None:
        for value in found.values():
            yield from _walk(value)
    for item in as_list(node) or []:
        yield from _walk(item)


def markers(provider: str, body: Any) -> int:
    """How many cache markers the request holds, by its wire (0 where the wire has none)."""
    wire = wire_of(provider)
    if wire == "bedrock-converse":
        return sum(1 for n in _walk(body) if (as_dict(n) or {}).keys() == {"cachePoint"})
    if wire in ("anthropic", "openai-chat"):
        return sum(1 for n in _walk(body) if "cache_control" in (as_dict(n) or {}))
    return 0


def _placed(provider: str, body: Any, text: str) -> bool:
    """Whether a marker sits on (or right after) a text block holding ``text``."""
    if wire_of(provider) == "bedrock-converse":
        for node in _walk(body):
            items = as_list(node) or []
            for a, b in itertools.pairwise(items):
                if (as_dict(a) or {}).get("text") == text and "cachePoint" in (as_dict(b) or {}):
                    return True
        return False
    return any(
        (found := as_dict(n)) is not None and found.get("text") == text and "cache_control" in found
        for n in _walk(body)
    )


def check_cache_breakpoints(ctx: CheckContext) -> list[Violation]:
    warned_anywhere = [w for w in ctx.rendered.warnings if w.code in _CODES]
    kept: list[tuple[int, int | None, Any]] = []
    for message, part, value in breakpoints(ctx.history):
        if any(
            w.message_index == message and (part is None or w.part_index in (part, None))
            for w in warned_anywhere
        ):
            continue
        kept.append((message, part, value))
    extra = [t for t in ctx.params.tools or [] if t.cache_breakpoint is not None] + [
        x for x in (ctx.params.system_cache_breakpoint, ctx.params.cache_breakpoint) if x is not None
    ]
    unwarned_extra = max(0, len(extra) - sum(1 for w in warned_anywhere if w.message_index is None))
    found = markers(ctx.provider, ctx.body)
    out: list[Violation] = []
    if found < len(kept) + unwarned_extra:
        # Where the wire has explicit breakpoints the cache is lost; elsewhere the provider caches
        # prefixes on its own and only the warning is missing.
        explicit = wire_of(ctx.provider) in _EXPLICIT
        out.append(
            ctx.violation(
                ID,
                kept[0][0] if kept else None,
                f"{len(kept) + unwarned_extra} cache breakpoint(s) neither sent nor warned; the request "
                f"holds {found} cache marker(s)",
                {"breakpoints": [(m, p) for m, p, _ in kept]},
                kind="degrade" if explicit else "policy",
            )
        )
        return out
    for message, part, value in kept:
        if (
            isinstance(value, TextPart)
            and value.text.strip()
            and not _placed(ctx.provider, ctx.body, value.text)
        ):
            out.append(
                ctx.violation(
                    ID,
                    message,
                    f"the cache breakpoint on part {part} is not on its text block (moved or dropped)",
                    value.text[:60],
                    kind="degrade",
                )
            )
    return out


def history_breakpoints(history: Sequence[HistoryEvent]) -> str | None:
    """I17's subject: a breakpoint in the history."""
    return None if breakpoints(history) else "no cache breakpoint in the history"
