"""I15 sources-reach-the-message: a citation the provider's stream carries is in the parsed message.

Seed 004's plan closes with a known bug: "Grounding citations are sent but silently dropped".
Rule: every source of an assistant message that the provider's stream carries (the message's
emitted stream, ``harness.invariants.streams``) comes out of the target's stream parser as a
source of the final message: the same kind, URL and title, in the same order. A parser that
reads the text and skips the citations fails here; one that turns them into text passes only
if it also keeps them as sources.
"""

from __future__ import annotations

from harness.invariants.base import CheckContext, Violation
from harness.invariants.streams import emit_for, replay_bytes, stream_exchange
from harness.model import AssistantMessage, SourcePart

__all__ = ["check_sources_reach_the_message"]

ID = "I15"


def _shape(source: SourcePart) -> tuple[str, str | None, str | None]:
    return (source.source_type, source.url, source.title)


def check_sources_reach_the_message(ctx: CheckContext) -> list[Violation]:
    out: list[Violation] = []
    for index, event in enumerate(ctx.history):
        if not isinstance(event, AssistantMessage) or not any(isinstance(p, SourcePart) for p in event.parts):
            continue
        body = emit_for(ctx, event, index)
        carried = ctx.stream_messages.get(index)
        if body is None or carried is None:
            ctx.note(f"{ID}: message {index} has no {ctx.provider} stream ({ctx.stream_skips.get(index)})")
            continue
        expected = [_shape(p) for p in carried.parts if isinstance(p, SourcePart)]
        if not expected:
            ctx.note(f"{ID}: message {index}: {ctx.provider}'s stream carries none of its sources")
            continue
        result = replay_bytes(ctx, ID, index, stream_exchange(ctx, index, body))
        if isinstance(result, Violation):
            out.append(result)
            continue
        got = [_shape(p) for p in result.message.parts if isinstance(p, SourcePart)]
        if got != expected:
            missing = [s for s in expected if s not in got]
            out.append(
                ctx.violation(
                    ID,
                    index,
                    f"{len(expected)} source(s) in the stream, {len(got)} in the parsed message"
                    + (f"; missing {missing[0]}" if missing else "; order or kind differs"),
                    {"expected": [list(s) for s in expected], "got": [list(s) for s in got]},
                    kind="degrade",
                )
            )
    return out
