"""I4 tool-result-text: ``output_text`` is sent once, as the tool result's own text.

Rule (seed 000 decision 8): ``output_text`` is the single source of tool text and
``parts`` carry only images; the request keeps it structured (seed 004), so the text
sits inside the provider's result unit and is never repeated as a separate user text.
"""

from __future__ import annotations

import json
from collections import Counter

from harness.invariants.base import CheckContext, Violation, dicts, leaves
from harness.invariants.canonical import (
    answered_results,
    effective_model,
    result_sent_ids,
    sendable_strings,
    sent_call_ids,
)
from harness.invariants.wire import WireResult, sent_text_blocks, tool_turns
from harness.model import AssistantMessage, DeveloperMessage, TextPart, ToolCallPart, ToolResultMessage

__all__ = ["check_tool_result_text"]

ID = "I4"
_TEXT_KEYS = frozenset({"text", "content", "output", "error"})


def check_tool_result_text(ctx: CheckContext) -> list[Violation]:
    body = ctx.body
    ids = sent_call_ids(ctx.history, ctx.provider, body)
    per_result = result_sent_ids(ctx.history, ctx.provider, body)  # ids reused across turns, renumbered
    turns, orphans = tool_turns(ctx.provider, body)
    results = [r for t in turns for r in t.results] + orphans
    text_leaves = [leaf for key, leaf in leaves(body) if key in _TEXT_KEYS]
    model = effective_model(ctx.provider, ctx.params, body)
    canonical = sendable_strings(ctx.history, ctx.params, ctx.provider, model)
    # Counted and grouped once: a pass over the body per tool result is quadratic.
    leaf_counts, canonical_counts = Counter(text_leaves), Counter(canonical)
    by_id: dict[object, list[WireResult]] = {}
    for result in results:
        by_id.setdefault(result.id, []).append(result)
    out: list[Violation] = []
    answered = answered_results(ctx.history)
    developer = "\n".join(
        p.text
        for e in ctx.history
        if isinstance(e, DeveloperMessage)
        for p in e.parts
        if isinstance(p, TextPart)
    )
    calls_by_id = Counter(
        p.call_id
        for e in ctx.history
        if isinstance(e, AssistantMessage)
        for p in e.parts
        if isinstance(p, ToolCallPart)
    )
    for index, event in enumerate(ctx.history):
        if not isinstance(event, ToolResultMessage) or not event.output_text.strip() or index not in answered:
            continue  # orphan and duplicate results are not sent as results (I7/I13 judge them)
        text = event.output_text
        sent_id = per_result.get(index, ids.get(event.call_id, event.call_id))
        mine = by_id.get(sent_id, [])
        if not mine:
            continue  # not sent at all: I7 and I13 judge that
        if not any(_carries(r, text, developer) for r in mine):
            out.append(
                ctx.violation(
                    ID,
                    index,
                    "the tool result's text is not output_text",
                    {"output_text": text, "sent": [r.text for r in mine]},
                    kind="degrade",
                )
            )
        sent = leaf_counts[text]
        # Once per result unit: where calls share an id, an adapter that keeps both calls answers
        # each with the result (warned tool-call-duplicate-id), so the text goes once per call.
        allowed = max(1, canonical_counts[text]) + max(0, min(len(mine), calls_by_id[event.call_id]) - 1)
        if sent > allowed:
            out.append(
                ctx.violation(
                    ID,
                    index,
                    f"tool text appears {sent} times in the request (once as the result's text expected)",
                    {"output_text": text},
                    kind="policy",
                )
            )
    return out


def _carries(result: WireResult, text: str, developer: str) -> bool:
    """Whether a result unit carries ``text`` as its own text.

    The text may be the result's several text blocks together (the tool split it so; I14
    judges the split). Developer text that seed 000 appends to the tool result may follow it; Gemini's
    ``functionResponse.response`` keys are the caller's choice, and a JSON output may be
    sent as the JSON value itself.
    """
    candidates: list[str] = [result.text] if result.text is not None else []
    joined = "".join(sent_text_blocks(result.unit))  # a result sent as several text blocks
    if joined:
        candidates.append(joined)
    candidates += [v for v in result.values if isinstance(v, str)]
    if any(c == text or _then_developer(c, text, developer) for c in candidates):
        return True
    try:
        parsed = json.loads(text)
    except ValueError:
        return False
    # a structured result (output_json) goes as the JSON value itself: Gemini's response object,
    # Bedrock's json block
    return any(v == parsed for v in result.values) or any(
        d == parsed or parsed in d.values() for d in dicts(result.unit)
    )


def _then_developer(candidate: str, text: str, developer: str) -> bool:
    rest = candidate[len(text) :] if candidate.startswith(text) else ""
    pieces = [piece for piece in rest.split("\n") if piece.strip()]
    return bool(pieces) and all(piece in developer for piece in pieces)
