"""Closed loop on every recorded round trip: our request N+1 equals the one the real API accepted.

See ``harness.loop.closed_loop``. Differences are either accepted by the registry (``harness.accepted``; harmless, each with
its reason) or findings. Open findings are pinned below in ``KNOWN_FINDINGS`` with the bug
behind them, so a new difference fails and so does a fix (remove the entry then).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from harness.accepted.predicates import value_is
from harness.accepted.registry import for_judge
from harness.contract.accepted import Accepted
from harness.importer import import_request
from harness.importer.conversation import import_conversation
from harness.loop.closed_loop import close_loop, close_pair, reproduce_request
from harness.loop.jsondiff import DiffContext, JsonDifference, diff_json
from harness.model import (
    AssistantMessage,
    ThinkingSignaturePart,
    ToolCallPart,
    ToolResultMessage,
    UserMessage,
)
from harness.providers import PROVIDERS, get_adapter, get_parser
from harness.providers.replay import Exchange, replay_exchange
from tests.support.cassettes import (
    CLOSABLE,
    KNOWN_UNREADABLE,
    NOT_RENDERED,
    ROUND_TRIPS,
    case_id,
    model_calls,
)

IDS = [case_id(c) for c in ROUND_TRIPS]

EXPECTED_ROUND_TRIPS = {
    "anthropic-pai__sonnet45_thinking_tool_use_roundtrip",
    "anthropic-llmanthropic__haiku35_parallel_tool_use_roundtrip",
    "gemini-pai__gemini3pro_functioncall_thoughtsig_roundtrip",
    "openai-chat-pai__gpt4omini_tool_call_roundtrip",
    "openai-responses-pai__gpt55_reasoning_function_call_phase_roundtrip",
    "openrouter-llmopenrouter__gpt41mini_chat_tool_calls_roundtrip",
    "openrouter-pai__or_gpt5mini_reasoning_details_roundtrip_NONSTREAM",
    "bedrock-models__test_bedrock__test_bedrock_model_iter_stream",
    "cerebras-models__test_cerebras__test_cerebras_zai_reasoning_replayed_as_think_tags",
    "deepseek-models__test_deepseek_responses__test_deepseek_responses[function_tool_stream]",
    "groq-models__test_groq__test_tool_use_failed_error_streaming",
    "huggingface-models__test_huggingface__test_hf_model_thinking_part",
    "cohere-models__test_tool_choice_matrix__test_tool_choice_matrix[auto-cohere]",
    "zai-models__test_zai__test_zai_preserved_thinking_round_trip",
}

# Open mapping bugs the loop exposes: "<kind> <path>" -> the bug. Not acceptable
# differences, so they are not in the registry; fixing one makes test_loop_closes fail
# until its entry is removed here.
KNOWN_FINDINGS: dict[str, dict[str, str]] = {}


def _keys(differences: list[JsonDifference]) -> set[str]:
    return {f"{d.kind} {d.path}" for d in differences if d.allowed_by is None}


def test_round_trip_cassettes_are_all_found() -> None:
    assert set(IDS) == EXPECTED_ROUND_TRIPS
    assert set(KNOWN_UNREADABLE) | set(NOT_RENDERED) <= EXPECTED_ROUND_TRIPS


@pytest.mark.parametrize("case", sorted(KNOWN_UNREADABLE))
def test_known_unreadable_round_trips_still_fail_to_import(case: str) -> None:
    provider, path = _CASES[case]
    with pytest.raises(ValueError, match=KNOWN_UNREADABLE[case]):
        close_loop(provider, path)


@pytest.mark.parametrize("case", sorted(NOT_RENDERED))
def test_round_trips_in_a_format_the_reference_does_not_render_are_read_whole(case: str) -> None:
    """Every request reads back with nothing unrepresented; the loop says why it stops there."""
    provider, path = _CASES[case]
    for exchange in model_calls(provider, path):
        imported = import_request(provider, exchange.request_body, uri=exchange.uri)
        assert imported.complete, imported.unrepresented
        assert any(isinstance(m, UserMessage) for m in imported.history)
    with pytest.raises(ValueError, match=NOT_RENDERED[case]):
        close_loop(provider, path)


@pytest.mark.parametrize(("provider", "path"), CLOSABLE, ids=[case_id(c) for c in CLOSABLE])
def test_loop_closes(provider: str, path: Path) -> None:
    reports = close_loop(provider, path)
    assert reports, "a round trip has at least one pair of model calls"
    findings = {key for report in reports for key in _keys(report.differences)}
    expected = set(KNOWN_FINDINGS.get(case_id((provider, path)), {}))
    detail = "\n".join(str(r) for r in reports)
    assert findings == expected, f"differences beyond the allowlist changed:\n{detail}"


@pytest.mark.parametrize(("provider", "path"), CLOSABLE, ids=[case_id(c) for c in CLOSABLE])
def test_read_request_renders_back_to_each_recorded_request(provider: str, path: Path) -> None:
    """The decoder that seeds the loop loses nothing: each request re-renders to itself."""
    for n, exchange in enumerate(model_calls(provider, path), start=1):
        differences = reproduce_request(provider, path.stem, exchange)
        assert not _keys(differences), f"request {n}:\n" + "\n".join(str(d) for d in differences)


def test_every_allowance_is_used_by_a_cassette() -> None:
    used: set[str] = set()
    for provider, path in CLOSABLE:
        for report in close_loop(provider, path):
            used |= {d.allowed_by for d in report.differences if d.allowed_by}
        for exchange in model_calls(provider, path):
            used |= {d.allowed_by for d in reproduce_request(provider, path.stem, exchange) if d.allowed_by}
    stale = sorted({a.id for a in for_judge("closed-loop")} - used)
    assert not stale, f"allowances no cassette needs (remove them): {stale}"


def test_allowlist_entries_are_documented_and_unique() -> None:
    ids = [a.id for a in for_judge("closed-loop")]
    assert len(ids) == len(set(ids))
    for allowance in for_judge("closed-loop"):
        assert allowance.provider in PROVIDERS
        assert len(allowance.why) > 40, allowance.id
        assert allowance.where and allowance.where != "*", allowance.id


# ---------------------------------------------------------------- the loop has teeth

_CASES = dict(zip(IDS, ROUND_TRIPS, strict=True))


def _pair(case: str) -> tuple[str, str, Exchange, Exchange]:
    provider, path = _CASES[case]
    calls = model_calls(provider, path)
    return provider, path.stem, calls[0], calls[1]


def _mutated(exchange: Exchange, edit: Any) -> Exchange:
    body = copy.deepcopy(exchange.request_body)
    edit(body)
    return Exchange(exchange.method, exchange.uri, body, exchange.status, exchange.headers, exchange.body)


def _findings_after(case: str, edit: Any) -> set[str]:
    provider, name, first, second = _pair(case)
    return _keys(close_pair(provider, name, 1, first, _mutated(second, edit)).differences)


def _flip_char(text: str, position: int) -> str:
    swap = "A" if text[position] != "A" else "B"
    return text[:position] + swap + text[position + 1 :]


def test_a_changed_anthropic_signature_is_a_finding() -> None:
    def edit(body: Any) -> None:
        block = body["messages"][1]["content"][0]
        block["signature"] = _flip_char(block["signature"], 40)

    findings = _findings_after("anthropic-pai__sonnet45_thinking_tool_use_roundtrip", edit)
    assert "changed messages[1].content[0].signature" in findings


def test_reordered_parallel_tool_calls_are_a_finding() -> None:
    def edit(body: Any) -> None:
        content = body["messages"][1]["content"]
        content[1], content[2] = content[2], content[1]

    findings = _findings_after("anthropic-llmanthropic__haiku35_parallel_tool_use_roundtrip", edit)
    assert "changed messages[1].content[1].id" in findings


def test_the_recorder_space_allowance_takes_exactly_one_space() -> None:
    def edit(body: Any) -> None:
        body["messages"][1]["content"][0]["text"] += " "  # two trailing spaces now

    findings = _findings_after("anthropic-llmanthropic__haiku35_parallel_tool_use_roundtrip", edit)
    assert "changed messages[1].content[0].text" in findings


def test_a_changed_gemini_signature_byte_is_a_finding() -> None:
    def edit(body: Any) -> None:
        part = body["contents"][1]["parts"][0]
        part["thoughtSignature"] = _flip_char(part["thoughtSignature"], 10)

    findings = _findings_after("gemini-pai__gemini3pro_functioncall_thoughtsig_roundtrip", edit)
    assert "changed contents[1].parts[0].thoughtSignature" in findings


def test_changed_gemini_arguments_are_a_finding() -> None:
    def edit(body: Any) -> None:
        body["contents"][1]["parts"][0]["functionCall"]["args"] = {"country": "Mexico"}

    findings = _findings_after("gemini-pai__gemini3pro_functioncall_thoughtsig_roundtrip", edit)
    assert findings == {"missing contents[1].parts[0].functionCall.args.country"}


def test_gemini_ids_are_allowed_only_as_the_minted_pair() -> None:
    ctx = DiffContext("gemini", "unit", {"pyd_ai_1": "call_r_0"})
    path = "contents[1].parts[0].functionCall.id"

    def verdict(recorded: str, ours: str) -> str | None:
        recorded_body = {"contents": [{}, {"parts": [{"functionCall": {"id": recorded}}]}]}
        ours_body = {"contents": [{}, {"parts": [{"functionCall": {"id": ours}}]}]}
        (difference,) = diff_json(recorded_body, ours_body, ctx, for_judge("closed-loop"))
        assert difference.path == path
        return difference.allowed_by

    assert verdict("pyd_ai_1", "call_r_0") == "gemini-minted-call-id"
    assert verdict("pyd_ai_1", "call_r_1") is None
    assert verdict("toolu_x", "call_r_0") is None


def test_changed_chat_arguments_are_a_finding() -> None:
    def edit(body: Any) -> None:
        body["messages"][1]["tool_calls"][0]["function"]["arguments"] = '{"country": "UK"}'

    findings = _findings_after("openai-chat-pai__gpt4omini_tool_call_roundtrip", edit)
    assert findings == {"changed messages[1].tool_calls[0].function.arguments"}


def test_a_changed_responses_encrypted_content_is_a_finding() -> None:
    def edit(body: Any) -> None:
        item = body["input"][1]
        item["encrypted_content"] = _flip_char(item["encrypted_content"], 30)

    findings = _findings_after("openai-responses-pai__gpt55_reasoning_function_call_phase_roundtrip", edit)
    assert "changed input[1].encrypted_content" in findings


def test_the_ascii_quote_allowance_takes_only_quote_folding() -> None:
    def edit(body: Any) -> None:
        body["input"][2]["content"][0]["text"] = body["input"][2]["content"][0]["text"].replace(
            "check", "chek"
        )

    findings = _findings_after("openai-responses-pai__gpt55_reasoning_function_call_phase_roundtrip", edit)
    assert findings == {"changed input[2].content[0].text"}


def test_a_dropped_responses_phase_is_a_finding() -> None:
    def edit(body: Any) -> None:
        body["input"][2]["phase"] = "final_answer"

    findings = _findings_after("openai-responses-pai__gpt55_reasoning_function_call_phase_roundtrip", edit)
    assert findings == {"changed input[2].phase"}


def test_changed_openrouter_text_is_a_finding() -> None:
    def edit(body: Any) -> None:
        body["messages"][1]["content"] = "Hello! How can I help you?"

    findings = _findings_after("openrouter-pai__or_gpt5mini_reasoning_details_roundtrip_NONSTREAM", edit)
    assert findings == {"changed messages[1].content"}


# ---------------------------------------------------------------- the decoder


def test_read_request_pairs_results_with_their_calls() -> None:
    provider, path = _CASES["anthropic-pai__sonnet45_thinking_tool_use_roundtrip"]
    history, params = import_conversation(provider, model_calls(provider, path)[1].request_body)
    assistant, result = history[1], history[2]
    assert isinstance(assistant, AssistantMessage)
    assert [type(p).__name__ for p in assistant.parts] == [
        "ThinkingTextPart",
        "ThinkingSignaturePart",
        "ToolCallPart",
    ]
    signature = assistant.parts[1]
    assert isinstance(signature, ThinkingSignaturePart) and signature.format == "anthropic"
    call = assistant.parts[2]
    assert isinstance(call, ToolCallPart) and isinstance(result, ToolResultMessage)
    assert (result.call_id, result.tool_name, result.output_text) == (call.call_id, "get_temperature", "18°C")
    assert params.thinking is not None and params.thinking.budget_tokens == 1024
    assert params.max_tokens == 4096


def test_read_request_takes_the_gemini_model_from_the_url() -> None:
    provider, path = _CASES["gemini-pai__gemini3pro_functioncall_thoughtsig_roundtrip"]
    exchange = model_calls(provider, path)[0]
    _, params = import_conversation(provider, exchange.request_body, exchange.uri)
    assert (params.model, params.stream) == ("gemini-3-pro-preview", True)


def test_read_request_refuses_what_it_cannot_decode() -> None:
    body: dict[str, Any] = {"messages": [{"role": "user", "content": [{"type": "document", "source": {}}]}]}
    with pytest.raises(ValueError, match="document"):
        import_conversation("anthropic", body)


# ---------------------------------------------------------------- the differ


def _ctx(provider: str = "anthropic") -> DiffContext:
    return DiffContext(provider, "unit")


def test_diff_reports_json_paths_and_kinds() -> None:
    recorded = {"a": [1, {"b": "x"}], "gone": {"deep": True}, "same": 1}
    ours = {"a": [1, {"b": "y"}, 3], "new": None, "same": 1.0}
    found = {(d.kind, d.path) for d in diff_json(recorded, ours, _ctx())}
    assert found == {
        ("changed", "a[1].b"),
        ("extra", "a[2]"),
        ("missing", "gone.deep"),
        ("extra", "new"),
    }


def test_diff_tells_booleans_from_numbers() -> None:
    assert [d.path for d in diff_json({"x": True}, {"x": 1}, _ctx())] == ["x"]


def test_an_allowance_needs_path_kind_provider_and_predicate() -> None:
    allowance = Accepted(
        "t",
        judges=("closed-loop",),
        provider="anthropic",
        where="tools[*].description",
        diff="missing",
        when=(value_is(""),),
        kind="equivalent",
        why="test only",
        still_needed="test only",
    )
    recorded = {"tools": [{"description": ""}, {"description": "x"}]}
    ours: dict[str, Any] = {"tools": [{}, {}]}
    result = {(d.path, d.allowed_by) for d in diff_json(recorded, ours, _ctx(), [allowance])}
    assert result == {("tools[0].description", "t"), ("tools[1].description", None)}
    other_provider = diff_json(recorded, ours, _ctx("openai-chat"), [allowance])
    assert all(d.allowed_by is None for d in other_provider)


def test_openrouter_reasoning_details_go_back_as_returned() -> None:
    """Half a loop where no request 3 was recorded: the reasoning_details OpenRouter returned in
    response 2 are exactly what we would send back in the assistant turn of the next request."""
    provider, path = _CASES["openrouter-pai__or_gpt5mini_reasoning_details_roundtrip_NONSTREAM"]
    second = model_calls(provider, path)[1]
    history, params = import_conversation(provider, second.request_body)
    reply = replay_exchange(get_parser(provider), second)
    rendered = get_adapter(provider).render([*history, reply.message], params)
    returned = json.loads(second.body)["choices"][0]["message"]
    expected = {k: returned[k] for k in ("role", "content", "reasoning_details")}
    assert diff_json(expected, rendered.body["messages"][-1], DiffContext(provider, path.stem)) == []
