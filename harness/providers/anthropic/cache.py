"""Anthropic prompt caching: canonical breakpoints as ``cache_control`` on the blocks that end them.

Rules (https://docs.claude.com/en/docs/build-with-claude/prompt-caching), each repaired with a
warning rather than sent as a request the API refuses:

- ``cache_control`` is ``{"type": "ephemeral"}`` plus ``ttl`` ``5m`` or ``1h``; another lifetime
  is sent as the default (``cache-ttl-unsupported``).
- At most 4 breakpoints per request (``MAX_BREAKPOINTS``), counting the top-level automatic one:
  the latest are kept, since a later breakpoint caches a longer prefix; the others are dropped
  (``cache-breakpoint-dropped``).
- A longer lifetime may not follow a shorter one ("cache entries with longer TTL must appear
  before shorter TTLs"): a ``1h`` breakpoint after a ``5m`` one is sent as ``5m``
  (``cache-ttl-unsupported``).
- Thinking blocks cannot carry ``cache_control`` ("cannot be cached directly"): a breakpoint on
  one is dropped (``cache-breakpoint-dropped``).
- The minimum cacheable length (1,024 or more tokens by model) is the provider's own policy:
  a shorter prefix is accepted and simply not cached, so nothing is changed for it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from harness.contract.warning_codes import Code
from harness.mapping.cache import breakpoint_at, message_breakpoint
from harness.mapping.wire import Warnings
from harness.model import CacheBreakpoint, HistoryEvent
from harness.providers.anthropic.profile import CACHE_TTLS, MAX_BREAKPOINTS

__all__ = ["Holder", "block_breakpoint", "cache_control", "place"]

Json = dict[str, Any]
_NO_CACHE = frozenset({"thinking", "redacted_thinking"})


@dataclass
class Holder:
    """A wire object that may end the cache, the breakpoint asked for and where it came from."""

    body: Json
    breakpoint: CacheBreakpoint
    message: int | None = None
    part: int | None = None
    part_type: str | None = None


def cache_control(bp: CacheBreakpoint) -> Json:
    """``CacheControlEphemeral``: the type, and the ttl when one is given."""
    out: Json = {"type": "ephemeral"}
    if bp.ttl is not None:
        out["ttl"] = bp.ttl
    return out


def block_breakpoint(
    history: Sequence[HistoryEvent], message: int | None, part: int | None, last_of_message: bool
) -> CacheBreakpoint | None:
    """The breakpoint a block ends with: its part's, else its message's on the message's last block.

    A block with no part index (a tool result) ends its whole message: a breakpoint on any of
    the message's parts ends with it.
    """
    found = breakpoint_at(history, message, part)
    if found is None and part is None and message is not None and 0 <= message < len(history):
        parts: list[object] = list(getattr(history[message], "parts", None) or [])
        for item in parts:
            found = getattr(item, "cache_breakpoint", None) or found
    if found is None and last_of_message:
        found = message_breakpoint(history, message)
    return found


def place(holders: list[Holder], top: CacheBreakpoint | None, body: Json, warnings: Warnings) -> None:
    """Set ``cache_control`` on ``holders`` (in request order) and the top-level one, by the rules above."""
    kept: list[Holder] = []
    for holder in holders:
        if str(holder.body.get("type")) in _NO_CACHE:
            warnings.add(
                holder.message,
                holder.part,
                holder.part_type,
                Code.CACHE_BREAKPOINT_DROPPED,
                "Anthropic cannot cache a thinking block directly; its cache breakpoint is not sent",
            )
        else:
            kept.append(holder)
    room = MAX_BREAKPOINTS - (1 if top is not None else 0)
    for holder in kept[: max(0, len(kept) - room)]:
        warnings.add(
            holder.message,
            holder.part,
            holder.part_type,
            Code.CACHE_BREAKPOINT_DROPPED,
            f"more than {MAX_BREAKPOINTS} cache breakpoints; the earliest are not sent",
        )
    kept = kept[max(0, len(kept) - room) :]
    shortest = False
    for holder in kept:
        bp = _ttl_ok(holder.breakpoint, holder, warnings)
        if bp.ttl == "1h" and shortest:
            warnings.add(
                holder.message,
                holder.part,
                holder.part_type,
                Code.CACHE_TTL_UNSUPPORTED,
                "a 1h cache breakpoint after a 5m one (longer lifetimes must come first); sent as 5m",
            )
            bp = CacheBreakpoint(ttl="5m")
        shortest = shortest or bp.ttl != "1h"
        holder.body["cache_control"] = cache_control(bp)
    if top is not None:
        body["cache_control"] = cache_control(_ttl_ok(top, Holder({}, top), warnings))


def _ttl_ok(bp: CacheBreakpoint, holder: Holder, warnings: Warnings) -> CacheBreakpoint:
    if bp.ttl is None or bp.ttl in CACHE_TTLS:
        return bp
    warnings.add(
        holder.message,
        holder.part,
        holder.part_type,
        Code.CACHE_TTL_UNSUPPORTED,
        f"cache ttl {bp.ttl!r} is not one Anthropic takes ({', '.join(CACHE_TTLS)}); sent with the default",
    )
    return CacheBreakpoint()
