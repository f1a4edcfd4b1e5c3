"""Usage the response never carried is invented data: ``degrade`` in I3 (emitted streams and the
empty-stream / HTTP 500 probes) and in the audit's ``replay`` check (recorded cassettes)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from harness.audit.checks import check_replay
from harness.audit.corpus import CassetteCase, cassette_cases
from harness.contract.chunking import Chunking
from harness.contract.providers import PROVIDERS
from harness.contract.results import CallResult
from harness.contract.usage import carried_token_counts, invented_usage
from harness.data_paths import cassettes_dir
from harness.invariants import run_invariants
from harness.model import Usage
from harness.scenarios import load_scenarios
from tests.support.invariants import REFERENCE, Mutant

CASES, _ = cassette_cases(cassettes_dir(), PROVIDERS)


def _inventing(_provider: str, result: CallResult, _chunk: Chunking) -> CallResult:
    """Reports 4,321 input tokens more than the stream said (so 4,321 for an empty stream)."""
    usage = result.message.usage or Usage()
    invented = usage.model_copy(update={"input_tokens": usage.input_tokens + 4321})
    return CallResult(result.message.model_copy(update={"usage": invented}), result.items, result.errors)


INVENTING = Mutant(name="inventing", parsed=_inventing)


def test_counts_are_read_from_json_and_sse() -> None:
    assert carried_token_counts(b"") == []
    assert carried_token_counts(b'{"usage": {"input_tokens": 3, "output_tokens": 5}}') == [3, 5]
    sse = b'event: x\ndata: {"usageMetadata": {"promptTokenCount": 7}}\n\ndata: [DONE]\n\n'
    assert carried_token_counts(sse) == [7]
    assert carried_token_counts(b"\x00\x01 not json") is None


def test_a_sum_of_carried_counts_is_not_invented() -> None:
    """Anthropic's input_tokens adds cache reads and writes: any sum of carried counts is legitimate."""
    body = b'{"usage": {"input_tokens": 3, "cache_read_input_tokens": 100, "output_tokens": 5}}'
    assert invented_usage(Usage(input_tokens=103, output_tokens=5, total_tokens=108), body) == []
    assert invented_usage(Usage(input_tokens=0, output_tokens=0), b"") == []
    lines = invented_usage(Usage(input_tokens=12, output_tokens=0), b"")
    assert len(lines) == 1 and lines[0].startswith("usage.input_tokens is 12")


@pytest.mark.parametrize("provider", PROVIDERS)
def test_i3_reports_usage_invented_for_an_empty_stream(provider: str) -> None:
    history = load_scenarios()["plain_single_turn"].history
    assert [
        v
        for v in run_invariants(history, target=REFERENCE, providers=[provider], invariants=["I3"]).violations
        if "usage" in v.reason
    ] == []
    found = run_invariants(history, target=INVENTING, providers=[provider], invariants=["I3"]).violations
    empty = [v for v in found if v.reason.startswith("an empty stream: usage.input_tokens is 4321")]
    assert empty and all(v.kind == "degrade" for v in empty), found


@pytest.mark.parametrize("case", CASES, ids=[c.case + "-" + c.provider for c in CASES])
def test_the_reference_invents_no_usage_on_recorded_responses(case: CassetteCase) -> None:
    outcome = check_replay(REFERENCE, case, None).checks["replay"]
    assert not any("usage." in d for d in outcome.details), outcome


@pytest.mark.parametrize("provider", PROVIDERS)
def test_the_audit_reports_usage_invented_for_an_empty_response(provider: str) -> None:
    recorded = next(c for c in CASES if c.provider == provider)
    empty = replace(recorded, exchange=replace(recorded.exchange, body=b""))
    quiet = check_replay(REFERENCE, empty, None).checks["replay"]
    assert not any("usage." in d for d in quiet.details), quiet
    outcome = check_replay(INVENTING, empty, None).checks["replay"]
    invented = [
        (k, d) for k, d in zip(outcome.kinds, outcome.details, strict=True) if "usage.input_tokens" in d
    ]
    assert invented and all(k == "degrade" for k, _ in invented), outcome


def test_sse_lines_end_only_at_line_ends() -> None:
    """U+0085 and U+2028 inside a JSON string are text, not line ends (str.splitlines would split there)."""
    body = 'data: {"text": "a\u0085b\u2028c", "usage": {"output_tokens": 1}}\n\n'.encode()
    assert carried_token_counts(body) == [1]
