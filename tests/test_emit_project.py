"""Projection: a client-written assistant message onto what one provider's stream carries.

The stream checks (I3, I6, I11) must run on the corpus for every provider, not skip it:
a message the stream cannot carry as it is (usage totals, another provider's signatures,
a client-side stop reason) is projected, and the target's parser is judged on that.
"""

from __future__ import annotations

import pytest

from harness.contract.chunking import Chunking
from harness.contract.results import CallResult
from harness.emit import PROVIDERS, carries_ids, emit_stream, representable
from harness.emit.project import project
from harness.invariants import run_invariants
from harness.model import AssistantMessage, TextPart, Usage, UserMessage
from harness.params import CallParams
from harness.providers import get_parser
from harness.scenarios import load_scenarios
from harness.stream.drive import parse_bytes
from tests.support.invariants import Mutant

CORPUS = [
    (name, n, event)
    for name, s in sorted(load_scenarios().items())
    for n, event in enumerate(s.history)
    if isinstance(event, AssistantMessage)
]


@pytest.mark.parametrize("provider", PROVIDERS)
def test_a_representable_message_is_its_own_projection(provider: str) -> None:
    for _, _, message in CORPUS:
        if representable(provider, message) is None:
            assert project(provider, message, representable).message == message


@pytest.mark.parametrize("provider", PROVIDERS)
def test_every_projection_round_trips_through_the_reference_parser(provider: str) -> None:
    projected = 0
    for name, index, message in CORPUS:
        try:
            carried = project(provider, message, representable).message
        except ValueError:
            continue
        projected += 1
        body = emit_stream(provider, carried, response_id="resp_p")
        parsed = parse_bytes(get_parser(provider), body).message
        rid = "resp_p" if carries_ids(provider) else None  # Bedrock's stream names no response id
        expected = carried.model_copy(update={"id": None, "created_at": None, "response_id": rid})
        assert parsed == expected, (name, index)
    assert projected >= len(CORPUS) * 3 // 4, f"{provider}: only {projected} of {len(CORPUS)} have a stream"


def _drop_text(provider: str, result: CallResult, chunk_size: Chunking) -> CallResult:
    del provider, chunk_size
    message = result.message.model_copy(
        update={"parts": [p for p in result.message.parts if not isinstance(p, TextPart)]}
    )
    return CallResult(message, result.items, result.errors, result.notes)


@pytest.mark.parametrize("provider", PROVIDERS)
def test_a_parser_that_drops_text_is_caught_on_a_message_the_stream_cannot_carry_as_is(provider: str) -> None:
    message = AssistantMessage(
        parts=[TextPart(text="The answer is 42.")],
        usage=Usage(input_tokens=10, output_tokens=5, total_tokens=15, cache_creation_input_tokens=0),
        stop_reason="aborted",
    )
    history = [UserMessage(parts=[TextPart(text="question?")]), message]
    assert representable(provider, message) is not None  # as written, no stream of this provider carries it
    assert run_invariants(history, CallParams(), providers=[provider], invariants=["I11"]).ok
    broken = run_invariants(
        history, CallParams(), target=Mutant(parsed=_drop_text), providers=[provider], invariants=["I11"]
    )
    assert any("parse(emit(message)) differs" in v.reason for v in broken.violations), broken.violations
