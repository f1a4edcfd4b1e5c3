"""Usage a response never carried: token counts a target reports beyond what the body says.

Why: the output rule (``harness.kit.rules``, DESIGN "Adapters, Output") is that counts the
provider did not report are 0 (required) or None (optional), never derived or guessed. A
target that reports input tokens for an empty stream invents data the caller then bills,
budgets and truncates by: ``degrade``. Judged from the response bytes alone, so the audit
(recorded cassettes) and I3 (emitted streams, the empty-stream probe) agree.

The test is an upper bound, so no legitimate mapping fails it: a reported count may be
any sum of the counts the body carries (Anthropic's ``input_tokens`` adds the cache reads
and writes; cumulative events repeat a count), so it is invented only when it exceeds the
sum of every token count in the body. A body that is neither JSON nor SSE-framed JSON is
not judged.
"""

from __future__ import annotations

import json
import re
from typing import Any, cast

from harness.model import Usage

__all__ = ["carried_token_counts", "invented_usage"]

_LINE_END = re.compile(r"\r\n|\r|\n")
_COUNTS = (
    "input_tokens",
    "output_tokens",
    "cached_input_tokens",
    "cache_creation_input_tokens",
    "reasoning_tokens",
    "total_tokens",
)


def _documents(body: bytes) -> list[Any] | None:
    text = body.decode("utf-8", errors="replace").strip()
    if not text:
        return []
    try:
        return [json.loads(text)]
    except ValueError:
        pass
    docs: list[Any] = []
    lines = _LINE_END.split(text)  # SSE line ends only: str.splitlines also splits on U+0085, U+2028
    for line in lines:
        if not line.startswith("data:"):
            continue
        data = line[5:].strip()
        if not data or data == "[DONE]":
            continue
        if "\\" not in data and "token" not in data.lower():
            # No key here can name a token count (``_counts``; a key written with escapes has a
            # backslash): its document adds nothing, and a stream's deltas are most of its lines.
            continue
        try:
            docs.append(json.loads(data))
        except ValueError:
            continue  # a cut event: the rest of the stream still counts
    return docs if docs or any(line.startswith(("data:", "event:")) for line in lines) else None


def _counts(value: Any, key: str, out: list[int]) -> None:
    if isinstance(value, dict):
        for k, v in cast(dict[str, Any], value).items():
            _counts(v, k, out)
    elif isinstance(value, list):
        for v in cast(list[Any], value):
            _counts(v, key, out)
    elif isinstance(value, int) and not isinstance(value, bool) and "token" in key.lower():
        out.append(value)
    elif isinstance(value, str) and value.isdigit() and "token" in key.lower():
        out.append(int(value))  # proto3 JSON writes int64 counts as strings


def carried_token_counts(body: bytes) -> list[int] | None:
    """Every token count in a response body (JSON, a JSON array, or SSE); None when unreadable."""
    docs = _documents(body)
    if docs is None:
        return None
    out: list[int] = []
    for doc in docs:
        _counts(doc, "", out)
    return out


def invented_usage(usage: Usage | None, body: bytes) -> list[str]:
    """One line per reported count the body cannot account for (empty when it can, or is unreadable)."""
    carried = carried_token_counts(body)
    if usage is None or carried is None:
        return []
    bound = sum(carried)
    out: list[str] = []
    for name in _COUNTS:
        value = getattr(usage, name)
        if isinstance(value, int) and value > bound:
            seen = ", ".join(str(n) for n in sorted(set(carried))[:6]) or "none"
            out.append(
                f"usage.{name} is {value}, but the response carries no token count that adds up to it "
                f"(counts in the body: {seen}); expected 0 or None for what the provider did not report"
            )
    return out
