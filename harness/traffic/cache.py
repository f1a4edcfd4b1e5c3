"""Prompt caching across turns: what each call read from and wrote to the provider's cache, and
whether the next call keeps the prefix its last breakpoint cached.

- ``cache_tokens``: the cache read and write token counts a response reports (Anthropic
  ``cache_read_input_tokens`` / ``cache_creation_input_tokens``, OpenAI ``cached_tokens``,
  Gemini ``cachedContentTokenCount``, Bedrock ``cacheReadInputTokens`` /
  ``cacheWriteInputTokens``, DeepSeek ``prompt_cache_hit_tokens``); streams repeat running
  totals, so the largest count of each is the call's.
- ``check_cache_prefix`` (``cache-prefix``): the blocks up to request N's last breakpoint
  (Anthropic and OpenRouter ``cache_control``, Bedrock ``cachePoint``; tools, then system,
  then the conversation) come back byte-identical, markers aside, in request N+1, and N+1
  ends its cache no earlier. A change before the breakpoint or a breakpoint moved back is
  ``degrade``: the provider writes the prefix again instead of reading it. Where the
  responses report usage, the finding says how many cached tokens the next call did not read.
"""

from __future__ import annotations

import json
from typing import Any, cast

from harness.traffic.findings import TrafficFinding
from harness.traffic.loader import RecordedCall

__all__ = ["Usage", "cache_tokens", "check_cache_prefix", "flat_blocks"]

Json = Any
Usage = tuple[int | None, int | None]
_READ = (
    "cache_read_input_tokens",
    "cacheReadInputTokens",
    "cached_tokens",
    "cachedContentTokenCount",
    "prompt_cache_hit_tokens",
)
_WRITE = ("cache_creation_input_tokens", "cacheWriteInputTokens")


def _payloads(response: bytes) -> list[Json]:
    """The JSON documents of a response body that could name a cache count: the body itself, or
    each SSE ``data:`` line that spells a key (or holds an escape that could spell one); the
    other lines of a stream, its text deltas, cannot count anything and are not decoded."""
    try:
        text = response.decode("utf-8")
    except UnicodeDecodeError:
        return []
    try:
        return [json.loads(text)]
    except ValueError:
        pass
    out: list[Json] = []
    for line in text.splitlines():
        if line.startswith("data:") and ("\\u" in line or any(k in line for k in _NAMES)):
            try:
                out.append(json.loads(line[5:].strip()))
            except ValueError:
                continue
    return out


def _counts(node: Json, keys: tuple[str, ...]) -> list[int]:
    found: list[int] = []

    def walk(node: Json) -> None:  # one list for the whole walk, not one per node
        if isinstance(node, dict):
            for key, value in cast(dict[str, Any], node).items():
                if key in keys and isinstance(value, int) and not isinstance(value, bool):
                    found.append(value)
                else:
                    walk(value)
        elif isinstance(node, list):
            for item in cast(list[Any], node):
                walk(item)

    walk(node)
    return found


_NAMES = (*_READ, *_WRITE)
_KEYS = tuple(k.encode("ascii") for k in _NAMES)


def cache_tokens(response: bytes) -> Usage:
    """(cache read, cache write) tokens the response reports; None where it reports none."""
    if b"\\u" not in response and not any(k in response for k in _KEYS):
        return (None, None)  # no key named (nor an escape that could spell one): no JSON to decode
    docs = _payloads(response)
    read = [n for d in docs for n in _counts(d, _READ)]
    write = [n for d in docs for n in _counts(d, _WRITE)]
    return (max(read) if read else None, max(write) if write else None)


def _d(value: Json) -> dict[str, Any]:
    return cast(dict[str, Any], value) if isinstance(value, dict) else {}


def _l(value: Json) -> list[Any]:
    return cast(list[Any], value) if isinstance(value, list) else []


def _strip(value: Json) -> Json:
    """The block without its cache marker (a marker is where the cache ends, not prompt)."""
    if isinstance(value, dict):
        return {k: _strip(v) for k, v in cast(dict[str, Any], value).items() if k != "cache_control"}
    if isinstance(value, list):
        return [_strip(v) for v in cast(list[Any], value)]
    return value


def _text(value: Json) -> Json:
    return {"type": "text", "text": value} if isinstance(value, str) else value


