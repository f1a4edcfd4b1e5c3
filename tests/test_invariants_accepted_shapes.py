"""Shapes the real APIs accept are no ``reject`` anywhere in the harness: the invariants too.

An outside library's audit called a Responses ``input_image`` without ``detail`` (the
SDK documents the default ``auto``; recorded requests without it were answered 200) and an OpenAI
Chat ``content: []`` left after a dropped thinking block (openai-python#1812: answered 200) a
``reject``. A target that renders either shape is audited here through every request invariant;
whatever the invariants say of it, no finding is a ``reject``, and I12 (the oracles) says nothing.
"""

from __future__ import annotations

from typing import Any, cast

from harness.invariants import run_invariants
from harness.model import AssistantMessage, ImageURLPart, TextPart, ThinkingTextPart, UserMessage
from harness.params import CallParams
from tests.support.invariants import Mutant

REQUEST_CHECKS = ("I1", "I2", "I4", "I7", "I8", "I12", "I13")


def _without_detail(_provider: str, body: dict[str, Any]) -> None:
    items: list[dict[str, Any]] = body["input"]
    for item in items:
        parts: list[Any] = item.get("content") or []
        for part in parts:
            if isinstance(part, dict) and cast(dict[str, Any], part).get("type") == "input_image":
                del cast(dict[str, Any], part)["detail"]


def _empty_content(_provider: str, body: dict[str, Any]) -> None:
    """What a client sends when it drops a turn's only thinking block: the assistant turn, content []."""
    body["messages"].insert(2, {"role": "assistant", "content": []})
    body["messages"].insert(3, {"role": "user", "content": "go on"})


def _kinds(provider: str, history: list[Any], target: Mutant) -> dict[str, str]:
    report = run_invariants(
        history, CallParams(), target=target, providers=[provider], invariants=REQUEST_CHECKS
    )
    return {f"{v.invariant}: {v.reason}": v.kind for v in report.violations}


def test_an_input_image_without_detail_is_no_reject() -> None:
    history = [
        UserMessage(parts=[TextPart(text="Describe it."), ImageURLPart(url="https://example.com/cat.png")])
    ]
    kinds = _kinds("openai-responses", history, Mutant(body=_without_detail))
    assert "reject" not in kinds.values(), kinds
    assert not [k for k in kinds if k.startswith("I12")], kinds


def test_an_empty_content_list_after_a_dropped_thinking_block_is_no_reject() -> None:
    history = [
        UserMessage(parts=[TextPart(text="Think about it.")]),
        AssistantMessage(parts=[ThinkingTextPart(text="hmm")], stop_reason="stop"),
        UserMessage(parts=[TextPart(text="And?")]),
    ]
    kinds = _kinds("openai-chat", history, Mutant(body=_empty_content))
    assert "reject" not in kinds.values(), kinds
    assert not [k for k in kinds if k.startswith("I12")], kinds
    assert any(k.startswith("I8") and "is empty" in k for k in kinds), kinds  # named: our design's policy
