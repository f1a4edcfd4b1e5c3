"""Signatures are bytes (I2, I13), and text is found in the request however it is escaped (I13)."""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest

from harness.invariants import run_invariants
from harness.invariants.base import signature_key
from harness.invariants.loss import _BodyIndex  # pyright: ignore[reportPrivateUsage]
from harness.model import AssistantMessage, ThinkingSignaturePart, ThinkingTextPart
from harness.scenarios import get_scenario
from tests.support.invariants import Mutant


def test_signature_key_reads_both_alphabets_and_padding() -> None:
    raw = bytes(range(250, 256)) + b"\xfb\xff\xfe"
    standard = base64.b64encode(raw).decode()
    url = base64.urlsafe_b64encode(raw).decode().rstrip("=")
    assert standard != url and signature_key(standard) == signature_key(url) == raw
    assert signature_key("not base64!") == "not base64!"
    assert signature_key(standard) != signature_key(base64.b64encode(raw[:-1]).decode())


def _rewrite(transform: Any) -> Any:
    def mutate(provider: str, body: dict[str, Any]) -> None:
        for content in body.get("contents", []):
            for part in content.get("parts", []):
                if "thoughtSignature" in part:
                    part["thoughtSignature"] = transform(part["thoughtSignature"])

    return mutate


def test_a_url_safe_respelling_is_the_same_signature_and_a_changed_one_is_not() -> None:
    scenario = get_scenario("thinking_google_signature_on_function_call")
    params = scenario.params_for("gemini")

    def url_safe(sig: str) -> str:
        return base64.urlsafe_b64encode(base64.b64decode(sig)).decode().rstrip("=")

    def changed(sig: str) -> str:
        raw = bytearray(base64.b64decode(sig))
        raw[0] ^= 0xFF
        return base64.b64encode(bytes(raw)).decode()

    for name, transform, holds in (("url-safe", url_safe, True), ("changed", changed, False)):
        report = run_invariants(
            scenario.history,
            params,
            target=Mutant(body=_rewrite(transform)),
            providers=["gemini"],
            invariants=["I2", "I13"],
        )
        assert report.ok is holds, (name, [str(v) for v in report.violations])


def test_gemini_placeholder_is_the_placeholder_in_either_spelling() -> None:
    """google-genai writes the placeholder's bytes base64-encoded; the API accepted that spelling
    (traffic/pydantic-ai/models__test_google__test_google_model_structured_output.yaml#1)."""
    scenario = get_scenario("regression_gemini3_sentinel_on_earlier_turn")
    params = scenario.params_for("gemini")
    skip = "skip_thought_signature_validator"

    def encoded(sig: str) -> str:
        return base64.b64encode(skip.encode()).decode() if sig == skip else sig

    def other_text(sig: str) -> str:
        return base64.b64encode(b"not_the_placeholder_at_all").decode() if sig == skip else sig

    for name, transform, holds in (("base64", encoded, True), ("other bytes", other_text, False)):
        report = run_invariants(
            scenario.history,
            params,
            target=Mutant(body=_rewrite(transform)),
            providers=["gemini"],
            invariants=["I2"],
        )
        assert report.ok is holds, (name, [str(v) for v in report.violations])


def _keep_foreign_thinking(provider: str, events: list[Any]) -> list[Any]:
    """The target re-sends another model's thinking as if it were this call's (the mistake under test)."""
    out: list[Any] = []
    for event in events:
        if isinstance(event, AssistantMessage):
            parts = [
                p.model_copy(update={"model_id": None})
                if isinstance(p, ThinkingSignaturePart | ThinkingTextPart)
                else p
                for p in event.parts
            ]
            event = event.model_copy(update={"parts": parts})
        out.append(event)
    return out


@pytest.mark.parametrize(
    ("provider", "scenario_name", "kind"),
    [
        ("anthropic", "thinking_foreign_model_same_provider", "reject"),
        ("openai-responses", "mixed_provider_history", "reject"),
        ("gemini", "thinking_foreign_provider_google_on_claude", "policy"),
    ],
)
def test_another_models_signature_is_rejected_where_signatures_are_model_bound(
    provider: str, scenario_name: str, kind: str
) -> None:
    """Anthropic and Responses signatures are model-bound (400 after a model switch); Gemini's
    are not known to be, so re-sending another Gemini model's only differs from the drop policy."""
    scenario = get_scenario(scenario_name)
    report = run_invariants(
        scenario.history,
        scenario.params_for(provider),
        target=Mutant(history=_keep_foreign_thinking),
        providers=[provider],
        invariants=["I2"],
    )
    found = {v.kind for v in report.violations if "is not a native signature" in v.reason}
    assert found == {kind}, [str(v) for v in report.violations]


def test_text_sent_escaped_inside_a_json_document_is_found() -> None:
    """pydantic-ai sends an error result as ``{"error": text}`` in a string: the text is there, escaped."""
    text = 'Command timed out.\nPartial "output": ........F\tdone \u2013 ok'
    body = {"messages": [{"role": "tool", "content": json.dumps({"error": text})}]}
    assert _BodyIndex(body).text(text)
    assert _BodyIndex({"messages": [{"content": json.dumps({"error": text}, ensure_ascii=False)}]}).text(text)
    assert not _BodyIndex(body).text("Command timed out.\nPartial output")
