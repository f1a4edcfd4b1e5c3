"""The harness's own cassettes and streams hold each provider's own fields only, one response per case.

The openai-chat test stream once carried DeepSeek's ``reasoning_content`` (and another
Groq's ``x_groq``, another Responses stream GitHub Copilot's ``copilot_usage``): a client that
rightly ignores a field OpenAI never sends was judged for losing it. Every response in
``cassettes/<provider>/``, and every stream the harness writes for a provider (the scenarios'
assistant messages, projected and emitted), is read against the provider's official SDK types
(``tests/support/stream_fields.py``); a field they lack is either the provider's own, newer than its SDK
(``OWN``, each with the recording that shows the provider sends it), or another provider's: a
failure. The providers without SDK response types are named, not judged.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from harness.audit.corpus import cassette_cases as audit_cases
from harness.contract.wires import PROVIDER_WIRES, sniff_wire, split_responses
from harness.emit import NotRepresentable, emit_stream, representable
from harness.emit.project import project
from harness.model import AssistantMessage
from harness.scenarios import load_scenarios
from tests.support.cassettes import CASSETTES, cassette_cases, model_calls
from tests.support.stream_fields import JUDGED, NOT_JUDGED, unknown_fields

#: A provider's own response fields its SDK's types do not declare yet (paths, ``[*]`` for indices),
#: each with where the provider itself sent it.
OWN: dict[str, dict[str, str]] = {
    "openai-responses": {
        "obfuscation": "OpenAI's stream_options.include_obfuscation padding on delta events "
        "(cassettes/openai-responses/pai__gpt55_reasoning_function_call_phase_roundtrip.yaml, api.openai.com)",
        "response.store": "the Response object's store, as api.openai.com returns it (same cassette)",
        "response.frequency_penalty": "as api.openai.com returns it (same cassette)",
        "response.presence_penalty": "as api.openai.com returns it (same cassette)",
    },
    "groq": {
        "choices[*].delta.channel": "gpt-oss's harmony channel on Groq's stream "
        "(cassettes/groq/models__test_groq__test_tool_use_failed_error_streaming.yaml, api.groq.com)",
    },
    "mistral": {
        "usage.prompt_tokens_details": "api.mistral.ai (cassettes/mistral/cassettes__test_thinking_wire_contract__"
        "test_reasoning_wire_contract[mistral-magistral-always-on-no-effort].yaml)",
        "usage.num_cached_tokens": "api.mistral.ai (cassettes/mistral/models__test_tool_choice_matrix__"
        "test_tool_choice_matrix[required-mistral].yaml)",
    },
    "cohere": {
        f"delta.message.{key}": "message-start announces the empty message: "
        "ChatMessageStartEventDeltaMessage(role='assistant', content=[], tool_plan='', tool_calls=[], "
        "citations=[]) in Cohere's own streaming guide (docs.cohere.com, 'Events stream'); cohere 7.3's "
        "type keeps role only"
        for key in ("content", "tool_plan", "tool_calls", "citations")
    },
    "huggingface": {
        "object": "router.huggingface.co passes the serving provider's fields through "
        "(cassettes/huggingface/models__test_huggingface__test_hf_model_thinking_part.yaml, Together)",
        "prompt": "as above",
        "metadata": "as above (models__test_tool_choice_matrix__test_tool_choice_matrix[required-huggingface])",
        "choices[*].seed": "as above",
        "usage.cached_tokens": "as above",
        "choices[*].message.tool_calls[*].index": "as above",
    },
}


def _foreign(provider: str, found: list[str]) -> list[str]:
    own = OWN.get(provider, {})
    return [f for f in found if re.sub(r"\[\d+\]", "[*]", f.split(": ", 1)[1]) not in own]


CASES = [(p, path) for p, path in cassette_cases() if p in JUDGED]


def test_every_provider_is_judged_or_named() -> None:
    assert set(JUDGED) | set(NOT_JUDGED) >= {p for p, _ in cassette_cases()}
    assert not set(JUDGED) & set(NOT_JUDGED)


@pytest.mark.parametrize(("provider", "path"), CASES, ids=[f"{p}-{path.stem}" for p, path in CASES])
def test_each_cassette_holds_its_providers_fields_only(provider: str, path: Path) -> None:
    exchanges = [e for e in model_calls(provider, path) if e.status < 400]
    assert exchanges
    for exchange in exchanges:
        assert _foreign(provider, unknown_fields(provider, exchange.body)) == [], path.name


def test_the_check_finds_another_providers_field() -> None:
    """The check has teeth: DeepSeek's recording read as OpenAI Chat names ``reasoning_content``."""
    deepseek = CASSETTES / "deepseek" / "pai__deepseek_reasoner_reasoning_content.yaml"
    (exchange,) = model_calls("deepseek", deepseek)
    found = _foreign("openai-chat", unknown_fields("openai-chat", exchange.body))
    assert any(f.endswith("choices[0].delta.reasoning_content") for f in found), found


def test_a_provider_folder_holds_only_its_own_hosts() -> None:
    """A recording of another host (DeepSeek's, Groq's, GitHub Copilot's) is not filed under a provider
    whose wire it speaks: each bundled cassette's request went to its own provider."""
    from harness.contract.routing import route

    wrong: list[str] = []
    for provider, path in cassette_cases():
        for exchange in model_calls(provider, path):
            routed = route(exchange.method, exchange.uri)
            if routed is not None and routed.provider != provider:
                wrong.append(f"{path.relative_to(CASSETTES)}: {exchange.uri} is {routed.provider}")
    assert wrong == []


def test_every_audit_case_is_one_response() -> None:
    """The audit's replay vs the reference compares one response: a multi-step capture (four
    responses in one body) is four cases."""
    cases, unreadable = audit_cases(CASSETTES, list(PROVIDER_WIRES))
    assert not unreadable
    several = [
        c.case
        for c in cases
        if c.exchange.status < 400
        and len(
            split_responses(sniff_wire(c.exchange.body) or PROVIDER_WIRES[c.provider][0], c.exchange.body)
        )
        > 1
    ]
    assert several == []
    multi = [c for c in cases if "openai-reasoning-encrypted-content" in c.case]
    assert len(multi) == 4


# ---------------------------------------------------------------- the streams the harness writes


def _assistant_messages() -> list[AssistantMessage]:
    return [e for s in load_scenarios().values() for e in s.history if isinstance(e, AssistantMessage)]


@pytest.mark.parametrize("provider", sorted(JUDGED))
def test_every_emitted_stream_holds_its_providers_fields_only(provider: str) -> None:
    """Each scenario's assistant messages, projected to what the provider's stream carries and
    emitted: the stream the I11 round trip and an audit replay hand a target."""
    emitted = 0
    for message in _assistant_messages():
        try:
            projected = project(provider, message, representable).message
        except NotRepresentable:
            continue
        body = emit_stream(provider, projected)
        assert _foreign(provider, unknown_fields(provider, body)) == [], message
        emitted += 1
    assert emitted > 10
