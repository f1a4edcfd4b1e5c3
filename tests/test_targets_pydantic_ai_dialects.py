"""pydantic-ai on the OpenAI-compatible dialects: a history per dialect rule rendered
through pydantic-ai's own model classes and judged by the dialects' rules and SDK oracles.

Each assertion states what pydantic-ai 2.68.0 does, with the source line that does it (paths under
``pydantic_ai/`` in the pydantic-ai environment). Histories are synthetic. Skipped without that
environment, like tests/test_targets_pydantic_ai.py.
"""

from __future__ import annotations

import re

import pytest

from harness.model import (
    AssistantMessage,
    HistoryEvent,
    TextPart,
    ThinkingTextPart,
    ToolCallPart,
    ToolResultMessage,
    UserMessage,
)
from harness.oracles import validate
from harness.params import CallParams, ThinkingParams
from harness.rules import check_body
from harness.targets import Target
from tests.support.worker_targets import load_or_skip, or_one_skip

_MISTRAL_ID = re.compile(r"[a-zA-Z0-9]{9}")


@pytest.fixture(scope="module")
def pydantic_ai() -> Target:
    return load_or_skip("pydantic-ai")


def _tool_turn(call_id: str, thinking: str | None = None) -> AssistantMessage:
    parts: list[ThinkingTextPart | ToolCallPart] = [ThinkingTextPart(text=thinking)] if thinking else []
    return AssistantMessage(
        parts=[*parts, ToolCallPart(call_id=call_id, tool_name="read", arguments_json="{}")]
    )


def _result(call_id: str) -> ToolResultMessage:
    return ToolResultMessage(call_id=call_id, tool_name="read", status="success", output_text="ok", parts=[])


def _thinking_loop(ids: tuple[str, str]) -> list[HistoryEvent]:
    """A finished turn with a tool loop, then the current turn's loop waiting for its next step."""
    return [
        UserMessage(parts=[TextPart(text="read a")]),
        _tool_turn(ids[0], "need a"),
        _result(ids[0]),
        AssistantMessage(parts=[ThinkingTextPart(text="done"), TextPart(text="a is ok")]),
        UserMessage(parts=[TextPart(text="now b")]),
        _tool_turn(ids[1], "need b"),
        _result(ids[1]),
    ]


@pytest.mark.parametrize("case", or_one_skip("pydantic-ai", ["mistral"]))
def test_foreign_ids_render_for_mistral_valid_and_consistently_renumbered(
    pydantic_ai: Target, case: str
) -> None:
    """``Model.prepare_messages`` fits every id to the profile's ``tool_call_id_length`` (9 for every
    Mistral model: profiles/mistral.py line 13; models/__init__.py lines 2018-2022, ``_fit_tool_call_ids``
    from line 5253), the same way in the call and its result."""
    foreign = ["toolu_01ABCdefGHIjklMNOpqr", "call_AB6AaRZ1FYZB2RwS6A5vbdqn", "fc_311ba17b-89f9", "rHU0eZiMa"]
    history: list[HistoryEvent] = [UserMessage(parts=[TextPart(text="go")])]
    for cid in foreign:
        history += [_tool_turn(cid), _result(cid)]
    history.append(UserMessage(parts=[TextPart(text="thanks")]))
    body = pydantic_ai.render(case, history, CallParams(model="mistral-large-latest", stream=False)).body
    calls = [m["tool_calls"][0]["id"] for m in body["messages"] if m.get("tool_calls")]
    results = [m["tool_call_id"] for m in body["messages"] if m["role"] == "tool"]
    assert calls == results and len(set(calls)) == 4 and all(_MISTRAL_ID.fullmatch(i) for i in calls)
    assert calls[3] == "rHU0eZiMa"  # an id that fits is kept
    # between a tool result and a user message MistralModel adds an assistant "OK" (models/mistral.py line 869)
    assert check_body("mistral", body) == [] and validate("mistral", body).ok


@pytest.mark.parametrize("model", or_one_skip("pydantic-ai", ["deepseek-v4-pro", "deepseek-reasoner"]))
def test_a_deepseek_thinking_tool_loop_carries_reasoning_content(pydantic_ai: Target, model: str) -> None:
    """DeepSeekProvider's profile sends thinking back in ``reasoning_content`` on every response that
    holds it (providers/deepseek.py lines 64-70, ``openai_chat_send_back_thinking_parts='field'``), the
    finished turn's included (the API ignores those: guides/thinking_mode)."""
    history = _thinking_loop(("call_1", "call_2"))
    params = CallParams(model=model, stream=False, thinking=ThinkingParams(enabled=True))
    body = pydantic_ai.render("deepseek", history, params).body
    sent = [m.get("reasoning_content") for m in body["messages"] if m["role"] == "assistant"]
    assert sent == ["need a", "done", "need b"]
    assert check_body("deepseek", body) == []


@pytest.mark.parametrize(
    ("provider", "model"),
    or_one_skip(
        "pydantic-ai", [("huggingface", "moonshotai/Kimi-K2-Thinking"), ("groq", "moonshotai/kimi-k2.5")], 2
    ),
)
def test_a_kimi_thinking_tool_loop_through_pydantic_ai_lacks_the_reasoning_kimi_requires(
    pydantic_ai: Target, provider: str, model: str
) -> None:
    """A finding: ``HuggingFaceModel`` and ``GroqModel`` send thinking back as ``<think>`` tags in the
    content (models/huggingface.py lines 464-465 and 489-491; models/groq.py lines 689-690 and
    714-716), never in a reasoning field, so a Kimi thinking model's tool call goes out without the
    ``reasoning_content`` it answers 400 without (the rule's evidence)."""
    body = pydantic_ai.render(provider, _thinking_loop(("functions.read:0", "functions.read:1")), CallParams(
        model=model, stream=False)).body  # fmt: skip
    calls = [m for m in body["messages"] if m["role"] == "assistant" and m.get("tool_calls")]
    assert calls and all("<think>" in str(m.get("content")) for m in calls)
    assert {f.rule for f in check_body(provider, body)} == {"kimi-tool-call-reasoning"}
