"""I4 tool-result-text: ``output_text`` is sent once, as the tool result's own text.

Rule (seed 000 decision 8): ``output_text`` is the single source of tool text and
``parts`` carry only images; the request keeps it structured (seed 004), so the text
sits inside the provider's result unit and is never repeated as a separate user text.
"""

from __future__ import annotations

from harness.invariants.base import CheckContext, Violation, leaves
from harness.invariants.canonical import answered_results, effective_model, sendable_strings, sent_call_ids
from harness.invariants.wire import tool_turns
from harness.model import ToolResultMessage

__all__ = ["check_tool_result_text"]

ID = "I4"
_TEXT_KEYS = frozenset({"text", "content", "output", "error"})


def check_tool_result_text(ctx: CheckContext) -> list[Violation]:
    body = ctx.body
    ids = sent_call_ids(ctx.history, ctx.provider, body)
    turns, orphans = tool_turns(ctx.provider, body)
    results = [r for t in turns for r in t.results] + orphans
    text_leaves = [leaf for key, leaf in leaves(body) if key in _TEXT_KEYS]
    model = effective_model(ctx.provider, ctx.params, body)
    canonical = sendable_strings(ctx.history, ctx.params, ctx.provider, model)
    out: list[Violation] = []
    answered = answered_results(ctx.history)
    for index, event in enumerate(ctx.history):
        if not isinstance(event, ToolResultMessage) or not event.output_text.strip() or index not in answered:
            continue  # orphan and duplicate results are not sent as results (I7/I13 judge them)
        text = event.output_text
        sent_id = ids.get(event.call_id, event.call_id)
        mine = [r for r in results if r.id == sent_id]
        if not mine:
            continue  # not sent at all: I7 and I13 judge that
        if not any(r.text == text for r in mine):
            out.append(
                ctx.violation(
                    ID,
                    index,
                    "the tool result's text is not output_text",
                    {"output_text": text, "sent": [r.text for r in mine]},
                )
            )
        sent = sum(leaf == text for leaf in text_leaves)
        allowed = max(1, sum(s == text for s in canonical))
        if sent > allowed:
            out.append(
                ctx.violation(
                    ID,
                    index,
                    f"tool text appears {sent} times in the request (once as the result's text expected)",
                    {"output_text": text},
                )
            )
    return out
