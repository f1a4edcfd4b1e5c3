"""Violations the invariants found in the reference adapters, each kept as a regression test on its minimal example.

F1: developer parts on a dropped tool result must not vanish. F2: Gemini 3's signature
sentinel must stay on earlier contents when a turn is appended. F3: Chat and OpenRouter must
not send ``messages: []``. F4: a google signature that is not base64 must not be sent as
``thoughtSignature``. ``tests.support.invariants.KNOWN_FINDINGS`` is where a new finding waits (with an
expected-failure example here) until its fix lands.
"""

from __future__ import annotations

import pytest

from harness.invariants import Violation, run_invariants
from harness.model import (
    AssistantMessage,
    DeveloperMessage,
    HistoryEvent,
    TextPart,
    ThinkingSignaturePart,
    ToolCallPart,
    ToolResultMessage,
    Usage,
    UserMessage,
)
from harness.params import CallParams
from tests.support.invariants import KNOWN_FINDINGS

F1_ORPHAN: list[HistoryEvent] = [
    ToolResultMessage(call_id="trimmed_call", tool_name="read", status="success", output_text="old output"),
    DeveloperMessage(parts=[TextPart(text="Reminder: the repo uses tabs")]),
    UserMessage(parts=[TextPart(text="continue")]),
]
F1_DUPLICATE: list[HistoryEvent] = [
    UserMessage(parts=[TextPart(text="read it")]),
    AssistantMessage(
        parts=[ToolCallPart(call_id="c1", tool_name="read", arguments_json="{}")],
        usage=Usage(),
        stop_reason="tool_use",
    ),
    ToolResultMessage(call_id="c1", tool_name="read", status="success", output_text="first"),
    ToolResultMessage(call_id="c1", tool_name="read", status="success", output_text="retry"),
    DeveloperMessage(parts=[TextPart(text="Reminder: the repo uses tabs")]),
]
F2_GEMINI3_UNSIGNED_CALL: list[HistoryEvent] = [
    UserMessage(parts=[TextPart(text="list files")]),
    AssistantMessage(
        parts=[ToolCallPart(call_id="c1", tool_name="bash", arguments_json='{"cmd":"ls"}')],
        usage=Usage(),
        stop_reason="tool_use",
    ),
    ToolResultMessage(call_id="c1", tool_name="bash", status="success", output_text="a.py"),
]
F4_NOT_BASE64: list[HistoryEvent] = [
    UserMessage(parts=[TextPart(text="hi")]),
    AssistantMessage(
        parts=[
            TextPart(text="hello"),
            ThinkingSignaturePart(signature="=DD6/4A4=CA", format="google", model_id="gemini-2.5-flash"),
        ],
        usage=Usage(),
        stop_reason="stop",
    ),
    UserMessage(parts=[TextPart(text="again")]),
]

CASES: list[tuple[str, str, list[HistoryEvent], CallParams, str]] = [
    ("F1", "anthropic", F1_ORPHAN, CallParams(), "I1"),
    ("F1", "openai-chat", F1_ORPHAN, CallParams(), "I13"),
    ("F1", "gemini", F1_DUPLICATE, CallParams(), "I1"),
    ("F1", "openai-responses", F1_DUPLICATE, CallParams(), "I13"),
    ("F2", "gemini", F2_GEMINI3_UNSIGNED_CALL, CallParams(model="gemini-3-pro-preview"), "I9"),
    ("F3", "openai-chat", [], CallParams(), "I12"),
    ("F3", "openrouter", [], CallParams(), "I12"),
    ("F4", "gemini", F4_NOT_BASE64, CallParams(model="gemini-2.5-flash"), "I12"),
]
IDS = [f"{f}-{p}-{i}" for f, p, _, _, i in CASES]


def _violations(
    history: list[HistoryEvent], params: CallParams, provider: str, invariant: str
) -> list[Violation]:
    return run_invariants(history, params, providers=[provider], invariants=[invariant]).violations


@pytest.mark.parametrize(("finding", "provider", "history", "params", "invariant"), CASES, ids=IDS)
def test_finding_stays_fixed(
    finding: str, provider: str, history: list[HistoryEvent], params: CallParams, invariant: str
) -> None:
    found = _violations(history, params, provider, invariant)
    assert not found, f"{finding} is back for {provider}: {found[0]} {found[0].example}"


def test_no_finding_is_parked() -> None:
    assert KNOWN_FINDINGS == ()