def flat_blocks(wire: str, body: dict[str, Any]) -> tuple[list[tuple[str, str]], int | None]:
    """The request's cacheable blocks in cache order as (path, JSON without markers), and the
    index of the block its last breakpoint ends (None: no breakpoint)."""
    blocks: list[tuple[str, str]] = []
    last: int | None = None

    def add(path: str, block: Json, role: Json = None) -> None:
        """One block; ``role``: the message it opens (a role change is a prefix change too)."""
        nonlocal last
        if isinstance(block, dict) and set(cast(dict[str, Any], block)) == {"cachePoint"}:
            last = len(blocks) - 1 if blocks else last  # Bedrock: the block before it
            return
        shown = _strip(block) if role is None else {"role": role, "block": _strip(block)}
        blocks.append((path, json.dumps(shown, sort_keys=True, ensure_ascii=False)))
        if "cache_control" in _d(block):
            last = len(blocks) - 1

    if wire == "anthropic":
        for i, tool in enumerate(_l(body.get("tools"))):
            add(f"tools/{i}", tool)
        # a string is shorthand for one text block: the same prompt, the same cache
        system = body.get("system")
        for i, block in enumerate(
            _l(system) if isinstance(system, list) else [_text(system)] if system else []
        ):
            add(f"system/{i}", block)
        for m, message in enumerate(_l(body.get("messages"))):
            content = _d(message).get("content")
            for i, block in enumerate(_l(content) if isinstance(content, list) else [_text(content)]):
                add(f"messages/{m}/content/{i}", block, _d(message).get("role") if i == 0 else None)
        if "cache_control" in body and blocks:
            last = len(blocks) - 1  # the top-level (automatic) breakpoint ends at the last block
    elif wire == "bedrock-converse":
        for i, tool in enumerate(_l(_d(body.get("toolConfig")).get("tools"))):
            add(f"toolConfig/tools/{i}", tool)
        for i, block in enumerate(_l(body.get("system"))):
            add(f"system/{i}", block)
        for m, message in enumerate(_l(body.get("messages"))):
            for i, block in enumerate(_l(_d(message).get("content"))):
                add(f"messages/{m}/content/{i}", block, _d(message).get("role") if i == 0 else None)
    elif wire == "openai-chat":
        for m, message in enumerate(_l(body.get("messages"))):
            content = _d(message).get("content")
            for i, part in enumerate(_l(content) if isinstance(content, list) else [content]):
                add(f"messages/{m}/content/{i}", part, _d(message).get("role") if i == 0 else None)
    return blocks, last


def check_cache_prefix(
    call: RecordedCall,
    provider: str,
    wire: str,
    previous: int,
    bodies: tuple[dict[str, Any], dict[str, Any]],
    usage: tuple[Usage, Usage],
) -> TrafficFinding | None:
    """``cache-prefix`` on one continuing pair; None when request N sets no breakpoint or the
    prefix it cached is kept."""
    (before, end), (after, end_after) = flat_blocks(wire, bodies[0]), flat_blocks(wire, bodies[1])
    if end is None:
        return None
    changed = next((i for i in range(end + 1) if i >= len(after) or after[i][1] != before[i][1]), None)
    if changed is not None:
        path = before[changed][0]
        what = f"the cached prefix changed at {path} (before request #{previous}'s last breakpoint, at {before[end][0]})"
    elif end_after is None or end_after < end:
        path = before[end][0]
        moved = "dropped" if end_after is None else f"moved back to {after[end_after][0]}"
        what = f"request #{previous}'s last breakpoint (at {path}) is {moved}"
    else:
        return None
    (read0, write0), (read1, _) = usage
    cached = (read0 or 0) + (write0 or 0) if (read0 is not None or write0 is not None) else None
    if cached is not None and read1 is not None and read1 < cached:
        what += f"; {cached - read1} of the {cached} tokens call #{previous} cached were not read (cache read {read1})"
    elif cached is not None:
        shown = "" if read1 is None else f"; the next response reports {read1} read"
        what += f"; the {cached} tokens call #{previous} cached are at stake{shown}"
    return TrafficFinding(
        "cache-prefix",
        "degrade",
        call.file,
        call.index,
        provider,
        path,
        what,
        "the provider reads its prompt cache only for a byte-identical prefix up to a breakpoint: this "
        "call pays for that prefix again (and writes it again)",
        call.status,
    )
